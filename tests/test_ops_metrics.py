"""What operations see of a real server: every counter on /metrics from the first scrape;
/metrics answering while PostgreSQL is away (the job counts last read, the store down);
calls that need the store answered UNAVAILABLE within seconds meanwhile, and the running
job carried on once it is back; no server path in what a client is told; the plaintext
health port beside a TLS one, with a certificate about to expire warned of and exported."""

from __future__ import annotations

import datetime
import json
import platform
import signal
import time
import urllib.request
from importlib.metadata import version
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client.parser import text_string_to_metric_families

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.client import job_spec_from_file
from service.kinds import KINDS
from service.server import _method_names, job_message
from service.store import JobRecord, JobState, without_paths
from tests.certs import Authority
from tests.harness import Server, running_server
from tests.postgres import PostgresServer
from tests.test_cert_expiry import certificate_pair
from tests.test_service_faults import FINISHED, JOB, SHARDS, fill, local_result, tmpfs

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(address: str) -> tuple[int, Samples]:
    """The HTTP status of /metrics and its samples by (name, labels)."""
    with urllib.request.urlopen(f"http://{address}/metrics", timeout=30) as response:
        status, text = response.status, response.read().decode()
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return status, samples


def sample(samples: Samples, name: str, **labels: str) -> float | None:
    return samples.get((name, frozenset(labels.items())))


def test_a_fresh_server_exports_every_counter_from_the_first_scrape(tmp_path: Path) -> None:
    with running_server(tmp_path / "data", workers=1) as server:
        status, first = scrape(server.metrics)
        assert status == 200
        for kind in KINDS:
            assert sample(first, "cardroom_trials_simulated_total", kind=kind) == 0
            assert sample(first, "cardroom_shard_duration_seconds_count", kind=kind) == 0
            assert (
                sample(first, "cardroom_shard_duration_seconds_bucket", kind=kind, le="+Inf") == 0
            )
            for state in JobState:
                assert sample(first, "cardroom_jobs", kind=kind, state=state.value) == 0
        unary, streaming = _method_names()
        assert {"SubmitJob", "GetJob", "DeleteJob", "Check", "Verify"} <= set(unary)
        assert {"WatchJob", "Watch", "ServerReflectionInfo"} <= set(streaming)
        for method in (*unary, *streaming):
            assert sample(first, "cardroom_grpc_requests_total", method=method, code="OK") == 0
        for method in unary:
            assert sample(first, "cardroom_grpc_request_duration_seconds_count", method=method) == 0
        build = {"version": version("cardroom"), "python": platform.python_version()}
        assert sample(first, "cardroom_build_info", **build, ray=version("ray")) == 1
        assert sample(first, "cardroom_store_up") == 1
        assert (sample(first, "process_resident_memory_bytes") or 0) > 2**20
        assert (sample(first, "process_open_fds") or 0) > 0
        # A call is counted and timed under its own method.
        with grpc.insecure_channel(server.address) as channel:
            pb_grpc.JobServiceStub(channel).ListJobs(pb.ListJobsRequest(), timeout=30)
        _, after = scrape(server.metrics)
        assert sample(after, "cardroom_grpc_requests_total", method="ListJobs", code="OK") == 1
        assert sample(after, "cardroom_grpc_request_duration_seconds_count", method="ListJobs") == 1
        assert sample(after, "cardroom_grpc_request_duration_seconds_count", method="GetJob") == 0


def _wait_state(stub: pb_grpc.JobServiceStub, job_id: str, states: tuple[int, ...]) -> pb.Job:
    """Poll a job until it is in one of ``states``; UNAVAILABLE (a store that is back
    but not yet tried again by the server) is polled through."""
    deadline = time.monotonic() + 300
    while True:
        assert time.monotonic() < deadline, f"job {job_id} did not reach {states}"
        try:
            job: pb.Job = stub.GetJob(pb.GetJobRequest(id=job_id), timeout=60).job
        except grpc.RpcError as err:
            if err.code() != grpc.StatusCode.UNAVAILABLE:
                raise
            time.sleep(0.2)
            continue
        if job.state in states:
            return job
        time.sleep(0.1)


def _refused_in(call: object, bound: float) -> tuple[grpc.RpcError, float]:
    """The error a call ends with, and the seconds it took (at most ``bound``)."""
    started = time.monotonic()
    with pytest.raises(grpc.RpcError) as refused:
        call()  # type: ignore[operator]
    took = time.monotonic() - started
    assert took < bound, f"answered after {took:.1f} s"
    return refused.value, took


@pytest.mark.slow
def test_while_postgresql_is_away_metrics_answer_and_calls_are_unavailable_in_seconds(
    tmp_path: Path,
) -> None:
    """PostgreSQL stops (every connection cut) under a running job: /metrics still answers
    200 with the counts last read and cardroom_store_up 0; GetJob and SubmitJob are
    UNAVAILABLE within seconds (not the 60 s call timeout), saying the store is
    unreachable without its address; once PostgreSQL is back the job ends with the result
    of a local run."""
    job_file = tmp_path / "job.toml"
    job_file.write_text(JOB)
    small = pb.JobSpec(trials=20_000, seed=3, shard_size=10_000)
    small.bad_beat.table.players = 6
    database = PostgresServer()  # its own: this one is stopped
    try:
        url = database.fresh_url()
        server = Server(tmp_path / "data", workers=1, extra=("--store", url))
        try:
            with grpc.insecure_channel(server.address) as channel:
                stub = pb_grpc.JobServiceStub(channel)
                finished = stub.SubmitJob(pb.SubmitJobRequest(spec=small), timeout=60).job
                _wait_state(stub, finished.id, FINISHED)
                spec = job_spec_from_file(str(job_file))
                running = stub.SubmitJob(pb.SubmitJobRequest(spec=spec), timeout=60).job
                deadline = time.monotonic() + 300
                while stub.GetJob(pb.GetJobRequest(id=running.id)).job.progress.shards_done < 2:
                    assert time.monotonic() < deadline, server.log()
                    time.sleep(0.05)
                status, before = scrape(server.metrics)
                assert status == 200 and sample(before, "cardroom_store_up") == 1
                succeeded = sample(before, "cardroom_jobs", kind="bad_beat", state="succeeded")
                assert succeeded == 1

                database.process.send_signal(signal.SIGQUIT)  # immediate: connections cut
                database.process.wait(timeout=60)
                get = pb.GetJobRequest(id=finished.id)
                # The documented bound is about 7 s (5 s of waiting for the database and one
                # attempt to connect of at most 2 s); generous here, far below the 60 s.
                error, _ = _refused_in(lambda: stub.GetJob(get, timeout=120), 30)
                assert error.code() == grpc.StatusCode.UNAVAILABLE, error
                details = error.details() or ""
                assert details.startswith("reading the job: the job store (PostgreSQL) is "), (
                    details
                )
                assert "unreachable" in details and "try again later" in details
                assert "postgresql://" not in details and str(database.port) not in details
                # Found away: the next calls are answered at once.
                error, took = _refused_in(lambda: stub.GetJob(get, timeout=120), 30)
                assert error.code() == grpc.StatusCode.UNAVAILABLE and took < 5
                submit = pb.SubmitJobRequest(spec=small)
                error, _ = _refused_in(lambda: stub.SubmitJob(submit, timeout=120), 30)
                assert error.code() == grpc.StatusCode.UNAVAILABLE
                assert (error.details() or "").startswith("the job was not stored: the job store")
                status, away = scrape(server.metrics)
                assert status == 200
                assert sample(away, "cardroom_store_up") == 0
                # The counts last read stand, and every other metric is still there.
                assert sample(away, "cardroom_jobs", kind="bad_beat", state="succeeded") == 1
                assert (sample(away, "cardroom_trials_simulated_total", kind="bad_beat") or 0) > 0
                assert "calls that need it are UNAVAILABLE" in server.log()

                database._start()  # the same files and port: PostgreSQL recovers and serves
                done = _wait_state(stub, running.id, FINISHED)
                assert done.state == pb.JOB_STATE_SUCCEEDED, done.error + server.log()
                assert done.progress.shards_done == SHARDS
                result = server.cli("result", running.id, "--json")
                assert result.returncode == 0, result.stderr
                deadline = time.monotonic() + 60
                while sample(scrape(server.metrics)[1], "cardroom_store_up") != 1:
                    assert time.monotonic() < deadline
                    time.sleep(0.5)
        finally:
            server.stop()
    finally:
        database.stop()
    assert result.stdout == local_result(job_file)


def test_clients_are_never_told_the_servers_paths(tmp_path: Path) -> None:
    """A store refusing a write (a full disk) says so to the client without the store
    file's path, which the server's log keeps; a job's stored reason is shown without the
    paths it quotes."""
    job_file = tmp_path / "job.toml"
    job_file.write_text(JOB)
    submit = pb.SubmitJobRequest(spec=job_spec_from_file(str(job_file)))
    with (
        tmpfs(tmp_path / "disk", "4m") as disk,
        running_server(disk, workers=1) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        filler = fill(disk)
        with pytest.raises(grpc.RpcError) as refused:
            pb_grpc.JobServiceStub(channel).SubmitJob(submit, timeout=60)
        filler.unlink()
        details = refused.value.details() or ""
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        assert details.startswith("the job was not stored: the job store refused a write: ")
        assert "database or disk is full" in details
        assert "/" not in details.replace("disk I/O", ""), details
        assert f"{disk}/jobs.sqlite3" in server.log()  # the log names the file
    now = time.time()
    record = JobRecord(
        id="job-000000000001",
        kind="bad_beat",
        state=JobState.FAILED,
        spec=None,
        trials=1,
        shards_total=1,
        result=None,
        error="worker died; see /tmp/ray/session_1/logs/raylet.out (node 10.0.0.1)",
        created=now,
        updated=now,
        shards_done=0,
        trials_done=0,
        tally=None,
        estimate=None,
    )
    assert job_message(record).error == "worker died; see … (node 10.0.0.1)"
    assert without_paths("/abs/jobs.sqlite3: disk I/O error, 50/50") == "…: disk I/O error, 50/50"


def _health(channel: grpc.Channel, service: str) -> int:
    stub: Any = health_pb2_grpc.HealthStub(channel)  # generated: untyped
    answer = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=30)
    return int(answer.status)


def test_a_plaintext_health_port_beside_tls_and_the_certificates_expiry(tmp_path: Path) -> None:
    """--health-listen serves the health service alone, in plaintext, while the API port
    speaks TLS only: a kubelet's gRPC probe works. A certificate expiring in ten days is
    warned of in the log and its date exported."""
    authority = Authority(tmp_path, "ca")
    expires = datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=10)
    pair = certificate_pair(tmp_path, "server", expires, authority=authority)
    data = tmp_path / "data"
    extra = ("--tls-cert", str(pair.cert), "--tls-key", str(pair.key))
    with running_server(
        data, workers=1, extra=(*extra, "--health-listen", "127.0.0.1:0")
    ) as server:
        ready = json.loads((tmp_path / "data.ready").read_text())
        port = ready["health"]
        assert port.startswith("127.0.0.1:") and port != server.address
        serving = health_pb2.HealthCheckResponse.SERVING
        with grpc.insecure_channel(port) as plain:
            names = ("", "liveness", "cardroom.v1.JobService", "cardroom.v1.GameService")
            for name in (*names, "cardroom.v1.VerifyService"):
                assert _health(plain, name) == serving, name
            with pytest.raises(grpc.RpcError) as unknown:
                _health(plain, "cardroom.v1.Nothing")
            assert unknown.value.code() == grpc.StatusCode.NOT_FOUND
            # Only health: the job service is not on this port.
            with pytest.raises(grpc.RpcError) as other:
                pb_grpc.JobServiceStub(plain).ListJobs(pb.ListJobsRequest(), timeout=30)
            assert other.value.code() == grpc.StatusCode.UNIMPLEMENTED
        with grpc.insecure_channel(server.address) as plain_api:  # the API port: TLS only
            with pytest.raises(grpc.RpcError) as refused:
                _health(plain_api, "")
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        credentials = grpc.ssl_channel_credentials(authority.pair.cert.read_bytes())
        with grpc.secure_channel(server.address, credentials) as tls:
            assert _health(tls, "liveness") == serving
        _, samples = scrape(server.metrics)
        exported = sample(samples, "cardroom_tls_certificate_expiry_timestamp_seconds")
        assert exported == pytest.approx(expires.replace(microsecond=0).timestamp())
        day = expires.strftime("%Y-%m-%d")
        log = server.log()
        assert (
            f"WARNING service.security: --tls-cert {pair.cert}: the certificate expires on {day}"
            in log
        )
