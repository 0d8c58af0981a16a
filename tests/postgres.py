"""A PostgreSQL server of the test's own: Debian's binaries, a cluster made with initdb in a
temporary folder, listening on 127.0.0.1 only, on a port the OS had free, stopped by its
own process id.  As root it runs as the ``postgres`` user (initdb refuses root)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.harness import require_tool

START_TIMEOUT = 60.0


def _bindir() -> str:
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    found = os.environ.get("CARDROOM_PG_BIN")
    if found:
        return found
    if candidates:
        return str(Path(candidates[0]).parent)
    initdb = require_tool("initdb", "CARDROOM_PG_INITDB")
    return str(Path(initdb).parent)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    def __init__(self) -> None:
        bindir = _bindir()
        self.root = Path(tempfile.mkdtemp(prefix="cardroom-pg-"))
        self.data = self.root / "data"
        as_user: dict[str, Any] = {}
        if os.geteuid() == 0:
            try:
                account = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError(
                    "as root the test runs PostgreSQL as the postgres user, which Debian's "
                    "postgresql package makes (make tools installs it)"
                ) from None
            os.chown(self.root, account.pw_uid, account.pw_gid)
            as_user = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
        initdb = [f"{bindir}/initdb", "-D", str(self.data), "-U", "cardroom", "--auth=trust"]
        subprocess.run(
            [*initdb, "-E", "UTF8", "--no-sync", "--no-instructions"],
            check=True,
            capture_output=True,
            timeout=120,
            **as_user,
        )
        self._as_user = as_user
        self._bindir = bindir
        self.port = _free_port()
        self.log = (self.root / "server.log").open("wb")
        self.admin_url = f"postgresql://cardroom@127.0.0.1:{self.port}/postgres"
        self._start()

    def _start(self) -> None:
        self.process = subprocess.Popen(
            [
                f"{self._bindir}/postgres",
                *("-D", str(self.data), "-h", "127.0.0.1", "-p", str(self.port)),
                *("-k", str(self.root), "-c", "fsync=off", "-c", "max_connections=40"),
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            **self._as_user,
        )
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                psycopg.connect(self.admin_url, connect_timeout=2).close()
                break
            except psycopg.OperationalError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("PostgreSQL did not start") from None
                time.sleep(0.2)

    def crash_and_restart(self, down: float = 0.0) -> None:
        """An immediate shutdown (SIGQUIT: every connection cut, no checkpoint, as in a
        crash), ``down`` seconds without a server, then a start on the same files and
        port, which recovers from the write-ahead log."""
        self.process.send_signal(signal.SIGQUIT)
        self.process.wait(timeout=60)
        time.sleep(down)
        self._start()

    def fresh_url(self) -> str:
        """The URL of a new, empty schema: each store test starts from nothing."""
        schema = f"t_{os.urandom(6).hex()}"
        with psycopg.connect(self.admin_url, autocommit=True) as db:
            db.execute(f"CREATE SCHEMA {schema}")
        options = urllib.parse.quote(f"-csearch_path={schema}")
        return f"{self.admin_url}?options={options}"

    def stop(self) -> None:
        """A fast shutdown (SIGINT) of the server this test started; SIGKILL if it hangs."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)
        self.log.close()
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    server = PostgresServer()
    try:
        yield server
    finally:
        server.stop()
