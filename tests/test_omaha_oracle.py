"""Our Omaha high kernel orders 100,000 random hands exactly as pokerkit does.

pokerkit's ``OmahaHoldemHand.from_game`` takes the best of the 60 (two hole, three board)
choices, each valued by ``OmahaHoldemHand.lookup``: a dictionary from (product of one prime per
rank, all five suited) to an entry whose ``index`` orders hands.  ``from_game`` costs about
2 ms a hand, so the 100,000-hand comparison reads that same dictionary for all 6,000,000
choices at once with arrays; a smaller sample checks the shortcut against ``from_game``.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pokerkit
import pytest

from simulations.dealing import deal
from simulations.evaluators.omaha import evaluate_omaha_batch
from tests.pokerkit_oracle import PK_CARDS, assert_from_game_indices, assert_same_order

N_HANDS = 100_000
SEED = 20_240_612
DECK = np.arange(52, dtype=np.int8)
LOOKUP = pokerkit.OmahaHoldemHand.lookup


def lookup_arrays() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """pokerkit's per-card prime, and its entries as sorted keys (2 * product + suited)."""
    multipliers = LOOKUP._Lookup__multipliers  # rank -> prime
    primes = np.array([multipliers[card.rank] for card in PK_CARDS], dtype=np.int64)
    entries = LOOKUP._Lookup__entries  # (product, suited) -> Entry
    keys = np.array([2 * product + suited for product, suited in entries], dtype=np.int64)
    index = np.array([entry.index for entry in entries.values()], dtype=np.int64)
    order = np.argsort(keys)
    return primes, keys[order], index[order]


def pokerkit_keys(hands: npt.NDArray[np.int8], hole: int = 4) -> npt.NDArray[np.int64]:
    """pokerkit's strength index of each hand's best (two hole, three board) choice."""
    primes, keys, index = lookup_arrays()
    codes = hands.astype(np.int64)
    best = np.full(hands.shape[0], -1, dtype=np.int64)
    for pair in itertools.combinations(range(hole), 2):
        for triple in itertools.combinations(range(hole, hole + 5), 3):
            five = codes[:, list(pair + triple)]
            product = np.prod(primes[five], axis=1)
            suited = (five & 3 == five[:, :1] & 3).all(axis=1)
            key = 2 * product + suited
            at = np.searchsorted(keys, key)
            assert np.all(keys[np.minimum(at, keys.size - 1)] == key), "a hand pokerkit lacks"
            best = np.maximum(best, index[at])
    return best


@pytest.mark.slow
def test_orders_100000_random_omaha_hands_exactly_as_pokerkit() -> None:
    hands = deal(np.random.default_rng(SEED), DECK, N_HANDS, 9)
    ours = evaluate_omaha_batch(hands)
    theirs = pokerkit_keys(hands)
    assert_same_order(ours, theirs)
    assert len(np.unique(ours >> 20)) == 9
    assert len(np.unique(ours)) == len(np.unique(theirs)) > 3_000


def test_five_hole_cards_same_order_as_pokerkit() -> None:
    hands = deal(np.random.default_rng(SEED + 1), DECK, 20_000, 10)
    assert_same_order(evaluate_omaha_batch(hands, hole_cards=5), pokerkit_keys(hands, hole=5))


def test_shortcut_matches_from_game() -> None:
    """The array shortcut gives ``OmahaHoldemHand.from_game``'s own entries."""
    sample = deal(np.random.default_rng(SEED + 2), DECK, 400, 9)
    assert_from_game_indices(pokerkit.OmahaHoldemHand, sample, pokerkit_keys(sample), hole=4)
