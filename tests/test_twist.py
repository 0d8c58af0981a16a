"""Twist rounds: a card bought from the stub in place of one's own, up for up and down for
down, the price paid into the pot; the Tittle buys again (Rules 000_1a86611de8d3f5f7.txt,
'General variations' and 'Miscellaneous'; Rules 002_376df91f076a6501.txt, 'A twist round';
simulations/engine/card_phases.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simulations.cards import Card, parse_cards
from simulations.engine.actions import Action, ActionKind, IllegalAction
from simulations.engine.events import Awarded, Discarded, HoleDealt, Shown, Twisted
from simulations.engine.gamefile import GameFileError, parse_game_text
from simulations.engine.hand import Hand
from simulations.engine.history import describe_events, play_plainly
from simulations.engine.phases import Twist
from simulations.engine.variants import GAMES_FOLDER, variant
from tests.state import state_of

GAMES = Path(str(GAMES_FOLDER))


def _deck(cards: str) -> list[int]:
    order = list(parse_cards(cards))
    return order + [c for c in range(52) if c not in order]


def _card(text: str) -> Card:
    return parse_cards(text)[0]


def _bet_to_the_twist(hand: Hand) -> None:
    """Check or call (the bring-in paid) until a twist is offered."""
    while not hand.finished:
        legal = hand.legal_actions()
        if legal.choice is not None:
            return
        if legal.bring_in is not None:
            hand.act(Action.bring_in())
        else:
            hand.act(Action.check() if legal.can_check else Action.call())


def _check_down(hand: Hand) -> None:
    while not hand.finished:
        legal = hand.legal_actions()
        hand.act(Action.check() if legal.can_check else Action.call())


# Six-card option, two players, the button on seat 0: cards go to seat 1, then seat 0.
# Seat 1 holds a pair of aces, seat 0 a pair of kings; the stub's next card is the Kd.
SIX_CARD = (
    "Ah Ks  Ad Kh  2d  2c 3c  2h  7d 8d  2s  9s Ts  3d  Kc 4h  Kd"
    # second street (down, then up), burn, third, burn, fourth, burn, fifth, burn, sixth
)


def test_a_twist_bought_decides_the_pot() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'six-card stud played 1-4-1 with a
    twist (also called six-card option)'; Rules 002_376df91f076a6501.txt: 'A twist round in
    which players can buy another card from the deck'.  Seat 0's kings lose to seat 1's aces
    until he gives up his 3c for the stub's Kd, dealt up in its place: three kings win."""
    hand = Hand(variant("F6S-OPT").game(), [100, 100], button=0, deck=_deck(SIX_CARD))
    _bet_to_the_twist(hand)
    assert isinstance(hand.game.phases[hand.phase], Twist)
    assert hand.actor == 1  # from the dealer's left
    legal = hand.legal_actions()
    assert legal.choice is not None and legal.choice.kind is ActionKind.TWIST
    assert (legal.choice.fewest, legal.choice.most, legal.choice.price) == (0, 1, 5)
    assert sorted(legal.choice.cards) == sorted(hand.hole[1])  # any of his cards
    hand.act(Action.twist())  # seat 1 buys none
    pot, stack = hand.pot_total, hand.stacks[0]
    hand.act(Action.twist(_card("3c")))
    assert hand.pot_total == pot + 5 and hand.stacks[0] == stack - 5 and hand.dead[0] == 5
    assert _card("Kd") in hand.up[0] and _card("3c") not in hand.hole[0]
    twist = hand.events[-4:]
    assert twist[1:] == [
        Twisted(0, True, 5, False),
        Discarded(0, (_card("3c"),)),
        HoleDealt(0, (_card("Kd"),), True),
    ]
    assert twist[0] == Twisted(1, False, 0, False)
    _check_down(hand)
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    assert shown[0] == "Three Kings" and shown[1] == "Pair of Aces"
    assert {e.seat for e in hand.events if isinstance(e, Awarded)} == {0}
    assert sum(hand.stacks) == 200
    assert hand.payoffs[1] == -sum(hand.contributed[1:2])  # seat 1 lost all he put in


# Option alley, three players, the button on seat 0: cards go to seats 1, 2, 0.
# second street (down, then up), burn, third, burn, fourth, burn, fifth; then the stub
OPTION = "Ah Kd Qc  9h Ts Jd  2c  5h 6s 7d  2d  8c 8h 4s  2h  Tc Js Qd  As Ac"


def test_up_for_up_and_down_for_down_and_the_price_into_the_pot() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'Five-card stud played high-low split
    with an added twist round is called Option alley or five-card option'.  Seat 1 gives up
    his upcard 9h and is dealt the As up; seat 2 gives up his hole card Kd and is dealt the
    Ac down; each pays the price, 5, into the pot as dead money (not a bet: the round after
    opens at nothing to call)."""
    hand = Hand(variant("F5S-OPT/8").game(), [100] * 3, button=0, deck=_deck(OPTION))
    _bet_to_the_twist(hand)
    before = hand.pot_total
    hand.act(Action.twist(_card("9h")))
    hand.act(Action.twist(_card("Kd")))
    hand.act(Action.twist())  # seat 0
    assert hand.pot_total == before + 10 and hand.dead == [0, 5, 5]
    assert _card("As") in hand.up[1] and _card("9h") not in hand.hole[1]
    assert _card("Ac") in hand.hole[2] and _card("Ac") not in hand.up[2]
    assert len(hand.up[1]) == len(hand.up[2]) == 4 and all(len(h) == 5 for h in hand.hole)
    dealt = [(e.seat, e.cards, e.face_up) for e in hand.events if isinstance(e, HoleDealt)]
    assert dealt[-2:] == [(1, (_card("As"),), True), (2, (_card("Ac"),), False)]
    legal = hand.legal_actions()  # the betting round after the twist
    assert legal.choice is None and legal.can_check
    _check_down(hand)
    assert sum(hand.stacks) == 300
    assert sum(e.amount for e in hand.events if isinstance(e, Awarded)) == sum(hand.contributed)
    lines = describe_events(hand.events)
    assert "seat 1 pays 5 for a twist" in lines and "seat 0 buys no card" in lines


def test_one_twist_a_player_unless_the_tittle() -> None:
    """Rules 002_376df91f076a6501.txt: 'If a player does not like the purchased card, the
    player can purchase another one by adding money to the pot. This is sometimes called a
    "Tittle."'  Without it a player's turn ends with his purchase and a second twist is
    refused; with it he may buy again in place of the card he bought (only that one),
    paying each time, until he stops."""
    plain = Hand(variant("F5S-OPT/8").game(), [100] * 3, button=0, deck=_deck(OPTION))
    _bet_to_the_twist(plain)
    plain.act(Action.twist(_card("9h")))
    assert plain.actor == 2
    before = (state_of(plain.hole), list(plain.stacks), len(plain.events))
    with pytest.raises(IllegalAction):
        plain.act(Action.twist(_card("As")), seat=1)  # his second: out of turn
    assert (state_of(plain.hole), list(plain.stacks), len(plain.events)) == before
    plain.act(Action.twist())
    plain.act(Action.twist())
    assert not isinstance(plain.game.phases[plain.phase], Twist)  # the round is over

    tittle = Hand(variant("F5S-TIT/8").game(), [100] * 3, button=0, deck=_deck(OPTION))
    _bet_to_the_twist(tittle)
    tittle.act(Action.twist(_card("9h")))  # bought: the As, up
    assert tittle.actor == 1
    legal = tittle.legal_actions()
    assert legal.choice is not None and legal.choice.cards == (_card("As"),)
    before = (state_of(tittle.hole), list(tittle.stacks), len(tittle.events))
    with pytest.raises(IllegalAction):
        tittle.act(Action.twist(_card("5h")))  # not the card he bought
    assert (state_of(tittle.hole), list(tittle.stacks), len(tittle.events)) == before
    tittle.act(Action.twist(_card("As")))  # again: the Ac, up in its place
    assert _card("Ac") in tittle.up[1] and _card("As") not in tittle.hole[1]
    assert tittle.dead[1] == 10 and tittle.actor == 1
    tittle.act(Action.twist())  # he keeps it
    assert tittle.actor == 2
    assert [e.bought for e in tittle.events if isinstance(e, Twisted)] == [True, True, False]


def test_anything_but_a_twist_is_refused_and_changes_nothing() -> None:
    """Rules 002_376df91f076a6501.txt: 'players can buy another card from the deck' — one card
    of their own for one from the deck: a pass, two cards, another's card, a bet, a fold or
    a check is refused with the hand unchanged."""
    hand = Hand(variant("F5S-OPT/8").game(), [100] * 3, button=0, deck=_deck(OPTION))
    _bet_to_the_twist(hand)
    before = (state_of(hand.hole), state_of(hand.up), list(hand.stacks), len(hand.events))
    for bad in (
        Action.pass_cards(parse_cards("9h")),
        Action(ActionKind.TWIST, cards=tuple(parse_cards("9h 5h"))),
        Action.twist(_card("Kd")),  # seat 2's
        Action.draw(parse_cards("9h")),
        Action.bet(10),
        Action.fold(),
        Action.check(),
    ):
        with pytest.raises(IllegalAction):
            hand.act(bad)
        assert (state_of(hand.hole), state_of(hand.up), list(hand.stacks), len(hand.events)) == (
            before
        )
    assert hand.actor == 1


def test_a_player_who_cannot_pay_is_not_offered_a_twist() -> None:
    """Rules 002_376df91f076a6501.txt: 'purchase another one by adding money to the pot' — a
    twist is bought: seat 0, all in on the ante and the bring-in, cannot pay the 5 and is
    passed over; seat 1 is asked, and the round ends with him."""
    hand = Hand(variant("F6S-OPT").game(), [3, 100], button=0, deck=_deck(SIX_CARD))
    _bet_to_the_twist(hand)
    assert hand.stacks[0] == 0 and hand.actor == 1
    hand.act(Action.twist())
    assert hand.finished  # no betting: seat 0 is all in
    assert [e.seat for e in hand.events if isinstance(e, Twisted)] == [1]
    assert sum(hand.stacks) == 103


def test_a_twist_leaves_the_later_streets_their_cards() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'a seven-card stud game where both
    sixth street and seventh street are twist rounds'.  A sixth-street twist comes off the
    stub, and seventh street is dealt from what follows; eight players leave the stub no card
    to sell on sixth street (seventh street needs its burn and a card), five leave plenty."""
    # five players, the button on seat 0: cards go to seats 1, 2, 3, 4, 0
    hand = Hand(variant("F7S-ENG").game(), [200] * 5, 0, rng=np.random.default_rng(4))
    _bet_to_the_twist(hand)
    assert hand.game.phases[hand.phase] == Twist("sixth street twist", 5)
    stub = hand._dealer.deck.stub
    hand.act(Action.twist(hand.hole[1][0]))  # a down card: its replacement comes down
    assert hand.hole[1][-1] == stub[0] and stub[0] not in hand.up[1]
    for _ in range(4):
        hand.act(Action.twist())
    _bet_to_the_twist(hand)
    seventh = {e.seat: e.cards for e in hand.events[-6:] if isinstance(e, HoleDealt)}
    # after the twist card and a burn, one at a time from the dealer's left
    assert [seventh[seat][0] for seat in (1, 2, 3, 4, 0)] == list(stub[2:7])
    assert hand.game.phases[hand.phase] == Twist("seventh street twist", 5)

    full = play_plainly(Hand(variant("F7S-ENG").game(), [200] * 8, 0, rng=np.random.default_rng(4)))
    assert not any(isinstance(e, Twisted) for e in full.events)  # no card to sell
    assert all(len(h) == 6 for h in full.hole) and len(full.board) == 1  # the community card


@pytest.mark.parametrize(
    ("old", "new", "field", "problem"),
    [
        (
            '{ twist = "twist", price = 5 }',
            '{ twist = "twist", price = -1 }',
            "phases[8].price",
            "-1",
        ),
        ('{ twist = "twist", price = 5 }', '{ twist = "twist" }', "phases[8].price", "required"),
        (
            '{ twist = "twist", price = 5 }',
            '{ twist = "twist", price = 5, again = "yes" }',
            "phases[8].again",
            "true or false",
        ),
        (
            '{ twist = "twist", price = 5 }',
            '{ twist = "twist", price = 5, cards = 2 }',
            "phases[8].cards",
            "not a known setting",
        ),
    ],
)
def test_bad_twist_files_are_refused_naming_the_field(
    old: str, new: str, field: str, problem: str
) -> None:
    """Rules 002_376df91f076a6501.txt: 'purchase another one by adding money to the pot' — a
    price is chips into the pot: a negative or missing price, or an unknown setting, is
    refused naming the field."""
    text = (GAMES / "111-option-alley-eight-fixed-limit.toml").read_text()
    assert old in text
    with pytest.raises(GameFileError) as caught:
        parse_game_text(text.replace(old, new), "opt.toml")
    assert caught.value.field == field, caught.value
    assert problem in caught.value.problem, caught.value
