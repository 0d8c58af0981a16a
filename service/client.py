"""Client commands of the ``cardroom`` CLI: submit, status, result, cancel, delete, list; and the
Verify call for checking scenario files on a server."""

from __future__ import annotations

import json
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from service.connection import diagnose, nothing_listening
from service.lazy import lazy

if TYPE_CHECKING:
    import grpc

    from service.api.cardroom.v1 import job_service_pb2 as pb
    from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
    from service.api.cardroom.v1 import verify_service_pb2 as vpb
    from service.api.cardroom.v1 import verify_service_pb2_grpc as vpb_grpc
else:
    # Imported on first use (service/lazy.py): `cardroom --help` and `token` need none of
    # them, and the job file's checks (the engine, numba) only `submit` and `run` need.
    grpc = lazy("grpc")
    pb = lazy("service.api.cardroom.v1.job_service_pb2")
    pb_grpc = lazy("service.api.cardroom.v1.job_service_pb2_grpc")
    vpb = lazy("service.api.cardroom.v1.verify_service_pb2")
    vpb_grpc = lazy("service.api.cardroom.v1.verify_service_pb2_grpc")

DEFAULT_ADDRESS = "127.0.0.1:50051"
CONNECT_TIMEOUT = 5.0  # seconds to wait for a server before giving up
PROBE_AFTER = 0.5  # seconds before a channel that is not ready is looked into
VERIFY_TIMEOUT = 600.0  # seconds a Verify call may take (the server's limits keep it far less)
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
# The JobState values by their word, as the CLI prints and takes them (``list --state``):
# written out so that parsing the command line needs no generated module.
# tests/test_cli_csv_and_batches.py holds them to the proto's enum.
STATES = ("unspecified", "queued", "running", "succeeded", "failed", "cancelled")
STATE_NAMES = dict(enumerate(STATES))
FINISHED = frozenset(STATES.index(word) for word in ("succeeded", "failed", "cancelled"))


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
    DeleteJob: grpc.UnaryUnaryMultiCallable[pb.DeleteJobRequest, pb.DeleteJobResponse]


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


@cache
def _bearer_class() -> type[Any]:
    """The interceptor that sends ``authorization: Bearer TOKEN`` with every call, over TLS
    or plaintext alike (grpc's own call credentials refuse a plaintext channel).  Defined
    on first use: its bases are grpc's, which a command without a server never imports."""

    @dataclass(frozen=True)
    class CallDetails(grpc.ClientCallDetails):
        method: str
        timeout: float | None
        metadata: tuple[tuple[str, str | bytes], ...] | None
        credentials: grpc.CallCredentials | None
        wait_for_ready: bool | None
        compression: grpc.Compression | None

    class Bearer(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):
        def __init__(self, token: str) -> None:
            self._entry = ("authorization", f"Bearer {token}")

        def _details(self, details: grpc.ClientCallDetails) -> CallDetails:
            return CallDetails(
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

    return Bearer


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
        channel = grpc.intercept_channel(channel, _bearer_class()(target.token))
    return channel


def _target(target: Target | str) -> Target:
    return Target(target) if isinstance(target, str) else target


def _uses_tls(target: Target) -> bool:
    return target.tls or target.tls_ca is not None or target.tls_cert is not None


def wait_ready(channel: grpc.Channel, target: Target, code: int = EXIT_FAILED) -> None:
    """Wait for the channel to connect, or raise a :class:`ClientError` saying why not.

    Nothing listening is told at once (service/connection.py).  A channel still not ready
    after :data:`PROBE_AFTER` seconds gets a TLS handshake of the client's own, which names
    a missing or untrusted certificate, or TLS on one side only, without waiting out
    :data:`CONNECT_TIMEOUT`; grpc gives no reason of its own.
    """
    refused = nothing_listening(target.address)
    if refused is not None:
        raise ClientError(refused, code)
    ready = grpc.channel_ready_future(channel)
    started = time.monotonic()
    probed = False
    try:
        while (waited := time.monotonic() - started) < CONNECT_TIMEOUT:
            try:
                ready.result(timeout=min(0.1, CONNECT_TIMEOUT - waited))
                return
            except grpc.FutureTimeoutError:
                pass
            if not probed and time.monotonic() - started >= PROBE_AFTER:
                probed = True
                why = diagnose(
                    target.address,
                    tls=_uses_tls(target),
                    ca=target.tls_ca,
                    cert=target.tls_cert,
                    key=target.tls_key,
                )
                if why is not None:
                    raise ClientError(why, code)
    finally:
        ready.cancel()
    raise ClientError(
        f"cannot reach a cardroom server at {target.address}: something listens there but "
        f"did not answer as a gRPC server in {CONNECT_TIMEOUT:g} s",
        code,
    )


def _failure(err: grpc.RpcError) -> str:
    return f"{err.code().name}: {err.details()}"


@contextmanager
def connect(target: Target | str) -> Iterator[JobServiceClient]:
    target = _target(target)
    channel = open_channel(target)
    try:
        wait_ready(channel, target)
        # The generated stub is untyped (see JobServiceClient).
        yield cast(JobServiceClient, pb_grpc.JobServiceStub(channel))
    except grpc.RpcError as err:
        code = err.code()
        exit_code = EXIT_BAD_INPUT if code == grpc.StatusCode.INVALID_ARGUMENT else EXIT_FAILED
        raise ClientError(_failure(err), exit_code) from None
    finally:
        _close(channel)


CLOSE_TIMEOUT = 5.0  # seconds a channel may take to close before the command goes on


def _close(channel: grpc.Channel) -> None:
    """Close the channel, giving up after :data:`CLOSE_TIMEOUT` s.  grpc's close waits for
    the channel's calls to end, and a Ctrl-C that landed inside grpc's own bookkeeping of a
    call can leave one that never does; the command must still end (the process's exit
    closes the connection)."""
    closing = threading.Thread(target=channel.close, name="close-channel", daemon=True)
    closing.start()
    closing.join(CLOSE_TIMEOUT)


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
        wait_ready(channel, target, EXIT_BAD_INPUT)
        stub = cast(VerifyServiceClient, vpb_grpc.VerifyServiceStub(channel))
        try:
            return stub.Verify(request, timeout=timeout)
        except grpc.RpcError as err:
            raise ClientError(_failure(err), EXIT_BAD_INPUT) from None
    finally:
        _close(channel)


def job_spec_from_file(path: str) -> pb.JobSpec:
    """Read and check a job file locally, then express it as the API's JobSpec."""
    from service.convert import ConversionError, mapping_to_spec
    from service.jobfile import JobFileError, job_from_mapping, read_job_mapping
    from simulations.spec import SpecError

    mapping = read_job_mapping(Path(path))
    try:
        job_from_mapping(mapping)
        return mapping_to_spec(mapping)
    except (SpecError, ConversionError) as err:
        raise JobFileError(f"{path}: {err}") from None


def job_file_field(message: str, spec: pb.JobSpec) -> str:
    """A server's refusal of ``spec`` in the job file's words: ``spec.trials`` is the kind's
    trial count (``hands``), ``spec.<kind>.table.players`` is ``table.players``, ``spec.seed``
    is ``seed`` (service.convert.api_field gives the other way)."""
    from service.kinds import KINDS

    kind = spec.WhichOneof("kind")
    entry = KINDS.get(kind) if kind is not None else None
    if entry is not None and message.startswith("spec.trials:"):
        return entry.trials_field + message.removeprefix("spec.trials")
    if kind is not None and message.startswith(f"spec.{kind}."):
        return message.removeprefix(f"spec.{kind}.")
    return message.removeprefix("spec.")


def submit(stub: JobServiceClient, spec: pb.JobSpec, path: str) -> pb.Job:
    """Submit a checked job file's spec; a refusal of one of its fields (the server's own
    limits, say) is told as a job file's error is: the file, the field, exit code 2."""
    try:
        return stub.SubmitJob(pb.SubmitJobRequest(spec=spec)).job
    except grpc.RpcError as err:
        if err.code() != grpc.StatusCode.INVALID_ARGUMENT:
            raise
        message = f"{path}: {job_file_field(err.details() or '', spec)}"
        raise ClientError(message, EXIT_BAD_INPUT) from None


def _progress_words(job: pb.Job) -> str:
    p = job.progress
    return f"{p.trials_done:,} of {p.trials_total:,} trials"


def describe(job: pb.Job) -> str:
    """A job's state and progress; a queued or running job's running estimate under it, as
    its kind renders a result (the figures so far, from the shards finished)."""
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
    if job.state == pb.JOB_STATE_QUEUED and not p.trials_done:
        lines.append("  queued: waiting for the jobs before it to take their worker slots")
    if job.state not in FINISHED and p.HasField("estimate"):
        estimate = _rendered(job, estimate_of(job))
        if estimate is not None:
            lines.append(f"  running estimate, from {_progress_words(job)} so far:")
            lines.extend("    " + line for line in estimate.splitlines())
    return "\n".join(lines)


def estimate_of(job: pb.Job) -> dict[str, Any]:
    from service.convert import result_to_report

    return result_to_report(job.progress.estimate, job.spec.seed)


def report_of(job: pb.Job) -> dict[str, Any]:
    from service.convert import result_to_report

    return result_to_report(job.result, job.spec.seed, spec=job.spec)


def _rendered(job: pb.Job, report: dict[str, Any]) -> str | None:
    """The report as the job's kind renders it; None for a kind this client does not know."""
    from service.convert import spec_to_mapping
    from service.jobfile import job_from_mapping
    from service.kinds import render
    from simulations.spec import SpecError

    try:
        local = job_from_mapping(spec_to_mapping(job.spec))
    except SpecError:
        return None
    return render(local, report)


def _iso(stamp: Any) -> str:
    return str(stamp.ToDatetime(tzinfo=UTC).isoformat(timespec="milliseconds"))


# The columns of a job in `status --csv` and `list --csv` (job_summary's plain fields).
SUMMARY_COLUMNS = (
    "id",
    "kind",
    "state",
    "seed",
    "shards_done",
    "shards_total",
    "trials_done",
    "trials_total",
    "created",
    "updated",
    "error",
)


def job_row(job: pb.Job) -> dict[str, Any]:
    """A job's plain fields (:data:`SUMMARY_COLUMNS`): no estimate or result, so that a
    list of jobs needs no engine to print."""
    p = job.progress
    return {
        "id": job.id,
        "kind": job.kind,
        "state": STATE_NAMES[job.state],
        "seed": job.spec.seed,
        "shards_done": p.shards_done,
        "shards_total": p.shards_total,
        "trials_done": p.trials_done,
        "trials_total": p.trials_total,
        "created": _iso(job.create_time),
        "updated": _iso(job.update_time),
        "error": job.error or None,
    }


def job_summary(job: pb.Job) -> dict[str, Any]:
    """A job as the CLI's JSON: the conventions of `cardroom run --json` (snake_case keys,
    counts as numbers, null for what is absent), with the state as a lowercase word and
    the estimate and result as the same flat reports."""
    return {
        **job_row(job),
        "estimate": estimate_of(job) if job.progress.HasField("estimate") else None,
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


def print_report(
    job: pb.Job, as_json: bool, plot: Path | None = None, *, as_csv: bool = False
) -> None:
    """Print a finished job's result (as JSON, CSV or rendered); draw it to ``plot`` if
    given."""
    report = finished_report(job)
    if plot is None and (as_json or as_csv):
        _print_flat(report, as_csv)
        return
    from service.convert import spec_to_mapping
    from service.jobfile import job_from_mapping
    from service.kinds import draw, render
    from simulations.spec import SpecError

    try:
        local = job_from_mapping(spec_to_mapping(job.spec))
    except SpecError as err:  # a kind or setting this client does not know
        raise ClientError(
            f"job {job.id}: cannot show a {job.kind} result here ({err}); try --json"
        ) from None
    if as_json or as_csv:
        _print_flat(report, as_csv)
    else:
        print(render(local, report))
    if plot is not None:
        draw(local, report, plot)


def _print_flat(report: dict[str, Any], as_csv: bool) -> None:
    if as_csv:
        from service.csv_out import write_report

        write_report(report, sys.stdout)
    else:
        print(json.dumps(report))


def _again(job_id: str, address: str) -> tuple[str, str]:
    at = f" --address {address}" if address else ""
    return f"`cardroom watch {job_id}{at}`", f"`cardroom cancel {job_id}{at}`"


class Detached(Exception):
    """The user stopped following a job (Ctrl-C); the job goes on on the server."""

    def __init__(self, job: pb.Job, address: str, also: Sequence[str] = ()) -> None:
        watch, cancel = _again(job.id, address)
        others = f" So do {', '.join(also)}." if also else ""
        super().__init__(
            f"stopped following job {job.id}; it keeps running on the server. "
            f"Follow it again with {watch}, or stop it with {cancel}.{others}"
        )
        self.job = job


class ServerLost(ClientError):
    """The server went away while a job was followed; the job is stored, and resumes from
    its finished shards when the server starts again."""

    def __init__(self, job: pb.Job, address: str) -> None:
        watch, _ = _again(job.id, address)
        super().__init__(
            f"lost the server while following job {job.id}; the job resumes when the server "
            f"starts again, and {watch} follows it again."
        )
        self.job = job


def follow(stub: JobServiceClient, job: pb.Job, show_bar: bool, address: str = "") -> pb.Job:
    """Stream the job until it ends, drawing a progress bar with rate and ETA from the
    trials already done (a job followed again starts where it is), and "queued" while it
    waits its turn.

    Ctrl-C raises :class:`Detached`, which tells how to follow or cancel the job; a server
    that goes away raises :class:`ServerLost`, which tells how to follow it again.
    """
    bar: Any = None
    stream: Any = None
    try:  # from the first moment: Ctrl-C while the bar is being set up detaches too
        from tqdm import tqdm

        from service.kinds import KINDS

        kind = KINDS.get(job.kind)
        unit = kind.trial_unit if kind is not None else "trial"
        note = kind.progress_note if kind is not None else None
        bar = tqdm(
            total=job.progress.trials_total, initial=job.progress.trials_done,
            desc=_queued(job), unit=unit, unit_scale=True, disable=not show_bar,
            file=sys.stderr, dynamic_ncols=True,
        )  # fmt: skip
        stream = _Stream(stub, job.id)
        for job in stream.updates():
            _show_queued(bar, job)
            bar.update(job.progress.trials_done - bar.n)
            estimate = job.progress.estimate
            if note is not None and estimate.WhichOneof("kind") == job.kind:
                text = note(estimate_of(job))
                if text:
                    bar.set_postfix_str(text, refresh=False)
            if job.state in FINISHED:
                break
    except KeyboardInterrupt:
        if stream is not None:
            stream.cancel()
        raise Detached(job, address) from None
    except grpc.RpcError as err:
        if err.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED):
            raise ServerLost(job, address) from None
        raise
    finally:
        if bar is not None:
            bar.close()
    return job


class _Stream:
    """A job's WatchJob stream, opened and read by a thread of its own.

    Ctrl-C raises KeyboardInterrupt in the main thread wherever it is; inside grpc's own
    code (a stream being opened, or waiting for its next message) it can leave the call's
    state half changed, and the cancel and the channel's close after it then wait forever.
    Here the main thread only waits on a queue, and grpc's code runs where no interrupt
    lands; :meth:`cancel` ends the stream from the main thread, opened or not yet.
    """

    def __init__(self, stub: JobServiceClient, job_id: str) -> None:
        self._stub = stub
        self._job_id = job_id
        self._lock = threading.Lock()
        self._call: Any = None
        self._cancelled = False
        self._queue: queue.Queue[tuple[pb.Job | None, BaseException | None]] = queue.Queue()
        threading.Thread(target=self._pump, name="watch-stream", daemon=True).start()

    def _pump(self) -> None:
        try:
            call = self._stub.WatchJob(pb.WatchJobRequest(id=self._job_id))
            with self._lock:
                self._call = call
                cancelled = self._cancelled
            if cancelled:
                call.cancel()
                return
            for message in call:
                self._queue.put((message.job, None))
        except Exception as err:  # handed to the main thread, which raises it
            self._queue.put((None, err))
        else:
            self._queue.put((None, None))

    def updates(self) -> Iterator[pb.Job]:
        """The job as each message brings it, until the stream ends; its error raised."""
        while True:
            try:
                job, err = self._queue.get(timeout=0.25)
            except queue.Empty:
                continue
            if err is not None:
                raise err
            if job is None:
                return
            yield job

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            call = self._call
        if call is not None:
            call.cancel()


def _queued(job: pb.Job) -> str:
    """'queued' before the bar while the job waits for worker slots; nothing once it runs."""
    return "queued" if job.state == pb.JOB_STATE_QUEUED else ""


def _show_queued(bar: Any, job: pb.Job) -> None:
    words = _queued(job)
    if words != (getattr(bar, "desc", None) or ""):  # a disabled bar has none
        bar.set_description_str(words)
