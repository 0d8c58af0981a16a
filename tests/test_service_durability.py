"""Jobs survive a killed server, and their results do not depend on the number of workers."""

from __future__ import annotations

import time
from pathlib import Path

import grpc
import pytest

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from tests.harness import Server, cardroom, running_server

pytestmark = pytest.mark.slow

LONG_JOB = """
kind = "bad_beat"
hands = 12_000_000
seed = 1234
shard_size = 250_000
[table]
players = 10
[jackpot]
min_losing_hand = "quads"
hole_cards_play = 1
"""


def _job(server: Server, job_id: str) -> pb.Job:
    with grpc.insecure_channel(server.address) as channel:
        return pb_grpc.JobServiceStub(channel).GetJob(pb.GetJobRequest(id=job_id)).job


def test_kill_9_and_restart_resumes_to_the_identical_result(tmp_path: Path) -> None:
    """A server killed mid-job resumes from its finished shards and ends with the result
    of an uninterrupted run; no stored job is lost."""
    job_file = tmp_path / "job.toml"
    job_file.write_text(LONG_JOB)
    data = tmp_path / "data"
    first = Server(data)
    try:
        small = first.cli("submit", str(job_file).replace("job.toml", "small.toml"))
        assert small.returncode == 2  # missing file: a clean error, nothing stored
        submitted = first.cli("submit", str(job_file))
        assert submitted.returncode == 0, submitted.stderr + first.log()
        job_id = submitted.stdout.split()[-1]
        deadline = time.monotonic() + 300
        while (done := _job(first, job_id).progress.shards_done) < 6:
            assert time.monotonic() < deadline, first.log()
            time.sleep(0.05)
        assert done < 48, "the job finished before the kill; make it longer"
    finally:
        first.kill()  # SIGKILL to the whole process group: no clean shutdown
    with running_server(data) as second:
        resumed = _job(second, job_id)
        assert resumed.state in (pb.JOB_STATE_RUNNING, pb.JOB_STATE_SUCCEEDED)
        assert resumed.progress.shards_done >= done  # finished shards were kept
        deadline = time.monotonic() + 600
        while (result := second.cli("result", job_id, "--json")).returncode != 0:
            assert time.monotonic() < deadline, second.log()
            time.sleep(0.5)
        listing = second.cli("list")
        assert job_id in listing.stdout
    local = cardroom("run", str(job_file), "--json", "--in-process")
    assert local.returncode == 0, local.stderr
    assert result.stdout == local.stdout


def test_one_and_two_workers_give_identical_results(tmp_path: Path) -> None:
    job_file = tmp_path / "job.toml"
    job_file.write_text(LONG_JOB.replace("12_000_000", "2_000_000"))
    outputs = []
    for workers in (1, 2):
        with running_server(tmp_path / f"data{workers}", workers=workers) as server:
            done = server.cli("submit", str(job_file), "--follow", "--json")
            assert done.returncode == 0, done.stderr + server.log()
            outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
