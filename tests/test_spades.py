"""Spades in the hole: Chicago, Little Chicago, The Bitch (simulations/evaluators/spades.py)."""

from __future__ import annotations

import numpy as np
import pytest

from simulations.cards import parse_cards
from simulations.dealing import deal
from simulations.evaluators.hand_enumeration import all_hands
from simulations.evaluators.spades import (
    QUEEN_OF_SPADES,
    SpadeRule,
    best_spade,
    queen_of_spades_shown,
    spade_in_hole,
    spade_values_batch,
)

BIG, LITTLE, BITCH = SpadeRule.BIG_CHICAGO, SpadeRule.LITTLE_CHICAGO, SpadeRule.THE_BITCH
DECK = np.arange(52, dtype=np.int8)


def spade_order(rule: SpadeRule) -> list[str]:
    """The thirteen spades, best first under ``rule``."""
    spades = [f"{r}s" for r in "23456789TJQKA"]
    return sorted(spades, key=lambda s: -spade_in_hole(s, rule).value)


def test_chicago_high_spade_in_the_hole() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'highest-ranking spade “in the hole”': the high hand
    splits the pot with the highest spade among a player's downcards."""
    assert spade_order(BIG)[:3] == ["As", "Ks", "Qs"] and spade_order(BIG)[-1] == "2s"
    holes = ["Kd 9s 3s", "Ah Jc 4s", "Ts 2c 7h"]
    assert best_spade(holes, BIG) == 2
    assert spade_in_hole(holes[2], BIG).name == "Ten of Spades"
    assert spade_in_hole("Ah Kh Qd", BIG).value == 0
    assert best_spade(["Ah Kh Qd", "2c 3d 4h"], BIG) is None


def test_little_chicago_low_spade() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Little Chicago, in which the lowest ranking spade in the
    hole splits the pot': the ace of spades counts lowest, then the deuce."""
    assert spade_order(LITTLE)[:3] == ["As", "2s", "3s"] and spade_order(LITTLE)[-1] == "Ks"
    holes = ["Kd 9s 3s", "Ah Jc 4s", "Ts 2c 7h"]
    assert best_spade(holes, LITTLE) == 0
    assert spade_in_hole(holes[0], LITTLE).name == "Three of Spades"
    assert best_spade(["Kd 9s 3s", "As Kh"], LITTLE) == 1


def test_the_bitch() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'the Queen of Spades is designated as the highest ranking
    Spade, followed by the Ace, King, Jack, and so on'; a queen of spades dealt face up means
    everyone turns in their cards and the deal is replayed."""
    expected = ["Qs", "As", "Ks", "Js", "Ts", "9s", "8s", "7s", "6s", "5s", "4s", "3s", "2s"]
    assert spade_order(BITCH) == expected
    assert best_spade(["As 2d", "Qs 3d", "Ks 4d"], BITCH) == 1
    assert spade_in_hole("Qs 3d", BITCH).name == "Queen of Spades"
    assert queen_of_spades_shown("2c Qs 9d") and not queen_of_spades_shown("2c Qd 9s")
    assert parse_cards("Qs")[0] == QUEEN_OF_SPADES


def test_batch_against_scalar() -> None:
    """Every three-card hole, and a million random ones, under each rule."""
    every = np.concatenate([chunk.copy() for chunk in all_hands(3)])
    random = deal(np.random.default_rng(61), DECK, 1_000_000, 3)
    for rule in SpadeRule:
        values = spade_values_batch(every, rule)
        assert values.tolist() == [spade_in_hole(row, rule).value for row in every.tolist()]
        table = np.zeros(52**3, dtype=np.int32)
        table[every.astype(np.int64) @ np.array([52**2, 52, 1])] = values
        canonical = np.sort(random, axis=1).astype(np.int64) @ np.array([52**2, 52, 1])
        assert np.array_equal(spade_values_batch(random, rule), table[canonical])
        assert np.count_nonzero(values) == 22_100 - 9_139  # C(39,3) holes hold no spade


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="duplicate card As"):
        spade_in_hole("As As")
    with pytest.raises(ValueError, match="a joker cannot be ranked"):
        spade_in_hole("As Jk", BITCH)
    with pytest.raises(ValueError, match="hand 0 holds a joker"):
        spade_values_batch(np.array([[52, 1]]))
    assert spade_in_hole("").name == "no spade in the hole"
