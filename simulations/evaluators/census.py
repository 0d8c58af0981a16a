"""Exhaustive censuses: every k-card hand from a deck, tallied by value.

A census is the strongest check an evaluator can get: the counts of hands per
category and of distinct values per category are published for 5 and 7 cards, and
any error in the tables shows up in them.  The enumeration feeds the same batch
kernel that simulations use, in chunks, so what is checked is what runs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.cards import FIRST_JOKER, ensure_distinct, is_joker_code
from simulations.evaluators.hand_value import CATEGORY_SHIFT, Category
from simulations.evaluators.high import TABLES, batch_values
from simulations.evaluators.high_tables import HighTables

_CHUNK = 1 << 14


@dataclass(frozen=True)
class Census:
    """Hands and distinct values per category for every ``cards``-card hand of a deck."""

    cards: int
    hands: dict[Category, int]
    distinct_values: dict[Category, int]
    value_counts: dict[int, int]  # hands per packed value, for every value that occurs

    @property
    def total_hands(self) -> int:
        return sum(self.hands.values())

    @property
    def total_distinct(self) -> int:
        return sum(self.distinct_values.values())


@nb.njit(cache=True)
def _next_combination(combo: npt.NDArray[np.int64], n: int) -> bool:
    """Advance ``combo`` to the next k-subset of 0..n-1 in lexicographic order."""
    k = combo.shape[0]
    i = k - 1
    while i >= 0 and combo[i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    combo[i] += 1
    for j in range(i + 1, k):
        combo[j] = combo[j - 1] + 1
    return True


@nb.njit(cache=True)
def _tally_high(
    deck: npt.NDArray[np.int8],
    k: int,
    tables: HighTables,
    counts: npt.NDArray[np.int64],
) -> None:
    chunk = np.empty((_CHUNK, k), dtype=np.int8)
    values = np.empty(_CHUNK, dtype=np.int32)
    combo = np.arange(k)
    n = deck.shape[0]
    more = True
    while more:
        filled = 0
        while filled < _CHUNK and more:
            for j in range(k):
                chunk[filled, j] = deck[combo[j]]
            filled += 1
            more = _next_combination(combo, n)
        batch_values(chunk[:filled], tables, values)
        for i in range(filled):
            counts[values[i]] += 1


def high_census(cards: int, deck: npt.ArrayLike | None = None) -> Census:
    """Tally every ``cards``-card hand (5 to 7) of ``deck`` (default the 52-card pack)."""
    if not 5 <= cards <= 7:
        raise ValueError(f"a high-hand census takes 5 to 7 cards, got {cards}")
    pack = np.arange(52, dtype=np.int8) if deck is None else np.asarray(deck)
    if pack.ndim != 1 or not np.issubdtype(pack.dtype, np.integer):
        raise ValueError("a census deck is a 1-D array of card codes")
    if pack.size < cards:
        raise ValueError(f"a deck of {pack.size} cards holds no {cards}-card hand")
    codes = [int(c) for c in pack]
    for code in codes:
        if not 0 <= code < FIRST_JOKER:
            what = "a joker" if is_joker_code(code) else f"card code {code}"
            raise ValueError(f"the census deck holds {what}; high hands rank only 0..51")
    ensure_distinct(codes)
    pack = pack.astype(np.int8)
    counts = np.zeros((int(Category.STRAIGHT_FLUSH) + 1) << CATEGORY_SHIFT, dtype=np.int64)
    _tally_high(pack, cards, TABLES, counts)
    by_category = counts.reshape(-1, 1 << CATEGORY_SHIFT)
    present = np.flatnonzero(counts)
    return Census(
        cards=cards,
        value_counts=dict(zip(present.tolist(), counts[present].tolist(), strict=True)),
        hands={Category(c): int(row.sum()) for c, row in enumerate(by_category)},
        distinct_values={
            Category(c): int(np.count_nonzero(row)) for c, row in enumerate(by_category)
        },
    )
