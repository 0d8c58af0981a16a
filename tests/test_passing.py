"""Passing cards: Anaconda in both of the texts' forms (Rules 000_1a86611de8d3f5f7.txt,
'Anaconda ("Pass the trash")' and 'Anaconda is a variety of the card game Poker')."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from simulations.cards import Card, parse_cards
from simulations.engine.actions import Action, IllegalAction
from simulations.engine.deck_order import cards_needed
from simulations.engine.events import HoleDealt, Passed
from simulations.engine.gamefile import GameFileError, load_game_file
from simulations.engine.hand import Hand
from simulations.engine.phases import Bet, Deal, Pass, PassDirection
from simulations.engine.variants import variant
from tests.state import state_of


def _deck(hands: list[str]) -> list[int]:
    """A deck dealing ``hands`` (seat 1, 2, ..., 0: clockwise from the dealer's left, button
    on seat 0) one card at a time, then every other card."""
    parsed = [parse_cards(text) for text in hands]
    order: list[Card] = []
    for i in range(len(parsed[0])):
        order += [cards[i] for cards in parsed]
    return order + [c for c in range(52) if c not in order]


def _check_around(hand: Hand) -> None:
    while hand.legal_actions().choice is None:
        legal = hand.legal_actions()
        hand.act(Action.check() if legal.can_check else Action.call())


def test_passes_are_simultaneous_and_each_player_ends_with_what_he_was_passed() -> None:
    """Rules 000_1a86611de8d3f5f7.txt: 'No players get to see their new 3 cards until
    everyone has made a pass', and 'each player passing two cards to his right'."""
    deals = ["2c 3c 4c 5c 6c 7c 8c", "2d 3d 4d 5d 6d 7d 8d", "2h 3h 4h 5h 6h 7h 8h"]
    hand = Hand(variant("FANA").game(), [100] * 3, button=0, deck=_deck(deals))
    seats = [1, 2, 0]  # the deal order: dealt[i] went to seats[i]
    dealt = {seat: set(parse_cards(text)) for seat, text in zip(seats, deals, strict=True)}
    _check_around(hand)  # the first betting round
    first = {s: parse_cards(t)[:3] for s, t in zip(seats, deals, strict=True)}
    for seat in seats:
        assert hand.actor == seat
        before = state_of(hand.hole)
        hand.act(Action.pass_cards(first[seat]))
        if seat != seats[-1]:  # nothing moves until the last player has passed
            assert state_of(hand.hole) == before
            assert not any(isinstance(e, Passed) for e in hand.events)
    passes = [e for e in hand.events if isinstance(e, Passed)]
    assert [(e.seat, e.to, e.cards) for e in passes] == [
        (1, 2, tuple(first[1])),
        (2, 0, tuple(first[2])),
        (0, 1, tuple(first[0])),
    ]  # to the left: the next seat clockwise
    _check_around(hand)
    second = {s: tuple(hand.hole[s][:2]) for s in seats}
    for seat in seats:
        hand.act(Action.pass_cards(second[seat]))
    right = {1: 0, 2: 1, 0: 2}  # to the right: the seat before
    assert [(e.seat, e.to) for e in hand.events if isinstance(e, Passed)][3:] == [
        (s, right[s]) for s in seats
    ]
    # every hand: dealt, less what it passed, plus what it was passed
    expected = {s: set(dealt[s]) for s in seats}
    for event in (e for e in hand.events if isinstance(e, Passed)):
        expected[event.seat] -= set(event.cards)
        expected[event.to] |= set(event.cards)
    assert {s: set(hand.hole[s]) for s in seats} == expected
    assert all(len(hand.hole[s]) == 7 for s in seats)


def test_a_folded_player_is_out_of_the_passing() -> None:
    """Rules 000_1a86611de8d3f5f7.txt: 'If a player folds at anytime, then they are no
    longer involved in card passing.'"""
    game = variant("FANA321").game()
    hand = Hand(game, [100] * 4, button=0, rng=np.random.default_rng(5))
    hand.act(Action.bet(2))  # seat 1 opens, seat 2 folds, the others call
    hand.act(Action.fold())
    hand.act(Action.call())
    hand.act(Action.call())
    assert hand.legal_actions().choice is not None
    order = []
    while hand.legal_actions().choice is not None:
        order.append(hand.actor)
        choice = hand.legal_actions().choice
        assert choice is not None
        hand.act(choice.action(choice.cards[:3]))
    assert order == [1, 3, 0]
    passes = [(e.seat, e.to) for e in hand.events if isinstance(e, Passed)]
    assert passes == [(1, 3), (3, 0), (0, 1)]  # seat 2 folded: seat 1 passes past him
    assert len(hand.hole[2]) == 6


def test_bad_passes_are_refused_and_leave_the_hand_unchanged() -> None:
    hand = Hand(variant("FANA").game(), [100] * 3, button=0, rng=np.random.default_rng(2))
    with pytest.raises(IllegalAction, match="a betting turn, not a pass"):
        hand.act(Action.pass_cards(hand.hole[1][:3]))
    _check_around(hand)
    seat = hand.actor
    assert seat is not None
    mine, theirs = hand.hole[seat], hand.hole[(seat + 1) % 3]
    before = state_of(hand)
    for action, message in [
        (Action.pass_cards(mine[:2]), "names exactly 3 cards, got 2"),
        (Action.pass_cards(mine[:4]), "names exactly 3 cards, got 4"),
        (Action.pass_cards([*mine[:2], theirs[0]]), "not one of the player's cards"),
        (Action.pass_cards([mine[0], mine[0], mine[1]]), "named twice"),
        (Action.check(), "a pass is due"),
        (Action.draw(mine[:3]), "a pass is due"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            hand.act(action)
        assert state_of(hand) == before


def test_seven_players_of_seven_card_anaconda_use_49_cards() -> None:
    """Rules 000_1a86611de8d3f5f7.txt: 'Seven cards are dealt to each player'; the 3-2-1
    form's 'up to 8 people can play, passing out a total of 48 cards and having 4 left over.
    A 9th person can be added with the use of both Jokers'."""
    seven = variant("FANA").game()
    assert seven.max_players == 7 and cards_needed(seven, 7) == 49
    hand = Hand(seven, [100] * 7, button=0, rng=np.random.default_rng(1))
    assert sum(len(e.cards) for e in hand.events if isinstance(e, HoleDealt)) == 49
    assert cards_needed(variant("FANA321").game(), 8) == 48
    nine = variant("FANA321J").game()
    assert nine.max_players == 9 and nine.deck.jokers == 2
    hand = Hand(nine, [100] * 9, button=0, rng=np.random.default_rng(1))
    assert sum(len(e.cards) for e in hand.events if isinstance(e, HoleDealt)) == 54


@pytest.mark.parametrize(
    ("direction", "expected"),
    [
        (PassDirection.LEFT, {1: 3, 3: 4, 4: 0, 0: 1}),
        (PassDirection.RIGHT, {1: 0, 3: 1, 4: 3, 0: 4}),
        (PassDirection.ACROSS, {1: 4, 3: 0, 4: 1, 0: 3}),
    ],
)
def test_where_a_pass_goes(direction: PassDirection, expected: dict[int, int]) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Anaconda': 'passed to the player on their left',
    'passing two cards to his right'; seat 2 has folded and is skipped ('no longer involved
    in card passing'); across is half the live players round."""
    assert Pass("pass", 1, direction).receivers([1, 3, 4, 0]) == expected


def test_a_pass_of_more_cards_than_a_player_holds_down_is_refused(tmp_path: Path) -> None:
    """A game file asking for an impossible pass is refused naming the field."""
    base = variant("FANA").game()
    with pytest.raises(ValueError, match=r"phases\[1\]: pass passes 8 down cards but a player"):
        replace(base, phases=(Deal("deal", down=7), Pass("pass", 8), Bet()))
    with pytest.raises(ValueError, match=r"passes 2 down cards but a player holds 1"):
        replace(base, phases=(Deal("deal", down=1, up=4), Pass("pass", 2), Bet()))
    text = Path(variant("FANA").source).read_text().replace("count = 3", "count = 9")
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(GameFileError, match=r"phases.*9 down cards but a player holds 7"):
        load_game_file(path)
