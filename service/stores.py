"""Which job store a server uses: SQLite in its data directory (the default), an SQLite
file elsewhere (``--store sqlite:///PATH``), or the PostgreSQL database a ``--store`` URL
names (service/store_postgres.py), for jobs that must outlive the server's volume.  All
have the methods of :class:`Store`.

One store serves one server: the data directory's lock guards its own ``jobs.sqlite3``, an
SQLite file elsewhere takes the same lock on its own folder (:func:`store_lock`), and a
PostgreSQL schema is held by an advisory lock in the database.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from service.auth import DEFAULT_NAMESPACE
from service.store import DataDirLock, JobRecord, JobState, JobStore, Progress, StoreError
from simulations.spec import echo

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:///"


class Store(Protocol):
    """What the job manager and the metrics ask of a job store."""

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
    ) -> JobRecord: ...

    def get(self, job_id: str, namespace: str | None = None) -> JobRecord | None: ...

    def set_state(
        self,
        job_id: str,
        state: JobState,
        *,
        result: dict[str, Any] | None = None,
        error: str = "",
        namespace: str | None = None,
    ) -> JobRecord: ...

    def save_shard(
        self, job_id: str, shard: int, tally: dict[str, Any], seconds: float, progress: Progress
    ) -> bool: ...

    def set_progress(self, job_id: str, progress: Progress) -> None: ...

    def shard_indices(self, job_id: str) -> set[int]: ...

    def shard_tallies(self, job_id: str) -> dict[int, dict[str, Any]]: ...

    def without_progress(self) -> list[JobRecord]: ...

    def unfinished(self) -> list[JobRecord]: ...

    def page(
        self,
        *,
        size: int,
        token: str = "",
        state: JobState | None = None,
        kind: str = "",
        namespace: str | None = None,
    ) -> tuple[list[JobRecord], str]: ...

    def counts(self) -> list[tuple[str, str, int]]: ...

    def delete(self, job_id: str, namespace: str | None = None) -> JobRecord | None: ...

    def expire(self, before: float) -> int: ...

    def close(self) -> None: ...


def uses_data_dir(location: str | None) -> bool:
    """Whether the store lives in the data directory (and so its lock guards it)."""
    return location is None or location.startswith(SQLITE_SCHEME)


def sqlite_path(location: str) -> Path:
    """The file of an ``sqlite:///PATH`` location (``sqlite:////PATH`` too: one path, so
    that one file has one lock however its URL is written)."""
    path = location.removeprefix("sqlite://")
    return Path("/" + path.lstrip("/") if path.startswith("//") else path)


def store_lock(location: str | None, data_dir: Path) -> DataDirLock | None:
    """The lock an SQLite file outside the data directory takes: ``server.lock`` in its
    folder, as a data directory of that folder takes it (``StoreError`` naming --store
    when another server holds it).  None for a store the data directory's own lock
    guards, and for PostgreSQL, whose lock is in the database."""
    if location is None or not location.startswith(SQLITE_SCHEME):
        return None
    folder = sqlite_path(location).parent
    if folder.resolve() == data_dir.resolve():
        return None  # the data directory's lock, taken already (flock would refuse a second)
    return DataDirLock(folder, f"--store {location}")


def open_store(location: str | None, data_dir: Path) -> Store:
    """The store ``location`` names: None for ``jobs.sqlite3`` in ``data_dir``,
    ``sqlite:///PATH`` for an SQLite file elsewhere, ``postgresql://…`` for PostgreSQL."""
    if location is None:
        return JobStore(data_dir / "jobs.sqlite3")
    if location.startswith(SQLITE_SCHEME):
        return JobStore(sqlite_path(location))
    if location.startswith(POSTGRES_SCHEMES):
        from service.store_postgres import PostgresJobStore

        return PostgresJobStore(location)
    raise StoreError(
        f"--store: must be postgresql://USER@HOST/DATABASE or sqlite:///PATH, got "
        f"{echo(location.split('@')[-1])}"
    )
