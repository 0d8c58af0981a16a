"""Exhaustive censuses of 5- and 7-card hands against the published reference numbers."""

from __future__ import annotations

import os
import subprocess
import sys
from math import comb
from pathlib import Path

import pytest

from simulations.decks import Deck
from simulations.evaluators.census import Census, high_census
from simulations.evaluators.hand_value import Category, pack_value

C = Category

# notes/reference-numbers.md, 'Five-card high hands': category -> (hands, distinct values).
FIVE_CARD = {
    C.STRAIGHT_FLUSH: (40, 10),
    C.FOUR_OF_A_KIND: (624, 156),
    C.FULL_HOUSE: (3_744, 156),
    C.FLUSH: (5_108, 1_277),
    C.STRAIGHT: (10_200, 10),
    C.THREE_OF_A_KIND: (54_912, 858),
    C.TWO_PAIR: (123_552, 858),
    C.ONE_PAIR: (1_098_240, 2_860),
    C.HIGH_CARD: (1_302_540, 1_277),
}

# notes/reference-numbers.md, 'Best five of seven': category -> (hands, distinct values).
SEVEN_CARD = {
    C.STRAIGHT_FLUSH: (41_584, 10),
    C.FOUR_OF_A_KIND: (224_848, 156),
    C.FULL_HOUSE: (3_473_184, 156),
    C.FLUSH: (4_047_644, 1_277),
    C.STRAIGHT: (6_180_020, 10),
    C.THREE_OF_A_KIND: (6_461_620, 575),
    C.TWO_PAIR: (31_433_400, 763),
    C.ONE_PAIR: (58_627_800, 1_470),
    C.HIGH_CARD: (23_294_460, 407),
}
ROYAL_SEVEN = 4_324  # notes/reference-numbers.md, 'Best five of seven': '(royal 4,324)'


def test_reference_tables_are_transcribed_consistently() -> None:
    """notes/reference-numbers.md, 'C(52,5) = 2,598,960 hands, 7,462 distinct values' and
    'C(52,7) = 133,784,560 hands, 4,824 distinct values': the rows above sum to the totals."""
    assert sum(h for h, _ in FIVE_CARD.values()) == comb(52, 5) == 2_598_960
    assert sum(d for _, d in FIVE_CARD.values()) == 7_462
    assert sum(h for h, _ in SEVEN_CARD.values()) == comb(52, 7) == 133_784_560
    assert sum(d for _, d in SEVEN_CARD.values()) == 4_824


def assert_matches(census: Census, expected: dict[Category, tuple[int, int]]) -> None:
    assert set(census.hands) == set(expected) == set(census.distinct_values)
    for category, (hands, distinct) in expected.items():
        got = (census.hands[category], census.distinct_values[category])
        assert got == (hands, distinct), f"{category.label}: {got} != {(hands, distinct)}"


@pytest.fixture(scope="module")
def census_5() -> Census:
    return high_census(5)


@pytest.fixture(scope="module")
def census_7() -> Census:
    return high_census(7)


@pytest.mark.slow
def test_five_card_census(census_5: Census) -> None:
    """notes/reference-numbers.md, 'Five-card high hands': every 5-card hand of 52 cards."""
    assert census_5.cards == 5
    assert_matches(census_5, FIVE_CARD)
    assert census_5.total_hands == 2_598_960
    assert census_5.total_distinct == 7_462


@pytest.mark.slow
def test_seven_card_census(census_7: Census) -> None:
    """notes/reference-numbers.md, 'Best five of seven': every 7-card hand of 52 cards."""
    census = census_7
    assert census.cards == 7
    assert_matches(census, SEVEN_CARD)
    assert census.total_hands == 133_784_560
    assert census.total_distinct == 4_824


@pytest.mark.slow
def test_seven_card_royal_flushes(census_7: Census) -> None:
    """notes/reference-numbers.md, 'Best five of seven': straight flush '41,584 (royal 4,324)'.

    Below the royal, each straight flush excludes the card one above its top, so every one of
    the nine lower tops counts 4 * C(46, 2) = 4,140 hands; 9 * 4,140 + 4,324 = 41,584.
    """
    counts = census_7.value_counts
    straight_flushes = {top: counts[pack_value(C.STRAIGHT_FLUSH, top)] for top in range(3, 13)}
    assert straight_flushes[12] == ROYAL_SEVEN == 4 * comb(47, 2)
    assert all(straight_flushes[top] == 4 * comb(46, 2) for top in range(3, 12))
    assert sum(straight_flushes.values()) == SEVEN_CARD[C.STRAIGHT_FLUSH][0]
    assert sum(counts.values()) == comb(52, 7)
    assert len(counts) == 4_824


def test_five_card_straight_flush_values(census_5: Census) -> None:
    """notes/reference-numbers.md, 'Five-card high hands': 40 straight flushes over 10 values,
    so each top card (five-high to the royal) comes in exactly the four suits."""
    counts = census_5.value_counts
    for top in range(3, 13):
        assert counts[pack_value(C.STRAIGHT_FLUSH, top)] == 4
    assert census_5.hands[C.STRAIGHT_FLUSH] == 40


def test_royal_holdem_deck_census() -> None:
    """Rules 002_376df91f076a6501.txt, 'Royal hold 'em': a 20-card T-A deck; counted by hand,
    its 15,504 five-card hands hold no plain flush and no high-card hand, since the only five
    distinct ranks form the T-A straight."""
    deck = Deck.stripped("TJQKA").as_array()
    census = high_census(5, deck)
    assert census.total_hands == comb(20, 5) == 15_504
    assert census.hands == {
        C.STRAIGHT_FLUSH: 4,
        C.FOUR_OF_A_KIND: 5 * 16,
        C.FULL_HOUSE: 5 * 4 * 4 * 6,
        C.FLUSH: 0,
        C.STRAIGHT: 4**5 - 4,
        C.THREE_OF_A_KIND: 5 * 4 * comb(4, 2) * 16,
        C.TWO_PAIR: comb(5, 2) * 6 * 6 * 3 * 4,
        C.ONE_PAIR: 5 * 6 * comb(4, 3) * 4**3,
        C.HIGH_CARD: 0,
    }


@pytest.mark.parametrize("cards", [4, 8, 0])
def test_census_card_counts(cards: int) -> None:
    with pytest.raises(ValueError, match="5 to 7 cards"):
        high_census(cards)


def test_census_rejects_repeated_cards_in_deck() -> None:
    with pytest.raises(ValueError, match="2c"):
        high_census(5, [0, 0, 0, 0, 0, 0])


@pytest.mark.parametrize("deck", ["Deck.standard(jokers=1).as_array()", "[0, 1, 2, 3]"])
def test_census_rejects_jokers_and_short_decks(deck: str) -> None:
    """Run in a child process: an unchecked deck would index past the 52 card keys (jokers)
    or past the end of the deck, which can crash the interpreter rather than raise."""
    code = f"from simulations.decks import Deck\nfrom {high_census.__module__} import high_census\n"
    code += f"high_census(5, {deck})"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert child.returncode == 1 and "ValueError" in child.stderr, child.returncode
