"""High-hand evaluation: the best five cards of five, six or seven (hold'em, stud, draw).

Two entry points share one compiled core:

* :func:`evaluate_high` — one hand, for the reference engine: parses and checks the
  cards and returns a :class:`HandValue` with the value, category and name;
* :func:`evaluate_high_batch` — an ``(n, k)`` array of card codes evaluated in one
  compiled loop with no Python call per hand, for simulations.

Kernels elsewhere (the bad-beat model) call :func:`flush_suit` and :func:`rank_lookup` directly on
summed card keys; every kernel takes the tables as one :class:`HighTables` argument.
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


@nb.njit(cache=True, inline="always")
def rank_class_lookup(
    key: int,
    row_offsets: npt.NDArray[np.int32],
    classes: npt.NDArray[np.uint16],
    values: npt.NDArray[np.int32],
) -> int:
    """:func:`rank_lookup` read through :class:`RankClasses`: the same value."""
    return int(values[classes[rank_slot(key, row_offsets)]])


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
        suit = flush_suit(key)
        if suit >= 0:
            mask = 0
            for j in range(n_cards):
                c = hands[i, j]
                if c & 3 == suit:
                    mask |= 1 << (c >> 2)
            out[i] = flush_values[mask]
        else:
            out[i] = rank_lookup(key, row_offsets, rank_values)


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
