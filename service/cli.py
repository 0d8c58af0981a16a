"""The ``cardroom`` command line.

``cardroom run`` runs a job on this machine without a server; ``cardroom serve`` starts
the gRPC service; ``submit``, ``status``, ``watch``, ``result``, ``cancel`` and ``list``
talk to a server at ``--address`` (before or after the command) or ``$CARDROOM_ADDRESS``
(default 127.0.0.1:50051).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from service import cli_auth, cli_phh, cli_verify, client
from service.api.cardroom.v1 import job_service_pb2 as pb
from service.jobfile import JobFileError, load_job
from service.kinds import check_drawable, draw, render
from service.limits import (
    DEFAULT_CALL_TIMEOUT,
    DEFAULT_MAX_JOBS,
    DEFAULT_MAX_MESSAGE_BYTES,
    DEFAULT_MAX_WATCHES,
    ClientLimits,
)
from service.pictures import PictureError
from simulations.engine.deals import DealSequence, describe_deals, play_deals_plainly
from simulations.engine.gamefile import GameKind, load_any_game_file
from simulations.engine.guts import GutsSession
from simulations.engine.guts_history import (
    DEAL_LIMIT,
    describe_guts_events,
    describe_guts_game,
    play_guts_plainly,
)
from simulations.engine.phases import describe_phase
from simulations.engine.variants import VARIANTS, Variant, variant
from workers.job import Job
from workers.runner import InlineRunner, Progress, RayRunner

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


# What a shell reports for a program ended by SIGPIPE (128 + 13): the output was cut short.
EXIT_BROKEN_PIPE = 141


def _version() -> str:
    """The installed distribution's version (the source tree's, run without installing)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardroom")
    except PackageNotFoundError:
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardroom", description="Poker rules engine and simulation service."
    )
    parser.add_argument("--version", action="version", version=f"cardroom {_version()}")
    address_help = "server HOST:PORT (default $CARDROOM_ADDRESS or 127.0.0.1:50051)"
    parser.add_argument(
        "--address",
        default=os.environ.get("CARDROOM_ADDRESS", client.DEFAULT_ADDRESS),
        help=address_help,
    )
    cli_auth.add_connection_flags(parser, after_command=False)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = commands.add_parser("run", help="run a job file on this machine (no server)")
    run.add_argument("job", help="job file (TOML, or JSON if it ends in .json)")
    run.add_argument("--json", action="store_true", help="print the result as one JSON object")
    run.add_argument("--plot", type=Path, help="also draw the result to this PNG file")
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

    def with_address(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        # SUPPRESS: given after the command it overrides the one before; absent, it
        # leaves the main parser's value (the flag, $CARDROOM_ADDRESS or the default).
        p.add_argument("--address", default=argparse.SUPPRESS, help=address_help)
        cli_auth.add_connection_flags(p, after_command=True)
        return p

    submit = with_address(commands.add_parser("submit", help="submit a job file to a server"))
    submit.add_argument("job", help="job file (TOML, or JSON if it ends in .json)")
    submit.add_argument("--follow", action="store_true", help="show progress until the job ends")
    submit.add_argument("--json", action="store_true", help="print JSON")
    status = with_address(commands.add_parser("status", help="a job's state and progress"))
    status.add_argument("id")
    status.add_argument("--json", action="store_true", help="print JSON")
    watch = with_address(
        commands.add_parser("watch", help="follow a submitted job to its end, then its result")
    )
    watch.add_argument("id")
    watch.add_argument("--json", action="store_true", help="print the result as JSON")
    result = with_address(commands.add_parser("result", help="a finished job's result"))
    result.add_argument("id")
    result.add_argument("--json", action="store_true", help="print the result as JSON")
    result.add_argument("--plot", type=Path, help="also draw the result to this PNG file")
    cancel = with_address(commands.add_parser("cancel", help="cancel a queued or running job"))
    cancel.add_argument("id")
    games = commands.add_parser(
        "games", help="the built-in games, one of them in full, or a game file's game"
    )
    games.add_argument("show", nargs="?", choices=["show"], help="show one game in full")
    games.add_argument("code", nargs="?", help="the game's code (with show)")
    games.add_argument("--file", type=Path, help="show the game of this game file (TOML)")
    deal = commands.add_parser(
        "deal", help="deal one hand of a game (a whole game of guts) and print its events"
    )
    deal.add_argument("code", nargs="?", help="the game's code (see `cardroom games`)")
    deal.add_argument("--file", type=Path, help="deal the game of this game file (TOML)")
    deal.add_argument("--players", type=_positive, default=6)
    deal.add_argument("--seed", type=int, default=0)
    deal.add_argument(
        "--phh",
        metavar="FILE",
        help="also write the hand as a PHH hand history to FILE ('-': only the PHH, to stdout)",
    )
    cli_phh.add_parser(commands)
    cli_verify.add_parser(commands)
    cli_auth.add_parser(commands)
    listing = with_address(commands.add_parser("list", help="list jobs, newest first"))
    listing.add_argument(
        "--state", choices=[s for s in client.STATE_NAMES.values() if s != "unspecified"]
    )
    listing.add_argument("--kind", default="")
    listing.add_argument("--limit", type=_positive, default=50)
    return parser


def _show_progress(started: float) -> Callable[[Progress], None]:
    def show(progress: Progress) -> None:
        rate = progress.trials_done / max(time.monotonic() - started, 1e-9)
        sys.stderr.write(
            f"\r  shard {progress.shards_done}/{progress.shards_total}"
            f"  {progress.trials_done:,} trials  {rate:,.0f}/s   "
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
        return False, f"{count} shards; starting Ray takes a few seconds (--in-process skips it)"
    return False, None


def _runner(args: argparse.Namespace, job: Job) -> InlineRunner | RayRunner:
    in_process, note = placement(args, job)
    if note is not None:
        print(f"cardroom: {note}", file=sys.stderr)
    if in_process:
        return InlineRunner()
    return RayRunner(args.workers or os.cpu_count(), address=args.ray_address)


def cmd_run(args: argparse.Namespace) -> int:
    job = load_job(args.job)
    if args.plot is not None:
        check_drawable(job, args.plot)
    show = _show_progress(time.monotonic()) if sys.stderr.isatty() and not args.json else None
    runner = _runner(args, job)
    try:
        tally = runner.run(job, show)
    except KeyboardInterrupt:
        print("\ncardroom: interrupted; the run stopped and nothing was saved", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        runner.close()
    report = job.report(tally)
    print(json.dumps(report) if args.json else render(job, report))
    if args.plot is not None:
        draw(job, report, args.plot)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
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
        limits=ClientLimits(jobs=args.max_jobs_in_flight, watches=args.max_watches),
        max_message_bytes=args.max_message_bytes,
        call_timeout=args.call_timeout,
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


def cmd_submit(args: argparse.Namespace) -> int:
    spec = client.job_spec_from_file(args.job)
    with client.connect(cli_auth.target_of(args)) as stub:
        job = stub.SubmitJob(pb.SubmitJobRequest(spec=spec)).job
        if not args.follow:
            print(json.dumps(client.job_summary(job)) if args.json else f"submitted {job.id}")
            return 0
        if not args.json:
            print(f"submitted {job.id}", file=sys.stderr)
        job = client.follow(stub, job, show_bar=not args.json, address=args.address)
    client.print_report(job, args.json)
    return 0


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
    print(json.dumps(client.job_summary(job)) if args.json else client.describe(job))
    return 0


def cmd_result(args: argparse.Namespace) -> int:
    with client.connect(cli_auth.target_of(args)) as stub:
        job = stub.GetJob(pb.GetJobRequest(id=args.id)).job
    client.print_report(job, args.json, args.plot)
    return 0


def cmd_cancel(args: argparse.Namespace) -> int:
    with client.connect(cli_auth.target_of(args)) as stub:
        job = stub.CancelJob(pb.CancelJobRequest(id=args.id)).job
    print(f"cancelled {job.id}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    # A JobState by its name (argparse offers only valid ones); unset lists every state.
    state = f"JOB_STATE_{args.state.upper()}" if args.state else None
    with client.connect(cli_auth.target_of(args)) as stub:
        page = stub.ListJobs(
            pb.ListJobsRequest(page_size=min(args.limit, 1000), state=state, kind=args.kind)
        )
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
    if args.file is not None and args.code is not None:
        raise ValueError(f"{command}: give a game's code or --file, not both")
    if args.file is not None:
        return Variant.from_entry(load_any_game_file(args.file))
    if args.code is None:
        raise ValueError(
            f"{command}: which game? give its code (see `cardroom games`) or --file PATH"
        )
    return variant(args.code)


def cmd_games(args: argparse.Namespace) -> int:
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


COMMANDS = {
    "run": cmd_run,
    "serve": cmd_serve,
    "submit": cmd_submit,
    "status": cmd_status,
    "watch": cmd_watch,
    "result": cmd_result,
    "cancel": cmd_cancel,
    "list": cmd_list,
    "games": cmd_games,
    "deal": cmd_deal,
    "replay": cli_phh.cmd_replay,
    "verify": cli_verify.cmd_verify,
    "token": cli_auth.cmd_token,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except (JobFileError, PictureError) as err:
        print(f"cardroom: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except client.ClientError as err:
        print(f"cardroom: {err}", file=sys.stderr)
        return err.code
    except client.Detached as err:
        print(f"\ncardroom: {err}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        print("\ncardroom: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except ValueError as err:  # a bad flag value found after parsing (--listen, say)
        print(f"cardroom: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader stopped early (``| head``): what it read is right, only cut short.  Python
        # would flush stdout again at exit and fail once more, so it is pointed elsewhere.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - closed by the interpreter at exit
        return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
