"""A real server meeting stored jobs it cannot read: each fails with its reason, the server
starts and serves, the other jobs resume, and nothing stored is lost."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import grpc
import pytest

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.store import JobState, JobStore
from tests.harness import cardroom, running_server

pytestmark = pytest.mark.slow

GOOD = {"kind": "bad_beat", "hands": 40_000, "seed": 17, "shard_size": 10_000}
# id: (kind, state, stored spec text, spec version, the reason it fails with)
BAD = {
    "job-0000000000a1": ("bad_beat", "running", json.dumps(GOOD), 9, "is of version 9"),
    "job-0000000000a2": ("bad_beat", "queued", "{not json", 1, "is not JSON"),
    "job-0000000000a3": (
        "dropped_kind",
        "queued",
        json.dumps({"kind": "dropped_kind", "hands": 10}),
        1,
        "no longer valid: kind: must be one of ",
    ),
    "job-0000000000a4": (
        "bad_beat",
        "running",
        json.dumps({**GOOD, "table": {"players": 99}}),
        1,
        "no longer valid: table.players: must be at most 10, got 99",
    ),
}
FINISHED_UNKNOWN = "job-0000000000a5"  # a finished job of a kind no longer offered


def _write_store(data: Path) -> str:
    store = JobStore(data / "jobs.sqlite3")
    good = store.create("bad_beat", GOOD, 40_000, 4)
    store.set_state(good.id, JobState.RUNNING)
    store.close()
    with sqlite3.connect(data / "jobs.sqlite3") as db:
        rows = [(i, k, st, text, v) for i, (k, st, text, v, _) in BAD.items()]
        rows.append((FINISHED_UNKNOWN, "dropped_kind", "succeeded", '{"kind": "dropped_kind"}', 1))
        for row in rows:
            db.execute(
                "INSERT INTO jobs (id, kind, state, spec, spec_version, trials, shards_total,"
                " created, updated, result) VALUES (?, ?, ?, ?, ?, 10, 1, 1.0, 1.0, ?)",
                (*row, '{"kind": "dropped_kind", "hands": 10}' if row[2] == "succeeded" else None),
            )
    return good.id


def _stored_rows(data: Path) -> dict[str, tuple[str, int]]:
    with sqlite3.connect(data / "jobs.sqlite3") as db:
        rows = db.execute("SELECT id, spec, spec_version FROM jobs").fetchall()
    return {job_id: (spec, version) for job_id, spec, version in rows}


def test_a_server_fails_the_stored_jobs_it_cannot_read_and_resumes_the_rest(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    good_id = _write_store(data)
    before = _stored_rows(data)
    with running_server(data, workers=1) as server:
        with grpc.insecure_channel(server.address) as channel:
            stub = pb_grpc.JobServiceStub(channel)
            for job_id, (kind, _, _, _, reason) in BAD.items():
                job = stub.GetJob(pb.GetJobRequest(id=job_id)).job
                assert job.state == pb.JOB_STATE_FAILED, (job_id, server.log())
                assert job.kind == kind and reason in job.error, job.error
            finished = stub.GetJob(pb.GetJobRequest(id=FINISHED_UNKNOWN)).job
            assert finished.state == pb.JOB_STATE_SUCCEEDED and finished.kind == "dropped_kind"
            assert not finished.HasField("result")  # a result this version cannot express
            listed = stub.ListJobs(pb.ListJobsRequest(page_size=100)).jobs
            assert len(listed) == len(BAD) + 2
            failed = stub.ListJobs(pb.ListJobsRequest(state=pb.JOB_STATE_FAILED)).jobs
            assert {j.id for j in failed} == set(BAD)
            deadline = time.monotonic() + 300
            while (job := stub.GetJob(pb.GetJobRequest(id=good_id)).job).state not in (
                pb.JOB_STATE_SUCCEEDED,
                pb.JOB_STATE_FAILED,
            ):
                assert time.monotonic() < deadline, server.log()
                time.sleep(0.2)
            assert job.state == pb.JOB_STATE_SUCCEEDED, job.error
        result = server.cli("result", good_id, "--json")
        assert result.returncode == 0, result.stderr
        unreadable = server.cli("result", "job-0000000000a2")
        assert unreadable.returncode == 1 and "failed: the stored specification" in (
            unreadable.stderr
        )
        assert "Traceback" not in server.log()
    job_file = tmp_path / "good.json"
    job_file.write_text(json.dumps(GOOD))
    local = cardroom("run", str(job_file), "--json", "--in-process")
    assert local.returncode == 0, local.stderr
    assert result.stdout == local.stdout
    assert _stored_rows(data) == before  # every stored spec as it was
