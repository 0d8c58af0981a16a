"""Speed of playing whole games of guts: the compiled session loop against the reference
session (:class:`simulations.engine.guts.GutsSession`), the same games, on one core.

Standalone: ``PYTHONPATH=. python bench/bench_guts.py [--quick] [--hands N] [--json PATH]``
(``--hands`` sets the games the reference plays).

The job's model (three-card guts capped at 50 antes, five players, each in with the best
35 % of hands) plays a batch of games from seeds.  The reference plays the first ``games``
of them from the draws the loop used (:func:`~simulations.models.guts_kernel.session_draws`),
each player deciding by the same threshold; the kernel plays the whole batch.  Every game
must end alike (deals, nets), or the run stops.  In one process pinned to one CPU the two
are timed in rounds, median and range of the repeats, as deals per second; the targets are
the kernel at 1 M deals/s or more and 100 times the reference.
"""

from __future__ import annotations

import os
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
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
    time_in_rounds,
    write_json,
)

from simulations.engine.guts import GutsSession
from simulations.models.guts import GutsModel
from simulations.models.guts_kernel import session_draws
from simulations.models.guts_policy import Stay, StayPolicy, decision_value, threshold_for_top


@dataclass(frozen=True)
class Config:
    hands: int = 4_000  # games the reference plays
    kernel_games: int = 400_000
    repeats: int = 5


QUICK = Config(hands=300, kernel_games=20_000, repeats=2)


@dataclass
class Contender:
    name: str
    work: Callable[[], Any]
    deals: int
    repeats: int
    times: list[float] = field(default_factory=list)
    result: Any = None

    def rate(self, seconds: float) -> float:
        return self.deals / seconds


def _model() -> GutsModel:
    game_code, players = "G3-CAP50", 5
    probe = GutsModel(game_code, players, (StayPolicy(Stay.THRESHOLD, 0),) * players)
    threshold = threshold_for_top(probe.game, 0.35)
    return GutsModel(game_code, players, (StayPolicy(Stay.THRESHOLD, threshold),) * players)


def _reference(
    model: GutsModel, seeds: Sequence[int], deals: Sequence[int]
) -> list[tuple[int, ...]]:
    game = model.game
    needed = model.players * game.cards
    threshold = model.policies[0].threshold
    nets = []
    for seed, count in zip(seeds, deals, strict=True):
        decks = [d[:needed] for d in session_draws(seed, count, model.players, game.cards)[0]]
        session = GutsSession(game, model.players, decks=decks, max_deals=model.max_deals)
        while not session.finished:
            seat = session.legal_actions().seats[0]
            held = tuple(int(c) for c in session.cards(seat))
            session.act(seat, "in" if decision_value(game, held) >= threshold else "out")
        nets.append((session.deals, *session.nets))
    return nets


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv, "Guts sessions: compiled loop vs reference session", "games")
    config = chosen_config(args, Config(), QUICK)
    facts = machine_facts(["numba", "numpy"], pin=True)
    model = _model()
    rng = np.random.default_rng(17)
    seeds = rng.integers(0, 2**64, size=config.kernel_games, dtype=np.uint64)
    log("compiling and checking the kernel against the reference")
    out = model._play(seeds, model.policies)
    deals, nets = out[0], out[5]
    few = [int(s) for s in seeds[: config.hands]]
    expected = [(int(d), *map(int, n)) for d, n in zip(deals, nets, strict=False)][: config.hands]
    if _reference(model, few, [int(d) for d in deals[: config.hands]]) != expected:
        print("the reference and the kernel disagree", file=sys.stderr)
        return 1
    reference_deals = int(deals[: config.hands].sum())
    contenders = [
        Contender(
            "reference session (GutsSession)",
            lambda: _reference(model, few, [int(d) for d in deals[: config.hands]]),
            reference_deals,
            config.repeats,
        ),
        Contender(
            "compiled loop (play_sessions)",
            lambda: model._play(seeds, model.policies),
            int(deals.sum()),
            config.repeats,
        ),
    ]
    log("timing")
    time_in_rounds(contenders)
    facts["load_average_at_end"] = os.getloadavg()[0]
    rows = []
    rates = {}
    for c in contenders:
        per = sorted(c.rate(t) for t in c.times)
        rates[c.name] = statistics.median(per)
        rows.append(
            [
                c.name,
                f"{c.deals:,}",
                f"{statistics.median(per):,.0f}",
                f"{per[0]:,.0f}–{per[-1]:,.0f}",
            ]
        )
    kernel, reference = rates[contenders[1].name], rates[contenders[0].name]
    lines = [
        "# Guts sessions, one core",
        "",
        *machine_lines(facts, ["numba", "numpy"]),
        "",
        f"{model.describe()}; each player in with the best 35 % of hands.",
        "",
        *markdown_table(["contender", "deals", "deals/s (median)", "range"], "lrrr", rows),
        "",
        f"Kernel {kernel / 1e6:.2f} M deals/s (target ≥ 1 M): "
        f"{'met' if kernel >= 1e6 else 'NOT met'}; {kernel / reference:,.0f}× the reference "
        f"(target ≥ 100×): {'met' if kernel >= 100 * reference else 'NOT met'}.",
    ]
    if args.quick:
        lines += ["", SMOKE_NOTE]
    print("\n".join(lines))
    if args.json is not None:
        times = {c.name: {"deals": c.deals, "times": c.times} for c in contenders}
        payload = {"machine": facts, "rates": rates, "times": times, "config": config.__dict__}
        write_json(args.json, payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
