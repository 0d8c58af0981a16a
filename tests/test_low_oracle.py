"""Our lowball and badugi values order 100,000 random hands each exactly as pokerkit does.

pokerkit ranks a five-card low with a lookup whose ``get_entry(cards).index`` is smaller for a
better low (``low = True`` on the hand classes), and ``from_game`` keeps the best five-card
entry over every subset (badugi: over subsets of four cards down to one).  Its entry depends
on the ranks and on whether the cards are suited (for badugi: whether they are of different
suits), so each such class is looked up once, on a representative hand, and every subset of
every random hand is mapped to its class with array operations; a smaller sample checks this
against ``from_game`` itself.

* ``EightOrBetterLowHand``: ace-to-five, 8 or better (no entry: no low);
* ``RegularLowHand``: ace-to-five;
* ``StandardLowHand``: deuce-to-seven; and ace-to-six too, on cards relabelled one rank up
  (ace as deuce, deuce as three, ..., king as ace), which moves the ace below the deuce and
  leaves straights and flushes as they are;
* ``BadugiHand``: badugi.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pokerkit
import pytest

from simulations.dealing import deal
from simulations.evaluators.badugi import evaluate_badugi_batch
from simulations.evaluators.lowball import Lowball, Qualifier, evaluate_low_batch
from tests.pokerkit_oracle import PK_CARDS, assert_same_order

N_HANDS = 100_000
SEED = 20240612
DECK = np.arange(52, dtype=np.int8)
MISSING = -(1 << 40)  # below every pokerkit key: no entry (no low)
CODES = np.arange(52)
STANDARD_RANK = CODES // 4
# Ace-to-six on pokerkit's deuce-to-seven lookup: every rank moves one up, the ace to the bottom.
ACE_LOW_RANK = (CODES // 4 + 1) % 13


def relabelled(codes: npt.NDArray[np.int64], ranks: npt.NDArray[np.int64]) -> list[object]:
    return [PK_CARDS[int(ranks[c]) * 4 + int(c) % 4] for c in codes]


# --- five-card lows -----------------------------------------------------------------------------


def five_card_classes(lookup: object) -> npt.NDArray[np.int64]:
    """pokerkit's key (minus its index: larger is better) for every class of five cards,
    indexed by ``sum(rank_i * 13**i) + 13**5 * suited`` over the sorted ranks."""
    table = np.full(2 * 13**5, MISSING, dtype=np.int64)
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        distinct = len(set(ranks)) == 5
        for suited in (False, True) if distinct else (False,):
            # Repeated ranks take successive suits; five distinct unsuited ranks break the suit
            # on the last card.
            suits = [ranks[:i].count(r) for i, r in enumerate(ranks)]
            if distinct and not suited:
                suits[-1] = 1
            cards = [PK_CARDS[r * 4 + s] for r, s in zip(ranks, suits, strict=True)]
            entry = lookup.get_entry_or_none(cards)  # type: ignore[attr-defined]
            if entry is not None:
                index = sum(r * 13**i for i, r in enumerate(ranks)) + 13**5 * suited
                table[index] = -entry.index
    return table


def best_five_keys(
    hands: npt.NDArray[np.int8], ranks: npt.NDArray[np.int64], table: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The best pokerkit key over every five-card subset of each hand."""
    best = np.full(hands.shape[0], MISSING, dtype=np.int64)
    for subset in itertools.combinations(range(hands.shape[1]), 5):
        cards = hands[:, list(subset)].astype(np.int64)
        sorted_ranks = np.sort(ranks[cards], axis=1)
        suits = cards % 4
        suited = np.all(suits == suits[:, :1], axis=1)
        index = sorted_ranks @ (13 ** np.arange(5)) + 13**5 * suited
        best = np.maximum(best, table[index])
    return best


@pytest.fixture(scope="module")
def tables() -> dict[str, npt.NDArray[np.int64]]:
    return {
        "eight": five_card_classes(pokerkit.EightOrBetterLowHand.lookup),
        "regular": five_card_classes(pokerkit.RegularLowHand.lookup),
        "standard": five_card_classes(pokerkit.StandardLowHand.lookup),
    }


CASES: dict[str, tuple[Lowball, Qualifier | None, str, npt.NDArray[np.int64], type]] = {
    "8 or better": (
        Lowball.ACE_TO_FIVE,
        Qualifier.EIGHT_OR_BETTER,
        "eight",
        STANDARD_RANK,
        pokerkit.EightOrBetterLowHand,
    ),
    "ace-to-five": (Lowball.ACE_TO_FIVE, None, "regular", STANDARD_RANK, pokerkit.RegularLowHand),
    "deuce-to-seven": (
        Lowball.DEUCE_TO_SEVEN,
        None,
        "standard",
        STANDARD_RANK,
        pokerkit.StandardLowHand,
    ),
    "ace-to-six": (Lowball.ACE_TO_SIX, None, "standard", ACE_LOW_RANK, pokerkit.StandardLowHand),
}


@pytest.mark.parametrize("cards", [7, 5])
@pytest.mark.parametrize("case", list(CASES))
def test_lows_order_100000_hands_as_pokerkit(
    case: str, cards: int, tables: dict[str, npt.NDArray[np.int64]]
) -> None:
    system, qualifier, table, ranks, _ = CASES[case]
    hands = deal(np.random.default_rng(SEED + cards), DECK, N_HANDS, cards)
    ours = evaluate_low_batch(hands, system, qualifier=qualifier)
    theirs = best_five_keys(hands, ranks, tables[table])
    assert_same_order(ours, theirs)
    # The sample means something: many classes, and under the qualifier both outcomes.
    assert len(np.unique(ours)) > (50 if qualifier else 2_000)
    if qualifier is not None:
        assert 0 < int((theirs == MISSING).sum()) < N_HANDS


@pytest.mark.parametrize("case", list(CASES))
def test_class_lookup_matches_from_game(
    case: str, tables: dict[str, npt.NDArray[np.int64]]
) -> None:
    """The shortcut above equals pokerkit's own ``from_game`` (best of the 21 subsets)."""
    _, _, table, ranks, hand_class = CASES[case]
    hands = deal(np.random.default_rng(SEED - 1), DECK, 400, 7)
    fast = best_five_keys(hands, ranks, tables[table])
    for row, key in zip(hands.tolist(), fast.tolist(), strict=True):
        hand = hand_class.from_game_or_none(relabelled(np.array(row), ranks))
        assert (MISSING if hand is None else -hand.entry.index) == key


# --- badugi -------------------------------------------------------------------------------------

BADUGI_BASE = 14  # rank slots hold 0..12, or 13 for an unused slot


def badugi_classes() -> npt.NDArray[np.int64]:
    """pokerkit's badugi key for every class of 1 to 4 cards: sorted ranks padded with 13,
    and whether the cards are all of different suits."""
    lookup = pokerkit.BadugiHand.lookup
    table = np.full(2 * BADUGI_BASE**4, MISSING, dtype=np.int64)
    for size in range(1, 5):
        for ranks in itertools.combinations_with_replacement(range(13), size):
            for rainbow in (True, False) if size > 1 else (True,):
                suits = list(range(size)) if rainbow else [0, *range(size - 1)]
                cards = [PK_CARDS[r * 4 + s] for r, s in zip(ranks, suits, strict=True)]
                try:
                    entry = lookup.get_entry(cards)
                except ValueError:
                    continue
                padded = list(ranks) + [13] * (4 - size)
                index = sum(r * BADUGI_BASE**i for i, r in enumerate(padded))
                table[index + BADUGI_BASE**4 * rainbow] = -entry.index
    return table


def best_badugi_keys(
    hands: npt.NDArray[np.int8], table: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    best = np.full(hands.shape[0], MISSING, dtype=np.int64)
    for size in range(1, 5):
        for subset in itertools.combinations(range(4), size):
            cards = hands[:, list(subset)].astype(np.int64)
            padded = np.hstack([np.sort(cards // 4, axis=1), np.full((len(cards), 4 - size), 13)])
            suits = np.sort(cards % 4, axis=1)
            rainbow = np.all(np.diff(suits, axis=1) != 0, axis=1)
            index = padded @ (BADUGI_BASE ** np.arange(4)) + BADUGI_BASE**4 * rainbow
            best = np.maximum(best, table[index])
    return best


@pytest.fixture(scope="module")
def badugi_table() -> npt.NDArray[np.int64]:
    return badugi_classes()


def test_badugi_orders_100000_hands_as_pokerkit(badugi_table: npt.NDArray[np.int64]) -> None:
    hands = deal(np.random.default_rng(SEED + 4), DECK, N_HANDS, 4)
    ours = evaluate_badugi_batch(hands)
    theirs = best_badugi_keys(hands, badugi_table)
    assert_same_order(ours, theirs)
    assert len(np.unique(ours)) > 1_000
    assert set(np.unique(ours >> 13).tolist()) == {1, 2, 3, 4}


def test_badugi_class_lookup_matches_from_game(badugi_table: npt.NDArray[np.int64]) -> None:
    hands = deal(np.random.default_rng(SEED - 4), DECK, 1_000, 4)
    fast = best_badugi_keys(hands, badugi_table)
    for row, key in zip(hands.tolist(), fast.tolist(), strict=True):
        assert -pokerkit.BadugiHand.from_game([PK_CARDS[c] for c in row]).entry.index == key


def test_relabelling_moves_the_ace_below_the_deuce() -> None:
    wheel = relabelled(np.array([48, 0, 4, 8, 12]), ACE_LOW_RANK)  # Ac 2c 3c 4c 5c
    assert [repr(c) for c in wheel] == ["2c", "3c", "4c", "5c", "6c"]
    assert str(pokerkit.StandardLowHand(wheel)).startswith("Straight flush")
