"""Pots: the uncalled bet, the main pot and side pots, and splitting a pot among winners, by
the rules' one source (:mod:`simulations.rules.settle`): compiled, or as plain Python for
chips past 64 bits.

Everything here works from each seat's total contribution to the hand, which is all the
table stakes rules need (Rules 002_376df91f076a6501.txt, '"All in"'): an all-in player
"may not win any more money from any player above the amount of his bet", so every
distinct amount that a player still in the hand has put in closes a pot, and only the
players who put in at least that much may win it.  Folded players' chips stay in the pots
they reached; they are eligible for none.

Seats are numbered clockwise; ``button`` is the button's seat.  Odd chips go to the first
winner clockwise from the button (Rules 000_1a86611de8d3f5f7.txt, 'any extra chips going to
the person closest to the button in clockwise order'; :mod:`simulations.rules.odd_chips`),
or one each to the winners clockwise from the button, or, under the exact rule, nobody
rounds and shares are fractions of a chip.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

import numpy as np

from simulations.rules import settle as rules
from simulations.rules.odd_chips import ALL_TO_FIRST, ONE_EACH
from simulations.rules.tiers import plain_python

Chips = int | Fraction

# The settlement rules (simulations.rules.settle) as plain Python: their own source, in
# Python integers of any size (a guts pot past 2^63 chips).
uncalled_bet = plain_python(rules.uncalled_bet)
return_above_live = plain_python(rules.return_above_live)
side_pot = plain_python(rules.side_pot)
award_clockwise = plain_python(rules.award_clockwise)
best_hands = plain_python(rules.best_hands)
# Chips the compiled rules take: 64-bit, with room for a hand's sums.
COMPILED_BELOW = 2**60


@dataclass(frozen=True)
class Tier:
    """The settlement rules in one form, and the container of chips they work on: compiled,
    over int64 arrays (faster, even with the array made), or as plain Python over lists."""

    uncalled_bet: Callable[..., Any]
    return_above_live: Callable[..., Any]
    side_pot: Callable[..., Any]
    award_clockwise: Callable[..., Any]
    compiled: bool

    def chips(self, values: Sequence[int]) -> Any:
        """``values`` as this form's rules take them."""
        return np.array(values, dtype=np.int64) if self.compiled else list(values)


COMPILED_TIER = Tier(
    rules.uncalled_bet, rules.return_above_live, rules.side_pot, rules.award_clockwise, True
)
PLAIN_TIER = Tier(uncalled_bet, return_above_live, side_pot, award_clockwise, False)


def tier_for(values: Iterable[int]) -> Tier:
    """The compiled rules when every value fits them, else their plain-Python source."""
    for value in values:
        if not 0 <= value < COMPILED_BELOW:
            return PLAIN_TIER
    return COMPILED_TIER


class OddChipRule(Enum):
    """Who gets the chips that do not divide evenly among tied winners."""

    # The rule texts: every odd chip to the first winner clockwise from the button.
    FIRST_LEFT_OF_BUTTON = "first-left-of-button"
    # One odd chip to each winner in turn, clockwise from the button.
    ONE_EACH_LEFT_OF_BUTTON = "one-each-left-of-button"
    EXACT = "exact"  # fractional shares, for simulations that want expectations

    @property
    def code(self) -> int:
        """The rule as :func:`simulations.rules.odd_chips.winner_chips` takes it."""
        if self is OddChipRule.EXACT:
            raise ValueError("exact shares are fractions: no whole-chip rule code")
        return ONE_EACH if self is OddChipRule.ONE_EACH_LEFT_OF_BUTTON else ALL_TO_FIRST


@dataclass(frozen=True)
class Pot:
    """A pot and the seats that may win it (the main pot is the first, side pots follow)."""

    amount: int
    eligible: tuple[int, ...]


def seat_mask(flags: Sequence[bool]) -> int:
    """The seats whose flag is set, as the rules take a set of seats: seat ``s`` is bit ``s``."""
    bits = 0
    for seat, flag in enumerate(flags):
        if flag:
            bits |= 1 << seat
    return bits


def side_pots(contributions: Sequence[int], live: Sequence[bool]) -> tuple[Pot, ...]:
    """The main pot and side pots from every seat's total contribution.

    ``live`` marks the seats still holding cards (not folded).  Call after returning the
    uncalled bet.  Every chip contributed lands in exactly one pot; a pot is closed at each
    distinct contribution of a live seat, and only live seats that reached it may win it.
    """
    if len(contributions) != len(live):
        raise ValueError("contributions and live must cover the same seats")
    if contributions and min(contributions) < 0:
        raise ValueError("a contribution cannot be negative")
    n = len(contributions)
    live_seats = seat_mask(live)
    tier = tier_for(contributions)
    chips = tier.chips(contributions)
    pots: list[Pot] = []
    floor = 0
    while True:
        level, amount, eligible = tier.side_pot(chips, live_seats, floor)
        if level < 0:
            break
        pots.append(Pot(amount, tuple(s for s in range(n) if eligible >> s & 1)))
        floor = level
    if contributions and max(contributions) > floor:
        # Only a bet nobody matched can stand above every live seat's contribution.
        raise ValueError("chips stand above every live contribution: return the uncalled bet first")
    return tuple(pots)


def clockwise_from_button(seats: Iterable[int], button: int, n_seats: int) -> list[int]:
    """``seats`` ordered clockwise starting with the first seat left of the button."""
    first = button + 1
    return [seat for _, seat in sorted([((seat - first) % n_seats, seat) for seat in seats])]


def split(
    amount: int,
    winners: Iterable[int],
    *,
    button: int,
    n_seats: int,
    rule: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON,
) -> dict[int, Chips]:
    """Divide ``amount`` equally among ``winners``; odd chips by ``rule``."""
    order = clockwise_from_button(set(winners), button, n_seats)
    if not order:
        raise ValueError("a pot needs at least one winner")
    if rule is OddChipRule.EXACT:
        return {seat: Fraction(amount, len(order)) for seat in order}
    tier = tier_for((amount,))
    won = tier.chips([0] * n_seats)
    tier.award_clockwise(amount, sum(1 << seat for seat in order), button, rule.code, won)
    return {seat: int(won[seat]) for seat in order}


def split_high_low(
    amount: int,
    high_winners: Iterable[int],
    low_winners: Iterable[int],
    *,
    button: int,
    n_seats: int,
    rule: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON,
) -> dict[int, Chips]:
    """Split a high-low pot: half to the best high, half to the best qualifying low.

    With no qualifying low the high hands take the whole pot.  An odd chip between the
    halves goes to the high half; odd chips within each half go left of the button
    (Rules 002_376df91f076a6501.txt, 'Odd chip will go left of the button on both high
    and low').
    """
    lows = list(low_winners)
    if not lows:
        return split(amount, high_winners, button=button, n_seats=n_seats, rule=rule)
    if rule is OddChipRule.EXACT:
        high_half: Chips = Fraction(amount, 2)
        low_half: Chips = Fraction(amount, 2)
    else:
        low_half = amount // 2
        high_half = amount - low_half
    shares: dict[int, Chips] = {}
    for half, winners in ((high_half, high_winners), (low_half, lows)):
        for seat, chips in _split_chips(half, winners, button, n_seats, rule).items():
            shares[seat] = shares.get(seat, 0) + chips
    return shares


def _split_chips(
    amount: Chips, winners: Iterable[int], button: int, n_seats: int, rule: OddChipRule
) -> Mapping[int, Chips]:
    if isinstance(amount, Fraction):
        order = clockwise_from_button(set(winners), button, n_seats)
        return {seat: amount / len(order) for seat in order}
    return split(amount, winners, button=button, n_seats=n_seats, rule=rule)


def best_seats(
    eligible: Sequence[int], values: Mapping[int, Sequence[int | None]], half: int
) -> list[int]:
    """The ``eligible`` seats with the best value (larger is better) in ``half`` of the
    showdown, ties all together (:func:`simulations.rules.settle.best_hands`); none when no
    one qualifies (every value None)."""
    qualified = [s for s in eligible if values[s][half] is not None]
    if not qualified:
        return []
    held = [0] * (max(qualified) + 1)
    for s in qualified:
        held[s] = values[s][half] or 0
    winners = best_hands(held, sum(1 << s for s in qualified))
    return [s for s in qualified if winners >> s & 1]
