"""The compiled core of the ranking-system engine (see ``systems``).

:func:`best_value` values the best five of a hand given as natural rank counts, suit masks and
counts of wild cards and bugs, under one system's tables; :func:`system_values` runs it over the
rows of a 2-D array of card codes.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

# Places in ``strength``: the values of ``systems.Shape`` (plain ints, constant to numba).
_HIGH_CARD = 0
_ONE_PAIR = 1
_TWO_PAIR = 2
_THREE_OF_A_KIND = 3
_STRAIGHT = 4
_FLUSH = 5
_FULL_HOUSE = 6
_FOUR_OF_A_KIND = 7
_STRAIGHT_FLUSH = 8
_FIVE_OF_A_KIND = 9
_FOUR_STRAIGHT = 10
_FOUR_FLUSH = 11
_ACE = 12

# Explicit signatures: compiled once each, never again for literal arguments.

_I64 = nb.types.int64
_COUNTS = nb.types.Array(_I64, 1, "C")
_TABLE_1D = nb.types.Array(_I64, 1, "C", readonly=True)
_TABLE_2D = nb.types.Array(_I64, 2, "C", readonly=True)


@nb.njit(_I64(_I64), cache=True)
def _popcount(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@nb.njit(_I64(_I64, _I64, _I64, _I64, _I64), cache=True)
def _slots(r1: int, r2: int, r3: int, r4: int, r5: int) -> int:
    return (r1 << 16) | (r2 << 12) | (r3 << 8) | (r4 << 4) | r5


@nb.njit(_I64(_COUNTS, _I64, _I64), cache=True)
def _kickers(counts: npt.NDArray[np.int64], skip_mask: int, k: int) -> int:
    """The top ``k`` cards (with repeats) of ranks outside ``skip_mask``, packed low slots."""
    packed = 0
    taken = 0
    for rank in range(12, -1, -1):
        if (skip_mask >> rank) & 1:
            continue
        for _ in range(counts[rank]):
            if taken < k:
                packed = (packed << 4) | rank
                taken += 1
    return packed << (4 * (k - taken))


@nb.njit(
    _I64(_COUNTS, _COUNTS, _I64, _I64, _TABLE_2D, _TABLE_2D, _TABLE_1D, _I64, nb.types.boolean),
    cache=True,
)
def best_value(
    counts: npt.NDArray[np.int64],
    suit_masks: npt.NDArray[np.int64],
    wild: int,
    bugs: int,
    straights: npt.NDArray[np.int64],
    four_straights: npt.NDArray[np.int64],
    strength: npt.NDArray[np.int64],
    deck_mask: int,
    double_ace: bool,
) -> int:
    """The value of the best five of the natural cards (``counts`` per rank, ``suit_masks``
    per suit) plus ``wild`` fully wild cards and ``bugs`` bugs.  ``counts`` is used as scratch
    (the bugs are added to the aces) and must be rebuilt before the next call.
    """
    best = -1
    free = wild + bugs  # wild cards that may complete a straight, flush or straight flush
    if free > 5:
        free = 5
    natural = suit_masks[0] | suit_masks[1] | suit_masks[2] | suit_masks[3]
    place = strength[_STRAIGHT_FLUSH]
    if place >= 0:
        top = -1
        for suit in range(4):
            for k in range(straights.shape[0]):
                if straights[k, 1] <= top:
                    break
                if _popcount(straights[k, 0] & ~suit_masks[suit]) <= free:
                    top = straights[k, 1]
                    break
        if top >= 0:
            best = max(best, place << 20 | top << 16)
    place = strength[_FLUSH]
    if place >= 0:
        for suit in range(4):
            mask = suit_masks[suit]
            if _popcount(mask) + free < 5:
                continue
            packed = 0
            taken = 0
            left = free
            if double_ace:
                # Wild cards in a flush play as aces, even beside the natural ace.
                while left > 0 and taken < 5:
                    packed = (packed << 4) | _ACE
                    taken += 1
                    left -= 1
                left = 0
            for rank in range(12, -1, -1):
                if taken == 5:
                    break
                if (mask >> rank) & 1:
                    packed = (packed << 4) | rank
                    taken += 1
                elif left > 0 and (deck_mask >> rank) & 1:
                    packed = (packed << 4) | rank
                    taken += 1
                    left -= 1
            best = max(best, place << 20 | packed)
    place = strength[_STRAIGHT]
    if place >= 0:
        for k in range(straights.shape[0]):
            if _popcount(straights[k, 0] & ~natural) <= free:
                best = max(best, place << 20 | straights[k, 1] << 16)
                break
    # Outside straights and flushes a bug is an ace (a fifth ace makes five of a kind).
    counts[_ACE] += bugs
    place = strength[_FIVE_OF_A_KIND]
    if place >= 0:
        for rank in range(12, -1, -1):
            if (deck_mask >> rank) & 1 and counts[rank] + wild >= 5:
                best = max(best, place << 20 | rank << 16)
                break
    place = strength[_FOUR_OF_A_KIND]
    if place >= 0:
        for rank in range(12, -1, -1):
            if not (deck_mask >> rank) & 1 or counts[rank] + wild < 4:
                continue
            left = wild - max(0, 4 - counts[rank])
            kicker = 0
            if left > 0:
                for other in range(12, -1, -1):
                    if other != rank and (deck_mask >> other) & 1:
                        kicker = other
                        break
            else:
                kicker = _kickers(counts, 1 << rank, 1)
            best = max(best, place << 20 | _slots(rank, kicker, 0, 0, 0))
            break
    place = strength[_FULL_HOUSE]
    if place >= 0:
        found = False
        for trips in range(12, -1, -1):
            if not (deck_mask >> trips) & 1:
                continue
            for pair in range(12, -1, -1):
                if pair == trips or not (deck_mask >> pair) & 1:
                    continue
                if max(0, 3 - counts[trips]) + max(0, 2 - counts[pair]) <= wild:
                    best = max(best, place << 20 | _slots(trips, pair, 0, 0, 0))
                    found = True
                    break
            if found:
                break
    place = strength[_THREE_OF_A_KIND]
    if place >= 0:
        for rank in range(12, -1, -1):
            if not (deck_mask >> rank) & 1 or counts[rank] + wild < 3:
                continue
            left = wild - max(0, 3 - counts[rank])
            packed = 0
            taken = 0
            for other in range(12, -1, -1):
                if taken < 2 and left > 0 and other != rank and (deck_mask >> other) & 1:
                    packed = (packed << 4) | other
                    taken += 1
                    left -= 1
            kickers = _kickers(counts, 1 << rank, 2 - taken)
            packed = (packed << (4 * (2 - taken))) | kickers
            best = max(best, place << 20 | rank << 16 | packed << 8)
            break
    # With a wild card, trips beat any two pair or pair it could make, except a lone
    # wild card pairing the top card when nothing better exists.
    if wild == 0:
        place = strength[_TWO_PAIR]
        if place >= 0:
            high = -1
            low = -1
            for rank in range(12, -1, -1):
                if counts[rank] >= 2:
                    if high < 0:
                        high = rank
                    elif low < 0:
                        low = rank
            if low >= 0:
                kicker = _kickers(counts, 1 << high | 1 << low, 1)
                best = max(best, place << 20 | _slots(high, low, kicker, 0, 0))
    if wild <= 1:
        place = strength[_ONE_PAIR]
        if place >= 0:
            for rank in range(12, -1, -1):
                if counts[rank] + wild >= 2:
                    best = max(best, place << 20 | rank << 16 | _kickers(counts, 1 << rank, 3) << 4)
                    break
    if wild == 0:
        place = strength[_HIGH_CARD]
        if place >= 0:
            best = max(best, place << 20 | _kickers(counts, 0, 5))
        place = strength[_FOUR_STRAIGHT]
        if place >= 0:
            for k in range(four_straights.shape[0]):
                run = four_straights[k, 0]
                if run & natural == run:
                    for rank in range(13):
                        if (run >> rank) & 1:
                            counts[rank] -= 1
                    kicker = _kickers(counts, 0, 1)
                    for rank in range(13):
                        if (run >> rank) & 1:
                            counts[rank] += 1
                    best = max(best, place << 20 | _slots(four_straights[k, 1], kicker, 0, 0, 0))
                    break
        place = strength[_FOUR_FLUSH]
        if place >= 0:
            for suit in range(4):
                mask = suit_masks[suit]
                if _popcount(mask) < 4:
                    continue
                four = 0
                taken = 0
                for rank in range(12, -1, -1):
                    if taken < 4 and (mask >> rank) & 1:
                        four = (four << 4) | rank
                        taken += 1
                        counts[rank] -= 1
                kicker = _kickers(counts, 0, 1)
                for slot in range(4):
                    counts[(four >> (4 * slot)) & 15] += 1
                best = max(best, place << 20 | four << 4 | kicker)
    counts[_ACE] -= bugs
    return best


@nb.njit(cache=True)
def system_values(
    hands: npt.NDArray[np.int8],
    combos: npt.NDArray[np.int8],
    straights: npt.NDArray[np.int64],
    four_straights: npt.NDArray[np.int64],
    strength: npt.NDArray[np.int64],
    deck_mask: int,
    wild_mask: int,
    bug_mask: int,
    double_ace: bool,
    out: npt.NDArray[np.int32],
) -> None:
    """Each row's best value over the card subsets ``combos`` (column indices per row).

    A single subset holding every column values the best five of the whole row.
    """
    counts = np.zeros(13, dtype=np.int64)
    suit_masks = np.zeros(4, dtype=np.int64)
    n_combos, width = combos.shape
    for i in range(hands.shape[0]):
        best = -1
        for c in range(n_combos):
            counts[:] = 0
            suit_masks[:] = 0
            wild = 0
            bugs = 0
            for j in range(width):
                card = np.int64(hands[i, combos[c, j]])
                if (wild_mask >> card) & 1:
                    wild += 1
                elif (bug_mask >> card) & 1:
                    bugs += 1
                else:
                    counts[card >> 2] += 1
                    suit_masks[card & 3] |= 1 << (card >> 2)
            value = best_value(
                counts,
                suit_masks,
                wild,
                bugs,
                straights,
                four_straights,
                strength,
                deck_mask,
                double_ace,
            )
            best = max(best, value)
        out[i] = best
