"""Speed of the exhaustion job's model: the compiled kernel against the same model played
through the reference engine, side by side in one process pinned to one CPU.

Standalone: ``PYTHONPATH=. python bench/bench_exhaustion.py [--quick] [--hands N] [--json PATH]``.

Two tables, each one number of players (``simulations.models.exhaustion``):

* seven-card stud (F7S), eight players, the texts' rule, each player folding with a chance of
  10 % a round — the target's game;
* deuce-to-seven triple draw (F2L3D), eight players, the texts' draw rule, a fold chance of
  5 % a round, the lowball draw policy (cards 8 or lower kept).

For each, the contenders play hands from seeds drawn alike (``SEED``):

* the kernel: ``Table.play(seeds)`` (``exhaustion_kernel.play_hands``) over ``kernel_hands``
  seeds, after a warm-up call (the compilation is cached);
* the job's shard: ``ExhaustionModel.simulate(kernel_hands, rng)`` — the kernel with the
  seeds drawn and the outcomes counted, as a worker runs a shard;
* the reference engine: ``play_reference(table, seed)`` per hand — a ``Hand`` played by the
  policy up to its last deal or draw (the same stopping point as the kernel), its outcome
  read from the events — over ``hands`` seeds.

Each is timed ``repeats`` times in rounds (one pass of each per round, so that all meet the
same load); the figures are the median pass and the range.  The kernel's outcomes on the
reference's seeds must equal the engine's, hand for hand, or the run stops.  Prints
Markdown with the machine facts and the targets: ≥ 1,000,000 hands/s and ≥ 100× the
reference engine for seven-card stud.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from common import (
    SMOKE_NOTE,
    chosen_config,
    log,
    machine_facts,
    machine_lines,
    markdown_table,
    parse_args,
    rate,
    time_in_rounds,
    write_json,
)

from simulations.engine.game import ExhaustionRule
from simulations.models.exhaustion import ExhaustionModel, count_events
from simulations.models.exhaustion_reference import play_reference

SEED = 20_260_301
VERSIONS = ("numpy", "numba")
TARGET_RATE = 1_000_000.0
TARGET_OVER_REFERENCE = 100.0
SCENARIOS = {
    "seven-card stud, 8 players, fold 10 % a round": ExhaustionModel(
        "F7S", (8, 8), ExhaustionRule.STUD_BURNS_THEN_COMMUNITY, fold_chance=0.1
    ),
    "deuce-to-seven triple draw, 8 players, fold 5 % a round": ExhaustionModel(
        "F2L3D", (8, 8), ExhaustionRule.DRAW_OTHERS_DISCARDS, fold_chance=0.05
    ),
}


@dataclass(frozen=True)
class Config:
    hands: int = 2_000  # the reference engine's hands per pass
    kernel_hands: int = 4_000_000
    repeats: int = 5
    smoke: bool = False


QUICK = Config(hands=200, kernel_hands=400_000, repeats=3, smoke=True)


@dataclass
class Contender:
    name: str
    call: str
    hands: int
    repeats: int
    work: Callable[[], Any]
    times: list[float] = field(default_factory=list)
    result: Any = None

    @property
    def hands_per_s(self) -> float:
        """The median pass's rate."""
        return self.hands / statistics.median(self.times)

    @property
    def rate_range(self) -> tuple[float, float]:
        return self.hands / max(self.times), self.hands / min(self.times)


@dataclass
class Scenario:
    name: str
    model: ExhaustionModel
    contenders: list[Contender] = field(default_factory=list)
    procedures: dict[str, float] = field(default_factory=dict)


def seeds_of(count: int) -> np.ndarray[Any, np.dtype[np.uint64]]:
    return np.random.default_rng(SEED).integers(0, 2**64, size=count, dtype=np.uint64)


def reference_pass(model: ExhaustionModel, seeds: Sequence[int]) -> list[int]:
    table = model.table(model.players[0])
    return [play_reference(table, seed)[0] for seed in seeds]


def scenario(name: str, model: ExhaustionModel, config: Config) -> Scenario:
    table = model.table(model.players[0])
    big = seeds_of(config.kernel_hands)
    small = [int(s) for s in seeds_of(config.hands)]
    table.play(big[:10])  # compile, or load the cached compilation
    model.simulate(10, np.random.default_rng(0))
    found = Scenario(name, model)
    found.contenders = [
        Contender(
            "kernel",
            "Table.play(seeds)",
            config.kernel_hands,
            config.repeats,
            lambda: table.play(big),
        ),
        Contender(
            "job shard",
            "ExhaustionModel.simulate(hands, rng)",
            config.kernel_hands,
            config.repeats,
            lambda: model.simulate(config.kernel_hands, np.random.default_rng(SEED)),
        ),
        Contender(
            "reference engine",
            "play_reference(table, seed) per hand",
            config.hands,
            config.repeats,
            lambda: reference_pass(model, small),
        ),
    ]
    log(f"timing: {name}")
    time_in_rounds(found.contenders, after=log_pass)
    kernel = table.play(np.array(small, dtype=np.uint64))[0].tolist()
    reference = found.contenders[2].result
    if kernel != reference:
        bad = next(i for i, (a, b) in enumerate(zip(kernel, reference, strict=True)) if a != b)
        raise SystemExit(
            f"{name}: hand {bad}: the kernel's outcome {kernel[bad]}, the engine's {reference[bad]}"
        )
    outcomes = found.contenders[0].result[0]
    counts = count_events(model.rule, outcomes)
    found.procedures = {
        event.name: count / len(outcomes) for event, count in zip(model.events, counts, strict=True)
    }
    return found


def log_pass(contender: Contender, seconds: float) -> None:
    log(f"  {contender.name}: {contender.hands / seconds:,.0f} hands/s")


def run(config: Config) -> tuple[dict[str, Any], list[Scenario]]:
    machine = machine_facts(VERSIONS, pin=True)
    found = [scenario(name, model, config) for name, model in SCENARIOS.items()]
    machine["load_average_at_end"] = os.getloadavg()[0]
    return machine, found


def markdown(config: Config, machine: dict[str, Any], scenarios: list[Scenario]) -> str:
    lines = [*machine_lines(machine, VERSIONS)]
    for s in scenarios:
        base = next(c for c in s.contenders if c.name == "reference engine").hands_per_s
        shares = ", ".join(f"{name} {100 * share:.2f} %" for name, share in s.procedures.items())
        lines += [f"## {s.name} (seed {SEED})", "", f"Hands needing each procedure: {shares}.", ""]
        lines += markdown_table(
            ("contender", "what is timed", "hands a pass", "hands/s: median (range)", "× engine"),
            "llrrr",
            [
                (
                    c.name,
                    f"`{c.call}`",
                    f"{c.hands:,}",
                    f"{rate(c.hands_per_s)} ({rate(c.rate_range[0])}–{rate(c.rate_range[1])})",
                    f"{c.hands_per_s / base:,.0f}×",
                )
                for c in s.contenders
            ],
            spaced=False,
        )
        lines.append("")
    stud = scenarios[0]
    kernel = stud.contenders[0].hands_per_s
    over = kernel / stud.contenders[2].hands_per_s
    lines += [
        "The kernel's outcome equals the engine's on every hand the engine played.",
        "",
        "## Target",
        "",
        f"- seven-card stud kernel ≥ {rate(TARGET_RATE)} hands/s: {rate(kernel)} — "
        + ("met" if kernel >= TARGET_RATE else "NOT met"),
        f"- ≥ {TARGET_OVER_REFERENCE:.0f}× the reference engine: {over:,.0f}× — "
        + ("met" if over >= TARGET_OVER_REFERENCE else "NOT met"),
    ]
    if config.smoke:
        lines += ["", SMOKE_NOTE]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv, __doc__ or "", "the reference engine's hands per pass (2,000)")
    config = chosen_config(args, Config(), QUICK)
    machine, scenarios = run(config)
    print(markdown(config, machine, scenarios))
    if args.json is not None:
        write_json(
            args.json,
            {
                "config": asdict(config),
                "machine": machine,
                "scenarios": [
                    {
                        "name": s.name,
                        "procedures": s.procedures,
                        "contenders": [
                            {
                                "name": c.name,
                                "call": c.call,
                                "hands": c.hands,
                                "times": c.times,
                                "hands_per_s": c.hands_per_s,
                            }
                            for c in s.contenders
                        ],
                    }
                    for s in scenarios
                ],
            },
        )


if __name__ == "__main__":
    main()
