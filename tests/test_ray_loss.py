"""Losing Ray, then the job store, under one running job of a real server: a Ray worker
killed mid-shard, then the raylet, then the Ray head (the embedded cluster's GCS server),
each by its pid, then PostgreSQL crashed and restarted.  The server rides each out — the
worker's shard retried by Ray, the raylet's and the head's shards put back in the job's
queue while the server starts a new Ray (health NOT_SERVING meanwhile, SERVING again
after) — and the job ends with the result of an uninterrupted local run, each shard
stored once.  (workers/pool.py, workers/driver.py, service/manager.py.)"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import grpc
import psycopg
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.client import job_spec_from_file
from tests.harness import Server
from tests.postgres import PostgresServer
from tests.test_service_faults import FINISH_TIMEOUT, local_result, wait_finished

JOB = """
kind = "bad_beat"
hands = 40_000_000
seed = 321
shard_size = 500_000
[table]
players = 9
"""
SHARDS = 80
SERVING = health_pb2.HealthCheckResponse.SERVING


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as stat:
                ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def _argv(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def descendants(root: int, matches: Callable[[str], bool]) -> list[int]:
    """Processes below ``root`` (at any depth) whose command line ``matches``."""
    tree, found, stack = _children(), [], [root]
    while stack:
        for child in tree.get(stack.pop(), []):
            if matches(_argv(child)):
                found.append(child)
            stack.append(child)
    return found


def one_of(root: int, matches: Callable[[str], bool], what: str, log: Callable[[], str]) -> int:
    deadline = time.monotonic() + 60
    while not (found := descendants(root, matches)):
        assert time.monotonic() < deadline, f"no {what} under the server\n{log()}"
        time.sleep(0.02)
    return found[0]


def test_a_job_rides_out_a_worker_the_raylet_the_head_and_the_store(tmp_path: Path) -> None:
    job_file = tmp_path / "job.toml"
    job_file.write_text(JOB)
    database = PostgresServer()  # its own: the session's server is not to be crashed
    try:
        url = database.fresh_url()
        server = Server(tmp_path / "data", workers=2, extra=("--store", url))
        pid = server.process.pid
        try:
            with grpc.insecure_channel(server.address) as channel:
                stub = pb_grpc.JobServiceStub(channel)
                health = health_pb2_grpc.HealthStub(channel)
                job = stub.SubmitJob(pb.SubmitJobRequest(spec=job_spec_from_file(str(job_file))))
                job_id = job.job.id

                def done() -> int:
                    shards: int = stub.GetJob(pb.GetJobRequest(id=job_id)).job.progress.shards_done
                    return shards

                def progress_by(shards: int) -> None:
                    start, deadline = done(), time.monotonic() + FINISH_TIMEOUT
                    while (now := done()) < start + shards:
                        assert time.monotonic() < deadline, server.log()
                        time.sleep(0.02)
                    assert now < SHARDS, "the job ended before every fault was made"

                def lose_ray(process: str) -> None:
                    """Kill one of the embedded Ray's core processes; health says
                    NOT_SERVING until a new Ray is up, then SERVING."""
                    target = one_of(
                        pid,
                        lambda argv: os.path.basename(argv.split(" ")[0]) == process,
                        process,
                        server.log,
                    )
                    os.kill(target, signal.SIGKILL)
                    deadline = time.monotonic() + 30
                    while health.Check(health_pb2.HealthCheckRequest()).status == SERVING:
                        assert time.monotonic() < deadline, f"still SERVING\n{server.log()}"
                        time.sleep(0.01)
                    deadline = time.monotonic() + FINISH_TIMEOUT
                    while health.Check(health_pb2.HealthCheckRequest()).status != SERVING:
                        assert time.monotonic() < deadline, server.log()
                        time.sleep(0.05)

                progress_by(2)
                # 1. a Ray worker, while it computes a shard: Ray runs the task again
                worker = one_of(
                    pid,
                    lambda argv: argv.startswith("ray::timed_shard"),
                    "shard worker",
                    server.log,
                )
                os.kill(worker, signal.SIGKILL)
                progress_by(2)
                # 2. the raylet, 3. the head (the GCS server)
                lose_ray("raylet")
                progress_by(2)
                lose_ray("gcs_server")
                progress_by(2)
                # 4. the job store: PostgreSQL stops at once and is back 3 s later
                database.crash_and_restart(down=3.0)
                finished = wait_finished(stub, job_id)
                assert finished.state == pb.JOB_STATE_SUCCEEDED, finished.error + server.log()
                assert finished.progress.shards_done == SHARDS
                result = server.cli("result", job_id, "--json")
                assert result.returncode == 0, result.stderr
            log = server.log_path.read_text(errors="replace")
            assert log.count("Ray was lost") >= 2 and log.count("Ray is back") >= 2, log
        finally:
            server.stop()
        with psycopg.connect(url, autocommit=True) as db:
            rows = db.execute(
                "SELECT shard FROM cardroom_shards WHERE job_id = %s ORDER BY shard", (job_id,)
            ).fetchall()
        assert [shard for (shard,) in rows] == list(range(SHARDS))
    finally:
        database.stop()
    assert result.stdout == local_result(job_file)
