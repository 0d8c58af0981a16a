from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ScenarioOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCENARIO_OUTCOME_UNSPECIFIED: _ClassVar[ScenarioOutcome]
    SCENARIO_OUTCOME_PASSED: _ClassVar[ScenarioOutcome]
    SCENARIO_OUTCOME_FAILED: _ClassVar[ScenarioOutcome]
    SCENARIO_OUTCOME_MALFORMED: _ClassVar[ScenarioOutcome]
SCENARIO_OUTCOME_UNSPECIFIED: ScenarioOutcome
SCENARIO_OUTCOME_PASSED: ScenarioOutcome
SCENARIO_OUTCOME_FAILED: ScenarioOutcome
SCENARIO_OUTCOME_MALFORMED: ScenarioOutcome

class ScenarioFile(_message.Message):
    __slots__ = ("name", "text")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    name: str
    text: str
    def __init__(self, name: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class ScenarioDifference(_message.Message):
    __slots__ = ("field", "expected", "actual")
    FIELD_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_FIELD_NUMBER: _ClassVar[int]
    ACTUAL_FIELD_NUMBER: _ClassVar[int]
    field: str
    expected: str
    actual: str
    def __init__(self, field: _Optional[str] = ..., expected: _Optional[str] = ..., actual: _Optional[str] = ...) -> None: ...

class ScenarioResult(_message.Message):
    __slots__ = ("file", "name", "outcome", "covers", "differences", "notes", "message", "seconds")
    FILE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    COVERS_FIELD_NUMBER: _ClassVar[int]
    DIFFERENCES_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    file: str
    name: str
    outcome: ScenarioOutcome
    covers: _containers.RepeatedScalarFieldContainer[str]
    differences: _containers.RepeatedCompositeFieldContainer[ScenarioDifference]
    notes: _containers.RepeatedScalarFieldContainer[str]
    message: str
    seconds: float
    def __init__(self, file: _Optional[str] = ..., name: _Optional[str] = ..., outcome: _Optional[_Union[ScenarioOutcome, str]] = ..., covers: _Optional[_Iterable[str]] = ..., differences: _Optional[_Iterable[_Union[ScenarioDifference, _Mapping]]] = ..., notes: _Optional[_Iterable[str]] = ..., message: _Optional[str] = ..., seconds: _Optional[float] = ...) -> None: ...

class ScenarioFileReport(_message.Message):
    __slots__ = ("name", "error", "results")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    error: str
    results: _containers.RepeatedCompositeFieldContainer[ScenarioResult]
    def __init__(self, name: _Optional[str] = ..., error: _Optional[str] = ..., results: _Optional[_Iterable[_Union[ScenarioResult, _Mapping]]] = ...) -> None: ...

class VerifyRequest(_message.Message):
    __slots__ = ("files",)
    FILES_FIELD_NUMBER: _ClassVar[int]
    files: _containers.RepeatedCompositeFieldContainer[ScenarioFile]
    def __init__(self, files: _Optional[_Iterable[_Union[ScenarioFile, _Mapping]]] = ...) -> None: ...

class VerifyResponse(_message.Message):
    __slots__ = ("files", "scenarios", "passed", "failed", "malformed", "unreadable_files", "exit_code")
    FILES_FIELD_NUMBER: _ClassVar[int]
    SCENARIOS_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    MALFORMED_FIELD_NUMBER: _ClassVar[int]
    UNREADABLE_FILES_FIELD_NUMBER: _ClassVar[int]
    EXIT_CODE_FIELD_NUMBER: _ClassVar[int]
    files: _containers.RepeatedCompositeFieldContainer[ScenarioFileReport]
    scenarios: int
    passed: int
    failed: int
    malformed: int
    unreadable_files: int
    exit_code: int
    def __init__(self, files: _Optional[_Iterable[_Union[ScenarioFileReport, _Mapping]]] = ..., scenarios: _Optional[int] = ..., passed: _Optional[int] = ..., failed: _Optional[int] = ..., malformed: _Optional[int] = ..., unreadable_files: _Optional[int] = ..., exit_code: _Optional[int] = ...) -> None: ...
