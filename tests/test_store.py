"""The job store: legal state changes only, reads that never touch shard rows, page tokens,
namespaces and their limit of jobs in flight, one server per data directory, and stores
written by earlier schemas.  The tests of the store's behaviour run against SQLite and
against PostgreSQL (a server of the test's own, tests/postgres.py); those of SQLite's
files and migrations against SQLite alone."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.store import (
    MAX_SEQ,
    SCHEMA_VERSION,
    SPEC_VERSION,
    TRANSITIONS,
    DataDirLock,
    JobState,
    JobStore,
    Progress,
    StateConflict,
    StoreError,
    TooManyJobs,
    decode_page_token,
    encode_page_token,
)
from service.store_postgres import PostgresJobStore
from service.stores import Store
from tests.postgres import postgres  # noqa: F401  (the fixture)

SPEC = {"kind": "bad_beat", "hands": 30, "seed": 5, "shard_size": 10, "table": {"players": 6}}


def _progress(shards: int, hands: int) -> Progress:
    return Progress(shards, hands, {"hands": hands, "jackpot_hands": 0}, None)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An empty store of each kind."""
    if request.param == "sqlite":
        opened: Store = JobStore(tmp_path / "jobs.sqlite3")
    else:
        opened = PostgresJobStore(request.getfixturevalue("postgres").fresh_url())
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture()
def sqlite_store(tmp_path: Path) -> JobStore:
    return JobStore(tmp_path / "jobs.sqlite3")


def test_a_finished_job_never_changes_state(store: Store) -> None:
    """A job cancelled through one server later showed "succeeded": set_state did not look
    at the current state.  Every finished state now refuses every change."""
    job = store.create("bad_beat", SPEC, 30, 3)
    store.set_state(job.id, JobState.RUNNING)
    store.set_state(job.id, JobState.CANCELLED)
    for state in JobState:
        with pytest.raises(StateConflict, match="already cancelled"):
            store.set_state(job.id, state, result={"hands": 30})
    after = store.get(job.id)
    assert after is not None and after.state is JobState.CANCELLED and after.result is None


# Every state change a job may make, written out here rather than read from TRANSITIONS.
ALLOWED = {
    ("queued", "running"),
    ("queued", "failed"),
    ("queued", "cancelled"),
    ("running", "queued"),
    ("running", "succeeded"),
    ("running", "failed"),
    ("running", "cancelled"),
}


def test_only_the_legal_transitions_are_allowed(store: Store) -> None:
    assert {(a.value, b.value) for a, targets in TRANSITIONS.items() for b in targets} == ALLOWED
    for start in (JobState.QUEUED, JobState.RUNNING):
        for target in JobState:
            job = store.create("bad_beat", SPEC, 30, 3)
            if start is JobState.RUNNING:
                store.set_state(job.id, JobState.RUNNING)
            if (start.value, target.value) in ALLOWED:
                assert store.set_state(job.id, target).state is target
            else:
                with pytest.raises(StateConflict):
                    store.set_state(job.id, target)
                record = store.get(job.id)
                assert record is not None and record.state is start
    with pytest.raises(StateConflict, match="not stored"):
        store.set_state("job-000000000000", JobState.CANCELLED)


def test_a_shard_of_a_job_no_longer_running_is_not_stored(store: Store) -> None:
    job = store.create("bad_beat", SPEC, 30, 3)
    store.set_state(job.id, JobState.RUNNING)
    assert store.save_shard(job.id, 0, {"hands": 10, "jackpot_hands": 0}, 0.1, _progress(1, 10))
    # A retried task repeats its shard: stored once, progress unchanged.
    assert not store.save_shard(job.id, 0, {"hands": 10, "jackpot_hands": 0}, 0.1, _progress(2, 20))
    store.set_state(job.id, JobState.CANCELLED)
    assert not store.save_shard(job.id, 1, {"hands": 10, "jackpot_hands": 0}, 0.1, _progress(2, 20))
    record = store.get(job.id)
    assert record is not None
    assert (record.shards_done, record.trials_done) == (1, 10)
    assert store.shard_indices(job.id) == {0}


def test_reading_a_job_does_not_touch_its_shard_rows(sqlite_store: JobStore) -> None:
    """GetJob and ListJobs re-read and decoded every shard row of a finished job: reads of a
    job must cost one row whatever its number of shards.  SQLite's authorizer reports every
    table a statement reads, so this is what the database itself was asked for."""
    store = sqlite_store
    job = store.create("bad_beat", SPEC, 2_000, 200)
    store.set_state(job.id, JobState.RUNNING)
    for shard in range(200):
        tally = {"hands": 10, "jackpot_hands": shard % 2}
        store.save_shard(job.id, shard, tally, 0.01, _progress(shard + 1, 10 * (shard + 1)))
    store.set_state(job.id, JobState.SUCCEEDED, result={"kind": "bad_beat", "hands": 2_000})
    tables: list[str] = []

    def authorize(action: int, arg1: str | None, *_: object) -> int:
        if action == sqlite3.SQLITE_READ and arg1 is not None:
            tables.append(arg1)
        return sqlite3.SQLITE_OK

    store._db.set_authorizer(authorize)
    record = store.get(job.id)
    jobs, _ = store.page(size=10)
    store._db.set_authorizer(None)
    assert record is not None and record.shards_done == 200 and record.trials_done == 2_000
    assert [j.id for j in jobs] == [job.id]
    assert "jobs" in tables and "shards" not in tables
    # The same authorizer does see the shard rows when they are read (the check can fail).
    store._db.set_authorizer(authorize)
    store.shard_indices(job.id)
    store._db.set_authorizer(None)
    assert "shards" in tables


@pytest.mark.parametrize(
    "token",
    [
        encode_page_token(MAX_SEQ + 1),  # a forged seq beyond SQLite's integer
        encode_page_token(10**40),
        encode_page_token(-5),
        "c2VxOjEuNQ==",  # seq:1.5
        "garbage",
        "x" * 100_000,
    ],
)
def test_forged_page_tokens_are_refused_briefly(store: Store, token: str) -> None:
    with pytest.raises(ValueError, match=r"page_token: .* is not one this server issued") as err:
        store.page(size=5, token=token)
    assert len(str(err.value)) < 120
    assert decode_page_token(encode_page_token(MAX_SEQ)) == MAX_SEQ


def test_one_data_directory_one_server(tmp_path: Path) -> None:
    """A second server on the same data directory resumed and re-ran a job the first was
    running.  The lock is an flock: another process is refused, naming the holder."""
    held = DataDirLock(tmp_path / "data")
    probe = (
        "import sys; from pathlib import Path; from service.store import DataDirLock, StoreError\n"
        "try:\n    DataDirLock(Path(sys.argv[1]))\nexcept StoreError as e:\n"
        "    print(e); sys.exit(3)\n"
    )

    def another_process() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", probe, str(tmp_path / "data")],
            capture_output=True,
            text=True,
            check=False,
            cwd=Path(__file__).resolve().parent.parent,
        )

    other = another_process()
    assert other.returncode == 3, other.stderr
    assert "in use by another cardroom server" in other.stdout
    held.release()
    again = another_process()
    assert again.returncode == 0, again.stdout + again.stderr


def test_a_data_dir_that_is_a_file_is_named(tmp_path: Path) -> None:
    file = tmp_path / "data"
    file.write_text("not a folder")
    with pytest.raises(StoreError, match="is a file, not a folder"):
        DataDirLock(file)
    with pytest.raises(StoreError, match="is a file, not a folder"):
        JobStore(file / "jobs.sqlite3")
    with pytest.raises(StoreError, match="a part of the path is a file"):
        DataDirLock(file / "data")


SCHEMA_1 = """
CREATE TABLE jobs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
    state TEXT NOT NULL, spec TEXT NOT NULL, trials INTEGER NOT NULL,
    shards_total INTEGER NOT NULL, result TEXT, error TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL, updated REAL NOT NULL
);
CREATE INDEX jobs_state ON jobs (state);
CREATE TABLE shards (
    job_id TEXT NOT NULL REFERENCES jobs (id), shard INTEGER NOT NULL, tally TEXT NOT NULL,
    seconds REAL NOT NULL, PRIMARY KEY (job_id, shard)
);
"""


def write_schema_1_store(path: Path) -> None:
    """A store as the first release of the service wrote it: a running job, two shards done."""
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA_1)
        db.execute(
            "INSERT INTO jobs (id, kind, state, spec, trials, shards_total, created, updated)"
            " VALUES ('job-00000000000a', 'bad_beat', 'running', ?, 30, 3, 1.0, 1.0)",
            (json.dumps(SPEC),),
        )
        for shard, hits in ((0, 1), (2, 0)):
            db.execute(
                "INSERT INTO shards VALUES ('job-00000000000a', ?, ?, 0.5)",
                (shard, json.dumps({"hands": 10, "jackpot_hands": hits})),
            )


def test_a_schema_1_store_opens_with_its_jobs_and_shards(tmp_path: Path) -> None:
    path = tmp_path / "jobs.sqlite3"
    write_schema_1_store(path)
    store = JobStore(path)
    record = store.get("job-00000000000a")
    assert record is not None and record.state is JobState.RUNNING and record.tally is None
    assert [r.id for r in store.without_progress()] == ["job-00000000000a"]
    assert store.shard_tallies("job-00000000000a")[0] == {"hands": 10, "jackpot_hands": 1}
    store.set_progress("job-00000000000a", _progress(2, 20))
    assert store.without_progress() == []
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
        assert db.execute("SELECT spec_version FROM jobs").fetchall() == [(1,)]


def write_schema_2_store(path: Path) -> None:
    """A store as schema 2 wrote it (progress columns, no spec_version): one queued job."""
    write_schema_1_store(path)
    with sqlite3.connect(path) as db:
        for column in (
            "shards_done INTEGER NOT NULL DEFAULT 0",
            "trials_done INTEGER NOT NULL DEFAULT 0",
            "tally TEXT",
            "estimate TEXT",
        ):
            db.execute(f"ALTER TABLE jobs ADD COLUMN {column}")
        db.execute("PRAGMA user_version = 2")


def test_a_schema_2_store_gains_spec_versions_and_keeps_its_jobs(tmp_path: Path) -> None:
    """Specifications stored before they carried a version are of version 1."""
    path = tmp_path / "jobs.sqlite3"
    write_schema_2_store(path)
    store = JobStore(path)
    record = store.get("job-00000000000a")
    assert record is not None and record.spec == SPEC and record.spec_version == 1
    assert record.spec_problem == "" and SPEC_VERSION == 1
    fresh = store.create("bad_beat", SPEC, 30, 3)
    assert fresh.spec_version == SPEC_VERSION and fresh.spec == SPEC
    store.close()


def _insert(path: Path, job_id: str, spec_text: str, version: object) -> None:
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO jobs (id, kind, state, spec, spec_version, trials, shards_total,"
            " created, updated) VALUES (?, 'bad_beat', 'queued', ?, ?, 30, 3, 1.0, 1.0)",
            (job_id, spec_text, version),
        )


@pytest.mark.parametrize(
    ("spec_text", "version", "problem"),
    [
        (json.dumps(SPEC), 2, "is of version 2; this server reads version 1"),
        (json.dumps(SPEC), "one", "has no readable version ('one')"),
        ('{"kind": "bad_beat", "hands": 3', 1, "is not JSON (Expecting"),
        ("[1, 2]", 1, "is not a JSON object"),
        ("[" * 100_000, 1, "is not JSON"),
    ],
)
def test_a_specification_this_version_cannot_read_is_read_as_a_problem(
    tmp_path: Path, spec_text: str, version: object, problem: str
) -> None:
    """Such a row used to stop every read that met it (a server could not even start):
    it reads with no spec and the reason, and every other row reads as before."""
    path = tmp_path / "jobs.sqlite3"
    store = JobStore(path)
    good = store.create("bad_beat", SPEC, 30, 3)
    _insert(path, "job-0000000000bd", spec_text, version)
    record = store.get("job-0000000000bd")
    assert record is not None and record.spec is None
    assert problem in record.spec_problem and len(record.spec_problem) < 200
    assert [r.id for r in store.unfinished()] == [good.id, "job-0000000000bd"]
    assert [r.id for r in store.page(size=10)[0]] == ["job-0000000000bd", good.id]
    store.set_state(record.id, JobState.FAILED, error=record.spec_problem)
    store.close()
    with sqlite3.connect(path) as db:  # nothing stored is lost: the text stays as it was
        stored = db.execute("SELECT spec FROM jobs WHERE id = 'job-0000000000bd'").fetchone()
    assert stored == (spec_text,)


def test_unreadable_progress_and_results_read_as_absent(sqlite_store: JobStore) -> None:
    store = sqlite_store
    job = store.create("bad_beat", SPEC, 30, 3)
    store._db.execute(
        "UPDATE jobs SET tally = '{oops', estimate = '[]', result = 'null' WHERE id = ?",
        (job.id,),
    )
    record = store.get(job.id)
    assert record is not None and (record.tally, record.estimate, record.result) == (None,) * 3


def write_schema_3_store(path: Path) -> None:
    """A store as schema 3 wrote it (spec versions, no namespaces): one running job."""
    write_schema_2_store(path)
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE jobs ADD COLUMN spec_version INTEGER NOT NULL DEFAULT 1")
        db.execute("PRAGMA user_version = 3")


def test_a_schema_3_store_puts_its_jobs_in_the_default_namespace(tmp_path: Path) -> None:
    """The jobs of a server from before tokens are the open namespace's, 'default': a server
    without tokens keeps serving them, and a token minted for 'default' sees them."""
    path = tmp_path / "jobs.sqlite3"
    write_schema_3_store(path)
    store = JobStore(path)
    record = store.get("job-00000000000a", "default")
    assert record is not None and record.namespace == "default" and record.spec == SPEC
    assert store.get("job-00000000000a", "alice") is None
    assert store.create("bad_beat", SPEC, 30, 3).namespace == "default"
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        indexes = {row[1] for row in db.execute("PRAGMA index_list(jobs)")}
    assert "jobs_namespace" in indexes


def test_a_namespace_sees_and_changes_only_its_own_jobs(store: Store) -> None:
    mine = store.create("bad_beat", SPEC, 30, 3, namespace="alice")
    theirs = store.create("bad_beat", SPEC, 30, 3, namespace="bob")
    assert store.get(mine.id, "alice") == mine and store.get(mine.id, "bob") is None
    assert store.get(mine.id) == mine  # the server's own reads see every namespace
    assert [r.id for r in store.page(size=10, namespace="alice")[0]] == [mine.id]
    assert [r.id for r in store.page(size=10)[0]] == [theirs.id, mine.id]
    with pytest.raises(StateConflict) as conflict:
        store.set_state(mine.id, JobState.CANCELLED, namespace="bob")
    assert conflict.value.current is None  # as for an id never issued
    record = store.get(mine.id)
    assert record is not None and record.state is JobState.QUEUED
    assert store.set_state(mine.id, JobState.CANCELLED, namespace="alice").state is (
        JobState.CANCELLED
    )


def test_a_namespace_holds_at_most_its_limit_of_jobs_in_flight(store: Store) -> None:
    first = store.create("bad_beat", SPEC, 30, 3, namespace="alice", max_unfinished=2)
    second = store.create("bad_beat", SPEC, 30, 3, namespace="alice", max_unfinished=2)
    store.set_state(second.id, JobState.RUNNING)
    with pytest.raises(TooManyJobs) as refused:
        store.create("bad_beat", SPEC, 30, 3, namespace="alice", max_unfinished=2)
    assert str(refused.value).startswith("jobs in flight: namespace alice has 2 jobs queued")
    assert len(store.page(size=10, namespace="alice")[0]) == 2  # nothing was stored
    store.create("bad_beat", SPEC, 30, 3, namespace="bob", max_unfinished=2)  # its own count
    store.set_state(first.id, JobState.CANCELLED)  # a finished job holds no place
    store.create("bad_beat", SPEC, 30, 3, namespace="alice", max_unfinished=2)
