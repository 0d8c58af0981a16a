"""Kill pots: the kill blind, the raised stakes, and the kill acting last before the flop."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from simulations.engine.game import holdem
from simulations.engine.hand import Action, Hand
from simulations.engine.limits import Limit, Stakes

A, B, C, D, E = range(5)


def _hand(factor: Fraction, blinds: tuple[int, int], stakes: Stakes, kill_seat: int = E) -> Hand:
    game = holdem(Limit.FIXED, blinds=blinds, stakes=stakes)
    return Hand(game, [1000] * 5, button=A, rng=np.random.default_rng(3), kill=(kill_seat, factor))


def test_full_kill_order_and_stakes() -> None:
    """Rules 002_376df91f076a6501.txt, 'Kill game': in $20/$40 with a full kill the hand plays
    as $40/$80; five-handed, E holding the kill and A the button, the order of action is D, A,
    B (small blind), C (big blind), E (kill blind); after the flop betting returns to normal."""
    hand = _hand(Fraction(2), (10, 20), Stakes(20, 40))
    assert hand.contributed[E] == 40
    order = []
    while hand.street == 0:
        legal = hand.legal_actions()
        order.append(legal.seat)
        if legal.seat == E:
            assert legal.can_check and legal.wager == (80, 80)  # the kill's option
            hand.act(Action.check())
        else:
            assert legal.to_call == 40 - hand.round_bets[legal.seat]
            assert legal.wager == (80, 80)
            hand.act(Action.call())
    assert order == [D, A, B, C, E]
    legal = hand.legal_actions()
    assert legal.seat == B and legal.wager == (40, 40)  # the killed small bet


def test_half_kill() -> None:
    """Rules 002_376df91f076a6501.txt, 'a $4/$8 game with a half kill is played at $6/$12'."""
    hand = _hand(Fraction(3, 2), (2, 4), Stakes(4, 8))
    assert hand.contributed[E] == 6 and hand.stakes == Stakes(6, 12)
    assert hand.legal_actions().wager == (12, 12)


def test_bad_kills() -> None:
    with pytest.raises(ValueError, match="already posted"):
        _hand(Fraction(2), (10, 20), Stakes(20, 40), kill_seat=C)
    with pytest.raises(ValueError, match="whole chips"):
        _hand(Fraction(3, 2), (5, 5), Stakes(5, 10))
