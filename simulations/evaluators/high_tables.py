"""Lookup tables behind the high-hand evaluator, built once at import.

Each card carries a 64-bit additive key (see :data:`HighTables.card_keys`): the low 16
bits count suits in four nibbles, the bits above hold a rank key plus a card-count
unit.  Summing the keys of any 5, 6 or 7 cards gives

* the suit counts, from which a flush (five or more of one suit) is read with two
  integer operations, and
* a rank sum that is unique to the multiset of ranks held (the rank keys are chosen so
  that multisets of the same size never collide, and the count unit keeps sizes apart).

Flush hands are valued from a table indexed by the 13-bit mask of the flush suit's
ranks.  Every other hand is valued from its rank sum through a perfect hash: the sum's
high bits pick a row, each row has an offset into one shared value table, and the low
bits are the column.  Offsets are placed first-fit so that no two sums share a slot.

The hand rules themselves (what is a straight, which cards play in a full house) live
in :func:`nonflush_value` and :func:`flush_value`; the tables only cache their answers.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.evaluators.hand_value import Category

# Rank keys such that no two rank multisets of the same size (at most 7 cards, at most
# four of a rank) have the same sum.  The largest 7-card sum is 7,825,759 < 2**23.
RANK_KEYS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
COUNT_UNIT = 1 << 23  # added per card so that sums of different sizes never meet
SUIT_FIELD_BITS = 16  # four 4-bit suit counters below the rank key
FLUSH_PROBE = 0x3333  # adds 3 to every suit counter: a counter of 5..7 then sets its top bit
FLUSH_BITS = 0x8888
ROW_SHIFT = 11  # columns per row of the perfect hash: 2**11
MIN_CARDS = 5
MAX_CARDS = 7

_STRAIGHT_FLUSH = int(Category.STRAIGHT_FLUSH)
_FLUSH = int(Category.FLUSH)
_WHEEL = (1 << 12) | 0b1111  # A-2-3-4-5: the ace plays low
_SHIFT = 20


@nb.njit(cache=True)
def straight_top(mask: int) -> int:
    """The top rank of the best straight in a 13-bit rank mask, or -1 if none.

    Five consecutive ranks make a straight; the ace also plays low in A-2-3-4-5,
    whose top card is the five.
    """
    for top in range(12, 3, -1):
        run = 0b11111 << (top - 4)
        if mask & run == run:
            return top
    if mask & _WHEEL == _WHEEL:
        return 3
    return -1


@nb.njit(cache=True)
def _pack(category: int, r1: int, r2: int, r3: int, r4: int, r5: int) -> int:
    return (category << _SHIFT) | (r1 << 16) | (r2 << 12) | (r3 << 8) | (r4 << 4) | r5


@nb.njit(cache=True)
def flush_value(mask: int) -> int:
    """The value of the best five cards among five or more suited ranks."""
    top = straight_top(mask)
    if top >= 0:
        return _pack(_STRAIGHT_FLUSH, top, 0, 0, 0, 0)
    ranks = np.zeros(5, dtype=np.int64)
    found = 0
    for rank in range(12, -1, -1):
        if mask & (1 << rank) and found < 5:
            ranks[found] = rank
            found += 1
    return _pack(_FLUSH, ranks[0], ranks[1], ranks[2], ranks[3], ranks[4])


@nb.njit(cache=True)
def nonflush_value(counts: npt.NDArray[np.int64]) -> int:
    """The value of the best five cards from a multiset of ranks with no flush.

    Four of a kind plays its best kicker; a full house takes the highest trips and the
    highest other pair (a second set of trips counts as the pair); a straight beats
    three of a kind; two pair plays the two highest pairs and the best remaining card.
    """
    quads = -1
    trips = -1
    mask = 0
    for rank in range(12, -1, -1):
        if counts[rank] > 0:
            mask |= 1 << rank
        if counts[rank] >= 4 and quads < 0:
            quads = rank
        elif counts[rank] >= 3 and trips < 0:
            trips = rank
    if quads >= 0:
        for rank in range(12, -1, -1):
            if rank != quads and counts[rank] > 0:
                return _pack(7, quads, rank, 0, 0, 0)
        return _pack(7, quads, 0, 0, 0, 0)
    if trips >= 0:
        for rank in range(12, -1, -1):
            if rank != trips and counts[rank] >= 2:
                return _pack(6, trips, rank, 0, 0, 0)
    top = straight_top(mask)
    if top >= 0:
        return _pack(4, top, 0, 0, 0, 0)
    pairs = np.full(3, -1, dtype=np.int64)
    singles = np.zeros(5, dtype=np.int64)
    n_pairs = 0
    n_singles = 0
    for rank in range(12, -1, -1):
        if rank == trips:
            continue
        if counts[rank] >= 2 and n_pairs < 3:
            pairs[n_pairs] = rank
            n_pairs += 1
        elif counts[rank] >= 1 and n_singles < 5:
            singles[n_singles] = rank
            n_singles += 1
    if trips >= 0:
        return _pack(3, trips, singles[0], singles[1], 0, 0)
    if n_pairs >= 2:
        kicker = singles[0]
        if n_pairs == 3 and pairs[2] > kicker:
            kicker = pairs[2]
        return _pack(2, pairs[0], pairs[1], kicker, 0, 0)
    if n_pairs == 1:
        return _pack(1, pairs[0], singles[0], singles[1], singles[2], 0)
    return _pack(0, singles[0], singles[1], singles[2], singles[3], singles[4])


@nb.njit(cache=True)
def _value_rows(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int32]:
    out = np.empty(counts.shape[0], dtype=np.int32)
    for i in range(counts.shape[0]):
        out[i] = nonflush_value(counts[i])
    return out


@nb.njit(cache=True)
def _flush_table() -> npt.NDArray[np.int32]:
    table = np.zeros(1 << 13, dtype=np.int32)
    for mask in range(1 << 13):
        bits = 0
        for rank in range(13):
            bits += (mask >> rank) & 1
        if bits >= 5:
            table[mask] = flush_value(mask)
    return table


@nb.njit(cache=True)
def _next_free(following: npt.NDArray[np.int64], slot: int) -> int:
    """The first free slot at or after ``slot`` (a union-find walk with path halving)."""
    while following[slot] != slot:
        following[slot] = following[following[slot]]
        slot = following[slot]
    return slot


@nb.njit(cache=True)
def _place_rows(
    keys: npt.NDArray[np.int64], values: npt.NDArray[np.int32], n_rows: int, shift: int
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """First-fit row displacement: an offset per row so that no two keys share a slot.

    Rows are placed fullest first; each tries offsets that put its lowest column on a free
    slot, in increasing order, until all its columns land on free slots.
    """
    col_mask = (1 << shift) - 1
    order = np.argsort(keys, kind="mergesort")  # by row, then by column within a row
    row_start = np.zeros(n_rows + 1, dtype=np.int64)
    for k in keys:
        row_start[(k >> shift) + 1] += 1
    for r in range(n_rows):
        row_start[r + 1] += row_start[r]
    sizes = row_start[1:] - row_start[:-1]
    row_order = np.argsort(-sizes, kind="mergesort")
    capacity = keys.shape[0] * 8 + (1 << shift)
    following = np.arange(capacity + 1)
    taken = np.zeros(capacity, dtype=np.bool_)
    table = np.zeros(capacity, dtype=np.int32)
    offsets = np.zeros(n_rows, dtype=np.int32)
    used = 0
    for r in row_order:
        if sizes[r] == 0:
            continue
        members = order[row_start[r] : row_start[r + 1]]
        lowest = keys[members[0]] & col_mask
        slot = _next_free(following, lowest)
        while True:
            offset = slot - lowest
            fits = True
            for m in members:
                target = offset + (keys[m] & col_mask)
                if target >= capacity:
                    raise ValueError("perfect-hash table overflow")
                if taken[target]:
                    fits = False
                    break
            if fits:
                break
            slot = _next_free(following, slot + 1)
        offsets[r] = offset
        for m in members:
            target = offset + (keys[m] & col_mask)
            taken[target] = True
            following[target] = target + 1
            table[target] = values[m]
            used = max(used, target + 1)
    return offsets, table[:used].copy()


def _rank_multisets(min_cards: int, max_cards: int) -> npt.NDArray[np.int64]:
    """Every multiset of ranks (at most four of each) of ``min_cards``..``max_cards`` cards."""
    counts = np.zeros((1, 0), dtype=np.int64)
    sizes = np.zeros(1, dtype=np.int64)
    for _rank in range(13):
        parts = []
        part_sizes = []
        for c in range(5):
            keep = sizes + c <= max_cards
            parts.append(np.hstack([counts[keep], np.full((int(keep.sum()), 1), c)]))
            part_sizes.append(sizes[keep] + c)
        counts = np.vstack(parts)
        sizes = np.concatenate(part_sizes)
    return counts[sizes >= min_cards]


class HighTables(NamedTuple):
    """The read-only arrays the high-hand kernels take, as one argument: a named tuple, so
    that compiled code reads its fields as plain arrays."""

    card_keys: npt.NDArray[np.int64]  # per card code 0..51
    flush_values: npt.NDArray[np.int32]  # per 13-bit rank mask
    row_offsets: npt.NDArray[np.int32]  # per perfect-hash row
    rank_values: npt.NDArray[np.int32]  # per perfect-hash slot


def build_high_tables() -> HighTables:
    """Compute every table from the hand rules (a few seconds; see :func:`load_high_tables`)."""
    rank_keys = np.array(RANK_KEYS, dtype=np.int64)
    counts = _rank_multisets(MIN_CARDS, MAX_CARDS)
    sums = counts @ rank_keys + counts.sum(axis=1) * COUNT_UNIT
    if np.unique(sums).size != sums.size:  # pragma: no cover - a construction invariant
        raise AssertionError("rank keys collide")
    values = _value_rows(counts)
    n_rows = int(sums.max() >> ROW_SHIFT) + 1
    offsets, rank_values = _place_rows(sums, values, n_rows, ROW_SHIFT)
    card_keys = np.zeros(52, dtype=np.int64)
    for card in range(52):
        rank, suit = divmod(card, 4)
        card_keys[card] = ((RANK_KEYS[rank] + COUNT_UNIT) << SUIT_FIELD_BITS) | (1 << (4 * suit))
    return _frozen(HighTables(card_keys, _flush_table(), offsets, rank_values))


def _frozen(tables: HighTables) -> HighTables:
    for name in TABLE_FIELDS:
        getattr(tables, name).setflags(write=False)
    return tables


TABLE_FIELDS = ("card_keys", "flush_values", "row_offsets", "rank_values")
# The built tables ship with the package so that importing the evaluator (in every
# worker process) takes milliseconds; a test rebuilds them and demands equality.
TABLE_FILE = Path(__file__).with_name("high_tables.npz")


def load_high_tables(path: Path = TABLE_FILE) -> HighTables:
    """The shipped tables, or freshly built ones when the file is absent."""
    if not path.exists():
        return build_high_tables()
    with np.load(path) as data:
        return _frozen(HighTables(*(np.array(data[name]) for name in TABLE_FIELDS)))


def save_high_tables(tables: HighTables, path: Path = TABLE_FILE) -> None:
    np.savez_compressed(path, **{name: getattr(tables, name) for name in TABLE_FIELDS})


if __name__ == "__main__":
    save_high_tables(build_high_tables())
    print(f"wrote {TABLE_FILE}")
