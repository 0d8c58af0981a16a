"""Stud upcards: bring-in and first to act (simulations/evaluators/stud_showing.py)."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from simulations.cards import parse_cards
from simulations.dealing import deal
from simulations.evaluators.hand_enumeration import all_hands
from simulations.evaluators.stud_showing import (
    BringIn,
    bring_in,
    bring_in_order,
    first_to_act,
    showing_high,
    showing_low,
    showing_ranking,
    showing_values_batch,
)

DECK = np.arange(52, dtype=np.int8)


def test_stud_sample_deal_bring_in() -> None:
    """Rules 003_6e018542f14946f8.txt, 'Sample deal': Bob 4♠, Carol K♦, David 4♦, Alice 9♣;
    'David is required to start the betting with a $1 bring-in (his 4♦ is lower than Bob’s 4♠
    by suit)'."""
    assert bring_in("4s Kd 4d 9c") == 2
    assert bring_in_order(parse_cards("4d")[0]) > bring_in_order(parse_cards("4s")[0])


def test_stud_sample_deal_first_to_act() -> None:
    """Rules 003_6e018542f14946f8.txt, 'Sample deal': K-9 against K-J, Carol acts first; then
    Alice's pair of kings beats Carol's no pair; then 9-K-K-3 against K-J-T-T: 'the pair of kings
    is still higher than Carol’s pair of tens'."""
    carol, alice = ["Kd Jc", "Kd Jc Th", "Kd Jc Th Td"], ["9c Kh", "9c Kh Kc", "9c Kh Kc 3s"]
    assert first_to_act([carol[0], alice[0]]) == 0
    assert first_to_act([carol[1], alice[1]]) == 1
    assert first_to_act([carol[2], alice[2]]) == 1
    assert showing_high(alice[0]).name == "K-9 high"
    assert showing_high(carol[0]).name == "K-J high"
    assert showing_high(alice[2]).name == "Pair of Kings (K-K-9-3)"
    assert showing_high(carol[2]).name == "Pair of Tens (T-T-K-J)"


def test_no_straights_or_flushes_showing() -> None:
    """Rules 003_6e018542f14946f8.txt, 'no straights, flushes, or full houses will count':
    four suited connectors show only a high card; two pair, trips and quads do count."""
    assert showing_high("9h Th Jh Qh").category == "high card"
    assert showing_high("2c 2d") > showing_high("9h Th Jh Qh")
    assert showing_high("2c 2d 3h 3s") > showing_high("Ac Ad Kh Qs")
    assert showing_high("2c 2d 2h 3s") > showing_high("Ac Ad Kh Kd")
    assert showing_high("2c 2d 2h 2s") > showing_high("Ac Ad Ah Kd")
    assert showing_high("2c 2d 2h 3s").name == "Three Deuces (2-2-2-3)"
    assert showing_high("Ac Ad Kh Kd").name == "Two pair, Aces and Kings"
    assert showing_high("5c 5d 5h 5s").name == "Four Fives"


def test_ties_go_to_the_first_in_rotation() -> None:
    """Rules 003_6e018542f14946f8.txt, 'the one first in clockwise rotation from the dealer acts
    first': suits do not count after the first round."""
    assert first_to_act(["Qc Td", "Kd Jc", "Ks Jd"]) == 1
    assert first_to_act(["9c 9d", "Ks Jd", "9h 9s"]) == 0
    assert first_to_act(["2c 3d", "9h 9s 4c", "9c 9d 4h"]) == 1


def test_razz_sample_deal() -> None:
    """Rules 004_53770b236994c31b.txt, 'sample Razz deal': Bob's J pays the bring-in ('aces are
    always low cards in Razz, even for the purpose of assigning the bring-in'); then David's
    4-A beats Alice's 4-2 and Carol's pair of 3s is 'the worst hand showing'; then Alice's
    8-4-2 is lowest; then Carol's 3-3-6-A beats Alice's pair of 8s.  Suits are never of
    consequence in Razz, so any distinct cards will do."""
    assert bring_in("Jc 3d Ah 4s", BringIn.HIGH_CARD) == 0
    assert bring_in("Jc 3d Ah 4s", BringIn.LOW_CARD) == 1  # in high stud the 3 would pay
    second = ["Jc 9d", "3d 3h", "Ah 4c", "4s 2d"]  # Bob, Carol, David, Alice
    assert first_to_act(second, low=True) == 2
    values = [showing_low(cards).value for cards in second]
    assert values[2] > values[3] > values[0] > values[1]
    assert showing_low("Ah 4c").name == "4-A low"
    third = ["3d 3h Ac", "Ah 4c Kd", "4s 2d 8h"]  # Carol, David, Alice
    assert first_to_act(third, low=True) == 2 and showing_low(third[2]).name == "8-4-2 low"
    fourth = ["3d 3h Ac 6s", "4s 2d 8h 8c"]
    assert first_to_act(fourth, low=True) == 0
    assert showing_low(fourth[0]).name == "Pair of Threes (3-3-6-A)"


def test_stud_eight_betting_is_high() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'highest showing poker hand': stud eight-or-better bets as
    high stud, low card paying the bring-in."""
    assert bring_in("Ac 2d Kh", BringIn.LOW_CARD) == 1
    assert first_to_act(["Ac 2d", "Kh Kd"]) == 1


def test_bring_in_ties_by_suit() -> None:
    """Rules 003_6e018542f14946f8.txt, 'suit may be used to break the tie': clubs lowest, then
    diamonds, hearts, spades; the razz bring-in goes to the highest card, so to the highest
    suit among equal ranks."""
    assert bring_in("2s 2h 2d 2c") == 3
    assert bring_in("Kc Ks Kd", BringIn.HIGH_CARD) == 1
    assert bring_in("Ac 2c") == 1  # the ace is high in stud
    assert bring_in("Ac 2c", BringIn.HIGH_CARD) == 1  # and low in razz
    order = sorted(range(52), key=bring_in_order)
    assert order[-1] == parse_cards("2c")[0] and order[0] == parse_cards("As")[0]
    razz = sorted(range(52), key=lambda c: bring_in_order(c, BringIn.HIGH_CARD))
    assert razz[-1] == parse_cards("Ks")[0] and razz[0] == parse_cards("Ac")[0]


def test_every_showing_hand_batch_against_scalar() -> None:
    """All 294,203 sets of one to four upcards, in two card orders, high and low, against the
    one-hand rules (which depend only on the ranks, so each rank multiset is ranked once)."""
    for cards in range(1, 5):
        hands = np.concatenate([chunk.copy() for chunk in all_hands(cards)])
        for low in (False, True):
            values = showing_values_batch(hands, low=low)
            assert np.array_equal(showing_values_batch(hands[:, ::-1], low=low), values)
            evaluate = showing_low if low else showing_high
            keys = np.sort(hands >> 2, axis=1).astype(np.int64) @ (13 ** np.arange(cards))
            unique_keys, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
            scalar = np.array([evaluate(hands[i].tolist()).value for i in first])
            assert np.array_equal(values, scalar[inverse])
            if cards == 4:
                assert unique_keys.size == 1_820  # rank multisets of four, at most four alike
            assert np.unique(values).size == unique_keys.size


def test_a_million_random_showings() -> None:
    """A million random four-card showings, through a complete table of rank multisets."""
    hands = deal(np.random.default_rng(51), DECK, 1_000_000, 4)
    for low in (False, True):
        values = showing_values_batch(hands, low=low)
        ranks = np.sort(hands >> 2, axis=1).astype(np.int64) @ (13 ** np.arange(4))
        table = {}
        for multiset in itertools.combinations_with_replacement(range(13), 4):
            if max(Counter(multiset).values()) <= 4:
                # Repeated ranks take successive suits.
                cards = [r * 4 + multiset[:i].count(r) for i, r in enumerate(multiset)]
                key = sum(r * 13**i for i, r in enumerate(multiset))
                table[key] = (showing_low if low else showing_high)(cards).value
        expected = np.array([table[k] for k in ranks.tolist()])
        assert np.array_equal(values, expected)


def test_showing_ranking_round_trip() -> None:
    for text in ("Ah", "Ah 2c", "9c Kh Kc 3s", "2c 2d 2h 2s", "Ac Ad 2c 2d"):
        for low in (False, True):
            ranking = (showing_low if low else showing_high)(text)
            again = showing_ranking(ranking.value, low=low)
            assert (again.name, again.category) == (ranking.name, ranking.category)
    assert showing_high("Ah").name == "A high" and showing_low("Ah").name == "A low"
    with pytest.raises(ValueError, match="not a showing value"):
        showing_ranking(0)


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="needs 1 to 4 cards, got 5"):
        showing_high("Ah Kh Qh Jh Th")
    with pytest.raises(ValueError, match="needs 1 to 4 cards, got 0"):
        showing_low("")
    with pytest.raises(ValueError, match="duplicate card Ah"):
        showing_high("Ah Ah")
    with pytest.raises(ValueError, match="a joker cannot be ranked"):
        bring_in("Ah Jk")
    with pytest.raises(ValueError, match="duplicate card 4s"):
        bring_in("4s 4s")
    with pytest.raises(ValueError, match="no player is showing"):
        first_to_act([])
    with pytest.raises(ValueError, match="hand 0 holds a joker"):
        showing_values_batch(np.array([[53, 1]]))
    with pytest.raises(ValueError, match="1 to 4 cards each, got 5"):
        showing_values_batch(np.zeros((1, 5), dtype=np.int8))
