"""Decks: the standard pack, stripped packs, jokers and shuffling (simulations/decks.py)."""

from __future__ import annotations

import numpy as np
import pytest

from simulations.cards import FIRST_JOKER, Rank, Suit, format_card, make_card, parse_cards
from simulations.decks import Deck


def ranks_in(deck: Deck) -> set[Rank]:
    """The ranks of the deck's standard cards, computed from the codes themselves."""
    return {Rank(c // 4) for c in deck.cards if c < FIRST_JOKER}


def assert_full_suits(deck: Deck) -> None:
    """Every rank present comes in all four suits, once each."""
    standard = [c for c in deck.cards if c < FIRST_JOKER]
    assert len(standard) == len(set(standard))
    for rank in ranks_in(deck):
        assert {c % 4 for c in standard if c // 4 == rank} == {int(s) for s in Suit}


# --- the standard pack --------------------------------------------------------------------------


def test_standard_deck_has_52_distinct_cards() -> None:
    deck = Deck.standard()
    assert deck.size == len(deck.cards) == 52
    assert sorted(deck.cards) == list(range(52))
    assert deck.joker_count == 0
    assert deck.ranks == tuple(Rank)
    assert deck == Deck.stripped()


def test_standard_deck_as_array_and_text() -> None:
    deck = Deck.standard()
    array = deck.as_array()
    assert array.dtype == np.int8
    assert array.tolist() == list(deck.cards)
    assert parse_cards(str(deck)) == deck.cards
    assert str(deck).split()[0] == format_card(deck.cards[0])


@pytest.mark.parametrize("jokers", [1, 2, 4])
def test_jokers_added(jokers: int) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'use of both Jokers': Anaconda adds jokers to the pack."""
    deck = Deck.standard(jokers=jokers)
    assert deck.size == 52 + jokers
    assert deck.joker_count == jokers
    assert sorted(c for c in deck.cards if c >= FIRST_JOKER) == list(range(52, 52 + jokers))
    assert sorted(c for c in deck.cards if c < FIRST_JOKER) == list(range(52))
    assert deck.ranks == tuple(Rank)
    assert str(deck).split().count("Jk") == jokers


def test_anaconda_nine_players_with_both_jokers() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'use of both Jokers': 8 players get 48 cards, 4 left over.

    With both jokers a 9th player gets the same six cards as the other eight.
    """
    assert Deck.standard().size - 8 * 6 == 4
    assert Deck.standard(jokers=2).size == 9 * 6


# --- stripped packs -----------------------------------------------------------------------------


def test_manila_keeps_seven_to_ace() -> None:
    """Rules 002_376df91f076a6501.txt, 'Manila': cards below the 7 removed, 'leaving 32 cards'."""
    expected = {Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING,
                Rank.ACE}  # fmt: skip
    for deck in (
        Deck.stripped("789TJQKA"),
        Deck.stripped(removed="23456"),
        Deck.stripped(range(5, 13)),
        Deck.stripped([Rank.SEVEN, Rank.EIGHT, "9", "10", "j", "Q", 11, Rank.ACE]),
    ):
        assert deck.size == 32
        assert ranks_in(deck) == expected
        assert deck.ranks == tuple(sorted(expected))
        assert_full_suits(deck)
        assert make_card(Rank.SIX, Suit.SPADES) not in deck.cards


def test_manila_with_sixes_restored() -> None:
    """Rules 002_376df91f076a6501.txt, 'Manila': sixes may be restored, 'making it 36 cards'."""
    deck = Deck.stripped("6789TJQKA")
    assert deck.size == 36
    assert min(deck.ranks) == Rank.SIX


def test_mexican_stud_removes_eights_nines_tens() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Mexican stud': 8s, 9s, 10s stripped and one joker added.

    The capture lost the rank symbols ('s, and 0s are stripped'); the paragraph's count of
    41 cards with the joker fixes them as the 8s, 9s and 10s.
    """
    deck = Deck.stripped(removed=["8", "9", "10"])
    assert deck.size == 40
    assert ranks_in(deck) == set(Rank) - {Rank.EIGHT, Rank.NINE, Rank.TEN}
    assert_full_suits(deck)
    with_joker = Deck.stripped(removed=[Rank.EIGHT, Rank.NINE, Rank.TEN], jokers=1)
    assert with_joker.size == 41
    assert with_joker.joker_count == 1
    assert set(with_joker.cards) == set(deck.cards) | {FIRST_JOKER}


def test_royal_holdem_keeps_ten_to_ace() -> None:
    """Rules 002_376df91f076a6501.txt, 'Royal hold 'em': the deck 'only contains tens, jacks,'..."""
    deck = Deck.stripped("TJQKA")
    assert deck.size == 20
    assert deck.ranks == (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
    assert_full_suits(deck)
    assert Deck.stripped(ranks=["10", "J", "Q", "K", "A"]) == deck


def test_spanish_eight_to_ace() -> None:
    """Rules 002_376df91f076a6501.txt, 'stripped deck may be used': Spain plays 'cards 8-A'."""
    deck = Deck.stripped("89TJQKA")
    assert deck.size == 28
    assert deck.ranks[0] == Rank.EIGHT


def test_ranks_and_removed_combine() -> None:
    deck = Deck.stripped("9TJQKA", removed="TK")
    assert deck.ranks == (Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.ACE)
    assert deck.size == 16


def test_repeated_ranks_count_once() -> None:
    assert Deck.stripped("AAKK") == Deck.stripped("AK")


def test_stripped_cards_are_in_rank_then_suit_order() -> None:
    deck = Deck.stripped("TJQKA", jokers=2)
    assert list(deck.cards[:-2]) == sorted(deck.cards[:-2])
    assert deck.cards[:4] == parse_cards("Tc Td Th Ts")
    assert deck.cards[-2:] == (52, 53)


# --- bad inputs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("jokers", [-1, 5, 100])
def test_bad_joker_counts(jokers: int) -> None:
    with pytest.raises(ValueError, match="jokers"):
        Deck.standard(jokers=jokers)
    with pytest.raises(ValueError, match="jokers"):
        Deck.stripped("TJQKA", jokers=jokers)


@pytest.mark.parametrize("rank", ["Z", "1", "11", "", "Ts", 13, -1])
def test_unknown_ranks(rank: str | int) -> None:
    with pytest.raises(ValueError, match="not a rank"):
        Deck.stripped([rank])
    with pytest.raises(ValueError, match="not a rank"):
        Deck.stripped(removed=[rank])


def test_all_ranks_removed() -> None:
    with pytest.raises(ValueError, match="at least one rank"):
        Deck.stripped(removed=list(Rank))
    with pytest.raises(ValueError, match="at least one rank"):
        Deck.stripped("TJQKA", removed="AKQJT")
    with pytest.raises(ValueError, match="at least one rank"):
        Deck.stripped([])


def test_deck_constructor_checks_cards() -> None:
    with pytest.raises(ValueError, match="at least one card"):
        Deck(())
    with pytest.raises(ValueError, match="duplicate card As"):
        Deck((51, 0, 51))


# --- shuffling ----------------------------------------------------------------------------------


@pytest.mark.parametrize("deck", [Deck.standard(), Deck.standard(jokers=2), Deck.stripped("TJQKA")])
def test_shuffled_is_a_permutation(deck: Deck) -> None:
    before = deck.cards
    shuffled = deck.shuffled(np.random.default_rng(7))
    assert shuffled.dtype == np.int8
    assert shuffled.shape == (deck.size,)
    assert sorted(shuffled.tolist()) == sorted(deck.cards)
    assert deck.cards == before  # the pack itself is untouched


def test_shuffled_is_reproducible_from_the_seed() -> None:
    deck = Deck.standard()
    a = deck.shuffled(np.random.default_rng(12345))
    b = deck.shuffled(np.random.default_rng(12345))
    assert np.array_equal(a, b)
    rng = np.random.default_rng(99)
    first, second = deck.shuffled(rng), deck.shuffled(rng)
    again = np.random.default_rng(99)
    assert np.array_equal(first, deck.shuffled(again))
    assert np.array_equal(second, deck.shuffled(again))


def test_different_seeds_give_different_orders() -> None:
    deck = Deck.standard()
    orders = {tuple(deck.shuffled(np.random.default_rng(seed)).tolist()) for seed in range(20)}
    assert len(orders) == 20
    assert tuple(deck.cards) not in orders


def test_successive_shuffles_differ() -> None:
    deck = Deck.standard()
    rng = np.random.default_rng(3)
    assert not np.array_equal(deck.shuffled(rng), deck.shuffled(rng))


def test_shuffle_positions_look_uniform() -> None:
    """Each card lands in the top position about equally often (a loose, seeded check)."""
    deck = Deck.stripped("QKA")  # 12 cards
    rng = np.random.default_rng(2024)
    tops = np.array([deck.shuffled(rng)[0] for _ in range(6000)])
    counts = np.array([np.count_nonzero(tops == c) for c in deck.cards])
    assert counts.sum() == 6000
    assert counts.min() > 380 and counts.max() < 620  # expected 500 each
