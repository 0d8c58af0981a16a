"""pokerkit against our reference engine on the PHH hand histories: the same hands, cards and
actions, side by side in one process on one core, per variant.

Standalone: ``PYTHONPATH=. python bench/bench_phh.py [--quick] [--repeats N] [--pluribus N]
[--variants NT,FT,...] [--json PATH]``.

The hands come from ``../shared/phh`` beside the repository (:mod:`phh_corpus`): the generated
corpus, one file per variant, and the 10,000 Pluribus hands.  A hand is kept when both engines
end it at the PHH's finishing stacks; the others are counted by reason.

Each engine plays a hand as a user would replay it: pokerkit builds its game with the hand's
stakes and runs the script of dealing and actions; ours builds ``Hand(...)`` and calls ``act``
per action.  After an untimed warm-up pass, every repeat times the whole corpus twice:

* **in blocks** (the figure the targets are read on): pokerkit plays ``BLOCK`` hands in a row,
  then ours plays the same hands, block after block.  Each engine runs in a loop of its own, as
  it would in use, and the two alternate every fraction of a second, so that both meet the
  same changes in the machine's load;
* **hand by hand** (stricter, shown beside it): pokerkit plays a hand, then ours plays it, each
  timed alone.  Ours then always starts right after pokerkit has filled the caches with its
  own objects, which slows it by 10 % to 90 % on the development machine (most in Omaha): a
  cost of interleaving two programs rather than of either engine.

A repeat's ratio is pokerkit's time over ours for the whole corpus (the ratio of the mean times
a hand); the report gives the median over the repeats and the range.  The garbage collector is
paused while timing and run, untimed, after every block (every ``BLOCK`` hands in the hand by
hand pass): pokerkit's states leave cyclic garbage, which would otherwise either charge one
engine for the other's garbage or, left to grow, slow both.  Leaving collection out of the
timed calls spares pokerkit, whose garbage it is.

Targets: at least 10× pokerkit on every generated variant, at least 5× on the Pluribus hands,
read on the median repeat in blocks.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import phh_corpus
from common import SMOKE_NOTE, log, machine_facts, machine_lines, markdown_table, write_json
from phh_corpus import PLURIBUS, Loaded, PreparedHand, play_ours, play_pokerkit, pokerkit_quiet

VERSIONS = ("numpy", "numba", "pokerkit")
GENERATED = tuple(phh_corpus.GENERATED_FILES)
TARGETS = {PLURIBUS: 5.0} | dict.fromkeys(GENERATED, 10.0)
BLOCK = 50  # hands an engine plays in a row in the block method; hands between collections
METHODS = ("blocks", "hand by hand")


@dataclass(frozen=True)
class Config:
    repeats: int = 7
    generated_hands: int | None = None  # None: the whole file
    pluribus_hands: int | None = None  # None: all 10,000
    variants: tuple[str, ...] = (*GENERATED, PLURIBUS)
    smoke: bool = False


QUICK = Config(repeats=3, generated_hands=20, pluribus_hands=200, smoke=True)


@dataclass
class Timing:
    """Each repeat's seconds for the whole corpus, by engine, under one method."""

    pokerkit: list[float] = field(default_factory=list)
    ours: list[float] = field(default_factory=list)

    @property
    def ratios(self) -> list[float]:
        return [theirs / ours for theirs, ours in zip(self.pokerkit, self.ours, strict=True)]

    @property
    def ratio(self) -> float:
        return statistics.median(self.ratios)


@dataclass
class Result:
    """One corpus: what was loaded, and its timings by method."""

    loaded: Loaded
    timings: dict[str, Timing] = field(default_factory=lambda: {m: Timing() for m in METHODS})

    @property
    def hands(self) -> list[PreparedHand]:
        return self.loaded.hands

    @property
    def target(self) -> float:
        return TARGETS[self.loaded.variant]

    def met(self, method: str = METHODS[0]) -> bool:
        return self.timings[method].ratio >= self.target

    def microseconds(self, seconds: list[float]) -> float:
        """The median repeat, per hand."""
        return 1e6 * statistics.median(seconds) / len(self.hands)


@dataclass
class Report:
    machine: dict[str, Any]
    config: Config
    results: list[Result] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # variant -> why


def in_blocks(hands: Sequence[PreparedHand]) -> tuple[float, float]:
    """pokerkit's and our seconds for every hand, ``BLOCK`` hands of one then of the other."""
    clock = time.perf_counter
    theirs = ours = 0.0
    for first in range(0, len(hands), BLOCK):
        block = hands[first : first + BLOCK]
        start = clock()
        for hand in block:
            play_pokerkit(hand)
        middle = clock()
        for hand in block:
            play_ours(hand)
        end = clock()
        theirs += middle - start
        ours += end - middle
        gc.collect()
    return theirs, ours


def hand_by_hand(hands: Sequence[PreparedHand]) -> tuple[float, float]:
    """pokerkit's and our seconds for every hand, one hand of one then of the other."""
    clock = time.perf_counter
    theirs = ours = 0.0
    for index, hand in enumerate(hands, start=1):
        start = clock()
        play_pokerkit(hand)
        middle = clock()
        play_ours(hand)
        end = clock()
        theirs += middle - start
        ours += end - middle
        if index % BLOCK == 0:
            gc.collect()
    gc.collect()
    return theirs, ours


def time_hands(hands: Sequence[PreparedHand], repeats: int) -> dict[str, Timing]:
    """``repeats`` timed passes over ``hands`` by each method, the methods taking turns."""
    for hand in hands:  # warm-up: imports, compiled code, caches of both engines
        play_pokerkit(hand)
        play_ours(hand)
    timings = {method: Timing() for method in METHODS}
    passes = {METHODS[0]: in_blocks, METHODS[1]: hand_by_hand}
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    gc.freeze()  # the loaded corpus stays: collections need only look at what the hands leave
    try:
        for repeat in range(repeats):
            order = METHODS if repeat % 2 == 0 else METHODS[::-1]
            for method in order:
                theirs, ours = passes[method](hands)
                timings[method].pokerkit.append(theirs)
                timings[method].ours.append(ours)
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()
    return timings


def run(config: Config) -> Report:
    report = Report(machine_facts(VERSIONS, pin=True), config)
    for name in config.variants:
        limit = config.pluribus_hands if name == PLURIBUS else config.generated_hands
        log(f"{name}: loading")
        try:
            loaded = phh_corpus.load(name, limit)
        except FileNotFoundError as error:
            report.skipped[name] = str(error)
            log(f"{name}: skipped, {error}")
            continue
        if not loaded.hands:
            why = "; ".join(f"{reason} ({count})" for reason, count in loaded.left_out.items())
            report.skipped[name] = f"no hand both engines replay ({why or 'an empty corpus'})"
            log(f"{name}: skipped, {report.skipped[name]}")
            continue
        log(f"{name}: {len(loaded.hands)} of {loaded.total} hands; timing")
        with pokerkit_quiet():
            result = Result(loaded, time_hands(loaded.hands, config.repeats))
        report.results.append(result)
        for method, timing in result.timings.items():
            log(f"  {method}: " + ", ".join(f"{r:.2f}" for r in timing.ratios))
    report.machine["load_average_at_end"] = os.getloadavg()[0]
    return report


def label(name: str) -> str:
    return "Pluribus" if name == PLURIBUS else name


def markdown(report: Report) -> str:
    m = report.machine
    repeats = report.config.repeats
    lines = [
        *machine_lines(m, VERSIONS),
        "## Corpora",
        "",
    ]
    lines += markdown_table(
        ("variant", "source", "hands kept", "to showdown", "actions a hand", "left out"),
        "llrrrl",
        [
            (
                label(r.loaded.variant),
                f"`{r.loaded.source}`",
                f"{len(r.hands):,} of {r.loaded.total:,}",
                f"{sum(h.showdown for h in r.hands) / len(r.hands):.0%}",
                f"{sum(len(h.actions) for h in r.hands) / len(r.hands):.1f}",
                "; ".join(f"{why}: {n}" for why, n in sorted(r.loaded.left_out.items())) or "—",
            )
            for r in report.results
        ],
        spaced=False,
    )
    for name, why in report.skipped.items():
        lines.append(f"\n{label(name)} was skipped: {why}.")
    blocks, strict = METHODS
    lines += [
        "",
        f"## pokerkit against the reference engine (median and range of {repeats} repeats)",
        "",
    ]
    if report.config.smoke:
        lines += [SMOKE_NOTE, ""]
    rows = []
    for r in report.results:
        b, h = r.timings[blocks], r.timings[strict]
        rows.append(
            (
                label(r.loaded.variant),
                f"{len(r.hands):,}",
                f"{r.microseconds(b.pokerkit):,.0f}",
                f"{r.microseconds(b.ours):,.0f}",
                f"**{b.ratio:.1f}×** ({min(b.ratios):.1f}–{max(b.ratios):.1f})",
                f"≥ {r.target:.0f}×: {'met' if r.met() else 'NOT met'}",
                f"{h.ratio:.1f}× ({min(h.ratios):.1f}–{max(h.ratios):.1f})",
                f"{r.microseconds(h.ours):,.0f}",
                "met" if r.met(strict) else "not met",
            )
        )
    lines += markdown_table(
        (
            "variant",
            "hands",
            "pokerkit µs/hand",
            "ours µs/hand",
            "× pokerkit, in blocks",
            "target",
            "× pokerkit, hand by hand",
            "ours µs/hand, hand by hand",
            "target, hand by hand",
        ),
        "lrrrrlrrl",
        rows,
        spaced=False,
    )
    lines += [
        "",
        "× pokerkit is pokerkit's time over ours for the whole corpus in one repeat (the ratio "
        "of the mean times a hand): the median repeat, and the lowest and highest in brackets. "
        f"In blocks, each engine plays {BLOCK} hands in a row, then the other the same hands; "
        "hand by hand, pokerkit plays a hand and ours then plays it. µs/hand is the median "
        "repeat. The garbage collector is paused while timing and run untimed after every "
        f"{BLOCK} hands.",
    ]
    return "\n".join(lines)


def as_json(report: Report) -> dict[str, Any]:
    return {
        "machine": report.machine,
        "config": {
            "repeats": report.config.repeats,
            "generated_hands": report.config.generated_hands,
            "pluribus_hands": report.config.pluribus_hands,
            "smoke": report.config.smoke,
            "block": BLOCK,
        },
        "skipped": report.skipped,
        "results": [
            {
                "variant": r.loaded.variant,
                "source": r.loaded.source,
                "hands": len(r.hands),
                "total": r.loaded.total,
                "left_out": dict(r.loaded.left_out),
                "target": r.target,
                "methods": {
                    method: {
                        "pokerkit_seconds": t.pokerkit,
                        "ours_seconds": t.ours,
                        "ratios": t.ratios,
                        "ratio_median": t.ratio,
                        "met": r.met(method),
                    }
                    for method, t in r.timings.items()
                },
            }
            for r in report.results
        ],
    }


def parse_args(argv: Sequence[str] | None) -> tuple[Config, Path | None]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 hands a variant, 3 repeats")
    parser.add_argument("--repeats", type=int, help="timed repeats (7; 3 with --quick)")
    parser.add_argument("--pluribus", type=int, metavar="N", help="the first N Pluribus hands")
    parser.add_argument(
        "--variants",
        help=f"comma-separated, of {','.join((*GENERATED, PLURIBUS))} (default: all)",
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the numbers here")
    args = parser.parse_args(argv)
    config = QUICK if args.quick else Config()
    if args.repeats is not None:
        if args.repeats < 1:
            parser.error("--repeats must be positive")
        config = replace(config, repeats=args.repeats)
    if args.pluribus is not None:
        config = replace(config, pluribus_hands=args.pluribus)
    if args.variants:
        chosen = tuple(args.variants.split(","))
        unknown = [name for name in chosen if name not in TARGETS]
        if unknown:
            parser.error(f"unknown variants {', '.join(unknown)}")
        config = replace(config, variants=chosen)
    return config, args.json


def main(argv: Sequence[str] | None = None) -> int:
    config, json_path = parse_args(argv)
    started = time.perf_counter()
    report = run(config)
    log(f"done in {time.perf_counter() - started:.1f} s")
    print(markdown(report))
    if json_path is not None:
        write_json(json_path, as_json(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
