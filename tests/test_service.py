"""The gRPC service end to end: a real server process on loopback, real clients."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.convert import mapping_to_message
from tests.harness import Server, cardroom, running_server
from tests.ray_probe import busy_ray_workers, wait_until_busy, wait_until_idle

pytestmark = pytest.mark.slow

JOB = """
kind = "bad_beat"
hands = 400_000
seed = 21
shard_size = 50_000
[table]
players = 10
[jackpot]
min_losing_hand = "full house"
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("service")
    with running_server(root / "data", extra=("--max-trials", "2000000000")) as running:
        yield running


@pytest.fixture(scope="module")
def stub(server: Server) -> Iterator[pb_grpc.JobServiceStub]:
    with grpc.insecure_channel(server.address) as channel:
        yield pb_grpc.JobServiceStub(channel)


@pytest.fixture()
def job_file(tmp_path: Path) -> Path:
    path = tmp_path / "job.toml"
    path.write_text(JOB)
    return path


def _spec(**changes: object) -> pb.JobSpec:
    spec = pb.JobSpec(trials=20_000, seed=1, shard_size=10_000)
    spec.bad_beat.table.players = 6
    for name, value in changes.items():
        setattr(spec, name, value)
    return spec


def _wait_finished(stub: pb_grpc.JobServiceStub, job_id: str, timeout: float = 300) -> pb.Job:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = stub.GetJob(pb.GetJobRequest(id=job_id)).job
        if job.state in (pb.JOB_STATE_SUCCEEDED, pb.JOB_STATE_FAILED, pb.JOB_STATE_CANCELLED):
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} did not finish in {timeout} s")


def test_submit_follow_result_equals_a_local_run(server: Server, job_file: Path) -> None:
    """The service's result is byte-identical to `cardroom run` on the same job."""
    followed = server.cli("submit", str(job_file), "--follow", "--json")
    assert followed.returncode == 0, followed.stderr + server.log()
    local = cardroom("run", str(job_file), "--json", "--in-process")
    assert local.returncode == 0, local.stderr
    assert followed.stdout == local.stdout
    report = json.loads(followed.stdout)
    assert report["hands"] == 400_000 and report["jackpot_hands"] > 0


def test_status_result_and_list(server: Server, job_file: Path) -> None:
    submitted = server.cli("submit", str(job_file))
    assert submitted.returncode == 0, submitted.stderr
    job_id = submitted.stdout.split()[-1]
    deadline = time.monotonic() + 300
    while (done := server.cli("result", job_id, "--json")).returncode != 0:
        assert "no result yet" in done.stderr, done.stderr
        assert time.monotonic() < deadline
        time.sleep(0.3)
    assert json.loads(done.stdout)["seed"] == 21
    readable = server.cli("result", job_id)
    assert "jackpot hands" in readable.stdout and "one in" in readable.stdout
    status = server.cli("status", job_id)
    assert status.returncode == 0 and "succeeded" in status.stdout and "8 / 8" in status.stdout
    listing = server.cli("list", "--state", "succeeded", "--kind", "bad_beat")
    assert job_id in listing.stdout


def test_health_service_reports_serving(server: Server) -> None:
    with grpc.insecure_channel(server.address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", "cardroom.v1.JobService"):
            answer = health.Check(health_pb2.HealthCheckRequest(service=service))
            assert answer.status == health_pb2.HealthCheckResponse.SERVING


def test_watch_streams_progress_to_the_end(stub: pb_grpc.JobServiceStub) -> None:
    job = stub.SubmitJob(pb.SubmitJobRequest(spec=_spec(trials=200_000))).job
    seen = [m.job for m in stub.WatchJob(pb.WatchJobRequest(id=job.id))]
    done = [j.progress.shards_done for j in seen]
    assert done == sorted(done) and done[-1] == 20
    assert seen[-1].state == pb.JOB_STATE_SUCCEEDED
    assert seen[-1].result.bad_beat.hands == 200_000
    assert seen[-1].progress.estimate.bad_beat.hands == 200_000


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        (pb.JobSpec(trials=10), "spec.kind: is required"),
        (_spec(trials=0), "spec.trials: must be at least 1"),
        (_spec(trials=3_000_000_000), "spec.trials: must be at most 2,000,000,000 on this"),
        (_spec(trials=1_500_000_000, shard_size=1), "spec.shard_size: too small"),
        (_spec(trials=3_000_000_000, shard_size=1), "spec.trials: must be at most 2,000,000,000"),
    ],
)
def test_bad_specs_are_invalid_argument(
    stub: pb_grpc.JobServiceStub, spec: pb.JobSpec, field: str
) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        stub.SubmitJob(pb.SubmitJobRequest(spec=spec))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field in caught.value.details()


def test_bad_economics_settings_name_the_api_field(stub: pb_grpc.JobServiceStub) -> None:
    """Shares that do not add up, a step above the reset qualifier, a drop above its
    threshold, a kind of player with an unknown setting: INVALID_ARGUMENT naming the field."""
    cases = [
        ({"drop": {"amount": 1}, "policy": {"loser_share": 0.6}}, "policy.loser_share: "),
        (
            {"drop": {"amount": 1}, "policy": {"step_down": {"every_hours": 1, "steps": ["AAAA"]}}},
            "policy.step_down.steps[0]: 'AAAA' is not below",
        ),
        ({"drop": {"amount": 5, "threshold": 2}}, "drop.amount: 5 is above the threshold"),
    ]
    for settings, message in cases:
        spec = _spec()
        mapping_to_message(settings, spec.bad_beat)
        with pytest.raises(grpc.RpcError) as caught:
            stub.SubmitJob(pb.SubmitJobRequest(spec=spec))
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert f"spec.bad_beat.{message}" in caught.value.details(), caught.value.details()
    # An unknown setting cannot be put in a message; the same check reads a job mapping.
    rake = pb.JobSpec(trials=100)
    mapping_to_message({"policies": [{"percent": 150}]}, rake.rake)
    with pytest.raises(grpc.RpcError) as caught:
        stub.SubmitJob(pb.SubmitJobRequest(spec=rake))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "spec.rake.policies[0].percent: must be a percentage" in caught.value.details()


@pytest.mark.parametrize(
    ("game", "jackpot", "message"),
    [
        ({"players": 11}, {}, "spec.bad_beat.table.players: must be at most 10"),
        ({"game": "stud"}, {}, "spec.bad_beat.game: 'stud' is not a game code"),
        ({}, {"min_losing_hand": "AAAZZ"}, "spec.bad_beat.jackpot.min_losing_hand:"),
        ({}, {"hole_cards_play": 3}, "spec.bad_beat.jackpot.hole_cards_play: must be at most 2"),
    ],
)
def test_bad_model_settings_name_the_api_field(
    stub: pb_grpc.JobServiceStub, game: dict[str, object], jackpot: dict[str, object], message: str
) -> None:
    spec = _spec()
    for name, value in game.items():
        if name == "game":
            spec.bad_beat.game = str(value)
        else:
            setattr(spec.bad_beat.table, name, value)
    for name, value in jackpot.items():
        setattr(spec.bad_beat.jackpot, name, value)
    with pytest.raises(grpc.RpcError) as caught:
        stub.SubmitJob(pb.SubmitJobRequest(spec=spec))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert message in caught.value.details()


def test_unknown_ids_and_finished_jobs(stub: pb_grpc.JobServiceStub) -> None:
    for call, request in (
        (stub.GetJob, pb.GetJobRequest(id="job-000000000000")),
        (stub.CancelJob, pb.CancelJobRequest(id="job-000000000000")),
    ):
        with pytest.raises(grpc.RpcError) as caught:
            call(request)
        assert caught.value.code() == grpc.StatusCode.NOT_FOUND
    with pytest.raises(grpc.RpcError) as caught:
        stub.GetJob(pb.GetJobRequest())
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    job = stub.SubmitJob(pb.SubmitJobRequest(spec=_spec())).job
    _wait_finished(stub, job.id)
    with pytest.raises(grpc.RpcError) as caught:
        stub.CancelJob(pb.CancelJobRequest(id=job.id))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "already succeeded" in caught.value.details()


def test_list_pages_and_filters(stub: pb_grpc.JobServiceStub) -> None:
    ids = [stub.SubmitJob(pb.SubmitJobRequest(spec=_spec(seed=s))).job.id for s in range(3)]
    first = stub.ListJobs(pb.ListJobsRequest(page_size=2))
    assert [j.id for j in first.jobs] == ids[::-1][:2] and first.next_page_token
    second = stub.ListJobs(pb.ListJobsRequest(page_size=2, page_token=first.next_page_token))
    assert second.jobs[0].id == ids[0]
    for bad in (
        pb.ListJobsRequest(page_token="garbage"),
        pb.ListJobsRequest(page_size=5000),
        pb.ListJobsRequest(kind="poker"),
    ):
        with pytest.raises(grpc.RpcError) as caught:
            stub.ListJobs(bad)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    for job_id in ids:
        _wait_finished(stub, job_id)
    long = stub.SubmitJob(pb.SubmitJobRequest(spec=_spec(trials=10**9, shard_size=10**6))).job
    stub.CancelJob(pb.CancelJobRequest(id=long.id))
    cancelled = stub.ListJobs(pb.ListJobsRequest(state=pb.JOB_STATE_CANCELLED, kind="bad_beat"))
    assert long.id in [j.id for j in cancelled.jobs]
    assert all(j.state == pb.JOB_STATE_CANCELLED for j in cancelled.jobs)
    succeeded = stub.ListJobs(pb.ListJobsRequest(state=pb.JOB_STATE_SUCCEEDED, page_size=1000))
    assert set(ids) <= {j.id for j in succeeded.jobs}
    assert all(j.state == pb.JOB_STATE_SUCCEEDED for j in succeeded.jobs)


def _metric(server: Server, name: str, **labels: str) -> float:
    text = urllib.request.urlopen(f"http://{server.metrics}/metrics", timeout=10).read().decode()
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        metric, _, value = line.rpartition(" ")
        if metric == (f"{name}{{{wanted}}}" if labels else name):
            return float(value)
    raise AssertionError(f"{name} {labels} not exported")


def test_cancel_stops_the_ray_tasks_within_two_seconds(
    server: Server, stub: pb_grpc.JobServiceStub
) -> None:
    """CancelJob stops the job's Ray tasks, not only the service's bookkeeping: each Ray
    worker's own process title says whether it is running a shard (tests/ray_probe.py).
    A shard here takes several seconds, so only a cancelled Ray task is idle in time."""
    spec = _spec(trials=1_000_000_000, shard_size=20_000_000)
    job = stub.SubmitJob(pb.SubmitJobRequest(spec=spec)).job
    assert wait_until_busy(server.process.pid, timeout=120), server.log()
    cancelled = stub.CancelJob(pb.CancelJobRequest(id=job.id)).job
    assert cancelled.state == pb.JOB_STATE_CANCELLED
    stopped_after = wait_until_idle(server.process.pid, timeout=2.0)
    assert stopped_after is not None, "Ray workers still running shards 2 s after CancelJob"
    assert stopped_after <= 2.0
    before = stub.GetJob(pb.GetJobRequest(id=job.id)).job.progress.trials_done
    time.sleep(1.0)
    after = stub.GetJob(pb.GetJobRequest(id=job.id)).job
    assert after.progress.trials_done == before and after.state == pb.JOB_STATE_CANCELLED
    assert not busy_ray_workers(server.process.pid)
    with pytest.raises(grpc.RpcError) as caught:
        stub.CancelJob(pb.CancelJobRequest(id=job.id))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION


def test_metrics_are_exported(server: Server, stub: pb_grpc.JobServiceStub) -> None:
    job = stub.SubmitJob(pb.SubmitJobRequest(spec=_spec())).job
    _wait_finished(stub, job.id)
    assert _metric(server, "cardroom_jobs", kind="bad_beat", state="succeeded") >= 1
    assert _metric(server, "cardroom_trials_simulated_total", kind="bad_beat") >= 20_000
    assert _metric(server, "cardroom_shard_duration_seconds_count", kind="bad_beat") >= 2
    assert _metric(server, "cardroom_grpc_requests_total", method="SubmitJob", code="OK") >= 1
    assert _metric(server, "cardroom_grpc_requests_total", method="GetJob", code="NOT_FOUND") >= 1


def test_cli_errors_are_one_line(server: Server, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(JOB.replace("players = 10", "players = 1"))
    done = server.cli("submit", str(bad))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "table.players: must be at least 2" in done.stderr
    missing = server.cli("status", "job-ffffffffffff")
    assert missing.returncode == 1 and "NOT_FOUND" in missing.stderr
    unreachable = cardroom("list", "--address", "127.0.0.1:9", timeout=60)
    assert unreachable.returncode == 1 and "cannot reach" in unreachable.stderr
