"""Exhaustive censuses under any ranking system: every k-card hand of the system's deck.

The enumeration feeds the same compiled routine the batch evaluators use, in chunks, and
tallies hands and distinct values per category.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.evaluators.hand_value import CATEGORY_SHIFT
from simulations.evaluators.system_kernel import system_values
from simulations.evaluators.systems import RankingSystem, Shape

_CHUNK = 1 << 14


@dataclass(frozen=True)
class SystemCensus:
    """Hands and distinct values per category for every ``cards``-card hand of a deck."""

    system: str
    cards: int
    hands: dict[Shape, int]
    distinct_values: dict[Shape, int]

    @property
    def total_hands(self) -> int:
        return sum(self.hands.values())


@nb.njit(cache=True)
def _tally(
    deck: npt.NDArray[np.int8],
    every: npt.NDArray[np.int8],
    straights: npt.NDArray[np.int64],
    four_straights: npt.NDArray[np.int64],
    strength: npt.NDArray[np.int64],
    deck_mask: int,
    wild_mask: int,
    bug_mask: int,
    double_ace: bool,
    counts: npt.NDArray[np.int64],
) -> None:
    n = deck.shape[0]
    k = every.shape[1]
    chunk = np.empty((_CHUNK, k), dtype=np.int8)
    values = np.empty(_CHUNK, dtype=np.int32)
    combo = np.arange(k)
    more = True
    while more:
        filled = 0
        while filled < _CHUNK and more:
            for j in range(k):
                chunk[filled, j] = deck[combo[j]]
            filled += 1
            # The next k-subset of 0..n-1 in lexicographic order.
            i = k - 1
            while i >= 0 and combo[i] == n - k + i:
                i -= 1
            if i < 0:
                more = False
            else:
                combo[i] += 1
                for j in range(i + 1, k):
                    combo[j] = combo[j - 1] + 1
        system_values(
            chunk[:filled],
            every,
            straights,
            four_straights,
            strength,
            deck_mask,
            wild_mask,
            bug_mask,
            double_ace,
            values,
        )
        for i in range(filled):
            counts[values[i]] += 1


def system_census(system: RankingSystem, cards: int = 5) -> SystemCensus:
    """Tally every ``cards``-card hand (5 to 7) of the system's own deck, jokers included."""
    if not 5 <= cards <= 7:
        raise ValueError(f"a census takes 5 to 7 cards, got {cards}")
    if cards > system.deck.size:
        raise ValueError(f"a deck of {system.deck.size} cards holds no {cards}-card hand")
    deck = system.deck.as_array()
    t = system.tables
    counts = np.zeros(len(system.order) << CATEGORY_SHIFT, dtype=np.int64)
    # Every column of a chunk row forms the hand (read-only, as the batch evaluator passes it).
    every = np.arange(cards, dtype=np.int8).reshape(1, cards)
    every.setflags(write=False)
    _tally(
        deck,
        every,
        t.straights,
        t.four_straights,
        t.strength,
        t.deck_mask,
        t.wild_mask,
        t.bug_mask,
        t.double_ace,
        counts,
    )
    rows = counts.reshape(len(system.order), 1 << CATEGORY_SHIFT)
    return SystemCensus(
        system=system.name,
        cards=cards,
        hands={shape: int(rows[place].sum()) for place, shape in enumerate(system.order)},
        distinct_values={
            shape: int(np.count_nonzero(rows[place])) for place, shape in enumerate(system.order)
        },
    )
