"""The gRPC server: JobService, the standard health service, and server reflection."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from prometheus_client import CollectorRegistry, start_http_server

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.convert import (
    api_field,
    mapping_to_spec,
    report_to_result,
    spec_to_mapping,
    timestamp,
)
from service.manager import JobFinished, JobManager, JobNotFound, Snapshot
from service.metrics import ServiceMetrics
from service.store import JobState, JobStore, decode_page_token
from simulations.models import MODELS
from simulations.spec import SpecError
from workers.runner import RayCluster, ShardPool

log = logging.getLogger(__name__)

DEFAULT_MAX_TRIALS = 10**12
DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 1000
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["JobService"].full_name
_STATES = {
    JobState.QUEUED: pb.JOB_STATE_QUEUED,
    JobState.RUNNING: pb.JOB_STATE_RUNNING,
    JobState.SUCCEEDED: pb.JOB_STATE_SUCCEEDED,
    JobState.FAILED: pb.JOB_STATE_FAILED,
    JobState.CANCELLED: pb.JOB_STATE_CANCELLED,
}
_FROM_API_STATE = {value: key for key, value in _STATES.items()}

Request = TypeVar("Request")
Response = TypeVar("Response")


def job_message(snapshot: Snapshot) -> pb.Job:
    record = snapshot.record
    job = pb.Job(
        id=record.id,
        kind=record.kind,
        state=_STATES[record.state],
        spec=mapping_to_spec(record.spec),
        error=record.error,
        create_time=timestamp(record.created),
        update_time=timestamp(record.updated),
        progress=pb.JobProgress(
            shards_done=snapshot.shards_done,
            shards_total=record.shards_total,
            trials_done=snapshot.trials_done,
            trials_total=record.trials,
        ),
    )
    if snapshot.estimate is not None:
        job.progress.estimate.CopyFrom(report_to_result(record.kind, snapshot.estimate))
    if record.result is not None:
        job.result.CopyFrom(report_to_result(record.kind, record.result))
    return job


def _counted(
    method: Callable[[Any, Request, grpc.aio.ServicerContext], Awaitable[Response]],
) -> Callable[[Any, Request, grpc.aio.ServicerContext], Awaitable[Response]]:
    """Count a unary call by method and final status code."""

    @functools.wraps(method)
    async def wrapper(self: Any, request: Request, context: grpc.aio.ServicerContext) -> Response:
        try:
            response = await method(self, request, context)
        except BaseException:
            self.metrics.request(method.__name__, context.code() or grpc.StatusCode.UNKNOWN)
            raise
        self.metrics.request(method.__name__, context.code() or grpc.StatusCode.OK)
        return response

    return wrapper


class JobService(pb_grpc.JobServiceServicer):
    def __init__(self, manager: JobManager, metrics: ServiceMetrics) -> None:
        self.manager = manager
        self.metrics = metrics

    async def _record(self, job_id: str, context: grpc.aio.ServicerContext) -> Snapshot:
        if not job_id:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "id: is required")
        try:
            return self.manager.snapshot(self.manager.get(job_id))
        except JobNotFound:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"job {job_id!r} not found")
            raise  # unreachable: abort raises

    @_counted
    async def SubmitJob(
        self, request: pb.SubmitJobRequest, context: grpc.aio.ServicerContext
    ) -> pb.SubmitJobResponse:
        if not request.HasField("spec"):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "spec: is required")
        try:
            record = self.manager.submit(spec_to_mapping(request.spec))
        except SpecError as err:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, f"{api_field(err.field)}: {err.problem}"
            )
        return pb.SubmitJobResponse(job=job_message(self.manager.snapshot(record)))

    @_counted
    async def GetJob(
        self, request: pb.GetJobRequest, context: grpc.aio.ServicerContext
    ) -> pb.GetJobResponse:
        return pb.GetJobResponse(job=job_message(await self._record(request.id, context)))

    @_counted
    async def ListJobs(
        self, request: pb.ListJobsRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListJobsResponse:
        if request.page_size > MAX_PAGE_SIZE:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"page_size: must be at most {MAX_PAGE_SIZE}, got {request.page_size}",
            )
        if request.kind and request.kind not in MODELS:
            kinds = ", ".join(sorted(MODELS))
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"kind: must be one of {kinds}; got {request.kind!r}",
            )
        state = _FROM_API_STATE.get(request.state)
        try:
            if request.page_token:
                decode_page_token(request.page_token)
        except ValueError as err:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(err))
        records, token = self.manager.store.page(
            size=request.page_size or DEFAULT_PAGE_SIZE,
            token=request.page_token,
            state=state,
            kind=request.kind,
        )
        jobs = [job_message(self.manager.snapshot(r)) for r in records]
        return pb.ListJobsResponse(jobs=jobs, next_page_token=token)

    async def WatchJob(
        self, request: pb.WatchJobRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.WatchJobResponse]:
        code = grpc.StatusCode.OK
        try:
            await self._record(request.id, context)
            async for snapshot in self.manager.watch(request.id):
                yield pb.WatchJobResponse(job=job_message(snapshot))
        except asyncio.CancelledError:
            code = grpc.StatusCode.CANCELLED
            raise
        except BaseException:
            code = context.code() or grpc.StatusCode.UNKNOWN
            raise
        finally:
            self.metrics.request("WatchJob", code)

    @_counted
    async def CancelJob(
        self, request: pb.CancelJobRequest, context: grpc.aio.ServicerContext
    ) -> pb.CancelJobResponse:
        await self._record(request.id, context)
        try:
            record = self.manager.cancel(request.id)
        except JobFinished as err:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(err))
        return pb.CancelJobResponse(job=job_message(self.manager.snapshot(record)))


@dataclass(frozen=True)
class ServerConfig:
    listen: str = "127.0.0.1:50051"
    data_dir: Path = Path(".cardroom")
    metrics_listen: str | None = "127.0.0.1:9464"
    workers: int | None = None
    ray_address: str | None = None
    max_trials: int = DEFAULT_MAX_TRIALS
    max_in_flight: int | None = None
    ready_file: Path | None = None


def _host_port(text: str, what: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ValueError(f"{what} must be HOST:PORT, got {text!r}")
    return host, int(port)


async def serve(config: ServerConfig) -> None:
    """Run the service until SIGTERM or SIGINT; then stop cleanly, jobs left resumable."""
    host, port = _host_port(config.listen, "--listen")
    cluster = RayCluster(config.workers, address=config.ray_address)
    store = JobStore(config.data_dir / "jobs.sqlite3")
    registry = CollectorRegistry()
    metrics = ServiceMetrics(registry, store.counts)
    pool = ShardPool(cluster, config.max_in_flight)
    metrics.shards_in_flight.set_function(lambda: pool.in_flight)
    manager = JobManager(store, pool, metrics, max_trials=config.max_trials)
    metrics_server = None
    metrics_address = ""
    if config.metrics_listen:
        m_host, m_port = _host_port(config.metrics_listen, "--metrics-listen")
        metrics_server, _ = start_http_server(m_port, addr=m_host, registry=registry)
        metrics_address = f"{m_host}:{metrics_server.server_port}"

    server = grpc.aio.server()
    pb_grpc.add_JobServiceServicer_to_server(JobService(manager, metrics), server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    bound = server.add_insecure_port(f"{host}:{port}")
    await server.start()
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    resumed = manager.resume()
    address = f"{host}:{bound}"
    log.info("serving on %s (metrics %s); resumed %d jobs", address, metrics_address, resumed)
    if config.ready_file is not None:
        ready = {"address": address, "metrics": metrics_address, "pid": os.getpid()}
        config.ready_file.write_text(json.dumps(ready))

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()

    log.info("stopping")
    await health_servicer.enter_graceful_shutdown()
    await server.stop(grace=2)
    await manager.close()
    store.close()
    if metrics_server is not None:
        metrics_server.shutdown()
    with contextlib.suppress(Exception):
        cluster.close()
