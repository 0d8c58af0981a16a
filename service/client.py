"""Client commands of the ``cardroom`` CLI: submit, status, result, cancel, list; and the
Verify call for checking scenario files on a server."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC
from pathlib import Path
from typing import Any, Protocol, cast

import grpc
from tqdm import tqdm

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.api.cardroom.v1 import verify_service_pb2 as vpb
from service.api.cardroom.v1 import verify_service_pb2_grpc as vpb_grpc
from service.convert import ConversionError, mapping_to_spec, result_to_report, spec_to_mapping
from service.jobfile import JobFileError, job_from_mapping, read_job_mapping
from service.kinds import KINDS, draw, render
from simulations.spec import SpecError

DEFAULT_ADDRESS = "127.0.0.1:50051"
CONNECT_TIMEOUT = 5.0  # seconds to wait for a server before giving up
VERIFY_TIMEOUT = 600.0  # seconds a Verify call may take (the server's limits keep it far less)
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
STATE_NAMES = {value: name.removeprefix("JOB_STATE_").lower() for name, value in
               pb.JobState.items()}  # fmt: skip
FINISHED = {pb.JOB_STATE_SUCCEEDED, pb.JOB_STATE_FAILED, pb.JOB_STATE_CANCELLED}


class ClientError(Exception):
    """A failed command: the message to print and the exit code."""

    def __init__(self, message: str, code: int = EXIT_FAILED) -> None:
        super().__init__(message)
        self.code = code


class JobServiceClient(Protocol):
    """The JobService stub with its calls typed.

    grpcio-tools writes .pyi stubs for the messages but none for ``*_pb2_grpc``, so the
    generated :class:`JobServiceStub` sets these attributes in an unannotated
    ``__init__``; :func:`connect` casts the stub to this.
    """

    SubmitJob: grpc.UnaryUnaryMultiCallable[pb.SubmitJobRequest, pb.SubmitJobResponse]
    GetJob: grpc.UnaryUnaryMultiCallable[pb.GetJobRequest, pb.GetJobResponse]
    ListJobs: grpc.UnaryUnaryMultiCallable[pb.ListJobsRequest, pb.ListJobsResponse]
    WatchJob: grpc.UnaryStreamMultiCallable[pb.WatchJobRequest, pb.WatchJobResponse]
    CancelJob: grpc.UnaryUnaryMultiCallable[pb.CancelJobRequest, pb.CancelJobResponse]


class VerifyServiceClient(Protocol):
    """The VerifyService stub with its call typed (see :class:`JobServiceClient`)."""

    Verify: grpc.UnaryUnaryMultiCallable[vpb.VerifyRequest, vpb.VerifyResponse]


@dataclass(frozen=True)
class Target:
    """A server and how to reach it: its address, the bearer token to send (None: none),
    and for TLS the CA that signed the server's certificate (None with ``tls`` set: the
    system's CAs) and, for mutual TLS, this client's certificate and key."""

    address: str = DEFAULT_ADDRESS
    token: str | None = None
    tls: bool = False
    tls_ca: Path | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None


@dataclass(frozen=True)
class _CallDetails(grpc.ClientCallDetails):
    method: str
    timeout: float | None
    metadata: tuple[tuple[str, str | bytes], ...] | None
    credentials: grpc.CallCredentials | None
    wait_for_ready: bool | None
    compression: grpc.Compression | None


class _Bearer(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):
    """Sends ``authorization: Bearer TOKEN`` with every call, over TLS or plaintext alike
    (grpc's own call credentials refuse a plaintext channel)."""

    def __init__(self, token: str) -> None:
        self._entry = ("authorization", f"Bearer {token}")

    def _details(self, details: grpc.ClientCallDetails) -> _CallDetails:
        return _CallDetails(
            details.method,
            details.timeout,
            (*(details.metadata or ()), self._entry),
            details.credentials,
            getattr(details, "wait_for_ready", None),
            getattr(details, "compression", None),
        )

    def intercept_unary_unary(
        self, continuation: Callable[..., Any], client_call_details: Any, request: Any
    ) -> Any:
        return continuation(self._details(client_call_details), request)

    def intercept_unary_stream(
        self, continuation: Callable[..., Any], client_call_details: Any, request: Any
    ) -> Any:
        return continuation(self._details(client_call_details), request)


def _read(path: Path, flag: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        message = f"{flag} {path}: cannot read it: {err.strerror}"
        raise ClientError(message, EXIT_BAD_INPUT) from None


def open_channel(target: Target) -> grpc.Channel:
    """A channel to the target: TLS when asked for (or a CA or certificate is given), with
    the bearer token on every call when there is one."""
    if (target.tls_cert is None) != (target.tls_key is None):
        raise ClientError("--tls-cert and --tls-key go together: give both", EXIT_BAD_INPUT)
    if target.tls or target.tls_ca is not None or target.tls_cert is not None:
        credentials = grpc.ssl_channel_credentials(
            root_certificates=None if target.tls_ca is None else _read(target.tls_ca, "--tls-ca"),
            private_key=None if target.tls_key is None else _read(target.tls_key, "--tls-key"),
            certificate_chain=(
                None if target.tls_cert is None else _read(target.tls_cert, "--tls-cert")
            ),
        )
        channel = grpc.secure_channel(target.address, credentials)
    else:
        channel = grpc.insecure_channel(target.address)
    if target.token is not None:
        channel = grpc.intercept_channel(channel, _Bearer(target.token))
    return channel


def _target(target: Target | str) -> Target:
    return Target(target) if isinstance(target, str) else target


def _unreachable(target: Target) -> str:
    tls = target.tls or target.tls_ca is not None or target.tls_cert is not None
    hint = (
        "is it serving TLS, with a certificate --tls-ca signed?"
        if tls
        else "a server with TLS needs --tls-ca"
    )
    return f"cannot reach a cardroom server at {target.address} ({hint})"


def _failure(err: grpc.RpcError) -> str:
    return f"{err.code().name}: {err.details()}"


@contextmanager
def connect(target: Target | str) -> Iterator[JobServiceClient]:
    target = _target(target)
    channel = open_channel(target)
    try:
        try:
            grpc.channel_ready_future(channel).result(timeout=CONNECT_TIMEOUT)
        except grpc.FutureTimeoutError:
            raise ClientError(_unreachable(target)) from None
        # The generated stub is untyped (see JobServiceClient).
        yield cast(JobServiceClient, pb_grpc.JobServiceStub(channel))
    except grpc.RpcError as err:
        code = err.code()
        exit_code = EXIT_BAD_INPUT if code == grpc.StatusCode.INVALID_ARGUMENT else EXIT_FAILED
        raise ClientError(_failure(err), exit_code) from None
    finally:
        channel.close()


def verify(
    target: Target | str, files: Sequence[tuple[str, str]], timeout: float = VERIFY_TIMEOUT
) -> vpb.VerifyResponse:
    """Check scenario files, each (the name to report it as, its TOML text), on the server at
    ``address``: one report per file, the totals, and the exit status ``cardroom verify``
    would give (:func:`service.verify_service.file_reports` reads the reports back).

    A call that fails — no server, a request refused, the deadline passed — is a
    :class:`ClientError` with exit code 2: the files could not be checked, which ``cardroom
    verify`` reports as it does a malformed file, never as a failed expectation (1).
    """
    request = vpb.VerifyRequest(files=[vpb.ScenarioFile(name=n, text=t) for n, t in files])
    target = _target(target)
    channel = open_channel(target)
    try:
        try:
            grpc.channel_ready_future(channel).result(timeout=CONNECT_TIMEOUT)
        except grpc.FutureTimeoutError:
            raise ClientError(_unreachable(target), EXIT_BAD_INPUT) from None
        stub = cast(VerifyServiceClient, vpb_grpc.VerifyServiceStub(channel))
        try:
            return stub.Verify(request, timeout=timeout)
        except grpc.RpcError as err:
            raise ClientError(_failure(err), EXIT_BAD_INPUT) from None
    finally:
        channel.close()


def job_spec_from_file(path: str) -> pb.JobSpec:
    """Read and check a job file locally, then express it as the API's JobSpec."""
    mapping = read_job_mapping(Path(path))
    try:
        job_from_mapping(mapping)
        return mapping_to_spec(mapping)
    except (SpecError, ConversionError) as err:
        raise JobFileError(f"{path}: {err}") from None


def describe(job: pb.Job) -> str:
    p = job.progress
    state = STATE_NAMES[job.state]
    lines = [
        f"job {job.id}  {job.kind}  {state}",
        f"  shards  {p.shards_done:,} / {p.shards_total:,}",
        f"  trials  {p.trials_done:,} / {p.trials_total:,}",
        f"  seed    {job.spec.seed}",
    ]
    if job.error:
        lines.append(f"  error   {job.error}")
    return "\n".join(lines)


def report_of(job: pb.Job) -> dict[str, Any]:
    return result_to_report(job.result, job.spec.seed)


def _iso(stamp: Any) -> str:
    return str(stamp.ToDatetime(tzinfo=UTC).isoformat(timespec="milliseconds"))


def job_summary(job: pb.Job) -> dict[str, Any]:
    """A job as the CLI's JSON: the conventions of `cardroom run --json` (snake_case keys,
    counts as numbers, null for what is absent), with the state as a lowercase word and
    the estimate and result as the same flat reports."""
    p = job.progress
    seed = job.spec.seed
    return {
        "id": job.id,
        "kind": job.kind,
        "state": STATE_NAMES[job.state],
        "seed": seed,
        "shards_done": p.shards_done,
        "shards_total": p.shards_total,
        "trials_done": p.trials_done,
        "trials_total": p.trials_total,
        "created": _iso(job.create_time),
        "updated": _iso(job.update_time),
        "error": job.error or None,
        "estimate": result_to_report(p.estimate, seed) if p.HasField("estimate") else None,
        "result": report_of(job) if job.HasField("result") else None,
    }


def finished_report(job: pb.Job) -> dict[str, Any]:
    if job.state == pb.JOB_STATE_SUCCEEDED:
        return report_of(job)
    if job.state == pb.JOB_STATE_FAILED:
        raise ClientError(f"job {job.id} failed: {job.error}")
    if job.state == pb.JOB_STATE_CANCELLED:
        raise ClientError(f"job {job.id} was cancelled")
    p = job.progress
    raise ClientError(
        f"job {job.id} is {STATE_NAMES[job.state]} ({p.shards_done}/{p.shards_total} shards); "
        f"no result yet"
    )


def print_report(job: pb.Job, as_json: bool, plot: Path | None = None) -> None:
    """Print a finished job's result (as JSON, or rendered); draw it to ``plot`` if given."""
    report = finished_report(job)
    if as_json and plot is None:
        print(json.dumps(report))
        return
    try:
        local = job_from_mapping(spec_to_mapping(job.spec))
    except SpecError as err:  # a kind or setting this client does not know
        raise ClientError(
            f"job {job.id}: cannot show a {job.kind} result here ({err}); try --json"
        ) from None
    print(json.dumps(report) if as_json else render(local, report))
    if plot is not None:
        draw(local, report, plot)


class Detached(Exception):
    """The user stopped following a job (Ctrl-C); the job goes on on the server."""

    def __init__(self, job: pb.Job, address: str) -> None:
        at = f" --address {address}" if address else ""
        super().__init__(
            f"stopped following job {job.id}; it keeps running on the server. "
            f"Follow it again with `cardroom watch {job.id}{at}`, "
            f"or stop it with `cardroom cancel {job.id}{at}`."
        )
        self.job = job


def follow(stub: JobServiceClient, job: pb.Job, show_bar: bool, address: str = "") -> pb.Job:
    """Stream the job until it ends, drawing a progress bar with rate and ETA.

    Ctrl-C raises :class:`Detached`, which tells how to follow or cancel the job.
    """
    kind = KINDS.get(job.kind)
    unit = kind.trial_unit if kind is not None else "trial"
    note = kind.progress_note if kind is not None else None
    bar = tqdm(
        total=job.progress.trials_total, unit=unit, unit_scale=True, disable=not show_bar,
        file=sys.stderr, dynamic_ncols=True,
    )  # fmt: skip
    stream = stub.WatchJob(pb.WatchJobRequest(id=job.id))
    try:
        for message in stream:
            job = message.job
            bar.update(job.progress.trials_done - bar.n)
            estimate = job.progress.estimate
            if note is not None and estimate.WhichOneof("kind") == job.kind:
                text = note(result_to_report(estimate, job.spec.seed))
                if text:
                    bar.set_postfix_str(text, refresh=False)
            if job.state in FINISHED:
                break
    except KeyboardInterrupt:
        stream.cancel()
        raise Detached(job, address) from None
    finally:
        bar.close()
    return job
