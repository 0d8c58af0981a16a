"""The job store in SQLite, in write-ahead-log mode: by default ``jobs.sqlite3`` in the
server's data directory.  The store itself is service/store_sql.py's, over
:class:`SqliteDialect`; this module also keeps the store's vocabulary in reach
(service/store_records.py), and :class:`DataDirLock`, which keeps a second server off a data
directory.

A store is made whole or not at all (:func:`_create`), and a store SQLite or this server cannot
read is refused at start with what was found, never repaired.  A store of an earlier
schema gains the columns it lacks on opening, keeping its jobs.

Deleted jobs' pages are given back to the file system (SQLite's incremental vacuum; a store
made before that was possible is rebuilt once by the first expiry).
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import sqlite3
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from service.store_records import (
    MAX_SEQ,
    SPEC_VERSION,
    TRANSITIONS,
    JobRecord,
    JobState,
    JobUnfinished,
    Progress,
    StateConflict,
    StoreError,
    StoreUnavailable,
    TooManyJobs,
    TooManyTrials,
    decode_page_token,
    encode_page_token,
    without_paths,
)
from service.store_sql import SqlJobStore, schema

__all__ = [
    "EXPIRE_BATCH",
    "LOCK_NAME",
    "MAX_SEQ",
    "SCHEMA",
    "SCHEMA_VERSION",
    "SPEC_VERSION",
    "TRANSITIONS",
    "DataDirLock",
    "JobRecord",
    "JobState",
    "JobStore",
    "JobUnfinished",
    "Progress",
    "SqliteDialect",
    "StateConflict",
    "StoreError",
    "StoreUnavailable",
    "TooManyJobs",
    "TooManyTrials",
    "decode_page_token",
    "encode_page_token",
    "without_paths",
]

log = logging.getLogger(__name__)
T = TypeVar("T")

# PRAGMA user_version.  Schema 1 had no progress columns, 2 no spec_version, 3 no namespace
# (service/store_sql.py: JOB_COLUMNS says what a store of each gains on opening).
SCHEMA_VERSION = 4
TYPES = {"int": "INTEGER", "real": "REAL", "seq": "INTEGER PRIMARY KEY AUTOINCREMENT"}
SCHEMA = schema("jobs", "shards", TYPES)
EXPIRE_BATCH = 100  # jobs deleted in one transaction by expire(), the whole file locked


LOCK_NAME = "server.lock"


class DataDirLock:
    """An exclusive lock on a data directory, held while the server runs.

    ``flock`` is released by the kernel when the process dies, however it dies, so a
    server killed with SIGKILL never leaves a stale lock behind.

    An SQLite store named by ``--store sqlite:///PATH`` takes the same lock on the folder
    of its file (``server.lock`` beside it; ``setting`` then names the flag in messages):
    a server whose data directory is that folder, or another server on that file, is
    refused, as for one data directory.
    """

    def __init__(self, data_dir: Path, setting: str | None = None) -> None:
        where = f"--data-dir {data_dir}" if setting is None else setting
        _prepare_dir(data_dir, where if setting is None else f"{setting}: its folder {data_dir}")
        path = data_dir / LOCK_NAME
        self.path = path
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            shown = path.name if setting is None else str(path)
            raise StoreError(f"{where}: cannot open {shown}: {err.strerror}") from None
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(self._fd, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(self._fd)
            rule = (
                "one data directory serves one server"
                if setting is None
                else f"one SQLite store serves one server, with the {LOCK_NAME} beside it"
            )
            raise StoreError(
                f"{where}: in use by another cardroom server (pid {holder}); {rule}"
            ) from None
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, f"{os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._fd)


def _connect(path: Path, *, new: bool = False) -> sqlite3.Connection:
    # The server runs store calls on one worker thread, not the thread that opens it.
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.row_factory = sqlite3.Row
    if new:
        # Before anything is written (the write-ahead log's header included): deleted
        # jobs' pages can then be given back to the file system as they are freed.
        db.execute("PRAGMA auto_vacuum = INCREMENTAL")
    db.execute("PRAGMA journal_mode=WAL")
    # FULL: a committed shard survives power loss too, not only a killed process.
    db.execute("PRAGMA synchronous=FULL")
    return db


def _create(path: Path) -> None:
    """Make a new, empty store at ``path`` whole or not at all.

    It is built under another name and renamed into place, so a server that dies while
    creating it leaves no store file behind; an empty or unreadable ``jobs.sqlite3`` is
    then always damage, never a store that was being made.
    """
    partial = path.with_name(f".{path.name}.new")
    for leftover in (partial, *(partial.with_name(partial.name + s) for s in ("-wal", "-shm"))):
        leftover.unlink(missing_ok=True)
    try:
        db = _connect(partial, new=True)
        try:
            db.executescript(SCHEMA)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        finally:
            db.close()  # checkpoints the write-ahead log into the file and removes it
        with open(partial, "rb") as made:
            os.fsync(made.fileno())
        os.replace(partial, path)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)  # the rename itself survives power loss
        finally:
            os.close(folder)
    except (sqlite3.Error, OSError) as err:
        partial.unlink(missing_ok=True)
        raise StoreError(f"{path}: cannot create the job store: {err}") from None


def _damaged(path: Path, finding: str) -> StoreError:
    return StoreError(
        f"{path}: the job store is damaged ({finding}); the server does not start on it "
        "and has changed nothing. Restore the file from a backup, or move it (with any "
        f"{path.name}-wal beside it) aside to start with an empty store"
    )


class SqliteDialect:
    """SQLite's side of the store (service/store_sql.py's Dialect), on the file ``path``.

    Every transaction is ``BEGIN IMMEDIATE``: it takes the file's write lock at once, so
    rows read in it need no lock of their own.  SQLite's refusal of a call (a full disk,
    a read-only file, an I/O error) is ``StoreUnavailable`` naming the file, which only the
    log shows.  A call is never made again: a local file does not come back by waiting.
    """

    jobs = "jobs"
    shards = "shards"
    marker = "?"
    # TOTAL, not SUM: a float that cannot overflow, whatever was stored before a limit was set.
    total_trials = "TOTAL(trials)"
    lock_rows = ""
    types = TYPES
    schema = SCHEMA
    schema_version = SCHEMA_VERSION

    def __init__(self, path: Path) -> None:
        _prepare_dir(path.parent)
        self.path = path
        self.where = str(path)
        if not path.exists():
            _create(path)
        elif path.is_file() and path.stat().st_size == 0:
            # Before connecting: SQLite would take an empty file for a new database.
            raise _damaged(path, "the file is empty")
        try:
            self.db = _connect(path)
        except sqlite3.OperationalError as err:  # cannot open, cannot lock, ...
            raise StoreError(f"{path}: cannot open the job store: {err}") from None
        except sqlite3.DatabaseError as err:  # "file is not a database", ...
            raise _damaged(path, str(err)) from None

    @property
    def expire_batch(self) -> int:
        return EXPIRE_BATCH

    @contextlib.contextmanager
    def opening(self) -> Iterator[None]:
        path = self.path
        try:
            yield
        except sqlite3.OperationalError as err:  # locked, out of memory, ...: not damage
            self.db.close()
            raise StoreError(f"{path}: cannot open the job store: {err}") from None
        except sqlite3.DatabaseError as err:  # "database disk image is malformed", ...
            self.db.close()
            raise _damaged(path, str(err)) from None
        except StoreUnavailable as err:  # the upgrade's writes refused: a read-only volume
            self.db.close()
            raise StoreError(f"{path}: cannot open the job store: {err}") from None
        except BaseException:
            self.db.close()
            raise

    def check_intact(self) -> bool:
        """SQLite's ``quick_check`` reads every page's structure; a file of tables but no
        jobs table is not a store.  (An empty file is refused before: a store this server
        made is never empty, see :func:`_create`.)"""
        found = [str(row[0]) for row in self.db.execute("PRAGMA quick_check(5)")]
        if found != ["ok"]:
            raise self.damaged("SQLite's quick_check: " + "; ".join(found))
        if self.columns("jobs"):
            return True
        if self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise self.damaged("it holds tables but no jobs table")
        return False

    def damaged(self, finding: str) -> StoreError:
        return _damaged(self.path, finding)

    def stored_version(self) -> int | None:
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    def record_version(self, found: int | None) -> None:
        self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def columns(self, table: str) -> set[str]:
        return {
            row["name"]
            for row in self.db.execute("SELECT name FROM pragma_table_info(?)", (table,))
        }

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction; SQLite's refusal to write is ``StoreUnavailable``, after the
        transaction was rolled back."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self.db.execute("COMMIT")
            except BaseException:
                # SQLite may have rolled back already (a full disk, an I/O error): a
                # second ROLLBACK would raise and hide the error that matters.
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise
        except sqlite3.Error as err:
            raise self._refused("a write", err) from None

    def call(self, work: Callable[[bool], T]) -> T:
        try:
            return work(False)
        except sqlite3.Error as err:  # a read's (a write's is refused by transaction())
            raise self._refused("a read", err) from None

    def _refused(self, what: str, err: sqlite3.Error) -> StoreUnavailable:
        refused = f"the job store refused {what}: {err}"
        return StoreUnavailable(f"{self.path}: {refused}", public=refused)

    def reader(self) -> contextlib.closing[sqlite3.Connection]:
        """A read-only connection, which write-ahead logging lets run beside writes;
        read-only, so that a store file gone from under the server is an error here, not
        a new empty file."""
        uri = f"file:{urllib.parse.quote(str(self.path))}?mode=ro"
        return contextlib.closing(sqlite3.connect(uri, uri=True, timeout=2.0))

    def reclaim(self, *, rebuild: bool) -> None:
        """Give the free pages of the file back to the file system.

        A store made with incremental vacuum (every store this version makes) frees them
        at once.  One made before that needs one VACUUM to be rebuilt so, which copies the
        whole file: that only ``rebuild`` does (expire(), in the background), never a
        client's call.  A refusal (a full disk: VACUUM needs room for a copy) is logged;
        the pages stay free inside the file, where new rows reuse them.
        """
        try:
            mode = int(self.db.execute("PRAGMA auto_vacuum").fetchone()[0])
            if mode == 2:  # INCREMENTAL
                # executescript runs the pragma to its end (execute() frees one page).
                self.db.executescript("PRAGMA incremental_vacuum;")
            elif rebuild:
                log.info("%s: rebuilding the store once to give deleted pages back", self.path)
                self.db.execute("PRAGMA auto_vacuum = INCREMENTAL")
                self.db.execute("VACUUM")
            else:
                return
            # The freed pages leave the file itself when the write-ahead log is copied in.
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error as err:
            log.warning("%s: the space of deleted jobs stays in the file: %s", self.path, err)

    def close(self) -> None:
        self.db.close()


class JobStore(SqlJobStore):
    """The job store in the SQLite file ``path`` (made if absent)."""

    def __init__(self, path: Path) -> None:
        super().__init__(SqliteDialect(path))


def _prepare_dir(data_dir: Path, where: str | None = None) -> None:
    where = where or f"--data-dir {data_dir}"
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StoreError(f"{where}: is a file, not a folder") from None
    except NotADirectoryError:
        raise StoreError(f"{where}: a part of the path is a file") from None
    except OSError as err:
        raise StoreError(f"{where}: cannot create it: {err.strerror}") from None
    if not data_dir.is_dir():
        raise StoreError(f"{where}: is not a folder")
