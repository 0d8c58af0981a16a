"""Speed of the Omaha high kernel against per-hand Omaha evaluators, on one core.

Standalone: ``PYTHONPATH=. python bench/bench_rankings_high.py [--quick] [--hands N]
[--json PATH]``.

One process, pinned to one CPU, deals random Omaha hands (four hole cards and a five-card
board; also five hole cards) and times, side by side on the same hands:

* ``evaluate_omaha_batch`` over the whole array, without and with the input check;
* pokerkit's ``OmahaHoldemHand.from_game`` and phevaluator's ``evaluate_omaha_cards``
  (and its private C entry point, shown as the cost of a bare call), one Python call per
  hand, each fed its own card objects built beforehand.

Each figure is the median of several timings after a warm-up, with their range.  A library
that would need more than the time budget on every hand is timed on a prefix.  Before a
library's speed is shown, its results must order every timed hand exactly as ours do.  Prints
a Markdown table.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from common import (
    Spread,
    gc_paused,
    log,
    machine_facts,
    markdown_table,
    repeat_times,
    same_order,
    write_json,
)

from simulations.cards import format_card
from simulations.dealing import deal
from simulations.evaluators.omaha import evaluate_omaha_batch

SEED = 20_240_613
TARGET_HANDS_PER_S = 2e6
BOARD = 5


@dataclass(frozen=True)
class Config:
    hands: int = 200_000
    repeats: int = 5
    budget_s: float = 20.0  # per library: longer full runs are timed on a prefix
    prefix: int = 5_000


QUICK = Config(hands=20_000, repeats=3, budget_s=2.0, prefix=500)


@dataclass(frozen=True)
class Row:
    name: str
    call: str
    hole: int
    hands: int
    rate: Spread  # hands/s over the repeats
    agrees: str


def repeated(work: Callable[[], Any], repeats: int) -> tuple[list[float], Any]:
    work()  # warm-up: compilation, caches
    with gc_paused():
        return repeat_times(work, repeats)


def per_hand(
    name: str,
    call: str,
    hands: npt.NDArray[np.int8],
    hole: int,
    ours: npt.NDArray[np.int32],
    evaluate: Callable[[Sequence[Any]], int],
    convert: Callable[[int], Any],
    config: Config,
) -> Row:
    """Time one Python call per hand on the cards converted beforehand."""
    table = [convert(code) for code in range(52)]
    evaluate([table[c] for c in hands[0].tolist()])  # first-call costs stay out of calibration
    start = time.perf_counter()
    calibration = [evaluate([table[c] for c in row]) for row in hands[:50].tolist()]
    per = (time.perf_counter() - start) / 50
    count = hands.shape[0] if per * hands.shape[0] <= config.budget_s else config.prefix
    count = min(count, hands.shape[0])
    rows = [[table[c] for c in row] for row in hands[:count].tolist()]
    del calibration
    repeats = max(1, min(config.repeats, int(config.budget_s / max(per * count, 1e-9))))
    seconds, results = repeated(lambda: [evaluate(r) for r in rows], repeats)
    agrees = same_order(ours[:count], np.asarray(results, dtype=np.int64))
    label = f"{count:,}" + ("" if count == hands.shape[0] else " (prefix)")
    rate = Spread.rates(count, seconds)
    return Row(name, call, hole, count, rate, "yes" if agrees else f"NO ({label})")


Contender = tuple[str, str, Callable[[Sequence[Any]], int], Callable[[int], Any]]


def optional_module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def contenders(hole: int) -> list[Contender]:
    """Every installed per-hand Omaha evaluator (eval7 and treys have none)."""
    found: list[Contender] = []
    pokerkit = optional_module("pokerkit")
    if pokerkit is not None:
        from_game = pokerkit.OmahaHoldemHand.from_game

        def pk(cards: Sequence[Any]) -> int:
            return int(from_game(cards[:hole], cards[hole:]).entry.index)

        def pk_card(code: int) -> Any:
            return pokerkit.Card.clean(format_card(code))[0]

        found.append(("pokerkit", "OmahaHoldemHand.from_game", pk, pk_card))
    phevaluator = optional_module("phevaluator")
    if phevaluator is not None and hole == 4:
        public = phevaluator.evaluate_omaha_cards
        private = optional_module("phevaluator._pheval").evaluate_omaha_cards

        # phevaluator takes the board first and gives smaller numbers to stronger hands.
        def ph(cards: Sequence[Any]) -> int:
            return -int(public(*cards[hole:], *cards[:hole]))

        def ph_c(cards: Sequence[Any]) -> int:
            return -int(private(*cards[hole:], *cards[:hole]))

        found.append(("phevaluator", "evaluate_omaha_cards", ph, int))
        found.append(("phevaluator", "_pheval.evaluate_omaha_cards (private C)", ph_c, int))
    return found


def run(config: Config) -> list[Row]:
    rows: list[Row] = []
    deck = np.arange(52, dtype=np.int8)
    for hole in (4, 5):
        hands = deal(np.random.default_rng(SEED + hole), deck, config.hands, hole + BOARD)
        for check in (False, True):
            seconds, ours = repeated(
                partial(evaluate_omaha_batch, hands, hole, check=check), config.repeats
            )
            call = f"evaluate_omaha_batch(check={check})"
            rate = Spread.rates(hands.shape[0], seconds)
            rows.append(Row("cardroom", call, hole, hands.shape[0], rate, "reference"))
        for name, call, evaluate, convert in contenders(hole):
            log(f"timing {name} {call} ({hole} hole cards)...")
            rows.append(per_hand(name, call, hands, hole, ours, evaluate, convert, config))
    return rows


def table(rows: list[Row]) -> str:
    cells = []
    for row in rows:
        ours = next(r for r in rows if r.hole == row.hole and r.name == "cardroom")
        ratio = "—" if row.name == "cardroom" else f"{ours.rate.median / row.rate.median:,.0f}"
        r = row.rate
        cells.append(
            (
                row.hole,
                row.name,
                f"`{row.call}`",
                f"{row.hands:,}",
                f"{r.median:,.0f} ({r.low:,.0f}–{r.high:,.0f})",
                ratio,
                row.agrees,
            )
        )
    header = (
        "hole cards",
        "evaluator",
        "call",
        "hands timed",
        "hands/s: median (range)",
        "ours ÷ theirs (medians)",
        "same order",
    )
    return "\n".join(markdown_table(header, "lllrrrl", cells))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--hands", type=int, help="random hands per table (default 200,000)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    config = QUICK if args.quick else Config()
    if args.hands:
        config = Config(args.hands, config.repeats, config.budget_s, min(config.prefix, args.hands))
    facts = machine_facts(("numpy", "numba", "pokerkit", "phevaluator"), pin=True)
    rows = run(config)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    facts["load_average_at_end"] = load
    print(f"Omaha high, {config.hands:,} random hands per row, one core")
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, 1-minute load {load:.2f}"
    )
    print()
    print(table(rows))
    print()
    batch = next(r for r in rows if r.hole == 4 and r.call.endswith("(check=False)"))
    met = "met" if batch.rate.median >= TARGET_HANDS_PER_S else "NOT met"
    print(
        f"target: Omaha high (4 hole + 5 board) >= {TARGET_HANDS_PER_S / 1e6:.0f} M hands/s "
        f"on one core: {batch.rate.median / 1e6:.1f} M hands/s (median), {met}"
    )
    if args.json:
        payload = {"machine": facts, "config": asdict(config), "rows": [asdict(r) for r in rows]}
        write_json(args.json, payload)
    print("eval7 and treys have no Omaha evaluator.")
    disagree = [r for r in rows if r.agrees not in ("yes", "reference")]
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
