import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class JobState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    JOB_STATE_UNSPECIFIED: _ClassVar[JobState]
    JOB_STATE_QUEUED: _ClassVar[JobState]
    JOB_STATE_RUNNING: _ClassVar[JobState]
    JOB_STATE_SUCCEEDED: _ClassVar[JobState]
    JOB_STATE_FAILED: _ClassVar[JobState]
    JOB_STATE_CANCELLED: _ClassVar[JobState]
JOB_STATE_UNSPECIFIED: JobState
JOB_STATE_QUEUED: JobState
JOB_STATE_RUNNING: JobState
JOB_STATE_SUCCEEDED: JobState
JOB_STATE_FAILED: JobState
JOB_STATE_CANCELLED: JobState

class JobSpec(_message.Message):
    __slots__ = ("trials", "seed", "shard_size", "bad_beat")
    TRIALS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SHARD_SIZE_FIELD_NUMBER: _ClassVar[int]
    BAD_BEAT_FIELD_NUMBER: _ClassVar[int]
    trials: int
    seed: int
    shard_size: int
    bad_beat: BadBeatSpec
    def __init__(self, trials: _Optional[int] = ..., seed: _Optional[int] = ..., shard_size: _Optional[int] = ..., bad_beat: _Optional[_Union[BadBeatSpec, _Mapping]] = ...) -> None: ...

class BadBeatSpec(_message.Message):
    __slots__ = ("game", "jackpot")
    GAME_FIELD_NUMBER: _ClassVar[int]
    JACKPOT_FIELD_NUMBER: _ClassVar[int]
    game: BadBeatGame
    jackpot: BadBeatJackpot
    def __init__(self, game: _Optional[_Union[BadBeatGame, _Mapping]] = ..., jackpot: _Optional[_Union[BadBeatJackpot, _Mapping]] = ...) -> None: ...

class BadBeatGame(_message.Message):
    __slots__ = ("variant", "players")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    variant: str
    players: int
    def __init__(self, variant: _Optional[str] = ..., players: _Optional[int] = ...) -> None: ...

class BadBeatJackpot(_message.Message):
    __slots__ = ("min_losing_hand", "min_winning_hand", "hole_cards_play", "quads_need_pocket_pair", "board_trips_full_house")
    MIN_LOSING_HAND_FIELD_NUMBER: _ClassVar[int]
    MIN_WINNING_HAND_FIELD_NUMBER: _ClassVar[int]
    HOLE_CARDS_PLAY_FIELD_NUMBER: _ClassVar[int]
    QUADS_NEED_POCKET_PAIR_FIELD_NUMBER: _ClassVar[int]
    BOARD_TRIPS_FULL_HOUSE_FIELD_NUMBER: _ClassVar[int]
    min_losing_hand: str
    min_winning_hand: str
    hole_cards_play: int
    quads_need_pocket_pair: bool
    board_trips_full_house: bool
    def __init__(self, min_losing_hand: _Optional[str] = ..., min_winning_hand: _Optional[str] = ..., hole_cards_play: _Optional[int] = ..., quads_need_pocket_pair: _Optional[bool] = ..., board_trips_full_house: _Optional[bool] = ...) -> None: ...

class JobProgress(_message.Message):
    __slots__ = ("shards_done", "shards_total", "trials_done", "trials_total", "estimate")
    SHARDS_DONE_FIELD_NUMBER: _ClassVar[int]
    SHARDS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    TRIALS_DONE_FIELD_NUMBER: _ClassVar[int]
    TRIALS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    ESTIMATE_FIELD_NUMBER: _ClassVar[int]
    shards_done: int
    shards_total: int
    trials_done: int
    trials_total: int
    estimate: JobResult
    def __init__(self, shards_done: _Optional[int] = ..., shards_total: _Optional[int] = ..., trials_done: _Optional[int] = ..., trials_total: _Optional[int] = ..., estimate: _Optional[_Union[JobResult, _Mapping]] = ...) -> None: ...

class JobResult(_message.Message):
    __slots__ = ("bad_beat",)
    BAD_BEAT_FIELD_NUMBER: _ClassVar[int]
    bad_beat: BadBeatResult
    def __init__(self, bad_beat: _Optional[_Union[BadBeatResult, _Mapping]] = ...) -> None: ...

class BadBeatResult(_message.Message):
    __slots__ = ("hands", "jackpot_hands", "frequency", "ci95_low", "ci95_high", "one_in")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    JACKPOT_HANDS_FIELD_NUMBER: _ClassVar[int]
    FREQUENCY_FIELD_NUMBER: _ClassVar[int]
    CI95_LOW_FIELD_NUMBER: _ClassVar[int]
    CI95_HIGH_FIELD_NUMBER: _ClassVar[int]
    ONE_IN_FIELD_NUMBER: _ClassVar[int]
    hands: int
    jackpot_hands: int
    frequency: float
    ci95_low: float
    ci95_high: float
    one_in: float
    def __init__(self, hands: _Optional[int] = ..., jackpot_hands: _Optional[int] = ..., frequency: _Optional[float] = ..., ci95_low: _Optional[float] = ..., ci95_high: _Optional[float] = ..., one_in: _Optional[float] = ...) -> None: ...

class Job(_message.Message):
    __slots__ = ("id", "kind", "state", "spec", "progress", "result", "error", "create_time", "update_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    kind: str
    state: JobState
    spec: JobSpec
    progress: JobProgress
    result: JobResult
    error: str
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., kind: _Optional[str] = ..., state: _Optional[_Union[JobState, str]] = ..., spec: _Optional[_Union[JobSpec, _Mapping]] = ..., progress: _Optional[_Union[JobProgress, _Mapping]] = ..., result: _Optional[_Union[JobResult, _Mapping]] = ..., error: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SubmitJobRequest(_message.Message):
    __slots__ = ("spec",)
    SPEC_FIELD_NUMBER: _ClassVar[int]
    spec: JobSpec
    def __init__(self, spec: _Optional[_Union[JobSpec, _Mapping]] = ...) -> None: ...

class SubmitJobResponse(_message.Message):
    __slots__ = ("job",)
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: Job
    def __init__(self, job: _Optional[_Union[Job, _Mapping]] = ...) -> None: ...

class GetJobRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetJobResponse(_message.Message):
    __slots__ = ("job",)
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: Job
    def __init__(self, job: _Optional[_Union[Job, _Mapping]] = ...) -> None: ...

class ListJobsRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "state", "kind")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    state: JobState
    kind: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., state: _Optional[_Union[JobState, str]] = ..., kind: _Optional[str] = ...) -> None: ...

class ListJobsResponse(_message.Message):
    __slots__ = ("jobs", "next_page_token")
    JOBS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    jobs: _containers.RepeatedCompositeFieldContainer[Job]
    next_page_token: str
    def __init__(self, jobs: _Optional[_Iterable[_Union[Job, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class WatchJobRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class WatchJobResponse(_message.Message):
    __slots__ = ("job",)
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: Job
    def __init__(self, job: _Optional[_Union[Job, _Mapping]] = ...) -> None: ...

class CancelJobRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class CancelJobResponse(_message.Message):
    __slots__ = ("job",)
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: Job
    def __init__(self, job: _Optional[_Union[Job, _Mapping]] = ...) -> None: ...
