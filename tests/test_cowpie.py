"""Cowpie: seven-card stud whose players split their cards into a five-card hand and a
two-card hand after the seventh-street bet, the best of each taking half the pot (Rules
000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'Cowpie poker is played as seven-card stud until
after the seventh-street bet'; simulations/engine/split_hands.py, card_phases.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from simulations.cards import Card, parse_cards
from simulations.engine.actions import Action, ActionKind, IllegalAction
from simulations.engine.events import Awarded, HandSplit, Shown
from simulations.engine.gamefile import GameFileError, parse_game_text
from simulations.engine.hand import Hand
from simulations.engine.history import describe_events, play_plainly
from simulations.engine.phases import Split
from simulations.engine.split_hands import check_split, outranks, two_card_hands
from simulations.engine.variants import GAMES_FOLDER, variant
from tests.state import state_of

FILE = Path(str(GAMES_FOLDER)) / "132-cowpie-fixed-limit.toml"


def _cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def _deck(cards: str) -> list[int]:
    order = list(parse_cards(cards))
    return order + [c for c in range(52) if c not in order]


# Three players, the button on seat 0: the cards go to seats 1, 2, 0.  Seat 1: Ah Ad down,
# 7c 7d 7h 2s up, 3c down.  Seat 0: Qs Qh down, Kd 4s 8c 9d up, Jc down.  Seat 2 folds on
# third street (after the antes: the pot is odd).  A burn before each later street.
DEAL = "Ah 4h Qs  Ad 5h Qh  7c Tc Kd  2d 7d 4s  2h 7h 8c  3d 2s 9d  3h 3c Jc"


def _to_the_split(*, fold_seat_2: bool = True) -> Hand:
    """The bring-in paid (seat 1's 7c), seat 2 folding, then checks and calls to the split."""
    hand = Hand(variant("F7S-COW").game(), [100, 100, 100], button=0, deck=_deck(DEAL))
    while True:
        legal = hand.legal_actions()
        if legal.choice is not None:
            return hand
        if legal.bring_in is not None:
            hand.act(Action.bring_in())
        elif legal.seat == 2 and fold_seat_2 and legal.can_fold:
            hand.act(Action.fold())
        else:
            hand.act(Action.check() if legal.can_check else Action.call())


def _check_down(hand: Hand) -> None:
    while not hand.finished:
        legal = hand.legal_actions()
        hand.act(Action.check() if legal.can_check else Action.call())


def test_the_split_comes_after_the_seventh_street_bet_and_is_listed() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Cowpie: 'All remaining players then split
    their hands into a five-card hand and a two-card hand': each player still in, from the dealer's
    left, is offered his seven cards and the two-card hands he may split off — each holding a down
    card, the five outranking it."""
    hand = _to_the_split()
    assert isinstance(hand.game.phases[hand.phase], Split)
    assert hand.phase == len(hand.game.phases) - 2  # the last betting round follows
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.choice is not None
    choice = legal.choice
    assert choice.kind is ActionKind.SPLIT and (choice.fewest, choice.most) == (2, 2)
    assert choice.cards == tuple(hand.hole[1])
    down = set(_cards("Ah Ad 3c"))
    assert choice.options and all(set(two) & down for two in choice.options)
    assert set(_cards("Ah Ad")) in [set(two) for two in choice.options]
    assert not legal.can_check and not legal.can_fold
    assert set(map(frozenset, choice.options)) == {
        frozenset(two) for two in two_card_hands(hand.hole[1], hand.up[1])
    }


@pytest.mark.parametrize(
    ("seat_1", "message"),
    [
        (Action.split(_cards("7c 7d")), "at least one down card: 7c 7d are up"),
        (Action.split(_cards("Ah")), "names the two cards of the two-card hand, got 1"),
        (Action.split(_cards("Ah Ad 3c")), "got 3"),
        (Action.split(_cards("Ah") * 2), "a card is named twice"),
        (Action.split(_cards("Ah Qs")), "Qs is not one of the player's cards"),
        (Action.check(), "a split is due"),
        (Action.discard(_cards("Ah Ad")), "a split is due"),
    ],
)
def test_an_illegal_split_is_refused_and_changes_nothing(seat_1: Action, message: str) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Cowpie: 'the latter must contain at least
    one downcard': a two-card hand of upcards alone, or of the wrong number of cards, or of cards
    not his, is refused and the hand is as it was."""
    hand = _to_the_split()
    before = state_of(hand)
    with pytest.raises(IllegalAction, match=message):
        hand.act(seat_1)
    assert state_of(hand) == before


def test_the_five_must_outrank_the_two() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Cowpie: 'The five-card hand must outrank the
    two-card hand': seat 0's queens in the hole would leave him K-J-9-8-4, lower than the pair —
    refused, and so is K-Q, which would leave Q-J-9-8-4; Q-J is legal. Nothing changes on a refusal.
    """
    hand = _to_the_split()
    hand.act(Action.split(_cards("Ah Ad")))  # seat 1
    assert hand.actor == 0
    before = state_of(hand)
    with pytest.raises(IllegalAction, match="must outrank the two-card hand: King-high"):
        hand.act(Action.split(_cards("Qs Qh")))
    with pytest.raises(IllegalAction, match=r"Queen-high .* does not beat King-high"):
        hand.act(Action.split(_cards("Qs Kd")))
    assert state_of(hand) == before
    options = {frozenset(two) for two in hand.legal_actions().choice.options}  # type: ignore[union-attr]
    assert frozenset(_cards("Qs Jc")) in options
    assert frozenset(_cards("Qs Qh")) not in options and frozenset(_cards("Qs Kd")) not in options


def test_the_split_is_made_all_at_once() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Cowpie. The split is simultaneous (the
    text's 'All remaining players then split their hands', as Pai Gow's hands are set face down): no
    split is shown until every player has made his, then all of them, from the dealer's left."""
    hand = _to_the_split()
    hand.act(Action.split(_cards("Ah Ad")))
    assert not any(isinstance(e, HandSplit) for e in hand.events)
    assert hand.split_two == {}
    hand.act(Action.split(_cards("Qs Jc")), seat=0)
    splits = [e for e in hand.events if isinstance(e, HandSplit)]
    assert splits == [
        HandSplit(1, _cards("7c 7d 7h 2s 3c"), _cards("Ah Ad")),
        HandSplit(0, _cards("Qh Kd 4s 8c 9d"), _cards("Qs Jc")),
    ]
    assert hand.split_two == {1: _cards("Ah Ad"), 0: _cards("Qs Jc")}
    legal = hand.legal_actions()  # one more betting round
    assert legal.choice is None and legal.can_check
    assert "seat 1 splits his cards: 7c 7d 7h 2s 3c and Ah Ad, face down" in describe_events(
        hand.events
    )


def test_the_aces_in_the_two_card_hand_scoop() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Cowpie: 'Upon showdown, the highest
    five-card hand and the highest two-card hand split the pot': seat 1's three sevens beat seat 0's
    king-high and his aces beat the Q-J, so he takes both halves — the whole pot."""
    hand = _to_the_split()
    hand.act(Action.split(_cards("Ah Ad")))
    hand.act(Action.split(_cards("Qs Jc")))
    _check_down(hand)
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    assert shown == {1: "Three Sevens / Pair of Aces (A-A)", 0: "King-high / Queen-high (Q-J)"}
    awards = [(e.seat, e.amount) for e in hand.events if isinstance(e, Awarded)]
    assert sum(a for _, a in awards) == 7 and {s for s, _ in awards} == {1}
    assert hand.payoffs == (-3, 4, -1)


def test_the_full_house_and_the_queen_jack_split_the_pot() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Cowpie: 'the highest five-card hand and the
    highest two-card hand split the pot'. Kept whole, seat 1's sevens full of aces take the
    five-card half and seat 0's Q-J beats his 3-2 for the two-card half: the pot of 7 (three antes,
    the bring-in of 2 and its call) is split 4 and 3, the odd chip to the five-card hand, as to the
    high half of a split."""
    hand = _to_the_split()
    hand.act(Action.split(_cards("2s 3c")))
    hand.act(Action.split(_cards("Qs Jc")))
    _check_down(hand)
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    assert shown[1] == "Sevens full of Aces / Three-high (3-2)"
    awards = {e.seat: e.amount for e in hand.events if isinstance(e, Awarded)}
    assert awards == {1: 4, 0: 3}
    assert hand.payoffs == (0, 1, -1) and sum(hand.stacks) == 300


def test_plain_play_splits_legally() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Cowpie: 'split their hands into a five-card
    hand and a two-card hand'. The plain policy splits off the first legal two-card hand, and the
    hand is shown down in both halves."""
    hand = play_plainly(Hand(variant("F7S-COW").game(), [100] * 7, button=3, deck=_deck(DEAL)))
    splits = [e for e in hand.events if isinstance(e, HandSplit)]
    assert len(splits) == 7
    for event in splits:
        hole = list(event.five) + list(event.two)
        up = hand.up[event.seat]
        check_split(hole, up, Action.split(event.two))  # legal
    assert all(" / " in e.hand for e in hand.events if isinstance(e, Shown))


# --- the rules of the split ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("five", "two", "outranked"),
    [
        ("Ah Kd 9c 5s 3h", "As Kc", True),  # A-K-9-5-3 has more to show than A-K
        ("7h 7d Kc 5s 3h", "7s 7c", True),  # the pair with kickers over the pair
        ("Kh Jd 9c 8s 4h", "Qs Qc", False),  # a pair over any high card
        ("4h 4d Kc 8s 9h", "Qs Qc", False),  # the higher pair
        ("Kh Kd 4c 8s 9h", "Qs Qc", True),
        ("Qh Jd 9c 8s 4h", "Ks Qc", False),  # rank by rank: K over Q
        ("5h 4d 3c 2s Ah", "As Ad", True),  # a straight over any pair
    ],
)
def test_what_outranks(five: str, two: str, outranked: bool) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Cowpie: 'The five-card hand must outrank the
    two-card hand', compared as Pai Gow compares them: by category, then rank by rank, the five-card
    hand higher where the two's ranks run out."""
    assert outranks(_cards(five), _cards(two)) is outranked


def test_a_legal_split_always_exists() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Cowpie: 'The five-card hand must outrank the
    two-card hand, and the latter must contain at least one downcard'. Random seven cards, any three
    of them down: there is always a legal split, and the listing holds exactly the splits
    check_split accepts."""
    chooser = random.Random(5)
    for _ in range(400):
        hole = [Card(c) for c in chooser.sample(range(52), 7)]
        down = chooser.sample(range(7), 3)
        up = [hole[i] for i in range(7) if i not in down]
        listed = two_card_hands(hole, up)
        assert listed
        for i in range(7):
            for j in range(i + 1, 7):
                two = (hole[i], hole[j])
                try:
                    check_split(hole, up, Action.split(two))
                    legal = True
                except IllegalAction:
                    legal = False
                assert legal == (two in listed)


# --- bad input -----------------------------------------------------------------------------------

TEXT = FILE.read_text()
SEVENTH = '  { deal = "seventh street", down = 1, burn = true },'


@pytest.mark.parametrize(
    ("old", "new", "field", "message"),
    [
        (
            '{ ranking = "two-card" }',
            '{ ranking = "ace-to-five low" }',
            "phases[10]",
            "two-card half",
        ),
        ('  { split = "split" },\n', "", "showdown", "add a split phase"),
        (
            '[{ ranking = "high" }, { ranking = "two-card" }]',
            '[{ ranking = "two-card" }, { ranking = "high" }]',
            "showdown.halves",
            "a two-card hand",
        ),
        (
            '[{ ranking = "high" }, { ranking = "two-card" }]',
            '[{ ranking = "two-card" }]',
            "showdown.halves[0].ranking",
            "second half",
        ),
        (
            SEVENTH + '\n  "bet",\n  { split = "split" },',
            '  { split = "split" },\n  "bet",\n' + SEVENTH,
            "phases[8]",
            "after the last deal, of seven cards",
        ),
        ("players = [2, 7]", "players = [2, 8]", "players", "a split is of each player's own"),
        (
            '{ split = "split" }',
            '{ split = "split", count = 3 }',
            "phases[10].count",
            "not a known",
        ),
        (
            '{ ranking = "high" }, { ranking = "two-card" }',
            '{ ranking = "high", wild_ranks = "2" }, { ranking = "two-card" }',
            "phases[10]",
            "standard high hand",
        ),
    ],
)
def test_bad_cowpie_files_name_the_field(old: str, new: str, field: str, message: str) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Cowpie: 'All remaining players then split
    their hands'. A split needs a showdown of a high half and a two-card half, and each the other;
    it comes after the last deal, of each player's own seven cards."""
    assert old in TEXT
    with pytest.raises(GameFileError) as caught:
        parse_game_text(TEXT.replace(old, new), "cowpie.toml")
    assert caught.value.field == field, caught.value
    assert message in str(caught.value), caught.value
