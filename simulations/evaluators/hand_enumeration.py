"""Every k-card hand of a deck, in chunks, for exhaustive censuses of any ranking system.

A compiled loop fills each chunk with the next hands in lexicographic order of deck
positions, so that a census feeds the very batch kernels simulations use; 133,784,560
seven-card hands come out in a few seconds.
"""

from __future__ import annotations

from collections.abc import Iterator
from math import comb

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.cards import FIRST_JOKER, ensure_distinct

DEFAULT_CHUNK = 1 << 16


@nb.njit(cache=True)
def fill_hands(
    deck: npt.NDArray[np.int8], combo: npt.NDArray[np.int64], out: npt.NDArray[np.int8]
) -> int:
    """Write the hands from deck positions ``combo`` on into ``out``; return how many.

    ``combo`` is advanced past the last hand written; once every hand is out it holds -1
    in its first slot and further calls write nothing.
    """
    n = deck.shape[0]
    k = combo.shape[0]
    filled = 0
    while filled < out.shape[0] and combo[0] >= 0:
        for j in range(k):
            out[filled, j] = deck[combo[j]]
        filled += 1
        i = k - 1
        while i >= 0 and combo[i] == n - k + i:
            i -= 1
        if i < 0:
            combo[0] = -1
            break
        combo[i] += 1
        for j in range(i + 1, k):
            combo[j] = combo[j - 1] + 1
    return filled


def all_hands(
    cards: int, deck: npt.ArrayLike | None = None, *, chunk: int = DEFAULT_CHUNK
) -> Iterator[npt.NDArray[np.int8]]:
    """Every ``cards``-card hand of ``deck`` (default the 52-card pack), ``chunk`` rows at a
    time; each yielded array is overwritten by the next, so copy what must be kept."""
    pack = np.arange(FIRST_JOKER, dtype=np.int8) if deck is None else np.asarray(deck)
    if pack.ndim != 1 or not np.issubdtype(pack.dtype, np.integer):
        raise ValueError("a deck is a 1-D array of card codes")
    if not 1 <= cards <= pack.size:
        raise ValueError(f"a deck of {pack.size} cards holds no {cards}-card hand")
    if chunk < 1:
        raise ValueError(f"chunk must be positive, got {chunk}")
    codes = [int(c) for c in pack]
    if any(not 0 <= c < FIRST_JOKER for c in codes):
        raise ValueError("the deck holds a code outside 0..51 (jokers are not enumerated)")
    ensure_distinct(codes)
    pack = pack.astype(np.int8)
    combo = np.arange(cards, dtype=np.int64)
    out = np.empty((min(chunk, comb(pack.size, cards)), cards), dtype=np.int8)
    while True:
        filled = fill_hands(pack, combo, out)
        if filled == 0:
            return
        yield out[:filled]
