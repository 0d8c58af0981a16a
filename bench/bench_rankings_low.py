"""Speed of the lowball, badugi and three-card batch kernels against pokerkit, on one core.

For each ranking system, one process times, side by side on the same random hands:

* our batch kernel over the whole array, with ``check=False`` (what simulations run) and
  with ``check=True`` (the public default), after a warm-up;
* pokerkit's public per-hand call for the same system, one Python call per hand, on pokerkit
  cards built beforehand; a call whose full run would take too long is timed on a prefix.

The three are timed in rounds (one pass of each per round, so that all meet the same load);
each figure is the median pass and the range (lowest–highest), never the best.  Before a
speed is reported, pokerkit's results must order the timed hands exactly as ours
do.  pokerkit has no ace-to-six lookup and no three-card guts order, so ace-to-six is timed
on its deuce-to-seven hands with every rank moved one up (the ace below the deuce), and
three-card guts on its Rhode Island hold'em hands (the same three-card categories with a
straight flush above three of a kind; the order check lifts three of a kind to the top).
eval7, phevaluator and treys rank high hands only.  Numba kernels run on one thread.

    PYTHONPATH=. python bench/bench_rankings_low.py            # about a minute
    PYTHONPATH=. python bench/bench_rankings_low.py --quick    # smoke run, a few seconds
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from common import (
    Spread,
    cpu_model,
    gc_paused,
    log,
    markdown_table,
    same_order,
    timed,
    write_json,
)

from simulations.cards import format_card
from simulations.dealing import deal
from simulations.evaluators.badugi import evaluate_badugi_batch
from simulations.evaluators.lowball import Lowball, Qualifier, evaluate_low_batch
from simulations.evaluators.small_hands import evaluate_three_card_batch

SEED = 20_240_613
Hands = npt.NDArray[np.int8]


@dataclass(frozen=True)
class Config:
    hands: int = 2_000_000
    repeats: int = 5
    reference_hands: int = 20_000
    reference_budget_s: float = 5.0  # a pokerkit pass: longer ones are timed on a prefix


QUICK = Config(hands=200_000, repeats=3, reference_hands=2_000, reference_budget_s=0.3)


@dataclass(frozen=True)
class System:
    """One ranking system: our batch call, and pokerkit's per-hand call with its key."""

    name: str
    cards: int
    ours: Callable[..., npt.NDArray[np.int32]]
    pokerkit_call: str
    pokerkit_evaluate: Callable[[Sequence[Any]], Any]
    pokerkit_key: Callable[[Any], int]  # larger is better, as ours
    relabel: Callable[[int], int] = lambda code: code
    target_per_s: float | None = None


@dataclass(frozen=True)
class Result:
    system: str
    cards: int
    ours: Spread  # hands/s, check=False
    ours_checked: Spread  # hands/s, check=True
    pokerkit_call: str
    pokerkit: Spread  # hands/s
    pokerkit_hands: int
    target_per_s: float | None

    @property
    def ratio(self) -> float:
        """Our median rate over pokerkit's."""
        return self.ours.median / self.pokerkit.median

    @property
    def met(self) -> bool | None:
        return None if self.target_per_s is None else self.ours.median >= self.target_per_s


def systems() -> list[System]:
    import pokerkit

    def low_key(hand: Any) -> int:
        return -(1 << 40) if hand is None else -hand.entry.index

    def guts_key(hand: Any) -> int:
        # Rhode Island hold'em puts a straight flush above three of a kind; guts the reverse.
        trips = hand.entry.label is pokerkit.Label.THREE_OF_A_KIND
        return (1 << 40) * trips + hand.entry.index

    def ace_low(code: int) -> int:
        return ((code // 4 + 1) % 13) * 4 + code % 4

    def low(system: Lowball, qualifier: Qualifier | None = None) -> Callable[..., Any]:
        return partial(evaluate_low_batch, system=system, qualifier=qualifier)

    return [
        System(
            "ace-to-five, 8 or better",
            7,
            low(Lowball.ACE_TO_FIVE, Qualifier.EIGHT_OR_BETTER),
            "EightOrBetterLowHand.from_game_or_none(cards)",
            pokerkit.EightOrBetterLowHand.from_game_or_none,
            low_key,
            target_per_s=30e6,
        ),
        System(
            "ace-to-five (Razz)",
            7,
            low(Lowball.ACE_TO_FIVE),
            "RegularLowHand.from_game(cards)",
            pokerkit.RegularLowHand.from_game,
            low_key,
        ),
        System(
            "ace-to-five (California lowball)",
            5,
            low(Lowball.ACE_TO_FIVE),
            "RegularLowHand(cards)",
            pokerkit.RegularLowHand,
            low_key,
        ),
        System(
            "deuce-to-seven (Kansas City)",
            5,
            low(Lowball.DEUCE_TO_SEVEN),
            "StandardLowHand(cards)",
            pokerkit.StandardLowHand,
            low_key,
        ),
        System(
            "deuce-to-seven",
            7,
            low(Lowball.DEUCE_TO_SEVEN),
            "StandardLowHand.from_game(cards)",
            pokerkit.StandardLowHand.from_game,
            low_key,
        ),
        System(
            "ace-to-six (London lowball)",
            7,
            low(Lowball.ACE_TO_SIX),
            "StandardLowHand.from_game(relabelled cards)",
            pokerkit.StandardLowHand.from_game,
            low_key,
            relabel=ace_low,
        ),
        System(
            "badugi",
            4,
            evaluate_badugi_batch,
            "BadugiHand.from_game(cards)",
            pokerkit.BadugiHand.from_game,
            low_key,
        ),
        System(
            "three-card guts",
            3,
            evaluate_three_card_batch,
            "RhodeIslandHoldemHand(cards)",
            pokerkit.RhodeIslandHoldemHand,
            guts_key,
            target_per_s=50e6,
        ),
    ]


def bench_system(system: System, config: Config, rng: np.random.Generator) -> Result:
    import pokerkit

    hands = deal(rng, np.arange(52, dtype=np.int8), config.hands, system.cards)
    ours = system.ours(hands, check=False)
    if not np.array_equal(system.ours(hands, check=True), ours):
        raise SystemExit(f"{system.name}: checked and unchecked values differ")
    # A warm-up on a slice loads the compiled kernel.
    system.ours(hands[:1000], check=False)

    cards = [pokerkit.Card.clean(format_card(system.relabel(c)))[0] for c in range(52)]
    rows = [[cards[c] for c in row] for row in hands[: config.reference_hands].tolist()]
    calibration = rows[:200]
    with gc_paused():
        seconds, _ = timed(lambda: [system.pokerkit_evaluate(r) for r in calibration])
    count = int(min(len(rows), max(200, len(calibration) / seconds * config.reference_budget_s)))
    timed_rows = rows[:count]
    results: list[Any] = []

    def run_pokerkit() -> None:
        results[:] = [system.pokerkit_evaluate(r) for r in timed_rows]

    passes: list[Callable[[], object]] = [
        lambda: system.ours(hands, check=False),
        lambda: system.ours(hands, check=True),
        run_pokerkit,
    ]
    times: list[list[float]] = [[] for _ in passes]
    with gc_paused():
        for _ in range(config.repeats):
            for work, kept in zip(passes, times, strict=True):
                kept.append(timed(work)[0])
    theirs = np.array([system.pokerkit_key(h) for h in results], dtype=np.int64)
    if not same_order(ours[:count].astype(np.int64), theirs):
        raise SystemExit(f"{system.name}: pokerkit orders the hands differently from ours")
    return Result(
        system.name,
        system.cards,
        Spread.rates(len(hands), times[0]),
        Spread.rates(len(hands), times[1]),
        system.pokerkit_call,
        Spread.rates(count, times[2]),
        count,
        system.target_per_s,
    )


def machine() -> dict[str, Any]:
    import numba

    return {
        "cpu": cpu_model(fallback=platform.machine()),
        "cores": os.cpu_count(),
        "load_1min": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pokerkit": metadata.version("pokerkit"),
    }


def per_s(spread: Spread) -> str:
    def one(value: float) -> str:
        return f"{value / 1e6:,.1f} M" if value >= 1e6 else f"{value:,.0f}"

    return f"{one(spread.median)}/s ({one(spread.low)}–{one(spread.high)})"


def markdown(results: list[Result], facts: dict[str, Any], config: Config) -> str:
    lines = [
        f"Machine: {facts['cpu']}, {facts['cores']} cores (one used), load {facts['load_1min']}; "
        f"Python {facts['python']}, numpy {facts['numpy']}, numba {facts['numba']}, "
        f"pokerkit {facts['pokerkit']}.",
        f"Ours: {config.hands:,} random hands per system; pokerkit: one call per hand on the "
        f"first hands of the same array; each the median (range) of {config.repeats} passes "
        "timed in rounds; the ratio compares medians.",
        "",
    ]
    rows = []
    for r in results:
        target = "" if r.target_per_s is None else f"≥ {r.target_per_s / 1e6:.0f} M/s: "
        target += "" if r.met is None else ("met" if r.met else "NOT met")
        rows.append(
            (
                r.system,
                r.cards,
                per_s(r.ours),
                per_s(r.ours_checked),
                f"`{r.pokerkit_call}`",
                per_s(r.pokerkit),
                f"{r.ratio:,.0f}×",
                target,
            )
        )
    header = (
        "system",
        "cards",
        "ours, unchecked",
        "ours, checked",
        "pokerkit call",
        "pokerkit",
        "ratio",
        "target",
    )
    return "\n".join(lines + markdown_table(header, "lrrrlrrl", rows))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument("--hands", type=int, help="hands per system for our kernels")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    config = QUICK if args.quick else Config()
    if args.hands:
        config = Config(args.hands, config.repeats, config.reference_hands)
    rng = np.random.default_rng(SEED)
    results = []
    for system in systems():
        log(f"{system.name}, {system.cards} cards ...")
        results.append(bench_system(system, config, rng))
    facts = machine()
    print(markdown(results, facts, config))
    if args.json:
        payload = {
            "machine": facts,
            "config": asdict(config),
            "results": [asdict(r) | {"ratio": r.ratio, "met": r.met} for r in results],
        }
        write_json(args.json, payload)
    return 0 if all(r.met is not False for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
