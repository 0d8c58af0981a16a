"""High-low split with declaration (Rules 000_1a86611de8d3f5f7.txt, 'High/low with
declare')."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from simulations.cards import Card, parse_cards
from simulations.engine.actions import Action, IllegalAction
from simulations.engine.declare import Declaration, split_declared
from simulations.engine.events import Awarded, Declared
from simulations.engine.hand import Hand
from simulations.engine.phases import Declare
from simulations.engine.pots import Chips
from simulations.engine.showdown import Half, HandRanking, Showdown
from simulations.engine.variants import variant
from tests.state import state_of

HIGH, LOW, BOTH = Declaration.HIGH, Declaration.LOW, Declaration.BOTH


def _split(
    values: dict[int, tuple[int, int]], declared: dict[int, Declaration], pot: int = 100
) -> dict[int, Chips]:
    seats = sorted(values)
    return split_declared(pot, seats, values, declared, button=0, n_seats=len(seats) + 1)


def test_a_scoop_declared_and_won_outright_takes_the_pot() -> None:
    """'If any player shows two chips, and his hand is the best low and the best high, he
    scoops the pot.'"""
    values = {1: (9, 9), 2: (5, 5), 3: (1, 1)}
    assert _split(values, {1: BOTH, 2: HIGH, 3: LOW}) == {1: 100}


def test_a_scoop_that_ties_one_way_wins_nothing() -> None:
    """'if a player declares scoop, has the lowest hand clearly but ties for high, he wins
    nothing. The other player with the same high hand wins the high half of the pot and the
    next-lowest hand wins low (assuming he declared low–if no other player declared low, the
    high hand who declared high wins the whole pot).'"""
    values = {1: (8, 9), 2: (8, 1), 3: (2, 5)}  # seat 1 ties seat 2 for high, best low
    assert _split(values, {1: BOTH, 2: HIGH, 3: LOW}) == {2: 50, 3: 50}
    assert _split(values, {1: BOTH, 2: HIGH, 3: HIGH}) == {2: 100}


def test_halves_go_to_the_best_of_those_who_declared_that_way() -> None:
    """'half of the pot goes to the player with the highest hand who declared high, and the
    other half to the player with the lowest hand of those who declared low'; a better low
    hand that declared high does not win low."""
    values = {1: (9, 9), 2: (5, 5), 3: (1, 1)}
    assert _split(values, {1: HIGH, 2: LOW, 3: LOW}) == {1: 50, 2: 50}
    assert _split(values, {1: LOW, 2: HIGH, 3: HIGH}, pot=101) == {2: 51, 1: 50}  # odd chip high


def test_if_no_one_declares_one_way_the_other_takes_the_whole_pot() -> None:
    """'if no one declares in one direction, the full pot is awarded in the other (for
    example, if all players declare low, the low hand wins the whole pot rather than half)'."""
    values = {1: (9, 2), 2: (5, 7), 3: (1, 3)}
    assert _split(values, {1: LOW, 2: LOW, 3: LOW}) == {2: 100}
    assert _split(values, {1: HIGH, 2: HIGH, 3: HIGH}) == {1: 100}


def test_ties_within_a_half_split_it() -> None:
    values = {1: (9, 2), 2: (9, 7), 3: (1, 7)}
    assert _split(values, {1: HIGH, 2: HIGH, 3: LOW}) == {1: 25, 2: 25, 3: 50}


def test_every_scoop_failing_leaves_the_cards_to_speak() -> None:
    values = {1: (9, 2), 2: (5, 7)}  # each wins one way: neither scoops
    assert _split(values, {1: BOTH, 2: BOTH}) == {1: 50, 2: 50}


def _deck(hands: list[str]) -> list[int]:
    parsed = [parse_cards(text) for text in hands]
    order: list[Card] = []
    for i in range(5):
        order += [cards[i] for cards in parsed]
    return order + [c for c in range(52) if c not in order]


def _to_the_declaration(hand: Hand) -> None:
    while not hand.legal_actions().declarations:
        legal = hand.legal_actions()
        if legal.choice is not None:
            hand.act(Action.stand_pat())
        else:
            hand.act(Action.check() if legal.can_check else Action.call())


def test_a_hand_of_declare_draw_is_settled_by_the_declarations() -> None:
    """Three players stand pat: seat 1 holds the best high, seat 2 the best low but declares
    high, seat 3 declares low with a worse low: seat 1 takes high, seat 3 low."""
    deals = ["Ah Ad Ac Kh Kd", "2c 3d 4h 5s 7c", "2h 4d 6c 8s 9h"]  # seats 1, 2, 0
    hand = Hand(variant("F5CD-HLD").game(), [100] * 3, button=0, deck=_deck(deals))
    _to_the_declaration(hand)
    pot = hand.pot_total
    for seat, declaration in ((1, HIGH), (2, HIGH), (0, LOW)):
        assert hand.actor == seat
        hand.act(Action.declare(declaration))
        if seat != 0:  # simultaneous: nothing is shown until the last has declared
            assert not any(isinstance(e, Declared) for e in hand.events)
    assert [(e.seat, e.declaration) for e in hand.events if isinstance(e, Declared)] == [
        (1, HIGH),
        (2, HIGH),
        (0, LOW),
    ]
    assert hand.finished
    won = {e.seat: e.amount for e in hand.events if isinstance(e, Awarded)}
    assert won == {1: pot // 2, 0: pot // 2}


def test_declaring_in_turn_shows_each_declaration_at_once() -> None:
    game = variant("F5CD-HLD").game()
    in_turn = replace(game, phases=(*game.phases[:-1], Declare("declare", in_turn=True)))
    hand = Hand(in_turn, [100] * 3, button=0, rng=np.random.default_rng(4))
    _to_the_declaration(hand)
    hand.act(Action.declare("low"))
    assert [e.declaration for e in hand.events if isinstance(e, Declared)] == [LOW]


def test_bad_declarations_are_refused_and_leave_the_hand_unchanged() -> None:
    hand = Hand(variant("F5CD-HLD").game(), [100] * 3, button=0, rng=np.random.default_rng(6))
    with pytest.raises(IllegalAction, match="a betting turn, not a declaration"):
        hand.act(Action.declare("high"))
    _to_the_declaration(hand)
    assert hand.legal_actions().declarations == (HIGH, LOW, BOTH)
    before = state_of(hand)
    for action, message in [
        (Action.check(), "a declaration is due"),
        (Action.bet(4), "a declaration is due"),
        (Action.stand_pat(), "a declaration is due"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            hand.act(action)
        assert state_of(hand) == before
    with pytest.raises(ValueError, match="'sideways' is not a valid Declaration"):
        Action.declare("sideways")


def test_a_declaration_needs_high_and_low_halves_and_no_qualifier() -> None:
    """'it is necessary to have either a declaration phase or a qualifier (but not both)'."""
    high, low = Half(HandRanking.HIGH), Half(HandRanking.ACE_TO_FIVE_LOW)
    with pytest.raises(ValueError, match="between a high and a low half"):
        Showdown((high,), declare=True)
    with pytest.raises(ValueError, match="no qualifier"):
        Showdown(
            (high, replace(low, qualifier=variant("FO/8").game().showdown.halves[1].qualifier)),
            declare=True,
        )
    game = variant("F5CD-HLD").game()
    with pytest.raises(ValueError, match="one declare phase"):
        replace(game, phases=game.phases[:-1])
    with pytest.raises(ValueError, match=r"phases\[4\]: a declaration needs a showdown"):
        replace(game, showdown=Showdown((high, low)))
