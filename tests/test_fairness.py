"""Two namespaces on one real server: alice's accepted job of 10^12 hands holds every
worker, and bob's small job, submitted behind it, is done within two seconds — the next
worker slot to come free is his (service/scheduler.py).  Alice's job runs on meanwhile."""

from __future__ import annotations

import time
from pathlib import Path

import grpc

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.auth import mint
from service.client import job_spec_from_file
from tests.harness import Server

HUGE = """
kind = "bad_beat"
hands = 1_000_000_000_000
seed = 1
[table]
players = 9
"""
SMALL = """
kind = "bad_beat"
hands = 100_000
seed = 2
[table]
players = 9
"""
FINISHED = (pb.JOB_STATE_SUCCEEDED, pb.JOB_STATE_FAILED, pb.JOB_STATE_CANCELLED)


def _metadata(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def test_a_small_job_is_done_within_two_seconds_behind_a_huge_one(tmp_path: Path) -> None:
    tokens, lines = {}, []
    for namespace in ("alice", "bob"):
        token, entry = mint(namespace)
        tokens[namespace] = token
        lines.append(entry.line())
    (tmp_path / "tokens").write_text("\n".join(lines) + "\n")
    huge, small = tmp_path / "huge.toml", tmp_path / "small.toml"
    huge.write_text(HUGE)
    small.write_text(SMALL)
    server = Server(tmp_path / "data", workers=2, extra=("--tokens", str(tmp_path / "tokens")))
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = pb_grpc.JobServiceStub(channel)
            alice, bob = _metadata(tokens["alice"]), _metadata(tokens["bob"])
            request = pb.SubmitJobRequest(spec=job_spec_from_file(str(huge)))
            big = stub.SubmitJob(request, metadata=alice).job
            # Alice's job has the workers: a few of its shards are done.
            deadline = time.monotonic() + 300
            while _done(stub, big.id, alice) < 3:
                assert time.monotonic() < deadline, server.log()
                time.sleep(0.05)
            request = pb.SubmitJobRequest(spec=job_spec_from_file(str(small)))
            submitted = time.monotonic()
            little = stub.SubmitJob(request, metadata=bob).job
            while True:
                job = stub.GetJob(pb.GetJobRequest(id=little.id), metadata=bob).job
                if job.state in FINISHED:
                    break
                assert time.monotonic() - submitted < 60, server.log()
                time.sleep(0.02)
            waited = time.monotonic() - submitted
            assert job.state == pb.JOB_STATE_SUCCEEDED, job.error
            assert waited < 2.0, f"bob's job took {waited:.2f} s behind alice's"
            # Alice's job was not disturbed: still running, still gaining shards.
            now = stub.GetJob(pb.GetJobRequest(id=big.id), metadata=alice).job
            assert now.state == pb.JOB_STATE_RUNNING
            while _done(stub, big.id, alice) <= now.progress.shards_done:
                assert time.monotonic() - submitted < 120, server.log()
                time.sleep(0.05)
            stub.CancelJob(pb.CancelJobRequest(id=big.id), metadata=alice)
        metrics = _scrape(server.metrics)
        assert 'cardroom_queue_wait_seconds_count{namespace="bob"} 1.0' in metrics
        deadline = time.monotonic() + 30
        while 'cardroom_queue_depth_shards{namespace="alice"}' in metrics:  # until cancelled
            assert time.monotonic() < deadline, metrics
            time.sleep(0.1)
            metrics = _scrape(server.metrics)
    finally:
        server.stop()


def _done(stub: pb_grpc.JobServiceStub, job_id: str, who: tuple[tuple[str, str], ...]) -> int:
    shards: int = stub.GetJob(pb.GetJobRequest(id=job_id), metadata=who).job.progress.shards_done
    return shards


def _scrape(address: str) -> str:
    import urllib.request

    with urllib.request.urlopen(f"http://{address}/metrics", timeout=30) as answer:
        text: str = answer.read().decode()
    return text
