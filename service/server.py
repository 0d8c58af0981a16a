"""The gRPC server: JobService, GameService, VerifyService, the standard health service, and
server reflection."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import logging
import os
import signal
import socket
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, cast

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2
from prometheus_client import CollectorRegistry, Gauge, start_http_server

from service.api.cardroom.v1 import game_service_pb2 as game_pb
from service.api.cardroom.v1 import game_service_pb2_grpc as game_pb_grpc
from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.api.cardroom.v1 import verify_service_pb2 as verify_pb
from service.api.cardroom.v1 import verify_service_pb2_grpc as verify_pb_grpc
from service.auth import TokensError, TokensFile
from service.convert import (
    ConversionError,
    api_field,
    mapping_to_spec,
    report_to_result,
    spec_to_mapping,
    timestamp,
)
from service.games import GameNotFound, all_games, built_in_game, checked_game, text_problem
from service.interceptors import caller, server_interceptors
from service.jobfile import MAX_TRIALS
from service.kinds import KINDS
from service.limits import DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_MESSAGE_BYTES, ClientLimits
from service.manager import JobFinished, JobManager, JobNotFound
from service.metrics import ServiceMetrics
from service.scheduler import FairScheduler
from service.security import (
    SecurityError,
    TlsFiles,
    check_certificate,
    check_exposure,
    expiry_notice,
    server_credentials,
)
from service.store import (
    DataDirLock,
    JobRecord,
    JobState,
    JobUnfinished,
    StoreError,
    StoreUnavailable,
    TooManyJobs,
    TooManyTrials,
    decode_page_token,
    without_paths,
)
from service.stores import Store, open_store, store_lock
from service.verify_service import VERIFY_SERVICE_NAME, VerifyService
from simulations.engine.gamefile import GameFileError
from simulations.spec import SpecError, echo
from workers.pool import DriverError, ShardPool
from workers.runner import RayUnreachable, check_ray_reachable

log = logging.getLogger(__name__)

DEFAULT_MAX_TRIALS = 10**12
DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 1000
# Seconds a read (GetJob, ListJobs) waits for the store before it is UNAVAILABLE: a store
# that went away is found so sooner (service/store_postgres.py), this bounds one that
# stopped answering without going away.
STORE_READ_TIMEOUT = 10.0
LIVENESS = "liveness"  # the health service's name that is SERVING while the process serves
RETENTION_CHECK_SECONDS = 3600.0  # at most this long between two expiries of old jobs
CERTIFICATE_CHECK_SECONDS = 86_400.0  # the certificate's expiry is looked at daily
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["JobService"].full_name
GAME_SERVICE_NAME = game_pb.DESCRIPTOR.services_by_name["GameService"].full_name
_STATES = {
    JobState.QUEUED: pb.JOB_STATE_QUEUED,
    JobState.RUNNING: pb.JOB_STATE_RUNNING,
    JobState.SUCCEEDED: pb.JOB_STATE_SUCCEEDED,
    JobState.FAILED: pb.JOB_STATE_FAILED,
    JobState.CANCELLED: pb.JOB_STATE_CANCELLED,
}
_FROM_API_STATE = {value: key for key, value in _STATES.items()}

Context = grpc.aio.ServicerContext  # generic in the request and response message types


def job_message(record: JobRecord) -> pb.Job:
    """A stored job as the API's message: built from its row alone.

    A stored specification or result this version cannot express (a kind no longer
    offered, a specification of another version) is left out: the job still reads, with
    its kind, state, progress counts and error.
    """
    job = pb.Job(
        id=record.id,
        kind=record.kind,
        state=_STATES[record.state],
        # A failure's reason may quote a worker's message: never the server's paths.
        error=without_paths(record.error),
        create_time=timestamp(record.created),
        update_time=timestamp(record.updated),
        progress=pb.JobProgress(
            shards_done=record.shards_done,
            shards_total=record.shards_total,
            trials_done=record.trials_done,
            trials_total=record.trials,
        ),
    )
    with contextlib.suppress(ConversionError):
        if record.spec is not None:
            job.spec.CopyFrom(mapping_to_spec(record.spec))
    with contextlib.suppress(ConversionError):
        if record.estimate is not None:
            job.progress.estimate.CopyFrom(report_to_result(record.kind, record.estimate))
    with contextlib.suppress(ConversionError):
        if record.result is not None:
            job.result.CopyFrom(report_to_result(record.kind, record.result))
    return job


async def _invalid(context: Context[Any, Any], message: str) -> NoReturn:
    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, message)
    raise AssertionError("unreachable: abort raises")


@contextlib.asynccontextmanager
async def _store_available(
    context: Context[Any, Any], doing: str, *, timeout: float | None = None
) -> AsyncIterator[None]:
    """A store that refuses a write or cannot be reached (a full disk, a read-only volume,
    a database restarting) is UNAVAILABLE to the client, with what it said — without the
    server's paths or the store's address, which only the log shows: the call changed
    nothing, and may be made again once the store is back.  With a ``timeout`` (reads
    only: they change nothing however far they got) a store that does not answer within
    it is UNAVAILABLE too."""
    try:
        async with asyncio.timeout(timeout):
            yield
    except StoreUnavailable as err:
        log.error("%s: %s", doing, err)
        await context.abort(
            grpc.StatusCode.UNAVAILABLE,
            f"{doing}: {err.public}; nothing was changed, try again later",
        )
    except TimeoutError:
        log.error("%s: the job store did not answer in %g s", doing, timeout)
        await context.abort(
            grpc.StatusCode.UNAVAILABLE,
            f"{doing}: the job store did not answer in {timeout:g} s; try again later",
        )


@dataclass
class _Watches:
    """Open WatchJob streams per namespace (lives in the event loop only)."""

    limit: int
    open: Counter[str] = field(default_factory=Counter)

    @contextlib.contextmanager
    def hold(self, namespace: str) -> Iterator[bool]:
        """Yields whether the namespace may open one more stream, and holds it if so."""
        if self.open[namespace] >= self.limit:
            yield False
            return
        self.open[namespace] += 1
        try:
            yield True
        finally:
            self.open[namespace] -= 1
            if not self.open[namespace]:
                del self.open[namespace]


class JobService(pb_grpc.JobServiceServicer):
    """Jobs in the caller's namespace (see service/interceptors.py): another namespace's
    job is NOT_FOUND, as an id that was never issued."""

    def __init__(self, manager: JobManager, limits: ClientLimits | None = None) -> None:
        self.manager = manager
        self.limits = limits = limits or ClientLimits()
        self._watches = _Watches(limits.watches)

    async def _record(self, job_id: str, context: Context[Any, Any]) -> JobRecord:
        if not job_id:
            await _invalid(context, "id: is required")
        try:
            async with _store_available(context, "reading the job", timeout=STORE_READ_TIMEOUT):
                return await self.manager.get(job_id, caller(context).namespace)
        except JobNotFound as err:
            await context.abort(grpc.StatusCode.NOT_FOUND, str(err))
            raise  # unreachable: abort raises

    async def SubmitJob(
        self,
        request: pb.SubmitJobRequest,
        context: Context[pb.SubmitJobRequest, pb.SubmitJobResponse],
    ) -> pb.SubmitJobResponse:
        principal = caller(context)
        if not request.HasField("spec"):
            await _invalid(context, "spec: is required")
        try:
            async with _store_available(context, "the job was not stored"):
                record = await self.manager.submit(
                    spec_to_mapping(request.spec),
                    namespace=principal.namespace,
                    max_unfinished=principal.max_jobs or self.limits.jobs,
                    max_unfinished_trials=principal.max_trials or self.limits.trials,
                )
        except SpecError as err:
            field = api_field(err.field, request.spec.WhichOneof("kind"))
            await _invalid(context, f"{field}: {err.problem}")
        except (TooManyJobs, TooManyTrials) as err:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(err))
        return pb.SubmitJobResponse(job=job_message(record))

    async def GetJob(
        self, request: pb.GetJobRequest, context: Context[pb.GetJobRequest, pb.GetJobResponse]
    ) -> pb.GetJobResponse:
        return pb.GetJobResponse(job=job_message(await self._record(request.id, context)))

    async def ListJobs(
        self, request: pb.ListJobsRequest, context: Context[pb.ListJobsRequest, pb.ListJobsResponse]
    ) -> pb.ListJobsResponse:
        if request.page_size > MAX_PAGE_SIZE:
            await _invalid(
                context, f"page_size: must be at most {MAX_PAGE_SIZE}, got {request.page_size}"
            )
        if request.kind and request.kind not in KINDS:
            kinds = ", ".join(sorted(KINDS))
            await _invalid(context, f"kind: must be one of {kinds}; got {echo(request.kind)}")
        if request.state != pb.JOB_STATE_UNSPECIFIED and request.state not in _FROM_API_STATE:
            names = ", ".join(pb.JobState.keys())
            await _invalid(context, f"state: {request.state} is not a JobState ({names})")
        try:
            if request.page_token:
                decode_page_token(request.page_token)
        except ValueError as err:
            await _invalid(context, str(err))
        async with _store_available(context, "listing the jobs", timeout=STORE_READ_TIMEOUT):
            records, token = await self.manager.page(
                size=request.page_size or DEFAULT_PAGE_SIZE,
                token=request.page_token,
                state=_FROM_API_STATE.get(request.state),
                kind=request.kind,
                namespace=caller(context).namespace,
            )
        return pb.ListJobsResponse(jobs=[job_message(r) for r in records], next_page_token=token)

    async def WatchJob(
        self, request: pb.WatchJobRequest, context: Context[pb.WatchJobRequest, pb.WatchJobResponse]
    ) -> AsyncIterator[pb.WatchJobResponse]:
        namespace = caller(context).namespace
        await self._record(request.id, context)
        with self._watches.hold(namespace) as admitted:
            if not admitted:
                await context.abort(
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    f"watches: namespace {namespace} has {self.limits.watches:,} WatchJob "
                    "streams open, the most this server allows one client; close one "
                    "(or poll GetJob)",
                )
            async with _store_available(context, "watching the job"):
                async for record in self.manager.watch(request.id, namespace):
                    yield pb.WatchJobResponse(job=job_message(record))

    async def CancelJob(
        self,
        request: pb.CancelJobRequest,
        context: Context[pb.CancelJobRequest, pb.CancelJobResponse],
    ) -> pb.CancelJobResponse:
        namespace = caller(context).namespace
        await self._record(request.id, context)
        try:
            async with _store_available(context, "the job was not cancelled"):
                record = await self.manager.cancel(request.id, namespace)
        except JobFinished as err:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(err))
        except JobNotFound as err:
            await context.abort(grpc.StatusCode.NOT_FOUND, str(err))
        return pb.CancelJobResponse(job=job_message(record))

    async def DeleteJob(
        self,
        request: pb.DeleteJobRequest,
        context: Context[pb.DeleteJobRequest, pb.DeleteJobResponse],
    ) -> pb.DeleteJobResponse:
        if not request.id:
            await _invalid(context, "id: is required")
        try:
            async with _store_available(context, "the job was not deleted"):
                await self.manager.delete(request.id, caller(context).namespace)
        except JobNotFound as err:
            await context.abort(grpc.StatusCode.NOT_FOUND, str(err))
        except JobUnfinished as err:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(err))
        return pb.DeleteJobResponse()


class GameService(game_pb_grpc.GameServiceServicer):
    """The built-in games, and game files checked against the engine; no state, no Ray."""

    async def ListGames(
        self,
        request: game_pb.ListGamesRequest,
        context: Context[game_pb.ListGamesRequest, game_pb.ListGamesResponse],
    ) -> game_pb.ListGamesResponse:
        return game_pb.ListGamesResponse(games=all_games())

    async def GetGame(
        self,
        request: game_pb.GetGameRequest,
        context: Context[game_pb.GetGameRequest, game_pb.GetGameResponse],
    ) -> game_pb.GetGameResponse:
        if not request.code:
            await _invalid(context, "code: is required")
        try:
            game = built_in_game(request.code)
        except GameNotFound as err:
            await context.abort(grpc.StatusCode.NOT_FOUND, str(err))
        return game_pb.GetGameResponse(game=game)

    async def CheckGame(
        self,
        request: game_pb.CheckGameRequest,
        context: Context[game_pb.CheckGameRequest, game_pb.CheckGameResponse],
    ) -> game_pb.CheckGameResponse:
        problem = text_problem(request.text)
        if problem is not None:
            await _invalid(context, problem)
        try:  # off the event loop: a large file takes milliseconds to check
            game = await asyncio.to_thread(checked_game, request.text)
        except GameFileError as err:
            await _invalid(context, str(err))
        except Exception:  # an engine bug: say so, never UNKNOWN with a traceback
            log.exception("CheckGame: checking a game file failed")
            await context.abort(
                grpc.StatusCode.INTERNAL, "text: the engine failed while checking this game file"
            )
        return game_pb.CheckGameResponse(game=game)


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
    store: str | None = None  # a postgresql:// URL; None keeps jobs.sqlite3 in data_dir
    tokens: Path | None = None  # the tokens file; None serves one open namespace
    insecure: bool = False  # serve a non-loopback address without tokens or a client CA
    tls: TlsFiles = field(default_factory=TlsFiles)
    limits: ClientLimits = field(default_factory=ClientLimits)
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    call_timeout: float = DEFAULT_CALL_TIMEOUT
    # HOST:PORT of a second, plaintext port serving only the health service (probes that
    # cannot speak TLS); None for none.
    health_listen: str | None = None
    # Days a finished job is kept before it is deleted with its shards; None keeps it.
    retention_days: float | None = None


class StartupError(RuntimeError):
    """The server cannot start: a busy port, a data directory in use, ... (one line)."""


def _host_port(text: str, what: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise StartupError(f"{what} must be HOST:PORT, got {echo(text)}")
    return host, int(port)


def _check_port_free(host: str, port: int, what: str) -> None:
    """Refuse a port another process listens on, before grpc's own bind.

    grpc binds with SO_REUSEPORT by default, and then a second server on a busy port
    starts and shares the port's requests with the first; the server also turns that
    option off, and this check gives the user one clear line instead of grpc's log.  The
    probe sets SO_REUSEADDR, as grpc and the metrics server do, so that a port left only
    with connections closing (TIME_WAIT, after a restart) is not taken for a busy one.
    """
    if port == 0:
        return
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    except OSError as err:
        raise StartupError(f"{what} {host}:{port}: cannot resolve the host: {err}") from None
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as err:
                raise StartupError(f"{what} {host}:{port}: {err.strerror}") from None


def _check_ready_file(path: Path) -> None:
    folder = path.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise StartupError(f"--ready-file {path}: its folder does not exist or is not writable")


def _check_ray_reachable(address: str) -> None:
    """Refuse a HOST:PORT --ray-address where nothing listens, before serving."""
    try:
        check_ray_reachable(address)
    except RayUnreachable as err:
        raise StartupError(str(err)) from None


def write_ready_file(path: Path, ready: Mapping[str, Any]) -> None:
    """Write the ready file whole or not at all: a reader never sees half of it."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(ready))
    os.replace(partial, path)


@dataclass
class _Started:
    """What serve() has started so far, stopped in reverse on the way out."""

    lock: DataDirLock | None = None
    store_lock: DataDirLock | None = None
    store: Store | None = None
    metrics_server: Any = None
    pool: ShardPool | None = None

    def stop(self) -> None:
        if self.metrics_server is not None:
            self.metrics_server.shutdown()
            self.metrics_server.server_close()
        if self.store_lock is not None:
            self.store_lock.release()
        if self.lock is not None:
            self.lock.release()


@dataclass(frozen=True)
class _HealthPort:
    """The plaintext health-only server of --health-listen, and the address it bound."""

    server: grpc.aio.Server
    address: str


def _method_names() -> tuple[list[str], list[str]]:
    """The unary and the streaming methods the server has (its metrics' ``method``)."""
    services: list[Any] = [
        pb.DESCRIPTOR.services_by_name["JobService"],
        game_pb.DESCRIPTOR.services_by_name["GameService"],
        verify_pb.DESCRIPTOR.services_by_name["VerifyService"],
        health_pb2.DESCRIPTOR.services_by_name["Health"],
        reflection_pb2.DESCRIPTOR.services_by_name["ServerReflection"],
    ]
    unary: list[str] = []
    streaming: list[str] = []
    for service in services:
        for method in service.methods:
            streams = method.client_streaming or method.server_streaming
            (streaming if streams else unary).append(method.name)
    return unary, streaming


def _health_port(host: str, port: int) -> _HealthPort:
    """A plaintext server for the health service alone (its servicer added later)."""
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    try:
        bound = server.add_insecure_port(f"{host}:{port}")
    except RuntimeError:
        raise StartupError(f"--health-listen {host}:{port}: cannot bind (in use?)") from None
    return _HealthPort(server, f"{host}:{bound}")


def _check_retention(days: float | None) -> None:
    if days is not None and not (0 < days <= 100_000):
        raise StartupError(f"--retention must lie in (0, 100000] days, got {days:g}")


async def _expire_old_jobs(manager: JobManager, days: float) -> None:
    """Delete the finished jobs older than ``days``, now and then periodically (hourly,
    or ten times per period when that is shorter); a store that is away is tried again
    at the next turn."""
    period = days * 86_400
    pause = max(1.0, min(RETENTION_CHECK_SECONDS, period / 10))
    while True:
        try:
            deleted = await manager.expire(time.time() - period)
        except StoreUnavailable as err:
            log.error("retention: old jobs not deleted now: %s", err)
        else:
            if deleted:
                log.info("retention: deleted %d jobs finished over %g days ago", deleted, days)
        await asyncio.sleep(pause)


async def _watch_certificate(path: Path, expires: datetime.datetime) -> None:
    """Log, daily while serving, a certificate that is about to expire or has expired."""
    while True:
        await asyncio.sleep(CERTIFICATE_CHECK_SECONDS)
        notice = expiry_notice(path, expires)
        if notice is not None:
            log.log(*notice)


def _start_chores(
    config: ServerConfig, manager: JobManager, expires: datetime.datetime | None
) -> list[asyncio.Task[None]]:
    """The server's background tasks: retention, the certificate's daily check."""
    chores: list[asyncio.Task[None]] = []
    loop = asyncio.get_running_loop()
    if config.retention_days is not None:
        chores.append(loop.create_task(_expire_old_jobs(manager, config.retention_days)))
    if config.tls.cert is not None and expires is not None:
        chores.append(loop.create_task(_watch_certificate(config.tls.cert, expires)))
    return chores


async def _stop_chores(chores: list[asyncio.Task[None]]) -> None:
    for chore in chores:
        chore.cancel()
    await asyncio.gather(*chores, return_exceptions=True)


async def serve(config: ServerConfig) -> None:
    """Run the service until SIGTERM or SIGINT; then stop cleanly, jobs left resumable.

    Everything that can be refused — the addresses, the data directory and its lock, the
    metrics and gRPC ports — is checked before Ray starts, and raises ``StartupError``.
    The server answers SERVING, and writes its ready file, only once the stored jobs are
    queued again.
    """
    host, port = _host_port(config.listen, "--listen")
    if not 1 <= config.max_trials <= MAX_TRIALS:
        raise StartupError(f"--max-trials must lie in 1..{MAX_TRIALS:,}, got {config.max_trials:,}")
    _check_retention(config.retention_days)
    health_at = (
        _host_port(config.health_listen, "--health-listen") if config.health_listen else None
    )
    try:
        tokens = None if config.tokens is None else TokensFile(config.tokens)
        credentials = server_credentials(config.tls)
        expires = None if config.tls.cert is None else check_certificate(config.tls.cert)
        check_exposure(
            host,
            tokens=tokens is not None,
            client_ca=config.tls.client_ca is not None,
            insecure=config.insecure,
        )
    except (TokensError, SecurityError) as err:
        raise StartupError(str(err)) from None
    metrics_at = (
        _host_port(config.metrics_listen, "--metrics-listen") if config.metrics_listen else None
    )
    started = _Started()
    try:
        try:
            started.lock = DataDirLock(config.data_dir)
            started.store_lock = store_lock(config.store, config.data_dir)
            started.store = store = open_store(config.store, config.data_dir)
        except StoreError as err:
            raise StartupError(str(err)) from None
        # Probe the ports with plain sockets now, and bind them for real only after Ray has
        # started: Ray forks its processes running Python code before exec, which is unsafe
        # while other threads (grpc's, the metrics server's) exist.
        if metrics_at is not None:
            _check_port_free(*metrics_at, "--metrics-listen")
        if health_at is not None:
            _check_port_free(*health_at, "--health-listen")
        _check_port_free(host, port, "--listen")
        if config.ray_address is not None:
            _check_ray_reachable(config.ray_address)
        if config.ready_file is not None:
            _check_ready_file(config.ready_file)
        ray_health = RayHealth()
        pool = ShardPool(
            config.workers,
            address=config.ray_address,
            max_in_flight=config.max_in_flight,
            on_connection=ray_health.changed,
        )
        started.pool = pool
        try:
            await pool.start()
        except DriverError as err:  # Ray's own errors: a timeout, an unreachable cluster, ...
            where = f"at {config.ray_address}" if config.ray_address else "(embedded)"
            raise StartupError(f"Ray {where} did not start: {err}") from None

        registry = CollectorRegistry()
        metrics = ServiceMetrics(registry, store.counts)
        metrics.known_methods(*_method_names())
        if expires is not None:
            metrics.certificate_expires(expires.timestamp())
        metrics_address = ""
        if metrics_at is not None:
            m_host, m_port = metrics_at
            try:
                started.metrics_server, _ = start_http_server(
                    m_port, addr=m_host, registry=registry
                )
            except OSError as err:
                raise StartupError(f"--metrics-listen {m_host}:{m_port}: {err.strerror}") from None
            metrics_address = f"{m_host}:{started.metrics_server.server_port}"
        server = grpc.aio.server(
            interceptors=server_interceptors(metrics, tokens, config.call_timeout),
            options=[
                ("grpc.so_reuseport", 0),
                ("grpc.max_receive_message_length", config.max_message_bytes),
                # Connections of clients that went away unannounced end within minutes.
                ("grpc.keepalive_time_ms", 60_000),
                ("grpc.keepalive_timeout_ms", 20_000),
            ],
        )
        try:
            if credentials is None:
                bound = server.add_insecure_port(f"{host}:{port}")
            else:
                bound = server.add_secure_port(f"{host}:{port}", credentials)
        except RuntimeError:
            raise StartupError(f"--listen {host}:{port}: cannot bind (address in use?)") from None
        health_port = None if health_at is None else _health_port(*health_at)

        metrics.shards_in_flight.set_function(lambda: pool.in_flight)
        ray_health.gauge = Gauge(
            "cardroom_ray_connected",
            "1 while the service has its Ray cluster, 0 while it is reconnecting.",
            registry=registry,
        )
        ray_health.gauge.set(1 if pool.connected else 0)
        scheduler = FairScheduler(
            pool.max_in_flight,
            weight_of=_namespace_weights(tokens),
            registry=registry,
        )
        manager = JobManager(
            store, pool, metrics, max_trials=config.max_trials, scheduler=scheduler
        )
        started.store = None  # the manager closes it, after its jobs stop

        chores = _start_chores(config, manager, expires)
        try:
            await _serve_jobs(
                config,
                server,
                manager,
                f"{host}:{bound}",
                metrics_address,
                ray_health,
                health_port=health_port,
            )
        finally:
            await _stop_chores(chores)
            await manager.close()
    finally:
        if started.store is not None:
            started.store.close()
        if started.pool is not None:
            await started.pool.close()
        started.stop()


@dataclass
class RayHealth:
    """The Ray connection's state as the health service and a gauge tell it: NOT_SERVING
    while the pool reconnects (jobs wait meanwhile), SERVING again once Ray is back."""

    servicer: health.aio.HealthServicer | None = None
    names: tuple[str, ...] = ()
    gauge: Gauge | None = None
    connected: bool = True
    _pending: set[asyncio.Task[None]] = field(default_factory=set)

    def changed(self, connected: bool) -> None:
        self.connected = connected
        if self.gauge is not None:
            self.gauge.set(1 if connected else 0)
        if connected:
            log.info("Ray connected: serving")
        else:
            log.error("Ray lost: health NOT_SERVING until it is back; jobs wait")
        if self.servicer is not None:
            task = asyncio.get_running_loop().create_task(self.publish())
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    async def publish(self) -> None:
        if self.servicer is None:
            return
        status = (
            health_pb2.HealthCheckResponse.SERVING
            if self.connected
            else health_pb2.HealthCheckResponse.NOT_SERVING
        )
        for name in self.names:
            await self.servicer.set(name, status)


def _namespace_weights(tokens: TokensFile | None) -> Callable[[str], int]:
    """Each namespace's share of the workers: its tokens' ``weight=N``, else 1."""
    weight = getattr(tokens, "weight", None)
    if weight is None:
        return lambda _namespace: 1
    return cast(Callable[[str], int], weight)


async def _serve_jobs(
    config: ServerConfig,
    server: grpc.aio.Server,
    manager: JobManager,
    address: str,
    metrics_address: str,
    ray_health: RayHealth,
    *,
    health_port: _HealthPort | None = None,
) -> None:
    """Resume the stored jobs, serve until a stop signal, then stop serving."""
    pb_grpc.add_JobServiceServicer_to_server(JobService(manager, config.limits), server)
    game_pb_grpc.add_GameServiceServicer_to_server(GameService(), server)
    verify_pb_grpc.add_VerifyServiceServicer_to_server(VerifyService(), server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    if health_port is not None:  # the same servicer: both ports answer alike
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, health_port.server)
    services = (SERVICE_NAME, GAME_SERVICE_NAME, VERIFY_SERVICE_NAME)
    reflection.enable_server_reflection(
        (*services, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    for name in ("", *services):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
    resumed, failed = await manager.resume()
    await server.start()
    if health_port is not None:
        await health_port.server.start()
    try:
        # SERVING while the process serves, whatever Ray's state: what a liveness probe asks.
        await health_servicer.set(LIVENESS, health_pb2.HealthCheckResponse.SERVING)
        # From now on the Ray connection decides: SERVING while connected.
        ray_health.servicer, ray_health.names = health_servicer, ("", *services)
        await ray_health.publish()
        log.info(
            "serving on %s (%s, %s; metrics %s); resumed %d jobs, %d could not resume",
            address,
            "TLS" if config.tls.cert is not None else "plaintext",
            "bearer tokens" if config.tokens is not None else "open, without tokens",
            metrics_address or "off",
            resumed,
            failed,
        )
        if config.ready_file is not None:
            ready = {"address": address, "metrics": metrics_address, "pid": os.getpid()}
            if health_port is not None:
                ready["health"] = health_port.address
            try:
                write_ready_file(config.ready_file, ready)
            except OSError as err:
                raise StartupError(f"--ready-file {config.ready_file}: {err.strerror}") from None
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        signals = (signal.SIGTERM, signal.SIGINT)
        for sig in signals:
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        for sig in signals:  # a second signal while stopping ends the process at once
            loop.remove_signal_handler(sig)
        log.info("stopping")
        await health_servicer.enter_graceful_shutdown()
    finally:
        if health_port is not None:
            await health_port.server.stop(grace=None)
        await server.stop(grace=2)
