"""Omaha high (simulations/evaluators/omaha.py): golden rule tests, bad input, and the batch
kernel against the plain reference on a million random hands."""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pytest

from simulations.cards import Rank, parse_cards
from simulations.dealing import deal
from simulations.evaluators.hand_value import Category, pack_value
from simulations.evaluators.high import evaluate_high, evaluate_high_batch
from simulations.evaluators.omaha import (
    BOARD_TRIPLES,
    OMAHA_TABLES,
    build_two_plus_three_tables,
    evaluate_omaha,
    evaluate_omaha_batch,
    two_plus_three_values,
)

C = Category
R = Rank
DECK = np.arange(52, dtype=np.int8)


def reference_batch(hands: npt.NDArray[np.int8], hole: int) -> npt.NDArray[np.int32]:
    """Max over every (two hole, three board) choice, each valued by ``evaluate_high_batch``."""
    best = np.zeros(hands.shape[0], dtype=np.int32)
    for pair in itertools.combinations(range(hole), 2):
        for triple in itertools.combinations(range(hole, hole + 5), 3):
            columns = list(pair + triple)
            best = np.maximum(best, evaluate_high_batch(hands[:, columns], check=False))
    return best


# --- rule texts -----------------------------------------------------------------------------------


def test_exactly_three_board_cards_no_royal_from_the_board() -> None:
    """Rules 002_376df91f076a6501.txt, 'Omaha hold 'em': "exactly three of the five cards on the
    board, plus exactly two of his own cards" — one spade in the hole cannot complete the
    board's four to a royal flush, and no straight or pair is left."""
    hand = evaluate_omaha("Ts 3c 4c 5h", "As Ks Qs Js 2d")
    assert hand.category is C.HIGH_CARD
    assert hand.value == pack_value(C.HIGH_CARD, R.ACE, R.KING, R.QUEEN, R.TEN, R.FIVE)
    # The same cards in hold'em make the royal flush.
    assert evaluate_high("Ts 3c As Ks Qs Js 2d").name == "Royal flush"


def test_exactly_two_hole_cards_four_aces_are_a_pair() -> None:
    """Rules 002_376df91f076a6501.txt, 'plus exactly two of his own cards': four aces in the
    hole play as two, here aces and kings from the board."""
    hand = evaluate_omaha("As Ad Ah Ac", "Kd Kc 7s 5h 2c")
    assert hand.name == "Two pair, Aces and Kings"
    assert hand.value == pack_value(C.TWO_PAIR, R.ACE, R.KING, R.SEVEN)


def test_board_quads_play_as_three() -> None:
    """Rules 002_376df91f076a6501.txt, 'exactly three of the five cards on the board': four nines
    on the board play as three, so pocket aces make nines full of aces, not four nines."""
    assert evaluate_omaha("As Ad 4c 3h", "9h 9d 9c 9s Kd").name == "Nines full of Aces"
    assert evaluate_high("As Ad 9h 9d 9c 9s Kd").name == "Four Nines"
    # One nine in the hole with three from the board is four of a kind.
    assert evaluate_omaha("9s 8d 4c 4h", "9h 9d 9c Kd 2s").name == "Four Nines"


def test_five_hole_cards_same_showdown_rule() -> None:
    """Rules 002_376df91f076a6501.txt, 'each player gets five cards instead of four. The same rules
    apply for showdown: each player must use two of his cards with three of the community cards'."""
    hand = evaluate_omaha("Ah Kh 2c 3d 4s", "Qh Jh Th 2d 2h")
    assert hand.name == "Royal flush"
    only_one_heart = evaluate_omaha("Ah Kc 2c 3d 4s", "Qh Jh Th 9h 8h")
    assert only_one_heart.name == "Ace-high straight"


def test_aces_high_in_the_high_half() -> None:
    """Rules 002_376df91f076a6501.txt, 'In high-low split games, aces count as both high and low':
    for the high hand A-K-Q-J-T is the best straight and A-2-3-4-5 the smallest."""
    assert evaluate_omaha("As Kd 7c 7h", "Qh Jc Td 3s 2c").name == "Ace-high straight"
    assert evaluate_omaha("As 2d Qc Qh", "3h 4c 5d 9s Jc").name == "Five-high straight"


def test_batch_agrees_on_golden_hands() -> None:
    hands = [("Ts 3c 4c 5h", "As Ks Qs Js 2d"), ("As Ad Ah Ac", "Kd Kc 7s 5h 2c")]
    rows = np.array([parse_cards(h + " " + b) for h, b in hands], dtype=np.int8)
    expected = [evaluate_omaha(h, b).value for h, b in hands]
    assert evaluate_omaha_batch(rows).tolist() == expected


# --- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hole", "board", "message"),
    [
        ("As Kd Qc", "2c 3d 4h 5s 6c", "4 or 5 hole cards, got 3"),
        ("As Kd Qc Jh Th 9h", "2c 3d 4h 5s 6c", "4 or 5 hole cards, got 6"),
        ("As Kd Qc Jh", "2c 3d 4h 5s", "board has 5 cards, got 4"),
        ("As Kd Qc Jh", "2c 3d 4h 5s As", "duplicate card As"),
        ("As Kd Qc Jk", "2c 3d 4h 5s 6c", "joker"),
    ],
)
def test_bad_hands_are_refused(hole: str, board: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate_omaha(hole, board)


def test_bad_batches_are_refused() -> None:
    good = np.array([parse_cards("As Kd Qc Jh 2c 3d 4h 5s 6c")], dtype=np.int8)
    with pytest.raises(ValueError, match=r"\(n, 9\)"):
        evaluate_omaha_batch(good[:, :8])
    with pytest.raises(ValueError, match="4 or 5"):
        evaluate_omaha_batch(good, hole_cards=3)
    twice = good.copy()
    twice[0, 8] = twice[0, 0]
    with pytest.raises(ValueError, match="hand 0 holds As twice"):
        evaluate_omaha_batch(twice)
    joker = good.copy()
    joker[0, 8] = 52
    with pytest.raises(ValueError, match="joker"):
        evaluate_omaha_batch(joker)
    with pytest.raises(ValueError, match="integer"):
        evaluate_omaha_batch(good.astype(float))


# --- kernel against the reference -----------------------------------------------------------------


def test_tables_rebuild_identically_and_are_read_only() -> None:
    fresh = build_two_plus_three_tables()
    for name in ("pair_class", "triple_class", "values", "flush_values"):
        assert np.array_equal(getattr(fresh, name), getattr(OMAHA_TABLES, name))
        assert not getattr(OMAHA_TABLES, name).flags.writeable
    assert OMAHA_TABLES.values.nbytes < 200_000  # small enough to stay in cache


@pytest.mark.slow
def test_batch_equals_reference_on_a_million_hands() -> None:
    hands = deal(np.random.default_rng(20_240_611), DECK, 1_000_000, 9)
    ours = evaluate_omaha_batch(hands, check=False)
    reference = reference_batch(hands, 4)
    mismatch = np.flatnonzero(ours != reference)
    assert mismatch.size == 0, f"hand {hands[mismatch[0]].tolist()}"
    assert len(np.unique(ours >> 20)) == 9  # every category occurs


def test_batch_equals_reference_five_hole_cards() -> None:
    hands = deal(np.random.default_rng(7), DECK, 200_000, 10)
    assert np.array_equal(evaluate_omaha_batch(hands, hole_cards=5), reference_batch(hands, 5))


def test_batch_equals_scalar_reference() -> None:
    hands = deal(np.random.default_rng(8), DECK, 1_000, 9)
    batch = evaluate_omaha_batch(hands)
    scalar = [evaluate_omaha(row[:4].tolist(), row[4:].tolist()).value for row in hands]
    assert batch.tolist() == scalar


def test_flush_heavy_deals() -> None:
    """Deals from the hearts and spades alone: nearly every board holds three of a suit, so the
    flush path runs on almost every hand."""
    two_suits = np.array([c for c in range(52) if c & 3 in (2, 3)], dtype=np.int8)
    hands = deal(np.random.default_rng(9), two_suits, 100_000, 9)
    ours = evaluate_omaha_batch(hands)
    assert np.array_equal(ours, reference_batch(hands, 4))
    assert np.mean((ours >> 20) == C.FLUSH) > 0.2


def test_reference_comparison_can_fail() -> None:
    """A wrong table entry is caught: the check compares real values, not itself."""
    hands = deal(np.random.default_rng(10), DECK, 2_000, 9)
    broken = OMAHA_TABLES.values.copy()
    broken[broken > 0] -= 1
    broken.setflags(write=False)  # the same array type as the shipped tables: no recompile
    out = np.empty(hands.shape[0], dtype=np.int32)
    t = OMAHA_TABLES
    two_plus_three_values(
        hands, 4, BOARD_TRIPLES, t.pair_class, t.triple_class, broken, t.flush_values, out
    )
    assert not np.array_equal(out, reference_batch(hands, 4))
