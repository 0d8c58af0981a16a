"""Speed of the cardroom-economics jobs: the compiled table loop (play and tally, the
shard's own path) against the same hands played through the reference engine, on one core.

Standalone: ``PYTHONPATH=. python bench/bench_economics.py [--quick] [--hands N] [--json PATH]``
(``--hands`` sets the hands the reference plays).

Three models, each a batch of hands from seeds:

* bad beat, hold'em, nine seats of two kinds of player folding by the default models, a
  rake and a drop, the jackpot judged at three levels of a schedule;
* the same in Omaha;
* rake, the same hold'em table settled under five policies at once.

The reference plays the first ``hands`` seeds through :class:`~simulations.engine.hand.Hand`
with the reference player (:mod:`simulations.models.table_reference`), judging the jackpot
with :func:`~simulations.models.table_reference.reference_verdict`; for the rake model it
settles the first policy and reads the others' rake off the same pot with the engine's
:class:`~simulations.engine.game.Rake`.  Every reference hand must end as the loop ended it,
or the run stops.  In one process pinned to one CPU the two are timed in rounds, median and
range of the repeats, as hands per second; the targets: the loop at 1 M hands/s (hold'em bad
beat, rake) and 0.5 M (Omaha), and 100 times the reference.  The classic bad-beat kernel
(every seat to the river, no table) is timed in the same rounds, for scale: its figure on a
quiet machine is in docs/benchmarks.md, so its ratio to the loop carries over to a machine
under load (the last column: the classic kernel's time over the loop's in each round, median
and range).
"""

from __future__ import annotations

import os
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from common import (
    SMOKE_NOTE,
    chosen_config,
    engine_build,
    log,
    machine_facts,
    machine_lines,
    markdown_table,
    parse_args,
    time_in_rounds,
    write_json,
)

from simulations.engine.game import RakeRounding
from simulations.evaluators.floors import hand_floor
from simulations.models.bad_beat import BadBeatModel
from simulations.models.players import SeatModel
from simulations.models.table import DropRule, Jackpot, RakePolicy, RakeRule, Table
from simulations.models.table_kernel import awards
from simulations.models.table_reference import Reference
from simulations.models.table_tally import simulate_table
from simulations.rules.jackpot import BadBeatRules


@dataclass(frozen=True)
class Config:
    hands: int = 2_000  # hands the reference plays
    kernel_hands: int = 1_000_000
    repeats: int = 5


QUICK = Config(hands=200, kernel_hands=65_536, repeats=2)
KINDS = (
    SeatModel("regular", 6, 0.18),
    SeatModel("recreational", None, 0.40, chance=0.35),
)
HOUSE = RakePolicy("10 % capped at 5", RakeRule(Fraction(1, 10), caps=((2, 5),)), DropRule(1, 20))
POLICIES = (
    HOUSE,
    RakePolicy("10 % capped at 4", RakeRule(Fraction(1, 10), caps=((2, 4),))),
    RakePolicy(
        "5 % half to even, caps",
        RakeRule(Fraction(5, 100), ((2, 1), (3, 2), (5, 3)), rounding=RakeRounding.HALF_EVEN),
    ),
    RakePolicy("1 per 20", RakeRule(Fraction(0), ((2, 4),), increment=20, per_increment=1)),
    RakePolicy("time", None, None, 14),
)


def _tables() -> dict[str, Table]:
    def jackpot(losing: tuple[str, ...], rules: BadBeatRules) -> Jackpot:
        return Jackpot(rules, tuple(hand_floor(t) for t in losing))

    holdem = jackpot(("AAATT", "KKKQQ", "full house"), BadBeatRules())
    omaha = jackpot(
        ("quads", "AAAKK", "full house"), BadBeatRules("quads", quads_need_pocket_pair=True)
    )
    return {
        "bad beat, hold'em, 9 seats folding": Table("NT", 9, (1, 2), KINDS, (HOUSE,), holdem),
        "bad beat, Omaha, 9 seats folding": Table("NO", 9, (1, 2), KINDS, (HOUSE,), omaha),
        "rake, hold'em, 9 seats, 5 policies": Table("NT", 9, (1, 2), KINDS, POLICIES, None),
    }


@dataclass
class Contender:
    name: str
    work: Callable[[], Any]
    hands: int
    repeats: int
    times: list[float] = field(default_factory=list)
    result: Any = None


def _reference(table: Table, seeds: Sequence[int]) -> list[tuple[Any, ...]]:
    """Each hand's outcome through the engine: nets, every policy's rake, drop, verdict."""
    first = table.policies[0]
    reference = Reference(table, first)
    out = []
    for seed in seeds:
        hand = reference.play(seed)
        rakes = [hand.rake] + [
            p.rake.engine().amount(hand.pot, table.players, hand.flopped) if p.rake else 0
            for p in table.policies[1:]
        ]
        out.append((hand.payoffs, tuple(rakes), hand.drop, hand.level))
    return out


def _kernel_outcomes(table: Table, seeds: npt.NDArray[np.uint64]) -> list[tuple[Any, ...]]:
    hands = table.play(seeds)
    n = table.players
    won = np.empty(n, dtype=np.int64)
    out = []
    for i in range(len(seeds)):
        kept = int(hands.pots[i] - hands.rakes[i, 0] - hands.drops[i, 0])
        awards(kept, int(hands.masks[i, 3]), int(hands.button[i]), n, won)
        nets = tuple(int(won[s] - hands.contributed[i, s]) for s in range(n))
        out.append(
            (
                nets,
                tuple(int(r) for r in hands.rakes[i]),
                int(hands.drops[i, 0]),
                int(hands.card_level[i]),
            )
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv, "Economics jobs: compiled table loop vs reference engine", "hands")
    config = chosen_config(args, Config(), QUICK)
    facts = machine_facts(["numba", "numpy"], pin=True)
    facts["engine"] = engine_build()
    seeds = np.random.default_rng(23).integers(0, 2**64, size=config.kernel_hands, dtype=np.uint64)
    few = [int(s) for s in seeds[: config.hands]]
    contenders: list[Contender] = []
    for name, table in _tables().items():
        log(f"{name}: compiling and checking the loop against the reference")
        simulate_table(table, 1_000, np.random.default_rng(1))
        if _kernel_outcomes(table, seeds[: config.hands]) != _reference(table, few):
            print(f"{name}: the reference and the loop disagree", file=sys.stderr)
            return 1

        def loop(table: Table = table) -> Any:
            return simulate_table(table, config.kernel_hands, np.random.default_rng(7))

        contenders += [
            Contender(
                f"{name}|reference",
                lambda t=table: _reference(t, few),
                config.hands,
                config.repeats,
            ),
            Contender(f"{name}|loop", loop, config.kernel_hands, config.repeats),
        ]
    classic = BadBeatModel(players=9)
    classic.simulate(4_096, np.random.default_rng(1))
    contenders.append(
        Contender(
            "classic|loop",
            lambda: classic.simulate(config.kernel_hands, np.random.default_rng(7)),
            config.kernel_hands,
            config.repeats,
        )
    )
    log("timing")
    time_in_rounds(contenders)
    facts["load_average_at_end"] = os.getloadavg()[0]
    rows, rates = [], {}
    for c in contenders:
        per = sorted(c.hands / t for t in c.times)
        rates[c.name] = statistics.median(per)
    targets = {"hold'em": 1e6, "Omaha": 5e5}
    verdicts = []
    classic_times = next(c.times for c in contenders if c.name == "classic|loop")
    for name in _tables():
        loop, reference = rates[f"{name}|loop"], rates[f"{name}|reference"]
        per_loop = sorted(
            c.hands / t for c in contenders if c.name == f"{name}|loop" for t in c.times
        )
        per_ref = sorted(
            c.hands / t for c in contenders if c.name == f"{name}|reference" for t in c.times
        )
        # The loop against the classic kernel round by round: both met the same load.
        loop_times = next(c.times for c in contenders if c.name == f"{name}|loop")
        paired = sorted(k / t for k, t in zip(classic_times, loop_times, strict=True))
        rates[f"{name}|per classic"] = statistics.median(paired)
        target = targets["Omaha"] if "Omaha" in name else targets["hold'em"]
        rows.append(
            [
                name,
                f"{loop / 1e6:.2f} M ({per_loop[0] / 1e6:.2f} M–{per_loop[-1] / 1e6:.2f} M)",
                f"{reference:,.0f} ({per_ref[0]:,.0f}–{per_ref[-1]:,.0f})",
                f"{loop / reference:,.0f}×",
                f"{statistics.median(paired):.3f} ({paired[0]:.3f}–{paired[-1]:.3f})",
            ]
        )
        verdicts.append(
            f"- {name}: {loop / 1e6:.2f} M hands/s (target ≥ {target / 1e6:g} M): "
            f"{'met' if loop >= target else 'NOT met'}; {loop / reference:,.0f}× the reference "
            f"(target ≥ 100×): {'met' if loop >= 100 * reference else 'NOT met'}"
        )
    per_classic = sorted(
        config.kernel_hands / t for c in contenders if c.name == "classic|loop" for t in c.times
    )
    rows.append(
        [
            "classic bad-beat kernel, 9 seats to the river (no table; for scale)",
            f"{rates['classic|loop'] / 1e6:.2f} M ({per_classic[0] / 1e6:.2f} M–"
            f"{per_classic[-1] / 1e6:.2f} M)",
            "",
            "",
            "1",
        ]
    )
    lines = [
        "# Cardroom economics, one core",
        "",
        *machine_lines(facts, ["numba", "numpy"]),
        f"Loop: {config.kernel_hands:,} hands a repeat (play and tally); reference: "
        f"{config.hands:,} hands; median (range) of {config.repeats} repeats.",
        "",
        *markdown_table(
            ["model", "loop, hands/s", "reference, hands/s", "× reference", "× classic, by round"],
            "lrrrr",
            rows,
        ),
        "",
        *verdicts,
    ]
    if args.quick:
        lines += ["", SMOKE_NOTE]
    print("\n".join(lines))
    if args.json is not None:
        times = {c.name: {"hands": c.hands, "times": c.times} for c in contenders}
        payload = {"machine": facts, "rates": rates, "times": times, "config": config.__dict__}
        write_json(args.json, payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
