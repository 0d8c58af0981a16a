"""Observing a server's Ray processes from outside it, through Linux's /proc.

The service's own gauges say what the service believes; these helpers read what the
kernel says about the Ray processes the server started, so a test can check a real
effect: that a cancelled job leaves no Ray worker computing, or that a killed server
leaves no Ray process behind.

Ray's processes are found as descendants of the server: the server starts gcs_server,
raylet and Ray's Python helpers, and raylet starts the agents and the workers.  They are
not all in the server's process group (each Ray worker runs in a process group of its
own), so neither a process group nor a name is a safe way to find them.  A process is
identified by its pid together with its start time, so that a pid the kernel hands to a
new process is not mistaken for the one recorded.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

PROC = Path("/proc")


@dataclass(frozen=True)
class ProcessId:
    """A process as the kernel knows it: its pid and its start time (clock ticks after
    boot, which a reused pid does not repeat), with its command line when recorded.

    Two records are the same process when pid and start time match, even if the command
    line changed in between (Ray rewrites a worker's title with every task)."""

    pid: int
    start: int
    argv: tuple[str, ...] = field(compare=False)

    @property
    def command(self) -> str:
        return " ".join(self.argv)

    @property
    def title(self) -> str:
        """The first argument, where Ray writes a process's title."""
        return self.argv[0] if self.argv else ""


@dataclass(frozen=True)
class _Stat:
    state: str
    ppid: int
    start: int


def _stat(pid: int) -> _Stat | None:
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:  # gone, or never there
        return None
    # The command name in parentheses may itself hold spaces or parentheses.
    fields = text[text.rindex(")") + 2 :].split()
    # Fields from the third on: state, ppid, ..., starttime is the 22nd overall.
    return _Stat(state=fields[0], ppid=int(fields[1]), start=int(fields[19]))


def arguments(pid: int) -> tuple[str, ...] | None:
    """The process's command line; None when it is gone.

    Ray's workers and agents overwrite theirs with a title (``ray::IDLE``,
    ``ray::timed_shard``, ``ray::DashboardAgent``), which is then all it holds.
    """
    try:
        raw = (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return None
    return tuple(part.decode(errors="replace").strip() for part in raw.split(b"\0") if part)


def descendants(pid: int) -> list[ProcessId]:
    """The live children of ``pid``, their children, and so on (not ``pid`` itself).

    Only a live ancestor links them: once a process dies its children are adopted by
    init, so record the tree while the server runs.
    """
    children: dict[int, list[int]] = {}
    stats: dict[int, _Stat] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        stat = _stat(int(entry.name))
        if stat is not None and stat.state != "Z":
            stats[int(entry.name)] = stat
            children.setdefault(stat.ppid, []).append(int(entry.name))
    found: list[ProcessId] = []
    pending = list(children.get(pid, []))
    while pending:
        child = pending.pop()
        argv = arguments(child)
        if argv:  # kernel threads and processes already gone have none
            found.append(ProcessId(child, stats[child].start, argv))
        pending.extend(children.get(child, []))
    return sorted(found, key=lambda process: process.pid)


def is_alive(process: ProcessId) -> bool:
    """Whether this very process still runs: its pid exists, with the same start time, and
    it is not a zombie (a zombie has exited and only waits for its parent to reap it)."""
    stat = _stat(process.pid)
    return stat is not None and stat.start == process.start and stat.state != "Z"


def survivors(processes: Iterable[ProcessId], timeout: float, poll: float = 0.2) -> list[ProcessId]:
    """Wait up to ``timeout`` seconds for every process to exit; return those still alive."""
    deadline = time.monotonic() + timeout
    alive = [process for process in processes if is_alive(process)]
    while alive and time.monotonic() < deadline:
        time.sleep(poll)
        alive = [process for process in alive if is_alive(process)]
    return alive


def ray_workers(server_pid: int) -> list[ProcessId]:
    """The server's Ray worker processes: idle, busy, or still starting.

    Ray gives a worker process the title ``ray::IDLE`` when it has no task and
    ``ray::<task name>`` while it runs one; until it sets one, it is a Python process
    running Ray's ``default_worker.py``.  The agents, ``ray::DashboardAgent`` and
    ``ray::RuntimeEnvAgent``, are left out.
    """
    return [
        process
        for process in descendants(server_pid)
        if (process.title.startswith("ray::") and not process.title.endswith("Agent"))
        or any(arg.endswith("/default_worker.py") for arg in process.argv)
    ]


def busy_ray_workers(server_pid: int, task: str = "timed_shard") -> list[int]:
    """Pids of the server's Ray worker processes executing ``task`` right now.

    It reads each worker's process title, which the worker itself sets: Ray's task
    executor switches the title to ``ray::<task name>`` just before it calls the task's
    function and back to ``ray::IDLE`` once the function has returned or raised.  So a
    worker listed here is inside the shard computation at the moment of reading,
    whatever the service's own counters say, and a cancelled shard leaves this list
    only once the worker has really stopped running it.

    Between two shards a worker shows ``ray::IDLE`` for a few milliseconds, so one empty
    reading does not prove the job stopped: use :func:`wait_until_idle`.
    """
    wanted = f"ray::{task}"
    return [process.pid for process in ray_workers(server_pid) if process.title == wanted]


def wait_until_busy(server_pid: int, timeout: float, task: str = "timed_shard") -> list[int]:
    """Poll until some worker runs ``task``; return their pids, or [] after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        busy = busy_ray_workers(server_pid, task)
        if busy or time.monotonic() > deadline:
            return busy
        time.sleep(0.02)


def wait_until_idle(
    server_pid: int, timeout: float, settle: float = 1.0, task: str = "timed_shard"
) -> float | None:
    """Seconds until no worker ran ``task`` and none started it again for ``settle``
    seconds (longer than the gap between two shards); None if that did not happen
    within ``timeout``."""
    started = time.monotonic()
    idle_since: float | None = None
    while True:
        now = time.monotonic()
        if busy_ray_workers(server_pid, task):
            idle_since = None
        elif idle_since is None:
            idle_since = now
        elif now - idle_since >= settle:
            return idle_since - started
        if now - started > timeout + settle:
            return None
        time.sleep(0.005)


def kill_all(processes: Iterable[ProcessId]) -> None:
    """SIGKILL each process that still runs, for a test's cleanup.

    The signal goes through a pidfd opened while the recorded process is known to be the
    one running (same start time), so a pid the kernel has handed on is never hit.
    """
    for process in processes:
        try:
            handle = os.pidfd_open(process.pid)
        except OSError:  # already gone
            continue
        try:
            if is_alive(process):
                signal.pidfd_send_signal(handle, signal.SIGKILL)
        except OSError:  # exited in between
            pass
        finally:
            os.close(handle)
