"""Seven-card stud on the hand engine: the deal, the bring-in and its completion, and the
showing hand that opens each later round."""

from __future__ import annotations

import numpy as np
import pytest

from simulations.cards import parse_cards
from simulations.decks import Deck
from simulations.engine.events import HoleDealt, Posted, PostKind
from simulations.engine.game import ActingOrder, GameDefinition
from simulations.engine.hand import Action, ActionKind, Hand, IllegalAction
from simulations.engine.limits import IncompleteRaiseRule, Limit, Stakes
from tests.factories import razz, seven_card_stud


def _stud_deck(
    third: list[str], later: list[list[str]] | None = None, button: int = 0
) -> list[int]:
    """A deck dealing ``third[seat]`` ('down down up') on third street and then, street by
    street, ``later[street][seat]`` to every seat (no folds), burns from the spare cards."""
    n = len(third)
    cards = [parse_cards(t) for t in third]
    streets = [[parse_cards(c)[0] for c in street] for street in (later or [])]
    used = {c for h in cards for c in h} | {c for street in streets for c in street}
    spare = iter(c for c in Deck.standard().cards if c not in used)
    order = [cards[(button + 1 + i) % n][r] for r in range(3) for i in range(n)]
    for street in streets:
        order.append(next(spare))
        order.extend(street[(button + 1 + i) % n] for i in range(n))
    order.extend(spare)
    return order


def test_deal_two_down_one_up_then_up_then_down() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Seven-Card Stud': 'each player receives two cards face
    down and one card face up ... Each player is then dealt 3 cards face up ... The last card
    dealt to each remaining player is face down'."""
    hand = Hand(seven_card_stud(), [500] * 4, button=0, rng=np.random.default_rng(5))
    while not hand.finished:
        legal = hand.legal_actions()
        if legal.bring_in is not None:
            hand.act(Action.bring_in())
        elif legal.can_check:
            hand.act(Action.check())
        else:
            hand.act(Action.call())
    assert all(len(hand.hole[s]) == 7 and len(hand.up[s]) == 4 for s in range(4))
    faces = [e.face_up for e in hand.events if isinstance(e, HoleDealt) and e.seat == 0]
    assert faces == [False, True, True, True, True, False]
    assert hand.hole[0][2] == hand.up[0][0]  # the door card is the third dealt


def test_low_card_brings_it_in_and_may_complete() -> None:
    """Rules 002_376df91f076a6501.txt, 'Bring-in': 'a game with a $5 fixed bet on the first
    round might have a bring-in of $2. Players acting after the bring-in can either call the
    $2, or raise to $5. After the bet is raised to $5, the next raise must be to $10'; in high
    games 'the player showing the lowest card pays the bring-in', suits breaking ties."""
    # Seat 2 shows the 4d and seat 3 the 4s: the diamond is lower and brings it in.
    deck = _stud_deck(["As Ad Kc", "Qs Qd 9h", "2c 3c 4d", "2h 3h 4s"])
    hand = Hand(seven_card_stud(ante=1, bring_in=2), [100] * 4, button=0, deck=deck)
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.bring_in == 2 and legal.wager == (5, 5)
    assert not legal.can_check and not legal.can_fold
    with pytest.raises(IllegalAction, match="bring-in is forced"):
        hand.act(Action.check())
    with pytest.raises(IllegalAction, match="bring-in is forced"):
        hand.act(Action.fold())
    hand.act(Action.bring_in())
    legal = hand.legal_actions()
    assert legal.seat == 3 and legal.to_call == 2 and legal.wager == (5, 5)  # call or complete
    hand.act(Action.call())
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.wager == (5, 5)
    hand.act(Action.raise_to(5))  # completing the bet
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.to_call == 5 and legal.wager == (10, 10)
    hand.act(Action.raise_to(10))
    # The bring-in acts again: the completion reopened the betting.
    assert hand.legal_actions().seat == 2 and hand.legal_actions().wager == (15, 15)


def test_bring_in_not_completed_closes_on_the_bring_in() -> None:
    """Rules 002_376df91f076a6501.txt, 'Bring-in': the bring-in is not live — when everyone
    calls it, the round ends without the bring-in acting again."""
    deck = _stud_deck(["As Ad Kc", "Qs Qd 9h", "2c 3c 4d"])
    hand = Hand(seven_card_stud(ante=0, bring_in=2), [100] * 3, button=0, deck=deck)
    hand.act(Action.bring_in(), seat=2)
    hand.act(Action.call(), seat=0)
    hand.act(Action.call(), seat=1)
    assert hand.street == 1 and hand.pot_total == 6


def test_bring_in_may_open_with_a_full_bet() -> None:
    """Rules 002_376df91f076a6501.txt, 'Bring-in': 'The player forced to pay the bring-in may
    choose either to pay only what is required or to make a normal bet.'"""
    deck = _stud_deck(["As Ad Kc", "Qs Qd 9h", "2c 3c 4d"])
    hand = Hand(seven_card_stud(ante=0, bring_in=2), [100] * 3, button=0, deck=deck)
    hand.act(Action.bet(5), seat=2)
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.to_call == 5 and legal.wager == (10, 10)
    assert not any(isinstance(e, Posted) and e.kind is PostKind.BRING_IN for e in hand.events)


def test_bring_in_as_large_as_the_bet_is_live() -> None:
    """Rules 002_376df91f076a6501.txt, 'Bring-in': 'In a game where the bring-in is equal to
    the fixed bet ... the bring-in must be treated as live in the same way as a blind, so that
    the player is guaranteed his right to raise on the first betting round'."""
    deck = _stud_deck(["As Ad Kc", "Qs Qd 9h", "2c 3c 4d"])
    game = seven_card_stud(ante=0, bring_in=5)
    hand = Hand(game, [100] * 3, button=0, deck=deck)
    assert hand.contributed == [0, 0, 5]
    hand.act(Action.call(), seat=0)
    hand.act(Action.call(), seat=1)
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.can_check and legal.wager == (10, 10)  # his option


def test_best_hand_showing_opens_later_rounds() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Seven-Card Stud': 'On all subsequent rounds, the
    player with the best hand open the betting'; with fewer than five cards up only pairs
    and better count, and equal hands go to the first clockwise from the dealer's left."""
    deck = _stud_deck(
        ["As Ad 5c", "Qs Qd 9h", "2c 3c 4d", "Jc Jd 7s"],
        [["8c", "9c", "Kh", "7h"], ["Th", "Td", "Qh", "6d"]],
        button=0,
    )
    hand = Hand(seven_card_stud(ante=1, bring_in=2), [100] * 4, button=0, deck=deck)
    hand.act(Action.bring_in(), seat=2)
    for seat in (3, 0, 1):
        hand.act(Action.call(), seat=seat)
    # Fourth street: 5c 8c, 9h 9c (a pair of nines), 4d Kh, 7s 7h (sevens): nines open.
    assert hand.street == 1 and hand.legal_actions().seat == 1
    assert hand.legal_actions().wager == (5, 5)  # the small bet until fifth street
    for seat in (1, 2, 3, 0):
        hand.act(Action.check(), seat=seat)
    # Fifth street: seat 1 (9-9-T) and seat 3 (7-7-6): nines still first; the big bet.
    assert hand.legal_actions().seat == 1 and hand.legal_actions().wager == (10, 10)


def test_equal_showing_hands_first_clockwise() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Seven-Card Stud': equal hands showing — the first of
    them clockwise from the dealer's left opens."""
    deck = _stud_deck(
        ["As Ad 5c", "Qs Qd 5d", "2c 3c 4d"],
        [["Kc", "Kd", "8h"]],
        button=1,
    )
    hand = Hand(seven_card_stud(ante=0, bring_in=2), [100] * 3, button=1, deck=deck)
    hand.act(Action.bring_in(), seat=2)
    hand.act(Action.call(), seat=0)
    hand.act(Action.call(), seat=1)
    # Seats 0 and 1 both show K-5; clockwise from the dealer (seat 1): 2, 0, 1 — seat 0.
    assert hand.legal_actions().seat == 0


def test_low_showing_order_for_low_games() -> None:
    """Rules 002_376df91f076a6501.txt, 'Bring-in': 'In low hand games, the player with the
    highest card showing pays the bring-in' (aces low); afterwards the lowest hand showing
    opens."""
    game = razz(ante=0, bring_in=2)
    deck = _stud_deck(["2s 3s As", "2d 3d Kc", "4c 5c Kh"], [["8c", "Qd", "2h"]])
    hand = Hand(game, [100] * 3, button=0, deck=deck)
    assert hand.legal_actions().seat == 2  # the Kh outranks the Kc by suit
    hand.act(Action.bring_in(), seat=2)
    hand.act(Action.call(), seat=0)
    hand.act(Action.call(), seat=1)
    # A-8 is the lowest showing (K-Q and K-2 behind it).
    assert hand.legal_actions().seat == 0


def test_a_low_acting_order_needs_a_low_showdown() -> None:
    """A game with razz's acting order and a high showdown was accepted, and its pot paid
    to the best high hand: the two are refused together."""
    base = seven_card_stud(ante=0, bring_in=2)
    with pytest.raises(ValueError, match="low-showing acting order is for low games"):
        GameDefinition(
            name="razz-order stud",
            phases=base.phases,
            forced=base.forced,
            limit=base.limit,
            stakes=base.stakes,
            selection=base.selection,
            acting_order=ActingOrder.LOW_SHOWING,
        )


def test_no_limit_bring_in_completes_to_the_bet() -> None:
    """Rules 002_376df91f076a6501.txt, 'Bring-in': completing brings 'the current bet up to
    the normal minimum' in any structure."""
    deck = _stud_deck(["As Ad Kc", "Qs Qd 9h", "2c 3c 4d"])
    game = seven_card_stud(ante=0, bring_in=1, limit=Limit.NO, stakes=Stakes(4))
    hand = Hand(game, [100] * 3, button=0, deck=deck)
    assert hand.legal_actions().wager == (4, 100)
    hand.act(Action.bring_in())
    assert hand.legal_actions().wager == (4, 100)  # complete to 4, or more
    hand.act(Action.raise_to(4))
    assert hand.legal_actions().wager == (8, 100)


def test_half_bet_rule_short_bring_in_completion() -> None:
    """Rules 002_376df91f076a6501.txt, 'Incomplete bet or raise': under the half bet rule a
    player may complete an incomplete raise; here the completion itself is all in for less."""
    deck = _stud_deck(["As Ad Kc", "Qs Qd 9h", "2c 3c 4d"])
    game = seven_card_stud(ante=0, bring_in=2, incomplete_raise=IncompleteRaiseRule.HALF_BET)
    hand = Hand(game, [100, 4, 100], button=0, deck=deck)
    hand.act(Action.bring_in(), seat=2)
    hand.act(Action.call(), seat=0)
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.wager == (4, 4)  # all in for 4 of the 5 completion
    hand.act(Action.raise_to(4))
    # 2 more than the bring-in is at least half the 3 a completion adds: it reopens.
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.wager == (5, 5)


@pytest.mark.parametrize("stack", [2, 3])
def test_a_bring_in_that_takes_every_chip_is_the_only_choice(stack: int) -> None:
    """Rules 002_376df91f076a6501.txt, 'Bring-in': the player 'may choose either to pay only
    what is required or to make a normal bet'; with no more chips than the bring-in (after
    the ante) the normal bet is beyond him, and a "bet" of the same chips is refused.  'All
    in before the deal': the next player 'must call the complete amount' -- the bring-in of
    2 -- even when the short bring-in was 1."""
    deck = _stud_deck(["As Ad Kc", "Qs Qd 9h", "2c 3c 4d"])
    hand = Hand(seven_card_stud(ante=1, bring_in=2), [100, 100, stack], button=0, deck=deck)
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.bring_in == stack - 1 and legal.wager is None
    with pytest.raises(IllegalAction, match="bring-in takes every chip"):
        hand.act(Action.bet(stack - 1))
    hand.act(Action.bring_in())
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.to_call == 2 and legal.wager == (5, 5)


def test_a_short_stack_above_the_bring_in_may_still_complete_all_in() -> None:
    """Rules 002_376df91f076a6501.txt, 'Bring-in' and '"All in"': with 3 chips after the ante
    against a bring-in of 2 the player may pay the 2 or make his bet, all in for 3."""
    deck = _stud_deck(["As Ad Kc", "Qs Qd 9h", "2c 3c 4d"])
    hand = Hand(seven_card_stud(ante=1, bring_in=2), [100, 100, 4], button=0, deck=deck)
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.bring_in == 2 and legal.wager == (3, 3)


def test_stud_bad_definitions() -> None:
    base = seven_card_stud()
    with pytest.raises(ValueError, match="showing order"):
        GameDefinition(
            name="x", phases=base.phases, forced=base.forced, limit=base.limit,
            stakes=base.stakes, selection=base.selection,
        )  # fmt: skip
    with pytest.raises(ValueError, match="cannot be dealt fifth street, even with the burn cards"):
        Hand(base, [100] * 8, button=0, deck=list(range(40)))
    assert ActionKind.BRING_IN.value == "bring-in"
