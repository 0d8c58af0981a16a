"""Stud upcards: the bring-in card and the showing hand that acts first.

On the first round of seven-card stud the lowest upcard pays the bring-in, suits breaking a
tie in the order clubs, diamonds, hearts, spades (the 4♦ brings it in before the 4♠); in Razz
and London lowball the highest upcard pays it, aces always low.  On later rounds the best
hand showing acts first: with fewer than five cards up only pairs, two pair, three and four
of a kind count (no straights or flushes), ties between players going to the first in
clockwise rotation.  In Razz and London lowball the lowest hand showing acts first, ranked
ace-to-five (a pair is worse than any unpaired hand, and a lower pair better than a higher).

A showing value packs the category above the deciding ranks, highest first,
``category << 16 | r1 << 12 | r2 << 8 | r3 << 4 | r4`` (categories as for high hands), each
slot holding the rank plus one so that an empty slot (fewer cards up) reads 0; the low value
is ``SHOWING_CEILING`` less that pack on the ace-low scale, so that it too is higher for the
hand that acts first.  Hands showing different numbers of cards never meet at a stud table.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from functools import cache

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.cards import Rank
from simulations.evaluators.hand_input import CardsLike, hand_array, hand_cards
from simulations.evaluators.hand_value import Category
from simulations.evaluators.ranking import Ranking

__all__ = [
    "MAX_UPCARDS",
    "SHOWING_CEILING",
    "BringIn",
    "bring_in",
    "bring_in_order",
    "first_to_act",
    "showing_high",
    "showing_high_values",
    "showing_low",
    "showing_low_values",
    "showing_ranking",
    "showing_value",
    "showing_values_batch",
]

MAX_UPCARDS = 4
SHOWING_CEILING = 1 << 20  # above every showing pack (four of a kind is 7 << 16)
HIGH_SYSTEM = "stud showing, high"
LOW_SYSTEM = "stud showing, low"
_ACE_LOW_SYMBOLS = "A23456789TJQK"
_ACE_HIGH_SYMBOLS = "23456789TJQKA"


class BringIn(Enum):
    """Which upcard pays the bring-in."""

    LOW_CARD = "low card"  # seven-card stud, stud eight-or-better: aces high, clubs lowest
    HIGH_CARD = "high card"  # Razz, London lowball: aces low, spades highest
    # Mexican stud ('the high card on the first round pays the bring-in'): aces high, and a
    # joker face up, the bug, above every card.
    HIGH_CARD_ACES_HIGH = "high card, aces high"


def bring_in_order(card: int, rule: BringIn = BringIn.LOW_CARD) -> int:
    """How strongly ``card`` is due to bring it in: the largest upcard by this order pays."""
    rank, suit = card >> 2, card & 3
    if rule is BringIn.HIGH_CARD_ACES_HIGH:
        return card  # codes run deuce of clubs up to the ace of spades, then the jokers
    if rule is BringIn.HIGH_CARD:
        return ((rank + 1) % 13) * 4 + suit
    return 51 - (rank * 4 + suit)


def bring_in(upcards: CardsLike, rule: BringIn = BringIn.LOW_CARD) -> int:
    """The position (0 = first listed) of the player whose upcard pays the bring-in."""
    cards = hand_cards(upcards, 1, 52, f"{rule.value} bring-in")
    orders = [bring_in_order(card, rule) for card in cards]
    return orders.index(max(orders))


# --- showing hands, one at a time ---------------------------------------------------------------


def _showing_pack(ranks: list[int]) -> int:
    """Category and deciding ranks of 1-4 upcards (ranks on the scale in use)."""
    # (size, rank) of each group of equal ranks: the largest group first, then the higher rank.
    groups = sorted(((ranks.count(rank), rank) for rank in set(ranks)), reverse=True)
    sizes = [size for size, _ in groups]
    if sizes[0] == 4:
        category = Category.FOUR_OF_A_KIND
    elif sizes[0] == 3:
        category = Category.THREE_OF_A_KIND
    elif sizes[:2] == [2, 2]:
        category = Category.TWO_PAIR
    elif sizes[0] == 2:
        category = Category.ONE_PAIR
    else:
        category = Category.HIGH_CARD
    value = int(category) << 16
    for slot, (_, rank) in enumerate(groups):
        value |= (rank + 1) << (12 - 4 * slot)
    return value


def showing_ranking(value: int, *, low: bool = False) -> Ranking:
    """The :class:`Ranking` of a showing value ('Pair of Kings (K-K-9-3)', '8-4-2 low')."""
    pack = SHOWING_CEILING - value if low else value
    if not 0 <= pack < SHOWING_CEILING or pack >> 16 not in _SIZES or not pack >> 12 & 15:
        raise ValueError(f"{value} is not a showing value")
    category = Category(pack >> 16)
    ranks = [(pack >> shift & 15) - 1 for shift in (12, 8, 4, 0)]
    played = [r for r, n in zip(ranks, _SIZES[pack >> 16], strict=True) if r >= 0 for _ in range(n)]
    symbols = _ACE_LOW_SYMBOLS if low else _ACE_HIGH_SYMBOLS
    nouns = [Rank((r - 1) % 13) if low else Rank(r % 13) for r in ranks]
    cards = "-".join(symbols[r] for r in played)
    match category:
        case Category.HIGH_CARD:
            name = f"{cards} low" if low else f"{cards} high"
        case Category.ONE_PAIR:
            name = f"Pair of {nouns[0].plural} ({cards})"
        case Category.TWO_PAIR:
            name = f"Two pair, {nouns[0].plural} and {nouns[1].plural}"
        case Category.THREE_OF_A_KIND:
            name = f"Three {nouns[0].plural} ({cards})"
        case _:
            name = f"Four {nouns[0].plural}"
    return Ranking(LOW_SYSTEM if low else HIGH_SYSTEM, value, category.label, name)


# Category -> sizes of the rank groups in its slots (a pair may show with no kicker).
_SIZES = {
    int(Category.HIGH_CARD): (1, 1, 1, 1),
    int(Category.ONE_PAIR): (2, 1, 1, 0),
    int(Category.TWO_PAIR): (2, 2, 0, 0),
    int(Category.THREE_OF_A_KIND): (3, 1, 0, 0),
    int(Category.FOUR_OF_A_KIND): (4, 0, 0, 0),
}


def showing_value(cards: Sequence[int], *, low: bool = False) -> int:
    """The showing value of one to four dealt upcards (distinct codes 0..51, unchecked) with no
    name made: ``showing_high(cards).value``, or with ``low`` ``showing_low(cards).value``."""
    if low:
        return SHOWING_CEILING - _pack_of(tuple(sorted(((c >> 2) + 1) % 13 for c in cards)))
    return _pack_of(tuple(sorted(c >> 2 for c in cards)))


@cache
def _pack_of(ranks: tuple[int, ...]) -> int:
    """:func:`_showing_pack` of a sorted multiset of ranks, made once each (there are 2,379 of
    one to four ranks): the engine asks at every later stud round."""
    return _showing_pack(list(ranks))


def showing_high(upcards: CardsLike) -> Ranking:
    """The high hand showing on one to four upcards (seven-card stud, stud eight-or-better)."""
    cards = hand_cards(upcards, 1, MAX_UPCARDS, HIGH_SYSTEM)
    return showing_ranking(showing_value(cards))


def showing_low(upcards: CardsLike) -> Ranking:
    """The low hand showing on one to four upcards (Razz, London lowball): aces low."""
    cards = hand_cards(upcards, 1, MAX_UPCARDS, LOW_SYSTEM)
    return showing_ranking(showing_value(cards, low=True), low=True)


def first_to_act(showings: Sequence[CardsLike], *, low: bool = False) -> int:
    """The position (0 = first in clockwise rotation) of the best hand showing; an exact tie
    goes to the first of the tied players."""
    evaluate = showing_low if low else showing_high
    values = [evaluate(cards).value for cards in showings]
    if not values:
        raise ValueError("no player is showing any cards")
    return values.index(max(values))


# --- batch kernels ------------------------------------------------------------------------------


_HIGH_CARD = int(Category.HIGH_CARD)
_ONE_PAIR = int(Category.ONE_PAIR)
_TWO_PAIR = int(Category.TWO_PAIR)
_THREE_OF_A_KIND = int(Category.THREE_OF_A_KIND)
_FOUR_OF_A_KIND = int(Category.FOUR_OF_A_KIND)


@nb.njit(cache=True)
def _showing_kernel(hands: npt.NDArray[np.int8], low: bool, out: npt.NDArray[np.int32]) -> None:
    n_hands, n_cards = hands.shape
    for i in range(n_hands):
        counters = 0
        for j in range(n_cards):
            rank = hands[i, j] >> 2
            if low:
                rank = rank + 1 if rank < 12 else 0
            counters += 1 << (4 * rank)
        pack = 0
        shift = 12
        most = 0
        pairs = 0
        for size in range(4, 0, -1):
            for rank in range(12, -1, -1):
                if (counters >> (4 * rank)) & 15 == size:
                    pack |= (rank + 1) << shift
                    shift -= 4
                    most = max(most, size)
                    pairs += size == 2
        if most == 4:
            category = _FOUR_OF_A_KIND
        elif most == 3:
            category = _THREE_OF_A_KIND
        elif pairs == 2:
            category = _TWO_PAIR
        elif pairs == 1:
            category = _ONE_PAIR
        else:
            category = _HIGH_CARD
        pack |= category << 16
        out[i] = SHOWING_CEILING - pack if low else pack


@nb.njit(cache=True)
def showing_high_values(hands: npt.NDArray[np.int8], out: npt.NDArray[np.int32]) -> None:
    """High showing values of each row of ``hands`` (1 to 4 distinct codes 0..51, unchecked)."""
    _showing_kernel(hands, False, out)


@nb.njit(cache=True)
def showing_low_values(hands: npt.NDArray[np.int8], out: npt.NDArray[np.int32]) -> None:
    """Low (ace-to-five) showing values of each row of ``hands``."""
    _showing_kernel(hands, True, out)


def showing_values_batch(
    hands: npt.ArrayLike, *, low: bool = False, check: bool = True
) -> npt.NDArray[np.int32]:
    """Showing values of an ``(n, k)`` array of upcards, 1 <= k <= 4, one per row."""
    array = hand_array(hands, 1, MAX_UPCARDS, LOW_SYSTEM if low else HIGH_SYSTEM, check=check)
    out = np.empty(array.shape[0], dtype=np.int32)
    (showing_low_values if low else showing_high_values)(array, out)
    return out
