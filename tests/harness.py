"""Starting and stopping a real ``cardroom serve`` process for end-to-end tests.

Servers bind 127.0.0.1 only, on ports the OS picks, and are stopped through their own
process group: SIGTERM first (a clean stop), SIGKILL if that does not end them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pytest

from service.local_server import START_TIMEOUT, LocalServer, ServerNotReady

REPO = Path(__file__).resolve().parent.parent


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


class Server:
    def __init__(self, data_dir: Path, *, workers: int = 2, extra: tuple[str, ...] = ()) -> None:
        self.data_dir = data_dir
        self.log_path = data_dir.parent / f"{data_dir.name}.log"
        self._log = self.log_path.open("ab")
        self._server = LocalServer(
            data_dir,
            data_dir.parent / f"{data_dir.name}.ready",
            output=self._log,
            workers=workers,
            extra=extra,
            cwd=REPO,
            env=env(),
        )
        self.process = self._server.process
        try:
            ready = self._server.wait_ready(START_TIMEOUT)
        except ServerNotReady as err:
            self.kill()
            raise RuntimeError(f"{err}:\n{self.log()}") from err
        self.address: str = ready["address"]
        self.metrics: str = ready["metrics"]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def cli(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return cardroom(*args, address=self.address, timeout=timeout)

    def stop(self) -> None:
        """SIGTERM the server and wait for its clean stop; SIGKILL its group if it hangs."""
        self._server.stop()
        self._log.close()

    def kill(self) -> None:
        """SIGKILL the server's process group; its Ray processes end with it."""
        self._server.kill()
        self._log.close()


@contextmanager
def running_server(data_dir: Path, **kwargs: object) -> Iterator[Server]:
    server = Server(data_dir, **kwargs)  # type: ignore[arg-type]
    try:
        yield server
    finally:
        server.stop()


def cardroom(
    *args: str,
    address: str | None = None,
    timeout: float = 600,
    environment: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    extra = {"CARDROOM_ADDRESS": address} if address else {}
    extra.update(environment or {})
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
