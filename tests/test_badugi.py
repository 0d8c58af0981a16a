"""Badugi (simulations/evaluators/badugi.py)."""

from __future__ import annotations

from collections import Counter
from math import comb

import numpy as np
import numpy.typing as npt
import pytest

from simulations.dealing import deal
from simulations.evaluators.badugi import (
    badugi_ranking,
    evaluate_badugi,
    evaluate_badugi_batch,
    reference_badugi_values,
)
from simulations.evaluators.hand_enumeration import all_hands

DECK = np.arange(52, dtype=np.int8)

# Rules 000_1a86611de8d3f5f7.txt, 'The following is the ranking of several example of hands
# from best to worst' (Badugi), with the name each should get.
RULE_LIST = [
    ("As 2c 3h 4d", "four-card badugi, 4 high (4-3-2-A)"),  # '4 card 4 high best possible'
    ("4s 6h 8d Jc", "four-card badugi, J high (J-8-6-4)"),  # '4 card J high Badougi'
    ("Tc Jh Qd Ks", "four-card badugi, K high (K-Q-J-T)"),  # '4 card worst possible Badougi'
    ("Ah Ad 4c 5s", "three-card hand, 5 high (5-4-A)"),  # '3 card hand, 5 high'
    ("Ac As 4s 6s", "two-card hand, 4 high (4-A)"),  # '2 card hand, 4 high'
]


def test_rule_text_ranking_list() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Badugi': the five example hands, best to worst.

    The text's third hand reads 'Ten of clubs, J of hearts, Q of Diamonds, K of hearts', which
    repeats the jack's suit; it calls the hand a four-card badugi, the worst possible, and
    ranks it above the three-card hands, so it is taken here with the king of spades.  As
    printed it would be a three-card Q-J-T hand, below the fourth example."""
    hands = [evaluate_badugi(text) for text, _ in RULE_LIST]
    assert [h.name for h in hands] == [name for _, name in RULE_LIST]
    values = [h.value for h in hands]
    assert values == sorted(values, reverse=True) and len(set(values)) == 5
    as_printed = evaluate_badugi("Tc Jh Qd Kh")
    assert as_printed.name == "three-card hand, Q high (Q-J-T)"
    assert hands[3] > as_printed


def test_cards_repeating_a_rank_or_suit_do_not_play() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Any cards which match another card in rank or suit does
    not play': more playing cards beat fewer, then the lower highest card."""
    assert evaluate_badugi("Kc Qd Jh Ts").category == "four-card badugi"
    assert evaluate_badugi("Kc Qd Jh Ts") > evaluate_badugi("Ac 2d 3h 3s")
    assert evaluate_badugi("Ac 2d 3h 3s").name == "three-card hand, 3 high (3-2-A)"
    # Of the two threes the one whose suit is free plays: 3s here, since 3h's suit is taken.
    assert evaluate_badugi("Ac 2d 3h 4h").name == "three-card hand, 3 high (3-2-A)"
    assert evaluate_badugi("Kc Kd Kh Ks").name == "one-card hand, K high (K)"
    assert evaluate_badugi("Ac 2c 3c 4c").name == "one-card hand, A high (A)"
    # The best set plays, not the first found: 4-2-A rather than 5-4-A (5c and 2c clash).
    assert evaluate_badugi("5c 4d Ah 2c").name == "three-card hand, 4 high (4-2-A)"
    assert evaluate_badugi("7c 7d 2h 3h").name == "two-card hand, 7 high (7-2)"


def test_ties_and_suits() -> None:
    """Suits only decide which cards play; equal ranks that play tie."""
    assert evaluate_badugi("As 2c 3h 4d").value == evaluate_badugi("Ad 2h 3s 4c").value
    assert evaluate_badugi("Ac 3d 5h 7s") > evaluate_badugi("2c 3d 5h 7s")
    assert evaluate_badugi("6c 5d 4h 2s") > evaluate_badugi("6c 5d 4h 3s")
    assert evaluate_badugi("6c 5d 4h 3s") > evaluate_badugi("7c 3d 2h As")


@pytest.fixture(scope="module")
def every_hand() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]:
    hands = np.concatenate([chunk.copy() for chunk in all_hands(4)])
    return hands, evaluate_badugi_batch(hands, check=False)


def test_badugi_census(every_hand: tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]) -> None:
    """notes/reference-numbers.md, 'Badugi': of the 270,725 four-card hands, 13*12*11*10 =
    17,160 are badugis over 715 distinct values; a one-card hand (four of a suit, or four of
    a rank) comes 4*C(13,4) + 13 = 2,873 times over 13 values; every set of distinct ranks is
    one value, C(13,4) + C(13,3) + C(13,2) + 13 = 1,092 in all."""
    hands, values = every_hand
    assert hands.shape[0] == comb(52, 4) == 270_725
    counts = Counter((values >> 13).tolist())
    assert counts[4] == 13 * 12 * 11 * 10 == 17_160
    assert counts[1] == 4 * comb(13, 4) + 13 == 2_873
    assert sum(counts.values()) == 270_725
    distinct = Counter((np.unique(values) >> 13).tolist())
    assert distinct == {4: 715, 3: comb(13, 3), 2: comb(13, 2), 1: 13}
    assert sum(distinct.values()) == 1_092
    assert values.max() == evaluate_badugi("As 2c 3h 4d").value
    assert values.min() == evaluate_badugi("Kc Kd Kh Ks").value


def test_batch_agrees_with_reference_everywhere(
    every_hand: tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]],
) -> None:
    """Every four-card hand, and a million random hands in random card order."""
    hands, values = every_hand
    reference = np.empty_like(values)
    reference_badugi_values(hands, reference)
    assert np.array_equal(values, reference)
    random = deal(np.random.default_rng(44), DECK, 1_000_000, 4)
    reference = np.empty(random.shape[0], dtype=np.int32)
    reference_badugi_values(random, reference)
    assert np.array_equal(evaluate_badugi_batch(random), reference)


def test_scalar_api_and_ranking_round_trip() -> None:
    hands = deal(np.random.default_rng(45), DECK, 500, 4)
    batch = evaluate_badugi_batch(hands)
    for row, value in zip(hands.tolist(), batch.tolist(), strict=True):
        ranking = evaluate_badugi(row)
        assert ranking.value == value and ranking == badugi_ranking(value)
        assert ranking.system == "badugi"
    with pytest.raises(ValueError, match="not a badugi value"):
        badugi_ranking(5 << 13)
    with pytest.raises(ValueError, match="not a badugi value"):
        badugi_ranking((4 << 13) | 0x1FFF)


@pytest.mark.parametrize("text", ["As 2c 3h", "As 2c 3h 4d 5s", "As"])
def test_wrong_card_counts(text: str) -> None:
    with pytest.raises(ValueError, match="a badugi hand needs 4 cards, got"):
        evaluate_badugi(text)
    with pytest.raises(ValueError, match="badugi hands need 4 cards each"):
        evaluate_badugi_batch(np.zeros((2, 5), dtype=np.int8))


def test_duplicates_and_jokers() -> None:
    with pytest.raises(ValueError, match="duplicate card As"):
        evaluate_badugi("As 2c As 4d")
    with pytest.raises(ValueError, match="a joker cannot be ranked by the badugi evaluator"):
        evaluate_badugi("As 2c Jk 4d")
    with pytest.raises(ValueError, match="hand 1 holds a joker"):
        evaluate_badugi_batch(np.array([[0, 5, 10, 15], [0, 5, 10, 53]]))
    with pytest.raises(ValueError, match="hand 0 holds 2d twice"):
        evaluate_badugi_batch(np.array([[1, 5, 10, 1]]))
