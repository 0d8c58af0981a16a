"""The job store in PostgreSQL, for deployments whose jobs must outlive any one volume.

The same store as service/store.py's SQLite one — the same methods, rows, state changes and
page tokens, each finished shard stored with its job's progress in one transaction — in
tables ``cardroom_jobs`` and ``cardroom_shards`` of the database (and schema, by the URL's
``options=-csearch_path=…``) the URL names.  Specifications, tallies and results are kept
as the JSON text the SQLite store keeps, so both read back byte for byte alike.

One database schema serves one server at a time, as one data directory does: the store
holds a PostgreSQL advisory lock named after the schema for as long as its connection
lives, and PostgreSQL releases it when the connection ends, however the server ended.

The database may restart under a running server (a failover, an upgrade, a crash): a call
that finds its connection broken reconnects, takes the lock again, and runs once more,
waiting up to :data:`RECONNECT_TIMEOUT` seconds for the database; past that it is
``StoreUnavailable``, and the store is *down*: until a connection is made again, each call
tries once to connect (at most every :data:`RECONNECT_PAUSE` seconds, each attempt bounded
by :data:`RECONNECT_CONNECT_TIMEOUT`) and is ``StoreUnavailable`` at once if that fails.
So a client's call that needs a database that went away is answered within about
``RECONNECT_TIMEOUT + RECONNECT_CONNECT_TIMEOUT`` seconds, and at once after the first,
far below the server's time limit of a call; a running job's writes are made again by the
job manager until the database is back.  Running a call again is safe however far the
broken attempt got, because each call is one transaction: a new job keeps the id drawn for
it (so it is never stored twice), a shard already stored is not stored again, and a state
change that did commit is recognised.

A damaged store — tables lacking columns, schema versions missing or repeated, a job in a
state this version does not know — is refused at start with what was found (StoreError),
never repaired or reset.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from service.auth import DEFAULT_NAMESPACE
from service.store import (
    EXPIRE_BATCH,
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
    check_limits,
    decode_page_token,
    encode_page_token,
    progress_row,
    record_from_row,
)
from simulations.spec import echo

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
LOCK_CLASS = int.from_bytes(b"crdm", "big")  # with the schema's hash: one server's lock
CONNECT_TIMEOUT = 10  # seconds
# Seconds a call waits for a database that went away to come back (a restart takes a few)
# before it is StoreUnavailable; the client is then answered UNAVAILABLE, well within the
# server's --call-timeout.
RECONNECT_TIMEOUT = 5.0
RECONNECT_PAUSE = 0.5  # seconds between two attempts
# Seconds one attempt to connect again may take (libpq's least is 2): a database host that
# no longer answers at all holds a call no longer than that.
RECONNECT_CONNECT_TIMEOUT = 2
UNREACHABLE = "the job store (PostgreSQL) is unreachable"
T = TypeVar("T")
SCHEMA = """
CREATE TABLE IF NOT EXISTS cardroom_schema (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS cardroom_jobs (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    spec TEXT NOT NULL,
    trials BIGINT NOT NULL,
    shards_total BIGINT NOT NULL,
    result TEXT,
    error TEXT NOT NULL DEFAULT '',
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    shards_done BIGINT NOT NULL DEFAULT 0,
    trials_done BIGINT NOT NULL DEFAULT 0,
    tally TEXT,
    estimate TEXT,
    spec_version INTEGER NOT NULL DEFAULT 1,
    namespace TEXT NOT NULL DEFAULT 'default'
);
CREATE INDEX IF NOT EXISTS cardroom_jobs_state ON cardroom_jobs (state);
CREATE INDEX IF NOT EXISTS cardroom_jobs_namespace ON cardroom_jobs (namespace, state);
CREATE TABLE IF NOT EXISTS cardroom_shards (
    job_id TEXT NOT NULL REFERENCES cardroom_jobs (id),
    shard BIGINT NOT NULL,
    tally TEXT NOT NULL,
    seconds DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (job_id, shard)
)
"""
# Every table's columns, as SCHEMA makes them: a store lacking one is damaged.
_COLUMNS = {
    "cardroom_schema": {"version"},
    "cardroom_jobs": {
        *("seq", "id", "kind", "state", "spec", "trials", "shards_total", "result", "error"),
        *("created", "updated", "shards_done", "trials_done", "tally", "estimate"),
        *("spec_version", "namespace"),
    },
    "cardroom_shards": {"job_id", "shard", "tally", "seconds"},
}


def redacted(url: str) -> str:
    """A URL as it may be printed: its password, if any, replaced by ***."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


class PostgresJobStore:
    """Jobs and their finished shards in PostgreSQL (see the module's text)."""

    def __init__(self, url: str) -> None:
        try:
            import psycopg
            from psycopg.rows import dict_row
        except ImportError:
            raise StoreError(
                "--store postgresql://…: needs psycopg (pip install 'cardroom[postgres]')"
            ) from None
        self._psycopg = psycopg
        self._dict_row = dict_row
        self._url = url
        self._where = f"--store {redacted(url)}"
        self._counts_lock = threading.Lock()
        # Set while the database is away (after a reconnection ran out of time): the
        # monotonic time it was found away, and when the next attempt to connect may be.
        self._down_since: float | None = None
        self._next_attempt = 0.0
        try:
            self._db = self._connect()
        except psycopg.Error as err:
            raise StoreError(f"{self._where}: cannot connect: {_first_line(err)}") from None
        try:
            self._migrate()
        except psycopg.Error as err:
            self._db.close()
            reason = _first_line(err)
            raise StoreError(f"{self._where}: cannot open the job store: {reason}") from None
        except StoreError:
            self._db.close()
            raise

    def _connect(self, timeout: int = CONNECT_TIMEOUT) -> Any:
        """A connection holding the schema's lock (StoreError if another server has it)."""
        # The server calls the store from one worker thread; counts() has its own.
        db = self._psycopg.connect(
            self._url, autocommit=True, row_factory=self._dict_row, connect_timeout=timeout
        )
        try:
            row = db.execute(
                "SELECT pg_try_advisory_lock(%s, hashtext(current_schema())) AS locked",
                (LOCK_CLASS,),
            ).fetchone()
        except BaseException:
            db.close()
            raise
        if row is None or not row["locked"]:
            db.close()
            raise StoreError(
                f"{self._where}: in use by another cardroom server; one database "
                "schema serves one server"
            )
        return db

    def _call(self, work: Callable[[bool], T]) -> T:
        """Run one call of the store, ``work(again)``; if the connection broke under it,
        reconnect and run it again with ``again`` True (see the module's text)."""
        psycopg = self._psycopg
        if self._down_since is not None:
            self._connect_again()
        try:
            return work(False)
        except psycopg.OperationalError as err:
            if not self._db.broken and not self._db.closed:
                raise self._refused(err) from None
            first = err
        except psycopg.Error as err:
            raise self._refused(err) from None
        self._reconnect(first)
        try:
            return work(True)
        except psycopg.Error as err:
            raise self._refused(err) from None

    def _refused(self, err: BaseException) -> StoreUnavailable:
        """The database's refusal of a call, for the log and (without the URL) the client."""
        reason = _first_line(err)
        return StoreUnavailable(
            f"{self._where}: {reason}", public=f"the job store refused the call: {reason}"
        )

    def _reconnect(self, cause: BaseException) -> None:
        """Connect again after the connection broke, waiting up to RECONNECT_TIMEOUT;
        past that the store is down (see the module's text) and this StoreUnavailable."""
        log.warning("%s: connection lost (%s); reconnecting", self._where, _first_line(cause))
        deadline = time.monotonic() + RECONNECT_TIMEOUT
        with contextlib.suppress(Exception):
            self._db.close()
        while True:
            try:
                self._db = self._connect(RECONNECT_CONNECT_TIMEOUT)
            except self._psycopg.Error as err:
                if time.monotonic() + RECONNECT_PAUSE > deadline:
                    self._down_since = time.monotonic()
                    self._next_attempt = self._down_since + RECONNECT_PAUSE
                    log.error(
                        "%s: the database did not come back in %.0f s (%s); calls that need "
                        "it are UNAVAILABLE, and running jobs wait, until it is back",
                        self._where,
                        RECONNECT_TIMEOUT,
                        _first_line(err),
                    )
                    raise StoreUnavailable(
                        f"{self._where}: the database did not come back in "
                        f"{RECONNECT_TIMEOUT:.0f} s: {_first_line(err)}",
                        public=f"{UNREACHABLE} (it did not answer for {RECONNECT_TIMEOUT:.0f} s)",
                    ) from None
                time.sleep(RECONNECT_PAUSE)
            except StoreError as err:  # another server took the schema meanwhile
                raise StoreUnavailable(
                    str(err), public="the job store is in use by another server"
                ) from None
            else:
                log.warning("%s: reconnected", self._where)
                return

    def _connect_again(self) -> None:
        """One attempt to connect to a database found away (at most one per
        RECONNECT_PAUSE): StoreUnavailable at once unless it is back."""
        assert self._down_since is not None
        now = time.monotonic()
        away = f"{UNREACHABLE} (for {now - self._down_since:.0f} s)"
        if now < self._next_attempt:
            raise StoreUnavailable(f"{self._where}: the database is away", public=away)
        try:
            self._db = self._connect(RECONNECT_CONNECT_TIMEOUT)
        except self._psycopg.Error as err:
            self._next_attempt = time.monotonic() + RECONNECT_PAUSE
            reason = _first_line(err)
            raise StoreUnavailable(f"{self._where}: {reason}", public=away) from None
        except StoreError as err:
            self._next_attempt = time.monotonic() + RECONNECT_PAUSE
            raise StoreUnavailable(
                str(err), public="the job store is in use by another server"
            ) from None
        log.warning(
            "%s: reconnected after %.0f s away", self._where, time.monotonic() - self._down_since
        )
        self._down_since = None

    def _migrate(self) -> None:
        with self._db.transaction():
            self._check_intact()
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            row = self._db.execute("SELECT max(version) AS version FROM cardroom_schema").fetchone()
            version = None if row is None else row["version"]
            if version is not None and version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self._where}: written by a newer cardroom (schema {version}, this one "
                    f"reads up to {SCHEMA_VERSION})"
                )
            if version is None:
                self._db.execute(
                    "INSERT INTO cardroom_schema (version) VALUES (%s)", (SCHEMA_VERSION,)
                )

    def _check_intact(self) -> None:
        """Refuse tables this store did not leave as they are (see the module's text)."""
        rows = self._db.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name LIKE 'cardroom%%'"
        ).fetchall()
        columns: dict[str, set[str]] = {}
        for row in rows:
            columns.setdefault(row["table_name"], set()).add(row["column_name"])
        if not columns:
            return  # a new store
        for table, wanted in _COLUMNS.items():
            missing = sorted(wanted - columns.get(table, set()))
            if missing:
                raise self._damaged(f"table {table} lacks {', '.join(missing)}")
        versions = self._db.execute("SELECT count(*) AS n FROM cardroom_schema").fetchone()
        if versions is None or versions["n"] != 1:
            count = 0 if versions is None else versions["n"]
            raise self._damaged(f"cardroom_schema holds {count} versions, not one")
        row = self._db.execute(
            "SELECT id, state FROM cardroom_jobs WHERE NOT (state = ANY(%s)) LIMIT 1",
            ([state.value for state in JobState],),
        ).fetchone()
        if row is not None:
            raise self._damaged(f"job {echo(row['id'])} has the state {echo(row['state'])}")

    def _damaged(self, finding: str) -> StoreError:
        return StoreError(
            f"{self._where}: the job store is damaged ({finding}); the server does not "
            "start on it and has changed nothing. Restore the database from a backup, or "
            "point --store at another schema"
        )

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._db.transaction():
            yield

    def close(self) -> None:
        self._db.close()  # the advisory lock ends with the connection

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
        now = time.time()
        job_id = "job-" + secrets.token_hex(6)  # drawn once: a second attempt reuses it

        def work(again: bool) -> JobRecord:
            if again and (stored := self._get(job_id, None)) is not None:
                return stored  # the first attempt committed before the connection broke
            with self._transaction():
                if max_unfinished is not None or max_unfinished_trials is not None:
                    # sum() of a bigint is a numeric: it cannot overflow.
                    row = self._db.execute(
                        "SELECT count(*) AS n, coalesce(sum(trials), 0) AS t FROM cardroom_jobs"
                        " WHERE namespace = %s AND state IN (%s, %s)",
                        (namespace, JobState.QUEUED.value, JobState.RUNNING.value),
                    ).fetchone()
                    count, total = (0, 0) if row is None else (int(row["n"]), int(row["t"]))
                    check_limits(
                        namespace, count, total, trials, max_unfinished, max_unfinished_trials
                    )
                self._db.execute(
                    "INSERT INTO cardroom_jobs (id, kind, state, spec, spec_version, trials,"
                    " shards_total, created, updated, namespace)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    (
                        job_id,
                        kind,
                        JobState.QUEUED.value,
                        json.dumps(spec),
                        SPEC_VERSION,
                        trials,
                        shards_total,
                        now,
                        now,
                        namespace,
                    ),
                )
            record = self._get(job_id, None)
            assert record is not None
            return record

        return self._call(work)

    def get(self, job_id: str, namespace: str | None = None) -> JobRecord | None:
        return self._call(lambda again: self._get(job_id, namespace))

    def _get(self, job_id: str, namespace: str | None) -> JobRecord | None:
        if namespace is None:
            cursor = self._db.execute("SELECT * FROM cardroom_jobs WHERE id = %s", (job_id,))
        else:
            cursor = self._db.execute(
                "SELECT * FROM cardroom_jobs WHERE id = %s AND namespace = %s",
                (job_id, namespace),
            )
        row = cursor.fetchone()
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
        allowed = [s.value for s, targets in TRANSITIONS.items() if state in targets]
        scope = "" if namespace is None else " AND namespace = %s"

        def work(again: bool) -> JobRecord:
            with self._transaction():
                changed = self._db.execute(
                    "UPDATE cardroom_jobs SET state = %s, result = %s, error = %s, updated = %s"
                    f" WHERE id = %s AND state = ANY(%s){scope}",
                    (
                        state.value,
                        None if result is None else json.dumps(result),
                        error,
                        time.time(),
                        job_id,
                        allowed,
                        *(() if namespace is None else (namespace,)),
                    ),
                ).rowcount
                record = self._get(job_id, namespace)
            if not changed:
                if again and record is not None and record.state is state:
                    return record  # the first attempt committed before the connection broke
                raise StateConflict(job_id, None if record is None else record.state, state)
            assert record is not None
            return record

        return self._call(work)

    def save_shard(
        self, job_id: str, shard: int, tally: dict[str, Any], seconds: float, progress: Progress
    ) -> bool:
        def work(again: bool) -> bool:
            with self._transaction():
                row = self._db.execute(
                    "SELECT state FROM cardroom_jobs WHERE id = %s FOR UPDATE", (job_id,)
                ).fetchone()
                if row is None or row["state"] != JobState.RUNNING:
                    return False
                inserted = self._db.execute(
                    "INSERT INTO cardroom_shards (job_id, shard, tally, seconds)"
                    " VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                    (job_id, shard, json.dumps(tally), seconds),
                ).rowcount
                if inserted:
                    self._write_progress(job_id, progress)
                return bool(inserted)

        return self._call(work)

    def _write_progress(self, job_id: str, progress: Progress) -> None:
        self._db.execute(
            "UPDATE cardroom_jobs SET shards_done = %s, trials_done = %s, tally = %s,"
            " estimate = %s, updated = %s WHERE id = %s",
            progress_row(job_id, progress),
        )

    def set_progress(self, job_id: str, progress: Progress) -> None:
        def work(again: bool) -> None:
            with self._transaction():
                self._write_progress(job_id, progress)

        self._call(work)

    def shard_indices(self, job_id: str) -> set[int]:
        def work(again: bool) -> set[int]:
            rows = self._db.execute(
                "SELECT shard FROM cardroom_shards WHERE job_id = %s", (job_id,)
            )
            return {int(row["shard"]) for row in rows}

        return self._call(work)

    def shard_tallies(self, job_id: str) -> dict[int, dict[str, Any]]:
        def work(again: bool) -> dict[int, dict[str, Any]]:
            rows = self._db.execute(
                "SELECT shard, tally FROM cardroom_shards WHERE job_id = %s", (job_id,)
            )
            return {int(row["shard"]): json.loads(row["tally"]) for row in rows}

        return self._call(work)

    def without_progress(self) -> list[JobRecord]:
        def work(again: bool) -> list[JobRecord]:
            rows = self._db.execute(
                "SELECT * FROM cardroom_jobs WHERE tally IS NULL AND EXISTS (SELECT 1 FROM"
                " cardroom_shards WHERE cardroom_shards.job_id = cardroom_jobs.id) ORDER BY seq"
            )
            return [record_from_row(row) for row in rows]

        return self._call(work)

    def unfinished(self) -> list[JobRecord]:
        def work(again: bool) -> list[JobRecord]:
            rows = self._db.execute(
                "SELECT * FROM cardroom_jobs WHERE state IN (%s, %s) ORDER BY seq",
                (JobState.QUEUED.value, JobState.RUNNING.value),
            )
            return [record_from_row(row) for row in rows]

        return self._call(work)

    def page(
        self,
        *,
        size: int,
        token: str = "",
        state: JobState | None = None,
        kind: str = "",
        namespace: str | None = None,
    ) -> tuple[list[JobRecord], str]:
        clauses = ["seq < %s"]
        params: list[Any] = [decode_page_token(token) if token else MAX_SEQ]
        if namespace is not None:
            clauses.append("namespace = %s")
            params.append(namespace)
        if state is not None:
            clauses.append("state = %s")
            params.append(state.value)
        if kind:
            clauses.append("kind = %s")
            params.append(kind)
        query = (
            f"SELECT * FROM cardroom_jobs WHERE {' AND '.join(clauses)} ORDER BY seq DESC LIMIT %s"
        )
        rows = self._call(lambda again: self._db.execute(query, (*params, size + 1)).fetchall())
        more = len(rows) > size
        rows = rows[:size]
        next_token = encode_page_token(int(rows[-1]["seq"])) if more and rows else ""
        return [record_from_row(row) for row in rows], next_token

    def counts(self) -> list[tuple[str, str, int]]:
        """(kind, state, jobs) for every kind and state that has jobs; safe from any
        thread (the metrics endpoint's): one short connection of its own per call."""
        with (
            self._counts_lock,
            self._psycopg.connect(
                self._url, autocommit=True, connect_timeout=RECONNECT_CONNECT_TIMEOUT
            ) as db,
        ):
            rows = db.execute(
                "SELECT kind, state, count(*) FROM cardroom_jobs GROUP BY kind, state"
            ).fetchall()
        return [(str(kind), str(state), int(n)) for kind, state, n in rows]

    # -- deleting ----------------------------------------------------------------------

    def delete(self, job_id: str, namespace: str | None = None) -> JobRecord | None:
        """Delete a finished job and its shards (see JobStore.delete); PostgreSQL's
        autovacuum gives their space back."""

        def work(again: bool) -> JobRecord | None:
            scope = "" if namespace is None else " AND namespace = %s"
            with self._transaction():
                row = self._db.execute(
                    f"SELECT * FROM cardroom_jobs WHERE id = %s{scope} FOR UPDATE",
                    (job_id, *(() if namespace is None else (namespace,))),
                ).fetchone()
                if row is None:
                    return None
                record = record_from_row(row)
                if not record.state.finished:
                    raise JobUnfinished(job_id, record.state)
                self._db.execute("DELETE FROM cardroom_shards WHERE job_id = %s", (job_id,))
                self._db.execute("DELETE FROM cardroom_jobs WHERE id = %s", (job_id,))
            return record

        # A second attempt after a broken connection finds nothing when the first one
        # committed: the job is gone either way, which is what was asked.
        return self._call(work)

    def expire(self, before: float) -> int:
        """Delete the finished jobs that ended before ``before`` (see JobStore.expire)."""
        finished = [state.value for state in JobState if state.finished]

        def batch(again: bool) -> int:
            with self._transaction():
                rows = self._db.execute(
                    "SELECT id FROM cardroom_jobs WHERE state = ANY(%s) AND updated < %s"
                    " ORDER BY seq LIMIT %s FOR UPDATE",
                    (finished, before, EXPIRE_BATCH),
                ).fetchall()
                ids = [row["id"] for row in rows]
                if ids:
                    self._db.execute("DELETE FROM cardroom_shards WHERE job_id = ANY(%s)", (ids,))
                    self._db.execute("DELETE FROM cardroom_jobs WHERE id = ANY(%s)", (ids,))
            return len(ids)

        deleted = 0
        while count := self._call(batch):
            deleted += count
        return deleted
