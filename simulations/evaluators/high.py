"""High-hand evaluation: the best five cards of five, six or seven (hold'em, stud, draw).

Two entry points share one compiled core:

* :func:`evaluate_high` — one hand, for the reference engine: parses and checks the
  cards and returns a :class:`HandValue` with the value, category and name;
* :func:`evaluate_high_batch` — an ``(n, k)`` array of card codes evaluated in one
  compiled loop with no Python call per hand, for simulations.

Kernels elsewhere (the bad-beat model) call :func:`flush_suit` and :func:`rank_lookup` directly on
summed card keys.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.cards import FIRST_JOKER, format_card, is_joker_code, parse_cards
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


@nb.njit(cache=True)
def flush_suit(key: int) -> int:
    """The suit holding five or more of the cards whose keys sum to ``key``, or -1.

    With at most seven cards only one suit can hold five.
    """
    probe = (key + FLUSH_PROBE) & FLUSH_BITS
    if probe == 0:
        return -1
    return (probe > 0x8) + (probe > 0x80) + (probe > 0x800)


@nb.njit(cache=True)
def rank_lookup(
    key: int, row_offsets: npt.NDArray[np.int32], rank_values: npt.NDArray[np.int32]
) -> int:
    """The value of a hand with no flush, from its summed card key."""
    ranks = key >> SUIT_FIELD_BITS
    return int(rank_values[row_offsets[ranks >> ROW_SHIFT] + (ranks & _COL_MASK)])


@nb.njit(cache=True)
def batch_values(
    hands: npt.NDArray[np.int8],
    card_keys: npt.NDArray[np.int64],
    flush_values: npt.NDArray[np.int32],
    row_offsets: npt.NDArray[np.int32],
    rank_values: npt.NDArray[np.int32],
    out: npt.NDArray[np.int32],
) -> None:
    """High values of each row of ``hands`` (5 to 7 distinct codes 0..51, unchecked).

    The loop indexes the 2-D array directly: a row view per hand would cost more than
    the evaluation itself.
    """
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


@nb.njit(cache=True)
def first_invalid_row(hands: npt.NDArray[np.int8], n_codes: int) -> int:
    """The first row holding a code outside 0..n_codes-1 or a repeated card, or -1."""
    n_hands, n_cards = hands.shape
    for i in range(n_hands):
        # Distinct cards set distinct bits, so their sum equals their union; a repeat carries.
        total = 0
        union = 0
        out_of_range = False
        for j in range(n_cards):
            c = hands[i, j]
            out_of_range |= (c < 0) | (c >= n_codes)
            bit = 1 << (c & 63)
            total += bit
            union |= bit
        if out_of_range or total != union:
            return i
    return -1


def _as_hand_array(hands: npt.ArrayLike) -> npt.NDArray[np.int8]:
    array = np.asarray(hands)
    if array.ndim != 2:
        raise ValueError(f"hands must be a 2-D array (hands x cards), got {array.ndim} dimensions")
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"hands must hold integer card codes, got {array.dtype}")
    if array.size and (array.min() < -128 or array.max() > 127):
        raise ValueError("card codes must lie in 0..51")
    return np.ascontiguousarray(array, dtype=np.int8)


def check_hands(hands: npt.NDArray[np.int8], n_codes: int = FIRST_JOKER) -> None:
    """Raise ``ValueError`` naming the first row that is not a set of distinct valid cards."""
    row = first_invalid_row(hands, n_codes)
    if row < 0:
        return
    cards = hands[row]
    bad = [int(c) for c in cards if not 0 <= c < n_codes]
    if bad:
        what = "a joker" if is_joker_code(bad[0]) else f"card code {bad[0]}"
        raise ValueError(f"hand {row} holds {what}, which this evaluator does not rank")
    seen: set[int] = set()
    for c in cards:
        if int(c) in seen:
            raise ValueError(f"hand {row} holds {format_card(int(c))} twice")
        seen.add(int(c))


def evaluate_high_batch(hands: npt.ArrayLike, *, check: bool = True) -> npt.NDArray[np.int32]:
    """High values of an ``(n, k)`` array of card codes, 5 <= k <= 7, one value per row.

    With ``check`` (the default) every row is first checked for codes outside 0..51
    (jokers included) and for repeated cards; pass ``check=False`` only for arrays a
    dealer built, which cannot hold either.
    """
    array = _as_hand_array(hands)
    if not MIN_CARDS <= array.shape[1] <= MAX_CARDS:
        raise ValueError(f"high hands need 5 to 7 cards each, got {array.shape[1]}")
    if check:
        check_hands(array)
    out = np.empty(array.shape[0], dtype=np.int32)
    t = TABLES
    batch_values(array, t.card_keys, t.flush_values, t.row_offsets, t.rank_values, out)
    return out


def evaluate_high(cards: str | Sequence[int]) -> HandValue:
    """The best high hand from 5, 6 or 7 cards, given as text ('As Kd ...') or card codes."""
    parsed: Sequence[int] = parse_cards(cards) if isinstance(cards, str) else cards
    if not MIN_CARDS <= len(parsed) <= MAX_CARDS:
        raise ValueError(f"a high hand needs 5 to 7 cards, got {len(parsed)}")
    seen = 0
    for code in parsed:
        if isinstance(code, bool) or not isinstance(code, int | np.integer):
            raise ValueError(f"{code!r} is not a card code")
        card = int(code)
        if not 0 <= card < FIRST_JOKER:
            what = "a joker" if is_joker_code(card) else f"card code {card}"
            raise ValueError(f"{what} cannot be ranked by the high-hand evaluator (no wild cards)")
        if seen >> card & 1:
            raise ValueError(f"duplicate card {format_card(int(card))}")
        seen |= 1 << card
    hand = np.array([parsed], dtype=np.int8)
    t = TABLES
    out = np.empty(1, dtype=np.int32)
    batch_values(hand, t.card_keys, t.flush_values, t.row_offsets, t.rank_values, out)
    return HandValue(int(out[0]))
