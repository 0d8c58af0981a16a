"""Straddles: live and Mississippi, re-straddles, the order of action and the option."""

from __future__ import annotations

import numpy as np
import pytest

from simulations.engine.game import GameDefinition, StraddleRule
from simulations.engine.hand import Action, Hand
from simulations.engine.limits import Limit
from tests.factories import holdem

LIVE = holdem(Limit.NO, blinds=(1, 2), straddles=StraddleRule.LIVE)
MISSISSIPPI = holdem(Limit.NO, blinds=(10, 25), straddles=StraddleRule.MISSISSIPPI)


def _hand(game: GameDefinition, straddles: list[tuple[int, int]], n: int = 6) -> Hand:
    return Hand(game, [1000] * n, button=0, rng=np.random.default_rng(1), straddles=straddles)


def test_live_straddle_acts_last_and_has_the_option() -> None:
    """Rules 002_376df91f076a6501.txt, 'Live straddle': the player left of the big blind
    straddles; action begins left of the straddle; unraised, the straddle has the option."""
    hand = _hand(LIVE, [(3, 4)])
    legal = hand.legal_actions()
    assert legal.seat == 4 and legal.to_call == 4 and legal.wager == (6, 1000)
    for seat in (4, 5, 0, 1):
        hand.act(Action.fold(), seat)
    hand.act(Action.call(), 2)
    legal = hand.legal_actions()
    assert legal.seat == 3 and legal.can_check and legal.wager is not None


def test_re_straddle() -> None:
    """Rules 002_376df91f076a6501.txt, 'The player to the left of a live straddle may
    re-straddle by placing a blind bet raising the original straddle.'"""
    hand = _hand(LIVE, [(3, 4), (4, 8)])
    assert hand.legal_actions().seat == 5 and hand.legal_actions().to_call == 8


def test_mississippi_straddle_on_the_button() -> None:
    """Rules 002_376df91f076a6501.txt, 'Mississippi straddle': with $10-25 blinds the button
    puts a live $50 on it; the small blind acts first, then the big blind, and so on."""
    hand = _hand(MISSISSIPPI, [(0, 50)])
    assert hand.legal_actions().seat == 1
    hand.act(Action.call(), 1)
    assert hand.legal_actions().seat == 2
    for seat in (2, 3, 4, 5):
        hand.act(Action.call(), seat)
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.can_check  # the straddle's option


def test_bad_straddles() -> None:
    with pytest.raises(ValueError, match="must come from seat 3"):
        _hand(LIVE, [(4, 4)])
    with pytest.raises(ValueError, match="at least 4"):
        _hand(LIVE, [(3, 3)])
    with pytest.raises(ValueError, match="already posted"):
        _hand(MISSISSIPPI, [(2, 50)])
    with pytest.raises(ValueError, match="right of seat 0"):
        _hand(MISSISSIPPI, [(0, 50), (1, 100)])
    with pytest.raises(ValueError, match="allows no straddles"):
        _hand(holdem(Limit.NO), [(3, 4)])
