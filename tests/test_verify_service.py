"""VerifyService: scenario files (docs/scenarios.md) checked over real gRPC on loopback (one
server for the module), and the servicer in process with a stand-in runner for what a real
server cannot show (the thread it checks on, a cancelled call, a runner failure)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import sys
import threading
import time
import types
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from prometheus_client import CollectorRegistry

from service.api.cardroom.v1 import verify_service_pb2 as vpb
from service.api.cardroom.v1 import verify_service_pb2_grpc as vpb_grpc
from service.interceptors import counted
from service.metrics import ServiceMetrics
from service.verify_service import (
    MAX_FILES,
    MAX_REQUEST_BYTES,
    MAX_SCENARIOS,
    VerifyService,
    check_files,
    file_reports,
    response_message,
)
from simulations.phh.results import Difference, FileReport, Outcome, ScenarioResult
from tests.harness import Server, running_server

SERVICE = "cardroom.v1.VerifyService"

DEFAULTS = """\
[defaults]
game = "NT"
starting_stacks = [1000, 1000, 1000]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
"""
# Three players see a showdown without a bet: p3 (the button) calls the big blind, p1 (the
# small blind) completes, p2 checks, and every street is checked.  Board 2c 3d 8h 9s Jd: p2's
# pair of queens beats p3's sevens and p1's ace-king high, and takes the 30 chips.
CHECKED_DOWN = """actions = [
  "d dh p1 AsKs", "d dh p2 QdQc", "d dh p3 7h7d",
  "p3 cc", "p1 cc", "p2 cc",
  "d db 2c3d8h", "p1 cc", "p2 cc", "p3 cc",
  "d db 9s", "p1 cc", "p2 cc", "p3 cc",
  "d db Jd", "p1 cc", "p2 cc", "p3 cc",
]
"""
PASSING = f"""{DEFAULTS}
[[scenario]]
name = "the best hand at the showdown takes the pot"
covers = ["000_1a86611de8d3f5f7.txt: the best five-card hand"]
{CHECKED_DOWN}
[scenario.expect]
stacks = [990, 1020, 990]
pots = [{{ amount = 30, eligible = ["p1", "p2", "p3"], winners = ["p2"] }}]

[[scenario]]
name = "folded to the big blind"
actions = ["d dh p1 AsKs", "d dh p2 QdQc", "d dh p3 7h7d", "p3 f", "p1 f"]

[scenario.expect]
stacks = [995, 1005, 1000]
"""
FAILING = f"""{DEFAULTS}
[[scenario]]
name = "the sevens are said to win"
{CHECKED_DOWN}
[scenario.expect]
stacks = [990, 990, 1020]
"""
MALFORMED = """\
[[scenario]]
name = "a game file on the server's disk"
game_file = "house-holdem.toml"
starting_stacks = [1000, 1000]

[[scenario]]
name = "a hand history on the server's disk"
phh = "hands/one.phh"

[[scenario]]
name = "no stacks"
game = "NT"
actions = ["d dh p1 AsKs", "d dh p2 QdQc"]

[[scenario]]
name = "an unknown game"
game = "ZZ/9"
starting_stacks = [1000, 1000]

[[scenario]]
name = "folded to the big blind"
game = "NT"
starting_stacks = [1000, 1000, 1000]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
actions = ["d dh p1 AsKs", "d dh p2 QdQc", "d dh p3 7h7d", "p3 f", "p1 f"]

[scenario.expect]
stacks = [995, 1005, 1000]
"""
NOT_TOML = 'name = "unterminated\n[[scenario]]\n'


def _request(*files: tuple[str, str]) -> vpb.VerifyRequest:
    return vpb.VerifyRequest(files=[vpb.ScenarioFile(name=n, text=t) for n, t in files])


# --- over real gRPC ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("verify") / "data", workers=1) as running:
        yield running


@pytest.fixture(scope="module")
def channel(server: Server) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(server.address) as opened:
        yield opened


@pytest.fixture(scope="module")
def stub(channel: grpc.Channel) -> vpb_grpc.VerifyServiceStub:
    return vpb_grpc.VerifyServiceStub(channel)


def _refused(stub: vpb_grpc.VerifyServiceStub, request: vpb.VerifyRequest) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        stub.Verify(request, timeout=120)
    return caught.value


@pytest.mark.slow
def test_passing_scenarios_pass(stub: vpb_grpc.VerifyServiceStub) -> None:
    """Two hands whose stacks and pot were worked out by hand from the blinds and the
    showdown (Rules 000_1a86611de8d3f5f7.txt, 'Texas hold 'em': "the best five-card hand"):
    both pass, exit status 0, the scenario's covers returned."""
    response = stub.Verify(_request(("house/showdown.toml", PASSING)), timeout=120)
    [report] = response.files
    assert report.name == "house/showdown.toml" and not report.error
    assert [r.name for r in report.results] == [
        "the best hand at the showdown takes the pot",
        "folded to the big blind",
    ]
    for result in report.results:
        assert result.outcome == vpb.SCENARIO_OUTCOME_PASSED, (result.message, result.differences)
        assert result.file == "house/showdown.toml" and not result.differences
        assert result.seconds >= 0
    assert list(report.results[0].covers) == ["000_1a86611de8d3f5f7.txt: the best five-card hand"]
    assert (response.scenarios, response.passed, response.failed, response.malformed) == (
        2,
        2,
        0,
        0,
    )
    assert response.unreadable_files == 0 and response.exit_code == 0


@pytest.mark.slow
def test_a_failed_expectation_comes_back_as_a_difference(
    stub: vpb_grpc.VerifyServiceStub,
) -> None:
    """Expected stacks that are not what the hand gives: FAILED, with the expected and the
    actual stacks, exit status 1."""
    response = stub.Verify(_request(("sevens.toml", FAILING)), timeout=120)
    [result] = response.files[0].results
    assert result.outcome == vpb.SCENARIO_OUTCOME_FAILED and not result.message
    [difference] = result.differences
    assert difference.field.startswith("expect.stacks"), difference
    assert "1020" in difference.expected and "1020" in difference.actual
    assert difference.expected != difference.actual
    assert (response.passed, response.failed, response.exit_code) == (0, 1, 1)


@pytest.mark.slow
def test_malformed_scenarios_are_results_naming_the_field(
    stub: vpb_grpc.VerifyServiceStub,
) -> None:
    """A scenario naming a file on the server's disk, without stacks, or of an unknown game
    is MALFORMED naming the key, not an RPC error; the file's other scenario still runs."""
    response = stub.Verify(_request(("malformed.toml", MALFORMED)), timeout=120)
    report = response.files[0]
    assert not report.error
    outcomes = {r.name: (r.outcome, r.message) for r in report.results}
    for name, field in (
        ("a game file on the server's disk", "game_file"),
        ("a hand history on the server's disk", "phh"),
        ("no stacks", "starting_stacks"),
        ("an unknown game", "ZZ/9"),
    ):
        outcome, message = outcomes[name]
        assert outcome == vpb.SCENARIO_OUTCOME_MALFORMED, (name, message)
        assert field in message, (name, message)
        assert "\n" not in message and "Traceback" not in message
    assert outcomes["folded to the big blind"][0] == vpb.SCENARIO_OUTCOME_PASSED
    assert (response.scenarios, response.passed, response.malformed) == (5, 1, 4)
    assert response.exit_code == 2


@pytest.mark.slow
def test_a_file_that_is_not_toml_is_a_file_error(stub: vpb_grpc.VerifyServiceStub) -> None:
    """Text that does not parse: the file's error names it and it holds no results; the
    files after it are still checked, in the order sent; exit status 2."""
    response = stub.Verify(
        _request(("broken.toml", NOT_TOML), ("showdown.toml", PASSING), ("sevens.toml", FAILING)),
        timeout=120,
    )
    assert [f.name for f in response.files] == ["broken.toml", "showdown.toml", "sevens.toml"]
    broken = response.files[0]
    assert broken.error and not broken.results
    assert "broken.toml" in broken.error and "\n" not in broken.error, broken.error
    assert [len(f.results) for f in response.files[1:]] == [2, 1]
    assert (response.scenarios, response.passed, response.failed) == (3, 2, 1)
    assert response.unreadable_files == 1 and response.exit_code == 2


def test_a_deeply_nested_file_is_a_file_error_not_internal(
    stub: vpb_grpc.VerifyServiceStub,
) -> None:
    """A value nested 100,000 deep (200 KB, well under the size limit) is that file's error,
    naming it, like any text that is not TOML — not INTERNAL with a traceback in the log —
    and the file after it is still checked."""
    nested = "x = " + "[" * 100_000 + "]" * 100_000
    response = stub.Verify(_request(("deep.toml", nested), ("showdown.toml", PASSING)), timeout=120)
    deep = response.files[0]
    assert deep.error and not deep.results and "deep.toml" in deep.error, deep.error
    assert len(response.files[1].results) == 2 and response.unreadable_files == 1


@pytest.mark.slow
@pytest.mark.parametrize(
    ("files", "message"),
    [
        pytest.param((), "files: at least one file is required", id="no-files"),
        pytest.param((("", PASSING),), "files[0].name: is required", id="no-name"),
        pytest.param(
            (("a.toml", PASSING), ("b.toml", FAILING), ("a.toml", PASSING)),
            "files[2].name: 'a.toml' is already the name of files[0]",
            id="name-twice",
        ),
        pytest.param(
            (("a.toml", PASSING), ("b.toml", "")),
            "files[1].text: is required (the TOML text of a scenario file)",
            id="empty-text",
        ),
    ],
)
def test_requests_that_are_not_one_are_invalid_argument(
    stub: vpb_grpc.VerifyServiceStub, files: tuple[tuple[str, str], ...], message: str
) -> None:
    err = _refused(stub, _request(*files))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert err.details() == message


def _padded(size: int) -> str:
    """The passing file after a comment of "€" (three bytes each) padding it to ``size``
    bytes of UTF-8."""
    room = size - len(f"# \n{PASSING}".encode())
    text = f"# {'€' * (room // 3)}{'x' * (room % 3)}\n{PASSING}"
    assert len(text.encode()) == size
    return text


@pytest.mark.slow
def test_requests_over_the_limits_are_resource_exhausted(
    stub: vpb_grpc.VerifyServiceStub,
) -> None:
    """Too many files, too many bytes (counted in UTF-8, names included), or a message over
    grpc's own 4 MiB: RESOURCE_EXHAUSTED, before any scenario runs."""
    many = [(f"f{i}.toml", "x") for i in range(MAX_FILES + 1)]
    err = _refused(stub, _request(*many))
    assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert err.details() == f"files: must be at most {MAX_FILES:,} files, got {MAX_FILES + 1:,}"
    name = "big.toml"
    size = MAX_REQUEST_BYTES + 1
    text = _padded(size - len(name))
    assert len(text) < MAX_REQUEST_BYTES  # fewer characters than the limit: bytes count
    err = _refused(stub, _request((name, text)))
    assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert err.details() == (
        f"files: must hold at most {MAX_REQUEST_BYTES:,} bytes of names and text, got {size:,}"
    )
    huge = _refused(stub, _request(("huge.toml", "#" * (5 * 1024 * 1024))))
    assert huge.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


@pytest.mark.slow
def test_too_many_scenarios_are_resource_exhausted(stub: vpb_grpc.VerifyServiceStub) -> None:
    """More scenarios than one request may check, over two files of few bytes: refused
    before any runs."""
    half = MAX_SCENARIOS // 2 + 1
    text = "".join(f'[[scenario]]\nname = "s{i}"\n' for i in range(half))
    err = _refused(stub, _request(("a.toml", text), ("b.toml", text)))
    assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert err.details() == (
        f"files: must hold at most {MAX_SCENARIOS:,} scenarios, got {2 * half:,}"
    )


@pytest.mark.slow
def test_malformed_request_bytes_are_invalid_argument(channel: grpc.Channel) -> None:
    call = channel.unary_unary(f"/{SERVICE}/Verify")
    with pytest.raises(grpc.RpcError) as caught:
        call(b"\xff\xff\xff\xff\x0f")
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "not a valid request message" in caught.value.details()


@pytest.mark.slow
def test_health_and_reflection_list_the_verify_service(channel: grpc.Channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    answer = health.Check(health_pb2.HealthCheckRequest(service=SERVICE))
    assert answer.status == health_pb2.HealthCheckResponse.SERVING
    reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
    requests = [
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol=SERVICE),
    ]
    listed, described = reflection.ServerReflectionInfo(iter(requests))
    names = {s.name for s in listed.list_services_response.service}
    assert {SERVICE, "cardroom.v1.GameService", "cardroom.v1.JobService"} <= names
    files = described.file_descriptor_response.file_descriptor_proto
    assert files and any(b"ScenarioFileReport" in f for f in files)


@pytest.mark.slow
def test_calls_are_counted_and_leave_no_traceback(
    server: Server, stub: vpb_grpc.VerifyServiceStub
) -> None:
    """Calls are counted by method and code; run after the calls above, none of which logged
    a traceback on the server."""
    stub.Verify(_request(("showdown.toml", PASSING)), timeout=120)
    _refused(stub, _request())
    _refused(stub, _request(*[(f"f{i}.toml", "x") for i in range(MAX_FILES + 1)]))
    wanted = (
        'cardroom_grpc_requests_total{code="OK",method="Verify"}',
        'cardroom_grpc_requests_total{code="INVALID_ARGUMENT",method="Verify"}',
        'cardroom_grpc_requests_total{code="RESOURCE_EXHAUSTED",method="Verify"}',
    )
    with urllib.request.urlopen(f"http://{server.metrics}/metrics", timeout=10) as response:
        lines = response.read().decode().splitlines()
    for series in wanted:
        counts = [float(line.split()[-1]) for line in lines if line.startswith(series + " ")]
        assert counts and counts[0] >= 1, series
    time.sleep(0.5)  # let the server's log catch up before reading it
    log = Path(server.log_path).read_text(errors="replace")
    assert "Traceback" not in log and "Verify:" not in log, log[-3000:]


@pytest.mark.slow
def test_the_client_call_reads_back_as_the_runners_reports(server: Server) -> None:
    """``service.client.verify``: the reports read back are what the runner reports for the
    same text locally (but for the time taken); a refused request is a ClientError with exit
    status 2, as a malformed file."""
    from service.client import ClientError, verify
    from simulations.verify.run import verify_text

    response = verify(server.address, [("showdown.toml", PASSING), ("sevens.toml", FAILING)])
    remote = file_reports(response)
    local = [verify_text(PASSING, "showdown.toml"), verify_text(FAILING, "sevens.toml")]

    def untimed(reports: list[FileReport]) -> list[FileReport]:
        return [
            dataclasses.replace(
                r, results=tuple(dataclasses.replace(s, seconds=0.0) for s in r.results)
            )
            for r in reports
        ]

    assert untimed(remote) == untimed(local) and response.exit_code == 1
    with pytest.raises(ClientError) as caught:
        verify(server.address, [])
    assert caught.value.code == 2
    assert str(caught.value) == "INVALID_ARGUMENT: files: at least one file is required"


# --- in process, with a stand-in runner --------------------------------------------------------


class _Aborted(Exception):
    pass


class _Context:
    """The part of a grpc.aio.ServicerContext the handler uses."""

    def __init__(self) -> None:
        self.status: tuple[grpc.StatusCode, str] | None = None

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        self.status = (code, details)
        raise _Aborted

    def code(self) -> grpc.StatusCode | None:
        return self.status[0] if self.status else None


def _passed(source: str) -> FileReport:
    return FileReport(path=source, results=(ScenarioResult(source, "s", Outcome.PASSED, 0.0),))


def _install_runner(monkeypatch: pytest.MonkeyPatch, verify_text: object) -> None:
    """Stand ``verify_text`` in for the runner's entry point, ``simulations.verify.run``."""
    module = types.ModuleType("simulations.verify.run")
    module.verify_text = verify_text  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "simulations.verify.run", module)


def _service() -> tuple[VerifyService, CollectorRegistry]:
    """The service with its calls counted as the server's metrics interceptor counts them."""
    registry = CollectorRegistry()
    service = VerifyService()
    metrics = ServiceMetrics(registry, list)
    service.Verify = counted(service.Verify, "Verify", metrics)  # type: ignore[method-assign]
    return service, registry


def test_files_are_checked_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner runs on a thread other than the event loop's, and the loop keeps serving
    other coroutines while a file is being checked."""
    entered, release = threading.Event(), threading.Event()
    threads: list[int] = []

    def runner(text: str, source: str, base: Path | None = None) -> FileReport:
        assert base is None  # a scenario sent over the wire resolves no paths
        threads.append(threading.get_ident())
        entered.set()
        release.wait(timeout=30)
        return _passed(source)

    _install_runner(monkeypatch, runner)
    service, _ = _service()

    async def scenario() -> tuple[int, bool, vpb.VerifyResponse]:
        call = asyncio.create_task(service.Verify(_request(("a.toml", "x = 1")), _Context()))
        await asyncio.get_running_loop().run_in_executor(None, entered.wait, 30)
        await asyncio.sleep(0)  # the loop turns while the runner is inside the file
        waiting = not call.done()
        release.set()
        return threading.get_ident(), waiting, await call

    loop_thread, waiting, response = asyncio.run(scenario())
    assert threads and threads[0] != loop_thread
    assert waiting and response.passed == 1 and response.files[0].name == "a.toml"


def test_a_cancelled_call_stops_before_the_next_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """The client gives up while the first of two files is being checked: the second is
    never checked, and the call is counted as CANCELLED."""
    entered, release = threading.Event(), threading.Event()
    checked: list[str] = []

    def runner(text: str, source: str, base: Path | None = None) -> FileReport:
        checked.append(source)
        entered.set()
        release.wait(timeout=30)
        return _passed(source)

    _install_runner(monkeypatch, runner)
    service, registry = _service()

    async def scenario() -> None:
        request = _request(("a.toml", "x = 1"), ("b.toml", "x = 1"))
        call = asyncio.create_task(service.Verify(request, _Context()))
        await asyncio.get_running_loop().run_in_executor(None, entered.wait, 30)
        call.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await call
        release.set()

    asyncio.run(scenario())  # waits for the checking thread to end
    assert checked == ["a.toml"]
    labels = {"method": "Verify", "code": "CANCELLED"}
    assert registry.get_sample_value("cardroom_grpc_requests_total", labels) == 1


def test_a_runner_failure_is_internal_naming_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in the runner (none is known) answers INTERNAL with one line naming the file,
    counted with that code."""

    def runner(text: str, source: str, base: Path | None = None) -> FileReport:
        if source == "b.toml":
            raise TypeError("a bug")
        return _passed(source)

    _install_runner(monkeypatch, runner)
    service, registry = _service()
    context = _Context()
    request = _request(("a.toml", "x = 1"), ("b.toml", "x = 1"))
    with pytest.raises(_Aborted):
        asyncio.run(service.Verify(request, context))
    assert context.status == (
        grpc.StatusCode.INTERNAL,
        "files[1] ('b.toml'): the engine failed while checking this file",
    )
    labels = {"method": "Verify", "code": "INTERNAL"}
    assert registry.get_sample_value("cardroom_grpc_requests_total", labels) == 1


def test_check_files_stops_once_told(monkeypatch: pytest.MonkeyPatch) -> None:
    stop = threading.Event()
    checked: list[str] = []

    def runner(text: str, source: str, base: Path | None = None) -> FileReport:
        checked.append(source)
        stop.set()
        return _passed(source)

    _install_runner(monkeypatch, runner)
    reports = check_files([("a.toml", "x = 1"), ("b.toml", "x = 1")], stop)
    assert checked == ["a.toml"] and [r.path for r in reports] == ["a.toml"]


REPORTS = (
    FileReport(
        path="a.toml",
        results=(
            ScenarioResult(
                "a.toml", "one", Outcome.PASSED, 0.25, covers=("r.txt: side pot",), notes=("n",)
            ),
            ScenarioResult(
                "a.toml",
                "two",
                Outcome.FAILED,
                1.5,
                differences=(
                    Difference("expect.stacks", "[1, 2]", "[2, 1]"),
                    Difference("expect.rake", "5", "4"),
                ),
            ),
        ),
    ),
    FileReport(
        path="b.toml",
        results=(
            ScenarioResult("b.toml", "three", Outcome.MALFORMED, 0.0, message="phh: no files"),
        ),
    ),
    FileReport(path="c.toml", error="c.toml: not valid TOML (at line 1, column 7)"),
)


@pytest.mark.parametrize(
    ("reports", "totals"),
    [
        pytest.param(REPORTS, (3, 1, 1, 1, 1, 2), id="malformed"),
        pytest.param(REPORTS[:1], (2, 1, 1, 0, 0, 1), id="failed"),
        pytest.param((_passed("d.toml"),), (1, 1, 0, 0, 0, 0), id="passed"),
    ],
)
def test_the_response_holds_every_report_and_the_totals(
    reports: tuple[FileReport, ...], totals: tuple[int, ...]
) -> None:
    """Every field of every result reads back unchanged; the totals count the outcomes; the
    exit status is 0 (all passed), 1 (some expectation failed) or 2 (something malformed,
    outranking a failure), as docs/scenarios.md gives it."""
    response = response_message([r.path for r in reports], reports)
    assert file_reports(response) == list(reports)
    assert (
        response.scenarios,
        response.passed,
        response.failed,
        response.malformed,
        response.unreadable_files,
        response.exit_code,
    ) == totals
