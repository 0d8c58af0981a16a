"""Which processes the Ray session reaper ends, on stand-in processes (no Ray needed).

A stand-in "Ray process" is ``sleep`` given a Ray-like command line and holding a file
open in a session directory, as Ray's processes hold their logs.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from workers import ray_reaper

pytestmark = pytest.mark.skipif(not ray_reaper.supported(), reason="reads Linux's /proc")


@contextlib.contextmanager
def started(*commands: str) -> Iterator[list[subprocess.Popen[bytes]]]:
    """Shell commands, each run by bash in a process group of its own, killed on the way out."""
    processes = [subprocess.Popen(["bash", "-c", command], process_group=0) for command in commands]
    try:
        yield processes
    finally:
        for process in processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, 9)
            process.wait(timeout=10)


def holding(log: Path, argv0: str) -> str:
    """A process named ``argv0`` (``exec -a``) that keeps ``log`` open and sleeps."""
    log.parent.mkdir(parents=True, exist_ok=True)
    return f"exec -a '{argv0}' sleep 600 3>>'{log}'"


def module_holding(log: Path, module: str) -> str:
    """A Python process whose command line runs ``-m module``, keeping ``log`` open."""
    log.parent.mkdir(parents=True, exist_ok=True)
    return f"exec '{sys.executable}' -c 'import time; time.sleep(600)' -m {module} 3>>'{log}'"


def wait_open(processes: list[subprocess.Popen[bytes]]) -> None:
    """Wait until each process has exec'd sleep with its file open (fd 3)."""
    deadline = time.monotonic() + 10
    for process in processes:
        while not os.path.exists(f"/proc/{process.pid}/fd/3"):
            assert time.monotonic() < deadline, "a stand-in did not start"
            time.sleep(0.01)


def test_ends_the_sessions_ray_processes_and_nothing_else(tmp_path: Path) -> None:
    session = tmp_path / "session_1"
    other_session = tmp_path / "session_12"  # a name the first is a prefix of
    ray_package = tmp_path / "site-packages" / "ray"
    with started(
        holding(session / "logs" / "worker.out", "ray::IDLE"),
        holding(session / "logs" / "raylet.out", f"{ray_package}/core/raylet"),
        module_holding(session / "logs" / "monitor.log", "ray.autoscaler"),
        # Not Ray programs, or not of this session: all must be spared.
        holding(session / "logs" / "raylet.out", "tail"),  # a reader of Ray's logs
        module_holding(session / "logs" / "monitor.log", "rayon.tool"),
        holding(other_session / "logs" / "worker.out", "ray::IDLE"),
        holding(tmp_path / "unrelated.log", f"{ray_package}/core/raylet"),
        holding(session / "logs" / "x.log", f"{ray_package}_extras/tool"),
    ) as processes:
        wait_open(processes)
        ended = ray_reaper.end_session(str(session), str(ray_package), {os.getpid()}, grace=5)
        for process in processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=0.5)
        states = [process.poll() for process in processes]
    assert ended == 3
    assert [state is not None for state in states] == [True] * 3 + [False] * 5, states


def test_watchdog_ends_the_session_when_its_driver_is_killed(tmp_path: Path) -> None:
    session = tmp_path / "session_1"
    ray_package = tmp_path / "ray"
    with started(holding(session / "logs" / "worker.out", "ray::IDLE")) as (worker,):
        wait_open([worker])
        # A stand-in driver: it starts the reaper, reports it, and waits to be killed.
        driver_code = (
            "import sys, time\n"
            "from workers.ray_reaper import SessionReaper\n"
            "SessionReaper(sys.argv[1], sys.argv[2])\n"
            "print('started', flush=True)\n"
            "time.sleep(600)\n"
        )
        driver = subprocess.Popen(
            [sys.executable, "-c", driver_code, str(session), str(ray_package)],
            cwd=Path(__file__).resolve().parent.parent,
            stdout=subprocess.PIPE,
        )
        try:
            assert driver.stdout is not None
            assert driver.stdout.readline() == b"started\n"
            time.sleep(0.5)
            assert worker.poll() is None, "ended while its driver still ran"
            driver.kill()
            driver.wait(timeout=10)
            # The reaper's SIGTERM ends sleep at once; allow a loaded machine its time.
            worker.wait(timeout=20)
        finally:
            driver.kill()
            driver.wait(timeout=10)
