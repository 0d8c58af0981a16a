"""Baseball: seven-card stud with 3s and 9s wild, a 3 dealt up paid for with the pot, and an
extra upcard for a 4 dealt up (Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'generally
involve many wild cards ..., paying the pot for wild cards, being dealt an extra upcard upon
receiving a ...'; simulations/engine/dealer.py, card_phases.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from simulations.cards import Card, parse_cards
from simulations.engine.actions import Action, ActionKind, IllegalAction
from simulations.engine.events import (
    Awarded,
    Exhausted,
    Folded,
    HoleDealt,
    OutOfCards,
    Paid,
    Shown,
)
from simulations.engine.forced import showing_opener
from simulations.engine.game import ActingOrder
from simulations.engine.gamefile import GameFileError, parse_game_text
from simulations.engine.hand import Hand
from simulations.engine.history import describe_events, play_plainly
from simulations.engine.phases import Pay
from simulations.engine.variants import GAMES_FOLDER, variant
from tests.state import state_of

FILE = Path(str(GAMES_FOLDER)) / "115-baseball-fixed-limit.toml"


def _deck(cards: str) -> list[int]:
    order = list(parse_cards(cards))
    return order + [c for c in range(52) if c not in order]


def _card(text: str) -> Card:
    return parse_cards(text)[0]


def _hand(
    players: int, deck: str, stacks: list[int] | None = None, *, rainout: bool = True
) -> Hand:
    """A Baseball hand from a deck order; ``rainout=False`` leaves out the game's kill card
    (the queen of spades up) for deals about something else that show it."""
    game = variant("F7S-BASE").game()
    if not rainout:
        game = replace(game, kill_cards=None)
    return Hand(game, stacks or [100] * players, button=0, deck=_deck(deck))


def test_a_four_up_is_dealt_an_extra_upcard_at_once() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'being dealt an extra upcard upon
    receiving a [4]'.  Seat 1's 4h up is followed at once by the next card, the 4s, and that
    by the Kc; only then does seat 2 get his upcard.  Seat 2's 4d came down: nothing."""
    # three players, the button on seat 0: the cards go to seats 1, 2, 0
    hand = _hand(3, "2c 4d 6h  7c 8d Jh  4h 4s Kc  Td  Qh")
    assert hand.up == [list(parse_cards(text)) for text in ("Qh", "4h 4s Kc", "Td")]
    assert [len(h) for h in hand.hole] == [3, 5, 3]
    dealt = [(e.seat, e.cards, e.extra) for e in hand.events if isinstance(e, HoleDealt)]
    assert (1, tuple(parse_cards("4s Kc")), True) in dealt
    assert (2, tuple(parse_cards("Td")), False) in dealt
    assert hand.upcards_dealt == list(parse_cards("4h 4s Kc Td Qh"))  # in the order dealt
    assert "seat 1 is dealt 4s Kc up, extra upcards" in describe_events(hand.events)
    # the lowest first upcard brings it in: seat 1's 4h (the extras do not count)
    assert hand.legal_actions().bring_in is not None and hand.actor == 1


def test_a_three_up_pays_the_pot_or_folds() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'paying the pot for wild cards'.  Seat 2
    and seat 0 are dealt 3s up: in the order dealt each matches the pot — seat 2 the three
    antes, seat 0 the six then in it — before the betting; seat 1's 3h came down, free."""
    hand = _hand(3, "3h 5d 6h  7c 8d Jh  Kc 3c 3d")
    assert isinstance(hand.game.phases[hand.phase], Pay) and hand.actor == 2
    legal = hand.legal_actions()
    assert legal.choice is not None and legal.choice.kind is ActionKind.PAY
    assert legal.choice.price == 3 and legal.can_fold and not legal.can_check
    before = (state_of(hand.hole), list(hand.stacks), list(hand.folded), len(hand.events))
    for bad in (
        Action.check(),
        Action.call(),
        Action.bring_in(),
        Action.bet(5),
        Action.twist(),
        Action(ActionKind.PAY, cards=(_card("3c"),)),
    ):
        with pytest.raises(IllegalAction):
            hand.act(bad)
        assert (state_of(hand.hole), list(hand.stacks), list(hand.folded), len(hand.events)) == (
            before
        )
    hand.act(Action.pay())
    assert hand.pot_total == 6 and hand.stacks[2] == 96 and hand.dead[2] == 3
    assert hand.actor == 0 and hand.legal_actions().choice is not None
    assert hand.legal_actions().choice.price == 6  # type: ignore[union-attr]
    hand.act(Action.pay())
    assert hand.pot_total == 12 and hand.stacks[0] == 93 and hand.dead == [6, 0, 3]
    assert [(e.seat, e.card, e.amount) for e in hand.events if isinstance(e, Paid)] == [
        (2, _card("3c"), 3),
        (0, _card("3d"), 6),
    ]
    legal = hand.legal_actions()  # now the betting: the bring-in
    assert legal.choice is None and legal.bring_in is not None
    play_plainly(hand)
    assert sum(hand.stacks) == 300  # the payments were won with the pot
    assert sum(e.amount for e in hand.events if isinstance(e, Awarded)) == sum(hand.contributed)


def test_folding_instead_of_paying() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'paying the pot for wild cards' — or
    giving up the hand: seat 2 folds his 3c, pays nothing, and is dealt no more cards; when
    the last other player folds too, the one left wins the antes."""
    hand = _hand(3, "3h 5d 6h  7c 8d Jh  Kc 3c 3d")
    hand.act(Action.fold())
    assert hand.folded[2] and hand.stacks[2] == 99 and Folded(2) in hand.events
    hand.act(Action.fold())  # seat 0 too: seat 1 is left
    assert hand.finished and hand.payoffs == (-1, 2, -1)


def test_a_short_stack_pays_all_he_has() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'paying the pot for wild cards' — at
    table stakes a player cannot pay more than he has: with 1 chip left after his ante he
    pays it and plays on all in."""
    hand = _hand(3, "3h 5d 6h  7c 8d Jh  Kc 3c Qd", stacks=[100, 100, 2])
    assert hand.legal_actions().choice.price == 1  # type: ignore[union-attr]
    hand.act(Action.pay())
    assert hand.stacks[2] == 0 and Paid(2, _card("3c"), 1, True) in hand.events
    play_plainly(hand)
    assert sum(hand.stacks) == 202


def test_threes_and_nines_are_wild() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'generally involve many wild cards'
    (the usual game's 3s and 9s).  Seat 0's 9s and 3h, both down (free), make his kings four
    of a kind, beating seat 1's aces up; no one paid, as no 3 came up."""
    # two players, the button on seat 0: seat 1 first.  Third street: down, down, up; then
    # a burn and one upcard a street, and seventh street down.
    deck = "Ac 9s Ad Kc 7h Kd  2c 7d 8h  2d Jc 5s  2h Tc 6d  2s Qh 3h"
    hand = play_plainly(_hand(2, deck))
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    assert shown == {1: "Two pair, Aces and Sevens", 0: "Four Kings"}, shown
    assert {e.seat for e in hand.events if isinstance(e, Awarded)} == {0}
    assert not any(isinstance(e, Paid) for e in hand.events)


def test_extra_upcards_run_eight_players_out_of_cards() -> None:
    """Rules 003_6e018542f14946f8.txt, 'Seven-card stud': 'previously-dealt burn cards can be
    used when only a few cards are needed to complete the deal. If even those are not
    sufficient, then on the final round ... a single community card'.  Eight players and four
    4s up on third street: the extra upcards take 52 cards by sixth street (the burn cards
    dealt again), so seventh street has not even a community card and is not dealt."""
    down = "5c 5d 5h 5s 6c 6d 6h 6s 7c 7d 7h 7s 8c 8d 8h 8s"  # seats 1..7, 0, twice
    up = "4c Ac 4d Ad 4h Ah 4s As Kc Kd Kh Ks"  # seats 1-4: a 4, then at once an ace
    hand = play_plainly(_hand(8, f"{down} {up}", rainout=False))  # the Qs comes up
    assert [len(up) for up in hand.up] == [4, 5, 5, 5, 5, 4, 4, 4]
    exhausted = [e for e in hand.events if isinstance(e, Exhausted)]
    assert [(e.street, e.reused_burns, e.community) for e in exhausted] == [
        ("sixth street", 3, False)
    ]
    out = [e for e in hand.events if isinstance(e, OutOfCards)]
    assert out == [OutOfCards("seventh street", (1, 2, 3, 4, 5, 6, 7, 0), 0)]
    every = [c for h in hand.hole for c in h]
    assert len(every) == len(set(every)) == 52 and not hand.board
    assert [len(h) for h in hand.hole] == [6, 7, 7, 7, 7, 6, 6, 6]
    assert sum(hand.stacks) == 800 and any(isinstance(e, Shown) for e in hand.events)
    assert "extra upcards took every card" in " ".join(describe_events(hand.events))


def test_more_than_four_upcards_are_read_by_the_best_four() -> None:
    """Rules 002_376df91f076a6501.txt, 'Seven-Card Stud': 'On all subsequent rounds, the
    player with the best hand open the betting' — with extra upcards some players show more
    than four: each is read by the best four of his (here seat 0's pair of aces among five
    beats seat 1's pair of kings; five unpaired cards lose to them)."""
    ups = [parse_cards("Ac 2d 5h Ad 9c"), parse_cards("Kc Kd 7h 8s")]
    assert showing_opener(ups, [1, 0], ActingOrder.HIGH_SHOWING, dealt=True) == 0
    ups = [parse_cards("Ac 2d 5h Qd 9c"), parse_cards("Kc Kd 7h 8s")]
    assert showing_opener(ups, [1, 0], ActingOrder.HIGH_SHOWING, dealt=True) == 1


@pytest.mark.parametrize(
    ("old", "new", "field", "problem"),
    [
        (
            '  { pay = "third street", rank = "3" },\n  "bet",',
            '  "bet",\n  { pay = "third street", rank = "3" },',
            "phases[2]",
            "right after the deal",
        ),
        (
            '{ pay = "third street", rank = "3" }',
            '{ pay = "third street", rank = "39" }',
            "phases[1].rank",
            "names one rank",
        ),
        (
            '{ deal = "seventh street", down = 1, burn = true }',
            '{ deal = "seventh street", down = 1, burn = true, extra_up = "4" }',
            "phases[12].extra_up",
            "needs up cards",
        ),
        ('{ pay = "third street", rank = "3" }', '{ pay = "third street" }', "phases[1].rank", ""),
        (
            'halves = [{ ranking = "high", wild_ranks = "39", name = "Baseball" }]',
            'halves = [{ ranking = "high" }]',
            "showdown.halves[0]",
            "a game with extra upcards ranks a high half with wild cards",
        ),
    ],
)
def test_bad_baseball_files_are_refused_naming_the_field(
    old: str, new: str, field: str, problem: str
) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'paying the pot for wild cards, being
    dealt an extra upcard upon receiving a ...' — a payment away from the deal of its
    upcards, two ranks, or an extra upcard on a deal of down cards is refused, naming the
    field."""
    text = FILE.read_text()
    assert old in text
    with pytest.raises(GameFileError) as caught:
        parse_game_text(text.replace(old, new, 1), "baseball.toml")
    assert caught.value.field == field, caught.value
    assert problem in caught.value.problem, caught.value
