"""Draft ('socialist poker'): seven-card stud whose second to fourth upcard rounds are dealt to
the centre, one card for each player still in, and taken from the worst hand showing to the
best (Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'The player with the worst showing
hand gets to choose which of them he will take for his next upcard'; simulations/engine/
centre_phases.py)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from simulations.cards import Card, parse_cards
from simulations.engine.actions import Action, ActionKind, IllegalAction
from simulations.engine.events import Awarded, CentreDealt, Drafted, HoleDealt, Shown
from simulations.engine.gamefile import GameFileError, parse_game_text
from simulations.engine.hand import Hand
from simulations.engine.history import describe_events, play_plainly
from simulations.engine.phases import Draft
from simulations.engine.variants import GAMES_FOLDER, variant
from simulations.evaluators.stud_showing import showing_high
from tests.random_play import random_action
from tests.state import state_of

FILE = Path(str(GAMES_FOLDER)) / "133-draft-fixed-limit.toml"


def _card(text: str) -> Card:
    return parse_cards(text)[0]


def _deck(cards: str) -> list[int]:
    order = list(parse_cards(cards))
    return order + [c for c in range(52) if c not in order]


def _bet_to_the_draft(hand: Hand) -> None:
    while not hand.finished and hand.legal_actions().choice is None:
        legal = hand.legal_actions()
        if legal.bring_in is not None:
            hand.act(Action.bring_in())
        else:
            hand.act(Action.check() if legal.can_check else Action.call())


# Two players, the button on seat 0: seat 1 is dealt first.  Seat 1: Kd 3c down, 5c up (the
# worst showing); seat 0: 9s 4h down, 9d up.  Burn; fourth street's centre 2h Ks; burn; fifth
# 7d 8c; burn; sixth Jc Tc; burn; seventh 6s, 6h.
HEADS_UP = "Kd 9s 3c 4h 5c 9d  2c 2h Ks  3d 7d 8c  3h Jc Tc  3s 6s 6h"


def test_the_worst_hand_showing_chooses_first() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Draft: 'The player with the worst showing
    hand gets to choose which of them he will take for his next upcard ... until the player who
    previously had the best showing hand takes the remaining card': seat 1's 5 chooses from the
    centre, seat 0's 9 is given the other."""
    hand = Hand(variant("F7S-DRAFT").game(), [100, 100], button=0, deck=_deck(HEADS_UP))
    _bet_to_the_draft(hand)
    assert isinstance(hand.game.phases[hand.phase], Draft)
    assert hand.centre == [_card("2h"), _card("Ks")]
    assert [e for e in hand.events if isinstance(e, CentreDealt)] == [
        CentreDealt("fourth street", (_card("2h"), _card("Ks")))
    ]
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.choice is not None
    assert legal.choice.kind is ActionKind.DRAFT and legal.choice.cards == tuple(hand.centre)
    assert (legal.choice.fewest, legal.choice.most) == (1, 1)
    hand.act(Action.draft(_card("Ks")))
    assert hand.events[-2:] == [Drafted(1, _card("Ks")), Drafted(0, _card("2h"))]
    assert hand.up == [[_card("9d"), _card("2h")], [_card("5c"), _card("Ks")]]
    assert hand.centre == [] and hand.upcards_dealt[-2:] == [_card("Ks"), _card("2h")]
    lines = describe_events(hand.events)
    assert "fourth street: 2h Ks face up in the centre" in lines
    assert "seat 1 takes Ks from the centre" in lines
    assert not hand.legal_actions().choice  # the betting round of fourth street


@pytest.mark.parametrize(
    ("action", "seat", "message"),
    [
        (Action.draft(_card("Ac")), None, r"Ac is not in the centre \(2h Ks\)"),
        (
            Action(ActionKind.DRAFT, cards=(_card("2h"), _card("Ks"))),
            None,
            "one card from the centre, got 2",
        ),
        (Action(ActionKind.DRAFT), None, "one card from the centre, got 0"),
        (Action.check(), None, "a draft is due"),
        (Action.draft(_card("Ks")), 0, "seat 0 acted out of turn: seat 1 is to act"),
    ],
)
def test_an_illegal_choice_is_refused_and_changes_nothing(
    action: Action, seat: int | None, message: str
) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Draft: 'gets to choose which of them he will
    take for his next upcard'. A card not in the centre, two cards or none, a betting action, or the
    best hand showing choosing before the worst: refused, the hand as it was."""
    hand = Hand(variant("F7S-DRAFT").game(), [100, 100], button=0, deck=_deck(HEADS_UP))
    _bet_to_the_draft(hand)
    before = state_of(hand)
    with pytest.raises(IllegalAction, match=message):
        hand.act(action, seat=seat)
    assert state_of(hand) == before


def _play_heads_up(fourth: str) -> Hand:
    """Seat 1 takes ``fourth`` on fourth street; later, whoever chooses takes the higher
    card; everyone checks and calls."""
    hand = Hand(variant("F7S-DRAFT").game(), [100, 100], button=0, deck=_deck(HEADS_UP))
    first = True
    while not hand.finished:
        legal = hand.legal_actions()
        if legal.choice is not None:
            cards = legal.choice.cards
            pick = _card(fourth) if first else max(cards, key=lambda c: c >> 2)
            first = False
            hand.act(Action.draft(pick))
        elif legal.bring_in is not None:
            hand.act(Action.bring_in())
        else:
            hand.act(Action.check() if legal.can_check else Action.call())
    return hand


def test_the_choice_decides_the_pot() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Draft: 'gets to choose which of them he will
    take for his next upcard'. Taking the Ks pairs seat 1's king in the hole and wins; leaving it
    gives seat 0 the king, then the choosing first on fifth and sixth street passes to seat 1 (now
    the worse hand showing), and seat 0's nines win."""
    took = _play_heads_up("Ks")
    order = [e.seat for e in took.events if isinstance(e, Drafted)]
    assert order == [1, 0, 0, 1, 0, 1]  # the worse hand showing first on each street
    assert {e.seat: e.hand for e in took.events if isinstance(e, Shown)} == {
        1: "Pair of Kings",
        0: "Pair of Nines",
    }
    assert {e.seat for e in took.events if isinstance(e, Awarded)} == {1}
    left = _play_heads_up("2h")
    assert [e.seat for e in left.events if isinstance(e, Drafted)] == [1, 0, 1, 0, 1, 0]
    assert {e.seat: e.hand for e in left.events if isinstance(e, Shown)} == {
        1: "King-high",
        0: "Pair of Nines",
    }
    assert {e.seat for e in left.events if isinstance(e, Awarded)} == {0}


# Three players, the button on seat 0: seats 1, 2, 0.  Seat 1 shows Kh, seats 2 and 0 a nine
# each (9c, 9d): equal hands, the first from the dealer's left (seat 2) counts as the better.
TIED = "2c 3c 4c  2d 3d 4d  Kh 9c 9d  5s  Ah As Ad"


def test_equal_hands_showing_choose_in_the_order_of_betting_reversed() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Draft: 'The player with the worst showing
    hand gets to choose'. Where the texts are silent: equal hands showing rank as the order of
    betting ranks them (the first from the dealer's left is the better), so of seats 2 and 0, both
    showing a nine, seat 0 chooses first, then seat 2; seat 1's king last."""
    hand = Hand(variant("F7S-DRAFT").game(), [100] * 3, button=0, deck=_deck(TIED))
    _bet_to_the_draft(hand)
    assert hand.actor == 0
    hand.act(Action.draft(_card("As")))
    assert hand.actor == 2
    hand.act(Action.draft(_card("Ad")))
    assert [(e.seat, e.card) for e in hand.events if isinstance(e, Drafted)] == [
        (0, _card("As")),
        (2, _card("Ad")),
        (1, _card("Ah")),
    ]


def _worst_first(up: list[list[Card]], live: list[int]) -> list[int]:
    """The order of choosing, worked out anew: the showing hands by the stud evaluator, the
    worst first; of equal hands, the later from the dealer's left first."""
    ranked = sorted(enumerate(live), key=lambda item: (showing_high(up[item[1]]).value, -item[0]))
    return [seat for _, seat in ranked]


@pytest.mark.parametrize("players", [3, 5, 8])
def test_every_card_chosen_came_from_the_centre_in_the_order_of_the_hands_showing(
    players: int,
) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Draft: 'one upcard is dealt to the center of
    the table (not to any specific player)'. Random play: on each of the three draft streets ('this
    makes for three "draft" rounds'), one card goes to the centre for each player still in, each
    player takes one of them in turn from the worst hand showing to the best, and every card is
    taken; the first three cards and the last downcard are dealt as usual."""
    game = variant("F7S-DRAFT").game()
    for seed in range(40):
        chooser = random.Random(seed)
        hand = Hand(game, [200] * players, button=seed % players, rng=np.random.default_rng(seed))
        up: list[list[Card]] = [[] for _ in range(players)]
        streets: list[str] = []
        centre: list[Card] = []
        order: list[int] = []
        index = 0
        while True:
            events = hand.events[index:]
            index = len(hand.events)
            for event in events:
                if isinstance(event, CentreDealt):
                    assert not centre and not order, (seed, "a card left in the centre")
                    live = [
                        (hand.button + 1 + k) % players
                        for k in range(players)
                        if not hand.folded[(hand.button + 1 + k) % players]
                    ]
                    assert len(event.cards) == len(live)
                    centre, order = list(event.cards), _worst_first(up, live)
                    streets.append(event.street)
                elif isinstance(event, Drafted):
                    assert event.seat == order.pop(0), seed
                    centre.remove(event.card)
                    up[event.seat].append(event.card)
                elif isinstance(event, HoleDealt) and event.face_up:
                    assert event.cards[0] not in centre
                    up[event.seat].extend(event.cards)
            assert up == hand.up, seed
            if hand.finished:
                break
            hand.act(random_action(hand, chooser) if seed % 2 else _call(hand))
        assert not centre and not order
        assert streets == ["fourth street", "fifth street", "sixth street"][: len(streets)]
        if seed % 2 == 0:  # nobody folds
            assert len(streets) == 3  # eight players share a community card on seventh
            assert all(len(h) + len(hand.board) == 7 for h in hand.hole)


def _call(hand: Hand) -> Action:
    legal = hand.legal_actions()
    if legal.choice is not None:
        return Action.draft(legal.choice.cards[-1])
    if legal.bring_in is not None:
        return Action.bring_in()
    return Action.check() if legal.can_check else Action.call()


def test_plain_play_drafts() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Draft: 'In seven-card stud, this makes for
    three "draft" rounds'. The plain policy takes the first card in the centre; with eight players
    staying, each takes three, and seventh street runs out of cards as in F7S."""
    hand = play_plainly(Hand(variant("F7S-DRAFT").game(), [100] * 8, button=2, deck=_deck(TIED)))
    drafted = [e.seat for e in hand.events if isinstance(e, Drafted)]
    assert sorted(drafted) == sorted(list(range(8)) * 3)
    assert all(len(up) == 4 for up in hand.up)


# --- bad input -----------------------------------------------------------------------------------

TEXT = FILE.read_text()


@pytest.mark.parametrize(
    ("old", "new", "field", "message"),
    [
        ('acting_order = "high-showing"', 'acting_order = "position"', "phases[2]", "showing"),
        (
            '{ deal = "seventh street", down = 1, burn = true }',
            '{ draft = "seventh street", burn = true }',
            "phases[8]",
            "not the hand's last deal",
        ),
        (
            '{ draft = "fourth street", burn = true }',
            '{ draft = "fourth street", up = 2 }',
            "phases[2].up",
            "not a known setting",
        ),
        (
            '{ draft = "fourth street", burn = true }',
            '{ draft = "fourth street", burn = "yes" }',
            "phases[2].burn",
            "true or false",
        ),
        (
            '{ deal = "third street", down = 2, up = 1 },\n  "bet",\n  { draft',
            '{ draft = "third street" },\n  "bet",\n  { deal = "third and a half", down = 2 },\n'
            "  { draft",
            "phases[0]",
            "upcards showing before it",
        ),
    ],
)
def test_bad_draft_files_name_the_field(old: str, new: str, field: str, message: str) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Draft: 'the second and subsequent upcard
    rounds'. A draft reads the hands showing (a showing order, upcards before it) and is never the
    last deal; it takes no other keys than burn."""
    assert old in TEXT
    with pytest.raises(GameFileError) as caught:
        parse_game_text(TEXT.replace(old, new), "draft.toml")
    assert caught.value.field == field, caught.value
    assert message in str(caught.value), caught.value
