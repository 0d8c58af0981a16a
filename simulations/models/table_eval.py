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

from simulations.evaluators.high import flush_suit, rank_lookup

HOLDEM = 0
OMAHA = 1


@nb.njit(cache=True, inline="always")
def board_key(board: npt.NDArray[np.int64], shown: int, card_keys: npt.NDArray[np.int64]) -> int:
    """The summed keys of the first ``shown`` board cards (see :mod:`~.high_tables`)."""
    key = 0
    for j in range(shown):
        key += card_keys[board[j]]
    return key


@nb.njit(cache=True, inline="always")
def holdem_value(
    holes: npt.NDArray[np.int64],
    p: int,
    board: npt.NDArray[np.int64],
    shown: int,
    key_of_board: int,
    card_keys: npt.NDArray[np.int64],
    flush_values: npt.NDArray[np.int32],
    row_offsets: npt.NDArray[np.int32],
    rank_values: npt.NDArray[np.int32],
) -> int:
    """The high value of seat ``p``'s two hole cards with the first ``shown`` board cards,
    whose keys sum to ``key_of_board``."""
    h0 = holes[p, 0]
    h1 = holes[p, 1]
    key = key_of_board + card_keys[h0] + card_keys[h1]
    suit = flush_suit(key)
    if suit < 0:
        return rank_lookup(key, row_offsets, rank_values)
    mask = 0
    if h0 & 3 == suit:
        mask |= 1 << (h0 >> 2)
    if h1 & 3 == suit:
        mask |= 1 << (h1 >> 2)
    for j in range(shown):
        c = board[j]
        if c & 3 == suit:
            mask |= 1 << (c >> 2)
    return int(flush_values[mask])


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
    """Seat ``p``'s six two-card choices for :func:`omaha_value_of`: ``pairs[p, i]`` holds
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


@nb.njit(cache=True, inline="always")
def board_triples(
    board: npt.NDArray[np.int64],
    shown: int,
    triple_class: npt.NDArray[np.int32],
    triples: npt.NDArray[np.int64],
) -> int:
    """The three-card choices of the first ``shown`` board cards for
    :func:`omaha_value_of` (``triples[t]``: rank class, suit or -1, rank mask); returns how
    many."""
    t = 0
    for a in range(shown - 2):
        for b in range(a + 1, shown - 1):
            for c in range(b + 1, shown):
                x = board[a]
                y = board[b]
                z = board[c]
                triples[t, 0] = triple_class[(x >> 2) * 169 + (y >> 2) * 13 + (z >> 2)]
                suited = x & 3 == y & 3 and y & 3 == z & 3
                triples[t, 1] = x & 3 if suited else -1
                triples[t, 2] = (1 << (x >> 2)) | (1 << (y >> 2)) | (1 << (z >> 2))
                t += 1
    return t


@nb.njit(cache=True, inline="always")
def omaha_value_of(
    pairs: npt.NDArray[np.int64],
    p: int,
    triples: npt.NDArray[np.int64],
    count: int,
    values: npt.NDArray[np.int32],
    flush_values: npt.NDArray[np.int32],
) -> int:
    """The best Omaha high value of seat ``p`` from his six two-card choices and the board's
    ``count`` three-card choices (:func:`omaha_pairs`, :func:`board_triples`): the same
    value as :func:`omaha_value`, each class looked up once a hand or a street."""
    best = 0
    for i in range(6):
        base = pairs[p, i, 0]
        suit = pairs[p, i, 1]
        for t in range(count):
            v = values[base + triples[t, 0]]
            if suit >= 0 and triples[t, 1] == suit:
                v = flush_values[pairs[p, i, 2] | triples[t, 2]]
            if v > best:
                best = v
    return int(best)
