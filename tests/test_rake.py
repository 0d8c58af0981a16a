"""Rake and the jackpot drop: taken before the award, accounted, and never more than the pot."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from simulations.engine.events import Awarded
from simulations.engine.game import JackpotDrop, Rake
from simulations.engine.hand import Action, Hand
from simulations.engine.history import describe_event
from simulations.engine.limits import Limit
from simulations.engine.pots import Pot
from tests.factories import holdem

FIVE_PERCENT = Rake(Fraction(5, 100), caps=((2, 1), (3, 2), (5, 3)))


def test_rake_percentage_rounding_and_caps() -> None:
    """A percentage of the pot, rounded down to whole units, capped by players dealt in."""
    assert FIVE_PERCENT.amount(39, 6) == 1  # 1.95 rounds down
    assert FIVE_PERCENT.amount(100, 6) == 3  # 5 capped at 3 for five or more players
    assert FIVE_PERCENT.amount(100, 4) == 2
    assert FIVE_PERCENT.amount(100, 2) == 1
    assert Rake(Fraction(10, 100), unit=5).amount(99, 9) == 5
    with pytest.raises(ValueError):
        Rake(Fraction(3, 2))
    with pytest.raises(ValueError):
        JackpotDrop(5, 2)


def _checked_down(rake: Rake | None, drop: JackpotDrop | None, *, fold_preflop: bool) -> Hand:
    game = holdem(Limit.NO, blinds=(5, 10), rake=rake, jackpot_drop=drop)
    hand = Hand(game, [1000] * 6, button=0, rng=np.random.default_rng(11))
    if fold_preflop:
        hand.act(Action.raise_to(40))
        while not hand.finished:
            hand.act(Action.fold())
        return hand
    hand.act(Action.raise_to(40))
    while hand.street == 0:
        hand.act(Action.call())
    while not hand.finished:
        hand.act(Action.check())
    return hand


def test_rake_and_drop_are_taken_before_the_award() -> None:
    hand = _checked_down(FIVE_PERCENT, JackpotDrop(2, 100), fold_preflop=False)
    assert hand.rake == 3 and hand.jackpot_drop == 2  # pot 240: 12 capped at 3; drop 2
    assert sum(p.amount for p in hand.pots) == 240 - 5
    assert sum(hand.stacks) + hand.rake + hand.jackpot_drop == 6000


def test_no_flop_no_drop() -> None:
    """A hand won before the flop pays no rake and no drop where 'no flop, no drop' holds."""
    hand = _checked_down(FIVE_PERCENT, JackpotDrop(2, 10), fold_preflop=True)
    assert hand.rake == 0 and hand.jackpot_drop == 0
    assert hand.payoffs[3] == 15 and sum(hand.stacks) == 6000
    always = Rake(Fraction(5, 100), no_flop_no_drop=False)
    hand = _checked_down(always, None, fold_preflop=True)
    # The unmatched part of the raise comes back first: the pot is 25 and 5 % of it is 1.
    assert hand.rake == 1 and hand.payoffs[3] == 14


def test_a_pot_the_rake_empties_keeps_its_place() -> None:
    """Rules 002_376df91f076a6501.txt, '"All in"': the chips above an all-in player's go to 'a
    side pot that only the players who contributed to it are eligible to win'.  Seat 0 is
    all in on the small blind (main pot 3); the side pot is 82.  A 10 % rake (8) taken main
    pot first empties the main pot: it stays, empty, as pot 0, and the 77 left are awarded
    from side pot 1, never named the main pot."""
    game = holdem(Limit.NO, blinds=(1, 2), rake=Rake(Fraction(10, 100)))
    hand = Hand(game, [1, 200, 200], button=2, rng=np.random.default_rng(7))
    hand.act(Action.call(), 2)
    hand.act(Action.check(), 1)
    hand.act(Action.bet(40), 1)
    hand.act(Action.call(), 2)
    while not hand.finished:
        hand.act(Action.check())
    assert hand.rake == 8
    assert hand.pots == (Pot(0, (0, 1, 2)), Pot(77, (1, 2)))
    awards = [e for e in hand.events if isinstance(e, Awarded)]
    assert awards and {e.pot for e in awards} == {1}
    assert sum(e.amount for e in awards) == 77
    assert all("from side pot 1" in describe_event(e) for e in awards)
