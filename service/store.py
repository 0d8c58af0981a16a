"""The durable job store: SQLite in write-ahead-log mode, in the server's data directory.

Jobs are stored with their canonical specification; every finished shard's tally is
stored as it arrives, so a server killed mid-job resumes from its finished shards and
ends with the result an uninterrupted run gives (tallies are integer counts).
"""

from __future__ import annotations

import base64
import contextlib
import json
import secrets
import sqlite3
import time
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

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
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs (state);
CREATE TABLE IF NOT EXISTS shards (
    job_id TEXT NOT NULL REFERENCES jobs (id),
    shard INTEGER NOT NULL,
    tally TEXT NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (job_id, shard)
);
"""


class JobState(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def finished(self) -> bool:
        return self in {JobState.SUCCEEDED, JobState.FAILED, JobState.CANCELLED}


@dataclass(frozen=True)
class JobRecord:
    id: str
    kind: str
    state: JobState
    spec: dict[str, Any]
    trials: int
    shards_total: int
    result: dict[str, Any] | None
    error: str
    created: float
    updated: float


class JobStore:
    """Jobs and their finished shards.  Use from one thread (the server's event loop)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._path = path
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        # FULL: a committed shard survives power loss too, not only a killed process.
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    def create(self, kind: str, spec: dict[str, Any], trials: int, shards_total: int) -> JobRecord:
        now = time.time()
        job_id = "job-" + secrets.token_hex(6)
        self._db.execute(
            "INSERT INTO jobs (id, kind, state, spec, trials, shards_total, created, updated)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (job_id, kind, JobState.QUEUED, json.dumps(spec), trials, shards_total, now, now),
        )
        record = self.get(job_id)
        assert record is not None
        return record

    def get(self, job_id: str) -> JobRecord | None:
        row = self._db.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return None if row is None else _record(row)

    def set_state(
        self,
        job_id: str,
        state: JobState,
        *,
        result: dict[str, Any] | None = None,
        error: str = "",
    ) -> None:
        self._db.execute(
            "UPDATE jobs SET state = ?, result = ?, error = ?, updated = ? WHERE id = ?",
            (state, None if result is None else json.dumps(result), error, time.time(), job_id),
        )

    def save_shard(self, job_id: str, shard: int, tally: dict[str, Any], seconds: float) -> None:
        # A shard finishes once; a repeat (a retried task) carries the same tally.
        self._db.execute(
            "INSERT OR IGNORE INTO shards (job_id, shard, tally, seconds) VALUES (?, ?, ?, ?)",
            (job_id, shard, json.dumps(tally), seconds),
        )
        self._db.execute("UPDATE jobs SET updated = ? WHERE id = ?", (time.time(), job_id))

    def shards(self, job_id: str) -> dict[int, dict[str, Any]]:
        rows = self._db.execute("SELECT shard, tally FROM shards WHERE job_id = ?", (job_id,))
        return {int(row["shard"]): json.loads(row["tally"]) for row in rows}

    def unfinished(self) -> list[JobRecord]:
        rows = self._db.execute(
            "SELECT * FROM jobs WHERE state IN (?, ?) ORDER BY seq",
            (JobState.QUEUED, JobState.RUNNING),
        )
        return [_record(row) for row in rows]

    def page(
        self,
        *,
        size: int,
        token: str = "",
        state: JobState | None = None,
        kind: str = "",
    ) -> tuple[list[JobRecord], str]:
        """Jobs newest first after the page ``token``; returns them and the next token."""
        clauses = ["seq < ?"]
        params: list[Any] = [decode_page_token(token) if token else 2**62]
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
        return [_record(row) for row in rows], next_token

    def counts(self) -> list[tuple[str, str, int]]:
        """(kind, state, jobs) for every kind and state that has jobs.

        Safe from any thread (the metrics endpoint serves scrapes from its own): it reads
        through a connection of its own, which write-ahead logging lets run beside writes.
        """
        with contextlib.closing(sqlite3.connect(self._path)) as db:
            rows = db.execute("SELECT kind, state, COUNT(*) FROM jobs GROUP BY kind, state")
            return [(kind, state, int(n)) for kind, state, n in rows]


def encode_page_token(seq: int) -> str:
    return base64.urlsafe_b64encode(f"seq:{seq}".encode()).decode()


def decode_page_token(token: str) -> int:
    """The position in a page token; ``ValueError`` for one this server did not issue."""
    try:
        text = base64.urlsafe_b64decode(token.encode()).decode()
        prefix, _, seq = text.partition(":")
        if prefix != "seq":
            raise ValueError
        return int(seq)
    except (ValueError, UnicodeDecodeError):
        raise ValueError(f"page_token {token!r} is not one this server issued") from None


def _record(row: sqlite3.Row) -> JobRecord:
    return JobRecord(
        id=row["id"],
        kind=row["kind"],
        state=JobState(row["state"]),
        spec=json.loads(row["spec"]),
        trials=int(row["trials"]),
        shards_total=int(row["shards_total"]),
        result=None if row["result"] is None else json.loads(row["result"]),
        error=row["error"],
        created=float(row["created"]),
        updated=float(row["updated"]),
    )
