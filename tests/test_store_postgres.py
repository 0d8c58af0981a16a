"""The job store in PostgreSQL, beyond what tests/test_store.py runs on both stores: one
server per database schema, a schema from a newer cardroom refused, URLs whose password
never shows in an error, a stopped job resuming from its shards in the database, and a real
`cardroom serve --store postgresql://…` whose jobs outlive its data directory."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import grpc
import psycopg
import pytest

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.convert import result_to_report
from service.manager import JobManager
from service.store import JobState, JobStore, StoreError
from service.store_postgres import PostgresJobStore, redacted
from service.stores import open_store
from tests.harness import Server
from tests.postgres import PostgresServer, postgres  # noqa: F401  (the fixture)
from tests.test_manager import SPEC, GatedPool, finished, local_report, run_manager, settle


def test_one_schema_serves_one_server(postgres: PostgresServer) -> None:  # noqa: F811
    url = postgres.fresh_url()
    first = PostgresJobStore(url)
    try:
        with pytest.raises(StoreError, match="in use by another cardroom server"):
            PostgresJobStore(url)
        other = PostgresJobStore(postgres.fresh_url())  # another schema: its own lock
        other.close()
    finally:
        first.close()
    again = PostgresJobStore(url)  # the lock ends with the connection
    again.close()


def test_a_newer_schema_is_refused_and_nothing_is_changed(
    postgres: PostgresServer,  # noqa: F811
) -> None:
    url = postgres.fresh_url()
    PostgresJobStore(url).close()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("UPDATE cardroom_schema SET version = 99")
    with pytest.raises(StoreError, match=r"written by a newer cardroom \(schema 99"):
        PostgresJobStore(url)
    with psycopg.connect(url, autocommit=True) as db:
        row = db.execute("SELECT version FROM cardroom_schema").fetchone()
    assert row == (99,)


def test_urls_are_chosen_by_scheme_and_passwords_never_shown(
    postgres: PostgresServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    assert redacted("postgresql://u:s3cret@h:5432/db") == "postgresql://u:***@h:5432/db"
    assert redacted("postgresql://u@h/db") == "postgresql://u@h/db"
    with pytest.raises(StoreError) as refused:
        open_store("postgresql://cardroom:s3cret@127.0.0.1:1/none", tmp_path)
    message = str(refused.value)
    assert message.startswith("--store postgresql://cardroom:***@127.0.0.1:1/none: cannot connect")
    assert "s3cret" not in message
    with pytest.raises(StoreError, match="--store: must be postgresql://"):
        open_store("mysql://u:p@h/db", tmp_path)
    elsewhere = open_store(f"sqlite:///{tmp_path}/other.sqlite3", tmp_path / "data")
    assert isinstance(elsewhere, JobStore) and (tmp_path / "other.sqlite3").exists()
    elsewhere.close()
    pg = open_store(postgres.fresh_url(), tmp_path)
    assert isinstance(pg, PostgresJobStore)
    pg.close()


def test_a_stopped_server_leaves_its_running_job_to_the_next_start(
    postgres: PostgresServer,  # noqa: F811
) -> None:
    """The manager over PostgreSQL: two shards in flight when the server stops; the next
    start carries the job on from the database to the result of an uninterrupted run."""
    url = postgres.fresh_url()

    async def first_start(manager: JobManager, pool: GatedPool) -> str:
        job = await manager.submit(SPEC, namespace="alice")
        await settle()
        assert pool.in_flight == 2
        return job.id

    job_id = run_manager(lambda: PostgresJobStore(url), 2, first_start)

    async def second_start(manager: JobManager, pool: GatedPool) -> None:
        assert await manager.resume() == (1, 0)
        pool.gate.set()
        done = await finished(manager, job_id)
        assert done.state is JobState.SUCCEEDED and done.result == local_report(SPEC)
        assert done.namespace == "alice"

    run_manager(lambda: PostgresJobStore(url), 2, second_start)


@pytest.mark.slow
def test_a_served_job_outlives_the_data_directory(
    postgres: PostgresServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    url = postgres.fresh_url()
    data = tmp_path / "data"
    server = Server(data, workers=1, extra=("--store", url))
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = pb_grpc.JobServiceStub(channel)
            spec = pb.JobSpec(trials=20_000, seed=11, shard_size=10_000)
            spec.bad_beat.table.players = 6
            job = stub.SubmitJob(pb.SubmitJobRequest(spec=spec)).job
            deadline = time.monotonic() + 300
            while job.state != pb.JOB_STATE_SUCCEEDED:
                assert job.state in (pb.JOB_STATE_QUEUED, pb.JOB_STATE_RUNNING), job.error
                assert time.monotonic() < deadline, server.log()
                time.sleep(0.2)
                job = stub.GetJob(pb.GetJobRequest(id=job.id)).job
            served = result_to_report(job.result, job.spec.seed)
    finally:
        server.stop()
    assert not (data / "jobs.sqlite3").exists()  # nothing of the job's in the data directory
    shutil.rmtree(data)
    store = PostgresJobStore(url)
    try:
        record = store.get(job.id)
        assert record is not None and record.state is JobState.SUCCEEDED
        assert record.result == served
        spec_mapping = {"kind": "bad_beat", "hands": 20_000, "seed": 11, "shard_size": 10_000}
        assert record.result == local_report({**spec_mapping, "table": {"players": 6}})
        assert store.counts() == [("bad_beat", "succeeded", 1)]
    finally:
        store.close()
