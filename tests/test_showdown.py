"""The showdown as part of the game: low games pay the best low, high-low games split each
pot between the best high and the best qualifying low."""

from __future__ import annotations

from dataclasses import replace

import pytest

from simulations.cards import parse_cards
from simulations.engine.events import Awarded, Shown
from simulations.engine.game import DeckSpec
from simulations.engine.hand import Hand
from simulations.engine.history import play_plainly
from simulations.engine.showdown import Half, HandRanking, Showdown
from simulations.engine.variants import variant
from simulations.evaluators.lowball import Qualifier, evaluate_ace_to_five
from simulations.evaluators.selection import FIVE_CARDS, OMAHA
from tests.factories import razz, seven_card_stud, seven_card_stud_eight
from tests.test_stud import _stud_deck


def _awards(hand: Hand) -> dict[int, int]:
    won: dict[int, int] = {}
    for event in hand.events:
        if isinstance(event, Awarded):
            won[event.seat] = won.get(event.seat, 0) + int(event.amount)
    return won


# Seat 0 ends with 9-9-K-K-Q-Q-J: two pair high, and no low better than a pair of nines.
# Seat 1 ends with 8-8-K-7-7-6-5: two smaller pair high, and an unpaired K-8-7-6-5 low.
PAIRS = _stud_deck(
    ["9s 9d Kc", "8s 8d Ks"], [["Kh", "7s"], ["Qs", "7d"], ["Qd", "6c"], ["Jc", "5c"]]
)


def test_razz_pays_the_lowest_hand() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Razz is seven-card stud played with ace-to-five low
    hand values': an unpaired king-high low beats a pair of nines, which ranked high (two
    pair, kings and queens) would have won — as the engine paid it before the showdown was
    part of the game."""
    hand = play_plainly(Hand(razz(ante=1, bring_in=2), [100, 100], button=0, deck=PAIRS))
    assert set(_awards(hand)) == {1}
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    assert shown[1].startswith("K-8-7-6-5") and "Pair of Nines" in shown[0]
    high = play_plainly(Hand(seven_card_stud(ante=1, bring_in=2), [100, 100], button=0, deck=PAIRS))
    assert set(_awards(high)) == {0}  # the same cards in high stud


def test_eight_or_better_splits_high_and_low() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'the pot is split between the player with the highest
    hand and the player with the lowest hand', 'An 8-high hand or lower is required to win
    low'.  Seat 0 has two pair and no low; seat 1 a pair of nines and an 8-4-3-2-A low."""
    deck = _stud_deck(
        ["Ks Kd Qc", "As 2d 8c"], [["Qh", "3c"], ["9s", "4d"], ["9d", "9h"], ["Jc", "9c"]]
    )
    hand = play_plainly(Hand(seven_card_stud_eight(ante=1, bring_in=2), [100, 100], 0, deck=deck))
    won = _awards(hand)
    assert set(won) == {0, 1} and won[0] == won[1] == sum(hand.contributed) // 2
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    assert shown[0].endswith("/ no low") and "8-4-3-2-A low" in shown[1]


def test_with_no_qualifying_low_the_high_takes_the_whole_pot() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'If there is no qualifying low hand, high hand takes
    the entire pot': seat 1's best low, K-8-7-6-5, is no eight."""
    hand = play_plainly(Hand(seven_card_stud_eight(ante=1, bring_in=2), [100, 100], 0, deck=PAIRS))
    assert set(_awards(hand)) == {0} and _awards(hand)[0] == sum(hand.contributed)


def test_a_showdown_is_a_high_half_then_a_low_half() -> None:
    with pytest.raises(ValueError, match="one or two halves"):
        Showdown(())
    with pytest.raises(ValueError, match="a high half, then a low half"):
        Showdown((Half(HandRanking.ACE_TO_FIVE_LOW), Half()))
    with pytest.raises(ValueError, match="qualifier goes with an ace-to-five low"):
        Half(HandRanking.DEUCE_TO_SEVEN_LOW, Qualifier.EIGHT_OR_BETTER)
    with pytest.raises(ValueError, match="belongs to the low half of a split"):
        Showdown((Half(HandRanking.ACE_TO_FIVE_LOW, Qualifier.EIGHT_OR_BETTER),))


def test_the_joker_is_the_bug_of_the_five_cards_that_play() -> None:
    """A joker in an ace-to-five low is the lowest card the hand lacks (California lowball's
    bug); where only some cards may play (Omaha's two and three), it is the lowest card the
    five that play lack: with Jk 8d Kc Kd and A-2-3-4-5 on the board, Jk-8 with A-2-3 makes
    8-4-3-2-A, not 8-6-3-2-A."""
    half = Half(HandRanking.ACE_TO_FIVE_LOW, Qualifier.EIGHT_OR_BETTER)
    ranked = half.rank(OMAHA, parse_cards("Jk 8d Kc Kd"), parse_cards("Ah 2s 3c 4d 5h"))
    best = evaluate_ace_to_five("8c 4c 3c 2c Ac", qualifier=Qualifier.EIGHT_OR_BETTER)
    assert ranked is not None and ranked == best
    whole = Half(HandRanking.ACE_TO_FIVE_LOW).rank(FIVE_CARDS, parse_cards("Jk 2c 3d Ks 5h"), ())
    assert whole == evaluate_ace_to_five("Ac 2c 3d Ks 5h")


def test_a_joker_goes_only_with_a_ranking_that_has_a_rule_for_it() -> None:
    """Deuce-to-seven, ace-to-six and badugi say nothing of a joker: a deck holding one is
    refused with them, naming the half."""
    for ranking in (HandRanking.DEUCE_TO_SEVEN_LOW, HandRanking.ACE_TO_SIX_LOW):
        with pytest.raises(ValueError, match=r"halves\[0\].*no rule for a joker"):
            replace(
                variant("F2L3D").game(),
                showdown=Showdown((Half(ranking),)),
                deck=DeckSpec(jokers=1),
            )
