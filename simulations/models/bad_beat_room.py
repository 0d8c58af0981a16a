"""The bad-beat job at a real table: the player models, the room's conditions, the rake and
the drop, and the jackpot as a policy over time — read from a job file, and reported.

A bad-beat job of the classic settings alone (hold'em, every hand to the river, no room
settings) deals as it always did (:mod:`simulations.models.bad_beat`); any of the settings
read here plays its hands through the economics kernel (:mod:`simulations.models.table`),
where hands are dealt to seats that fold as their model says, pots are bet, raked and
dropped, and the jackpot is judged on the hands shown down under the room's conditions:

* ``[room]``: ``min_players`` dealt in ('A minimum of four players must be dealt in at the
  beginning of the hand', acehighpoker.com), ``flop_seen``, ``min_pot`` ('There must be at
  least $10 in the pot'), ``raked_only`` (the ``[rake]`` took something), ``showdown_required``
  ('Hand must go to showdown', GGPoker; false: a hand held at the river counts even if it
  folded to a river bet), ``tables`` and ``hands_per_hour`` (the room's pace: 'Live poker
  players will typically average 25 hands per hour', automaticpoker.com);
* ``[rake]``, ``[drop]``: see :mod:`simulations.models.economics`;
* ``[policy]``: see :mod:`simulations.models.jackpot_policy`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from simulations.evaluators.floors import describe_floor, hand_floor
from simulations.models.economics import describe_drop, describe_rake, read_drop, read_rake_rule
from simulations.models.jackpot_policy import (
    QUANTILES,
    Cycle,
    JackpotPolicy,
    Outlook,
    Shares,
    bonferroni_z,
    hit_chances,
)
from simulations.models.players import SeatModel
from simulations.models.table import Conditions, DropRule, RakeRule
from simulations.models.table_tally import (
    SHARE_UNITS,
    U_LOSER,
    U_SECOND,
    U_TABLE_ALL,
    U_TABLE_OTHERS,
    U_WINNER,
    LevelTally,
    TableTally,
)
from simulations.rules.jackpot import BadBeatRules, HandBand
from simulations.spec import Fields, SpecError
from simulations.stats import Proportion

MAX_STEPS = 12
SHARE_KEYS = ("loser_share", "winner_share", "table_share", "room_share")
TOLERANCE = 1e-9
RESEEDS = ("larger", "sum")


@dataclass(frozen=True)
class Room:
    """The room: its conditions on a jackpot hand, and how many tables deal how fast."""

    conditions: Conditions = field(default_factory=Conditions)
    tables: int = 1
    hands_per_hour: float = 30.0

    @property
    def hands_per_room_hour(self) -> float:
        return self.tables * self.hands_per_hour


def read_room(job: Fields) -> Room:
    table = job.table("room")
    conditions = Conditions(
        table.integer("min_players", 2, low=2, high=10),
        table.boolean("flop_seen", True),
        table.integer("min_pot", 0, low=0, high=10**12),
        table.boolean("raked_only", False),
        table.boolean("showdown_required", True),
    )
    tables = table.integer("tables", 1, low=1, high=10_000)
    pace = table.number("hands_per_hour", 30.0)
    if not 1.0 <= pace <= 1_000.0:
        raise SpecError(table.path("hands_per_hour"), f"must lie in 1..1000, got {pace:g}")
    table.finish()
    return Room(conditions, tables, pace)


def read_house(job: Fields) -> tuple[RakeRule | None, DropRule | None]:
    rake = None
    if job.has("rake"):
        section = job.table("rake")
        rake = read_rake_rule(section)
        section.finish()
    else:
        job.table("rake").finish()
    return rake, read_drop(job.table("drop"))


def _share(table: Fields, key: str, default: float) -> float:
    value = table.number(key, default)
    if not 0.0 <= value <= 1.0:
        raise SpecError(table.path(key), f"must be a share in 0..1, got {value:g}")
    return value


def _shares(table: Fields, defaults: Shares, second: bool) -> Shares:
    keys = ("loser_share", "second_share", *SHARE_KEYS[1:]) if second else SHARE_KEYS
    values = {
        key: _share(table, key, getattr(defaults, key.removesuffix("_share"))) for key in keys
    }
    total = sum(values.values())
    if abs(total - 1.0) > TOLERANCE:
        raise SpecError(
            table.path("loser_share"),
            f"{' + '.join(keys)} add up to {total:.6g}, not 1: the shares of a jackpot pay it all",
        )
    return Shares(*(values.get(f"{name}_share", 0.0) for name in Shares.__dataclass_fields__))


def read_policy(job: Fields, rules_floor: int, losing_hand: str) -> JackpotPolicy | None:
    if not job.has("policy"):
        job.table("policy").finish()
        return None
    table = job.table("policy")
    seed = table.integer("seed", 0, low=0, high=10**12)
    reserve = _share(table, "reserve_share", 0.0)
    admin = _share(table, "admin_share", 0.0)
    if reserve + admin > 1.0 + TOLERANCE:
        raise SpecError(
            table.path("admin_share"),
            f"reserve_share + admin_share add up to {reserve + admin:.6g}, more than the drop",
        )
    reseed = table.string("reseed", "larger", choices=RESEEDS)
    shares = _shares(table, Shares(), second=False)
    two = None
    if table.has("two_losers"):
        section = table.table("two_losers")
        two = _shares(section, Shares(0.30, 0.20, 0.25, 0.0, 0.25), second=True)
        section.finish()
    else:
        table.table("two_losers").finish()
    step = table.table("step_down")
    steps = tuple(step.strings("steps", [], most=MAX_STEPS))
    every = step.number("every_hours", 0.0)
    before, before_text = rules_floor, f"jackpot.min_losing_hand {losing_hand!r}"
    for i, text in enumerate(steps):
        where = f"{step.path('steps')}[{i}]"
        try:
            floor = hand_floor(text)
        except ValueError as err:
            raise SpecError(where, str(err)) from None
        if floor >= before:
            raise SpecError(
                where,
                f"{text!r} is not below the qualifier before it ({before_text}): a qualifier "
                "steps down to its floor",
            )
        before, before_text = floor, repr(text)
    if steps and not 0.0 < every <= 10_000.0:
        raise SpecError(step.path("every_hours"), f"must lie above 0 (hours), got {every:g}")
    if every and not steps:
        raise SpecError(step.path("steps"), "lists the losing hands the qualifier steps down to")
    step.finish()
    table.finish()
    return JackpotPolicy(seed, reserve, admin, reseed, shares, two, every, steps)


# -- the report -----------------------------------------------------------------------------


def level_rows(
    losing_hands: tuple[str, ...],
    levels: tuple[LevelTally, ...],
    hands: int,
    rules: BadBeatRules,
) -> list[dict[str, Any]]:
    """A row per level: its losing hands (the level's floor up to the qualifier's ceiling),
    the jackpot hands (two qualifying hands: the loser's beaten by the winner's) and the
    hands showing one qualifying losing hand or more, each with its share of the hands and
    the share's 95 % Wilson interval."""
    rows = []
    for text, level in zip(losing_hands, levels, strict=True):
        band = HandBand(text, rules.max_losing_hand)
        estimate = Proportion(level.hits, max(hands, 1))
        low, high = estimate.wilson()
        shown = Proportion(level.qualified, max(hands, 1))
        shown_low, shown_high = shown.wilson()
        rows.append(
            {
                "losing_hand": band.describe() if band.at_most else describe_floor(text),
                "jackpot_hands": level.hits,
                "card_hands": level.card_hits,
                "frequency": estimate.frequency,
                "ci95_low": low,
                "ci95_high": high,
                "qualifying_hands": level.qualified,
                "qualifying_frequency": shown.frequency,
                "qualifying_ci95_low": shown_low,
                "qualifying_ci95_high": shown_high,
            }
        )
    return rows


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _kind_shares(
    level: LevelTally, policy: JackpotPolicy, kinds: int, seats: list[int], tables: int
) -> list[float]:
    """Each kind's mean share of a jackpot hit at ``level``, all his seats together."""
    if not level.hits:
        return [0.0] * kinds
    n = sum(seats)
    out = []
    for t in range(kinds):
        total = 0.0
        for group in (0, 1):
            two = group == 1 and policy.two_losers is not None
            s = policy.two_losers if two and policy.two_losers else policy.shares
            table = s.table + (s.room if tables == 1 else 0.0)
            roles = (
                (s.loser, U_LOSER),
                (s.winner, U_WINNER),
                (s.second if two else 0.0, U_SECOND),
                (table, U_TABLE_OTHERS if two else U_TABLE_ALL),
            )
            for share, role in roles:
                total += share * level.unit(group, role, t, kinds) / SHARE_UNITS
            if tables > 1:  # the room share: every seat of the other tables alike
                hits = level.with_second if group == 1 else level.hits - level.with_second
                total += s.room * hits * seats[t] / n
        out.append(total / level.hits)
    return out


def policy_report(
    policy: JackpotPolicy,
    tally: TableTally,
    room: Room,
    models: tuple[SeatModel, ...],
    players: int,
    big_blind: int,
    losing_hands: tuple[str, ...],
    schedule: tuple[int, ...],
) -> dict[str, Any]:
    """The policy over time (see :mod:`simulations.models.jackpot_policy`): ``schedule``
    picks the levels of the tally that are the policy's qualifiers, the reset one first."""
    hands = tally.hands
    levels = tuple(tally.levels[i] for i in schedule)
    losing_hands = tuple(losing_hands[i] for i in schedule)
    per_step = policy.every_hours * room.hands_per_room_hour
    lengths = tuple([per_step] * (len(levels) - 1) + [math.inf])
    z = bonferroni_z(len(levels) + 1)
    mid, low, high = hit_chances([level.hits for level in levels], hands, z)
    drop = tally.policies[0].drop
    mu = drop.mean
    mu_half = drop.half_width(z)
    central = Outlook(Cycle(tuple(mid), lengths), mu, policy)
    quick = Outlook(Cycle(tuple(high), lengths), max(0.0, mu - mu_half), policy)
    slow = Outlook(Cycle(tuple(low), lengths), mu + mu_half, policy)
    g = central.cycle.mean
    rate = room.hands_per_room_hour
    seats = [m.seats or players for m in models]
    shares_by_level = [
        _kind_shares(level, policy, len(models), seats, room.tables) for level in levels
    ]
    hit_in = central.cycle.hit_in()
    at_hit = central.mean_at_hit_in()
    kinds = []
    for t, model in enumerate(models):
        received = sum(
            p * j * shares[t]
            for p, j, shares in zip(hit_in, at_hit, shares_by_level, strict=True)
            if p > 0
        )
        per_seat_hand = received / g / seats[t] if math.isfinite(g) and g > 0 else 0.0
        paid = tally.policies[0].kind_drop[t].total / hands / seats[t]
        kinds.append(
            {
                "name": model.name,
                "received_bb100": 100 * per_seat_hand / big_blind,
                "drop_paid_bb100": 100 * paid / big_blind,
                "net_bb100": 100 * (per_seat_hand - paid) / big_blind,
            }
        )
    mean_at_hit = central.mean_at_hit
    returned = mean_at_hit / (mu * g) if mu > 0 and math.isfinite(g) else None
    histogram = central.histogram() if math.isfinite(g) else []
    return {
        "hit_frequency": _finite(1 / g) if g > 0 else None,
        "hit_frequency_ci95_low": _finite(1 / slow.cycle.mean) if slow.cycle.mean > 0 else None,
        "hit_frequency_ci95_high": _finite(1 / quick.cycle.mean),
        "hands_between_hits": _finite(g),
        "hands_between_hits_ci95_low": _finite(quick.cycle.mean),
        "hands_between_hits_ci95_high": _finite(slow.cycle.mean),
        "hours_between_hits": _finite(g / rate),
        "hours_between_hits_ci95_low": _finite(quick.cycle.mean / rate),
        "hours_between_hits_ci95_high": _finite(slow.cycle.mean / rate),
        "jackpot_mean": _finite(mean_at_hit),
        "jackpot_ci95_low": _finite(quick.mean_at_hit),
        "jackpot_ci95_high": _finite(slow.mean_at_hit),
        "jackpot_quantiles": [{"q": q, "value": _finite(central.quantile(q))} for q in QUANTILES]
        if math.isfinite(g)
        else [],
        "jackpot_histogram": [{"low": a, "high": b, "share": share} for a, b, share in histogram],
        "hit_levels": [
            {"losing_hand": describe_floor(text), "share": p}
            for text, p in zip(losing_hands, hit_in, strict=True)
        ],
        "drop_per_hand": mu,
        "drop_per_hour": mu * rate,
        "returned_share": returned,
        "kinds": kinds,
    }


def describe_room(room: Room, rake: RakeRule | None, drop: DropRule | None) -> str:
    """The room's conditions, pace and house take, in words."""
    c = room.conditions
    parts = [f"at least {c.min_players} dealt in"] if c.min_players > 2 else []
    if c.min_pot:
        parts.append(f"pots of {c.min_pot:,} or more")
    if c.raked_only:
        parts.append("raked hands")
    parts.append("shown down" if c.showdown_required else "hands held at the river")
    pace = f"{room.tables:,} tables at {room.hands_per_hour:g} hands an hour"
    house = f"rake {describe_rake(rake)}; drop {describe_drop(drop)}"
    return f"jackpot hands {', '.join(parts)}; {pace}; {house}"


def describe_policy(p: JackpotPolicy) -> str:
    """The policy's seed, shares and schedule, in words."""
    s = p.shares
    text = (
        f"seed {p.seed:,}; of the drop {100 * p.reserve_share:g} % to the reserve, "
        f"{100 * p.admin_share:g} % admin; paid {100 * s.loser:g} % losing hand, "
        f"{100 * s.winner:g} % winning hand, {100 * s.table:g} % table, "
        f"{100 * s.room:g} % room"
    )
    if p.two_losers is not None:
        t = p.two_losers
        text += (
            f" (two losing hands: {100 * t.loser:g} / {100 * t.second:g} / "
            f"{100 * t.winner:g} / {100 * t.table:g} / {100 * t.room:g})"
        )
    if p.steps:
        text += f"; steps down every {p.every_hours:g} hours to {', '.join(p.steps)}"
    return text
