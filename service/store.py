"""The durable job store: SQLite in write-ahead-log mode, in the server's data directory.

Jobs are stored with their canonical specification; every finished shard's tally is
stored as it arrives, so a server killed mid-job resumes from its finished shards and
ends with the result an uninterrupted run gives (tallies are integer counts).

Each job row also carries its progress — shards and trials done, the merged tally and
the estimate it gives — written in the same transaction as the shard that changed it.
So reading a job costs one row whatever its number of shards; the shard rows are read
only when a job resumes.

Each job's specification is stored with the version of its format, :data:`SPEC_VERSION`.
A row this version cannot read — a specification of another version, or not JSON — is
still read, with ``spec`` None and ``spec_problem`` saying why: the server fails that job
with the reason, and keeps every stored row as it was.

Each job belongs to a namespace, the client that submitted it (service/auth.py): reads
and changes that name a namespace see only its jobs, and another namespace's job reads as
absent.  :meth:`JobStore.create` can hold a namespace to a number of jobs in flight, and
to a number of trials in them.

A finished job can be deleted with its shards (:meth:`JobStore.delete`), and finished jobs
older than a time all at once (:meth:`JobStore.expire`, the server's ``--retention``).  A
store gives the pages of deleted rows back to the file system (SQLite's incremental
vacuum; a store made before that was possible is rebuilt once by the first expiry).

A job moves only along :data:`TRANSITIONS`; a finished job never changes again.  The
store is not safe for concurrent use: the server calls it from one thread at a time,
and :class:`DataDirLock` keeps a second server off the same data directory.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import logging
import os
import re
import secrets
import sqlite3
import time
import urllib.parse
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from service.auth import DEFAULT_NAMESPACE
from simulations.spec import echo

log = logging.getLogger(__name__)

SCHEMA_VERSION = 4
# The version of the canonical job mapping (service/jobfile.py: a job file's keys, with the
# seed and shard size filled in) that create() stores.  Raise it, and teach the reading
# side to upgrade the older versions, when that format changes incompatibly.
SPEC_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    spec TEXT NOT NULL,
    trials INTEGER NOT NULL,
    shards_total INTEGER NOT NULL,
    result TEXT,
    error TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    updated REAL NOT NULL,
    shards_done INTEGER NOT NULL DEFAULT 0,
    trials_done INTEGER NOT NULL DEFAULT 0,
    tally TEXT,
    estimate TEXT,
    spec_version INTEGER NOT NULL DEFAULT 1,
    namespace TEXT NOT NULL DEFAULT 'default'
);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs (state);
CREATE INDEX IF NOT EXISTS jobs_namespace ON jobs (namespace, state);
CREATE TABLE IF NOT EXISTS shards (
    job_id TEXT NOT NULL REFERENCES jobs (id),
    shard INTEGER NOT NULL,
    tally TEXT NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (job_id, shard)
);
"""
# Columns that earlier schemas lacked; an older store gains them on opening.  Version 1 had
# no progress columns: the server fills them in from the stored shards (see
# JobStore.without_progress).  Version 2 had no spec_version: its specifications are all of
# version 1.  Version 3 had no namespace: its jobs are the default namespace's, the one a
# server without tokens serves (a token minted for namespace 'default' sees them).
_ADDED_COLUMNS = (
    ("shards_done", "INTEGER NOT NULL DEFAULT 0"),
    ("trials_done", "INTEGER NOT NULL DEFAULT 0"),
    ("tally", "TEXT"),
    ("estimate", "TEXT"),
    ("spec_version", "INTEGER NOT NULL DEFAULT 1"),
    ("namespace", f"TEXT NOT NULL DEFAULT '{DEFAULT_NAMESPACE}'"),
)
MAX_SEQ = 2**63 - 1  # SQLite's largest integer
EXPIRE_BATCH = 100  # jobs deleted in one transaction by expire()
# An absolute path in a message (not the slashes of a URL or of a relative path): what a
# client is told never shows where the server keeps its files.
_PATH = re.compile(r"(?<![\w:/.~-])/[^\s\"',:;()\[\]]*")


class JobState(StrEnum):
    """Where a job is in its life: queued until a worker slot takes its first shard."""

    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def finished(self) -> bool:
        return self in {JobState.SUCCEEDED, JobState.FAILED, JobState.CANCELLED}


# The states a job may move to from each state.  RUNNING -> QUEUED: a job interrupted by a
# server stop waits again for a worker slot when the server starts.  Nothing leaves a
# finished state.
TRANSITIONS: Mapping[JobState, frozenset[JobState]] = {
    JobState.QUEUED: frozenset({JobState.RUNNING, JobState.FAILED, JobState.CANCELLED}),
    JobState.RUNNING: frozenset(
        {JobState.QUEUED, JobState.SUCCEEDED, JobState.FAILED, JobState.CANCELLED}
    ),
    JobState.SUCCEEDED: frozenset(),
    JobState.FAILED: frozenset(),
    JobState.CANCELLED: frozenset(),
}


class StateConflict(RuntimeError):
    """A state change that the job's current state does not allow."""

    def __init__(self, job_id: str, current: JobState | None, wanted: JobState) -> None:
        now = "not stored" if current is None else f"already {current.value}"
        super().__init__(f"job {job_id} is {now}; it cannot become {wanted.value}")
        self.current = current


class TooManyJobs(RuntimeError):
    """A namespace already has its limit of jobs queued or running."""

    def __init__(self, namespace: str, count: int, limit: int) -> None:
        super().__init__(
            f"jobs in flight: namespace {namespace} has {count:,} jobs queued or running, "
            f"the most this server allows one client ({limit:,}); wait for one to end "
            "or cancel one"
        )
        self.namespace = namespace
        self.limit = limit


class TooManyTrials(RuntimeError):
    """A job that would take a namespace past its limit of trials in jobs queued or running."""

    def __init__(self, namespace: str, count: int, adding: int, limit: int) -> None:
        super().__init__(
            f"trials in flight: namespace {namespace} has {count:,} trials in jobs queued or "
            f"running, and this job's {adding:,} would pass the most this server allows one "
            f"client ({limit:,}); wait for one to end, cancel one, or submit fewer trials"
        )
        self.namespace = namespace
        self.limit = limit


class JobUnfinished(RuntimeError):
    """A job that cannot be deleted yet: it is queued or running."""

    def __init__(self, job_id: str, state: JobState) -> None:
        super().__init__(
            f"job {job_id} is {state.value}; cancel it first (`cardroom cancel {job_id}`), "
            "then delete it"
        )
        self.state = state


def without_paths(text: str) -> str:
    """``text`` with every absolute file-system path in it replaced by ``…``: what a
    client is told of the server's errors (the server's log keeps the paths)."""
    return _PATH.sub("…", text)


class StoreError(RuntimeError):
    """The data directory cannot be used (not a folder, locked by another server, a
    damaged store file, ...): the server does not start."""


class StoreUnavailable(RuntimeError):
    """A running server's store refused a write (a full disk, a read-only volume, a
    database that went away): the change was not made, nothing of it is stored.

    ``str()`` is for the server's log and names the store (its file, its URL without the
    password); ``public`` is what a client may be told, without paths or addresses.
    """

    def __init__(self, message: str, *, public: str | None = None) -> None:
        super().__init__(message)
        self.public = without_paths(message if public is None else public)


@dataclass(frozen=True)
class JobRecord:
    """A stored job.  ``spec`` is None when this version cannot read it; ``spec_problem``
    then says why (its version, or what is wrong with its text)."""

    id: str
    kind: str
    state: JobState
    spec: dict[str, Any] | None
    trials: int
    shards_total: int
    result: dict[str, Any] | None
    error: str
    created: float
    updated: float
    shards_done: int
    trials_done: int
    tally: dict[str, Any] | None
    estimate: dict[str, Any] | None
    spec_version: int = SPEC_VERSION
    spec_problem: str = ""
    namespace: str = DEFAULT_NAMESPACE


@dataclass(frozen=True)
class Progress:
    """A job's merged progress, as stored with each finished shard."""

    shards_done: int
    trials_done: int
    tally: dict[str, Any]
    estimate: dict[str, Any] | None


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


def _check_intact(path: Path, db: sqlite3.Connection) -> None:
    """Refuse a damaged store at start rather than lose its jobs: SQLite's ``quick_check``
    reads every page's structure, and every job must be in a state this version knows.
    (An empty file is refused before: a store this server made is never empty, see
    :func:`_create`.)"""
    found = [str(row[0]) for row in db.execute("PRAGMA quick_check(5)")]
    if found != ["ok"]:
        raise _damaged(path, "SQLite's quick_check: " + "; ".join(found))
    has_jobs = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'jobs'"
    ).fetchone()
    if not has_jobs:
        if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise _damaged(path, "it holds tables but no jobs table")
        return
    known = [state.value for state in JobState]
    marks = ", ".join("?" * len(known))
    row = db.execute(
        f"SELECT id, state FROM jobs WHERE state NOT IN ({marks}) LIMIT 1", known
    ).fetchone()
    if row is not None:
        raise _damaged(path, f"job {echo(row[0])} has the state {echo(row[1])}")


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


class JobStore:
    """Jobs and their finished shards."""

    def __init__(self, path: Path) -> None:
        _prepare_dir(path.parent)
        self._path = path
        if not path.exists():
            _create(path)
        elif path.is_file() and path.stat().st_size == 0:
            # Before connecting: SQLite would take an empty file for a new database.
            raise _damaged(path, "the file is empty")
        try:
            self._db = _connect(path)
        except sqlite3.OperationalError as err:  # cannot open, cannot lock, ...
            raise StoreError(f"{path}: cannot open the job store: {err}") from None
        except sqlite3.DatabaseError as err:  # "file is not a database", ...
            raise _damaged(path, str(err)) from None
        try:
            _check_intact(path, self._db)
            self._migrate()
        except sqlite3.OperationalError as err:  # locked, out of memory, ...: not damage
            self._db.close()
            raise StoreError(f"{path}: cannot open the job store: {err}") from None
        except sqlite3.DatabaseError as err:  # "database disk image is malformed", ...
            self._db.close()
            raise _damaged(path, str(err)) from None
        except StoreUnavailable as err:  # the upgrade's writes refused: a read-only volume
            self._db.close()
            raise StoreError(f"{path}: cannot open the job store: {err}") from None
        except BaseException:
            self._db.close()
            raise

    def _migrate(self) -> None:
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self._path}: written by a newer cardroom (schema {version}, "
                f"this one reads up to {SCHEMA_VERSION})"
            )
        with self._transaction():
            exists = self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'jobs'"
            ).fetchone()
            if exists:
                have = {row["name"] for row in self._db.execute("PRAGMA table_info(jobs)")}
                for name, declaration in _ADDED_COLUMNS:
                    if name not in have:
                        self._db.execute(f"ALTER TABLE jobs ADD COLUMN {name} {declaration}")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One transaction; SQLite's refusal to write (a full disk, a read-only file, an
        I/O error) is ``StoreUnavailable``, after the transaction was rolled back."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._db.execute("COMMIT")
            except BaseException:
                # SQLite may have rolled back already (a full disk, an I/O error): a
                # second ROLLBACK would raise and hide the error that matters.
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        except sqlite3.Error as err:
            refused = f"the job store refused a write: {err}"
            raise StoreUnavailable(f"{self._path}: {refused}", public=refused) from None

    def close(self) -> None:
        self._db.close()

    # -- jobs ------------------------------------------------------------------------------

    def create(
        self,
        kind: str,
        spec: dict[str, Any],
        trials: int,
        shards_total: int,
        *,
        namespace: str = DEFAULT_NAMESPACE,
        max_unfinished: int | None = None,
        max_unfinished_trials: int | None = None,
    ) -> JobRecord:
        """Store a queued job in ``namespace``; ``TooManyJobs`` if that namespace already
        has ``max_unfinished`` jobs queued or running, ``TooManyTrials`` if this job's
        trials would take the trials of its jobs queued or running past
        ``max_unfinished_trials`` (counted and written in one transaction, so two
        submissions at once cannot both pass a limit)."""
        now = time.time()
        job_id = "job-" + secrets.token_hex(6)
        with self._transaction():
            if max_unfinished is not None or max_unfinished_trials is not None:
                # TOTAL, not SUM: a float that cannot overflow, whatever was stored
                # before the limit was set.
                count, total = self._db.execute(
                    "SELECT COUNT(*), TOTAL(trials) FROM jobs WHERE namespace = ?"
                    " AND state IN (?, ?)",
                    (namespace, JobState.QUEUED, JobState.RUNNING),
                ).fetchone()
                check_limits(
                    namespace, int(count), int(total), trials, max_unfinished, max_unfinished_trials
                )
            self._db.execute(
                "INSERT INTO jobs (id, kind, state, spec, spec_version, trials, shards_total,"
                " created, updated, namespace) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    job_id,
                    kind,
                    JobState.QUEUED,
                    json.dumps(spec),
                    SPEC_VERSION,
                    trials,
                    shards_total,
                    now,
                    now,
                    namespace,
                ),
            )
        record = self.get(job_id)
        assert record is not None
        return record

    def get(self, job_id: str, namespace: str | None = None) -> JobRecord | None:
        """One job, read from its own row alone (never from its shards); with a
        ``namespace``, only a job of that namespace (another's is None, as if absent)."""
        if namespace is None:
            row = self._db.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        else:
            row = self._db.execute(
                "SELECT * FROM jobs WHERE id = ? AND namespace = ?", (job_id, namespace)
            ).fetchone()
        return None if row is None else record_from_row(row)

    def set_state(
        self,
        job_id: str,
        state: JobState,
        *,
        result: dict[str, Any] | None = None,
        error: str = "",
        namespace: str | None = None,
    ) -> JobRecord:
        """Move a job to ``state``; ``StateConflict`` if its current state does not allow it
        (or, with a ``namespace``, the job is not one of that namespace's: as if absent)."""
        allowed = [s.value for s, targets in TRANSITIONS.items() if state in targets]
        marks = ", ".join("?" * len(allowed))
        scope = "" if namespace is None else " AND namespace = ?"
        with self._transaction():
            changed = self._db.execute(
                f"UPDATE jobs SET state = ?, result = ?, error = ?, updated = ?"
                f" WHERE id = ? AND state IN ({marks}){scope}",
                (
                    state,
                    None if result is None else json.dumps(result),
                    error,
                    time.time(),
                    job_id,
                    *allowed,
                    *(() if namespace is None else (namespace,)),
                ),
            ).rowcount
            record = self.get(job_id, namespace)
        if not changed:
            raise StateConflict(job_id, None if record is None else record.state, state)
        assert record is not None
        return record

    def save_shard(
        self, job_id: str, shard: int, tally: dict[str, Any], seconds: float, progress: Progress
    ) -> bool:
        """Store a finished shard of a running job with the job's progress after it.

        Both are written in one transaction, so the job row's progress always equals the
        sum of its stored shards.  A shard of a job that is no longer running (cancelled
        while the shard ran) is not stored; returns whether it was.
        """
        with self._transaction():
            row = self._db.execute("SELECT state FROM jobs WHERE id = ?", (job_id,)).fetchone()
            if row is None or row["state"] != JobState.RUNNING:
                return False
            inserted = self._db.execute(
                "INSERT OR IGNORE INTO shards (job_id, shard, tally, seconds) VALUES (?, ?, ?, ?)",
                (job_id, shard, json.dumps(tally), seconds),
            ).rowcount
            if inserted:  # a repeat (a retried task) carries the same tally: nothing changes
                self._write_progress(job_id, progress)
            return bool(inserted)

    def _write_progress(self, job_id: str, progress: Progress) -> None:
        self._db.execute(
            "UPDATE jobs SET shards_done = ?, trials_done = ?, tally = ?, estimate = ?,"
            " updated = ? WHERE id = ?",
            progress_row(job_id, progress),
        )

    def set_progress(self, job_id: str, progress: Progress) -> None:
        """Write a job's progress as rebuilt from its shards (a store from schema 1)."""
        with self._transaction():
            self._write_progress(job_id, progress)

    def shard_indices(self, job_id: str) -> set[int]:
        """The shards of a job already stored: read when a job starts, never to answer a read."""
        rows = self._db.execute("SELECT shard FROM shards WHERE job_id = ?", (job_id,))
        return {int(row["shard"]) for row in rows}

    def shard_tallies(self, job_id: str) -> dict[int, dict[str, Any]]:
        """Every stored shard's tally: read once to upgrade a store from schema 1."""
        rows = self._db.execute("SELECT shard, tally FROM shards WHERE job_id = ?", (job_id,))
        return {int(row["shard"]): json.loads(row["tally"]) for row in rows}

    def without_progress(self) -> list[JobRecord]:
        """Jobs stored by schema 1 that have shards but no progress in their row."""
        rows = self._db.execute(
            "SELECT * FROM jobs WHERE tally IS NULL"
            " AND EXISTS (SELECT 1 FROM shards WHERE shards.job_id = jobs.id) ORDER BY seq"
        )
        return [record_from_row(row) for row in rows]

    def unfinished(self) -> list[JobRecord]:
        rows = self._db.execute(
            "SELECT * FROM jobs WHERE state IN (?, ?) ORDER BY seq",
            (JobState.QUEUED, JobState.RUNNING),
        )
        return [record_from_row(row) for row in rows]

    def page(
        self,
        *,
        size: int,
        token: str = "",
        state: JobState | None = None,
        kind: str = "",
        namespace: str | None = None,
    ) -> tuple[list[JobRecord], str]:
        """Jobs newest first after the page ``token`` (of ``namespace`` only, if given);
        returns them and the next token."""
        clauses = ["seq < ?"]
        params: list[Any] = [decode_page_token(token) if token else MAX_SEQ]
        if namespace is not None:
            clauses.append("namespace = ?")
            params.append(namespace)
        if state is not None:
            clauses.append("state = ?")
            params.append(state)
        if kind:
            clauses.append("kind = ?")
            params.append(kind)
        rows = self._db.execute(
            f"SELECT * FROM jobs WHERE {' AND '.join(clauses)} ORDER BY seq DESC LIMIT ?",
            (*params, size + 1),
        ).fetchall()
        more = len(rows) > size
        rows = rows[:size]
        next_token = encode_page_token(int(rows[-1]["seq"])) if more and rows else ""
        return [record_from_row(row) for row in rows], next_token

    def counts(self) -> list[tuple[str, str, int]]:
        """(kind, state, jobs) for every kind and state that has jobs.

        Safe from any thread (the metrics endpoint serves scrapes from its own): it reads
        through a connection of its own, which write-ahead logging lets run beside writes.
        Read-only, so that a store file gone from under the server is an error here, not a
        new empty file.
        """
        uri = f"file:{urllib.parse.quote(str(self._path))}?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=2.0)) as db:
            rows = db.execute("SELECT kind, state, COUNT(*) FROM jobs GROUP BY kind, state")
            return [(kind, state, int(n)) for kind, state, n in rows]

    # -- deleting ----------------------------------------------------------------------

    def delete(self, job_id: str, namespace: str | None = None) -> JobRecord | None:
        """Delete a finished job and its shards (of ``namespace`` only, if given); returns
        the job as it was, None when there is no such job, and raises ``JobUnfinished``
        for a job queued or running."""
        with self._transaction():
            record = self.get(job_id, namespace)
            if record is None:
                return None
            if not record.state.finished:
                raise JobUnfinished(job_id, record.state)
            self._db.execute("DELETE FROM shards WHERE job_id = ?", (job_id,))
            self._db.execute("DELETE FROM jobs WHERE id = ?", (job_id,))
        self._reclaim(rebuild=False)
        return record

    def expire(self, before: float) -> int:
        """Delete every finished job that last changed (so ended) before ``before`` (a
        time.time()), with its shards, a batch of jobs per transaction; returns how many
        were deleted, and gives their pages back to the file system."""
        finished = [state.value for state in JobState if state.finished]
        marks = ", ".join("?" * len(finished))
        deleted = 0
        while True:
            with self._transaction():
                ids = [
                    row[0]
                    for row in self._db.execute(
                        f"SELECT id FROM jobs WHERE state IN ({marks}) AND updated < ?"
                        " ORDER BY seq LIMIT ?",
                        (*finished, before, EXPIRE_BATCH),
                    )
                ]
                if not ids:
                    break
                chosen = ", ".join("?" * len(ids))
                self._db.execute(f"DELETE FROM shards WHERE job_id IN ({chosen})", ids)
                self._db.execute(f"DELETE FROM jobs WHERE id IN ({chosen})", ids)
            deleted += len(ids)
        if deleted:
            self._reclaim(rebuild=True)
        return deleted

    def _reclaim(self, *, rebuild: bool) -> None:
        """Give the free pages of the file back to the file system.

        A store made with incremental vacuum (every store this version makes) frees them
        at once.  One made before that needs one VACUUM to be rebuilt so, which copies the
        whole file: that only ``rebuild`` does (expire(), in the background), never a
        client's call.  A refusal (a full disk: VACUUM needs room for a copy) is logged;
        the pages stay free inside the file, where new rows reuse them.
        """
        try:
            mode = int(self._db.execute("PRAGMA auto_vacuum").fetchone()[0])
            if mode == 2:  # INCREMENTAL
                # executescript runs the pragma to its end (execute() frees one page).
                self._db.executescript("PRAGMA incremental_vacuum;")
            elif rebuild:
                log.info("%s: rebuilding the store once to give deleted pages back", self._path)
                self._db.execute("PRAGMA auto_vacuum = INCREMENTAL")
                self._db.execute("VACUUM")
            else:
                return
            # The freed pages leave the file itself when the write-ahead log is copied in.
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error as err:
            log.warning("%s: the space of deleted jobs stays in the file: %s", self._path, err)


def check_limits(
    namespace: str,
    count: int,
    total: int,
    trials: int,
    max_unfinished: int | None,
    max_unfinished_trials: int | None,
) -> None:
    """Refuse a job that would take ``namespace`` (with ``count`` jobs and ``total``
    trials queued or running) past its limits: ``TooManyJobs``, ``TooManyTrials``."""
    if max_unfinished is not None and count >= max_unfinished:
        raise TooManyJobs(namespace, count, max_unfinished)
    if max_unfinished_trials is not None and total + trials > max_unfinished_trials:
        raise TooManyTrials(namespace, total, trials, max_unfinished_trials)


def progress_row(job_id: str, progress: Progress) -> tuple[object, ...]:
    """The values of a progress update, in the order both stores' UPDATE names them:
    shards_done, trials_done, tally, estimate, updated, then the job's id."""
    estimate = None if progress.estimate is None else json.dumps(progress.estimate)
    tally = json.dumps(progress.tally)
    return (progress.shards_done, progress.trials_done, tally, estimate, time.time(), job_id)


def encode_page_token(seq: int) -> str:
    return base64.urlsafe_b64encode(f"seq:{seq}".encode()).decode()


def decode_page_token(token: str) -> int:
    """The position in a page token; ``ValueError`` for one this server did not issue."""
    try:
        text = base64.urlsafe_b64decode(token.encode()).decode()
        prefix, _, seq = text.partition(":")
        if prefix != "seq" or not seq.isdigit() or len(seq) > 19 or not 0 < int(seq) <= MAX_SEQ:
            raise ValueError
        return int(seq)
    except (ValueError, UnicodeError):
        raise ValueError(f"page_token: {echo(token)} is not one this server issued") from None


def _json(text: str | None) -> dict[str, Any] | None:
    """A stored JSON object; None for none, and for text that is not one (a progress tally
    is then rebuilt from the shards, a result or estimate is not shown)."""
    if text is None:
        return None
    try:
        data = json.loads(text)  # the store writes only JSON objects
    except (ValueError, TypeError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _spec(row: Mapping[str, Any]) -> tuple[dict[str, Any] | None, int, str]:
    """A row's specification, its version, and why it cannot be read ('' when it can)."""
    version = row["spec_version"]
    if not isinstance(version, int) or isinstance(version, bool):
        return None, 0, f"the stored specification has no readable version ({echo(version)})"
    if version != SPEC_VERSION:
        return (
            None,
            version,
            (
                f"the stored specification is of version {version}; "
                f"this server reads version {SPEC_VERSION}"
            ),
        )
    try:
        spec = json.loads(row["spec"])
    except (ValueError, TypeError, RecursionError) as err:
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        return None, version, f"the stored specification is not JSON ({reason})"
    if not isinstance(spec, dict):
        return None, version, "the stored specification is not a JSON object"
    return spec, version, ""


def record_from_row(row: Mapping[str, Any]) -> JobRecord:
    """A stored job from its row, as SQLite's or PostgreSQL's driver gives it by name."""
    spec, spec_version, spec_problem = _spec(row)
    return JobRecord(
        id=row["id"],
        kind=row["kind"],
        state=JobState(row["state"]),
        spec=spec,
        spec_version=spec_version,
        spec_problem=spec_problem,
        trials=int(row["trials"]),
        shards_total=int(row["shards_total"]),
        result=_json(row["result"]),
        error=row["error"],
        created=float(row["created"]),
        updated=float(row["updated"]),
        shards_done=int(row["shards_done"]),
        trials_done=int(row["trials_done"]),
        tally=_json(row["tally"]),
        estimate=_json(row["estimate"]),
        namespace=row["namespace"],
    )
