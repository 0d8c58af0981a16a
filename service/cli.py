"""The ``cardroom`` command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence

from service.jobfile import JobFileError, load_job
from service.render import render
from workers.runner import InlineRunner, Progress, RayRunner

EXIT_BAD_INPUT = 2


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardroom", description="Poker rules engine and simulation service."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run = commands.add_parser("run", help="run a job file on this machine (no server)")
    run.add_argument("job", help="job file (TOML, or JSON if it ends in .json)")
    run.add_argument("--json", action="store_true", help="print the result as one JSON object")
    place = run.add_mutually_exclusive_group()
    place.add_argument(
        "--workers",
        type=_positive,
        default=None,
        help="CPUs for the embedded Ray (default: every core)",
    )
    place.add_argument("--ray-address", help="run on an existing Ray cluster at this address")
    place.add_argument(
        "--in-process", action="store_true", help="run shards one by one in this process, no Ray"
    )
    return parser


def _show_progress(started: float) -> object:
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


def cmd_run(args: argparse.Namespace) -> int:
    try:
        job = load_job(args.job)
    except JobFileError as err:
        print(f"cardroom: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    show = _show_progress(time.monotonic()) if sys.stderr.isatty() and not args.json else None
    if args.in_process:
        runner: InlineRunner | RayRunner = InlineRunner()
    else:
        runner = RayRunner(args.workers or os.cpu_count(), address=args.ray_address)
    try:
        tally = runner.run(job, show)  # type: ignore[arg-type]
    finally:
        runner.close()
    report = job.report(tally)
    if args.json:
        print(json.dumps(report))
    else:
        print(render(job, report))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "run":
        return cmd_run(args)
    return EXIT_BAD_INPUT  # pragma: no cover - argparse enforces the choices


if __name__ == "__main__":
    sys.exit(main())
