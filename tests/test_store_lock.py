"""One SQLite store, one server: ``--store sqlite:///PATH`` takes the lock a data directory
takes, on the folder of its file, so a second server on that file — by the same URL, or
with that folder as its data directory — is refused in one line, before Ray starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from service.store import LOCK_NAME, StoreError
from service.stores import store_lock
from tests.harness import REPO, cardroom, env, running_server


def _serve(data: Path, *store: str) -> subprocess.CompletedProcess[str]:
    """`cardroom serve` that is expected to be refused before it serves."""
    return cardroom(
        "serve",
        *("--listen", "127.0.0.1:0", "--metrics-listen", "", "--data-dir", str(data)),
        *store,
        timeout=120,
    )


def _refusal(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def test_the_lock_of_an_sqlite_file_is_its_folders(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert store_lock(None, data) is None
    assert store_lock("postgresql://u@h/db", data) is None
    # The data directory's own file: its lock is the data directory's, taken already.
    assert store_lock(f"sqlite:///{data}/jobs.sqlite3", data) is None
    url = f"sqlite:///{tmp_path}/shared/jobs.sqlite3"
    held = store_lock(url, data)
    assert held is not None and held.path == tmp_path / "shared" / LOCK_NAME
    try:
        # Another process (flock is per open file, and the kernel's): refused, naming --store.
        probe = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from pathlib import Path; from service.stores import store_lock\n"
                "from service.store import StoreError\n"
                "try:\n    store_lock(sys.argv[1], Path(sys.argv[2]))\n"
                "except StoreError as e:\n    print(e)",
                url,
                str(tmp_path / "other"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=REPO,
            env=env(),
            check=True,
        )
        assert probe.stdout.strip().startswith(f"--store {url}: in use by another cardroom server")
    finally:
        held.release()
    again = store_lock(url, data)  # released: free again
    assert again is not None
    again.release()
    (tmp_path / "file").write_text("")
    try:
        store_lock(f"sqlite:///{tmp_path}/file/jobs.sqlite3", data)
    except StoreError as err:
        assert str(err).startswith(f"--store sqlite:///{tmp_path}/file/jobs.sqlite3: its folder")
    else:
        raise AssertionError("a folder that is a file was taken")


def test_a_second_server_on_an_sqlite_file_is_refused_in_one_line(tmp_path: Path) -> None:
    shared = tmp_path / "shared" / "jobs.sqlite3"
    url = f"sqlite:///{shared}"
    with running_server(tmp_path / "first", workers=1, extra=("--store", url)) as first:
        pid = first.process.pid
        # The same file, another data directory.
        line = _refusal(_serve(tmp_path / "second", "--store", url))
        assert line == (
            f"cardroom: cannot start the server: --store {url}: in use by another cardroom "
            f"server (pid {pid}); one SQLite store serves one server, with the server.lock "
            "beside it"
        )
        # The file's folder as a data directory (where jobs.sqlite3 is that file).
        line = _refusal(_serve(shared.parent))
        assert f"--data-dir {shared.parent}: in use by another cardroom server (pid {pid})" in line
        # Another file in the first server's data directory.
        line = _refusal(_serve(tmp_path / "third", "--store", f"sqlite:///{tmp_path}/first/x.db"))
        assert f"in use by another cardroom server (pid {pid})" in line
        assert not (tmp_path / "third" / "jobs.sqlite3").exists()
        assert not (tmp_path / "first" / "x.db").exists()  # never opened
    # Once the first server has stopped, the file serves another.
    with running_server(tmp_path / "second", workers=1, extra=("--store", url)) as second:
        done = second.cli("list")
        assert done.returncode == 0 and done.stdout.strip() == "no jobs", done.stderr
