"""Buttons between hands: the rule texts' Alice-Ellen cases for each rule, and hands played
with the blinds where the rules put them."""

from __future__ import annotations

import numpy as np
import pytest

from simulations.engine.buttons import (
    ButtonRule,
    HandSeating,
    Positions,
    hand_seating,
    next_positions,
)
from simulations.engine.forced import BlindSeats
from simulations.engine.hand import Action, Hand
from simulations.engine.limits import Limit
from tests.factories import holdem

ALICE, BOB, CAROL, DAVID, ELLEN, FRANK = range(6)


def _occupied(n: int, *gone: int) -> list[bool]:
    return [seat not in gone for seat in range(n)]


# Carol is due the big blind: last hand the seat before Alice had the button, Alice the small
# blind and Bob the big one.  A sixth player sits after Ellen, as in the moving button example,
# so that case 4 is not yet heads-up.
DEAD_LAST = Positions(FRANK, (ALICE,), (BOB,))


@pytest.mark.parametrize(
    ("gone", "expected", "following"),
    [
        ((ALICE,), Positions(ALICE, (BOB,), (CAROL,)), None),
        ((BOB,), Positions(ALICE, (), (CAROL,)), Positions(BOB, (CAROL,), (DAVID,))),
        ((ALICE, BOB), Positions(ALICE, (), (CAROL,)), Positions(BOB, (CAROL,), (DAVID,))),
        ((ALICE, BOB, CAROL), Positions(BOB, (), (DAVID,)), Positions(CAROL, (DAVID,), (ELLEN,))),
    ],
    ids=["case 1", "case 2", "case 3", "case 4"],
)
def test_dead_button_rule(
    gone: tuple[int, ...], expected: Positions, following: Positions | None
) -> None:
    """Rules 002_376df91f076a6501.txt, 'Dead button rule': Alice, Bob, Carol, David and Ellen
    in order, Carol due the big blind; cases 1-4 and the subsequent hands."""
    occupied = _occupied(6, *gone)
    positions = next_positions(ButtonRule.DEAD, DEAD_LAST, occupied)
    assert positions == expected
    if following is not None:
        assert next_positions(ButtonRule.DEAD, positions, occupied) == following


# Alice is due the button: last hand Frank had it, Alice the small blind, Bob the big one.
MOVING_LAST = Positions(FRANK, (ALICE,), (BOB,))


@pytest.mark.parametrize(
    ("gone", "expected", "following"),
    [
        (
            (ALICE,),
            Positions(BOB, (BOB,), (CAROL, DAVID)),
            Positions(CAROL, (CAROL, DAVID), (ELLEN,)),
        ),
        (
            (BOB,),
            Positions(ALICE, (), (CAROL, DAVID)),
            Positions(CAROL, (CAROL, DAVID), (ELLEN,)),
        ),
        (
            (ALICE, BOB),
            Positions(CAROL, (), (CAROL, DAVID, ELLEN)),
            Positions(DAVID, (CAROL, DAVID, ELLEN), (FRANK,)),
        ),
    ],
    ids=["Alice out", "Bob out", "Alice and Bob out"],
)
def test_moving_button_rule(
    gone: tuple[int, ...], expected: Positions, following: Positions
) -> None:
    """Rules 002_376df91f076a6501.txt, 'Moving button rule': Bob posts a small blind on top of
    the button, Carol and David both post big blinds, and the cases after (a sixth player
    sits after Ellen: 'The player after Ellen posts the big blind')."""
    occupied = _occupied(6, *gone)
    positions = next_positions(ButtonRule.MOVING, MOVING_LAST, occupied)
    assert positions == expected
    assert next_positions(ButtonRule.MOVING, positions, occupied) == following


def test_simplified_moving_button_rule() -> None:
    """Rules 002_376df91f076a6501.txt, 'Simplified moving button rule': the button moves to the
    next player and the blinds post in the two seats to its left."""
    occupied = _occupied(6, BOB)
    positions = next_positions(ButtonRule.SIMPLIFIED_MOVING, DEAD_LAST, occupied)
    assert positions == Positions(ALICE, (CAROL,), (DAVID,))


@pytest.mark.parametrize("rule", list(ButtonRule))
def test_heads_up_transition(rule: ButtonRule) -> None:
    """Rules 002_376df91f076a6501.txt, 'When there are only two players': three-handed, Alice
    has the button, Bob the small blind, Carol the big blind.  If Alice busts, Bob is the big
    blind and the button skips to Carol; if Carol busts, Alice is the big blind and Bob has
    the button and pays the small blind again."""
    last = Positions(ALICE, (BOB,), (CAROL,))
    assert next_positions(rule, last, _occupied(3, ALICE)) == Positions(CAROL, (CAROL,), (BOB,))
    assert next_positions(rule, last, _occupied(3, CAROL)) == Positions(BOB, (BOB,), (ALICE,))


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="two players"):
        next_positions(ButtonRule.DEAD, DEAD_LAST, _occupied(3, 0, 1))
    with pytest.raises(ValueError, match="no big blind"):
        next_positions(ButtonRule.DEAD, Positions(0, (), ()), _occupied(3))


def _seated_hand(positions: Positions, occupied: list[bool]) -> tuple[Hand, HandSeating]:
    seating = hand_seating(positions, occupied)
    blinds = BlindSeats(seating.small_blinds, seating.big_blinds)
    game = holdem(Limit.NO, blinds=(1, 2))
    stacks = [100] * len(seating.table_seats)
    rng = np.random.default_rng(5)
    return Hand(game, stacks, seating.button, rng=rng, blind_seats=blinds), seating


def test_moving_button_blinds_in_play() -> None:
    """Rules 002_376df91f076a6501.txt, 'Moving button rule': Alice out, Bob posts a small blind
    on top of the button and Carol and David both post big blinds; Ellen acts first, and
    both big blinds keep their option."""
    occupied = _occupied(6, ALICE)
    positions = next_positions(ButtonRule.MOVING, MOVING_LAST, occupied)
    hand, seating = _seated_hand(positions, occupied)
    table = seating.table_seats
    assert {table[s]: c for s, c in enumerate(hand.contributed) if c} == {
        BOB: 1,
        CAROL: 2,
        DAVID: 2,
    }
    order = []
    while hand.street == 0:
        legal = hand.legal_actions()
        order.append(table[legal.seat])
        hand.act(Action.check() if legal.can_check else Action.call())
    assert order == [ELLEN, FRANK, BOB, CAROL, DAVID]
    assert hand.pot_total == 10


def test_dead_button_hand_without_a_small_blind() -> None:
    """Rules 002_376df91f076a6501.txt, 'Dead button rule', case 3: Alice and Bob out, Carol due
    the big blind; the button stays dead on Alice's seat and there is no small blind.  Cards
    and action start after the dead button: Carol first after the flop, David before it."""
    occupied = _occupied(6, ALICE, BOB)
    positions = next_positions(ButtonRule.DEAD, DEAD_LAST, occupied)
    hand, seating = _seated_hand(positions, occupied)
    table = seating.table_seats
    assert table[seating.button] == FRANK  # the player before the dead button deals for it
    assert [table[s] for s, c in enumerate(hand.contributed) if c] == [CAROL]
    assert table[hand.legal_actions().seat] == DAVID
    while hand.street == 0:
        legal = hand.legal_actions()
        hand.act(Action.check() if legal.can_check else Action.call())
    assert table[hand.legal_actions().seat] == CAROL


def test_bad_blind_seats() -> None:
    with pytest.raises(ValueError, match="one blind at most"):
        BlindSeats((1,), (1,))
    with pytest.raises(ValueError, match="at least one big blind"):
        BlindSeats((1,), ())
    with pytest.raises(ValueError, match="is empty"):
        hand_seating(Positions(0, (1,), (2,)), _occupied(3, 2))
    game = holdem(Limit.NO, blinds=(1, 2))
    with pytest.raises(ValueError, match="not a seat"):
        Hand(game, [10] * 3, 0, rng=np.random.default_rng(1), blind_seats=BlindSeats((), (5,)))


def test_moving_button_big_blind_on_the_button_acts_last_of_the_blinds() -> None:
    """Rules 002_376df91f076a6501.txt, 'Moving button rule': Alice and Bob out, 'Carol has the
    button. Carol, David, and Ellen all post big blinds.' The big blind is Ellen's, two seats
    after the button ('The player two seats after the button posts a big blind, as well as
    any players the big blind skipped past'): Frank acts first, then Carol on the button,
    David, and Ellen last."""
    occupied = _occupied(6, ALICE, BOB)
    positions = next_positions(ButtonRule.MOVING, MOVING_LAST, occupied)
    hand, seating = _seated_hand(positions, occupied)
    table = seating.table_seats
    assert table[seating.button] == CAROL
    order = []
    while hand.street == 0:
        legal = hand.legal_actions()
        order.append(table[legal.seat])
        hand.act(Action.check() if legal.can_check else Action.call())
    assert order == [FRANK, CAROL, DAVID, ELLEN]
    assert hand.pot_total == 8
