"""High-hand evaluation: the best five cards of five, six or seven (hold'em, stud, draw).

Two entry points share one compiled core:

* :func:`evaluate_high` — one hand, for the reference engine: parses and checks the
  cards and returns a :class:`HandValue` with the value, category and name;
* :func:`evaluate_high_batch` — an ``(n, k)`` array of card codes evaluated in one
  compiled loop with no Python call per hand, for simulations.

Kernels elsewhere (the replay kernel, the bad-beat and table kernels, the selection and
lowball evaluators) call :func:`high_value` on the summed keys of their cards (and the
suited bits of :func:`card_bit`): the one reading of the tables.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.evaluators.hand_input import CardsLike, hand_array, hand_cards
from simulations.evaluators.hand_value import HandValue
from simulations.evaluators.high_tables import (
    FLUSH_BITS,
    FLUSH_PROBE,
    MAX_CARDS,
    MIN_CARDS,
    ROW_SHIFT,
    SUIT_FIELD_BITS,
    HighTables,
    load_high_tables,
)

TABLES: HighTables = load_high_tables()

_COL_MASK = (1 << ROW_SHIFT) - 1
_SUIT_STRIDE = 16  # bits per suit in a set of suited bits (13 ranks, a nibble spare)
_RANK_MASK = (1 << 13) - 1


@nb.njit(cache=True, inline="always")
def inlined_flush_suit(key: int) -> int:
    """The suit holding five or more of the cards whose keys sum to ``key``, or -1.

    With at most seven cards only one suit can hold five.  Inlined where it is called: a
    call to a compiled function inside a compiled helper that takes arrays keeps numba from
    pruning the helper's reference counts of them (an atomic add and subtract of each array
    at every call), and the economics kernel calls its hand values millions of times.
    """
    probe = (key + FLUSH_PROBE) & FLUSH_BITS
    if probe == 0:
        return -1
    return (probe > 0x8) + (probe > 0x80) + (probe > 0x800)


@nb.njit(cache=True)
def flush_suit(key: int) -> int:
    """:func:`inlined_flush_suit` as a function of its own, for the kernels that call it
    from their own loops."""
    return int(inlined_flush_suit(key))


@nb.njit(cache=True, inline="always")
def rank_slot(key: int, row_offsets: npt.NDArray[np.int32]) -> int:
    """The perfect-hash slot of a hand with no flush, from its summed card key."""
    ranks = key >> SUIT_FIELD_BITS
    return int(row_offsets[ranks >> ROW_SHIFT] + (ranks & _COL_MASK))


@nb.njit(cache=True)
def rank_lookup(
    key: int, row_offsets: npt.NDArray[np.int32], rank_values: npt.NDArray[np.int32]
) -> int:
    """The value of a hand with no flush, from its summed card key.

    Kernels unpack their :class:`HighTables` into locals once and pass the arrays here:
    reading them out of the tuple inside a loop costs a third of the speed.
    """
    return int(rank_values[rank_slot(key, row_offsets)])


@nb.njit(cache=True, inline="always")
def card_bit(card: int) -> int:
    """The card's bit in a set of cards by suit: rank ``r`` of suit ``s`` is bit
    ``16 * s + r``.  The cards of a hand OR'ed together give :func:`high_value` the rank mask
    of whichever suit makes a flush."""
    return 1 << ((card & 3) * _SUIT_STRIDE + (card >> 2))


@nb.njit(cache=True, inline="always")
def high_value(
    key: int,
    suited: int,
    flush_values: npt.NDArray[np.int32],
    row_offsets: npt.NDArray[np.int32],
    rank_values: npt.NDArray[np.int32],
    rank_classes: npt.NDArray[np.uint16] | None = None,
) -> int:
    """The high value of the best five of 5 to 7 cards, from the sum of their card keys
    (``key``) and the OR of their :func:`card_bit` (``suited``): a suit holding five or
    more is a flush, valued by its rank mask; any other hand by its rank sum, read from
    :data:`TABLES`' rank table (``rank_values``) or, given ``rank_classes``, through
    :class:`RankClasses` (``rank_values`` then its ``values``).

    The one reading of the high tables.  Inlined where it is called: a call to a compiled
    function taking arrays costs their reference counts at every call, and the kernels call
    it millions of times; a missing ``rank_classes`` is pruned at compile time.
    """
    suit = inlined_flush_suit(key)
    if suit >= 0:
        return int(flush_values[(suited >> (suit * _SUIT_STRIDE)) & _RANK_MASK])
    slot = rank_slot(key, row_offsets)
    if rank_classes is None:
        return int(rank_values[slot])
    return int(rank_values[rank_classes[slot]])


class RankClasses(NamedTuple):
    """The rank table in half the room: each slot's value as a 16-bit number of its
    distinct value (``classes``), and each number's value (``values``, a few thousand).  A
    kernel that reads the table for many hands at random finds more of it in the cache, for
    one more read of a small table that stays there."""

    classes: npt.NDArray[np.uint16]
    values: npt.NDArray[np.int32]


@cache
def rank_classes() -> RankClasses:
    """:class:`RankClasses` of :data:`TABLES`' rank table."""
    values, classes = np.unique(TABLES.rank_values, return_inverse=True)
    if len(values) > 1 << 16:
        raise ValueError(f"{len(values)} distinct values do not fit 16 bits")
    return RankClasses(classes.astype(np.uint16), values.astype(np.int32))


@nb.njit(cache=True)
def batch_values(
    hands: npt.NDArray[np.int8], tables: HighTables, out: npt.NDArray[np.int32]
) -> None:
    """High values of each row of ``hands`` (5 to 7 distinct codes 0..51, unchecked).

    The loop indexes the 2-D array directly: a row view per hand would cost more than
    the evaluation itself.
    """
    card_keys, flush_values, row_offsets, rank_values = tables
    n_hands, n_cards = hands.shape
    for i in range(n_hands):
        key = 0
        for j in range(n_cards):
            key += card_keys[hands[i, j]]
        # The suited bits only for a flush (a few hands in a hundred): built for every hand
        # they cost a third of the loop.
        suited = 0
        if inlined_flush_suit(key) >= 0:
            for j in range(n_cards):
                suited |= card_bit(hands[i, j])
        out[i] = high_value(key, suited, flush_values, row_offsets, rank_values)


def evaluate_high_batch(hands: npt.ArrayLike, *, check: bool = True) -> npt.NDArray[np.int32]:
    """High values of an ``(n, k)`` array of card codes, 5 <= k <= 7, one value per row.

    With ``check`` (the default) every row is first checked for codes outside 0..51
    (jokers included) and for repeated cards; pass ``check=False`` only for arrays a
    dealer built, which cannot hold either.
    """
    array = hand_array(hands, MIN_CARDS, MAX_CARDS, "high", check=check)
    out = np.empty(array.shape[0], dtype=np.int32)
    batch_values(array, TABLES, out)
    return out


def evaluate_high(cards: CardsLike) -> HandValue:
    """The best high hand from 5, 6 or 7 cards, given as text ('As Kd ...') or card codes."""
    hand = np.array([hand_cards(cards, MIN_CARDS, MAX_CARDS, "high")], dtype=np.int8)
    out = np.empty(1, dtype=np.int32)
    batch_values(hand, TABLES, out)
    return HandValue(int(out[0]))
