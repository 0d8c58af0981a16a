"""VerifyService: house-rule scenarios (docs/scenarios.md) checked over the API.

The text of scenario files in, one result per scenario out, as ``cardroom verify`` prints
them (the runner is :func:`simulations.verify.run.verify_text`).  A scenario sent over the
wire resolves no paths (``base`` is None): a ``game_file`` or ``phh`` key would name a file
on the server's disk, and the runner reports such a scenario as malformed, naming the key.
What is wrong with a scenario or a file is a result, never an RPC error; the RPC is refused
only for a request that is not one (no files, a file unnamed, named twice or empty) or one
over the limits below.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass

import grpc

from service.api.cardroom.v1 import verify_service_pb2 as vpb
from service.api.cardroom.v1 import verify_service_pb2_grpc as vpb_grpc
from simulations.phh.results import (
    Difference,
    FileReport,
    Outcome,
    ScenarioResult,
    exit_code,
)
from simulations.spec import echo

log = logging.getLogger(__name__)

VERIFY_SERVICE_NAME = vpb.DESCRIPTOR.services_by_name["VerifyService"].full_name
# A request is a CI run's scenario files: hundreds of scenarios, a few hundred KiB.  The
# limits keep one request to seconds of engine time and under grpc's own 4 MiB message cap
# (which answers RESOURCE_EXHAUSTED too, so an over-large request gets that code either way).
MAX_FILES = 256
MAX_REQUEST_BYTES = 2 * 1024 * 1024  # the files' names and texts, in UTF-8
MAX_SCENARIOS = 2000
# Requests checked at once; more wait their turn.  Checking holds the interpreter's lock,
# so more threads would not finish sooner, only slow the event loop serving other calls.
MAX_CONCURRENT_RUNS = 2

_OUTCOMES = {
    Outcome.PASSED: vpb.SCENARIO_OUTCOME_PASSED,
    Outcome.FAILED: vpb.SCENARIO_OUTCOME_FAILED,
    Outcome.MALFORMED: vpb.SCENARIO_OUTCOME_MALFORMED,
}
_FROM_API_OUTCOME = {value: key for key, value in _OUTCOMES.items()}

Context = grpc.aio.ServicerContext  # generic in the request and response message types


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused before any scenario runs: the status and one line."""

    code: grpc.StatusCode
    message: str


class TooManyScenarios(Exception):
    """The files hold more scenarios than one request may check."""

    def __init__(self, count: int) -> None:
        super().__init__(f"files: must hold at most {MAX_SCENARIOS:,} scenarios, got {count:,}")


class CheckFailed(Exception):
    """The runner or the engine failed on a file (a bug: a bad file is a report, not this);
    the message names the file."""


def request_refusal(request: vpb.VerifyRequest) -> Refusal | None:
    """Why ``request`` is refused before it is parsed, or None: no files, more than
    :data:`MAX_FILES`, a file without a name or text, a name given twice, or more than
    :data:`MAX_REQUEST_BYTES` of names and texts."""
    files = request.files
    if not files:
        return Refusal(grpc.StatusCode.INVALID_ARGUMENT, "files: at least one file is required")
    if len(files) > MAX_FILES:
        return Refusal(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            f"files: must be at most {MAX_FILES:,} files, got {len(files):,}",
        )
    seen: dict[str, int] = {}
    size = 0
    for index, file in enumerate(files):
        where = f"files[{index}]"
        if not file.name:
            return Refusal(grpc.StatusCode.INVALID_ARGUMENT, f"{where}.name: is required")
        if file.name in seen:
            return Refusal(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"{where}.name: {echo(file.name)} is already the name of files[{seen[file.name]}]",
            )
        seen[file.name] = index
        if not file.text:
            return Refusal(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"{where}.text: is required (the TOML text of a scenario file)",
            )
        size += len(file.name.encode("utf-8")) + len(file.text.encode("utf-8"))
    if size > MAX_REQUEST_BYTES:
        return Refusal(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            f"files: must hold at most {MAX_REQUEST_BYTES:,} bytes of names and text, got {size:,}",
        )
    return None


def scenario_count(text: str) -> int:
    """The scenarios a file's text holds (its ``[[scenario]]`` tables); 0 for text that is not
    TOML, which the runner then reports as the file's error."""
    try:
        document = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):  # the runner reports the file's error
        return 0
    scenarios = document.get("scenario")
    if isinstance(scenarios, list):
        return len(scenarios)
    return 0 if scenarios is None else 1


def check_files(
    files: Sequence[tuple[str, str]], stop: threading.Event | None = None
) -> list[FileReport]:
    """Every scenario of every file (name, TOML text), in order, one report a file; paths in
    the scenarios resolve nowhere (``base=None``).  Raises :class:`TooManyScenarios` before
    running any when the files hold more than :data:`MAX_SCENARIOS`; stops between files
    once ``stop`` is set (the call has ended: nobody reads the reports)."""
    count = sum(scenario_count(text) for _, text in files)
    if count > MAX_SCENARIOS:
        raise TooManyScenarios(count)
    from simulations.verify.run import verify_text  # the runner loads the engine: on first use

    reports = []
    for index, (name, text) in enumerate(files):
        if stop is not None and stop.is_set():
            break
        try:
            reports.append(verify_text(text, name, None))
        except Exception as err:
            where = f"files[{index}] ({echo(name)})"
            raise CheckFailed(f"{where}: the engine failed while checking this file") from err
    return reports


def result_message(result: ScenarioResult) -> vpb.ScenarioResult:
    return vpb.ScenarioResult(
        file=result.file,
        name=result.name,
        outcome=_OUTCOMES[result.outcome],
        covers=result.covers,
        differences=[
            vpb.ScenarioDifference(field=d.field, expected=d.expected, actual=d.actual)
            for d in result.differences
        ],
        notes=result.notes,
        message=result.message,
        seconds=result.seconds,
    )


def response_message(names: Sequence[str], reports: Sequence[FileReport]) -> vpb.VerifyResponse:
    """The reports as the API's response, each under the name its file was sent as, with the
    totals and the exit status ``cardroom verify`` would give."""
    results = [result for report in reports for result in report.results]
    return vpb.VerifyResponse(
        files=[
            vpb.ScenarioFileReport(
                name=name,
                error=report.error,
                results=[result_message(result) for result in report.results],
            )
            for name, report in zip(names, reports, strict=True)
        ],
        scenarios=len(results),
        passed=sum(result.outcome is Outcome.PASSED for result in results),
        failed=sum(result.outcome is Outcome.FAILED for result in results),
        malformed=sum(result.outcome is Outcome.MALFORMED for result in results),
        unreadable_files=sum(bool(report.error) for report in reports),
        exit_code=exit_code(tuple(reports)),
    )


def file_reports(response: vpb.VerifyResponse) -> list[FileReport]:
    """A response read back as the runner's reports (what a client prints, as ``cardroom
    verify`` does for local files); an outcome this version does not know reads as
    malformed, since it was not seen to pass."""
    return [
        FileReport(
            path=file.name,
            error=file.error,
            results=tuple(
                ScenarioResult(
                    file=result.file,
                    name=result.name,
                    outcome=_FROM_API_OUTCOME.get(result.outcome, Outcome.MALFORMED),
                    seconds=result.seconds,
                    covers=tuple(result.covers),
                    differences=tuple(
                        Difference(field=d.field, expected=d.expected, actual=d.actual)
                        for d in result.differences
                    ),
                    notes=tuple(result.notes),
                    message=result.message,
                )
                for result in file.results
            ),
        )
        for file in response.files
    ]


class VerifyService(vpb_grpc.VerifyServiceServicer):
    """Scenario files checked against the engine, off the event loop; no state, no Ray."""

    def __init__(self, concurrent_runs: int = MAX_CONCURRENT_RUNS) -> None:
        self._runs = asyncio.Semaphore(concurrent_runs)

    async def Verify(
        self, request: vpb.VerifyRequest, context: Context[vpb.VerifyRequest, vpb.VerifyResponse]
    ) -> vpb.VerifyResponse:
        return await self._verify(request, context)

    async def _verify(
        self, request: vpb.VerifyRequest, context: Context[vpb.VerifyRequest, vpb.VerifyResponse]
    ) -> vpb.VerifyResponse:
        refusal = request_refusal(request)
        if refusal is not None:
            await context.abort(refusal.code, refusal.message)
        files = [(file.name, file.text) for file in request.files]
        stop = threading.Event()
        try:
            async with self._runs:  # off the event loop: a file of scenarios takes seconds
                reports = await asyncio.to_thread(check_files, files, stop)
        except TooManyScenarios as err:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(err))
        except asyncio.CancelledError:
            stop.set()  # the thread stops at its next file
            raise
        except CheckFailed as err:  # a runner or engine bug: say so, never UNKNOWN
            log.exception("Verify: checking a scenario file failed")
            await context.abort(grpc.StatusCode.INTERNAL, str(err))
        except Exception:  # the runner itself missing or broken
            log.exception("Verify: the scenario runner failed")
            await context.abort(grpc.StatusCode.INTERNAL, "files: the scenario runner failed")
        return response_message([name for name, _ in files], reports)
