"""Betting limits: how much a player may bet or raise, and when an all-in raise reopens.

Rules 002_376df91f076a6501.txt, 'Limits': fixed limit (the small bet early, the big bet
later; a cap on bets and raises, often lifted heads-up), spread limit (any amount in a
range per round), pot limit (up to the pot after calling) and no limit (the whole stake);
bets come in multiples of the betting unit.  'Incomplete bet or raise': under the full bet
rule an all-in short of a full bet or raise does not reopen the betting; under the half bet
rule it does once it reaches half.  'Kill game': a full kill doubles the stakes for the
hand, a half kill multiplies them by one and a half.

These are pure functions of the round's numbers; the hand's state machine asks them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from simulations.rules import betting
from simulations.rules.codes import LIMIT_FIXED, LIMIT_NO, LIMIT_POT, LIMIT_SPREAD
from simulations.rules.reopening import CUMULATIVE, EACH_ALONE, reopens_betting
from simulations.rules.tiers import plain_python


class Limit(StrEnum):
    FIXED = "fixed-limit"
    SPREAD = "spread-limit"
    POT = "pot-limit"
    NO = "no-limit"


# The rules core's structure codes (simulations.rules.codes) of each limit.
LIMIT_CODES: dict[Limit, int] = {
    Limit.FIXED: LIMIT_FIXED,
    Limit.SPREAD: LIMIT_SPREAD,
    Limit.POT: LIMIT_POT,
    Limit.NO: LIMIT_NO,
}
_raise_bounds = plain_python(betting.raise_bounds)  # the rule's one function, run as plain Python


class ShortAllInRule(StrEnum):
    """Whether several short all-ins in a row add up to reopen the betting
    (:mod:`simulations.rules.reopening`)."""

    CUMULATIVE = "cumulative"  # they add up, for each player from the bet he last acted on
    EACH_ALONE = "each-alone"  # each is judged alone: none of them reopens

    @property
    def code(self) -> int:
        return CUMULATIVE if self is ShortAllInRule.CUMULATIVE else EACH_ALONE


class IncompleteRaiseRule(StrEnum):
    """Whether an all-in bet or raise short of the full amount reopens the betting."""

    FULL_BET = "full-bet"  # only a full bet or raise reopens (pot and no limit always)
    HALF_BET = "half-bet"  # half a bet or raise or more reopens (some limit games)


class HeadsUpCap(StrEnum):
    """When the cap's heads-up exception counts the players (Rules 000_1a86611de8d3f5f7.txt,
    'cap': 'the cap is removed if there are only two players remaining either (1) at the
    beginning of the betting round, or (2) at the time that what would have otherwise been
    the last raise is made').  Either way a fold after the cap was reached does not lift it.
    """

    # Two players able to bet as the raise that reaches the cap is made (a round begun
    # heads-up is heads-up then too): the card rooms' common reading, and the default.
    AT_CAPPING_RAISE = "at-capping-raise"
    # Two players able to bet as the round begins (Rules 002_376df91f076a6501.txt: heads up
    # 'when only two players are in the hand at the start of the betting round').
    START_OF_ROUND = "start-of-round"


class PotLimitBlinds(StrEnum):
    """How the blinds count toward the pot on the first round of a pot-limit game."""

    AS_POSTED = "as-posted"
    SMALL_AS_BIG = "small-blind-as-big"  # the small blind counts as a big blind until it acts


@dataclass(frozen=True)
class Stakes:
    """The sizes a structure works from.

    ``small_bet`` is the bet of the early rounds in fixed limit and the minimum bet in the
    other structures; ``big_bet`` the fixed-limit bet from round ``big_bet_round`` on (0 is
    the first round).  ``spreads`` gives spread limit's (minimum, maximum) per round, the
    last repeating.  ``max_bets`` caps a round's bets and raises (a bet and three raises is
    4); ``None`` leaves it uncapped.  ``sizes``: fixed limit's bet round by round where two
    sizes do not say it, the last repeating (Q-Ball's 'the betting structure be 1-2-2-4',
    Rules 000_1a86611de8d3f5f7.txt); ``small_bet`` is then the first.
    """

    small_bet: int
    big_bet: int | None = None
    big_bet_round: int = 2
    spreads: tuple[tuple[int, int], ...] = ()
    max_bets: int | None = None
    cap_lifted_heads_up: bool = True
    unit: int = 1
    sizes: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.small_bet <= 0:
            raise ValueError(f"small_bet must be positive, got {self.small_bet}")
        if self.big_bet is not None and self.big_bet < self.small_bet:
            raise ValueError("big_bet must be at least small_bet")
        if self.unit <= 0:
            raise ValueError(f"the betting unit must be positive, got {self.unit}")
        if self.max_bets is not None and self.max_bets < 1:
            raise ValueError("max_bets must allow at least the opening bet")
        for low, high in self.spreads:
            if not 0 < low <= high:
                raise ValueError(f"a spread runs from a positive minimum up: ({low}, {high})")
        if self.sizes:
            if self.big_bet is not None or self.spreads:
                raise ValueError("round-by-round sizes replace the big bet and the spreads")
            if self.sizes[0] != self.small_bet or min(self.sizes) <= 0:
                raise ValueError("round-by-round sizes are positive, the first the small bet")

    def bet_size(self, round_index: int) -> int:
        """The fixed-limit bet of a round (also the minimum bet elsewhere)."""
        if self.sizes:
            return self.sizes[min(round_index, len(self.sizes) - 1)]
        if self.big_bet is not None and round_index >= self.big_bet_round:
            return self.big_bet
        return self.small_bet

    def on_unit(self, amount: int) -> bool:
        """Whether ``amount`` is a whole number of betting units (all-in amounts need not be)."""
        return amount % self.unit == 0

    def spread(self, round_index: int) -> tuple[int, int]:
        if not self.spreads:
            size = self.bet_size(round_index)
            return size, size
        return self.spreads[min(round_index, len(self.spreads) - 1)]

    def killed(self, factor: Fraction) -> Stakes:
        """The stakes of a kill pot: ``factor`` 2 for a full kill, 3/2 for a half kill."""
        if factor <= 1:
            raise ValueError("a kill raises the stakes")

        def scale(amount: int) -> int:
            scaled = amount * factor
            if scaled.denominator != 1:
                raise ValueError(f"a kill of {factor} does not divide {amount} into whole chips")
            return int(scaled)

        return replace(
            self,
            small_bet=scale(self.small_bet),
            big_bet=None if self.big_bet is None else scale(self.big_bet),
            spreads=tuple((scale(low), scale(high)) for low, high in self.spreads),
            sizes=tuple(scale(size) for size in self.sizes),
        )


@dataclass(frozen=True)
class RoundView:
    """The numbers of a betting round at one player's turn.

    ``pot`` is every chip already in the middle, this round's bets included; ``to_match``
    the highest total any player has put in this round; ``own`` what the acting player has
    put in this round; ``last_raise`` the size of the last full bet or raise (the minimum
    increment); ``bets_made`` the bets and raises that count toward the cap; ``contesting``
    the players who could still bet when the cap was reached (the heads-up exception reads
    it: :func:`bounds_of`).
    """

    round_index: int
    pot: int
    to_match: int
    own: int
    last_raise: int
    bets_made: int
    contesting: int

    @property
    def to_call(self) -> int:
        return self.to_match - self.own


@dataclass(frozen=True)
class RaiseBounds:
    """The totals (this round) a player may bet or raise to; ``low`` may exceed the stack."""

    low: int
    high: int


def raise_bounds(
    limit: Limit,
    stakes: Stakes,
    view: RoundView,
    *,
    pot_limit_bonus: int = 0,
) -> RaiseBounds | None:
    """The legal bet or raise-to totals by rule, before the player's stack is considered.

    Returns None when the cap forbids another raise.  ``pot_limit_bonus`` adds chips the
    pot-limit convention counts though they were not posted (a small blind counted as big).
    """
    found = bounds_of(
        limit,
        stakes,
        view.round_index,
        view.pot,
        view.to_match,
        view.own,
        view.last_raise,
        view.bets_made,
        view.contesting,
        pot_limit_bonus,
    )
    return None if found is None else RaiseBounds(*found)


def bounds_of(
    limit: Limit,
    stakes: Stakes,
    round_index: int,
    pot: int,
    to_match: int,
    own: int,
    last_raise: int,
    bets_made: int,
    contesting: int,
    pot_limit_bonus: int,
) -> tuple[int, int] | None:
    """:func:`raise_bounds` on the numbers of a :class:`RoundView` one by one, as (low, high):
    the hand asks it on every bet and raise, without making the view.

    The cap is lifted heads-up (Rules 002_376df91f076a6501.txt, 'Limits': 'It is common to
    suspend this rule when there are only two players betting in the round').  When two
    players are few enough is read when the cap is reached: ``contesting`` is the number of
    players able to bet as the raise that reached it was made (Rules 000_1a86611de8d3f5f7.txt,
    'cap': two players left 'at the beginning of the betting round, or ... at the time that
    what would have otherwise been the last raise is made'; a round begun heads-up is
    heads-up at that raise too).  A fold after the cap was reached leaves it in place: the
    caller passes the number as it stood then, not as it stands now.

    A blind or bring-in below the bet is no bet toward the cap (``bets_made`` 0): the first
    bet completes it to a full one (Rules 001_af8fb40237a5ae1f.txt: a big blind below the
    small bet 'is treated the same way a sub-minimum bring-in is treated in stud poker').

    The arithmetic is :func:`simulations.rules.betting.raise_bounds`, which the replay kernel
    calls too; the engine calls it as plain Python (``plain_python``: a compiled function's
    dispatch from Python costs more than its arithmetic).
    """
    low_spread, high_spread = stakes.spread(round_index)
    max_bets = stakes.max_bets
    allowed, low, high = _raise_bounds(
        LIMIT_CODES[limit],
        stakes.bet_size(round_index),
        low_spread,
        high_spread,
        to_match,
        own,
        last_raise,
        bets_made,
        contesting,
        pot,
        pot_limit_bonus,
        -1 if max_bets is None else max_bets,
        stakes.cap_lifted_heads_up,
    )
    return (int(low), int(high)) if allowed else None


def reopens(rule: IncompleteRaiseRule, increment: int, full_increment: int) -> bool:
    """Whether an all-in bet or raise of ``increment`` over the bet it faced reopens the action.

    ``full_increment`` is the full bet (opening) or the last full raise.  Under the full bet
    rule only the full amount reopens; under the half bet rule half or more does
    (:func:`simulations.rules.reopening.reopens_betting`, which the replay kernel calls too).
    """
    return bool(reopens_betting(increment, full_increment, rule is IncompleteRaiseRule.HALF_BET))
