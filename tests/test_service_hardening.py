"""The service tried as a new user would: each defect found that way, reproduced against a
real server on loopback, and what it does now."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.store import JobState, JobStore, encode_page_token
from tests.harness import REPO, Server, cardroom, env, running_server

pytestmark = pytest.mark.slow

LONG = pb.JobSpec(trials=1_000_000_000, seed=3, shard_size=2_000_000)
LONG.bad_beat.table.players = 6


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("hardening")
    with running_server(root / "data", extra=("--max-trials", "2000000000")) as running:
        yield running


@pytest.fixture(scope="module")
def channel(server: Server) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(server.address) as opened:
        yield opened


@pytest.fixture(scope="module")
def stub(channel: grpc.Channel) -> pb_grpc.JobServiceStub:
    return pb_grpc.JobServiceStub(channel)


def serve(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`cardroom serve` expected to refuse to start (so it returns on its own)."""
    return cardroom("serve", *args, timeout=timeout)


def refused(done: subprocess.CompletedProcess[str], *phrases: str) -> None:
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("cardroom: cannot start the server: "), done.stderr
    for phrase in phrases:
        assert phrase in last, done.stderr


def tracebacks(server: Server) -> int:
    return server.log_path.read_text(errors="replace").count("Traceback")


# -- 1, 2, 5: starting a second server ------------------------------------------------------


def test_a_busy_grpc_port_refuses_to_start(server: Server, tmp_path: Path) -> None:
    """grpc's SO_REUSEPORT let a second server start on a busy port; requests then
    alternated between the two (half answered NOT_FOUND)."""
    done = serve("--listen", server.address, "--metrics-listen", "", "--data-dir", str(tmp_path))
    refused(done, f"--listen {server.address}", "in use")
    with grpc.insecure_channel(server.address) as channel:
        stub = pb_grpc.JobServiceStub(channel)
        job = stub.SubmitJob(pb.SubmitJobRequest(spec=pb.JobSpec(trials=10, bad_beat={}))).job
        for _ in range(10):  # every call reaches the one server that stored the job
            assert stub.GetJob(pb.GetJobRequest(id=job.id)).job.id == job.id


def test_a_data_dir_in_use_refuses_to_start(server: Server) -> None:
    done = serve(
        "--listen", "127.0.0.1:0", "--metrics-listen", "", "--data-dir", str(server.data_dir)
    )
    refused(done, "in use by another cardroom server", f"pid {server.process.pid}")


def test_a_busy_metrics_port_or_a_file_as_data_dir_refuse_to_start(
    server: Server, tmp_path: Path
) -> None:
    busy = serve("--listen", "127.0.0.1:0", "--metrics-listen", server.metrics,
                 "--data-dir", str(tmp_path / "data"))  # fmt: skip
    refused(busy, f"--metrics-listen {server.metrics}", "in use")
    file = tmp_path / "file"
    file.write_text("")
    done = serve("--listen", "127.0.0.1:0", "--metrics-listen", "", "--data-dir", str(file))
    refused(done, "is a file, not a folder")


def test_a_ray_address_or_ready_file_that_cannot_work_refuses_to_start(tmp_path: Path) -> None:
    """Ray retries an unreachable cluster for minutes, and a ready file that cannot be
    written failed only once the server served: both are refused before Ray starts."""
    done = serve("--listen", "127.0.0.1:0", "--metrics-listen", "", "--data-dir",
                 str(tmp_path / "data"), "--ray-address", "127.0.0.1:1")  # fmt: skip
    refused(done, "--ray-address 127.0.0.1:1: no Ray cluster there")
    nowhere = tmp_path / "missing" / "server.ready"
    done = serve("--listen", "127.0.0.1:0", "--metrics-listen", "", "--data-dir",
                 str(tmp_path / "data"), "--ready-file", str(nowhere))  # fmt: skip
    refused(done, f"--ready-file {nowhere}: its folder does not exist")


# -- 4, 5: errors of any input stay short, and never a traceback -----------------------------


def test_errors_echo_only_a_short_prefix(stub: pb_grpc.JobServiceStub) -> None:
    """A 100 kB id was quoted whole, and past the client's metadata limit the status became
    RESOURCE_EXHAUSTED."""
    huge = "x" * 100_000
    spec = pb.JobSpec(trials=10)
    spec.bad_beat.jackpot.min_losing_hand = huge
    calls = [
        (stub.GetJob, pb.GetJobRequest(id=huge), grpc.StatusCode.NOT_FOUND),
        (stub.CancelJob, pb.CancelJobRequest(id=huge), grpc.StatusCode.NOT_FOUND),
        (stub.ListJobs, pb.ListJobsRequest(page_token=huge), grpc.StatusCode.INVALID_ARGUMENT),
        (stub.ListJobs, pb.ListJobsRequest(kind=huge), grpc.StatusCode.INVALID_ARGUMENT),
        (stub.SubmitJob, pb.SubmitJobRequest(spec=spec), grpc.StatusCode.INVALID_ARGUMENT),
    ]
    for call, request, code in calls:
        with pytest.raises(grpc.RpcError) as caught:
            call(request)
        assert caught.value.code() == code, caught.value.details()
        details = caught.value.details()
        assert "x" * 41 not in details and "100,000 characters" in details
        assert len(details) < 1000


def test_forged_page_tokens_and_unknown_states_are_invalid_arguments(
    server: Server, stub: pb_grpc.JobServiceStub
) -> None:
    before = tracebacks(server)
    for request, message in (
        (pb.ListJobsRequest(page_token=encode_page_token(2**63)), "page_token: "),
        (pb.ListJobsRequest(page_token=encode_page_token(10**30)), "page_token: "),
        (pb.ListJobsRequest(state=99), "state: 99 is not a JobState"),  # type: ignore[arg-type]
    ):
        with pytest.raises(grpc.RpcError) as caught:
            stub.ListJobs(request)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert message in caught.value.details()
    assert tracebacks(server) == before


def test_malformed_request_bytes_are_invalid_arguments_without_a_log_line(
    server: Server, channel: grpc.Channel
) -> None:
    """Bytes that were not the request message gave UNKNOWN naming a Python class, and a
    traceback in the server's log for each request."""
    log_size = server.log_path.stat().st_size
    for method in (
        "/cardroom.v1.JobService/GetJob",
        "/cardroom.v1.JobService/SubmitJob",
        "/cardroom.v1.JobService/ListJobs",
        "/grpc.health.v1.Health/Check",
    ):
        call = channel.unary_unary(method)
        for _ in range(5):
            with pytest.raises(grpc.RpcError) as caught:
                call(b"\xff\xff\xff\xff\x0f")
            assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT, method
            assert "not a valid request message" in caught.value.details()
            assert "Error" not in caught.value.details()
    for method in ("/cardroom.v1.JobService/WatchJob", "/grpc.health.v1.Health/Watch"):
        with pytest.raises(grpc.RpcError) as caught:
            list(channel.unary_stream(method)(b"\xff\xff\xff"))
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT, method
    time.sleep(0.5)  # let the server's log catch up before reading it
    grown = server.log_path.read_text(errors="replace")[log_size:]
    assert "Traceback" not in grown and "DecodeError" not in grown, grown


def test_valid_requests_of_every_shape_pass_the_malformed_request_check(
    channel: grpc.Channel,
) -> None:
    """The check wraps every method; each shape grpc calls differently still works: a unary
    call, a stream a generator yields (WatchJob), a stream written through the context (the
    health service's Watch) and a two-way stream (server reflection)."""
    health = health_pb2_grpc.HealthStub(channel)
    assert health.Check(health_pb2.HealthCheckRequest()).status == (
        health_pb2.HealthCheckResponse.SERVING
    )
    watch = health.Watch(health_pb2.HealthCheckRequest(service="cardroom.v1.JobService"))
    first = next(watch)
    watch.cancel()
    assert first.status == health_pb2.HealthCheckResponse.SERVING
    reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
    answers = reflection.ServerReflectionInfo(
        iter([reflection_pb2.ServerReflectionRequest(list_services="")])
    )
    names = {s.name for s in next(answers).list_services_response.service}
    assert {"cardroom.v1.JobService", "grpc.health.v1.Health"} <= names


# -- 6: states and limits --------------------------------------------------------------------


def test_waiting_jobs_are_queued_and_listed_as_such(
    server: Server, stub: pb_grpc.JobServiceStub
) -> None:
    """A job waiting for a worker slot said "running", so `list --state queued` was empty."""
    ids = [stub.SubmitJob(pb.SubmitJobRequest(spec=LONG)).job.id for _ in range(3)]
    try:
        deadline = time.monotonic() + 120
        while stub.GetJob(pb.GetJobRequest(id=ids[0])).job.state != pb.JOB_STATE_RUNNING:
            assert time.monotonic() < deadline, server.log()
            time.sleep(0.1)
        # The first job's shards fill every slot: the other two wait, with nothing done.
        for job_id in ids[1:]:
            job = stub.GetJob(pb.GetJobRequest(id=job_id)).job
            assert job.state == pb.JOB_STATE_QUEUED and job.progress.shards_done == 0
        listing = server.cli("list", "--state", "queued")
        assert listing.returncode == 0, listing.stderr
        assert ids[1] in listing.stdout and ids[2] in listing.stdout
        assert ids[0] not in listing.stdout
    finally:
        for job_id in ids:
            stub.CancelJob(pb.CancelJobRequest(id=job_id))
    assert server.cli("list", "--state", "queued").stdout.strip() == "no queued jobs"


def test_trials_above_the_limit_get_the_limits_message(stub: pb_grpc.JobServiceStub) -> None:
    """Trials above --max-trials were refused with the shard-size message."""
    spec = pb.JobSpec(trials=3_000_000_000, shard_size=1, bad_beat={})
    with pytest.raises(grpc.RpcError) as caught:
        stub.SubmitJob(pb.SubmitJobRequest(spec=spec))
    assert "spec.trials: must be at most 2,000,000,000 on this server" in caught.value.details()


# -- 7: ready only once the stored jobs are back ---------------------------------------------


def test_a_stored_job_that_no_longer_validates_fails_and_the_server_starts(
    tmp_path: Path,
) -> None:
    """One stored spec that no longer validated stopped the server from starting; and the
    server answered SERVING before it had resumed its stored jobs."""
    data = tmp_path / "data"
    store = JobStore(data / "jobs.sqlite3")
    spec = {"kind": "bad_beat", "hands": 100, "seed": 1, "shard_size": 100}
    bad = store.create("bad_beat", {**spec, "table": {"players": 99}}, 100, 1)
    store.set_state(bad.id, JobState.RUNNING)
    good = store.create("bad_beat", spec, 100, 1)
    store.set_state(good.id, JobState.RUNNING)
    store.close()
    with running_server(data, workers=1) as server, grpc.insecure_channel(server.address) as ch:
        health = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest())
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        stub = pb_grpc.JobServiceStub(ch)
        failed = stub.GetJob(pb.GetJobRequest(id=bad.id)).job  # already, as soon as ready
        assert failed.state == pb.JOB_STATE_FAILED
        assert "stored specification is no longer valid: table.players" in failed.error
        watched = server.cli("watch", good.id, "--json")
        assert watched.returncode == 0, watched.stderr + server.log()
        assert json.loads(watched.stdout)["hands"] == 100


# -- 5, 9: the command line -------------------------------------------------------------------


def _wait_for_line(process: subprocess.Popen[str], phrase: str, timeout: float = 120) -> str:
    assert process.stderr is not None
    deadline = time.monotonic() + timeout
    seen = ""
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        seen += line
        if phrase in line:
            return line
        if not line and process.poll() is not None:
            break
    raise AssertionError(f"{phrase!r} not printed:\n{seen}")


def _as_at_a_terminal() -> None:
    """The command starts with Ctrl-C delivered as a terminal delivers it: an interrupt
    ignored or blocked in the test's own process (a library's threads may leave it so) is
    not passed on to the command, which would then run on as a shell's background job."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_ctrl_c_while_following_says_the_job_keeps_running(
    server: Server, stub: pb_grpc.JobServiceStub, tmp_path: Path
) -> None:
    job_file = tmp_path / "job.toml"
    job_file.write_text(
        'kind = "bad_beat"\nhands = 40_000_000\nseed = 9\nshard_size = 1_000_000\n'
        "[table]\nplayers = 6\n"
    )
    follow = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "--address", server.address,
         "submit", str(job_file), "--follow"],
        cwd=REPO, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_as_at_a_terminal,
    )  # fmt: skip
    job_id = _wait_for_line(follow, "submitted").split()[-1]
    time.sleep(1.0)
    follow.send_signal(signal.SIGINT)
    _, err = follow.communicate(timeout=60)
    assert follow.returncode == 130, err
    assert "Traceback" not in err, err
    assert "keeps running on the server" in err and f"cardroom watch {job_id}" in err
    job = stub.GetJob(pb.GetJobRequest(id=job_id)).job
    assert job.state in (pb.JOB_STATE_QUEUED, pb.JOB_STATE_RUNNING, pb.JOB_STATE_SUCCEEDED)
    # Re-attach: `cardroom watch` follows it to its end and prints the result.
    watched = server.cli("watch", job_id, "--json")
    assert watched.returncode == 0, watched.stderr
    result = server.cli("result", job_id, "--json")
    assert watched.stdout == result.stdout and json.loads(result.stdout)["hands"] == 40_000_000


def test_ctrl_c_during_a_local_run_is_one_line(tmp_path: Path) -> None:
    job_file = tmp_path / "job.toml"
    job_file.write_text('kind = "bad_beat"\nhands = 2_000_000_000\nseed = 9\n')
    run = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "run", str(job_file), "--in-process"],
        cwd=REPO, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_as_at_a_terminal,
    )  # fmt: skip
    _wait_for_line(run, "one after another in this process")
    time.sleep(1.0)  # into the shards
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "Traceback" not in err and err.strip().endswith("nothing was saved"), err
    assert out == ""


def test_cli_address_before_the_command_json_conventions_and_empty_lists(
    server: Server, stub: pb_grpc.JobServiceStub, tmp_path: Path
) -> None:
    job = stub.SubmitJob(pb.SubmitJobRequest(spec=pb.JobSpec(trials=50_000, seed=4, bad_beat={})))
    watched = cardroom("--address", server.address, "watch", job.job.id, "--json")
    assert watched.returncode == 0, watched.stderr
    status = cardroom("--address", server.address, "status", job.job.id, "--json")
    assert status.returncode == 0, status.stderr
    summary = json.loads(status.stdout)
    # status --json carries the result exactly as result --json prints it.
    assert summary["result"] == json.loads(watched.stdout)
    assert summary["state"] == "succeeded" and summary["trials_done"] == 50_000
    assert summary["seed"] == 4 and isinstance(summary["shards_total"], int)
    # The flag after the command still wins over the one before it.
    wrong_first = cardroom("--address", "127.0.0.1:9", "status", job.job.id,
                           "--address", server.address)  # fmt: skip
    assert wrong_first.returncode == 0, wrong_first.stderr
    empty = server.cli("list", "--kind", "bad_beat", "--state", "failed")
    assert empty.returncode == 0 and empty.stdout.strip() == "no failed bad_beat jobs"
    listing = server.cli("list", "--state", "succeeded")
    assert listing.stdout.splitlines()[0].split()[:3] == ["ID", "KIND", "STATE"]
