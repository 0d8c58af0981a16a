"""The house's take, worked examples of each rule: the rake as a percentage rounded down, half
to even, half up or up, to whole units; per increment of the pot; capped by the players dealt
in; 'no flop, no drop'; the jackpot drop, fixed or a capped percentage, from pots that reach
its threshold; and the reference engine and the economics kernel taking every figure from the
same compiled functions (simulations/rules/rake_rules.py)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from simulations.engine import game_parts, settle
from simulations.engine.game import JackpotDrop, Rake, RakeRounding
from simulations.engine.hand import Action, Hand
from simulations.engine.limits import Limit
from simulations.models import table_kernel, table_tally
from simulations.rules import rake_rules
from simulations.rules.rake_rules import (
    ROUND_DOWN,
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    ROUND_UP,
    applicable_cap,
    house_take,
    increment_rake,
    linear_rake,
    rounded_quotient,
)
from tests.factories import holdem


def test_the_kernel_and_the_engine_call_the_same_rule_functions() -> None:
    for name in ("applicable_cap", "rake_amount", "drop_amount"):
        assert getattr(game_parts, name) is getattr(rake_rules, name), name
    assert settle.house_take is rake_rules.house_take is table_kernel.house_take
    assert table_kernel.rake_amount is rake_rules.rake_amount is table_tally.rake_amount
    assert table_kernel.drop_amount is rake_rules.drop_amount


def test_a_percentage_of_the_pot() -> None:
    """Rules 003, 'taking a percentage of the pots as their rake': 10 % of 57 is 5.7 —
    5 rounded down (most live rooms), 6 half up, half to even or up."""
    assert linear_rake(57, 1, 10, 1, ROUND_DOWN) == 5
    assert linear_rake(57, 1, 10, 1, ROUND_HALF_UP) == 6
    assert linear_rake(57, 1, 10, 1, ROUND_HALF_EVEN) == 6
    assert linear_rake(57, 1, 10, 1, ROUND_UP) == 6
    assert linear_rake(50, 1, 10, 1, ROUND_UP) == 5  # exact: nothing to round


def test_round_half_to_even() -> None:
    """PokerStars: 'Ring game rake is calculated as a true percentage using the round half to
    even method of rounding': 5 % of 30 cents is 1.5 -> 2 cents, of 50 cents 2.5 -> 2 cents,
    of 70 cents 3.5 -> 4; half up makes 2, 3 and 4."""
    assert [linear_rake(pot, 5, 100, 1, ROUND_HALF_EVEN) for pot in (30, 50, 70)] == [2, 2, 4]
    assert [linear_rake(pot, 5, 100, 1, ROUND_HALF_UP) for pot in (30, 50, 70)] == [2, 3, 4]
    assert [linear_rake(pot, 5, 100, 1, ROUND_DOWN) for pot in (30, 50, 70)] == [1, 2, 3]
    assert rounded_quotient(5, 2, ROUND_HALF_EVEN) == 2 and rounded_quotient(7, 2, 1) == 4


def test_whole_units() -> None:
    """A rake taken in $1 chips from a pot counted in dollars: 10 % of 99 in units of 5 is
    9.9 -> 5 rounded down, 10 half up."""
    assert linear_rake(99, 1, 10, 5, ROUND_DOWN) == 5
    assert linear_rake(99, 1, 10, 5, ROUND_HALF_UP) == 10
    assert Rake(Fraction(1, 10), unit=5, rounding=RakeRounding.HALF_UP).amount(99, 9) == 10


def test_a_per_increment_schedule() -> None:
    """'$0.25 for each $5.00 in pot, maximum $2.00' (vegaspoker247's fixed-limit schedule), in
    cents: 25 for each full 500; a pot of 999 pays 25, 1,000 pays 50, 9,999 pays 475, capped
    at 200; the 'incremental system' PokerStars used before 2012: 'a $0.99 pot at 25nl would
    be rake-free, a $1.01 or $1.99 pot would both be raked 5 cents'."""
    schedule = Rake(Fraction(0), caps=((2, 200),), increment=500, per_increment=25)
    assert [increment_rake(p, 500, 25) for p in (499, 999, 1_000, 9_999)] == [0, 25, 50, 475]
    assert [schedule.amount(p, 6) for p in (499, 999, 1_000, 9_999)] == [0, 25, 50, 200]
    old_stars = Rake(Fraction(0), increment=100, per_increment=5)
    assert [old_stars.amount(p, 6) for p in (99, 101, 199, 201)] == [0, 5, 5, 10]
    # The linear rake that replaced it raked the same pots from the first cent.
    linear = Rake(Fraction(5, 100))
    assert [linear.amount(p, 6) for p in (99, 101, 199, 201)] == [4, 5, 9, 10]
    with pytest.raises(ValueError):
        Rake(Fraction(0), increment=100, per_increment=101)


def test_caps_by_players_dealt_in() -> None:
    """'2 Player Cap, 3-4 Player Cap, 5+ Player Cap' (PokerStars, 'Number of players ...
    refers to the players who were dealt into that particular hand'): 5 % capped at 50 cents
    heads-up, 1.00 for three or four, 2.00 for five or more — a $60 pot (6,000 cents) pays 50,
    100 or 200; below every cap the percentage stands."""
    stars = Rake(Fraction(5, 100), caps=((2, 50), (3, 100), (5, 200)))
    assert [stars.amount(6_000, n) for n in (2, 3, 4, 5, 9)] == [50, 100, 100, 200, 200]
    assert stars.amount(600, 9) == 30
    players, caps = np.array([2, 3, 5]), np.array([50, 100, 200])
    assert [applicable_cap(n, players, caps) for n in (2, 4, 6)] == [50, 100, 200]
    assert applicable_cap(4, np.array([5]), np.array([300])) == rake_rules.NO_CAP


def test_no_flop_no_drop() -> None:
    """'No flop, no drop': the rake of a hand over before the flop is nothing, unless the room
    rakes those too."""
    rake = Rake(Fraction(1, 10))
    assert rake.amount(30, 6, flopped=False) == 0 and rake.amount(30, 6) == 3
    assert Rake(Fraction(1, 10), no_flop_no_drop=False).amount(30, 6, flopped=False) == 3


def test_the_jackpot_drop() -> None:
    """Rules 000, 'Bad beat jackpot': 'a small rake being taken out of each pot to fund the
    jackpot'; '$1-$2 will be taken out ... when the pot reaches 10 times the small blind ...
    and there is a flop' (acehighpoker.com): a fixed drop from pots of the threshold or more,
    after the flop; a percentage drop rounded down and capped."""
    fixed = JackpotDrop(1, 10)
    assert [fixed.taken(p, True) for p in (9, 10, 500)] == [0, 1, 1]
    assert fixed.taken(500, False) == 0
    share = JackpotDrop(0, 20, Fraction(1, 100), cap=3)
    assert [share.taken(p, True) for p in (19, 250, 299, 1_000)] == [0, 2, 2, 3]
    with pytest.raises(ValueError):
        JackpotDrop(5, 2)  # a drop above its threshold


def test_the_rake_comes_first_and_the_drop_from_what_is_left() -> None:
    assert house_take(10, 3, 2) == (3, 2)
    assert house_take(4, 3, 2) == (3, 1)
    assert house_take(3, 5, 1) == (3, 0)


def test_the_engine_settles_a_hand_with_these_rules() -> None:
    """A six-handed hand checked down after a raise to 40 and five calls: a pot of 240,
    5 % half to even is 12, capped at 10 for five players or more; the drop 1 from pots of 100;
    the winner's pot is 229."""
    rake = Rake(Fraction(5, 100), caps=((5, 10),), rounding=RakeRounding.HALF_EVEN)
    game = holdem(Limit.NO, blinds=(5, 10), rake=rake, jackpot_drop=JackpotDrop(1, 100))
    hand = Hand(game, [1000] * 6, button=0, rng=np.random.default_rng(11))
    hand.act(Action.raise_to(40))
    while hand.street == 0:
        hand.act(Action.call())
    while not hand.finished:
        hand.act(Action.check())
    assert (hand.rake, hand.jackpot_drop) == (10, 1)
    assert sum(p.amount for p in hand.pots) == 229
    assert sum(hand.stacks) == 6000 - 11
