"""Chicago: half the pot to the spade in the hole (Rules 002_376df91f076a6501.txt, 'High
Chicago or Low Chicago'; Rules 000_1a86611de8d3f5f7.txt, 'The game of Chicago')."""

from __future__ import annotations

import pytest

from simulations.cards import parse_cards
from simulations.engine.events import Awarded, Shown
from simulations.engine.hand import Hand
from simulations.engine.history import play_plainly
from simulations.engine.showdown import Half, HandRanking, Showdown
from simulations.engine.variants import variant


def _deck(cards: str) -> list[int]:
    order = list(parse_cards(cards))
    return order + [c for c in range(52) if c not in order]


def _play(code: str, cards: str) -> tuple[dict[int, str], dict[int, int]]:
    hand = play_plainly(Hand(variant(code).game(), [500] * 3, button=0, deck=_deck(cards)))
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    won: dict[int, int] = {}
    for event in hand.events:
        if isinstance(event, Awarded):
            won[event.seat] = won.get(event.seat, 0) + int(event.amount)
    return shown, won


# Three players, button on seat 0 (the deal goes 1, 2, 0): two down and one up, three more up
# (after burns), one down.  Seat 1 holds three aces; the spades in the hole are seat 2's K♠
# and seat 0's 4♠ (A♠ is seat 1's upcard: it is not in the hole).
_SPLIT = "Ac Kh 4s  Ad Ks 5h  As 2c 3d 8s 9c Jh Qd  8c 6h 7d Tc  7c Jd 9s 2h  6c 3h 4d 8h"


def test_half_the_pot_to_the_highest_spade_in_the_hole() -> None:
    """'the player with the highest spade face down (referred to as in the hole) receives
    half the pot'; the ace of spades face up does not count."""
    shown, won = _play("FCHI", _SPLIT)
    assert shown[1].endswith("/ no spade") and shown[2].endswith("King of Spades"), shown
    pot = sum(won.values())
    assert won == {1: pot // 2 + pot % 2, 2: pot // 2}  # the odd chip to the high half


def test_low_chicago_pays_the_lowest_spade_the_ace_lowest() -> None:
    """'In Low Chicago, the player with the lowest spade in the hole receives half of the
    pot, with the A♠ being the lowest'."""
    shown, won = _play("FCHI-LOW", _SPLIT)
    assert shown[0].endswith("Four of Spades"), shown
    pot = sum(won.values())
    assert won == {1: pot // 2 + pot % 2, 0: pot // 2}


def test_high_hand_and_best_spade_together_take_the_whole_pot() -> None:
    """'If the player with the highest hand also has the highest/lowest spade in the hole,
    then that player receives the entire pot - having won both sides of the bet.'  Seat 1's
    hole cards now hold the A♠."""
    scoop = _SPLIT.replace("Ac Kh 4s  Ad Ks 5h  As", "As Kh 4s  Ad Ks 5h  Ac")
    shown, won = _play("FCHI", scoop)
    assert shown[1].endswith("Ace of Spades"), shown
    assert list(won) == [1]


def test_with_no_spade_in_the_hole_the_high_hand_takes_it_all() -> None:
    """'If the player with the highest hand also has the highest/lowest spade'; with no spade
    in the hole there is no spade half (the texts are silent; see docs/readings.md)."""
    no_spades = _SPLIT.replace("Ks", "Kd").replace("4s", "4c").replace("8s", "8d")
    shown, won = _play("FCHI", no_spades)
    assert all(hand.endswith("no spade") for hand in shown.values()), shown
    assert list(won) == [1]


def test_a_spade_half_follows_a_high_half() -> None:
    with pytest.raises(ValueError, match="follows a high half"):
        Showdown((Half(HandRanking.HIGH_SPADE),))
    with pytest.raises(ValueError, match="a high half, then a low half or a spade"):
        Showdown((Half(HandRanking.HIGH_SPADE), Half(HandRanking.HIGH)))
