"""The durable job store, one implementation over SQL: :class:`SqlJobStore`, with what
differs between the databases it runs on in a :class:`Dialect` — SQLite in the server's
data directory (service/store.py) or PostgreSQL (service/store_postgres.py).

Jobs are stored with their canonical specification; every finished shard's tally is
stored as it arrives, so a server killed mid-job resumes from its finished shards and
ends with the result an uninterrupted run gives (tallies are integer counts).

Each job row also carries its progress — shards and trials done, the merged tally and
the estimate it gives — written in the same transaction as the shard that changed it.
So reading a job costs one row whatever its number of shards; the shard rows are read
only when a job resumes.  Specifications, tallies and results are kept as JSON text, so
both databases read back byte for byte alike (service/store_records.py reads a row).

Each job belongs to a namespace, the client that submitted it (service/auth.py): reads
and changes that name a namespace see only its jobs, and another namespace's job reads as
absent.  :meth:`SqlJobStore.create` can hold a namespace to a number of jobs in flight,
and to a number of trials in them.

A finished job can be deleted with its shards (:meth:`SqlJobStore.delete`), and finished
jobs older than a time all at once (:meth:`SqlJobStore.expire`, the server's
``--retention``); the dialect then gives the space back (:meth:`Dialect.reclaim`).

A job moves only along :data:`TRANSITIONS`; a finished job never changes again.  Every
call is one transaction, run by :meth:`Dialect.call`, which turns the database's refusal
into ``StoreUnavailable`` and may run the call once more on a new connection (``again``
True): so each call is written to be safe to run again however far a broken attempt got.
The store is not safe for concurrent use: the server calls it from one thread at a time,
and one server holds a store (service/stores.py) — except :meth:`SqlJobStore.counts`,
which reads through a connection of its own.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

from service.auth import DEFAULT_NAMESPACE
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
    check_limits,
    decode_page_token,
    encode_page_token,
    record_from_row,
)
from simulations.spec import echo

T = TypeVar("T")

# The jobs table's columns and their declarations, in both databases; {int}, {real} and
# {seq} are each dialect's types.  The columns after ``updated`` came with later schemas
# of the SQLite store: one made before them gains them on opening (a store of schema 1
# has no progress in its rows, and the server fills it in from the stored shards, see
# SqlJobStore.without_progress; before spec_version its specifications are all of version
# 1; before namespace its jobs are the default namespace's, the one a server without
# tokens serves).
JOB_COLUMNS = (
    ("seq", "{seq}"),
    ("id", "TEXT NOT NULL UNIQUE"),
    ("kind", "TEXT NOT NULL"),
    ("state", "TEXT NOT NULL"),
    ("spec", "TEXT NOT NULL"),
    ("trials", "{int} NOT NULL"),
    ("shards_total", "{int} NOT NULL"),
    ("result", "TEXT"),
    ("error", "TEXT NOT NULL DEFAULT ''"),
    ("created", "{real} NOT NULL"),
    ("updated", "{real} NOT NULL"),
    ("shards_done", "{int} NOT NULL DEFAULT 0"),
    ("trials_done", "{int} NOT NULL DEFAULT 0"),
    ("tally", "TEXT"),
    ("estimate", "TEXT"),
    ("spec_version", "INTEGER NOT NULL DEFAULT 1"),
    ("namespace", f"TEXT NOT NULL DEFAULT '{DEFAULT_NAMESPACE}'"),
)
ADDED_COLUMNS = frozenset(name for name, _ in JOB_COLUMNS[11:])
SHARD_COLUMNS = (
    ("job_id", "TEXT NOT NULL REFERENCES {jobs} (id)"),
    ("shard", "{int} NOT NULL"),
    ("tally", "TEXT NOT NULL"),
    ("seconds", "{real} NOT NULL"),
)


def schema(jobs: str, shards: str, types: dict[str, str]) -> str:
    """The tables and indexes of a store, named ``jobs`` and ``shards``, in a dialect's
    ``types`` (its ``int``, ``real`` and ``seq``): statements separated by semicolons."""
    names = {"jobs": jobs, **types}

    def columns(declared: tuple[tuple[str, str], ...]) -> str:
        return ",\n".join(f"    {name} {kind.format(**names)}" for name, kind in declared)

    return (
        f"CREATE TABLE IF NOT EXISTS {jobs} (\n{columns(JOB_COLUMNS)}\n);\n"
        f"CREATE INDEX IF NOT EXISTS {jobs}_state ON {jobs} (state);\n"
        f"CREATE INDEX IF NOT EXISTS {jobs}_namespace ON {jobs} (namespace, state);\n"
        f"CREATE TABLE IF NOT EXISTS {shards} (\n{columns(SHARD_COLUMNS)},\n"
        "    PRIMARY KEY (job_id, shard)\n);\n"
    )


class Dialect(Protocol):
    """What differs between the databases a :class:`SqlJobStore` runs on.

    The store writes its statements with ``?`` for each parameter (``marker`` replaces
    it) and names its tables ``jobs`` and ``shards`` as given here; rows are read by
    column name.  ``ON CONFLICT DO NOTHING`` is common to both (SQLite since 3.24).
    """

    jobs: str  # the tables' names
    shards: str
    marker: str  # a parameter's mark in a statement
    total_trials: str  # the sum of a namespace's trials, as an expression that cannot overflow
    lock_rows: str  # after a SELECT of rows the transaction then changes: their lock
    types: dict[str, str]  # the columns' types: int, real, and seq (the jobs' key)
    schema: str  # the statements that make the tables (and the dialect's own), in ``types``
    schema_version: int  # the newest version of the schema this version reads and writes
    where: str  # the store, as the server's log and its refusals to start name it

    @property
    def db(self) -> Any:
        """The connection the store's calls use (a new one after a reconnection)."""

    @property
    def expire_batch(self) -> int:
        """How many jobs :meth:`SqlJobStore.expire` deletes in one transaction."""

    def opening(self) -> AbstractContextManager[None]:
        """Around the checks and upgrade of a store being opened: the database's errors
        become ``StoreError`` (the server does not start), and the connection is closed."""

    def check_intact(self) -> bool:
        """Refuse a store the database shows damaged (``StoreError``, see :meth:`damaged`);
        whether the store's tables exist already."""

    def damaged(self, finding: str) -> StoreError:
        """The refusal of a damaged store, saying what was found and what to do."""

    def stored_version(self) -> int | None:
        """The schema version the store records (None: none)."""

    def record_version(self, found: int | None) -> None:
        """Record :attr:`schema_version` as the store's (``found``: the one it had)."""

    def columns(self, table: str) -> set[str]:
        """The columns ``table`` has."""

    def transaction(self) -> AbstractContextManager[None]:
        """One transaction, committed at the end, rolled back by an exception."""

    def call(self, work: Callable[[bool], T]) -> T:
        """Run one call of the store, ``work(again)``: the database's refusal is
        ``StoreUnavailable``; a dialect may reconnect and run it again (``again`` True)."""

    def reader(self) -> AbstractContextManager[Any]:
        """A connection of its own, safe from any thread, for one read."""

    def reclaim(self, *, rebuild: bool) -> None:
        """Give the space of deleted rows back (``rebuild``: also when that means
        rewriting the whole store, which only expiry, in the background, asks for)."""

    def close(self) -> None: ...


class SqlJobStore:
    """Jobs and their finished shards (see the module's text), in ``dialect``'s database."""

    def __init__(self, dialect: Dialect) -> None:
        self._dialect = dialect
        self._jobs = dialect.jobs
        self._shards = dialect.shards
        with dialect.opening():
            self._migrate()

    def _migrate(self) -> None:
        """Check the store and bring it to this version's schema in one transaction; a
        store of a newer schema is refused with nothing changed."""
        dialect = self._dialect
        exists = dialect.check_intact()
        version = dialect.stored_version()
        if version is not None and version > dialect.schema_version:
            raise StoreError(
                f"{dialect.where}: written by a newer cardroom (schema {version}, "
                f"this one reads up to {dialect.schema_version})"
            )
        if exists:
            known = [state.value for state in JobState]
            row = self._execute(
                f"SELECT id, state FROM {self._jobs} WHERE state NOT IN ({_marks(known)}) LIMIT 1",
                known,
            ).fetchone()
            if row is not None:
                found = f"job {echo(row['id'])} has the state {echo(row['state'])}"
                raise dialect.damaged(found)
        with self._transaction():
            if exists:
                have = dialect.columns(self._jobs)
                for name, declaration in JOB_COLUMNS:
                    if name in ADDED_COLUMNS and name not in have:
                        declared = declaration.format(**dialect.types)
                        self._execute(f"ALTER TABLE {self._jobs} ADD COLUMN {name} {declared}")
            for statement in dialect.schema.split(";"):
                if statement.strip():
                    self._execute(statement)
            dialect.record_version(version)

    @property
    def _db(self) -> Any:
        """The dialect's connection of the moment."""
        return self._dialect.db

    def _execute(self, statement: str, params: Any = ()) -> Any:
        """Run one statement (written with ``?`` marks) on the store's connection."""
        marked = statement.replace("?", self._dialect.marker)
        return self._dialect.db.execute(marked, params)

    def _transaction(self) -> AbstractContextManager[None]:
        return self._dialect.transaction()

    def close(self) -> None:
        self._dialect.close()

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
        job_id = "job-" + secrets.token_hex(6)  # drawn once: a call made again reuses it

        def work(again: bool) -> JobRecord:
            if again and (stored := self._get(job_id, None)) is not None:
                return stored  # the first attempt committed before the connection broke
            with self._transaction():
                if max_unfinished is not None or max_unfinished_trials is not None:
                    row = self._execute(
                        f"SELECT count(*) AS n, {self._dialect.total_trials} AS t"
                        f" FROM {self._jobs} WHERE namespace = ? AND state IN (?, ?)",
                        (namespace, JobState.QUEUED.value, JobState.RUNNING.value),
                    ).fetchone()
                    check_limits(
                        namespace,
                        int(row["n"]),
                        int(row["t"]),
                        trials,
                        max_unfinished,
                        max_unfinished_trials,
                    )
                self._execute(
                    f"INSERT INTO {self._jobs} (id, kind, state, spec, spec_version, trials,"
                    " shards_total, created, updated, namespace)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        *(job_id, kind, JobState.QUEUED.value, json.dumps(spec), SPEC_VERSION),
                        *(trials, shards_total, now, now, namespace),
                    ),
                )
            record = self._get(job_id, None)
            assert record is not None
            return record

        return self._dialect.call(work)

    def get(self, job_id: str, namespace: str | None = None) -> JobRecord | None:
        """One job, read from its own row alone (never from its shards); with a
        ``namespace``, only a job of that namespace (another's is None, as if absent)."""
        return self._dialect.call(lambda again: self._get(job_id, namespace))

    def _get(self, job_id: str, namespace: str | None, lock: str = "") -> JobRecord | None:
        if never_stored(job_id):
            return None
        scope, scoped = _scoped(namespace)
        query = f"SELECT * FROM {self._jobs} WHERE id = ?{scope}{lock}"
        row = self._execute(query, (job_id, *scoped)).fetchone()
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
        if never_stored(job_id):
            raise StateConflict(job_id, None, state)
        allowed = [s.value for s, targets in TRANSITIONS.items() if state in targets]
        scope, scoped = _scoped(namespace)

        def work(again: bool) -> JobRecord:
            with self._transaction():
                changed = self._execute(
                    f"UPDATE {self._jobs} SET state = ?, result = ?, error = ?, updated = ?"
                    f" WHERE id = ? AND state IN ({_marks(allowed)}){scope}",
                    (
                        *(state.value, None if result is None else json.dumps(result), error),
                        *(time.time(), job_id, *allowed, *scoped),
                    ),
                ).rowcount
                record = self._get(job_id, namespace)
            if not changed:
                if again and record is not None and record.state is state:
                    return record  # the first attempt committed before the connection broke
                raise StateConflict(job_id, None if record is None else record.state, state)
            assert record is not None
            return record

        return self._dialect.call(work)

    def save_shard(
        self, job_id: str, shard: int, tally: dict[str, Any], seconds: float, progress: Progress
    ) -> bool:
        """Store a finished shard of a running job with the job's progress after it.

        Both are written in one transaction, so the job row's progress always equals the
        sum of its stored shards.  A shard of a job that is no longer running (cancelled
        while the shard ran) is not stored; returns whether it was.
        """

        def work(again: bool) -> bool:
            with self._transaction():
                row = self._execute(
                    f"SELECT state FROM {self._jobs} WHERE id = ?{self._dialect.lock_rows}",
                    (job_id,),
                ).fetchone()
                if row is None or row["state"] != JobState.RUNNING:
                    return False
                inserted = self._execute(
                    f"INSERT INTO {self._shards} (job_id, shard, tally, seconds)"
                    " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (job_id, shard, json.dumps(tally), seconds),
                ).rowcount
                if inserted:  # a repeat (a retried task) carries the same tally: no change
                    self._write_progress(job_id, progress)
                return bool(inserted)

        return self._dialect.call(work)

    def _write_progress(self, job_id: str, progress: Progress) -> None:
        estimate = None if progress.estimate is None else json.dumps(progress.estimate)
        self._execute(
            f"UPDATE {self._jobs} SET shards_done = ?, trials_done = ?, tally = ?,"
            " estimate = ?, updated = ? WHERE id = ?",
            (
                *(progress.shards_done, progress.trials_done, json.dumps(progress.tally)),
                *(estimate, time.time(), job_id),
            ),
        )

    def set_progress(self, job_id: str, progress: Progress) -> None:
        """Write a job's progress as rebuilt from its shards (a store from schema 1)."""

        def work(again: bool) -> None:
            with self._transaction():
                self._write_progress(job_id, progress)

        self._dialect.call(work)

    def shard_indices(self, job_id: str) -> set[int]:
        """The shards of a job already stored: read when a job starts, never to answer a read."""

        def work(again: bool) -> set[int]:
            rows = self._execute(f"SELECT shard FROM {self._shards} WHERE job_id = ?", (job_id,))
            return {int(row["shard"]) for row in rows}

        return self._dialect.call(work)

    def shard_tallies(self, job_id: str) -> dict[int, dict[str, Any]]:
        """Every stored shard's tally: read once to upgrade a store from schema 1."""

        def work(again: bool) -> dict[int, dict[str, Any]]:
            rows = self._execute(
                f"SELECT shard, tally FROM {self._shards} WHERE job_id = ?", (job_id,)
            )
            return {int(row["shard"]): json.loads(row["tally"]) for row in rows}

        return self._dialect.call(work)

    def without_progress(self) -> list[JobRecord]:
        """Jobs stored by schema 1 that have shards but no progress in their row."""
        jobs, shards = self._jobs, self._shards
        return self._records(
            f"SELECT * FROM {jobs} WHERE tally IS NULL AND EXISTS"
            f" (SELECT 1 FROM {shards} WHERE {shards}.job_id = {jobs}.id) ORDER BY seq"
        )

    def unfinished(self) -> list[JobRecord]:
        """The jobs queued or running, oldest first."""
        return self._records(
            f"SELECT * FROM {self._jobs} WHERE state IN (?, ?) ORDER BY seq",
            (JobState.QUEUED.value, JobState.RUNNING.value),
        )

    def _records(self, query: str, params: Any = ()) -> list[JobRecord]:
        def work(again: bool) -> list[JobRecord]:
            return [record_from_row(row) for row in self._execute(query, params).fetchall()]

        return self._dialect.call(work)

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
        returns them and the next token (``ValueError`` for a token not issued here)."""
        clauses = ["seq < ?"]
        params: list[Any] = [decode_page_token(token) if token else MAX_SEQ]
        if namespace is not None:
            clauses.append("namespace = ?")
            params.append(namespace)
        if state is not None:
            clauses.append("state = ?")
            params.append(state.value)
        if kind:
            clauses.append("kind = ?")
            params.append(kind)
        query = f"SELECT * FROM {self._jobs} WHERE {' AND '.join(clauses)}"
        # One row past the page says whether there is a next one.
        rows = self._dialect.call(
            lambda again: self._execute(
                f"{query} ORDER BY seq DESC LIMIT ?", (*params, size + 1)
            ).fetchall()
        )
        more = len(rows) > size
        rows = rows[:size]
        next_token = encode_page_token(int(rows[-1]["seq"])) if more and rows else ""
        return [record_from_row(row) for row in rows], next_token

    def counts(self) -> list[tuple[str, str, int]]:
        """(kind, state, jobs) for every kind and state that has jobs.

        Safe from any thread (the metrics endpoint serves scrapes from its own): it reads
        through a connection of its own (:meth:`Dialect.reader`).
        """
        with self._dialect.reader() as db:
            rows = db.execute(
                f"SELECT kind, state, count(*) FROM {self._jobs} GROUP BY kind, state"
            ).fetchall()
        return [(str(kind), str(state), int(n)) for kind, state, n in rows]

    # -- deleting ----------------------------------------------------------------------

    def delete(self, job_id: str, namespace: str | None = None) -> JobRecord | None:
        """Delete a finished job and its shards (of ``namespace`` only, if given); returns
        the job as it was, None when there is no such job, and raises ``JobUnfinished``
        for a job queued or running.  A call made again after a broken connection finds
        nothing when the first attempt committed: the job is gone either way, as asked."""

        def work(again: bool) -> JobRecord | None:
            with self._transaction():
                record = self._get(job_id, namespace, self._dialect.lock_rows)
                if record is None:
                    return None
                if not record.state.finished:
                    raise JobUnfinished(job_id, record.state)
                self._execute(f"DELETE FROM {self._shards} WHERE job_id = ?", (job_id,))
                self._execute(f"DELETE FROM {self._jobs} WHERE id = ?", (job_id,))
            return record

        record = self._dialect.call(work)
        if record is not None:
            self._dialect.reclaim(rebuild=False)
        return record

    def expire(self, before: float) -> int:
        """Delete every finished job that last changed (so ended) before ``before`` (a
        time.time()), with its shards, a batch of jobs per transaction; returns how many
        were deleted, and gives their space back."""
        finished = [state.value for state in JobState if state.finished]

        def batch(again: bool) -> int:
            with self._transaction():
                rows = self._execute(
                    f"SELECT id FROM {self._jobs} WHERE state IN ({_marks(finished)})"
                    f" AND updated < ? ORDER BY seq LIMIT ?{self._dialect.lock_rows}",
                    (*finished, before, self._dialect.expire_batch),
                ).fetchall()
                ids = [row["id"] for row in rows]
                if ids:
                    chosen = _marks(ids)
                    self._execute(f"DELETE FROM {self._shards} WHERE job_id IN ({chosen})", ids)
                    self._execute(f"DELETE FROM {self._jobs} WHERE id IN ({chosen})", ids)
            return len(ids)

        deleted = 0
        while count := self._dialect.call(batch):
            deleted += count
        if deleted:
            self._dialect.reclaim(rebuild=True)
        return deleted


def never_stored(job_id: str) -> bool:
    """Whether no job can have the id ``job_id`` (a client's) in any database: one with a
    NUL character, which PostgreSQL's text cannot hold.  Such a job reads as absent, as in
    SQLite, not as a refusal of the database (which would tell the client to try again)."""
    return "\x00" in job_id


def _marks(values: list[Any]) -> str:
    """One parameter's mark per value, for ``IN (…)``."""
    return ", ".join("?" * len(values))


def _scoped(namespace: str | None) -> tuple[str, tuple[str, ...]]:
    """The condition that keeps a statement to ``namespace`` (none for None), and its
    parameter."""
    return ("", ()) if namespace is None else (" AND namespace = ?", (namespace,))
