"""Which job store a server uses: SQLite in its data directory (the default), or the
PostgreSQL database a ``--store`` URL names (service/store_postgres.py), for jobs that must
outlive the server's volume.  Both have the methods of :class:`Store`."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from service.auth import DEFAULT_NAMESPACE
from service.store import JobRecord, JobState, JobStore, Progress, StoreError
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

    def close(self) -> None: ...


def uses_data_dir(location: str | None) -> bool:
    """Whether the store lives in the data directory (and so its lock guards it)."""
    return location is None or location.startswith(SQLITE_SCHEME)


def open_store(location: str | None, data_dir: Path) -> Store:
    """The store ``location`` names: None for ``jobs.sqlite3`` in ``data_dir``,
    ``sqlite:///PATH`` for an SQLite file elsewhere, ``postgresql://…`` for PostgreSQL."""
    if location is None:
        return JobStore(data_dir / "jobs.sqlite3")
    if location.startswith(SQLITE_SCHEME):
        return JobStore(Path(location.removeprefix("sqlite://")))
    if location.startswith(POSTGRES_SCHEMES):
        from service.store_postgres import PostgresJobStore

        return PostgresJobStore(location)
    raise StoreError(
        f"--store: must be postgresql://USER@HOST/DATABASE or sqlite:///PATH, got "
        f"{echo(location.split('@')[-1])}"
    )
