"""What the job store speaks of, whatever database holds it: a job's states and their
legal changes, the stored job and its progress, the store's errors, page tokens, and a
job's row read back into a :class:`JobRecord` (service/store_sql.py writes the rows).

Each job's specification is stored with the version of its format, :data:`SPEC_VERSION`.
A row this version cannot read — a specification of another version, or not JSON — is
still read, with ``spec`` None and ``spec_problem`` saying why: the server fails that job
with the reason, and keeps every stored row as it was.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from service.auth import DEFAULT_NAMESPACE
from simulations.spec import echo

# The version of the canonical job mapping (service/jobfile.py: a job file's keys, with the
# seed and shard size filled in) that create() stores.  Raise it, and teach the reading
# side to upgrade the older versions, when that format changes incompatibly.
SPEC_VERSION = 1
MAX_SEQ = 2**63 - 1  # the largest integer of SQLite and of PostgreSQL's bigint
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
