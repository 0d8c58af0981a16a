"""Faults a running service meets, each made real: a data directory whose disk is full
when a job is submitted, one on a read-only volume, a damaged job-store file (SQLite and
PostgreSQL), a client killed while it watches a job, and the PostgreSQL server crashing
and restarting under a running job.  (A server killed mid-job: test_service_durability.py;
a Ray worker process dying: test_ray_retry.py; a Ray node dying: test_ray_cluster.py.)

The full disk is a small tmpfs mounted for the test, filled to its last byte, so SQLite
meets the kernel's own ENOSPC; the read-only volume is a tmpfs mounted read-only.  Mounting
needs root (CAP_SYS_ADMIN): elsewhere those two tests are skipped, saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import psycopg
import pytest

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.client import job_spec_from_file
from service.server import ServerConfig, StartupError, serve
from service.store import JobState, JobStore, Progress, StoreError
from service.store_postgres import PostgresJobStore
from tests.harness import REPO, Server, cardroom, env, running_server
from tests.postgres import PostgresServer, postgres  # noqa: F401  (the fixture)

# 48 shards: long enough that a fault can be made while it runs, on an idle machine too.
JOB = """
kind = "bad_beat"
hands = 4_800_000
seed = 77
shard_size = 100_000
[table]
players = 9
"""
SHARDS = 48
FINISH_TIMEOUT = 300.0
FINISHED = (pb.JOB_STATE_SUCCEEDED, pb.JOB_STATE_FAILED, pb.JOB_STATE_CANCELLED)


@contextlib.contextmanager
def tmpfs(where: Path, size: str, *options: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``where`` for the test; unmounted after it."""
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", ",".join((f"size={size}", *options)), "tmpfs", str(where)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], timeout=30, check=False)


def fill(folder: Path) -> Path:
    """Write a file into ``folder`` until its file system has no byte left."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as out:
        for chunk in (2**16, 2**12, 2**9, 1):
            try:
                while True:
                    out.write(b"\0" * chunk)
            except OSError as err:
                assert err.errno == errno.ENOSPC, err
    assert os.statvfs(folder).f_bavail == 0
    return filler


def wait_finished(stub: pb_grpc.JobServiceStub, job_id: str) -> pb.Job:
    """Poll a job to its end; a call the server answers UNAVAILABLE (its store away for
    a moment) is made again."""
    deadline = time.monotonic() + FINISH_TIMEOUT
    while True:
        assert time.monotonic() < deadline, f"job {job_id} did not finish"
        try:
            job: pb.Job = stub.GetJob(pb.GetJobRequest(id=job_id), timeout=90).job
        except grpc.RpcError as err:
            if err.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                raise
            time.sleep(0.2)
            continue
        if job.state in FINISHED:
            return job
        time.sleep(0.1)


def local_result(job_file: Path) -> str:
    done = cardroom("run", str(job_file), "--json", "--in-process", timeout=FINISH_TIMEOUT)
    assert done.returncode == 0, done.stderr
    return done.stdout


# -- a full disk, a read-only volume ------------------------------------------------------


def test_a_full_disk_refuses_a_submit_and_pauses_a_running_job(tmp_path: Path) -> None:
    """A submission meeting a full disk is refused with nothing stored; a running job
    whose shard the disk cannot take pauses (its stored progress stands still, reads are
    answered) and, once there is space, ends with the result of a local run."""
    job_file = tmp_path / "job.toml"
    job_file.write_text(JOB)
    submit = pb.SubmitJobRequest(spec=job_spec_from_file(str(job_file)))
    with tmpfs(tmp_path / "disk", "4m") as disk:
        with (
            running_server(disk, workers=1) as server,
            grpc.insecure_channel(server.address) as channel,
        ):
            stub = pb_grpc.JobServiceStub(channel)
            filler = fill(disk)
            with pytest.raises(grpc.RpcError) as refused:
                stub.SubmitJob(submit)
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
            details = refused.value.details() or ""
            assert details.startswith("the job was not stored: "), details
            assert "database or disk is full" in details and "nothing was changed" in details
            # The command line says the same in one line, without a traceback.
            cli = server.cli("submit", str(job_file))
            assert cli.returncode == 1
            assert "UNAVAILABLE: the job was not stored" in cli.stderr
            assert "Traceback" not in cli.stderr + server.log()
            assert list(stub.ListJobs(pb.ListJobsRequest()).jobs) == []
            # Space again: the same submission is taken.
            filler.unlink()
            job = stub.SubmitJob(submit).job
            deadline = time.monotonic() + FINISH_TIMEOUT
            while stub.GetJob(pb.GetJobRequest(id=job.id)).job.progress.shards_done < 2:
                assert time.monotonic() < deadline, server.log()
                time.sleep(0.02)
            # Full again mid-job: the stored progress stops where the disk filled.
            filler = fill(disk)
            time.sleep(3)  # the shards in flight meet the full disk
            paused = stub.GetJob(pb.GetJobRequest(id=job.id)).job
            time.sleep(2)
            still = stub.GetJob(pb.GetJobRequest(id=job.id)).job
            assert paused.state == still.state == pb.JOB_STATE_RUNNING, still.error
            assert still.progress.shards_done == paused.progress.shards_done < SHARDS
            assert "paused: " in server.log()
            filler.unlink()
            done = wait_finished(stub, job.id)
            assert done.state == pb.JOB_STATE_SUCCEEDED, done.error
            assert done.progress.shards_done == done.progress.shards_total == SHARDS
            assert [j.id for j in stub.ListJobs(pb.ListJobsRequest()).jobs] == [job.id]
            result = server.cli("result", job.id, "--json")
            assert result.returncode == 0, result.stderr
        # The store file is whole: SQLite's full check, and only the job that was taken.
        with contextlib.closing(sqlite3.connect(tmp_path / "jobs-copy.sqlite3")) as copy:
            with contextlib.closing(sqlite3.connect(disk / "jobs.sqlite3")) as db:
                db.backup(copy)
            assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert copy.execute("SELECT id, state FROM jobs").fetchall() == [(job.id, "succeeded")]
            assert copy.execute("SELECT count(*) FROM shards").fetchall() == [(SHARDS,)]
    assert result.stdout == local_result(job_file)


def test_a_read_only_data_directory_is_refused_at_start_and_left_alone(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "disk", "4m") as disk:
        store = JobStore(disk / "jobs.sqlite3")
        store.create("bad_beat", {"kind": "bad_beat"}, 10, 1)
        store.close()
        before = _digest(disk)
        remounted = subprocess.run(
            ["mount", "-o", "remount,ro", str(disk)], capture_output=True, timeout=30, check=False
        )
        assert remounted.returncode == 0, remounted.stderr
        # In this process: the refusal comes before Ray or any port (the command line's
        # one-line form of a StartupError: test_the_server_refuses_a_damaged_store_...).
        config = ServerConfig(listen="127.0.0.1:0", data_dir=disk, metrics_listen=None)
        with pytest.raises(StartupError) as refused:
            asyncio.run(serve(config))
        assert str(refused.value) == (
            f"--data-dir {disk}: cannot open server.lock: Read-only file system"
        )
        assert _digest(disk) == before


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


# -- a damaged store -----------------------------------------------------------------------


def _store_with_jobs(path: Path) -> None:
    store = JobStore(path)
    for n in range(3):
        record = store.create("bad_beat", {"kind": "bad_beat", "n": n}, 10, 2)
        store.set_state(record.id, JobState.RUNNING)
        store.save_shard(record.id, 0, {"trials": 5}, 0.1, Progress(1, 5, {"trials": 5}, None))
    store.close()


def _damage_page(path: Path) -> None:
    """Overwrite the jobs table's root page's type byte: SQLite's b-tree is then broken."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'jobs'").fetchone()[0]
    with path.open("r+b") as raw:
        raw.seek((root - 1) * page_size)
        raw.write(b"\xff")


def _unknown_state(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("UPDATE jobs SET state = 'halfway' WHERE seq = 2")
        db.commit()


DAMAGES = {
    "not a database": lambda path: path.write_bytes(b"this is not SQLite\n" * 300),
    "an empty file": lambda path: path.write_bytes(b""),
    "a broken page": _damage_page,
    "a state no version knows": _unknown_state,
}
FINDINGS = {
    "not a database": "file is not a database",
    "an empty file": "the file is empty",
    "a broken page": "database disk image is malformed",
    "a state no version knows": "has the state 'halfway'",
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_sqlite_store_is_refused_and_left_unchanged(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "jobs.sqlite3"
    _store_with_jobs(path)
    DAMAGES[damage](path)
    before = path.read_bytes()
    with pytest.raises(StoreError) as refused:
        JobStore(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: the job store is damaged ("), message
    assert FINDINGS[damage] in message
    assert "has changed nothing" in message and "move it" in message
    assert path.read_bytes() == before  # neither repaired nor reset


def test_the_server_refuses_a_damaged_store_in_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    _store_with_jobs(data / "jobs.sqlite3")
    _damage_page(data / "jobs.sqlite3")
    started = cardroom("serve", "--data-dir", str(data), "--listen", "127.0.0.1:0", timeout=120)
    assert started.returncode == 1
    last = started.stderr.strip().splitlines()[-1]
    assert last.startswith(f"cardroom: cannot start the server: {data}/jobs.sqlite3: the job store")
    assert "damaged (database disk image is malformed)" in last
    assert "Traceback" not in started.stderr


def test_a_new_store_is_made_whole_or_not_at_all(tmp_path: Path) -> None:
    """A store is built under another name and renamed: no half-made jobs.sqlite3, so an
    empty one is always damage."""
    path = tmp_path / "jobs.sqlite3"
    (tmp_path / ".jobs.sqlite3.new").write_bytes(b"left by a server that died creating it")
    JobStore(path).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["jobs.sqlite3"]
    JobStore(path).close()  # and it opens again


PG_DAMAGES = {
    "a dropped column": (
        "ALTER TABLE cardroom_jobs DROP COLUMN namespace",
        "table cardroom_jobs lacks namespace",
    ),
    "no schema version": ("DELETE FROM cardroom_schema", "cardroom_schema holds 0 versions"),
    "an unknown state": (
        "UPDATE cardroom_jobs SET state = 'halfway' WHERE kind = 'bad_beat'",
        "has the state 'halfway'",
    ),
}


@pytest.mark.parametrize("damage", sorted(PG_DAMAGES))
def test_a_damaged_postgresql_store_is_refused_and_left_unchanged(
    postgres: PostgresServer,  # noqa: F811
    damage: str,
) -> None:
    url = postgres.fresh_url()
    store = PostgresJobStore(url)
    store.create("bad_beat", {"kind": "bad_beat"}, 10, 1)
    store.close()
    statement, finding = PG_DAMAGES[damage]
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(statement)
        before = _tables(db)
    with pytest.raises(StoreError) as refused:
        PostgresJobStore(url)
    message = str(refused.value)
    assert "the job store is damaged (" in message and finding in message, message
    assert "has changed nothing" in message
    with psycopg.connect(url, autocommit=True) as db:
        assert _tables(db) == before


def _tables(db: psycopg.Connection[tuple[object, ...]]) -> list[list[tuple[object, ...]]]:
    return [
        db.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
        for table in ("cardroom_schema", "cardroom_jobs", "cardroom_shards")
    ]


# -- a client gone mid-watch ---------------------------------------------------------------

WATCHER = """
import sys, grpc
from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
channel = grpc.insecure_channel(sys.argv[1])
for message in pb_grpc.JobServiceStub(channel).WatchJob(pb.WatchJobRequest(id=sys.argv[2])):
    print(message.job.progress.shards_done, flush=True)
"""


@pytest.mark.slow
def test_a_client_killed_while_watching_leaves_the_job_running(tmp_path: Path) -> None:
    """The watcher is SIGKILLed after its first message: the job runs on to the result of
    a local run, and the server frees the stream (one stream allowed, and it opens again)."""
    job_file = tmp_path / "job.toml"
    job_file.write_text(JOB)
    with (
        running_server(tmp_path / "data", workers=1, extra=("--max-watches", "1")) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = pb_grpc.JobServiceStub(channel)
        job = stub.SubmitJob(pb.SubmitJobRequest(spec=job_spec_from_file(str(job_file)))).job
        watcher = subprocess.Popen(
            [sys.executable, "-c", WATCHER, server.address, job.id],
            cwd=REPO,
            env=env(),
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert watcher.stdout is not None
            first = watcher.stdout.readline()
            assert first.strip().isdigit(), first
            os.kill(watcher.pid, signal.SIGKILL)
        finally:
            watcher.kill()
            watcher.wait(timeout=30)
        assert watcher.returncode == -signal.SIGKILL
        at_kill = stub.GetJob(pb.GetJobRequest(id=job.id)).job
        assert at_kill.state not in FINISHED, "the job ended before the watcher was killed"
        watched = _watch_when_admitted(stub, job.id)
        assert watched.state == pb.JOB_STATE_SUCCEEDED, watched.error
        result = server.cli("result", job.id, "--json")
        assert result.returncode == 0, result.stderr
    assert result.stdout == local_result(job_file)


def _watch_when_admitted(stub: pb_grpc.JobServiceStub, job_id: str) -> pb.Job:
    """Watch the job to its end, once the server has let go of the killed client's stream
    (until then the one stream allowed is taken: RESOURCE_EXHAUSTED)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            last: pb.Job | None = None
            for message in stub.WatchJob(pb.WatchJobRequest(id=job_id), timeout=FINISH_TIMEOUT):
                last = message.job
            assert last is not None
            return last
        except grpc.RpcError as err:
            assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, err
            assert time.monotonic() < deadline, "the killed client's stream was never freed"
            time.sleep(0.2)


# -- PostgreSQL restarting mid-job ---------------------------------------------------------


@pytest.mark.slow
def test_postgresql_crashing_mid_job_loses_nothing(tmp_path: Path) -> None:
    """PostgreSQL stops at once (every connection cut) while shards are being stored and
    comes back two seconds later: the server reconnects, the job ends with the result of a
    local run, and the database holds each shard once."""
    job_file = tmp_path / "job.toml"
    job_file.write_text(JOB)
    database = PostgresServer()  # its own: the session's server is not to be crashed
    try:
        url = database.fresh_url()
        server = Server(tmp_path / "data", workers=1, extra=("--store", url))
        try:
            with grpc.insecure_channel(server.address) as channel:
                stub = pb_grpc.JobServiceStub(channel)
                spec = pb.SubmitJobRequest(spec=job_spec_from_file(str(job_file)))
                job = stub.SubmitJob(spec).job
                deadline = time.monotonic() + FINISH_TIMEOUT
                while (at := stub.GetJob(pb.GetJobRequest(id=job.id)).job).progress.shards_done < 2:
                    assert time.monotonic() < deadline, server.log()
                    time.sleep(0.05)
                assert at.state not in FINISHED, "the job ended before the crash"
                started_before = _postmaster_start(url)
                database.crash_and_restart(down=2.0)
                assert _postmaster_start(url) != started_before  # a new PostgreSQL
                done = wait_finished(stub, job.id)
                assert done.state == pb.JOB_STATE_SUCCEEDED, done.error + server.log()
                assert done.progress.shards_done == done.progress.shards_total == SHARDS
                result = server.cli("result", job.id, "--json")
                assert result.returncode == 0, result.stderr
            assert "reconnected" in server.log()
        finally:
            server.stop()
        with psycopg.connect(url, autocommit=True) as db:
            shards = db.execute(
                "SELECT shard FROM cardroom_shards WHERE job_id = %s ORDER BY shard", (job.id,)
            ).fetchall()
            jobs = db.execute("SELECT id, state FROM cardroom_jobs").fetchall()
        assert [s for (s,) in shards] == list(range(SHARDS))
        assert jobs == [(job.id, "succeeded")]
    finally:
        database.stop()
    assert result.stdout == local_result(job_file)


def _postmaster_start(url: str) -> object:
    with psycopg.connect(url, autocommit=True) as db:
        row = db.execute("SELECT pg_postmaster_start_time()").fetchone()
    assert row is not None
    return row[0]


def _cut_connections(url: str) -> int:
    """End every other connection to the database, as a restarting PostgreSQL does."""
    with psycopg.connect(url, autocommit=True) as db:
        row = db.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE pid <> pg_backend_pid() AND datname = current_database()"
            " AND backend_type = 'client backend'"
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_cut_connection_is_made_again_or_the_store_is_unavailable(
    postgres: PostgresServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The store's connection cut under it: the next call reconnects and succeeds; a
    database that does not come back within the bound is StoreUnavailable, saying so."""
    from service import store_postgres
    from service.store import StoreUnavailable

    url = postgres.fresh_url()
    store = PostgresJobStore(url)
    try:
        job = store.create("bad_beat", {"kind": "bad_beat"}, 10, 1)
        assert _cut_connections(url) >= 1
        assert store.set_state(job.id, JobState.RUNNING).state is JobState.RUNNING
        assert _cut_connections(url) >= 1
        monkeypatch.setattr(store_postgres, "RECONNECT_TIMEOUT", 1.0)
        monkeypatch.setattr(store, "_url", url.replace(f":{postgres.port}/", ":1/"))
        with pytest.raises(StoreUnavailable, match="the database did not come back in 1 s"):
            store.get(job.id)
    finally:
        store.close()
    again = PostgresJobStore(url)  # nothing was lost
    try:
        stored = again.get(job.id)
        assert stored is not None and stored.state is JobState.RUNNING
    finally:
        again.close()
