"""Betting limits and the incomplete-raise rules, from the rule texts' worked examples."""

from __future__ import annotations

from fractions import Fraction

import pytest

from simulations.engine.limits import (
    IncompleteRaiseRule,
    Limit,
    RaiseBounds,
    RoundView,
    Stakes,
    raise_bounds,
    reopens,
)

FULL = IncompleteRaiseRule.FULL_BET
HALF = IncompleteRaiseRule.HALF_BET


def _view(pot: int, to_match: int, own: int = 0, last_raise: int = 0, bets: int = 0) -> RoundView:
    return RoundView(1, pot, to_match, own, last_raise, bets, contesting=3)


def test_pot_limit_ten_forty_one_forty() -> None:
    """Rules 002_376df91f076a6501.txt, 'Pot limit': with $10 in the pot the first player may
    open for $10; the next may raise to $40; the third to $140."""
    stakes = Stakes(small_bet=1)
    first = raise_bounds(Limit.POT, stakes, _view(pot=10, to_match=0))
    second = raise_bounds(Limit.POT, stakes, _view(pot=20, to_match=10, last_raise=10))
    third = raise_bounds(Limit.POT, stakes, _view(pot=60, to_match=40, last_raise=30))
    assert first is not None and first.high == 10
    assert second is not None and second.high == 40
    assert third is not None and third.high == 140
    # 'Any player may also raise less than the maximum so long as the amount of the raise is
    # equal to or greater than any previous bet or raise in the same betting round.'
    assert second.low == 20 and third.low == 70


def test_pot_limit_blind_conventions() -> None:
    """Rules 002_376df91f076a6501.txt, 'treat the small blind as if it were the same size of
    the big blind': blinds $5/$10, a player may open to $40 (as posted: $35).  When it folds
    to the small blind: a total of three times the big blind, or that plus the small blind."""
    stakes = Stakes(small_bet=10)
    opener = RoundView(0, pot=15, to_match=10, own=0, last_raise=10, bets_made=1, contesting=3)
    assert raise_bounds(Limit.POT, stakes, opener) == RaiseBounds(20, 35)
    assert raise_bounds(Limit.POT, stakes, opener, pot_limit_bonus=5) == RaiseBounds(20, 40)
    small_blind = RoundView(0, pot=15, to_match=10, own=5, last_raise=10, bets_made=1, contesting=2)
    assert raise_bounds(Limit.POT, stakes, small_blind) == RaiseBounds(20, 30)
    assert raise_bounds(Limit.POT, stakes, small_blind, pot_limit_bonus=5) == RaiseBounds(20, 35)


def test_fixed_limit_cap_of_a_bet_and_three_raises() -> None:
    """Rules 002_376df91f076a6501.txt, 'Maximum number of raises': in $20/$40 with a bet and
    three raises, A bets $20, B makes it $40, C $60, A $80 and the betting is capped."""
    stakes = Stakes(small_bet=20, big_bet=40, max_bets=4, cap_lifted_heads_up=True)
    totals = []
    to_match, bets = 0, 0
    for _player in "ABCA":
        view = RoundView(
            0, pot=0, to_match=to_match, own=0, last_raise=20, bets_made=bets, contesting=3
        )
        bounds = raise_bounds(Limit.FIXED, stakes, view)
        assert bounds is not None and bounds.low == bounds.high
        to_match, bets = bounds.low, bets + 1
        totals.append(to_match)
    assert totals == [20, 40, 60, 80]
    capped = RoundView(0, pot=0, to_match=80, own=40, last_raise=20, bets_made=4, contesting=3)
    assert raise_bounds(Limit.FIXED, stakes, capped) is None
    # 'A common exception ... allow unlimited raising when a pot is played heads up.'
    heads_up = RoundView(0, pot=0, to_match=80, own=60, last_raise=20, bets_made=4, contesting=2)
    assert raise_bounds(Limit.FIXED, stakes, heads_up) == RaiseBounds(100, 100)
    big = RoundView(2, pot=200, to_match=0, own=0, last_raise=0, bets_made=0, contesting=3)
    assert raise_bounds(Limit.FIXED, stakes, big) == RaiseBounds(40, 40)


def test_completing_a_sub_minimum_blind_or_bring_in() -> None:
    """Rules 002_376df91f076a6501.txt, 'completing the bet': with a $5 bet and blinds of
    $1/$2 (or a $2 bring-in) players call $2 or raise to $5; the next raise is to $10."""
    stakes = Stakes(small_bet=5, big_bet=10)
    after_blind = RoundView(0, pot=3, to_match=2, own=0, last_raise=2, bets_made=0, contesting=4)
    assert raise_bounds(Limit.FIXED, stakes, after_blind) == RaiseBounds(5, 5)
    completed = RoundView(0, pot=8, to_match=5, own=0, last_raise=5, bets_made=1, contesting=4)
    assert raise_bounds(Limit.FIXED, stakes, completed) == RaiseBounds(10, 10)


def test_spread_limit_ten_on_the_end() -> None:
    """Rules 002_376df91f076a6501.txt, 'Spread limit': "one to five, ten on the end"."""
    stakes = Stakes(small_bet=1, spreads=((1, 5), (1, 5), (1, 5), (1, 10)))
    early = RoundView(1, pot=20, to_match=0, own=0, last_raise=0, bets_made=0, contesting=3)
    end = RoundView(3, pot=20, to_match=0, own=0, last_raise=0, bets_made=0, contesting=3)
    assert raise_bounds(Limit.SPREAD, stakes, early) == RaiseBounds(1, 5)
    assert raise_bounds(Limit.SPREAD, stakes, end) == RaiseBounds(1, 10)
    facing = RoundView(3, pot=28, to_match=8, own=0, last_raise=8, bets_made=1, contesting=3)
    assert raise_bounds(Limit.SPREAD, stakes, facing) == RaiseBounds(16, 18)


def test_no_limit_minimum_raise() -> None:
    """Rules 002_376df91f076a6501.txt, 'raises must be at least equal to the amount of the
    previous bet or raise': facing $5, a raise by at least another $5."""
    stakes = Stakes(small_bet=2)
    facing = RoundView(1, pot=15, to_match=5, own=0, last_raise=5, bets_made=1, contesting=3)
    bounds = raise_bounds(Limit.NO, stakes, facing)
    assert bounds is not None and bounds.low == 10
    opening = RoundView(1, pot=15, to_match=0, own=0, last_raise=0, bets_made=0, contesting=3)
    bounds = raise_bounds(Limit.NO, stakes, opening)
    assert bounds is not None and bounds.low == 2


def test_full_and_half_bet_rules() -> None:
    """Rules 002_376df91f076a6501.txt, 'Incomplete bet or raise': an opener bets $20 and the
    next player goes all in to $30: no real raise under the full bet rule, a genuine one under
    the half bet rule.  A $5 all-in into a $20 round reopens neither way."""
    assert not reopens(FULL, increment=10, full_increment=20)
    assert reopens(HALF, increment=10, full_increment=20)
    assert reopens(FULL, increment=20, full_increment=20)
    assert not reopens(HALF, increment=5, full_increment=20)


def test_action_only() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'action only': Alice bets $100, Bob calls, Carol goes
    all in for $119: Alice and Bob may only call the extra $19."""
    assert not reopens(FULL, increment=19, full_increment=100)
    assert not reopens(HALF, increment=19, full_increment=100)


def test_kill_stakes() -> None:
    """Rules 002_376df91f076a6501.txt, 'Kill game': a full kill plays $20/$40 as $40/$80; a
    half kill plays $4/$8 as $6/$12."""
    assert Stakes(20, 40).killed(Fraction(2)) == Stakes(40, 80)
    assert Stakes(4, 8).killed(Fraction(3, 2)) == Stakes(6, 12)
    with pytest.raises(ValueError, match="whole chips"):
        Stakes(5, 10).killed(Fraction(3, 2))
    with pytest.raises(ValueError, match="raises the stakes"):
        Stakes(5, 10).killed(Fraction(1))


def test_betting_unit_and_bad_stakes() -> None:
    """Rules 002_376df91f076a6501.txt, 'betting unit': $20/$40 with $5 units."""
    stakes = Stakes(20, 40, unit=5)
    assert stakes.on_unit(25) and not stakes.on_unit(22)
    for bad in (
        lambda: Stakes(0),
        lambda: Stakes(10, 5),
        lambda: Stakes(5, unit=0),
        lambda: Stakes(5, max_bets=0),
        lambda: Stakes(5, spreads=((0, 5),)),
    ):
        with pytest.raises(ValueError):
            bad()
