"""A server's embedded Ray ends with the server, however the server dies.

The server is killed the way the OOM killer or ``kill -9 PID`` would: SIGKILL to its
pid alone, so no handler, atexit hook or ``ray.shutdown()`` runs.  Every process it had
started, directly or through Ray, must then exit within a bounded time, while a Ray
cluster that a server merely joined by ``--ray-address`` must keep running.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.local_server import LocalServer
from tests import ray_probe
from tests.harness import REPO, cardroom, env
from workers.runner import RAY_LOCAL_ENVIRONMENT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc"),
]

# Ray's own fate-sharing ends the head processes at once and the workers within a few
# seconds; before the fix the raylet's agents stayed for a minute.  The bound leaves
# room for a loaded machine and is still far below that minute.
EXIT_TIMEOUT = 20.0
RAY_START_TIMEOUT = 60.0

LONG_JOB = 'kind = "bad_beat"\nhands = 1_000_000_000\nseed = 1\nshard_size = 2_000_000\n'


@contextlib.contextmanager
def local_server(tmp_path: Path, name: str, extra: tuple[str, ...] = ()) -> Iterator[LocalServer]:
    """A started server, its process group killed on the way out.  Ray's workers have
    process groups of their own: a test ends those it recorded with ray_probe.kill_all."""
    log = (tmp_path / f"{name}.log").open("ab")
    server = LocalServer(
        tmp_path / name,
        tmp_path / f"{name}.ready",
        output=log,
        workers=2,
        metrics=False,
        extra=extra,
        cwd=REPO,
        # Loopback only, and the joined cluster's (absent) authentication.
        env={**env(), **RAY_LOCAL_ENVIRONMENT},
    )
    try:
        yield server
    finally:
        server.kill()
        log.close()


def submit_long_job(tmp_path: Path, address: str) -> None:
    job_file = tmp_path / "long.toml"
    job_file.write_text(LONG_JOB)
    submitted = cardroom("submit", str(job_file), address=address, timeout=120)
    assert submitted.returncode == 0, submitted.stderr


def describe(processes: list[ray_probe.ProcessId]) -> str:
    return "; ".join(f"{process.pid} {process.command[:100]}" for process in processes)


def test_killed_server_leaves_no_ray_process(tmp_path: Path) -> None:
    recorded: list[ray_probe.ProcessId] = []
    try:
        with local_server(tmp_path, "server") as server:
            ready = server.wait_ready()
            # A running job, so the kill finds workers inside a shard, as a real crash would.
            submit_long_job(tmp_path, ready["address"])
            pid = server.process.pid
            assert ray_probe.wait_until_busy(pid, timeout=RAY_START_TIMEOUT), "no shard started"
            recorded = ray_probe.descendants(pid)
            # The record must hold the Ray session itself, or the check below proves nothing.
            assert any("raylet" in process.command for process in recorded), describe(recorded)
            assert any(process.title == "ray::timed_shard" for process in recorded), describe(
                recorded
            )

            os.kill(pid, signal.SIGKILL)  # the server alone, not its group
            server.process.wait(timeout=30)

            left = ray_probe.survivors(recorded, EXIT_TIMEOUT)
            assert not left, f"still running {EXIT_TIMEOUT} s after the server died: " + describe(
                left
            )
    finally:
        ray_probe.kill_all(recorded)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def ray_head() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Ray cluster started with ``ray start --head --block``: its address and process."""
    # A short private temp dir: Ray's socket paths under it must stay within the 107
    # bytes a Unix socket path allows, and `ray start` records its address there
    # rather than in /tmp/ray, where other tests' `ray.init()` would look for it.
    temp_dir = tempfile.mkdtemp(prefix="ray", dir="/tmp")
    port = free_port()
    ray = Path(sys.executable).with_name("ray")
    command = [
        str(ray),
        "start",
        "--head",
        "--block",
        f"--port={port}",
        "--num-cpus=2",
        "--include-dashboard=false",
        "--node-ip-address=127.0.0.1",
        f"--temp-dir={temp_dir}",
    ]
    head = subprocess.Popen(
        command,
        env={**os.environ, **RAY_LOCAL_ENVIRONMENT},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    recorded: list[ray_probe.ProcessId] = []
    try:
        yield f"127.0.0.1:{port}", head
    finally:
        recorded = ray_probe.descendants(head.pid)
        head.send_signal(signal.SIGTERM)  # `ray start --block` stops its cluster on SIGTERM
        try:
            head.wait(timeout=30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(head.pid, signal.SIGKILL)
            head.wait(timeout=30)
        ray_probe.kill_all(ray_probe.survivors(recorded, 10))
        shutil.rmtree(temp_dir, ignore_errors=True)


def test_killed_server_leaves_a_joined_cluster_running(tmp_path: Path) -> None:
    with ray_head() as (address, head):
        # The cluster's own processes, not the workers it will lease to the server's job:
        # Ray ends those itself when their job's driver dies.
        cluster: list[ray_probe.ProcessId] = []
        for _ in range(int(RAY_START_TIMEOUT / 0.5)):
            workers = set(ray_probe.ray_workers(head.pid))
            cluster = [
                process for process in ray_probe.descendants(head.pid) if process not in workers
            ]
            if any(process.title.endswith("Agent") for process in cluster):
                break
            assert head.poll() is None, "ray start exited"
            time.sleep(0.5)
        assert any("raylet" in process.command for process in cluster), describe(cluster)
        assert any("gcs_server" in process.command for process in cluster), describe(cluster)

        with local_server(tmp_path, "joined", ("--ray-address", address)) as server:
            ready = server.wait_ready()
            submit_long_job(tmp_path, ready["address"])
            assert ray_probe.wait_until_busy(head.pid, timeout=RAY_START_TIMEOUT), "no shard ran"
            own = ray_probe.descendants(server.process.pid)

            os.kill(server.process.pid, signal.SIGKILL)
            server.process.wait(timeout=30)
            # Whatever the server started of its own has ended, and had its chance to
            # clean up after it; then the cluster must still be whole.
            assert not ray_probe.survivors(own, EXIT_TIMEOUT), describe(own)
            time.sleep(3)
            gone = [process for process in cluster if not ray_probe.is_alive(process)]
            assert not gone, "the joined cluster lost: " + describe(gone)
