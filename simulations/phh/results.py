"""What checking a scenario or a hand history found: one result per scenario, one report per
file.  ``cardroom verify``, its JUnit report and the Verify RPC all read these."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Outcome(StrEnum):
    """A scenario passed, failed an expectation, or could not be read or set up."""

    PASSED = "passed"
    FAILED = "failed"
    MALFORMED = "malformed"


@dataclass(frozen=True)
class Difference:
    """One expectation that did not hold: what was expected and what the engine did, each
    as text; ``field`` names the expectation (``expect.pots[1].winners``)."""

    field: str
    expected: str
    actual: str


# The results a run builds for every hand write their own ``__init__`` (``init=False``):
# mypyc compiles it, where the one ``dataclasses`` generates stays interpreted and costs many
# times as much.  The fields, their order and defaults are the same.
@dataclass(frozen=True, init=False)
class ScenarioResult:
    """One scenario (or one hand of a hand history) checked.

    ``covers``: the rule paragraphs the scenario names; ``notes``: the readings the check
    applied where the texts settle a convention one way (an odd chip, a short all-in);
    ``message``: why a malformed scenario could not be run, naming the field."""

    file: str
    name: str
    outcome: Outcome
    seconds: float
    covers: tuple[str, ...] = ()
    differences: tuple[Difference, ...] = ()
    notes: tuple[str, ...] = ()
    message: str = ""

    def __init__(
        self,
        file: str,
        name: str,
        outcome: Outcome,
        seconds: float,
        covers: tuple[str, ...] = (),
        differences: tuple[Difference, ...] = (),
        notes: tuple[str, ...] = (),
        message: str = "",
    ) -> None:
        object.__setattr__(self, "file", file)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "seconds", seconds)
        object.__setattr__(self, "covers", covers)
        object.__setattr__(self, "differences", differences)
        object.__setattr__(self, "notes", notes)
        object.__setattr__(self, "message", message)

    @property
    def passed(self) -> bool:
        return self.outcome is Outcome.PASSED


@dataclass(frozen=True, init=False)
class FileReport:
    """Every scenario of one file; ``error`` when the file itself could not be read (it then
    holds no results)."""

    path: str
    results: tuple[ScenarioResult, ...] = ()
    error: str = ""

    def __init__(
        self, path: str, results: tuple[ScenarioResult, ...] = (), error: str = ""
    ) -> None:
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "results", results)
        object.__setattr__(self, "error", error)

    @property
    def malformed(self) -> bool:
        return bool(self.error) or any(r.outcome is Outcome.MALFORMED for r in self.results)

    @property
    def failed(self) -> bool:
        return any(r.outcome is Outcome.FAILED for r in self.results)


def exit_code(reports: list[FileReport] | tuple[FileReport, ...]) -> int:
    """0: every scenario passed; 1: some expectation failed; 2: some input was malformed
    (a malformed file outranks a failure: the run could not check everything)."""
    if any(report.malformed for report in reports):
        return 2
    if any(report.failed for report in reports):
        return 1
    return 0
