"""The lowball systems written out plainly: every five-card subset ranked by its groups.

This is the reference the scalar API answers from, and what the compiled batch kernels in
:mod:`simulations.evaluators.lowball` are checked against hand for hand; it shares no table
or trick with them.  A five-card hand is sorted into rank groups (bigger groups first, then
higher ranks), classified, and packed the way a high-hand value is packed, on the system's
rank scale:

* ace-to-five: ace low (A = 0 .. K = 12), straights and flushes do not count;
* ace-to-six: ace low, straights and flushes count (against the hand: a straight is only a
  straight, not a good low); no straight wraps round the ace, so K-A-2-3-4 is king-high;
* deuce-to-seven: ace high (2 = 0 .. A = 12), straights and flushes count; A-2-3-4-5 is not
  a straight but ace-high.

That packed "badness" is smaller for a better low; the best low of 5 to 7 cards is the
smallest badness over the five-card subsets, and the value is ``LOW_CEILING - badness``.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.evaluators.hand_value import Category

LOW_CEILING = 1 << 24  # above every packed badness (category 8 << 20 at most)
NO_LOW = 0  # a hand that fails the qualifier

ACE_TO_FIVE = 0
ACE_TO_SIX = 1
DEUCE_TO_SEVEN = 2

# Plain ints (constants to numba) from the one definition of the categories.
_HIGH_CARD = int(Category.HIGH_CARD)
_ONE_PAIR = int(Category.ONE_PAIR)
_TWO_PAIR = int(Category.TWO_PAIR)
_THREE_OF_A_KIND = int(Category.THREE_OF_A_KIND)
_STRAIGHT = int(Category.STRAIGHT)
_FLUSH = int(Category.FLUSH)
_FULL_HOUSE = int(Category.FULL_HOUSE)
_FOUR_OF_A_KIND = int(Category.FOUR_OF_A_KIND)
_STRAIGHT_FLUSH = int(Category.STRAIGHT_FLUSH)


@nb.njit(cache=True)
def scale_rank(card: int, system: int) -> int:
    """The card's rank on the system's scale: the ace is 0 in ace-to-five and ace-to-six."""
    rank = card >> 2
    if system == DEUCE_TO_SEVEN:
        return rank
    return (rank + 1) % 13


@nb.njit(cache=True)
def five_card_badness(
    ranks: npt.NDArray[np.int64],
    suits: npt.NDArray[np.int64],
    system: int,
    group_ranks: npt.NDArray[np.int64],
    group_sizes: npt.NDArray[np.int64],
) -> int:
    """The packed badness of exactly five cards (ranks on the system's scale).

    ``ranks`` is sorted in place, highest first; ``group_ranks`` and ``group_sizes`` (five
    entries each) are scratch space.
    """
    for i in range(1, 5):
        rank = ranks[i]
        j = i
        while j > 0 and ranks[j - 1] < rank:
            ranks[j] = ranks[j - 1]
            j -= 1
        ranks[j] = rank
    # Runs of equal ranks are the groups, highest rank first; a stable insertion sort then
    # puts bigger groups first, keeping higher ranks first among groups of one size.
    n_groups = 0
    for i in range(5):
        if i > 0 and ranks[i] == ranks[i - 1]:
            group_sizes[n_groups - 1] += 1
        else:
            group_ranks[n_groups] = ranks[i]
            group_sizes[n_groups] = 1
            n_groups += 1
    for i in range(1, n_groups):
        rank = group_ranks[i]
        size = group_sizes[i]
        j = i
        while j > 0 and group_sizes[j - 1] < size:
            group_ranks[j] = group_ranks[j - 1]
            group_sizes[j] = group_sizes[j - 1]
            j -= 1
        group_ranks[j] = rank
        group_sizes[j] = size
    counts_matter = system != ACE_TO_FIVE
    flush = counts_matter and suits[0] == suits[1] == suits[2] == suits[3] == suits[4]
    straight = counts_matter and n_groups == 5 and ranks[0] - ranks[4] == 4
    if straight and flush:
        category = _STRAIGHT_FLUSH
        n_groups = 1
    elif group_sizes[0] == 4:
        category = _FOUR_OF_A_KIND
    elif group_sizes[0] == 3 and group_sizes[1] == 2:
        category = _FULL_HOUSE
    elif flush:
        category = _FLUSH
    elif straight:
        category = _STRAIGHT
        n_groups = 1
    elif group_sizes[0] == 3:
        category = _THREE_OF_A_KIND
    elif group_sizes[0] == 2 and group_sizes[1] == 2:
        category = _TWO_PAIR
    elif group_sizes[0] == 2:
        category = _ONE_PAIR
    else:
        category = _HIGH_CARD
    badness = category << 20
    for slot in range(n_groups):
        badness |= group_ranks[slot] << (16 - 4 * slot)
    return badness


@nb.njit(cache=True)
def best_badness(cards: npt.NDArray[np.int64], system: int) -> int:
    """The smallest badness over every five-card subset of 5 to 7 cards."""
    n = cards.shape[0]
    all_ranks = np.empty(n, dtype=np.int64)
    all_suits = np.empty(n, dtype=np.int64)
    for i in range(n):
        all_ranks[i] = scale_rank(cards[i], system)
        all_suits[i] = cards[i] & 3
    ranks = np.empty(5, dtype=np.int64)
    suits = np.empty(5, dtype=np.int64)
    group_ranks = np.empty(5, dtype=np.int64)
    group_sizes = np.empty(5, dtype=np.int64)
    chosen = np.empty(5, dtype=np.int64)
    best = LOW_CEILING
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                for d in range(c + 1, n):
                    for e in range(d + 1, n):
                        chosen[0] = a
                        chosen[1] = b
                        chosen[2] = c
                        chosen[3] = d
                        chosen[4] = e
                        for slot in range(5):
                            ranks[slot] = all_ranks[chosen[slot]]
                            suits[slot] = all_suits[chosen[slot]]
                        badness = five_card_badness(ranks, suits, system, group_ranks, group_sizes)
                        best = min(best, badness)
    return best


@nb.njit(cache=True)
def low_value(cards: npt.NDArray[np.int64], system: int, qualifier_top: int) -> int:
    """The low value of 5 to 7 cards; with ``qualifier_top`` >= 0 (a rank on the system's
    scale) a low must be five unpaired cards none above it, else the value is ``NO_LOW``."""
    badness = best_badness(cards, system)
    if qualifier_top >= 0 and (badness >> 20 != _HIGH_CARD or (badness >> 16) > qualifier_top):
        return NO_LOW
    return LOW_CEILING - badness


@nb.njit(cache=True)
def reference_low_values(
    hands: npt.NDArray[np.int8], system: int, qualifier_top: int, out: npt.NDArray[np.int32]
) -> None:
    """:func:`low_value` of every row, for checking the batch kernels on many hands."""
    cards = np.empty(hands.shape[1], dtype=np.int64)
    for i in range(hands.shape[0]):
        for j in range(hands.shape[1]):
            cards[j] = hands[i, j]
        out[i] = low_value(cards, system, qualifier_top)
