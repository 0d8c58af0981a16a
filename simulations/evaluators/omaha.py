"""Omaha high: the best five cards from exactly two hole cards and exactly three board cards.

Rules 002, 'Omaha hold 'em': "each player's hand is the best five-card hand he can make from
exactly three of the five cards on the board, plus exactly two of his own cards"; the same with
five hole cards.

* :func:`evaluate_omaha` is the reference: every (two hole, three board) choice valued by
  :func:`~simulations.evaluators.high.evaluate_high`, the largest kept.
* :func:`evaluate_omaha_batch` runs :func:`two_plus_three_values`, a compiled loop over an
  ``(n, hole + board)`` array.  A five-card hand without a flush is valued by one look-up in a
  table indexed by the rank multiset of the two hole cards (91 classes) and that of the three
  board cards (455 classes); 41,405 values, 166 KB, small enough to stay in cache.  A flush
  needs two suited hole cards and a suited board triple of their suit, so flush work is skipped
  unless the board holds three cards of one suit.  The same kernel serves every game whose
  hand is two hole cards plus three board cards from given board lines (Manila-style layouts,
  tic-tac-toe, Chowaha; see ``simulations.evaluators.selection``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.cards import FIRST_JOKER, format_card, is_joker_code, parse_cards
from simulations.evaluators.hand_input import row_array
from simulations.evaluators.hand_value import HandValue
from simulations.evaluators.high import TABLES, evaluate_high
from simulations.evaluators.high_tables import COUNT_UNIT, RANK_KEYS, ROW_SHIFT

OMAHA_HOLE_CARDS = (4, 5)
BOARD_CARDS = 5
PAIR_CLASSES = 91  # rank multisets of two cards
TRIPLE_CLASSES = 455  # rank multisets of three cards
BOARD_TRIPLES = np.array(list(itertools.combinations(range(BOARD_CARDS), 3)), dtype=np.int8)
BOARD_TRIPLES.setflags(write=False)


@dataclass(frozen=True, eq=False)
class TwoPlusThreeTables:
    """Read-only arrays of :func:`two_plus_three_values`."""

    pair_class: npt.NDArray[np.int32]  # by rank_a * 13 + rank_b
    triple_class: npt.NDArray[np.int32]  # by rank_a * 169 + rank_b * 13 + rank_c
    values: npt.NDArray[np.int32]  # non-flush value by pair class * 455 + triple class
    flush_values: npt.NDArray[np.int32]  # by the 13-bit rank mask of five suited cards


def _multiset_classes(size: int) -> tuple[npt.NDArray[np.int32], list[tuple[int, ...]]]:
    """A class index for every ordered tuple of ``size`` ranks, equal for equal multisets."""
    multisets = list(itertools.combinations_with_replacement(range(13), size))
    index = {m: i for i, m in enumerate(multisets)}
    classes = np.empty(13**size, dtype=np.int32)
    for flat, ranks in enumerate(itertools.product(range(13), repeat=size)):
        classes[flat] = index[tuple(sorted(ranks))]
    return classes, multisets


def build_two_plus_three_tables() -> TwoPlusThreeTables:
    """Tables read from the high evaluator's own tables (a few milliseconds)."""
    pair_class, pairs = _multiset_classes(2)
    triple_class, triples = _multiset_classes(3)
    counts = np.zeros((len(pairs), len(triples), 13), dtype=np.int64)
    for p, pair in enumerate(pairs):
        for rank in pair:
            counts[p, :, rank] += 1
    for t, triple in enumerate(triples):
        for rank in triple:
            counts[:, t, rank] += 1
    # The rank part of a five-card key sum, looked up exactly as the high evaluator does.
    sums = counts @ (np.array(RANK_KEYS, dtype=np.int64) + COUNT_UNIT)
    possible = counts.max(axis=2) <= 4  # five of a rank cannot be dealt
    sums = np.where(possible, sums, 0)
    col_mask = (1 << ROW_SHIFT) - 1
    slots = TABLES.row_offsets[sums >> ROW_SHIFT] + (sums & col_mask)
    values = np.where(possible, TABLES.rank_values[slots], 0).astype(np.int32).reshape(-1)
    tables = TwoPlusThreeTables(pair_class, triple_class, values, TABLES.flush_values)
    for array in (tables.pair_class, tables.triple_class, tables.values):
        array.setflags(write=False)
    return tables


OMAHA_TABLES = build_two_plus_three_tables()


@nb.njit(cache=True)
def two_plus_three_values(
    hands: npt.NDArray[np.int8],
    n_hole: int,
    triples: npt.NDArray[np.int8],
    pair_class: npt.NDArray[np.int32],
    triple_class: npt.NDArray[np.int32],
    values: npt.NDArray[np.int32],
    flush_values: npt.NDArray[np.int32],
    out: npt.NDArray[np.int32],
) -> None:
    """Best high value of each row: two of its first ``n_hole`` cards and one board triple.

    ``triples`` holds board positions (columns after the hole cards).  Rows must hold distinct
    standard cards (unchecked).  The loop indexes the 2-D array directly, never a row view.
    """
    n_triples = triples.shape[0]
    t_class = np.empty(n_triples, dtype=np.int64)
    t_suit = np.empty(n_triples, dtype=np.int64)
    t_mask = np.empty(n_triples, dtype=np.int64)
    for i in range(hands.shape[0]):
        suited = False
        for t in range(n_triples):
            a = np.int64(hands[i, n_hole + triples[t, 0]])
            b = np.int64(hands[i, n_hole + triples[t, 1]])
            c = np.int64(hands[i, n_hole + triples[t, 2]])
            t_class[t] = triple_class[(a >> 2) * 169 + (b >> 2) * 13 + (c >> 2)]
            suit = a & 3
            if (b & 3) == suit and (c & 3) == suit:
                t_suit[t] = suit
                t_mask[t] = (1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2))
                suited = True
            else:
                t_suit[t] = -1
        best = 0
        for p in range(n_hole - 1):
            x = np.int64(hands[i, p])
            for q in range(p + 1, n_hole):
                y = np.int64(hands[i, q])
                base = pair_class[(x >> 2) * 13 + (y >> 2)] * 455
                for t in range(n_triples):
                    v = values[base + t_class[t]]
                    if v > best:
                        best = v
                # A flush takes two hole cards of one suit and a board triple of that suit.
                if suited and (x & 3) == (y & 3):
                    pair_mask = (1 << (x >> 2)) | (1 << (y >> 2))
                    for t in range(n_triples):
                        if t_suit[t] == (x & 3):
                            v = flush_values[pair_mask | t_mask[t]]
                            if v > best:
                                best = v
        out[i] = best


def _codes(cards: str | Sequence[int], what: str) -> list[int]:
    parsed = parse_cards(cards) if isinstance(cards, str) else cards
    codes = []
    for code in parsed:
        if isinstance(code, bool) or not isinstance(code, int | np.integer):
            raise ValueError(f"{code!r} among the {what} is not a card code")
        card = int(code)
        if not 0 <= card < FIRST_JOKER:
            label = "a joker" if is_joker_code(card) else f"card code {card}"
            raise ValueError(f"the {what} hold {label}; Omaha high has no wild cards")
        codes.append(card)
    return codes


def evaluate_omaha(hole: str | Sequence[int], board: str | Sequence[int]) -> HandValue:
    """The best Omaha high hand: exactly two of 4 or 5 hole cards with three of five board cards.

    This is the reference: every choice valued by ``evaluate_high`` and the largest kept.
    """
    hole_codes = _codes(hole, "hole cards")
    board_codes = _codes(board, "board cards")
    if len(hole_codes) not in OMAHA_HOLE_CARDS:
        raise ValueError(f"an Omaha hand has 4 or 5 hole cards, got {len(hole_codes)}")
    if len(board_codes) != BOARD_CARDS:
        raise ValueError(f"an Omaha board has 5 cards, got {len(board_codes)}")
    seen: set[int] = set()
    for card in hole_codes + board_codes:
        if card in seen:
            raise ValueError(f"duplicate card {format_card(card)}")
        seen.add(card)
    return max(
        evaluate_high([*pair, *triple])
        for pair in itertools.combinations(hole_codes, 2)
        for triple in itertools.combinations(board_codes, 3)
    )


def evaluate_omaha_batch(
    hands: npt.ArrayLike, hole_cards: int = 4, *, check: bool = True
) -> npt.NDArray[np.int32]:
    """Omaha high values of an ``(n, hole_cards + 5)`` array: hole cards first, then the board.

    With ``check`` (the default) rows with repeated cards, jokers or bad codes are refused.
    """
    if hole_cards not in OMAHA_HOLE_CARDS:
        raise ValueError(f"Omaha deals 4 or 5 hole cards, got {hole_cards}")
    rows = f"Omaha rows hold {hole_cards} hole and {BOARD_CARDS} board cards"
    array = row_array(hands, hole_cards + BOARD_CARDS, rows, check=check)
    return two_plus_three_batch(array, hole_cards, BOARD_TRIPLES)


def two_plus_three_batch(
    hands: npt.NDArray[np.int8], n_hole: int, triples: npt.NDArray[np.int8]
) -> npt.NDArray[np.int32]:
    """Run :func:`two_plus_three_values` with the shipped tables (rows unchecked)."""
    t = OMAHA_TABLES
    out = np.empty(hands.shape[0], dtype=np.int32)
    two_plus_three_values(
        hands, n_hole, triples, t.pair_class, t.triple_class, t.values, t.flush_values, out
    )
    return out
