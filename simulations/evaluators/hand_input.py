"""Checking the cards handed to a ranking system, one hand or a whole array of hands.

Every ranking system takes a fixed range of card counts and ranks standard cards only
(wild cards are ranked elsewhere).  The checks here give one clear ``ValueError`` naming
the system and the problem: a wrong card count, a repeated card, a joker, a bad code.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.cards import FIRST_JOKER, format_card, is_joker_code, parse_cards

CardsLike = str | Sequence[int]


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


def _count_words(min_cards: int, max_cards: int) -> str:
    if min_cards == max_cards:
        return f"{min_cards} card" + ("s" if min_cards != 1 else "")
    return f"{min_cards} to {max_cards} cards"


def hand_cards(cards: CardsLike, min_cards: int, max_cards: int, system: str) -> tuple[int, ...]:
    """The card codes of one hand, given as text ('As Kd ...') or codes, after every check."""
    parsed: Sequence[int] = parse_cards(cards) if isinstance(cards, str) else cards
    if isinstance(parsed, np.ndarray):
        parsed = parsed.tolist()
    if not min_cards <= len(parsed) <= max_cards:
        raise ValueError(
            f"a {system} hand needs {_count_words(min_cards, max_cards)}, got {len(parsed)}"
        )
    seen = 0
    codes = []
    for code in parsed:
        if isinstance(code, bool) or not isinstance(code, int | np.integer):
            raise ValueError(f"{code!r} is not a card code")
        card = int(code)
        if not 0 <= card < FIRST_JOKER:
            what = "a joker" if is_joker_code(card) else f"card code {card}"
            raise ValueError(f"{what} cannot be ranked by the {system} evaluator (no wild cards)")
        if seen >> card & 1:
            raise ValueError(f"duplicate card {format_card(card)}")
        seen |= 1 << card
        codes.append(card)
    return tuple(codes)


def row_array(
    hands: npt.ArrayLike, width: int, rows: str, *, check: bool = True
) -> npt.NDArray[np.int8]:
    """An ``(n, width)`` C-contiguous int8 array of card codes whose columns have fixed
    roles (hole cards, then the board); ``rows`` says what a row holds, for the error."""
    array = np.asarray(hands)
    if array.ndim != 2 or array.shape[1] != width:
        raise ValueError(f"{rows}: expected shape (n, {width}), got shape {array.shape}")
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"hands must hold integer card codes, got {array.dtype}")
    if array.size and (array.min() < 0 or array.max() > 127):
        raise ValueError("card codes must lie in 0..51")
    array = np.ascontiguousarray(array, dtype=np.int8)
    if check:
        check_hands(array)
    return array


def hand_array(
    hands: npt.ArrayLike, min_cards: int, max_cards: int, system: str, *, check: bool = True
) -> npt.NDArray[np.int8]:
    """An ``(n, k)`` C-contiguous int8 array of card codes for a ``system`` batch kernel.

    With ``check`` every row is checked for codes outside 0..51 (jokers included) and for
    repeated cards; the kernels index tables by card code and must never see either.
    """
    if (
        not check
        and isinstance(hands, np.ndarray)
        and hands.dtype == np.int8
        and hands.ndim == 2
        and hands.flags.c_contiguous
        and min_cards <= hands.shape[1] <= max_cards
    ):
        return hands  # a dealer's array, as the kernels take it: nothing to convert
    array = np.asarray(hands)
    if array.ndim != 2:
        raise ValueError(f"hands must be a 2-D array (hands x cards), got {array.ndim} dimensions")
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"hands must hold integer card codes, got {array.dtype}")
    if not min_cards <= array.shape[1] <= max_cards:
        raise ValueError(
            f"{system} hands need {_count_words(min_cards, max_cards)} each, got {array.shape[1]}"
        )
    if check and array.size and (array.min() < -128 or array.max() > 127):
        # Out of int8 range: converting would wrap the code into a valid-looking card.
        raise ValueError(f"card codes must lie in 0..51, got {int(array.min())}..{array.max()}")
    result = np.ascontiguousarray(array, dtype=np.int8)
    if check:
        check_hands(result)
    return result
