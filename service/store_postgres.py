"""The job store in PostgreSQL, for deployments whose jobs must outlive any one volume.

The store of service/store_sql.py over :class:`PostgresDialect`, the same as SQLite's —
the same methods, rows, state changes and page tokens — in tables ``cardroom_jobs`` and
``cardroom_shards`` of the database (and schema, by the URL's ``options=-csearch_path=…``)
the URL names, and ``cardroom_schema``, which records the schema's version.

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
never repaired or reset.  Deleted rows' space is PostgreSQL's autovacuum's to give back.
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from service.store_records import StoreError, StoreUnavailable
from service.store_sql import JOB_COLUMNS, SHARD_COLUMNS, SqlJobStore, schema

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
TYPES = {
    "int": "BIGINT",
    "real": "DOUBLE PRECISION",
    "seq": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
}
SCHEMA = "CREATE TABLE IF NOT EXISTS cardroom_schema (version INTEGER NOT NULL);\n" + schema(
    "cardroom_jobs", "cardroom_shards", TYPES
)
EXPIRE_BATCH = 100  # jobs deleted in one transaction by expire(), their rows locked
# Every table's columns, as SCHEMA makes them: a store lacking one is damaged.
_COLUMNS = {
    "cardroom_schema": {"version"},
    "cardroom_jobs": {name for name, _ in JOB_COLUMNS},
    "cardroom_shards": {name for name, _ in SHARD_COLUMNS},
}


def redacted(url: str) -> str:
    """A URL as it may be printed: its password, if any, replaced by ***."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


class PostgresDialect:
    """PostgreSQL's side of the store (service/store_sql.py's Dialect), at ``url``: the
    schema's advisory lock held by the connection, and the reconnection of the module's
    text.  Rows a transaction reads and then changes are locked with ``FOR UPDATE``."""

    jobs = "cardroom_jobs"
    shards = "cardroom_shards"
    marker = "%s"
    total_trials = "coalesce(sum(trials), 0)"  # sum() of a bigint is a numeric: no overflow
    lock_rows = " FOR UPDATE"
    types = TYPES
    schema = SCHEMA
    schema_version = SCHEMA_VERSION

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
        self.url = url
        self.where = f"--store {redacted(url)}"
        self._counts_lock = threading.Lock()
        # Set while the database is away (after a reconnection ran out of time): the
        # monotonic time it was found away, and when the next attempt to connect may be.
        self._down_since: float | None = None
        self._next_attempt = 0.0
        try:
            self.db = self._connect()
        except psycopg.Error as err:
            raise StoreError(f"{self.where}: cannot connect: {_first_line(err)}") from None

    @property
    def expire_batch(self) -> int:
        return EXPIRE_BATCH

    def _connect(self, timeout: int = CONNECT_TIMEOUT) -> Any:
        """A connection holding the schema's lock (StoreError if another server has it)."""
        # The server calls the store from one worker thread; counts() has its own.
        db = self._psycopg.connect(
            self.url, autocommit=True, row_factory=self._dict_row, connect_timeout=timeout
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
                f"{self.where}: in use by another cardroom server; one database "
                "schema serves one server"
            )
        return db

    @contextlib.contextmanager
    def opening(self) -> Iterator[None]:
        try:
            yield
        except self._psycopg.Error as err:
            self.db.close()
            reason = _first_line(err)
            raise StoreError(f"{self.where}: cannot open the job store: {reason}") from None
        except BaseException:
            self.db.close()
            raise

    def check_intact(self) -> bool:
        """Refuse tables this store did not leave as they are (see the module's text)."""
        rows = self.db.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name LIKE 'cardroom%%'"
        ).fetchall()
        columns: dict[str, set[str]] = {}
        for row in rows:
            columns.setdefault(row["table_name"], set()).add(row["column_name"])
        if not columns:
            return False  # a new store
        for table, wanted in _COLUMNS.items():
            missing = sorted(wanted - columns.get(table, set()))
            if missing:
                raise self.damaged(f"table {table} lacks {', '.join(missing)}")
        versions = self.db.execute("SELECT count(*) AS n FROM cardroom_schema").fetchone()
        if versions is None or versions["n"] != 1:
            count = 0 if versions is None else versions["n"]
            raise self.damaged(f"cardroom_schema holds {count} versions, not one")
        return True

    def damaged(self, finding: str) -> StoreError:
        return StoreError(
            f"{self.where}: the job store is damaged ({finding}); the server does not "
            "start on it and has changed nothing. Restore the database from a backup, or "
            "point --store at another schema"
        )

    def stored_version(self) -> int | None:
        if not self.columns("cardroom_schema"):
            return None  # a new store
        row = self.db.execute("SELECT max(version) AS version FROM cardroom_schema").fetchone()
        return None if row is None else row["version"]

    def record_version(self, found: int | None) -> None:
        if found is None:
            self.db.execute("INSERT INTO cardroom_schema (version) VALUES (%s)", (SCHEMA_VERSION,))

    def columns(self, table: str) -> set[str]:
        rows = self.db.execute(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = %s",
            (table,),
        )
        return {row["column_name"] for row in rows}

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        with self.db.transaction():
            yield

    def call(self, work: Callable[[bool], T]) -> T:
        """Run one call of the store, ``work(again)``; if the connection broke under it,
        reconnect and run it again with ``again`` True (see the module's text)."""
        psycopg = self._psycopg
        if self._down_since is not None:
            self._connect_again()
        try:
            return work(False)
        except psycopg.OperationalError as err:
            if not self.db.broken and not self.db.closed:
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
            f"{self.where}: {reason}", public=f"the job store refused the call: {reason}"
        )

    def _reconnect(self, cause: BaseException) -> None:
        """Connect again after the connection broke, waiting up to RECONNECT_TIMEOUT;
        past that the store is down (see the module's text) and this StoreUnavailable."""
        log.warning("%s: connection lost (%s); reconnecting", self.where, _first_line(cause))
        deadline = time.monotonic() + RECONNECT_TIMEOUT
        with contextlib.suppress(Exception):
            self.db.close()
        while True:
            try:
                self.db = self._connect(RECONNECT_CONNECT_TIMEOUT)
            except self._psycopg.Error as err:
                if time.monotonic() + RECONNECT_PAUSE > deadline:
                    self._down_since = time.monotonic()
                    self._next_attempt = self._down_since + RECONNECT_PAUSE
                    log.error(
                        "%s: the database did not come back in %.0f s (%s); calls that need "
                        "it are UNAVAILABLE, and running jobs wait, until it is back",
                        self.where,
                        RECONNECT_TIMEOUT,
                        _first_line(err),
                    )
                    raise StoreUnavailable(
                        f"{self.where}: the database did not come back in "
                        f"{RECONNECT_TIMEOUT:.0f} s: {_first_line(err)}",
                        public=f"{UNREACHABLE} (it did not answer for {RECONNECT_TIMEOUT:.0f} s)",
                    ) from None
                time.sleep(RECONNECT_PAUSE)
            except StoreError as err:  # another server took the schema meanwhile
                raise StoreUnavailable(
                    str(err), public="the job store is in use by another server"
                ) from None
            else:
                log.warning("%s: reconnected", self.where)
                return

    def _connect_again(self) -> None:
        """One attempt to connect to a database found away (at most one per
        RECONNECT_PAUSE): StoreUnavailable at once unless it is back."""
        assert self._down_since is not None
        now = time.monotonic()
        away = f"{UNREACHABLE} (for {now - self._down_since:.0f} s)"
        if now < self._next_attempt:
            raise StoreUnavailable(f"{self.where}: the database is away", public=away)
        try:
            self.db = self._connect(RECONNECT_CONNECT_TIMEOUT)
        except self._psycopg.Error as err:
            self._next_attempt = time.monotonic() + RECONNECT_PAUSE
            reason = _first_line(err)
            raise StoreUnavailable(f"{self.where}: {reason}", public=away) from None
        except StoreError as err:
            self._next_attempt = time.monotonic() + RECONNECT_PAUSE
            raise StoreUnavailable(
                str(err), public="the job store is in use by another server"
            ) from None
        log.warning(
            "%s: reconnected after %.0f s away", self.where, time.monotonic() - self._down_since
        )
        self._down_since = None

    @contextlib.contextmanager
    def reader(self) -> Iterator[Any]:
        """One short connection of its own per read (tuples, not the store's dicts)."""
        with (
            self._counts_lock,
            self._psycopg.connect(
                self.url, autocommit=True, connect_timeout=RECONNECT_CONNECT_TIMEOUT
            ) as db,
        ):
            yield db

    def reclaim(self, *, rebuild: bool) -> None:
        """Nothing to do: PostgreSQL's autovacuum gives deleted rows' space back."""

    def close(self) -> None:
        self.db.close()  # the advisory lock ends with the connection


class PostgresJobStore(SqlJobStore):
    """The job store in the PostgreSQL database (and schema) ``url`` names."""

    def __init__(self, url: str) -> None:
        self._postgres = PostgresDialect(url)
        super().__init__(self._postgres)

    @property
    def _url(self) -> str:
        """The URL the store connects (and reconnects) to."""
        return self._postgres.url

    @_url.setter
    def _url(self, url: str) -> None:
        self._postgres.url = url
