"""The Kubernetes path: a server joined to a Ray head through Ray Client (``ray://``), and
the head killed mid-job (SIGKILL to its whole process group, as a head pod dies), then
started again on the same ports.  The server notices, answers health NOT_SERVING, joins
the new head when it is up, and the job ends with the result of an uninterrupted local run;
a job submitted after that runs too.  Also: a job's stored failure reason is a readable
sentence, never the last line of a repr such as '>'."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.client import job_spec_from_file
from service.manager import _one_line
from tests.harness import Server
from tests.test_service_faults import FINISH_TIMEOUT, local_result, wait_finished
from workers.runner import RAY_LOCAL_ENVIRONMENT

JOB = """
kind = "bad_beat"
hands = 24_000_000
seed = 99
shard_size = 500_000
[table]
players = 9
"""
SHARDS = 48
SERVING = health_pb2.HealthCheckResponse.SERVING


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Head:
    """A `ray start --head --block` with a Ray Client server, in a process group of its own
    on fixed ports, so that it can be killed whole and started again where it was."""

    def __init__(self) -> None:
        self.temp_dir = tempfile.mkdtemp(prefix="rayc", dir="/tmp")
        self.port, self.client_port = _free_port(), _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [
            str(Path(sys.executable).with_name("ray")),
            "start",
            "--head",
            "--block",
            f"--port={self.port}",
            f"--ray-client-server-port={self.client_port}",
            "--num-cpus=2",
            "--include-dashboard=false",
            "--node-ip-address=127.0.0.1",
            f"--temp-dir={self.temp_dir}",
            f"--object-store-memory={100 * 2**20}",
        ]
        log = open(Path(self.temp_dir) / "head.log", "ab")  # noqa: SIM115 - the child's
        self.process = subprocess.Popen(
            command,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, **RAY_LOCAL_ENVIRONMENT},
        )
        log.close()
        deadline = time.monotonic() + 90
        while True:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.client_port), timeout=1).close()
                break
            assert self.process.poll() is None, "the Ray head did not start"
            assert time.monotonic() < deadline, "the Ray head did not start"
            time.sleep(0.2)
        # The client port accepts connections before the head can start a session on it
        # ("Initialization failure from server"): ready once a Ray Client session opens.
        probe = (
            f"import ray; ray.init('ray://127.0.0.1:{self.client_port}', "
            "logging_level='ERROR'); ray.shutdown()"
        )
        while True:
            done = subprocess.run(
                [sys.executable, "-c", probe],
                capture_output=True,
                env={**os.environ, **RAY_LOCAL_ENVIRONMENT},
                timeout=60,
                check=False,
            )
            if done.returncode == 0:
                return
            assert self.process.poll() is None, "the Ray head did not start"
            assert time.monotonic() < deadline, f"no Ray Client session: {done.stderr[-500:]!r}"
            time.sleep(0.5)

    def kill(self) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=60)
            self.process = None


@contextlib.contextmanager
def ray_head() -> Iterator[Head]:
    head = Head()
    head.start()
    try:
        yield head
    finally:
        head.kill()


def test_a_job_rides_out_the_ray_head_restarting_under_ray_client(tmp_path: Path) -> None:
    job_file = tmp_path / "job.toml"
    job_file.write_text(JOB)
    with ray_head() as head:
        address = f"ray://127.0.0.1:{head.client_port}"
        server = Server(tmp_path / "data", extra=("--ray-address", address))
        try:
            with grpc.insecure_channel(server.address) as channel:
                stub = pb_grpc.JobServiceStub(channel)
                health = health_pb2_grpc.HealthStub(channel)
                spec = pb.SubmitJobRequest(spec=job_spec_from_file(str(job_file)))
                job_id = stub.SubmitJob(spec).job.id
                deadline = time.monotonic() + FINISH_TIMEOUT
                while stub.GetJob(pb.GetJobRequest(id=job_id)).job.progress.shards_done < 3:
                    assert time.monotonic() < deadline, server.log()
                    time.sleep(0.02)
                head.kill()  # the head pod dies
                deadline = time.monotonic() + 120
                while health.Check(health_pb2.HealthCheckRequest()).status == SERVING:
                    assert time.monotonic() < deadline, f"still SERVING\n{server.log()}"
                    time.sleep(0.1)
                at_loss = stub.GetJob(pb.GetJobRequest(id=job_id)).job
                assert at_loss.state == pb.JOB_STATE_RUNNING, at_loss.error
                assert at_loss.progress.shards_done < SHARDS
                head.start()  # and comes back on the same ports
                finished = wait_finished(stub, job_id)
                assert finished.state == pb.JOB_STATE_SUCCEEDED, finished.error + server.log()
                assert health.Check(health_pb2.HealthCheckRequest()).status == SERVING
                result = server.cli("result", job_id, "--json")
                assert result.returncode == 0, result.stderr
                # A job submitted after the head came back runs as well.
                after = wait_finished(stub, stub.SubmitJob(spec).job.id)
                assert after.state == pb.JOB_STATE_SUCCEEDED, after.error + server.log()
        finally:
            server.stop()
    assert result.stdout == local_result(job_file)


def test_a_stored_failure_reason_is_a_readable_line() -> None:
    """A Ray Client error's text ended in '>' (the close of a gRPC repr), and that last line
    was the job's stored reason."""
    text = (
        "Failed during this or a previous request. Exception that broke the connection: "
        "<_MultiThreadedRendezvous of RPC that terminated with:\n"
        "\tstatus = StatusCode.NOT_FOUND\n"
        '\tdetails = "Attempted to reconnect a session that has already been cleaned up."\n'
        ">"
    )
    reason = _one_line(ConnectionError(text))
    assert reason.startswith("Failed during this or a previous request."), reason
    assert _one_line(RuntimeError("\n>\n")) == "RuntimeError"
