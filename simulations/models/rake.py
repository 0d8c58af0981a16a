"""Rake policies compared on the same hands: what each takes, and what a change costs each
kind of player.

Rules 003_6e018542f14946f8.txt: 'The casino makes their profit off of the game by taking a
percentage of the pots as their rake.'  One trial is one hand of hold'em or Omaha at a table
of player models (:mod:`simulations.models.players`), played once and settled under every
policy of the job (common random numbers: the players do not change their game with the
rake), each policy a rake of :mod:`simulations.models.economics` — a percentage rounded to
whole units by the room's rule, or so much per increment of the pot; caps by the players
dealt in; 'no flop, no drop' — with a jackpot drop beside it, or a time charge ('In some cases
players are simply charged hourly fees', dicechip.com, 'No flop, no drop').

For each policy the result gives the take per hand (rake and time charge) with its 95 %
interval, per 100 hands and in big blinds per 100 hands per player, the share of pots raked
and capped, the jackpot drop per hour in the room, and against the first policy the
difference per hand with the interval of the paired differences (and, for comparison, the
unpaired one, which ignores that both settled the same hands); for each kind of player what
he pays (the chips his pots lose to the house: a pot's winners pay its rake) and what the
change costs him, in big blinds per 100 hands; and the rake and the drop taken from each
hand as distributions (an exact histogram in chips: quantiles with their intervals, the
mean with its interval — the take is bounded).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from simulations.engine.variants import variant
from simulations.models.bad_beat_room import Room
from simulations.models.economics import (
    describe_drop,
    describe_rake,
    read_blinds,
    read_drop,
    read_rake_rule,
    table_report,
    taken_report,
)
from simulations.models.estimate import MIN_EVENTS, Estimate
from simulations.models.job_game import read_game
from simulations.models.players import TYPICAL, SeatModel, read_seat_models
from simulations.models.table import RakePolicy, RakeRule, Table
from simulations.models.table_game import table_lacks
from simulations.models.table_tally import TableTally, simulate_table
from simulations.spec import Fields, SpecError, echo
from simulations.stats import Z_95

MAX_POLICIES = 8
MAX_TIME = 10**9


@dataclass(frozen=True)
class RakeModel:
    """Hands of the registry game ``game`` at a table of ``models`` settled under each of
    ``policies``."""

    kind: ClassVar[str] = "rake"
    trials_field: ClassVar[str] = "hands"

    game: str = "NT"  # a registry code the table deals (table_game.TABLE_NEEDS)
    players: int = 9
    blinds: tuple[int, int] = (1, 2)
    models: tuple[SeatModel, ...] = ()
    policies: tuple[RakePolicy, ...] = (RakePolicy(),)
    room: Room = field(default_factory=Room)

    @classmethod
    def from_fields(cls, job: Fields) -> RakeModel:
        """Read ``game``, ``[table]``, ``[[players]]``, ``[room]`` and ``[[policies]]``; errors
        name the field."""
        code = read_game(job, "NT", table_lacks).code
        table = job.table("table")
        players = table.integer("players", 9, low=2, high=10)
        blinds = read_blinds(table)
        table.finish()
        models = read_seat_models(job, players, TYPICAL)
        room_table = job.table("room")
        tables = room_table.integer("tables", 1, low=1, high=10_000)
        pace = room_table.number("hands_per_hour", 30.0)
        if not 1.0 <= pace <= 1_000.0:
            raise SpecError(room_table.path("hands_per_hour"), f"must lie in 1..1000, got {pace:g}")
        room_table.finish()
        entries = job.tables("policies")
        if len(entries) > MAX_POLICIES:
            raise SpecError(job.path("policies"), f"at most {MAX_POLICIES} policies")
        policies = []
        names: set[str] = set()
        for i, entry in enumerate(entries):
            name = entry.string("name", f"policy {i + 1}")
            if name in names:
                raise SpecError(entry.path("name"), f"{echo(name)} is given twice")
            names.add(name)
            rake = read_rake_rule(entry)
            drop = read_drop(entry.table("drop"))
            time = entry.integer("time", 0, low=0, high=MAX_TIME)
            entry.finish()
            policies.append(RakePolicy(name, rake, drop, time))
        if not policies:
            policies.append(default_policy(blinds[1]))
        if not job.has("players"):
            models = ()
        room = Room(tables=tables, hands_per_hour=pace)
        return cls(code, players, blinds, models, tuple(policies), room)

    @property
    def table(self) -> Table:
        models = self.models or (replace(TYPICAL, seats=self.players),)
        return Table(self.game, self.players, self.blinds, models, self.policies, None)

    def describe(self) -> str:
        game = f"{variant(self.game).name} ({self.game})"
        kinds = ", ".join(f"{m.seats} {m.name}" for m in self.table.models)
        small, big = self.blinds
        return f"{game}, {self.players} players ({kinds}), blinds {small:,}/{big:,}"

    def describe_room(self) -> str:
        r = self.room
        return f"{r.tables:,} tables at {r.hands_per_hour:g} hands an hour"

    def empty_tally(self) -> TableTally:
        return TableTally()

    def simulate(self, hands: int, rng: np.random.Generator) -> TableTally:
        return simulate_table(self.table, hands, rng)

    def _time_per_hand(self, policy: RakePolicy) -> float:
        """The time charge of a hand: every seat's fee for the hand's share of an hour."""
        return policy.time * self.players / self.room.hands_per_hour

    def report(self, tally: TableTally) -> dict[str, Any]:
        """The table's course, then each policy (see the module's text)."""
        table = self.table
        n, big = self.players, self.blinds[1]
        hands = max(tally.hands, 1)
        base = tally.policies[0] if tally.policies else None
        rows = []
        for policy, kept in zip(self.policies, tally.policies, strict=True):
            time = self._time_per_hand(policy)
            per_hand = kept.rake.mean + time
            row: dict[str, Any] = {
                "name": policy.name,
                "rule": _describe(policy),
                "per_hand": per_hand,
                "per_hand_ci95": kept.rake.half_width(),
                "per_100_hands": 100 * per_hand,
                "bb_per_100_per_player": 100 * per_hand / n / big,
                "raked_share": kept.raked / hands,
                "capped_share": kept.capped / hands,
                "drop_per_hand": kept.drop.mean,
                "drop_per_hour": kept.drop.mean * self.room.tables * self.room.hands_per_hour,
                "time_per_hand": time,
            }
            base_time = self._time_per_hand(self.policies[0])
            unpaired = 0.0
            if base is not None:
                unpaired = Z_95 * ((kept.rake.variance + base.rake.variance) / hands) ** 0.5
            row["difference"] = kept.rake_difference.mean + time - base_time
            row["difference_ci95"] = kept.rake_difference.half_width()
            row["difference_unpaired_ci95"] = unpaired
            kinds = []
            for t, model in enumerate(table.models):
                seats = model.seats or n
                per_seat = 100 / seats / big
                fee = 100 * policy.time / self.room.hands_per_hour / big
                base_fee = 100 * self.policies[0].time / self.room.hands_per_hour / big
                kinds.append(
                    {
                        "name": model.name,
                        "paid_bb100": kept.kind_rake[t].mean * per_seat + fee,
                        "paid_bb100_ci95": kept.kind_rake[t].half_width() * per_seat,
                        "drop_bb100": kept.kind_drop[t].mean * per_seat,
                        "difference_bb100": kept.kind_difference[t].mean * per_seat
                        + fee
                        - base_fee,
                        "difference_bb100_ci95": kept.kind_difference[t].half_width() * per_seat,
                    }
                )
            row["kinds"] = kinds
            row["rake_taken"] = taken_report(kept.rake_counts, "rake", policy.rake)
            row["drop_taken"] = taken_report(kept.drop_counts, "jackpot drop", None)
            rows.append(row)
        return {"hands": tally.hands, "table": table_report(table, tally), "policies": rows}

    def main_estimate(self, tally: TableTally) -> Estimate:
        """The first policy's take a hand (rake and time charge: the report's ``per_hand``)
        with its normal 95 % interval; it may stop a job after
        :data:`~simulations.models.estimate.MIN_EVENTS` hands that paid it something — hands
        raked, or every hand where the policy charges for time (a take that is mostly zero
        has a normal interval only once enough hands paid)."""
        policy = self.policies[0]
        name = f"{policy.name}: take a hand"
        if not tally.hands or not tally.policies:
            return Estimate.mean(name, None, 0, MIN_EVENTS)
        kept = tally.policies[0]
        per_hand = kept.rake.mean + self._time_per_hand(policy)
        half = kept.rake.half_width()
        paid = tally.hands if policy.time else kept.raked
        return Estimate.mean(name, (per_hand, per_hand - half, per_hand + half), paid, MIN_EVENTS)

    def precise_enough(self, tally: TableTally, precision: float) -> bool:
        """The main policy's take a hand has its 95 % half-width within ``precision`` of it
        (see :meth:`Estimate.precise_enough`)."""
        return self.main_estimate(tally).precise_enough(precision)


def default_policy(big_blind: int) -> RakePolicy:
    """A job without policies: 10 % of the pot in whole chips, capped at five big blinds, no
    flop no drop — 'In most casinos, the rake will be 5 percent or 10 percent of the pot,
    and will almost always be capped' (dicechip.com, 'No flop, no drop'); an assumption."""
    rake = RakeRule(Fraction(1, 10), caps=((2, 5 * big_blind),))
    return RakePolicy("10 % capped at 5 big blinds", rake)


def _describe(policy: RakePolicy) -> str:
    parts = []
    if policy.rake is not None and (policy.rake.percent or policy.rake.increment):
        parts.append(f"rake {describe_rake(policy.rake)}")
    if policy.time:
        parts.append(f"time {policy.time:,} a seat an hour")
    if policy.drop is not None:
        parts.append(f"jackpot drop {describe_drop(policy.drop)}")
    return "; ".join(parts) or "nothing taken"
