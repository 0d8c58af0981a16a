"""The ``cardroom`` command line.

``cardroom run`` runs a job on this machine without a server; ``cardroom serve`` starts
the gRPC service; ``submit``, ``status``, ``watch``, ``result``, ``cancel`` and ``list``
talk to a server at ``--address`` (before or after the command) or ``$CARDROOM_ADDRESS``
(default 127.0.0.1:50051).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from service import cli_auth, cli_phh, cli_verify, client
from service.lazy import lazy, quiet_grpc
from service.limits import (
    DEFAULT_CALL_TIMEOUT,
    DEFAULT_MAX_JOBS,
    DEFAULT_MAX_MESSAGE_BYTES,
    DEFAULT_MAX_WATCHES,
    ClientLimits,
)

if TYPE_CHECKING:
    from service.api.cardroom.v1 import job_service_pb2 as pb
    from simulations.engine.variants import Variant
    from workers.job import Job
    from workers.runner import Progress
else:
    # The engine, numba, numpy, grpc and Ray load only for the commands that use them
    # (service/lazy.py): `cardroom --help`, `token` and the client commands start at once.
    pb = lazy("service.api.cardroom.v1.job_service_pb2")

EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # the shell's code for a command ended by Ctrl-C (128 + SIGINT)


def _positive(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 86_400:
        raise argparse.ArgumentTypeError(f"must lie in (0, 86400] seconds, got {text}")
    return value


def _days(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of days") from None
    if not 0 < value <= 100_000:
        raise argparse.ArgumentTypeError(f"must lie in (0, 100000] days, got {text}")
    return value


# What a shell reports for a program ended by SIGPIPE (128 + 13): the output was cut short.
EXIT_BROKEN_PIPE = 141


def _version() -> str:
    """The installed distribution's version (the source tree's, run without installing)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardroom")
    except PackageNotFoundError:
        return "(not installed)"


class _Version(argparse.Action):
    """``--version``: the version is looked up only when asked for (importlib.metadata
    would otherwise cost every command its import)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        sys.stdout.write(f"cardroom {_version()}\n")
        parser.exit()


class _Defaults(argparse.HelpFormatter):
    """Help that ends each option's text with its default, where it has one worth telling
    (not None, not a flag's False) and the text does not tell it already."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            not action.option_strings
            or action.help == argparse.SUPPRESS
            or default in (None, False, "", argparse.SUPPRESS)
            or "default" in text
        ):
            return action.help
        shown = f"{default:,}" if isinstance(default, int) else str(default)
        return f"{text} (default: {shown.replace('%', '%%')})".lstrip()


class _CommandParser(argparse.ArgumentParser):
    """A command's parser: its help shows the defaults (:class:`_Defaults`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Defaults)
        super().__init__(*args, **kwargs)


CSV_HELP = (
    "print the result as CSV: a header row and one row of its plain fields "
    "(docs/jobs.md, 'Job files')"
)
JOBS_CSV_HELP = (
    "print CSV: a header row, then a row a job (docs/service.md, 'Serving and submitting')"
)


def _seed(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"must be from 0 to 2**64 - 1, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardroom", description="Poker rules engine and simulation service."
    )
    parser.add_argument(
        "--version", action=_Version, nargs=0, help="show the installed version and exit"
    )
    address_help = "server HOST:PORT (default $CARDROOM_ADDRESS or 127.0.0.1:50051)"
    parser.add_argument(
        "--address",
        default=os.environ.get("CARDROOM_ADDRESS", client.DEFAULT_ADDRESS),
        help=address_help,
    )
    cli_auth.add_connection_flags(parser, after_command=False)
    # Each command's --help gives its options' defaults (_Defaults).
    commands = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(
            dest="command", required=True, metavar="COMMAND", parser_class=_CommandParser
        ),
    )

    run = commands.add_parser("run", help="run a job file on this machine (no server)")
    run.add_argument("job", help="job file (TOML, or JSON if it ends in .json)")
    shown = run.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="print the result as one JSON object")
    shown.add_argument("--csv", action="store_true", help=CSV_HELP)
    run.add_argument(
        "--plot", type=Path, help="also draw the result to this PNG file (needs cardroom[plot])"
    )
    place = run.add_mutually_exclusive_group()
    place.add_argument(
        "--workers", type=_positive, default=None, help="CPUs for the embedded Ray (default: all)"
    )
    place.add_argument("--ray-address", help="run on an existing Ray cluster at this address")
    place.add_argument(
        "--in-process", action="store_true", help="run shards one by one in this process, no Ray"
    )

    serve = commands.add_parser("serve", help="start the gRPC job service")
    serve.add_argument("--listen", default="127.0.0.1:50051", help="HOST:PORT for gRPC")
    serve.add_argument(
        "--metrics-listen", default="127.0.0.1:9464", help="HOST:PORT for /metrics ('' for none)"
    )
    serve.add_argument("--data-dir", type=Path, default=Path(".cardroom"), help="job store folder")
    serve.add_argument(
        "--store",
        default=os.environ.get("CARDROOM_STORE") or None,
        metavar="URL",
        help="keep jobs in PostgreSQL (postgresql://…; $CARDROOM_STORE) instead of the data dir",
    )
    serve.add_argument("--workers", type=_positive, help="CPUs for the embedded Ray (default: all)")
    serve.add_argument("--ray-address", help="join an existing Ray cluster at this address")
    serve.add_argument("--max-trials", type=_positive, default=10**12, help="largest job accepted")
    serve.add_argument("--ready-file", type=Path, help="write the bound addresses here when ready")
    secure = serve.add_argument_group("authentication and TLS")
    secure.add_argument(
        "--tokens", type=Path, metavar="FILE", help="admit only bearer tokens of FILE (see token)"
    )
    secure.add_argument(
        "--insecure",
        action="store_true",
        help="serve a non-loopback address without tokens or a client CA",
    )
    secure.add_argument("--tls-cert", dest="server_cert", type=Path, metavar="FILE",
                        help="serve TLS with this certificate (PEM)")  # fmt: skip
    secure.add_argument("--tls-key", dest="server_key", type=Path, metavar="FILE",
                        help="the certificate's private key (PEM)")  # fmt: skip
    secure.add_argument("--tls-client-ca", dest="client_ca", type=Path, metavar="FILE",
                        help="mutual TLS: admit only clients FILE's CA signed")  # fmt: skip
    limits = serve.add_argument_group("limits")
    limits.add_argument("--max-jobs-in-flight", type=_positive, default=DEFAULT_MAX_JOBS,
                        help="jobs queued or running per client (namespace)")  # fmt: skip
    limits.add_argument("--max-watches", type=_positive, default=DEFAULT_MAX_WATCHES,
                        help="WatchJob streams open per client")  # fmt: skip
    limits.add_argument("--max-message-bytes", type=_positive, default=DEFAULT_MAX_MESSAGE_BYTES,
                        help="largest request message")  # fmt: skip
    limits.add_argument("--call-timeout", type=_seconds, default=DEFAULT_CALL_TIMEOUT,
                        help="seconds a unary call may run")  # fmt: skip
    limits.add_argument(
        "--max-trials-in-flight",
        type=_positive,
        default=None,
        help="trials in jobs queued or running per client (default: no limit)",
    )
    operations = serve.add_argument_group("operations")
    operations.add_argument(
        "--retention",
        type=_days,
        default=None,
        metavar="DAYS",
        help="delete finished jobs older than DAYS, with their shards (default: keep them)",
    )
    operations.add_argument(
        "--health-listen",
        default=None,
        metavar="HOST:PORT",
        help="also serve the health service alone, in plaintext, on HOST:PORT (for probes)",
    )

    def with_address(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        # SUPPRESS: given after the command it overrides the one before; absent, it
        # leaves the main parser's value (the flag, $CARDROOM_ADDRESS or the default).
        p.add_argument("--address", default=argparse.SUPPRESS, help=address_help)
        cli_auth.add_connection_flags(p, after_command=True)
        return p

    submit = with_address(
        commands.add_parser(
            "submit",
            help="submit job files to a server: each job's id on stdout, one a line",
            description="Check each job file and submit the good ones; each job's id is "
            "printed on stdout, one a line, and each bad file gets its one-line error on "
            "stderr (exit code 2 if any was bad).",
        )
    )
    submit.add_argument(
        "jobs", nargs="+", metavar="job", help="job files (TOML, or JSON if it ends in .json)"
    )
    submit.add_argument(
        "--follow",
        action="store_true",
        help="show progress until the jobs end, one after another, and print each result",
    )
    submit.add_argument("--json", action="store_true", help="print JSON")
    submit.add_argument(
        "-q", "--quiet", action="store_true", help="only the ids: no line for a terminal"
    )
    status = with_address(commands.add_parser("status", help="a job's state and progress"))
    status.add_argument("id")
    status_shown = status.add_mutually_exclusive_group()
    status_shown.add_argument("--json", action="store_true", help="print JSON")
    status_shown.add_argument("--csv", action="store_true", help=JOBS_CSV_HELP)
    watch = with_address(
        commands.add_parser("watch", help="follow a submitted job to its end, then its result")
    )
    watch.add_argument("id")
    watch.add_argument("--json", action="store_true", help="print the result as JSON")
    result = with_address(commands.add_parser("result", help="a finished job's result"))
    result.add_argument("id")
    result_shown = result.add_mutually_exclusive_group()
    result_shown.add_argument("--json", action="store_true", help="print the result as JSON")
    result_shown.add_argument("--csv", action="store_true", help=CSV_HELP)
    result.add_argument("--plot", type=Path, help="also draw the result to this PNG file")
    cancel = with_address(commands.add_parser("cancel", help="cancel a queued or running job"))
    cancel.add_argument("id")
    delete = with_address(
        commands.add_parser("delete", help="delete a finished job and its shards from the server")
    )
    delete.add_argument("id")
    games = commands.add_parser(
        "games", help="the built-in games, one of them in full, or a game file's game"
    )
    # Not argparse's choices: `cardroom games NT` is answered with the command meant.
    games.add_argument("show", nargs="?", help="show one game in full: `games show CODE`")
    games.add_argument("code", nargs="?", help="the game's code (with show)")
    games.add_argument("--file", type=Path, help="show the game of this game file (TOML)")
    deal = commands.add_parser(
        "deal", help="deal one hand of a game (a whole game of guts) and print its events"
    )
    deal.add_argument("code", nargs="?", help="the game's code (see `cardroom games`)")
    deal.add_argument("--file", type=Path, help="deal the game of this game file (TOML)")
    deal.add_argument("--players", type=_positive, default=6)
    deal.add_argument("--seed", type=_seed, default=0, help="the deal's seed, 0 or more")
    deal.add_argument(
        "--phh",
        metavar="FILE",
        help="also write the hand as a PHH hand history to FILE ('-': only the PHH, to stdout)",
    )
    cli_phh.add_parser(commands)
    cli_verify.add_parser(commands)
    cli_auth.add_parser(commands)
    commands.choices["token"].add_argument(
        "--out",
        type=Path,
        metavar="FILE",
        help="write the token to FILE, readable by its owner only, instead of stdout",
    )
    listing = with_address(commands.add_parser("list", help="list jobs, newest first"))
    listing.add_argument("--state", choices=[s for s in client.STATES if s != "unspecified"])
    listing.add_argument("--kind", default="")
    listing.add_argument("--limit", type=_positive, default=50, help="at most this many jobs")
    listing.add_argument("--csv", action="store_true", help=JOBS_CSV_HELP)
    return parser


def _clock(seconds: float) -> str:
    """A duration as a progress line shows it: ``4:35``, ``2:04:35``."""
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _show_progress(started: float, total: int) -> Callable[[Progress], None]:
    """A progress line on stderr: shards, trials of the total, the rate and the time left
    at that rate."""

    def show(progress: Progress) -> None:
        elapsed = max(time.monotonic() - started, 1e-9)
        rate = progress.trials_done / elapsed
        left = max(total - progress.trials_done, 0)
        eta = f"ETA {_clock(left / rate)}" if rate > 0 and left else f"in {_clock(elapsed)}"
        sys.stderr.write(
            f"\r  shard {progress.shards_done:,}/{progress.shards_total:,}"
            f"  {progress.trials_done:,} of {total:,} trials  {rate:,.0f}/s  {eta}   "
        )
        if progress.shards_done == progress.shards_total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def placement(args: argparse.Namespace, job: Job) -> tuple[bool, str | None]:
    """Whether ``cardroom run`` runs ``job`` in this process, and the note it prints."""
    count = job.plan.count
    if args.in_process:
        shards = "one shard" if count == 1 else f"{count:,} shards"
        return True, f"{shards}, one after another in this process"
    if count == 1 and args.workers is None and args.ray_address is None:
        # One shard cannot be spread over workers: starting Ray would only add seconds.
        return True, "one shard: running it in this process (no Ray)"
    if count < 2 * (os.cpu_count() or 1):
        shards = "one shard" if count == 1 else f"{count} shards"
        return False, f"{shards}; starting Ray takes a few seconds (--in-process skips it)"
    return False, None


INTERRUPTED_RUN = "interrupted; the run stopped and nothing was saved"


class _Interrupts:
    """Ctrl-C held back while Ray starts or stops (:func:`_held_interrupts`)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, signum: int, frame: object) -> None:
        self.count += 1


@contextmanager
def _held_interrupts() -> Iterator[_Interrupts]:
    """Hold Ctrl-C back until the block ends, counting it.

    An interrupt inside ``ray.init`` or ``ray.shutdown`` leaves Ray half started or half
    stopped, and its C++ core then aborts with a backtrace or crashes the process at exit;
    so the start and the stop run whole, and the interrupt is acted on after.  Only the
    main thread can set a handler; elsewhere the block runs as it is.
    """
    held = _Interrupts()
    try:
        previous = signal.signal(signal.SIGINT, held)
    except ValueError:  # not the main thread
        yield held
        return
    try:
        yield held
    finally:
        signal.signal(signal.SIGINT, previous)


def _exit_interrupted(*_: object) -> None:
    """Ctrl-C while Ray runs the job: the line, then the process ends at once.

    Ray's driver does not survive an interrupt raised inside its calls (a task being
    submitted, waited on or cancelled): its C++ core aborts with a backtrace, or the
    process crashes at exit.  So the driver stops without touching Ray again, and the
    session's watchdog (workers/ray_reaper.py), which sees the driver end, stops Ray's
    processes and removes the session's folder; a cluster joined by address ends the
    driver's tasks itself.
    """
    sys.stderr.write(f"\ncardroom: {INTERRUPTED_RUN}\n")
    sys.stderr.flush()
    os._exit(EXIT_INTERRUPTED)


def _run_on_ray(args: argparse.Namespace, job: Job, show: Callable[[Progress], None] | None) -> Any:
    """The job's tally from Ray's workers; None when Ctrl-C stopped it (Ray stopped too).

    Ray's start and stop run whole, a Ctrl-C held back until they end
    (:func:`_held_interrupts`); during the run one ends the process at once
    (:func:`_exit_interrupted`).  Where no watchdog would clean up after the driver (not
    Linux) the interrupt stops the run and Ray is shut down before the line.
    """
    from workers.ray_reaper import supported
    from workers.runner import RayRunner

    with _held_interrupts() as starting:
        runner = RayRunner(args.workers or os.cpu_count(), address=args.ray_address)
    exit_at_once = supported() and threading.current_thread() is threading.main_thread()
    if exit_at_once and starting.count:
        _exit_interrupted()
    interrupted = starting.count > 0
    tally = None
    previous = signal.getsignal(signal.SIGINT)
    try:
        if exit_at_once:
            signal.signal(signal.SIGINT, _exit_interrupted)
        if not interrupted:
            tally = runner.run(job, show)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if exit_at_once:
            signal.signal(signal.SIGINT, previous)
        with _held_interrupts():
            runner.close()
    return None if interrupted else tally


def _warm_kernels(job: Job) -> None:
    """Compile the job's kernels here, once, when the cache was cold: else each Ray worker
    would compile them again, all at the same time.  A few trials reach every kernel a
    shard calls."""
    import numpy as np

    job.model.simulate(min(job.trials, 100), np.random.default_rng(0))


def cmd_run(args: argparse.Namespace) -> int:
    try:  # Ctrl-C at any moment, the job's loading included, ends in the same one line
        tally, job = _run_job(args)
    except KeyboardInterrupt:
        tally = job = None
    if tally is None or job is None:
        print(f"\ncardroom: {INTERRUPTED_RUN}", file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    from service.kinds import draw, render

    report = job.report(tally)
    if args.csv:
        from service.csv_out import write_report

        write_report(report, sys.stdout)
    else:
        print(json.dumps(report) if args.json else render(job, report))
    if args.plot is not None:
        draw(job, report, args.plot)
    return 0


def _run_job(args: argparse.Namespace) -> tuple[Any, Job]:
    """Load, check and run the job file; its tally (None: Ctrl-C stopped a Ray run)."""
    from service.jobfile import load_job
    from service.kernels import compiled, notice_compiles
    from service.kinds import check_drawable

    notice_compiles()
    job = load_job(args.job)
    if args.plot is not None:
        check_drawable(job, args.plot)
    shown = sys.stderr.isatty() and not (args.json or args.csv)
    in_process, note = placement(args, job)
    if note is not None:
        print(f"cardroom: {note}", file=sys.stderr)
    if not in_process and compiled():
        _warm_kernels(job)
    show = _show_progress(time.monotonic(), job.trials) if shown else None
    if in_process:
        from workers.runner import InlineRunner

        return InlineRunner().run(job, show), job
    return _run_on_ray(args, job, show), job


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from service.security import TlsFiles
    from service.server import ServerConfig, StartupError, serve

    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    config = ServerConfig(
        listen=args.listen,
        data_dir=args.data_dir,
        store=args.store,
        metrics_listen=args.metrics_listen or None,
        workers=args.workers,
        ray_address=args.ray_address,
        max_trials=args.max_trials,
        ready_file=args.ready_file,
        tokens=args.tokens,
        insecure=args.insecure,
        tls=TlsFiles(args.server_cert, args.server_key, args.client_ca),
        limits=ClientLimits(
            jobs=args.max_jobs_in_flight,
            watches=args.max_watches,
            trials=args.max_trials_in_flight,
        ),
        max_message_bytes=args.max_message_bytes,
        call_timeout=args.call_timeout,
        health_listen=args.health_listen or None,
        retention_days=args.retention,
    )
    try:
        asyncio.run(serve(config))
    except StartupError as err:
        print(f"cardroom: cannot start the server: {err}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:  # while starting, or a second Ctrl-C while stopping
        print(
            "\ncardroom: interrupted; stored jobs are kept and resume on the next start",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    return 0


def _failed(err: Exception, code: int) -> int:
    """Print a failure of one of several jobs (the others go on); its exit code."""
    print(f"cardroom: {err}", file=sys.stderr)
    return code


def cmd_submit(args: argparse.Namespace) -> int:
    """Check every file, submit the good ones, each job's id on stdout (a JSON line with
    --json); each bad file is one line on stderr.  Exit code: 2 if some file was bad, else
    1 if some submission or followed job failed, else 0."""
    from service.kernels import notice_compiles

    notice_compiles()
    code = 0
    specs = []
    for path in args.jobs:
        try:
            specs.append((path, client.job_spec_from_file(path)))
        except ValueError as err:  # the file's one-line error
            code = max(code, _failed(err, EXIT_BAD_INPUT))
    if not specs:
        return code
    chatty = not args.quiet and not args.json
    jobs = []
    with client.connect(cli_auth.target_of(args)) as stub:
        for path, spec in specs:
            try:
                job = client.submit(stub, spec, path)
            except client.ClientError as err:
                code = max(code, _failed(err, err.code))
                continue
            jobs.append(job)
            if args.follow:
                if chatty:
                    print(f"submitted {job.id}", file=sys.stderr)
                continue
            print(json.dumps(client.job_summary(job)) if args.json else job.id, flush=True)
            if chatty and sys.stderr.isatty():
                print(
                    f"cardroom: submitted {path} as {job.id}; `cardroom watch {job.id}` follows it",
                    file=sys.stderr,
                )
        if args.follow:
            code = max(code, _follow_all(stub, jobs, args))
    return code


def _follow_all(stub: client.JobServiceClient, jobs: list[pb.Job], args: argparse.Namespace) -> int:
    """Follow the jobs one after another, printing each result as it ends."""
    code = 0
    for number, job in enumerate(jobs):
        try:
            job = client.follow(stub, job, show_bar=not args.json, address=args.address)
            client.print_report(job, args.json)
        except client.Detached as err:
            rest = [later.id for later in jobs[number + 1 :]]
            raise client.Detached(err.job, args.address, rest) from None
        except client.ServerLost:
            raise
        except client.ClientError as err:  # a job that failed or was cancelled
            code = max(code, _failed(err, err.code))
    return code


def cmd_watch(args: argparse.Namespace) -> int:
    with client.connect(cli_auth.target_of(args)) as stub:
        job = stub.GetJob(pb.GetJobRequest(id=args.id)).job
        if job.state not in client.FINISHED:
            job = client.follow(stub, job, show_bar=not args.json, address=args.address)
    client.print_report(job, args.json)
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    with client.connect(cli_auth.target_of(args)) as stub:
        job = stub.GetJob(pb.GetJobRequest(id=args.id)).job
    if args.csv:
        from service.csv_out import write_rows

        write_rows(client.SUMMARY_COLUMNS, [client.job_row(job)], sys.stdout)
    else:
        print(json.dumps(client.job_summary(job)) if args.json else client.describe(job))
    return 0


def cmd_result(args: argparse.Namespace) -> int:
    with client.connect(cli_auth.target_of(args)) as stub:
        job = stub.GetJob(pb.GetJobRequest(id=args.id)).job
    client.print_report(job, args.json, args.plot, as_csv=args.csv)
    return 0


def cmd_cancel(args: argparse.Namespace) -> int:
    with client.connect(cli_auth.target_of(args)) as stub:
        job = stub.CancelJob(pb.CancelJobRequest(id=args.id)).job
    print(f"cancelled {job.id}")
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    with client.connect(cli_auth.target_of(args)) as stub:
        stub.DeleteJob(pb.DeleteJobRequest(id=args.id))
    print(f"deleted {args.id}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    # A JobState by its name (argparse offers only valid ones); unset lists every state.
    state = f"JOB_STATE_{args.state.upper()}" if args.state else None
    with client.connect(cli_auth.target_of(args)) as stub:
        page = stub.ListJobs(
            pb.ListJobsRequest(page_size=min(args.limit, 1000), state=state, kind=args.kind)
        )
    if args.csv:
        from service.csv_out import write_rows

        write_rows(client.SUMMARY_COLUMNS, [client.job_row(job) for job in page.jobs], sys.stdout)
        return 0
    if not page.jobs:
        wanted = " ".join(w for w in (args.state, args.kind) if w)
        print(f"no {wanted} jobs" if wanted else "no jobs")
        return 0
    print(f"{'ID':<16}  {'KIND':<10} {'STATE':<10} {'TRIALS DONE':>15}   TRIALS")
    for job in page.jobs:
        p = job.progress
        print(
            f"{job.id:<16}  {job.kind:<10} {client.STATE_NAMES[job.state]:<10}"
            f" {p.trials_done:>15,} / {p.trials_total:,}"
        )
    return 0


def _chosen_game(args: argparse.Namespace, command: str) -> Variant:
    """The game a command names: a built-in code or a game file (``--file``), not both."""
    from simulations.engine.gamefile import load_any_game_file
    from simulations.engine.variants import Variant, variant

    if args.file is not None and args.code is not None:
        raise ValueError(f"{command}: give a game's code or --file, not both")
    if args.file is not None:
        return Variant.from_entry(load_any_game_file(args.file))
    if args.code is None:
        raise ValueError(
            f"{command}: which game? give its code (see `cardroom games`) or --file PATH"
        )
    return variant(args.code)


def _not_a_command(word: str, code: str | None) -> ValueError:
    """`cardroom games NT`: the word where `show` goes, told with the command meant."""
    from simulations.engine.variants import VARIANTS

    if code is None and word in VARIANTS:
        return ValueError(f"games {word}: did you mean `cardroom games show {word}`?")
    if code is None:
        return ValueError(
            f"unknown game code {word}; `cardroom games` lists the codes, "
            "`cardroom games show CODE` shows one"
        )
    return ValueError(
        f"games: {word!r} is not a command; did you mean `cardroom games show {code}`?"
    )


def cmd_games(args: argparse.Namespace) -> int:
    from simulations.engine.gamefile import GameKind
    from simulations.engine.guts_history import describe_guts_game
    from simulations.engine.phases import describe_phase
    from simulations.engine.variants import VARIANTS

    if args.show is not None and args.show != "show":
        raise _not_a_command(args.show, args.code)
    if args.show is None and args.file is None:
        rows = [v.summary() for v in VARIANTS.values()]
        columns = ("code", "name", "players", "deck", "structure", "showdown")
        widths = {c: max(len(c), *(len(r[c]) for r in rows)) for c in columns}
        print("  ".join(c.upper().ljust(widths[c]) for c in columns).rstrip())
        for row in rows:
            print("  ".join(row[c].ljust(widths[c]) for c in columns).rstrip())
        return 0
    found = _chosen_game(args, "games show")
    summary = found.summary()
    print(f"{found.code}  {found.name}")
    for key in ("players", "deck", "structure", "showdown"):
        print(f"  {key:<11}{summary[key]}")
    if found.kind is GameKind.GUTS:
        for heading, line in describe_guts_game(found.guts()):
            print(f"  {heading:<11}{line}")
        print(f"  {'file':<11}{found.source}")
        return 0
    game = found.game()
    cards = "the whole hand" if game.selection is None else game.selection.name
    print(f"  {'cards':<11}{cards}")
    stakes = game.stakes
    sizes = f"small bet {stakes.small_bet}"
    if stakes.big_bet is not None:
        sizes += f", big bet {stakes.big_bet} from round {stakes.big_bet_round + 1}"
    if stakes.sizes:
        sizes = "bets " + "-".join(str(size) for size in stakes.sizes) + " by round"
    if stakes.spreads:
        sizes += ", spreads " + " ".join(f"{low}-{high}" for low, high in stakes.spreads)
    if stakes.max_bets is not None:
        sizes += f", at most {stakes.max_bets} bets a round"
    print(f"  {'stakes':<11}{sizes}")
    forced = game.forced
    print(f"  {'forced':<11}ante {forced.ante}, blinds {list(forced.blinds)}, "
          f"bring-in {forced.bring_in}")  # fmt: skip
    print(f"  {'acting':<11}{game.acting_order}")
    print(f"  {'exhaustion':<11}{game.exhaustion}")
    print(f"  {'file':<11}{found.source}")
    print("  phases")
    for phase in game.phases:
        print(f"    {describe_phase(phase)}")
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    import numpy as np

    from service.kernels import notice_compiles
    from simulations.engine.deals import DealSequence, describe_deals, play_deals_plainly
    from simulations.engine.gamefile import GameKind

    notice_compiles()
    found = _chosen_game(args, "deal")
    if found.kind is GameKind.GUTS:
        if args.phh is not None:
            raise ValueError(f"--phh: {found.code} is a game of guts: PHH records poker hands")
        return _deal_guts(found, args.players, args.seed)
    game = found.game()
    if not game.min_players <= args.players <= game.max_players:
        raise ValueError(
            f"--players: {found.code} is for {game.min_players} to {game.max_players} "
            f"players, got {args.players}"
        )
    deals = DealSequence(game, [200] * args.players, button=0, rng=np.random.default_rng(args.seed))
    play_deals_plainly(deals)
    if args.phh is not None:
        cli_phh.write_deal(found.code, deals, args.phh)
        if args.phh == "-":
            return 0
    print(f"{found.name}, {args.players} players, seed {args.seed}; the button on seat 0")
    for line in describe_deals(deals):
        print(f"  {line}")
    return 0


def _deal_guts(found: Variant, players: int, seed: int) -> int:
    """A whole game of guts, played plainly (in with a pair or better) up to
    :data:`~simulations.engine.guts_history.DEAL_LIMIT` deals; the log says if it stopped."""
    import numpy as np

    from simulations.engine.guts import GutsSession
    from simulations.engine.guts_history import DEAL_LIMIT, describe_guts_events, play_guts_plainly

    guts = found.guts()
    if not guts.min_players <= players <= guts.max_players:
        raise ValueError(
            f"--players: {found.code} is for {guts.min_players} to {guts.max_players} "
            f"players, got {players}"
        )
    session = GutsSession(
        guts, players, button=0, rng=np.random.default_rng(seed), max_deals=DEAL_LIMIT
    )
    play_guts_plainly(session)
    print(f"{found.name}, {players} players, seed {seed}; seat 0 deals first")
    for line in describe_guts_events(session.events):
        print(f"  {line}")
    nets = ", ".join(f"seat {seat} {net:+d}" for seat, net in enumerate(session.nets))
    print(f"  net chips: {nets}")
    return 0


def cmd_token(args: argparse.Namespace) -> int:
    """``token``; with ``--out FILE`` the token goes to FILE, made readable by its owner
    alone before anything is written to it, as the tokens file is (a shell's ``>`` would
    leave it as readable as the umask allows)."""
    if args.out is None:
        return cli_auth.cmd_token(args)
    import io
    from contextlib import redirect_stdout

    minted = io.StringIO()
    with redirect_stdout(minted):
        code = cli_auth.cmd_token(args)
    path: Path = args.out
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(descriptor, 0o600)  # a file that was there keeps no wider mode
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(minted.getvalue())
    except OSError as err:
        raise ValueError(f"--out {path}: {err.strerror or err}") from None
    print(f"cardroom: the token is in {path} (readable by its owner only)", file=sys.stderr)
    return code


COMMANDS = {
    "run": cmd_run,
    "serve": cmd_serve,
    "submit": cmd_submit,
    "status": cmd_status,
    "watch": cmd_watch,
    "result": cmd_result,
    "cancel": cmd_cancel,
    "delete": cmd_delete,
    "list": cmd_list,
    "games": cmd_games,
    "deal": cmd_deal,
    "replay": cli_phh.cmd_replay,
    "verify": cli_verify.cmd_verify,
    "token": cmd_token,
}


def main(argv: Sequence[str] | None = None) -> int:
    code = _main(argv)
    if code == EXIT_INTERRUPTED and argv is None:
        # The command line itself, interrupted: end now, with 130.  A Ctrl-C that landed
        # while an extension ran Python code (numba's import, say) leaves CPython marked as
        # interrupted, and at exit it would then kill itself with SIGINT (status -2), though
        # the interrupt was handled and said.
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)
    return code


def _main(argv: Sequence[str] | None) -> int:
    quiet_grpc()  # before anything imports grpc
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except client.ClientError as err:
        print(f"cardroom: {err}", file=sys.stderr)
        return err.code
    except client.Detached as err:
        print(f"\ncardroom: {err}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        print("\ncardroom: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except ValueError as err:  # a bad job file, picture or flag value (--listen, say)
        print(f"cardroom: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader stopped early (``| head``): what it read is right, only cut short.  Python
        # would flush stdout again at exit and fail once more, so it is pointed elsewhere.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - closed by the interpreter at exit
        return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
