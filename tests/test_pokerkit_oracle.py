"""Our batch evaluator orders 100,000 random 7-card hands exactly as pokerkit does.

pokerkit's ``StandardHighHand.from_game`` takes the best of the 21 five-card hands, each
valued by ``StandardHighHand.lookup.get_entry``; an entry's ``index`` orders five-card hands
(greater is stronger, equal indices tie).  Calling the lookup directly on the 21 subsets is the
same computation about three times faster; a smaller sample checks it against ``from_game``.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pokerkit
import pytest

from simulations.evaluators.high import evaluate_high_batch
from tests.pokerkit_oracle import PK_CARDS, assert_from_game_indices, assert_same_order

N_HANDS = 100_000
SEED = 20240607
SUBSETS = list(itertools.combinations(range(7), 5))


def deal(n: int, seed: int) -> npt.NDArray[np.int8]:
    """``n`` random 7-card hands of distinct cards from one seeded generator."""
    rng = np.random.default_rng(seed)
    return rng.random((n, 52)).argsort(axis=1)[:, :7].astype(np.int8)


def pokerkit_keys(hands: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    """pokerkit's strength index of each hand's best five cards."""
    get_entry = pokerkit.StandardHighHand.lookup.get_entry
    keys = np.empty(len(hands), dtype=np.int64)
    for i, row in enumerate(hands.tolist()):
        cards = [PK_CARDS[c] for c in row]
        keys[i] = max(get_entry([cards[j] for j in s]).index for s in SUBSETS)
    return keys


@pytest.mark.slow
def test_orders_100000_random_hands_exactly_as_pokerkit() -> None:
    hands = deal(N_HANDS, SEED)
    ours = evaluate_high_batch(hands)
    theirs = pokerkit_keys(hands)
    assert_same_order(ours, theirs)
    # The sample is rich enough to mean something: every category and thousands of classes.
    assert len(np.unique(ours >> 20)) == 9
    assert len(np.unique(ours)) == len(np.unique(theirs)) > 3_000


def test_direct_lookup_matches_from_game() -> None:
    """The fast pokerkit path above equals ``StandardHighHand.from_game`` (2 hole + 5 board)."""
    sample = deal(1_000, SEED + 1)
    assert_from_game_indices(pokerkit.StandardHighHand, sample, pokerkit_keys(sample), hole=2)


def test_card_translation() -> None:
    assert [repr(PK_CARDS[c]) for c in (0, 1, 34, 51)] == ["2c", "2d", "Th", "As"]
    assert len({repr(c) for c in PK_CARDS}) == 52


def test_small_sample_same_order() -> None:
    """A quick version of the slow test, for runs that deselect ``slow``."""
    sample = deal(3_000, SEED + 2)
    assert_same_order(evaluate_high_batch(sample), pokerkit_keys(sample))


def test_order_check_can_fail() -> None:
    """The comparison itself (shared by the evaluator oracles) rejects a swapped pair and a
    spurious tie."""
    ours = np.array([1, 2, 3, 3], dtype=np.int32)
    assert_same_order(ours, np.array([10, 20, 30, 30]))
    with pytest.raises(AssertionError, match="below"):
        assert_same_order(ours, np.array([20, 10, 30, 30]))
    with pytest.raises(AssertionError, match="tie disagreement"):
        assert_same_order(ours, np.array([10, 10, 30, 30]))
    with pytest.raises(AssertionError, match="tie disagreement"):
        assert_same_order(ours, np.array([10, 20, 30, 31]))
