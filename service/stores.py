"""Which job store a server uses: SQLite in its data directory (the default), an SQLite
file elsewhere (``--store sqlite:///PATH``), or the PostgreSQL database a ``--store`` URL
names (service/store_postgres.py), for jobs that must outlive the server's volume.  Each is
service/store_sql.py's store over its database's dialect.

One store serves one server: the data directory's lock guards its own ``jobs.sqlite3``, an
SQLite file elsewhere takes the same lock on its own folder (:func:`store_lock`), and a
PostgreSQL schema is held by an advisory lock in the database.
"""

from __future__ import annotations

from pathlib import Path

from service.store import DataDirLock, JobStore, StoreError
from service.store_sql import SqlJobStore
from simulations.spec import echo

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:///"


# What the job manager and the metrics ask of a job store: one implementation over SQL,
# whichever database holds it.
Store = SqlJobStore


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
