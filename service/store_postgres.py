"""The job store in PostgreSQL, for deployments whose jobs must outlive any one volume.

The same store as service/store.py's SQLite one — the same methods, rows, state changes and
page tokens, each finished shard stored with its job's progress in one transaction — in
tables ``cardroom_jobs`` and ``cardroom_shards`` of the database (and schema, by the URL's
``options=-csearch_path=…``) the URL names.  Specifications, tallies and results are kept
as the JSON text the SQLite store keeps, so both read back byte for byte alike.

One database schema serves one server at a time, as one data directory does: the store
holds a PostgreSQL advisory lock named after the schema for as long as its connection
lives, and PostgreSQL releases it when the connection ends, however the server ended.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from service.auth import DEFAULT_NAMESPACE
from service.store import (
    MAX_SEQ,
    SPEC_VERSION,
    TRANSITIONS,
    JobRecord,
    JobState,
    Progress,
    StateConflict,
    StoreError,
    TooManyJobs,
    decode_page_token,
    encode_page_token,
    record_from_row,
)

SCHEMA_VERSION = 1
LOCK_CLASS = int.from_bytes(b"crdm", "big")  # with the schema's hash: one server's lock
CONNECT_TIMEOUT = 10  # seconds
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
        self._url = url
        self._where = f"--store {redacted(url)}"
        try:
            # The server calls the store from one worker thread; counts() has its own.
            self._db = psycopg.connect(
                url, autocommit=True, row_factory=dict_row, connect_timeout=CONNECT_TIMEOUT
            )
        except psycopg.Error as err:
            raise StoreError(f"{self._where}: cannot connect: {_first_line(err)}") from None
        self._counts_lock = threading.Lock()
        try:
            locked = self._db.execute(
                "SELECT pg_try_advisory_lock(%s, hashtext(current_schema())) AS locked",
                (LOCK_CLASS,),
            )
            row = locked.fetchone()
            if row is None or not row["locked"]:
                raise StoreError(
                    f"{self._where}: in use by another cardroom server; one database "
                    "schema serves one server"
                )
            self._migrate()
        except psycopg.Error as err:
            self._db.close()
            reason = _first_line(err)
            raise StoreError(f"{self._where}: cannot open the job store: {reason}") from None
        except StoreError:
            self._db.close()
            raise

    def _migrate(self) -> None:
        with self._db.transaction():
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
    ) -> JobRecord:
        now = time.time()
        job_id = "job-" + secrets.token_hex(6)
        with self._transaction():
            if max_unfinished is not None:
                row = self._db.execute(
                    "SELECT count(*) AS n FROM cardroom_jobs WHERE namespace = %s"
                    " AND state IN (%s, %s)",
                    (namespace, JobState.QUEUED.value, JobState.RUNNING.value),
                ).fetchone()
                count = 0 if row is None else int(row["n"])
                if count >= max_unfinished:
                    raise TooManyJobs(namespace, count, max_unfinished)
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
        record = self.get(job_id)
        assert record is not None
        return record

    def get(self, job_id: str, namespace: str | None = None) -> JobRecord | None:
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
            record = self.get(job_id, namespace)
        if not changed:
            raise StateConflict(job_id, None if record is None else record.state, state)
        assert record is not None
        return record

    def save_shard(
        self, job_id: str, shard: int, tally: dict[str, Any], seconds: float, progress: Progress
    ) -> bool:
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

    def _write_progress(self, job_id: str, progress: Progress) -> None:
        self._db.execute(
            "UPDATE cardroom_jobs SET shards_done = %s, trials_done = %s, tally = %s,"
            " estimate = %s, updated = %s WHERE id = %s",
            (
                progress.shards_done,
                progress.trials_done,
                json.dumps(progress.tally),
                None if progress.estimate is None else json.dumps(progress.estimate),
                time.time(),
                job_id,
            ),
        )

    def set_progress(self, job_id: str, progress: Progress) -> None:
        with self._transaction():
            self._write_progress(job_id, progress)

    def shard_indices(self, job_id: str) -> set[int]:
        rows = self._db.execute("SELECT shard FROM cardroom_shards WHERE job_id = %s", (job_id,))
        return {int(row["shard"]) for row in rows}

    def shard_tallies(self, job_id: str) -> dict[int, dict[str, Any]]:
        rows = self._db.execute(
            "SELECT shard, tally FROM cardroom_shards WHERE job_id = %s", (job_id,)
        )
        return {int(row["shard"]): json.loads(row["tally"]) for row in rows}

    def without_progress(self) -> list[JobRecord]:
        rows = self._db.execute(
            "SELECT * FROM cardroom_jobs WHERE tally IS NULL AND EXISTS"
            " (SELECT 1 FROM cardroom_shards WHERE cardroom_shards.job_id = cardroom_jobs.id)"
            " ORDER BY seq"
        )
        return [record_from_row(row) for row in rows]

    def unfinished(self) -> list[JobRecord]:
        rows = self._db.execute(
            "SELECT * FROM cardroom_jobs WHERE state IN (%s, %s) ORDER BY seq",
            (JobState.QUEUED.value, JobState.RUNNING.value),
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
        rows = self._db.execute(
            f"SELECT * FROM cardroom_jobs WHERE {' AND '.join(clauses)} ORDER BY seq DESC LIMIT %s",
            (*params, size + 1),
        ).fetchall()
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
                self._url, autocommit=True, connect_timeout=CONNECT_TIMEOUT
            ) as db,
        ):
            rows = db.execute(
                "SELECT kind, state, count(*) FROM cardroom_jobs GROUP BY kind, state"
            ).fetchall()
        return [(str(kind), str(state), int(n)) for kind, state, n in rows]
