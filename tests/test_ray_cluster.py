"""A real multi-node Ray cluster on this machine: a head and a worker node, each its own
``ray start`` process tree on 127.0.0.1, and a server joined to it with ``--ray-address``.

A job runs on both nodes to the result of a local run; then the worker node is killed
(SIGKILL to every process of it) while it runs one of a second job's shards, and that job
still ends with the same result: the shards it lost are run again on the head.

What is checked is what the kernel and Ray say, not the service's own counters: a node ran
shards when one of the processes under its ``ray start`` carried the shard task's title;
the cluster listens on loopback only (the kernel's socket tables); the nodes joined, and the
killed one died, by Ray's own node table.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.client import job_spec_from_file
from service.local_server import LocalServer
from tests import ray_probe
from tests.harness import REPO, cardroom, env
from tests.ray_nodes import RayNode, listening_addresses, nodes_alive, ray_cluster
from workers.runner import RAY_LOCAL_ENVIRONMENT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc"),
]

# Long enough (30 shards of about 0.1 s on one core) that the worker node's first Ray
# worker is up before the head alone has run the whole job, even on a busy machine.
JOB = """
kind = "bad_beat"
hands = 12_000_000
seed = 4321
shard_size = 400_000
[table]
players = 9
"""
FINISH_TIMEOUT = 300.0
FINISHED = (pb.JOB_STATE_SUCCEEDED, pb.JOB_STATE_FAILED, pb.JOB_STATE_CANCELLED)
LOOPBACK = {"127.0.0.1", "::1"}
DEATH_TIMEOUT = 60.0  # seconds for Ray's node table to show a node joined, or dead


@contextlib.contextmanager
def joined_server(tmp_path: Path, address: str) -> Iterator[tuple[LocalServer, str]]:
    log = (tmp_path / "server.log").open("ab")
    server = LocalServer(
        tmp_path / "data",
        tmp_path / "ready",
        output=log,
        metrics=False,
        extra=("--ray-address", address),
        cwd=REPO,
        env={**env(), **RAY_LOCAL_ENVIRONMENT},
    )
    try:
        yield server, server.wait_ready()["address"]
    finally:
        server.stop()
        log.close()


def follow(
    stub: pb_grpc.JobServiceStub, job_id: str, nodes: list[RayNode], seen: dict[int, int]
) -> pb.Job:
    """Poll the job to its end, counting for each node the readings that found one of its
    workers inside a shard."""
    deadline = time.monotonic() + FINISH_TIMEOUT
    while True:
        for number, node in enumerate(nodes):
            if node.process.poll() is None and node.busy_workers():
                seen[number] = seen.get(number, 0) + 1
        job: pb.Job = stub.GetJob(pb.GetJobRequest(id=job_id)).job
        if job.state in FINISHED:
            return job
        assert time.monotonic() < deadline, f"job not finished: {job}"
        time.sleep(0.02)


def result_json(address: str, job_id: str) -> str:
    done = cardroom("result", job_id, "--json", address=address, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_job_across_two_nodes_and_a_worker_node_killed_mid_job(tmp_path: Path) -> None:
    job_file = tmp_path / "job.toml"
    job_file.write_text(JOB)
    # The local reference runs meanwhile, in a process of its own.
    local = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "run", str(job_file), "--json", "--in-process"],
        cwd=REPO,
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        with (
            ray_cluster(1, 1) as nodes,
            joined_server(tmp_path, nodes[0].address) as (server, address),
            grpc.insecure_channel(address) as channel,
        ):
            head, worker = nodes
            ids = head.node_id(), worker.node_id()
            deadline = time.monotonic() + DEATH_TIMEOUT
            while (table := nodes_alive(head.address)) != {ids[0]: True, ids[1]: True}:
                # A raylet runs a moment before the GCS has registered its node.
                assert time.monotonic() < deadline, f"the nodes did not join: {table}"
                time.sleep(0.5)
            cluster = [p for node in nodes for p in node.processes()]
            server_tree = ray_probe.descendants(server.process.pid)
            listening = listening_addresses([*cluster, *server_tree])
            assert listening and listening <= LOOPBACK, listening
            stub = pb_grpc.JobServiceStub(channel)
            spec = pb.SubmitJobRequest(spec=job_spec_from_file(str(job_file)))

            first = stub.SubmitJob(spec).job
            seen: dict[int, int] = {}
            done = follow(stub, first.id, nodes, seen)
            assert done.state == pb.JOB_STATE_SUCCEEDED, done.error
            assert seen.get(0) and seen.get(1), f"shards seen running per node: {seen}"
            across_both = result_json(address, first.id)

            second = stub.SubmitJob(spec).job
            deadline = time.monotonic() + FINISH_TIMEOUT
            while not worker.busy_workers():
                assert time.monotonic() < deadline, "no shard ran on the worker node"
                time.sleep(0.01)
            before = stub.GetJob(pb.GetJobRequest(id=second.id)).job.progress
            worker.kill()
            assert before.shards_done < before.shards_total, "the job ended before the kill"
            deadline = time.monotonic() + DEATH_TIMEOUT
            while nodes_alive(head.address).get(ids[1]) is not False:
                assert time.monotonic() < deadline, "Ray never marked the killed node dead"
                time.sleep(0.5)
            done = follow(stub, second.id, [head], {})
            assert done.state == pb.JOB_STATE_SUCCEEDED, done.error
            assert done.progress.shards_done == done.progress.shards_total
            after_kill = result_json(address, second.id)
        reference, _ = local.communicate(timeout=FINISH_TIMEOUT)
    finally:
        if local.poll() is None:
            local.kill()
            local.wait()
    assert local.returncode == 0
    assert across_both == reference
    assert after_kill == reference
