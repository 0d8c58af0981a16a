"""A cardroom table as the economics jobs play it: the game, the seats and their player
models, the rake policies settled on every hand, and the bad-beat jackpot's qualifiers and
room conditions — and the same as the compiled loop (:mod:`simulations.models.table_kernel`)
takes it.

A rake policy (:class:`RakePolicy`) is the engine's own :class:`~simulations.engine.game.Rake`
and :class:`~simulations.engine.game.JackpotDrop` (either may be absent; held as plain data,
:class:`RakeRule` and :class:`DropRule`), so that the reference engine settles a hand under it
exactly as the loop does, plus a time charge (chips
per seat per hour: 'In some cases players are simply charged hourly fees', dicechip.com,
'No flop, no drop'), which no pot pays.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, cached_property

import numpy as np
import numpy.typing as npt

from simulations.engine.game import (
    GameDefinition,
    JackpotDrop,
    Rake,
    RakeRounding,
)
from simulations.engine.limits import Stakes
from simulations.engine.variants import variant
from simulations.evaluators.high import TABLES, rank_classes
from simulations.evaluators.omaha import OMAHA_TABLES
from simulations.models import table_kernel as k
from simulations.models.players import Seating, SeatModel, seating
from simulations.models.starting_hands import ranking
from simulations.models.table_eval import OMAHA
from simulations.models.table_game import evaluator
from simulations.models.table_jackpot import ROLES
from simulations.rules.jackpot import QUALIFIER, BadBeatRules
from simulations.rules.rake_rules import NO_CAP

NO_SEAT = 99  # a cap row's padding: more players than any table
STACK = 10**12  # deep enough that nobody is ever all in


@dataclass(frozen=True)
class RakeRule:
    """A rake as plain data: the fields of the engine's :class:`~simulations.engine.game.Rake`
    (whose checks it takes), which :meth:`engine` builds.  A job's model crosses to the
    workers by pickle, and the compiled engine's rule classes do not unpickle."""

    percent: Fraction = Fraction(0)
    caps: tuple[tuple[int, int], ...] = ()
    no_flop_no_drop: bool = True
    unit: int = 1
    rounding: RakeRounding = RakeRounding.DOWN
    increment: int = 0
    per_increment: int = 0

    def __post_init__(self) -> None:
        self.engine()

    def engine(self) -> Rake:
        return _engine_rake(self)


@dataclass(frozen=True)
class DropRule:
    """A jackpot drop as plain data: the fields of the engine's
    :class:`~simulations.engine.game.JackpotDrop` (see :class:`RakeRule`)."""

    amount: int
    threshold: int
    percent: Fraction = Fraction(0)
    cap: int | None = None

    def __post_init__(self) -> None:
        self.engine()

    def engine(self) -> JackpotDrop:
        return _engine_drop(self)


@cache
def _engine_rake(rule: RakeRule) -> Rake:
    return Rake(
        rule.percent,
        rule.caps,
        rule.no_flop_no_drop,
        rule.unit,
        rule.rounding,
        rule.increment,
        rule.per_increment,
    )


@cache
def _engine_drop(rule: DropRule) -> JackpotDrop:
    return JackpotDrop(rule.amount, rule.threshold, rule.percent, rule.cap)


@dataclass(frozen=True)
class RakePolicy:
    """A way of charging the table: a rake and a jackpot drop from each pot (None: none),
    and a time charge in chips per seat per hour."""

    name: str = "rake"
    rake: RakeRule | None = None
    drop: DropRule | None = None
    time: int = 0

    def row(self) -> list[int]:
        r, d = self.rake, self.drop
        return [
            int(r.no_flop_no_drop) if r else 1,
            r.percent.numerator if r else 0,
            r.percent.denominator if r else 1,
            r.unit if r else 1,
            r.rounding.code if r else 0,
            r.increment if r else 0,
            r.per_increment if r else 0,
            d.amount if d else 0,
            d.percent.numerator if d else 0,
            d.percent.denominator if d else 1,
            NO_CAP if d is None or d.cap is None else d.cap,
            d.threshold if d else -1,
        ]


@dataclass(frozen=True)
class Conditions:
    """The room conditions a jackpot hand must meet besides its cards (Rules 000, 'Bad beat
    jackpot': 'There may be additional requirements as well'): players dealt in, the flop
    seen, the pot, a raked hand, and hands shown down ('Hand must go to showdown', GGPoker)."""

    min_players: int = 2
    flop_seen: bool = True
    min_pot: int = 0
    raked_only: bool = False
    showdown_required: bool = True


@dataclass(frozen=True)
class Jackpot:
    """What the loop judges: the qualifiers, the losing floors of every level of the schedule
    (strictest first), and the room conditions."""

    rules: BadBeatRules
    floors: tuple[int, ...]
    conditions: Conditions = Conditions()


@dataclass
class Hands:
    """The loop's outcome of a batch of hands (see :func:`table_kernel.play_hands`)."""

    flags: npt.NDArray[np.int64]
    button: npt.NDArray[np.int64]
    masks: npt.NDArray[np.int64]
    pots: npt.NDArray[np.int64]
    contributed: npt.NDArray[np.int64]
    rakes: npt.NDArray[np.int64]
    drops: npt.NDArray[np.int64]
    card_level: npt.NDArray[np.int64]
    hit_level: npt.NDArray[np.int64]
    roles: npt.NDArray[np.int64]
    # The strictest level at which a qualifying losing hand was judged, the room's
    # conditions met (-1: none).
    qualified_level: npt.NDArray[np.int64]


@dataclass(frozen=True)
class Table:
    """A table of ``models`` (their seats adding up to ``players``) at the registry game
    ``code`` (one :data:`~simulations.models.table_game.TABLE_NEEDS` allows) with
    ``blinds``, settled under each of ``policies``, judging ``jackpot`` if given."""

    code: str = "NT"
    players: int = 9
    blinds: tuple[int, int] = (1, 2)
    models: tuple[SeatModel, ...] = (SeatModel(),)
    policies: tuple[RakePolicy, ...] = ()
    jackpot: Jackpot | None = None

    @cached_property
    def evaluator(self) -> int:
        """The kernel's hand evaluator: table_eval.HOLDEM or OMAHA."""
        found = evaluator(variant(self.code).game())
        if found is None:
            raise ValueError(f"the table does not deal {self.code}")
        return found

    @property
    def omaha(self) -> bool:
        return self.evaluator == OMAHA

    @property
    def hole(self) -> int:
        return 4 if self.omaha else 2

    @property
    def big_blind(self) -> int:
        return self.blinds[1]

    @cached_property
    def seats(self) -> Seating:
        return seating(self.models, self.players, self.big_blind)

    def game(self, policy: RakePolicy | None = None) -> GameDefinition:
        """The engine's game for the reference player: the registry's, with these blinds
        (the big blind the minimum bet) and the policy's rake and drop."""
        base = variant(self.code).game()
        game = replace(
            base, forced=replace(base.forced, blinds=self.blinds), stakes=Stakes(self.blinds[1])
        )
        if policy is None:
            return game
        rake = policy.rake.engine() if policy.rake is not None else None
        drop = policy.drop.engine() if policy.drop is not None else None
        return replace(game, rake=rake, jackpot_drop=drop)

    def settings(self) -> npt.NDArray[np.int64]:
        c = self.jackpot.conditions if self.jackpot else Conditions()
        out = np.zeros(k.TABLE, dtype=np.int64)
        out[k.T_PLAYERS] = self.players
        out[k.T_VARIANT] = self.evaluator
        out[k.T_HOLE] = self.hole
        out[k.T_SMALL_BLIND], out[k.T_BIG_BLIND] = self.blinds
        out[k.T_JACKPOT] = self.jackpot is not None
        out[k.T_SHOWDOWN_REQUIRED] = c.showdown_required
        out[k.T_MIN_PLAYERS] = c.min_players
        out[k.T_FLOP_SEEN] = c.flop_seen
        out[k.T_MIN_POT] = c.min_pot
        out[k.T_RAKED_ONLY] = c.raked_only
        return out

    def qualifier(self) -> npt.NDArray[np.int64]:
        if self.jackpot is None:
            return np.zeros(QUALIFIER, dtype=np.int64)
        return self.jackpot.rules.qualifier(omaha=self.omaha)

    def policy_arrays(self) -> tuple[npt.NDArray[np.int64], ...]:
        rows = np.array([p.row() for p in self.policies], dtype=np.int64).reshape(
            len(self.policies), k.POLICY
        )
        width = max([1, *(len(p.rake.caps) for p in self.policies if p.rake)])
        players = np.full((len(self.policies), width), NO_SEAT, dtype=np.int64)
        caps = np.zeros((len(self.policies), width), dtype=np.int64)
        for i, p in enumerate(self.policies):
            for j, (seats, cap) in enumerate(sorted(p.rake.caps) if p.rake else ()):
                players[i, j], caps[i, j] = seats, cap
        return rows, players, caps

    @property
    def levels(self) -> npt.NDArray[np.int64]:
        floors = self.jackpot.floors if self.jackpot else (0,)
        return np.array(floors, dtype=np.int64)

    def play(self, seeds: npt.NDArray[np.uint64]) -> Hands:
        """Play the hand of each seed."""
        hands = empty_hands(self, len(seeds))
        self.play_into(seeds, hands)
        return hands

    def play_into(self, seeds: npt.NDArray[np.uint64], hands: Hands) -> None:
        """Play the hand of each seed into the first rows of ``hands``."""
        seats = self.seats
        order = ranking(self.evaluator)
        rows, cap_players, caps = self.policy_arrays()
        o = OMAHA_TABLES
        k.play_hands(
            seeds,
            self.settings(),
            seats.vpip,
            seats.floors,
            seats.chance,
            seats.bet,
            seats.open_to,
            order.hand_class,
            order.class_place,
            rows,
            cap_players,
            caps,
            self.levels,
            self.qualifier(),
            TABLES.card_keys,
            TABLES.flush_values,
            TABLES.row_offsets,
            *rank_classes(),
            o.pair_class,
            o.triple_class,
            o.values,
            hands.flags,
            hands.button,
            hands.masks,
            hands.pots,
            hands.contributed,
            hands.rakes,
            hands.drops,
            hands.card_level,
            hands.hit_level,
            hands.roles,
            hands.qualified_level,
        )


def empty_hands(table: Table, count: int, contributions: bool = True) -> Hands:
    """Room for the outcome of ``count`` hands of ``table`` (without each seat's chips in the
    pot unless ``contributions``: the tally does without them)."""
    n, p = table.players, len(table.policies)
    return Hands(
        np.empty(count, np.int64),
        np.empty(count, np.int64),
        np.empty((count, 4), np.int64),
        np.empty(count, np.int64),
        np.empty((count if contributions else 0, n), np.int64),
        np.empty((count, p), np.int64),
        np.empty((count, p), np.int64),
        np.empty(count, np.int64),
        np.empty(count, np.int64),
        np.zeros((count, len(table.levels), ROLES), np.int64),
        np.empty(count, np.int64),
    )
