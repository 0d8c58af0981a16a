"""Three-card guts and two-card hands (simulations/evaluators/small_hands.py)."""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb

import numpy as np
import numpy.typing as npt
import pytest

from simulations.dealing import deal
from simulations.evaluators.hand_enumeration import all_hands
from simulations.evaluators.small_hands import (
    ThreeCardCategory,
    TwoCardCategory,
    evaluate_three_card,
    evaluate_three_card_batch,
    evaluate_two_card,
    evaluate_two_card_batch,
    three_card_ranking,
    two_card_ranking,
)

T3 = ThreeCardCategory
T2 = TwoCardCategory
DECK = np.arange(52, dtype=np.int8)


def test_guts_order() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'three-card guts': 'The hands are ranked as follows:
    Three of a kind, straight flush, straight, flush, pair', then no pair."""
    ladder = ["2c 2d 2h", "Qs Ks As", "Qc Kd Ah", "Ah Jh 5h", "Ac Ad Kh", "Ac Kd Jh"]
    hands = [evaluate_three_card(text) for text in ladder]
    assert [h.category for h in hands] == [
        "three of a kind",
        "straight flush",
        "straight",
        "flush",
        "pair",
        "high card",
    ]
    # The weakest of each category beats the strongest of the next one down.
    weakest = ["2c 2d 2h", "As 2s 3s", "Ac 2d 3h", "2h 3h 5h", "2c 2d 3h", "2c 3d 5h"]
    strongest = ["Ac Ad Ah", "Qs Ks As", "Qc Kd Ah", "Ah Kh Jh", "Ac Ad Kh", "Ac Kd Jh"]
    for low_of_higher, high_of_lower in zip(weakest, strongest[1:], strict=False):
        assert evaluate_three_card(low_of_higher) > evaluate_three_card(high_of_lower)


def test_ace_plays_high_or_low_in_a_straight() -> None:
    """notes/reference-numbers.md, 'Three-card hands': 48 straight flushes and 720 straights
    are twelve sequences, A-2-3 up to Q-K-A; A-2-3 is the lowest, K-A-2 none."""
    assert evaluate_three_card("As 2d 3c").name == "Three-high straight (3-2-A)"
    assert evaluate_three_card("As 2d 3c") < evaluate_three_card("2s 3d 4c")
    assert evaluate_three_card("Qs Kd Ac").name == "Ace-high straight (A-K-Q)"
    assert evaluate_three_card("Ks Ad 2c").category == "high card"
    assert evaluate_three_card("Ks As 2s").name == "Ace-high flush (A-K-2)"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Qs Qd Qh", "Three Queens"),
        ("Jh Th 9h", "Jack-high straight flush (J-T-9)"),
        ("9c 9d Kh", "Pair of Nines (9-9-K)"),
        ("Kh 9d 4c", "King-high (K-9-4)"),
        ("7d 5d 2d", "Seven-high flush (7-5-2)"),
    ],
)
def test_names(text: str, name: str) -> None:
    assert evaluate_three_card(text).name == name


def test_ties_and_kickers() -> None:
    assert evaluate_three_card("9c 9d Kh") > evaluate_three_card("9h 9s Qc")
    assert evaluate_three_card("Tc Td 2h") > evaluate_three_card("9h 9s Ac")
    assert evaluate_three_card("Ah Jh 5h") > evaluate_three_card("Ad Jd 4d")
    assert evaluate_three_card("Ac Kd Jh").value == evaluate_three_card("As Kh Jd").value


@pytest.fixture(scope="module")
def every_three() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]:
    hands = np.concatenate([chunk.copy() for chunk in all_hands(3)])
    return hands, evaluate_three_card_batch(hands)


def test_three_card_table(every_three: tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]) -> None:
    """notes/reference-numbers.md, 'Three-card hands (C(52,3) = 22,100)': straight flush 48,
    three of a kind 52, straight 720, flush 1,096, pair 3,744, high card 16,440."""
    hands, values = every_three
    assert hands.shape[0] == comb(52, 3) == 22_100
    counts = Counter(three_card_ranking(v).category for v in values.tolist())
    assert counts == {
        "straight flush": 48,
        "three of a kind": 52,
        "straight": 720,
        "flush": 1_096,
        "pair": 3_744,
        "high card": 16_440,
    }
    distinct = Counter((np.unique(values) >> 12).tolist())
    assert distinct == {
        T3.STRAIGHT_FLUSH: 12,
        T3.THREE_OF_A_KIND: 13,
        T3.STRAIGHT: 12,
        T3.FLUSH: comb(13, 3) - 12,
        T3.PAIR: 13 * 12,
        T3.HIGH_CARD: comb(13, 3) - 12,
    }


def test_batch_agrees_with_scalar(
    every_three: tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]],
) -> None:
    """Every three-card hand in all six card orders, against the scalar rules; then a million
    random hands, checked through that complete table."""
    hands, values = every_three
    scalar = np.array([evaluate_three_card(row).value for row in hands.tolist()])
    assert np.array_equal(values, scalar)
    for order in itertools.permutations(range(3)):
        assert np.array_equal(evaluate_three_card_batch(hands[:, list(order)]), scalar)
    table = np.zeros(52**3, dtype=np.int32)
    table[(hands.astype(np.int64) * (52**2, 52, 1)).sum(axis=1)] = scalar
    random = deal(np.random.default_rng(31), DECK, 1_000_000, 3)
    canonical = np.sort(random, axis=1).astype(np.int64) @ np.array([52**2, 52, 1])
    assert np.array_equal(evaluate_three_card_batch(random), table[canonical])


# --- two cards ----------------------------------------------------------------------------------


def test_two_card_pair_beats_high_card() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': 'a reduced poker hand of either 2 or 3 cards',
    'ranked as in regular 5-card poker': a pair beats any high card."""
    assert evaluate_two_card("2c 2d") > evaluate_two_card("Ac Kc")
    assert evaluate_two_card("Ac Ad").name == "Pair of Aces (A-A)"
    assert evaluate_two_card("Ac Kd") > evaluate_two_card("Ac Qd")
    assert evaluate_two_card("Kc Qc").name == "King-high (K-Q)"
    assert evaluate_two_card("Kc Qc").value == evaluate_two_card("Kd Qs").value


def test_two_card_straights_and_flushes() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'in some variations straights and flushes count and in
    some they do not': where they count, in the order of three-card guts (pair, straight flush,
    straight, flush, high card); A-2 is the lowest straight and K-A the highest."""
    ladder = ["2c 2d", "Ah Kh", "2c 3d", "7h 5h", "Ac Qd"]
    values = [evaluate_two_card(t, straights_and_flushes=True).value for t in ladder]
    assert values == sorted(values, reverse=True)
    names = [evaluate_two_card(t, straights_and_flushes=True).name for t in ("Ah 2h", "Kc Ad")]
    assert names == ["Deuce-high straight flush (2-A)", "Ace-high straight (A-K)"]
    assert evaluate_two_card("Ah 2d", straights_and_flushes=True) < evaluate_two_card(
        "2h 3d", straights_and_flushes=True
    )
    assert evaluate_two_card("Ah 2h").category == "high card"
    with pytest.raises(TypeError):
        _ = evaluate_two_card("Ah 2h") < evaluate_two_card("Ah 2h", straights_and_flushes=True)


@pytest.mark.parametrize("straights_and_flushes", [False, True])
def test_two_card_census(straights_and_flushes: bool) -> None:
    """All 1,326 two-card hands: 78 pairs (13 values); with straights and flushes, 13
    sequences make 52 straight flushes and 156 straights, and 260 other suited hands flush."""
    hands = np.concatenate([chunk.copy() for chunk in all_hands(2)])
    values = evaluate_two_card_batch(hands, straights_and_flushes=straights_and_flushes)
    scalar = [
        evaluate_two_card(row, straights_and_flushes=straights_and_flushes).value
        for row in hands.tolist()
    ]
    assert values.tolist() == scalar
    assert np.array_equal(
        evaluate_two_card_batch(hands[:, ::-1], straights_and_flushes=straights_and_flushes),
        values,
    )
    counts = Counter(TwoCardCategory(v >> 8) for v in values.tolist())
    if straights_and_flushes:
        assert counts == {
            T2.PAIR: 78,
            T2.STRAIGHT_FLUSH: 52,
            T2.STRAIGHT: 156,
            T2.FLUSH: 260,
            T2.HIGH_CARD: 1_326 - 78 - 52 - 156 - 260,
        }
    else:
        assert counts == {T2.PAIR: 78, T2.HIGH_CARD: 1_248}
    assert Counter((np.unique(values) >> 8).tolist())[T2.PAIR] == 13
    for value in np.unique(values).tolist():
        ranking = two_card_ranking(value, straights_and_flushes=straights_and_flushes)
        assert ranking.value == value


def test_two_card_batch_on_a_million_hands() -> None:
    hands = deal(np.random.default_rng(32), DECK, 1_000_000, 2)
    everything = np.concatenate([chunk.copy() for chunk in all_hands(2)])
    for flag in (False, True):
        table = np.zeros(52 * 52, dtype=np.int32)
        scalar = [evaluate_two_card(r, straights_and_flushes=flag).value for r in everything]
        table[everything[:, 0].astype(np.int64) * 52 + everything[:, 1]] = scalar
        canonical = np.sort(hands, axis=1).astype(np.int64) @ np.array([52, 1])
        ours = evaluate_two_card_batch(hands, straights_and_flushes=flag)
        assert np.array_equal(ours, table[canonical])


# --- bad input ----------------------------------------------------------------------------------


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="a three-card guts hand needs 3 cards, got 4"):
        evaluate_three_card("As Kd Qh Js")
    with pytest.raises(ValueError, match="a two-card hand needs 2 cards, got 3"):
        evaluate_two_card("As Kd Qh")
    with pytest.raises(ValueError, match="duplicate card As"):
        evaluate_three_card("As Kd As")
    with pytest.raises(ValueError, match="a joker cannot be ranked by the three-card guts"):
        evaluate_three_card("As Kd Jk")
    with pytest.raises(ValueError, match="three-card guts hands need 3 cards each, got 2"):
        evaluate_three_card_batch(np.zeros((4, 2), dtype=np.int8))
    with pytest.raises(ValueError, match="hand 0 holds a joker"):
        evaluate_two_card_batch(np.array([[52, 0]]))
    with pytest.raises(ValueError, match="hand 1 holds As twice"):
        evaluate_three_card_batch(np.array([[0, 1, 2], [51, 51, 3]]))
