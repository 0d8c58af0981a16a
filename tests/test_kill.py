"""Kill pots: the kill blind, the raised stakes, the kill acting last before the flop, and
when the kill becomes active between hands."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from simulations.engine.hand import Action, Hand
from simulations.engine.kill import HandOutcome, KillRule, KillState, KillTrigger, next_kill
from simulations.engine.limits import Limit, Stakes
from tests.factories import holdem

A, B, C, D, E = range(5)


def _hand(
    factor: Fraction,
    blinds: tuple[int, int],
    stakes: Stakes,
    kill_seat: int = E,
    stacks: list[int] | None = None,
) -> Hand:
    game = holdem(Limit.FIXED, blinds=blinds, stakes=stakes)
    return Hand(
        game, stacks or [1000] * 5, button=A, rng=np.random.default_rng(3), kill=(kill_seat, factor)
    )


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


def test_kill_left_of_the_big_blind_still_acts_last() -> None:
    """Rules 002_376df91f076a6501.txt, 'Kill game': 'the player with the kill blind acts last
    after the big blind regardless of where they are seated in relation to the dealer
    button' — also when he sits right after the big blind, where the action would begin."""
    hand = _hand(Fraction(2), (10, 20), Stakes(20, 40), kill_seat=D)
    order = []
    while hand.street == 0:
        legal = hand.legal_actions()
        order.append(legal.seat)
        hand.act(Action.check() if legal.can_check else Action.call())
    assert order == [E, A, B, C, D]


def test_a_kill_blind_short_of_chips_is_all_in() -> None:
    """Rules 002_376df91f076a6501.txt, 'All in before the deal': 'If a player does not have
    sufficient money to cover the ante and blinds due, that player is automatically all in
    ... Players to act must call the complete amount of the big blind to call, even if the
    all-in player has posted less'.  The kill blind is 'an additional blind': a player with 30
    of a full kill of 40 posts 30, all in; the hand is still played at $40/$80 and the others
    call the whole 40."""
    hand = _hand(Fraction(2), (10, 20), Stakes(20, 40), stacks=[1000, 1000, 1000, 1000, 30])
    assert hand.contributed[E] == 30 and hand.stacks[E] == 0 and hand.stakes == Stakes(40, 80)
    order = []
    while hand.street == 0:
        legal = hand.legal_actions()
        order.append(legal.seat)
        assert legal.to_call == 40 - hand.round_bets[legal.seat]
        hand.act(Action.check() if legal.can_check else Action.call())
    assert order == [D, A, B, C]  # the kill blind, all in, acts no more


def test_bad_kills() -> None:
    with pytest.raises(ValueError, match="already posted"):
        _hand(Fraction(2), (10, 20), Stakes(20, 40), kill_seat=C)
    with pytest.raises(ValueError, match="whole chips"):
        _hand(Fraction(3, 2), (5, 5), Stakes(5, 10))


def _outcome(*winners: int, pot: int = 100) -> HandOutcome:
    return HandOutcome(tuple(sorted(winners)), pot)


def _run(rule: KillRule, outcomes: list[HandOutcome]) -> list[int | None]:
    state, kills = KillState(), []
    for outcome in outcomes:
        state, kill = next_kill(rule, state, outcome)
        kills.append(kill)
    return kills


def test_kill_after_two_pots_in_a_row_and_while_winning() -> None:
    """Rules 002_376df91f076a6501.txt, 'Kill game': 'a single player wins two pots in a row,
    requiring the winner to post a kill blind on the next hand. The kill will typically remain
    active if the player with the kill blind continues to win consecutive hands.'"""
    rule = KillRule(KillTrigger.TWO_IN_A_ROW)
    outcomes = [_outcome(A), _outcome(B), _outcome(B), _outcome(B), _outcome(C), _outcome(A)]
    assert _run(rule, outcomes) == [None, None, B, B, None, None]


def test_split_pots_and_the_kill() -> None:
    """Rules 002_376df91f076a6501.txt, 'Kill game': 'If a player has won the previous hand and
    splits the pot with another player, that may also activate a kill hand. If a pot is split
    and neither player has won the previous hand, winning the pot of the next hand does not
    typically activate a kill hand.'"""
    rule = KillRule(KillTrigger.TWO_IN_A_ROW)
    assert _run(rule, [_outcome(A), _outcome(A, B)]) == [None, A]
    assert _run(rule, [_outcome(A), _outcome(B, C), _outcome(B)]) == [None, None, None]
    strict = KillRule(KillTrigger.TWO_IN_A_ROW, split_continues=False)
    assert _run(strict, [_outcome(A), _outcome(A, B), _outcome(A)]) == [None, None, None]


def test_kill_by_pot_size() -> None:
    """Rules 002_376df91f076a6501.txt, 'Kill game': 'the kill would be active if the previous
    pot won was greater than $400. The winner of that pot is required to post the kill'; a
    high-low pot must be scooped."""
    rule = KillRule(KillTrigger.POT_SIZE, pot_over=400)
    outcomes = [_outcome(A, pot=400), _outcome(B, pot=401), _outcome(B, C, pot=900)]
    assert _run(rule, outcomes) == [None, B, None]


def test_kill_from_a_played_hand() -> None:
    """Rules 002_376df91f076a6501.txt, 'Kill game': 'a single player wins two pots in a row,
    requiring the winner to post a kill blind on the next hand' — read from two hands' events,
    then posted in the third."""
    game = holdem(Limit.FIXED, blinds=(10, 20), stakes=Stakes(20, 40))
    rule = KillRule(KillTrigger.TWO_IN_A_ROW)
    state, kill = KillState(), None
    for _ in range(2):  # everyone folds to the big blind, C, twice
        hand = Hand(game, [1000] * 5, button=A, rng=np.random.default_rng(1))
        while not hand.finished:
            hand.act(Action.fold())
        state, kill = next_kill(rule, state, HandOutcome.from_events(hand.events))
    assert kill == C
    # Next hand C, now on the button, posts the kill and the hand plays at twice the limits.
    hand = Hand(game, [1000] * 5, button=C, rng=np.random.default_rng(2), kill=(C, rule.factor))
    assert hand.contributed[C] == 40 and hand.stakes == Stakes(40, 80)


def test_bad_kill_rules() -> None:
    with pytest.raises(ValueError, match="pot_over"):
        KillRule(KillTrigger.POT_SIZE)
    with pytest.raises(ValueError, match="factor"):
        KillRule(KillTrigger.TWO_IN_A_ROW, factor=Fraction(1))
