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


@dataclass(frozen=True)
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

    @property
    def passed(self) -> bool:
        return self.outcome is Outcome.PASSED


@dataclass(frozen=True)
class FileReport:
    """Every scenario of one file; ``error`` when the file itself could not be read (it then
    holds no results)."""

    path: str
    results: tuple[ScenarioResult, ...] = ()
    error: str = ""

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
