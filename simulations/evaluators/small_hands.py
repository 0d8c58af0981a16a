"""Three-card guts hands, two-card hands and the one-card hand.

Three-card guts ranks, best first: three of a kind, straight flush, straight, flush, pair,
high card (Rules 000_1a86611de8d3f5f7.txt, 'Guts': "The hands are ranked as follows: Three
of a kind, straight flush, straight, flush, pair").  Many home games rank them instead as
"in regular 5-card poker" (the same text), the straight flush first: straight flush, three
of a kind, straight, flush, pair, high card; :class:`ThreeCardOrder` chooses.  Three cards
in sequence make a straight, the ace playing high (Q-K-A) or low (A-2-3, the lowest
straight); K-A-2 is no straight.  These are the counts of the published three-card table
(48 straight flushes, 720 straights).

Two-card hands rank a pair above any high card.  Where straights and flushes count (a
table's option), the order follows three-card guts, with the pair in the place of three of
a kind: pair, straight flush, straight, flush, high card; two cards in sequence are a
straight (A-2 the lowest, K-A the highest).

The one-card hand is Indian poker's (Rules 000_1a86611de8d3f5f7.txt, 'Blind man's bluff':
"The standard version (also called Indian poker) is simply high card.  Each player is dealt one
card"): the higher rank wins, aces high, and suits do not rank (Rules 002_376df91f076a6501.txt,
'General rules': "Individual cards are ranked A (high), K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2";
"Suits have no value"), so equal ranks tie; its value is the rank.

A value packs the category's place in the order (weakest 0) above the deciding ranks
(deuce 0 .. ace 12), highest first: ``place << 12 | r1 << 8 | r2 << 4 | r3`` for three cards
(in the texts' order the place is the :class:`ThreeCardCategory` value), and
``category << 8 | r1 << 4 | r2`` for two; a straight is decided by its top card alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from enum import IntEnum, StrEnum
from types import MappingProxyType

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.cards import Rank
from simulations.evaluators.hand_input import CardsLike, hand_array, hand_cards
from simulations.evaluators.ranking import Ranking

__all__ = [
    "ONE_CARD_SYSTEM",
    "THREE_CARD_SYSTEM",
    "THREE_CARD_TABLES",
    "ThreeCardCategory",
    "ThreeCardOrder",
    "TwoCardCategory",
    "evaluate_one_card",
    "evaluate_three_card",
    "evaluate_three_card_batch",
    "evaluate_two_card",
    "evaluate_two_card_batch",
    "one_card_ranking",
    "three_card_ranking",
    "three_card_values",
    "two_card_ranking",
    "two_card_system",
    "two_card_values",
]

THREE_CARD_SYSTEM = "three-card guts"
ONE_CARD_SYSTEM = "high card"
_ACE = int(Rank.ACE)
_SYMBOLS = "23456789TJQKA"


class ThreeCardCategory(IntEnum):
    """Three-card guts categories, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    STRAIGHT = 3
    STRAIGHT_FLUSH = 4
    THREE_OF_A_KIND = 5

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")


class ThreeCardOrder(StrEnum):
    """Which of the two orders ranks three-card guts hands."""

    # Rules 000, 'Guts': "Three of a kind, straight flush, straight, flush, pair".
    THREE_OF_A_KIND_FIRST = "three-of-a-kind-first"
    # "ranked as in regular 5-card poker": the straight flush above three of a kind.
    STRAIGHT_FLUSH_FIRST = "straight-flush-first"

    @property
    def categories(self) -> tuple[ThreeCardCategory, ...]:
        """The categories weakest first: a category's place here is its value's top part."""
        c = ThreeCardCategory
        if self is ThreeCardOrder.STRAIGHT_FLUSH_FIRST:
            return (c.HIGH_CARD, c.PAIR, c.FLUSH, c.STRAIGHT, c.THREE_OF_A_KIND, c.STRAIGHT_FLUSH)
        return tuple(ThreeCardCategory)

    @property
    def system(self) -> str:
        """The ranking system's name: rankings of different orders do not compare."""
        if self is ThreeCardOrder.STRAIGHT_FLUSH_FIRST:
            return f"{THREE_CARD_SYSTEM}, straight flush first"
        return THREE_CARD_SYSTEM

    def place(self, category: ThreeCardCategory) -> int:
        return self.categories.index(category)


TEXTS_ORDER = ThreeCardOrder.THREE_OF_A_KIND_FIRST


class TwoCardCategory(IntEnum):
    """Two-card categories, weakest first (flushes and straights only where they count)."""

    HIGH_CARD = 0
    FLUSH = 1
    STRAIGHT = 2
    STRAIGHT_FLUSH = 3
    PAIR = 4

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")


# --- the rules, one hand at a time --------------------------------------------------------------


def _three_card_value(ranks: list[int], suited: bool) -> int:
    ordered = sorted(ranks, reverse=True)
    counts = Counter(ordered)
    if len(counts) == 1:
        return ThreeCardCategory.THREE_OF_A_KIND << 12 | ordered[0] << 8
    if len(counts) == 2:
        pair = next(r for r, n in counts.items() if n == 2)
        kicker = next(r for r, n in counts.items() if n == 1)
        return ThreeCardCategory.PAIR << 12 | pair << 8 | kicker << 4
    top = None
    if ordered[0] - ordered[2] == 2:
        top = ordered[0]
    elif ordered == [_ACE, 1, 0]:  # A-2-3: the ace plays low under the three
        top = 1
    if top is not None:
        category = ThreeCardCategory.STRAIGHT_FLUSH if suited else ThreeCardCategory.STRAIGHT
        return category << 12 | top << 8
    category = ThreeCardCategory.FLUSH if suited else ThreeCardCategory.HIGH_CARD
    return category << 12 | ordered[0] << 8 | ordered[1] << 4 | ordered[2]


def _two_card_value(ranks: list[int], suited: bool, straights_and_flushes: bool) -> int:
    high, low = sorted(ranks, reverse=True)
    if high == low:
        return TwoCardCategory.PAIR << 8 | high << 4
    if straights_and_flushes:
        top = high if high - low == 1 else low if (high, low) == (_ACE, 0) else None
        if top is not None:
            category = TwoCardCategory.STRAIGHT_FLUSH if suited else TwoCardCategory.STRAIGHT
            return category << 8 | top << 4
        if suited:
            return TwoCardCategory.FLUSH << 8 | high << 4 | low
    return TwoCardCategory.HIGH_CARD << 8 | high << 4 | low


def _name(category_label: str, ranks: list[int], played: list[int]) -> str:
    top = Rank(ranks[0])
    cards = "-".join(_SYMBOLS[r] for r in played)
    match category_label:
        case "three of a kind":
            return f"Three {top.plural}"
        case "pair":
            return f"Pair of {top.plural} ({cards})"
        case "high card":
            return f"{top.noun}-high ({cards})"
    return f"{top.noun}-high {category_label} ({cards})"


def _in_order(value: int, order: ThreeCardOrder) -> int:
    """A value of the texts' order (:func:`_three_card_value`) re-placed in ``order``."""
    return order.place(ThreeCardCategory(value >> 12)) << 12 | value & 0xFFF


def three_card_ranking(value: int, *, order: ThreeCardOrder = TEXTS_ORDER) -> Ranking:
    """The :class:`Ranking` of a three-card guts value of ``order``."""
    category = order.categories[value >> 12]
    ranks = [(value >> shift) & 15 for shift in (8, 4, 0)]
    match category:
        case ThreeCardCategory.THREE_OF_A_KIND:
            played = [ranks[0]] * 3
        case ThreeCardCategory.PAIR:
            played = [ranks[0], ranks[0], ranks[1]]
        case ThreeCardCategory.STRAIGHT | ThreeCardCategory.STRAIGHT_FLUSH:
            played = [(ranks[0] - k) % 13 for k in range(3)]
        case _:
            played = ranks
    return Ranking(order.system, value, category.label, _name(category.label, ranks, played))


def two_card_system(straights_and_flushes: bool) -> str:
    return "two-card, straights and flushes" if straights_and_flushes else "two-card"


def two_card_ranking(value: int, *, straights_and_flushes: bool = False) -> Ranking:
    """The :class:`Ranking` of a two-card value."""
    category = TwoCardCategory(value >> 8)
    ranks = [(value >> 4) & 15, value & 15]
    match category:
        case TwoCardCategory.PAIR:
            played = [ranks[0]] * 2
        case TwoCardCategory.STRAIGHT | TwoCardCategory.STRAIGHT_FLUSH:
            played = [ranks[0], (ranks[0] - 1) % 13]
        case _:
            played = ranks
    system = two_card_system(straights_and_flushes)
    return Ranking(system, value, category.label, _name(category.label, ranks, played))


def evaluate_three_card(cards: CardsLike, *, order: ThreeCardOrder = TEXTS_ORDER) -> Ranking:
    """The three-card guts hand of three cards, given as text ('Qs Qd Qh') or card codes,
    ranked in ``order`` (default the texts': three of a kind first)."""
    codes = hand_cards(cards, 3, 3, THREE_CARD_SYSTEM)
    suited = len({c & 3 for c in codes}) == 1
    value = _in_order(_three_card_value([c >> 2 for c in codes], suited), order)
    return three_card_ranking(value, order=order)


def one_card_ranking(value: int) -> Ranking:
    """The :class:`Ranking` of a one-card value (the card's rank, deuce 0 to ace 12)."""
    if not 0 <= value <= _ACE:
        raise ValueError(f"a one-card value is a rank, 0 to {_ACE}, not {value}")
    return Ranking(ONE_CARD_SYSTEM, value, "high card", f"{Rank(value).noun} high")


def evaluate_one_card(cards: CardsLike) -> Ranking:
    """Indian poker's hand: one card, "simply high card" (Rules 000_1a86611de8d3f5f7.txt,
    'Blind man's bluff'), aces high, suits not ranked."""
    (card,) = hand_cards(cards, 1, 1, ONE_CARD_SYSTEM)
    return one_card_ranking(card >> 2)


def evaluate_two_card(cards: CardsLike, *, straights_and_flushes: bool = False) -> Ranking:
    """The two-card hand of two cards; ``straights_and_flushes`` where the table counts them."""
    codes = hand_cards(cards, 2, 2, two_card_system(straights_and_flushes))
    suited = codes[0] & 3 == codes[1] & 3
    value = _two_card_value([c >> 2 for c in codes], suited, straights_and_flushes)
    return two_card_ranking(value, straights_and_flushes=straights_and_flushes)


# --- tables and kernels -------------------------------------------------------------------------


def _three_card_table() -> npt.NDArray[np.int16]:
    """Values of every ordered rank triple, unsuited then suited: index r0*169 + r1*13 + r2,
    plus 2197 when the three cards share a suit.  Classified with array operations, apart
    from the one-hand rules above."""
    r = np.stack(np.meshgrid(*[np.arange(13)] * 3, indexing="ij"), axis=-1).reshape(-1, 3)
    r = -np.sort(-r, axis=1)  # highest first
    hi, mid, lo = r[:, 0], r[:, 1], r[:, 2]
    trips = hi == lo
    pair = ~trips & ((hi == mid) | (mid == lo))
    pair_rank = np.where(hi == mid, hi, lo)
    kicker = np.where(hi == mid, lo, hi)
    wheel = (hi == _ACE) & (mid == 1) & (lo == 0)
    straight = ~trips & ~pair & ((hi - lo == 2) | wheel)
    top = np.where(wheel, 1, hi)
    plain = hi << 8 | mid << 4 | lo
    tables = []
    for suited in (False, True):
        straight_cat = ThreeCardCategory.STRAIGHT_FLUSH if suited else ThreeCardCategory.STRAIGHT
        plain_cat = ThreeCardCategory.FLUSH if suited else ThreeCardCategory.HIGH_CARD
        tables.append(
            np.select(
                [trips, pair, straight],
                [
                    ThreeCardCategory.THREE_OF_A_KIND << 12 | hi << 8,
                    ThreeCardCategory.PAIR << 12 | pair_rank << 8 | kicker << 4,
                    straight_cat << 12 | top << 8,
                ],
                plain_cat << 12 | plain,
            )
        )
    table = np.concatenate(tables).astype(np.int16)
    table.setflags(write=False)
    return table


def _reordered(table: npt.NDArray[np.int16], order: ThreeCardOrder) -> npt.NDArray[np.int16]:
    """The texts' table with each category moved to its place in ``order``."""
    places = np.array([order.place(category) for category in ThreeCardCategory], np.int16)
    reordered: npt.NDArray[np.int16] = (places[table >> 12] << 12 | table & 0xFFF).astype(np.int16)
    reordered.setflags(write=False)
    return reordered


def _two_card_table(straights_and_flushes: bool) -> npt.NDArray[np.int16]:
    """Values of every ordered rank pair, unsuited then suited (index r0*13 + r1, + 169)."""
    r = np.stack(np.meshgrid(np.arange(13), np.arange(13), indexing="ij"), axis=-1).reshape(-1, 2)
    hi, lo = r.max(axis=1), r.min(axis=1)
    pair = hi == lo
    in_sequence = (hi - lo == 1) | ((hi == _ACE) & (lo == 0))
    top = np.where((hi == _ACE) & (lo == 0), 0, hi)
    tables = []
    for suited in (False, True):
        if straights_and_flushes:
            straight_cat = TwoCardCategory.STRAIGHT_FLUSH if suited else TwoCardCategory.STRAIGHT
            plain_cat = TwoCardCategory.FLUSH if suited else TwoCardCategory.HIGH_CARD
        else:
            straight_cat = plain_cat = TwoCardCategory.HIGH_CARD
            in_sequence = np.zeros_like(pair)
        tables.append(
            np.select(
                [pair, in_sequence],
                [TwoCardCategory.PAIR << 8 | hi << 4, straight_cat << 8 | top << 4],
                plain_cat << 8 | hi << 4 | lo,
            )
        )
    table = np.concatenate(tables).astype(np.int16)
    table.setflags(write=False)
    return table


THREE_CARD_TABLE = _three_card_table()
THREE_CARD_TABLES: Mapping[ThreeCardOrder, npt.NDArray[np.int16]] = MappingProxyType(
    {order: _reordered(THREE_CARD_TABLE, order) for order in ThreeCardOrder}
)
TWO_CARD_TABLES = (_two_card_table(False), _two_card_table(True))


@nb.njit(cache=True)
def three_card_values(
    hands: npt.NDArray[np.int8], table: npt.NDArray[np.int16], out: npt.NDArray[np.int32]
) -> None:
    """Three-card guts values of each row of ``hands`` (3 distinct codes 0..51, unchecked)."""
    for i in range(hands.shape[0]):
        a = hands[i, 0]
        b = hands[i, 1]
        c = hands[i, 2]
        suited = ((a ^ b) | (a ^ c)) & 3 == 0
        out[i] = table[(a >> 2) * 169 + (b >> 2) * 13 + (c >> 2) + 2197 * suited]


@nb.njit(cache=True)
def two_card_values(
    hands: npt.NDArray[np.int8], table: npt.NDArray[np.int16], out: npt.NDArray[np.int32]
) -> None:
    """Two-card values of each row of ``hands`` (2 distinct codes 0..51, unchecked)."""
    for i in range(hands.shape[0]):
        a = hands[i, 0]
        b = hands[i, 1]
        suited = (a ^ b) & 3 == 0
        out[i] = table[(a >> 2) * 13 + (b >> 2) + 169 * suited]


def evaluate_three_card_batch(
    hands: npt.ArrayLike, *, order: ThreeCardOrder = TEXTS_ORDER, check: bool = True
) -> npt.NDArray[np.int32]:
    """Three-card guts values of an ``(n, 3)`` array of card codes, one per row, ranked in
    ``order``."""
    array = hand_array(hands, 3, 3, THREE_CARD_SYSTEM, check=check)
    out = np.empty(array.shape[0], dtype=np.int32)
    three_card_values(array, THREE_CARD_TABLES[order], out)
    return out


def evaluate_two_card_batch(
    hands: npt.ArrayLike, *, straights_and_flushes: bool = False, check: bool = True
) -> npt.NDArray[np.int32]:
    """Two-card values of an ``(n, 2)`` array of card codes, one per row."""
    array = hand_array(hands, 2, 2, two_card_system(straights_and_flushes), check=check)
    out = np.empty(array.shape[0], dtype=np.int32)
    two_card_values(array, TWO_CARD_TABLES[straights_and_flushes], out)
    return out
