"""Ending an embedded Ray session's processes when the process that started it ends.

``ray.init()`` on a machine with no cluster starts a private Ray: gcs_server, raylet and
a few Python helpers as children of the driver, and raylet then starts its agents and the
workers.  Ray ties the first group to the driver with PR_SET_PDEATHSIG, and workers
notice their raylet's death within about two seconds, but the raylet's agents do not end
promptly: when their raylet dies they report it to the GCS, which died with the driver,
and that call waits out a fixed 60 s timeout (``publish_error_to_driver`` in Ray 2.60's
``ray/_private/utils.py``) before they exit.  No setting of Ray's shortens it, so a
driver killed by SIGKILL or the OOM killer left them running for a minute each time.

:class:`SessionReaper` starts a small watchdog, this file run as a program, that holds
the read end of a pipe whose only write end the driver keeps.  The read returns
end-of-file when the driver closes it (after ``ray.shutdown()``) or when the kernel does
(the driver died, by any means), and the watchdog then ends every process of that Ray
session still running, SIGTERM first and SIGKILL after a short grace.

A process belongs to the session when it runs a Ray program (Ray's ``ray::`` process
title, an executable or script inside the Ray package, or a ``ray.`` module) *and* holds
a file open in the session's directory, where each of Ray's processes keeps its logs and
sockets.  The session directory is unique to one ``ray.init()``, so neither another Ray
cluster on the machine nor a program merely reading Ray's logs is ever touched.  Only
use this for a Ray that this process started: a driver that joined a cluster by address
shares that cluster's session directory.

Once the processes are gone the watchdog removes the session directory itself (Ray's
logs and sockets, a few hundred KB that nothing reads once the session has ended, and that
``ray.shutdown()`` leaves behind), and Ray's ``session_latest`` link when it still points
there: each run cleans up only what it created.

The watchdog runs in a process group of its own, so that killing the driver's group still
leaves it to clean up after the driver.  Linux only: it reads /proc.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

PROC = Path("/proc")
GRACE = 2.0  # seconds a SIGTERMed process gets to flush its logs before SIGKILL
ROUNDS = 3  # sweeps, in case a process was starting while the previous one ran


def supported() -> bool:
    """Whether this platform has what the watchdog reads and signals through."""
    return sys.platform.startswith("linux") and hasattr(os, "pidfd_open")


class SessionReaper:
    """The watchdog of one Ray session, as seen from the driver that started it."""

    def __init__(self, session_dir: str, ray_package: str) -> None:
        self._process: subprocess.Popen[bytes] | None = subprocess.Popen(
            # -I: the watchdog needs the standard library only, and no environment
            # variable or working directory should change which code it runs.
            [sys.executable, "-I", str(Path(__file__).resolve()), session_dir, ray_package],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            process_group=0,
        )

    def close(self, timeout: float = 30) -> None:
        """End what is left of the session now, and wait for the watchdog to finish.

        Called after ``ray.shutdown()``, which normally leaves nothing behind.
        """
        process, self._process = self._process, None
        if process is None:
            return
        assert process.stdin is not None
        process.stdin.close()  # the end-of-file the watchdog waits for
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _argv(pid: int) -> list[str]:
    raw = (PROC / str(pid) / "cmdline").read_bytes()
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def _runs_ray(argv: list[str], ray_package: str) -> bool:
    if argv and argv[0].startswith("ray::"):  # a worker or agent, by the title Ray sets
        return True
    inside = ray_package.rstrip("/") + "/"
    for index, arg in enumerate(argv):
        if arg.startswith(inside):
            return True
        if arg == "-m" and argv[index + 1 : index + 2] and argv[index + 1].startswith("ray."):
            return True
    return False


def _holds_file_in(pid: int, prefix: str) -> bool:
    fds = PROC / str(pid) / "fd"
    for fd in os.listdir(fds):
        with contextlib.suppress(OSError):  # closed since the listing
            if os.readlink(fds / fd).startswith(prefix):
                return True
    return False


def _belongs(pid: int, prefix: str, ray_package: str) -> bool:
    try:
        if os.stat(PROC / str(pid)).st_uid != os.getuid():
            return False
        return _runs_ray(_argv(pid), ray_package) and _holds_file_in(pid, prefix)
    except OSError:  # gone, or not ours to read
        return False


def _session_pidfds(session_dir: str, ray_package: str, spare: set[int]) -> Iterator[int]:
    """Pidfds of the session's running processes, except those in ``spare``.

    Each pidfd is opened before the process is checked, and kept only if the process has
    not exited since: then the check was of the process the pidfd refers to, and a signal
    sent through it cannot reach a later process that was given the same pid.
    """
    prefix = session_dir.rstrip("/") + "/"
    for entry in os.listdir(PROC):
        if not entry.isdigit() or int(entry) in spare:
            continue
        try:
            pidfd = os.pidfd_open(int(entry))
        except OSError:
            continue
        if _belongs(int(entry), prefix, ray_package) and not _exited(pidfd):
            yield pidfd
        else:
            os.close(pidfd)


def _exited(pidfd: int) -> bool:
    return bool(select.select([pidfd], [], [], 0)[0])  # a pidfd reads ready once it exits


def _signal(pidfds: list[int], signum: int) -> None:
    for pidfd in pidfds:
        with contextlib.suppress(ProcessLookupError):
            signal.pidfd_send_signal(pidfd, signum)


def _wait(pidfds: list[int], timeout: float) -> list[int]:
    """Wait up to ``timeout`` seconds for them to exit; return those still running."""
    deadline = time.monotonic() + timeout
    running = [pidfd for pidfd in pidfds if not _exited(pidfd)]
    while running and (left := deadline - time.monotonic()) > 0:
        select.select(running, [], [], left)
        running = [pidfd for pidfd in running if not _exited(pidfd)]
    return running


def end_session(session_dir: str, ray_package: str, spare: set[int], grace: float = GRACE) -> int:
    """End every running process of the Ray session in ``session_dir`` but those in
    ``spare``; return how many."""
    ended = 0
    for _ in range(ROUNDS):
        pidfds = list(_session_pidfds(session_dir, ray_package, spare))
        if not pidfds:
            break
        try:
            _signal(pidfds, signal.SIGTERM)
            stubborn = _wait(pidfds, grace)
            _signal(stubborn, signal.SIGKILL)
            _wait(stubborn, grace)
            ended += len(pidfds)
        finally:
            for pidfd in pidfds:
                os.close(pidfd)
    return ended


def remove_session_dir(session_dir: str) -> bool:
    """Remove an ended session's directory, and the ``session_latest`` link beside it if it
    points there; whether the directory was removed.  Only a directory named as Ray names a
    session's (``session_*``) is touched, never a link or anything else."""
    path = Path(session_dir)
    if not path.name.startswith("session_") or path.is_symlink() or not path.is_dir():
        return False
    latest = path.parent / "session_latest"
    with contextlib.suppress(OSError):
        if latest.is_symlink() and Path(os.readlink(latest)).name == path.name:
            latest.unlink()
    shutil.rmtree(path, ignore_errors=True)
    return not path.exists()


def main(argv: list[str]) -> int:
    session_dir, ray_package = argv
    # The driver holds files in the session too.  Its command line is not a Ray
    # program's, so the rule above already spares it; naming it here keeps it safe on a
    # clean close, the one time it is still running when the sweep comes.
    spare = {os.getpid(), os.getppid()}
    # An interrupt or a hang-up meant for the server must not stop this process before
    # it has cleaned up after the server; it ends on its own right after.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    sys.stdin.buffer.read()  # returns only at end-of-file: the driver closed it or died
    end_session(session_dir, ray_package, spare)
    remove_session_dir(session_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
