"""Compiled hand values for the economics kernel and the starting-hand tables: a hold'em
player's best five of his two hole cards and the board so far, an Omaha player's best five
of exactly two of his four hole cards and exactly three of the board so far (Rules
002_376df91f076a6501.txt, 'Omaha hold 'em': 'the best five-card hand he can make from
exactly three of the five cards on the board, plus exactly two of his own cards').

Both read the high evaluator's tables (:mod:`simulations.evaluators.high`,
:mod:`simulations.evaluators.omaha`); the reference player values the same hands with the
scalar evaluators (:func:`~simulations.evaluators.high.evaluate_high`), independently.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.evaluators.high import card_bit, high_value, inlined_flush_suit

HOLDEM = 0
OMAHA = 1


@nb.njit(cache=True, inline="always")
def board_key(board: npt.NDArray[np.int64], shown: int, card_keys: npt.NDArray[np.int64]) -> int:
    """The summed keys of the first ``shown`` board cards (see :mod:`~.high_tables`)."""
    key = 0
    for j in range(shown):
        key += card_keys[board[j]]
    return key


@nb.njit(cache=True)
def holdem_value(
    holes: npt.NDArray[np.int64],
    p: int,
    board: npt.NDArray[np.int64],
    shown: int,
    key_of_board: int,
    card_keys: npt.NDArray[np.int64],
    flush_values: npt.NDArray[np.int32],
    row_offsets: npt.NDArray[np.int32],
    rank_classes: npt.NDArray[np.uint16],
    class_values: npt.NDArray[np.int32],
) -> int:
    """The high value of seat ``p``'s two hole cards with the first ``shown`` board cards,
    whose keys sum to ``key_of_board``; the rank table read through
    :class:`~simulations.evaluators.high.RankClasses`."""
    h0 = holes[p, 0]
    h1 = holes[p, 1]
    key = key_of_board + card_keys[h0] + card_keys[h1]
    suited = 0
    if inlined_flush_suit(key) >= 0:  # the suited bits only for a flush: a few in a hundred
        suited = card_bit(h0) | card_bit(h1)
        for j in range(shown):
            suited |= card_bit(board[j])
    return high_value(key, suited, flush_values, row_offsets, class_values, rank_classes)


@nb.njit(cache=True, inline="always")
def two_plus_three(
    x: int,
    y: int,
    a: int,
    b: int,
    c: int,
    pair_class: npt.NDArray[np.int32],
    triple_class: npt.NDArray[np.int32],
    values: npt.NDArray[np.int32],
    flush_values: npt.NDArray[np.int32],
) -> int:
    """The high value of the five cards: hole cards ``x``, ``y`` and board cards ``a``..``c``."""
    suit = x & 3
    if y & 3 == suit and a & 3 == suit and b & 3 == suit and c & 3 == suit:
        mask = (1 << (x >> 2)) | (1 << (y >> 2)) | (1 << (a >> 2)) | (1 << (b >> 2))
        return int(flush_values[mask | (1 << (c >> 2))])
    pair = pair_class[(x >> 2) * 13 + (y >> 2)]
    return int(values[pair * 455 + triple_class[(a >> 2) * 169 + (b >> 2) * 13 + (c >> 2)]])


@nb.njit(cache=True, inline="always")
def omaha_value(
    holes: npt.NDArray[np.int64],
    p: int,
    board: npt.NDArray[np.int64],
    shown: int,
    pair_class: npt.NDArray[np.int32],
    triple_class: npt.NDArray[np.int32],
    values: npt.NDArray[np.int32],
    flush_values: npt.NDArray[np.int32],
) -> int:
    """The best Omaha high value of seat ``p``'s four hole cards, exactly two of them, with
    exactly three of the first ``shown`` board cards (3, 4 or 5)."""
    best = 0
    for i in range(3):
        for j in range(i + 1, 4):
            x = holes[p, i]
            y = holes[p, j]
            for a in range(shown - 2):
                for b in range(a + 1, shown - 1):
                    for c in range(b + 1, shown):
                        v = two_plus_three(
                            x,
                            y,
                            board[a],
                            board[b],
                            board[c],
                            pair_class,
                            triple_class,
                            values,
                            flush_values,
                        )
                        if v > best:
                            best = v
    return best


@nb.njit(cache=True, inline="always")
def omaha_pairs(
    holes: npt.NDArray[np.int64],
    p: int,
    pair_class: npt.NDArray[np.int32],
    pairs: npt.NDArray[np.int64],
) -> None:
    """Seat ``p``'s six two-card choices for :func:`omaha_best`: ``pairs[p, i]`` holds
    the choice's rank class times 455, its suit (-1: not suited) and its rank mask."""
    i = 0
    for a in range(3):
        for b in range(a + 1, 4):
            x = holes[p, a]
            y = holes[p, b]
            pairs[p, i, 0] = pair_class[(x >> 2) * 13 + (y >> 2)] * 455
            pairs[p, i, 1] = x & 3 if x & 3 == y & 3 else -1
            pairs[p, i, 2] = (1 << (x >> 2)) | (1 << (y >> 2))
            i += 1


# How many of the board's three-card choices the flop, the turn and the river have, with the
# choices listed in the order the streets bring them (:func:`street_triples`): a street's
# choices are the previous street's and those holding its new card.
STREET_TRIPLES = (1, 4, 10)


@nb.njit(cache=True, inline="always")
def street_triples(
    board: npt.NDArray[np.int64],
    triple_class: npt.NDArray[np.int32],
    triples: npt.NDArray[np.int64],
) -> None:
    """The ten three-card choices of the whole board for :func:`omaha_best` (``triples[t]``:
    rank class, suit or -1, rank mask), ordered so that the
    first ``STREET_TRIPLES[street]`` are the choices of the board on that street: a seat's
    value on a later street needs only the choices the new cards add."""
    t = 0
    for c in range(2, 5):
        for b in range(1, c):
            for a in range(b):
                x = board[a]
                y = board[b]
                z = board[c]
                triples[t, 0] = triple_class[(x >> 2) * 169 + (y >> 2) * 13 + (z >> 2)]
                suited = x & 3 == y & 3 and y & 3 == z & 3
                triples[t, 1] = x & 3 if suited else -1
                triples[t, 2] = (1 << (x >> 2)) | (1 << (y >> 2)) | (1 << (z >> 2))
                t += 1


@nb.njit(cache=True, inline="always")
def omaha_best(
    pairs: npt.NDArray[np.int64],
    p: int,
    triples: npt.NDArray[np.int64],
    low: int,
    high: int,
    best: int,
    values: npt.NDArray[np.int32],
    flush_values: npt.NDArray[np.int32],
) -> int:
    """The best of ``best`` and seat ``p``'s six two-card choices with the board's three-card
    choices ``low .. high - 1`` (:func:`omaha_pairs`, :func:`street_triples`): from 0, the
    value :func:`omaha_value` gives; from a street's best, the next street's.

    The rank-class table is read for every choice, the flush table only for the suited ones:
    five cards of one suit have five ranks, so their rank-class value is a straight or less,
    below the flush they make, and the larger of the two is the hand's value."""
    for t in range(low, high):
        tri = triples[t, 0]
        for i in range(6):
            v = values[pairs[p, i, 0] + tri]
            best = v if v > best else best
    for t in range(low, high):
        suit = triples[t, 1]
        if suit >= 0:
            for i in range(6):
                if pairs[p, i, 1] == suit:
                    v = flush_values[pairs[p, i, 2] | triples[t, 2]]
                    best = v if v > best else best
    return int(best)
