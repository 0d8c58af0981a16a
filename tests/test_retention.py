"""Deleting jobs: a finished job and its shards deleted from the store (both stores), never
an unfinished one nor another namespace's; finished jobs past the retention period expired
in batches; SQLite's freed pages given back to the file system, a store made before
incremental vacuum rebuilt once; and over a real server, `DeleteJob` with its errors, `cardroom
delete`, and `--retention` deleting old jobs while it serves."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.auth import mint
from service.store import SCHEMA, SCHEMA_VERSION, JobState, JobStore, JobUnfinished, Progress
from service.store_postgres import PostgresJobStore
from service.stores import Store
from tests.harness import Server, cardroom
from tests.postgres import postgres  # noqa: F401  (the fixture)

SPEC = {"kind": "bad_beat", "hands": 30, "seed": 5, "shard_size": 10, "table": {"players": 6}}
# A tally of a few hundred bytes per shard, so that a job's shard rows fill many pages.
TALLY = {"hands": 10, "jackpot_hands": 0, "padding": "x" * 400}


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        opened: Store = JobStore(tmp_path / "jobs.sqlite3")
    else:
        opened = PostgresJobStore(request.getfixturevalue("postgres").fresh_url())
    try:
        yield opened
    finally:
        opened.close()


def _finished(store: Store, state: JobState, *, shards: int = 3, namespace: str = "alice") -> str:
    """A job of ``shards`` stored shards, ended in ``state``; its id."""
    job = store.create("bad_beat", SPEC, 10 * shards, shards, namespace=namespace)
    store.set_state(job.id, JobState.RUNNING)
    for index in range(shards):
        progress = Progress(index + 1, 10 * (index + 1), {"hands": 10 * (index + 1)}, None)
        assert store.save_shard(job.id, index, TALLY, 0.01, progress)
    result = {"hands": 10 * shards} if state is JobState.SUCCEEDED else None
    store.set_state(job.id, state, result=result)
    return job.id


def test_a_finished_job_is_deleted_with_its_shards_and_nothing_else(store: Store) -> None:
    done = _finished(store, JobState.SUCCEEDED)
    kept = _finished(store, JobState.CANCELLED)
    running = store.create("bad_beat", SPEC, 30, 3, namespace="alice")
    store.set_state(running.id, JobState.RUNNING)
    queued = store.create("bad_beat", SPEC, 30, 3, namespace="alice")
    # Another namespace's job reads as absent, and stays.
    assert store.delete(done, "bob") is None
    assert store.get(done) is not None
    deleted = store.delete(done, "alice")
    assert deleted is not None and deleted.id == done and deleted.state is JobState.SUCCEEDED
    assert store.get(done) is None and store.shard_indices(done) == set()
    assert store.delete(done, "alice") is None  # gone
    for unfinished, state in ((running.id, "running"), (queued.id, "queued")):
        with pytest.raises(JobUnfinished, match=f"is {state}; cancel it first"):
            store.delete(unfinished, "alice")
        assert store.get(unfinished) is not None
    assert store.shard_indices(kept) == {0, 1, 2}
    assert {r.id for r in store.page(size=10)[0]} == {kept, running.id, queued.id}


def test_expiry_deletes_only_finished_jobs_that_ended_before_the_time(store: Store) -> None:
    old = [_finished(store, state) for state in (JobState.SUCCEEDED, JobState.FAILED)]
    old += [_finished(store, JobState.CANCELLED, namespace="bob") for _ in range(3)]
    unfinished = store.create("bad_beat", SPEC, 30, 3)
    time.sleep(0.05)
    cut = time.time()
    time.sleep(0.05)
    recent = _finished(store, JobState.SUCCEEDED)
    assert store.expire(cut) == len(old)
    assert all(store.get(job) is None and not store.shard_indices(job) for job in old)
    assert store.get(recent) is not None and store.shard_indices(recent) == {0, 1, 2}
    assert store.get(unfinished.id) is not None
    assert store.expire(cut) == 0
    assert store.expire(time.time() + 1) == 1  # the recent one; the unfinished one stays
    assert [r.id for r in store.page(size=10)[0]] == [unfinished.id]


def test_expiry_runs_in_batches(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    from service import store as store_module
    from service import store_postgres

    monkeypatch.setattr(store_module, "EXPIRE_BATCH", 2)
    monkeypatch.setattr(store_postgres, "EXPIRE_BATCH", 2)
    jobs = [_finished(store, JobState.SUCCEEDED, shards=1) for _ in range(5)]
    assert store.expire(time.time() + 1) == 5
    assert all(store.get(job) is None for job in jobs)


def _pages(path: Path) -> tuple[int, int, int]:
    """(auto_vacuum, page_count, freelist_count) of a store file, read by a new connection."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        values = [db.execute(f"PRAGMA {name}").fetchone()[0] for name in
                  ("auto_vacuum", "page_count", "freelist_count")]  # fmt: skip
    return values[0], values[1], values[2]


def test_sqlite_gives_the_pages_of_deleted_jobs_back(tmp_path: Path) -> None:
    path = tmp_path / "jobs.sqlite3"
    store = JobStore(path)
    try:
        small = _pages(path)[1]
        big = _finished(store, JobState.SUCCEEDED, shards=2000)
        mode, grown, _ = _pages(path)
        assert mode == 2 and grown > small + 100  # a new store vacuums incrementally
        store.delete(big, "alice")
        mode, after, free = _pages(path)
        assert free == 0 and after < small + 20, (small, grown, after)
        assert path.stat().st_size < 2 * small * 4096 + 65536
    finally:
        store.close()


def test_a_store_made_before_incremental_vacuum_is_rebuilt_once_by_expiry(tmp_path: Path) -> None:
    """A store an earlier version made (auto_vacuum none): a deletion leaves its pages
    free inside the file (a client's call never rewrites the whole file); the first
    expiry rebuilds it, after which deletions give pages back at once."""
    path = tmp_path / "jobs.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(SCHEMA)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    assert _pages(path)[0] == 0
    store = JobStore(path)
    try:
        first = _finished(store, JobState.SUCCEEDED, shards=1000)
        second = _finished(store, JobState.SUCCEEDED, shards=1000)
        store.delete(first, "alice")
        mode, pages, free = _pages(path)
        assert mode == 0 and free > 100
        assert store.expire(time.time() + 1) == 1
        mode, rebuilt, free = _pages(path)
        assert mode == 2 and free == 0 and rebuilt < pages / 4, (pages, rebuilt)
        third = _finished(store, JobState.FAILED, shards=1000)
        store.delete(third, "alice")
        assert _pages(path)[2] == 0
        assert store.get(second) is None
        with contextlib.closing(sqlite3.connect(path)) as db:
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        store.close()


# -- over a real server -----------------------------------------------------------------


def _tokens(tmp_path: Path) -> tuple[Path, str, str]:
    alice, alice_entry = mint("alice")
    bob, bob_entry = mint("bob")
    path = tmp_path / "tokens.txt"
    path.write_text(f"{alice_entry.line()}\n{bob_entry.line()}\n")
    return path, alice, bob


def _spec(trials: int, seed: int) -> pb.JobSpec:
    spec = pb.JobSpec(trials=trials, seed=seed, shard_size=min(trials, 10_000))
    spec.bad_beat.table.players = 6
    return spec


def _wait_finished(stub: pb_grpc.JobServiceStub, job_id: str, metadata: object) -> pb.Job:
    deadline = time.monotonic() + 300
    while True:
        job: pb.Job = stub.GetJob(pb.GetJobRequest(id=job_id), metadata=metadata, timeout=60).job
        if job.state in (pb.JOB_STATE_SUCCEEDED, pb.JOB_STATE_FAILED, pb.JOB_STATE_CANCELLED):
            return job
        assert time.monotonic() < deadline
        time.sleep(0.1)


def _code(call: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as refused:
        call()  # type: ignore[operator]
    return refused.value.code(), refused.value.details() or ""


def test_delete_job_over_the_api_and_the_command_line(tmp_path: Path) -> None:
    tokens, alice, bob = _tokens(tmp_path)
    server = Server(tmp_path / "data", workers=1, extra=("--tokens", str(tokens)))
    try:
        as_alice = (("authorization", f"Bearer {alice}"),)
        as_bob = (("authorization", f"Bearer {bob}"),)
        with grpc.insecure_channel(server.address) as channel:
            stub = pb_grpc.JobServiceStub(channel)
            done = stub.SubmitJob(pb.SubmitJobRequest(spec=_spec(20_000, 1)), metadata=as_alice)
            big = stub.SubmitJob(pb.SubmitJobRequest(spec=_spec(10**10, 2)), metadata=as_alice).job
            _wait_finished(stub, done.job.id, as_alice)

            def delete(job_id: str, metadata: object) -> object:
                request = pb.DeleteJobRequest(id=job_id)
                return lambda: stub.DeleteJob(request, metadata=metadata, timeout=60)

            code, details = _code(delete(done.job.id, as_bob))
            assert code == grpc.StatusCode.NOT_FOUND and details == f"job '{done.job.id}' not found"
            code, details = _code(delete(big.id, as_alice))
            assert code == grpc.StatusCode.FAILED_PRECONDITION
            assert details.endswith(
                f"; cancel it first (`cardroom cancel {big.id}`), then delete it"
            )
            code, details = _code(delete("", as_alice))
            assert code == grpc.StatusCode.INVALID_ARGUMENT and details == "id: is required"
            assert stub.DeleteJob(pb.DeleteJobRequest(id=done.job.id), metadata=as_alice) == (
                pb.DeleteJobResponse()
            )
            code, _ = _code(
                lambda: stub.GetJob(pb.GetJobRequest(id=done.job.id), metadata=as_alice)
            )
            assert code == grpc.StatusCode.NOT_FOUND
            # The command line: cancel, then delete.
            environment = {"CARDROOM_TOKEN": alice}
            deleted = cardroom("delete", big.id, address=server.address, environment=environment)
            assert deleted.returncode == 1
            assert deleted.stderr.strip().startswith(f"cardroom: FAILED_PRECONDITION: job {big.id}")
            assert "cancel it first" in deleted.stderr and len(deleted.stderr.splitlines()) == 1
            cancelled = cardroom("cancel", big.id, address=server.address, environment=environment)
            assert cancelled.returncode == 0, cancelled.stderr
            deleted = cardroom("delete", big.id, address=server.address, environment=environment)
            assert deleted.returncode == 0, deleted.stderr
            assert deleted.stdout == f"deleted {big.id}\n"
            listed = cardroom("list", address=server.address, environment=environment)
            assert listed.stdout.strip() == "no jobs"
    finally:
        server.stop()
    with contextlib.closing(sqlite3.connect(tmp_path / "data" / "jobs.sqlite3")) as db:
        assert db.execute("SELECT count(*) FROM jobs").fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM shards").fetchone() == (0,)


def test_a_server_with_retention_deletes_old_finished_jobs(tmp_path: Path) -> None:
    """--retention 0.0001 (8.64 s): a finished job is deleted with its shards a little
    after that, while a running job stays."""
    server = Server(tmp_path / "data", workers=1, extra=("--retention", "0.0001"))
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = pb_grpc.JobServiceStub(channel)
            done = stub.SubmitJob(pb.SubmitJobRequest(spec=_spec(20_000, 1))).job
            running = stub.SubmitJob(pb.SubmitJobRequest(spec=_spec(10**10, 2))).job
            ended = _wait_finished(stub, done.id, None)
            assert ended.state == pb.JOB_STATE_SUCCEEDED
            deadline = time.monotonic() + 120
            while True:
                try:
                    stub.GetJob(pb.GetJobRequest(id=done.id), timeout=60)
                except grpc.RpcError as err:
                    assert err.code() == grpc.StatusCode.NOT_FOUND
                    break
                assert time.monotonic() < deadline, server.log()
                time.sleep(0.5)
            still = stub.GetJob(pb.GetJobRequest(id=running.id), timeout=60).job
            assert still.state in (pb.JOB_STATE_QUEUED, pb.JOB_STATE_RUNNING)
            stub.CancelJob(pb.CancelJobRequest(id=running.id), timeout=60)
        assert "retention: deleted 1 jobs finished over 0.0001 days ago" in server.log()
    finally:
        server.stop()
    with contextlib.closing(sqlite3.connect(tmp_path / "data" / "jobs.sqlite3")) as db:
        assert db.execute(
            "SELECT count(*) FROM shards WHERE job_id = ?", (done.id,)
        ).fetchone() == (0,)
    refused = cardroom(
        "serve", "--data-dir", str(tmp_path / "other"), "--retention", "0", timeout=60
    )
    assert refused.returncode == 2 and "--retention: must lie in (0, 100000] days" in refused.stderr
