"""A ``cardroom serve`` child process on loopback: start it, wait until it is ready, stop it.

The server binds 127.0.0.1 on ports the OS picks and writes its addresses to a ready file
once it serves.  It runs in its own process group, so that it is stopped by its own id:
SIGTERM first for a clean stop, SIGKILL to the group if that does not end it.  Ray's
processes are not all in that group (each worker has a group of its own); they end with
the server, however it ends (see workers/ray_reaper.py).  ``make run``, the end-to-end
tests and the service benchmark all start it here.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO

START_TIMEOUT = 180.0


class ServerNotReady(RuntimeError):
    """The server exited, or did not write its ready file in time."""


class LocalServer:
    """``cardroom serve`` with its data in ``data_dir``; ``workers`` None lets it take every
    CPU, ``metrics`` False serves no Prometheus endpoint."""

    def __init__(
        self,
        data_dir: Path,
        ready_file: Path,
        *,
        output: IO[bytes] | int = subprocess.DEVNULL,
        workers: int | None = None,
        metrics: bool = True,
        extra: Sequence[str] = (),
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.ready_file = ready_file
        ready_file.unlink(missing_ok=True)
        command = [
            sys.executable,
            "-m",
            "service.cli",
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--metrics-listen",
            "127.0.0.1:0" if metrics else "",
            "--data-dir",
            str(data_dir),
            "--ready-file",
            str(ready_file),
        ]
        if workers is not None:
            command += ["--workers", str(workers)]
        self.process = subprocess.Popen(
            [*command, *extra],
            cwd=cwd,
            env=None if env is None else dict(env),
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, Ray's children included
        )

    def wait_ready(self, timeout: float = START_TIMEOUT) -> dict[str, str]:
        """The ready file's contents (``address``, ``metrics``) once the server serves."""
        deadline = time.monotonic() + timeout
        while not self.ready_file.exists():
            if self.process.poll() is not None:
                raise ServerNotReady("server exited early")
            if time.monotonic() > deadline:
                raise ServerNotReady(f"server not ready in {timeout} s")
            time.sleep(0.2)
        ready: dict[str, str] = json.loads(self.ready_file.read_text())
        return ready

    def address(self) -> str | None:
        """The gRPC address the server bound, once it is ready; None before."""
        try:
            ready: dict[str, str] = json.loads(self.ready_file.read_text())
        except (OSError, ValueError):
            return None
        return ready.get("address")

    def stop(self, grace: float = 60) -> None:
        """SIGTERM the server and wait for its clean stop; SIGKILL its group if it hangs."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=grace)
        self.kill()

    def kill(self) -> None:
        """SIGKILL the server's process group; its Ray processes end with it."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
