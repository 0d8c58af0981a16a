"""Starting and stopping a real ``cardroom serve`` process for end-to-end tests.

Servers bind 127.0.0.1 only, on ports the OS picks, and are stopped through their own
process group: SIGTERM first (a clean stop), SIGKILL if that does not end them.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
START_TIMEOUT = 180.0


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


class Server:
    def __init__(self, data_dir: Path, *, workers: int = 2, extra: tuple[str, ...] = ()) -> None:
        self.data_dir = data_dir
        self.ready_file = data_dir.parent / f"{data_dir.name}.ready"
        self.ready_file.unlink(missing_ok=True)
        self.log_path = data_dir.parent / f"{data_dir.name}.log"
        command = [
            sys.executable,
            "-m",
            "service.cli",
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--metrics-listen",
            "127.0.0.1:0",
            "--data-dir",
            str(data_dir),
            "--workers",
            str(workers),
            "--ready-file",
            str(self.ready_file),
            *extra,
        ]
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            command,
            cwd=REPO,
            env=env(),
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, Ray's children included
        )
        deadline = time.monotonic() + START_TIMEOUT
        while not self.ready_file.exists():
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log()}")
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"server not ready in {START_TIMEOUT} s:\n{self.log()}")
            time.sleep(0.2)
        ready = json.loads(self.ready_file.read_text())
        self.address: str = ready["address"]
        self.metrics: str = ready["metrics"]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def cli(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return cardroom(*args, address=self.address, timeout=timeout)

    def stop(self) -> None:
        """SIGTERM the server and wait for its clean stop; SIGKILL its group if it hangs."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=60)
        self.kill()

    def kill(self) -> None:
        """SIGKILL the server's whole process group (the server and its Ray processes)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self._log.close()


@contextmanager
def running_server(data_dir: Path, **kwargs: object) -> Iterator[Server]:
    server = Server(data_dir, **kwargs)  # type: ignore[arg-type]
    try:
        yield server
    finally:
        server.stop()


def cardroom(
    *args: str, address: str | None = None, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    extra = {"CARDROOM_ADDRESS": address} if address else {}
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=REPO,
        env={**env(), **extra},
    )


def require_tool(name: str, env_var: str, *candidates: Path) -> str:
    """The path of an external tool; skip the test when absent, unless CI requires tools."""
    found = os.environ.get(env_var) or shutil.which(name)
    for candidate in candidates:
        if not found and candidate.exists():
            found = str(candidate)
    if found:
        return found
    message = f"{name} is not installed (.ci/run installs it; or set {env_var})"
    if os.environ.get("CARDROOM_REQUIRE_TOOLS"):
        pytest.fail(message)
    pytest.skip(message)
