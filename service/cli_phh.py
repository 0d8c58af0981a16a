"""``cardroom replay``: hand histories (PHH) replayed to their final stacks; and
``cardroom deal --phh``: the hand dealt, written as PHH.

``replay`` prints a line for each hand that does not end at its ``finishing_stacks`` or
cannot be replayed (naming the file, the hand and the field; with ``--each``, a line for
every hand, those replayed to their stacks too), a summary line for each file of several
hands, the readings the hands needed (counted by kind; each hand's with
``--notes``), and a final count.  Exit 0: every hand replayed to its finishing stacks; 1:
some differ; 2: some file or hand could not be read or replayed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simulations.engine.deals import DealSequence
    from simulations.phh.options import ReplayOptions
    from simulations.phh.results import FileReport, Outcome, ScenarioResult

EXIT_BAD_INPUT = 2
# The replay's rule choices, as the command line takes them: written out so that building
# the parser (every `cardroom` call) does not import the engine.  Each is its enum's values
# (simulations/phh/options.py, simulations/engine/limits.py), first the default;
# tests/test_cli_startup.py holds them to the enums.
ODD_CHIPS = ("auto", "first-left-of-button", "one-each-left-of-button", "exact")
INCOMPLETE_RAISE = ("full-bet", "half-bet")
SHORT_ALL_INS = ("cumulative", "each-alone")
HEADS_UP_BLINDS = ("auto", "button-acts-first", "button-acts-last")
ENGINES = ("auto", "reference")


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    replay = commands.add_parser("replay", help="replay hand histories (PHH) to their final stacks")
    replay.add_argument(
        "paths", nargs="+", metavar="FILE|DIR", help=".phh or .phhs files, or folders of them"
    )
    replay.add_argument("--json", action="store_true", help="print the report as one JSON object")
    replay.add_argument(
        "--odd-chips",
        choices=ODD_CHIPS,
        default=ODD_CHIPS[0],
        help="who gets a split pot's odd chips (auto: first left of the button, as the rule "
        "texts say, but split exactly where finishing_stacks holds fractions of a chip)",
    )
    replay.add_argument(
        "--incomplete-raise",
        choices=INCOMPLETE_RAISE,
        help="whether a short all-in raise reopens the betting (default: the game's rule, "
        "full-bet for every PHH variant)",
    )
    replay.add_argument(
        "--short-all-ins",
        choices=SHORT_ALL_INS,
        help="whether short all-ins in a row add up to reopen the betting (default: the game's)",
    )
    replay.add_argument(
        "--heads-up-blinds",
        choices=HEADS_UP_BLINDS,
        default=HEADS_UP_BLINDS[0],
        help="heads-up with equal blinds: whether the button acts first before the flop (the "
        "rule texts) or last; auto: as the history's first action shows",
    )
    replay.add_argument(
        "--engine",
        choices=ENGINES,
        default=ENGINES[0],
        help="auto: the compiled replay kernel for the hold'em hands it covers, the reference "
        "engine for the others and for every hand that does not match; reference: the "
        "reference engine for every hand",
    )
    replay.add_argument(
        "--notes", action="store_true", help="list every hand's notes, not only their count"
    )
    replay.add_argument(
        "--each",
        action="store_true",
        help="a line for every hand, those replayed to their finishing stacks too",
    )


def options_of(args: argparse.Namespace) -> ReplayOptions:
    from simulations.engine.limits import IncompleteRaiseRule, ShortAllInRule
    from simulations.phh.options import Engine, HeadsUpBlinds, OddChips, ReplayOptions

    return ReplayOptions(
        odd_chips=OddChips(args.odd_chips),
        incomplete_raise=(
            IncompleteRaiseRule(args.incomplete_raise) if args.incomplete_raise else None
        ),
        short_all_ins=ShortAllInRule(args.short_all_ins) if args.short_all_ins else None,
        heads_up_blinds=HeadsUpBlinds(args.heads_up_blinds),
        engine=Engine(args.engine),
    )


def cmd_replay(args: argparse.Namespace) -> int:
    from service.kernels import notice_compiles
    from simulations.phh.batch import find_files, replay_files
    from simulations.phh.results import exit_code

    notice_compiles()
    started = time.perf_counter()
    files, missing = find_files(args.paths)
    reports = [*missing, *replay_files(files, options_of(args))]
    seconds = time.perf_counter() - started
    try:
        if args.json:
            print(json.dumps(as_json(reports, seconds)))
        else:
            for line in describe(reports, seconds, every_note=args.notes, every_hand=args.each):
                print(line)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (| head): the report is cut, not wrong
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - Python flushes it at exit
    return exit_code(reports)


# --- the report ---------------------------------------------------------------------------


def _count(results: Sequence[ScenarioResult]) -> Counter[Outcome]:
    return Counter(result.outcome for result in results)


def where(result: ScenarioResult) -> str:
    """The hand as messages name it: the file, and ``#section`` in a file of several."""
    from simulations.phh.read import SEVERAL

    _, mark, section = result.name.rpartition("#")
    return f"{result.file}#{section}" if mark and result.file.endswith(SEVERAL) else result.file


def _hand_line(result: ScenarioResult) -> str:
    from simulations.phh.results import Outcome

    if result.outcome is Outcome.MALFORMED:
        return f"  {result.message}"
    if result.outcome is Outcome.FAILED:
        shown = "; ".join(
            f"{d.field}: expected {d.expected}, got {d.actual}" for d in result.differences
        )
        return f"  {where(result)}: differs: {shown}"
    return f"  {where(result)}: replayed to its finishing stacks"


def describe(
    reports: Sequence[FileReport], seconds: float, *, every_note: bool, every_hand: bool = False
) -> list[str]:
    """The text report: failures hand by hand (``every_hand``: every hand), a line per file
    of several hands, the notes counted by kind, and the totals."""
    from simulations.phh.options import note_kind
    from simulations.phh.read import SEVERAL
    from simulations.phh.results import Outcome

    lines: list[str] = []
    notes: Counter[str] = Counter()
    for report in reports:
        if report.error:
            lines.append(f"{report.error}")
            continue
        counts = _count(report.results)
        if report.path.endswith(SEVERAL):
            lines.append(
                f"{report.path}: {_plural(len(report.results), 'hand')}, "
                + _totals(counts, len(report.results))
            )
        for result in report.results:
            kinds = {note_kind(note) for note in result.notes}
            notes.update(kinds)
            shown = every_hand or (every_note and bool(result.notes))
            if result.outcome is not Outcome.PASSED or shown:
                lines.append(_hand_line(result))
                lines.extend(f"    note: {note}" for note in result.notes)
    results = [result for report in reports for result in report.results]
    unreadable_files = sum(1 for report in reports if report.error)
    if notes:
        lines.append(
            "notes (hands): "
            + ", ".join(f"{kind} {count:,}" for kind, count in notes.items())
            + ("" if every_note else " (--notes lists them)")
        )
    total = f"{_plural(len(results), 'hand')} in {_plural(len(reports), 'file')}: " + _totals(
        _count(results), len(results)
    )
    if unreadable_files:
        total += f"; {_plural(unreadable_files, 'file')} unreadable"
    lines.append(f"{total} ({seconds:.1f} s)")
    return lines


def _plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def _totals(counts: Counter[Outcome], hands: int) -> str:
    from simulations.phh.results import Outcome

    return (
        f"{counts[Outcome.PASSED]:,} replayed to their finishing stacks, "
        f"{counts[Outcome.FAILED]:,} differ, {counts[Outcome.MALFORMED]:,} unreadable"
    )


def as_json(reports: Sequence[FileReport], seconds: float) -> dict[str, Any]:
    """The machine-readable report: the totals, then every file and hand."""
    from simulations.phh.results import Outcome, exit_code

    results = [result for report in reports for result in report.results]
    counts = _count(results)
    return {
        "summary": {
            "files": len(reports),
            "hands": len(results),
            "replayed": counts[Outcome.PASSED],
            "differing": counts[Outcome.FAILED],
            "unreadable": counts[Outcome.MALFORMED],
            "unreadable_files": sum(1 for report in reports if report.error),
            "seconds": round(seconds, 3),
            "exit_code": exit_code(list(reports)),
        },
        "files": [
            {
                "path": report.path,
                "error": report.error,
                "hands": [
                    {
                        **asdict(result),
                        "outcome": result.outcome.value,
                        "seconds": round(result.seconds, 6),
                    }
                    for result in report.results
                ],
            }
            for report in reports
        ],
    }


# --- cardroom deal --phh ----------------------------------------------------------------------


def write_deal(code: str, deals: DealSequence, target: str) -> None:
    """The hand ``cardroom deal`` played, as PHH: to ``target`` (a file, or ``-`` for the
    standard output).  A ValueError says why a hand cannot be written."""
    from simulations.phh.record import PHH_VARIANTS, hand_history
    from simulations.phh.write import dumps

    if len(deals.hands) > 1:
        raise ValueError(
            f"--phh: the hand was dealt {len(deals.hands)} times (a deal passed out or killed "
            "carries its pot to the next): PHH records one deal"
        )
    history = hand_history(deals.hand, code)
    if code not in PHH_VARIANTS:
        print(
            f"cardroom: {code} is not one of PHH's variants: written as variant {code!r}, the "
            "game named in _cardroom_game; cardroom replay reads it, other PHH readers will not",
            file=sys.stderr,
        )
    text = dumps(history)
    if target == "-":
        sys.stdout.write(text)
        return
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as error:
        raise ValueError(f"--phh: cannot write {target}: {error.strerror or error}") from None
