"""Lowball: ace-to-five (with the 8- and 9-or-better qualifiers), ace-to-six, deuce-to-seven.

The best low of 5, 6 or 7 cards, valued so that a larger value is a better low:
``value = LOW_CEILING - badness``, where the badness packs the category above the deciding
ranks exactly like a high-hand value, on the system's rank scale (see
:mod:`simulations.evaluators.lowball_reference`, the plain rules the one-hand API answers
from).  A hand that fails a qualifier is worth ``NO_LOW`` (0), below every low.

The batch kernels take shortcuts the rules allow:

* ace-to-five ignores suits, so the best low of five or more distinct ranks is the five
  lowest of them: a 13-bit mask of the ranks held (ace = bit 0) indexes a table of 8,192
  values.  Under a qualifier only the ranks up to the qualifying card count, so the masked
  ranks index the same table and a mask with fewer than five of them reads 0, "no low".
  Hands with fewer than five distinct ranks (rare from seven cards) have to pair up.
* ace-to-six and deuce-to-seven are high hands read backwards.  When no five cards share a
  suit and the five lowest ranks are not in sequence, those five are the best low (the same
  kind of table, straights left out).  Otherwise each five-card subset is valued with the
  high-hand tables (ranks rotated so that the ace is lowest, for ace-to-six), except that
  A-2-3-4-5 (K-A-2-3-4 after the rotation) is no straight.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from enum import Enum

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.cards import Rank
from simulations.evaluators.hand_input import CardsLike, hand_array, hand_cards
from simulations.evaluators.hand_value import Category, pack_value
from simulations.evaluators.high import TABLES as HIGH_TABLES
from simulations.evaluators.high import card_bit, flush_suit, high_value, rank_lookup
from simulations.evaluators.high_tables import HighTables
from simulations.evaluators.lowball_reference import (
    ACE_TO_FIVE,
    ACE_TO_SIX,
    DEUCE_TO_SEVEN,
    LOW_CEILING,
    NO_LOW,
    low_value,
)
from simulations.evaluators.ranking import Ranking

__all__ = [
    "LOW_CEILING",
    "NO_LOW",
    "TABLES",
    "LowTables",
    "Lowball",
    "Qualifier",
    "ace_to_five_values",
    "evaluate_ace_to_five",
    "evaluate_ace_to_six",
    "evaluate_deuce_to_seven",
    "evaluate_low",
    "evaluate_low_batch",
    "low_ranking",
    "qualified_low_values",
    "subset_low_values",
    "system_name",
]

MIN_CARDS = 5
MAX_CARDS = 7


class Lowball(Enum):
    """The three ways of ranking low hands in the rule texts."""

    ACE_TO_FIVE = "ace-to-five"
    ACE_TO_SIX = "ace-to-six"
    DEUCE_TO_SEVEN = "deuce-to-seven"

    @property
    def code(self) -> int:
        return _SYSTEM_CODES[self]

    @property
    def ace_low(self) -> bool:
        return self is not Lowball.DEUCE_TO_SEVEN


_SYSTEM_CODES = {
    Lowball.ACE_TO_FIVE: ACE_TO_FIVE,
    Lowball.ACE_TO_SIX: ACE_TO_SIX,
    Lowball.DEUCE_TO_SEVEN: DEUCE_TO_SEVEN,
}


class Qualifier(Enum):
    """A split-pot low qualifier: five unpaired cards, none above ``top`` (aces low)."""

    EIGHT_OR_BETTER = Rank.EIGHT
    NINE_OR_BETTER = Rank.NINE

    @property
    def top(self) -> Rank:
        return Rank(self.value)

    @property
    def label(self) -> str:
        return f"{self.top.symbol} or better"

    @property
    def eligible_ranks(self) -> int:
        """The ace-low rank mask of the cards that may play in a qualifying low."""
        return (1 << (int(self.top) + 2)) - 1


# --- tables -------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class LowTables:
    """Read-only arrays the lowball kernels take as arguments."""

    rank_bits: npt.NDArray[np.int32]  # card code -> 1 << ace-low rank
    rank_nibbles: npt.NDArray[np.int64]  # card code -> 1 << 4 * ace-low rank (rank counters)
    unpaired: npt.NDArray[np.int32]  # ace-low rank mask -> value of its five lowest, or 0
    # The same, but 0 where the five lowest ranks are in sequence (a straight) too.
    straightless: npt.NDArray[np.int32]
    ace_low_codes: npt.NDArray[np.int64]  # card code -> code with the ace below the deuce
    identity_codes: npt.NDArray[np.int64]
    ace_low_keys: npt.NDArray[np.int64]  # card code -> high-hand key of its ace-low code
    # Per hand size 5, 6, 7: the positions each five-card subset leaves out (-1 for none).
    excluded: tuple[npt.NDArray[np.int64], ...]


def _unpaired_tables() -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """The no-pair low value of the five lowest ranks of every 13-bit mask holding five or
    more (0 otherwise), without and with the five-in-sequence masks zeroed.

    The packing is the same on either rank scale, so the second table serves ace-to-six
    (ace-low masks) and deuce-to-seven (ace-high masks) alike.
    """
    masks = np.arange(1 << 13)
    bits = (masks[:, None] >> np.arange(13)) & 1
    position = np.cumsum(bits, axis=1) * bits  # 1 for the lowest rank held, 2 the next, ...
    badness = np.zeros(masks.size, dtype=np.int64)
    lowest = np.argmax(position == 1, axis=1)
    for slot in range(1, 6):
        # The slot-th lowest rank fills the slot-th lowest nibble of the packed value.
        badness |= np.argmax(position == slot, axis=1) << (4 * (slot - 1))
    five_or_more = bits.sum(axis=1) >= 5
    in_sequence = np.argmax(position == 5, axis=1) - lowest == 4
    unpaired = np.where(five_or_more, LOW_CEILING - badness, 0).astype(np.int32)
    straightless = np.where(in_sequence, 0, unpaired).astype(np.int32)
    return unpaired, straightless


def _build_tables() -> LowTables:
    codes = np.arange(52)
    ace_low = (codes // 4 + 1) % 13
    excluded = tuple(
        np.array(
            [[*s, -1, -1][:2] for s in itertools.combinations(range(cards), cards - MIN_CARDS)],
            dtype=np.int64,
        )
        for cards in range(MIN_CARDS, MAX_CARDS + 1)
    )
    arrays = (
        (1 << ace_low).astype(np.int32),
        (1 << (4 * ace_low)).astype(np.int64),
        *_unpaired_tables(),
        (ace_low * 4 + codes % 4).astype(np.int64),
        codes.astype(np.int64),
        HIGH_TABLES.card_keys[ace_low * 4 + codes % 4].astype(np.int64),
    )
    for array in (*arrays, *excluded):
        array.setflags(write=False)
    return LowTables(*arrays, excluded=excluded)


TABLES: LowTables = _build_tables()

# --- kernels ------------------------------------------------------------------------------------

_PAIR = int(Category.ONE_PAIR) << 20
_TWO_PAIR = int(Category.TWO_PAIR) << 20
_TRIPS = int(Category.THREE_OF_A_KIND) << 20
_FULL_HOUSE = int(Category.FULL_HOUSE) << 20
_QUADS = int(Category.FOUR_OF_A_KIND) << 20
# The high tables' five-high straight (flush), and what it is when the wheel does not count.
_WHEEL_STRAIGHT = pack_value(Category.STRAIGHT, 3)
_WHEEL_STRAIGHT_FLUSH = pack_value(Category.STRAIGHT_FLUSH, 3)
_WHEEL_HIGH = pack_value(Category.HIGH_CARD, 12, 3, 2, 1, 0)
_WHEEL_FLUSH = pack_value(Category.FLUSH, 12, 3, 2, 1, 0)


@nb.njit(cache=True)
def _paired_badness(counters: int) -> int:
    """Ace-to-five badness of a hand with fewer than five distinct ranks.

    ``counters`` holds a 4-bit count per ace-low rank.  Every rank held plays once (a new
    rank beats any pair), and the remaining cards pair up as cheaply as possible: one pair
    of the lowest repeated rank; else two pair of the two lowest repeated ranks, before
    trips; else a full house with the lower rank as the trips when it can be, before quads.
    """
    distinct = 0
    repeated_low = -1
    repeated_next = -1
    for rank in range(13):
        count = (counters >> (4 * rank)) & 15
        if count:
            distinct += 1
        if count >= 2:
            if repeated_low < 0:
                repeated_low = rank
            elif repeated_next < 0:
                repeated_next = rank
    if distinct == 4 or (distinct == 3 and repeated_next < 0):
        top = repeated_low
        badness = _PAIR if distinct == 4 else _TRIPS
        shift = 12
        badness |= top << 16
        for rank in range(12, -1, -1):
            if rank != top and (counters >> (4 * rank)) & 15:
                badness |= rank << shift
                shift -= 4
        return badness
    if distinct == 3:
        kicker = 0
        for rank in range(13):
            if rank != repeated_low and rank != repeated_next and (counters >> (4 * rank)) & 15:
                kicker = rank
        return _TWO_PAIR | (repeated_next << 16) | (repeated_low << 12) | (kicker << 8)
    low = -1
    high = -1
    for rank in range(13):
        if (counters >> (4 * rank)) & 15:
            if low < 0:
                low = rank
            else:
                high = rank
    low_count = (counters >> (4 * low)) & 15
    high_count = (counters >> (4 * high)) & 15
    if low_count >= 3 and high_count >= 2:
        return _FULL_HOUSE | (low << 16) | (high << 12)
    if high_count >= 3 and low_count >= 2:
        return _FULL_HOUSE | (high << 16) | (low << 12)
    if low_count == 4:
        return _QUADS | (low << 16) | (high << 12)
    return _QUADS | (high << 16) | (low << 12)


@nb.njit(cache=True)
def ace_to_five_values(
    hands: npt.NDArray[np.int8],
    rank_bits: npt.NDArray[np.int32],
    rank_nibbles: npt.NDArray[np.int64],
    unpaired: npt.NDArray[np.int32],
    ace_low_keys: npt.NDArray[np.int64],
    high: HighTables,
    out: npt.NDArray[np.int32],
) -> None:
    """Ace-to-five values of each row of ``hands`` (5 to 7 distinct codes 0..51, unchecked).

    Five cards holding a pair can be neither a straight nor a flush, so their badness is
    their high-hand value on ace-low ranks: ``ace_low_keys`` are the high-hand card keys of
    the cards with the ace moved below the deuce.  Six or seven cards with fewer than five
    ranks count their pairs instead (a best high hand would play the highest pairs).
    """
    _, _, row_offsets, rank_values = high  # five paired cards: no flush to look up
    n_hands, n_cards = hands.shape
    for i in range(n_hands):
        mask = 0
        for j in range(n_cards):
            mask |= rank_bits[hands[i, j]]
        value = unpaired[mask]
        if value == 0:
            if n_cards == 5:
                key = 0
                for j in range(n_cards):
                    key += ace_low_keys[hands[i, j]]
                value = LOW_CEILING - rank_lookup(key, row_offsets, rank_values)
            else:
                counters = 0
                for j in range(n_cards):
                    counters += rank_nibbles[hands[i, j]]
                value = LOW_CEILING - _paired_badness(counters)
        out[i] = value


@nb.njit(cache=True)
def qualified_low_values(
    hands: npt.NDArray[np.int8],
    rank_bits: npt.NDArray[np.int32],
    unpaired: npt.NDArray[np.int32],
    eligible: int,
    out: npt.NDArray[np.int32],
) -> None:
    """Ace-to-five values under a qualifier whose ace-low rank mask is ``eligible`` (0 = no
    low); the loop indexes the 2-D array directly, a row view per hand would cost more."""
    n_hands, n_cards = hands.shape
    for i in range(n_hands):
        mask = 0
        for j in range(n_cards):
            mask |= rank_bits[hands[i, j]]
        out[i] = unpaired[mask & eligible]


@nb.njit(cache=True)
def subset_low_values(
    hands: npt.NDArray[np.int8],
    codes: npt.NDArray[np.int64],
    excluded: npt.NDArray[np.int64],
    straightless: npt.NDArray[np.int32],
    high: HighTables,
    out: npt.NDArray[np.int32],
) -> None:
    """Ace-to-six (``codes`` rotating the ace low) or deuce-to-seven (identity) values.

    Most hands hold five ranks whose lowest five are no straight, with no five cards of a
    suit: those five are the best low, read from ``straightless``.  Otherwise each five-card
    subset leaves out the positions in a row of ``excluded`` (-1: none), and its summed
    high-hand key is the row's total less the keys left out.
    """
    card_keys, flush_values, row_offsets, rank_values = high
    n_hands, n_cards = hands.shape
    keys = np.empty(n_cards, dtype=np.int64)
    suited_bits = np.empty(n_cards, dtype=np.int64)
    for i in range(n_hands):
        total = 0
        ranks = 0
        suited = 0
        for j in range(n_cards):
            code = codes[hands[i, j]]
            keys[j] = card_keys[code]
            total += keys[j]
            ranks |= 1 << (code >> 2)
        may_flush = flush_suit(total) >= 0
        if straightless[ranks] and not may_flush:
            out[i] = straightless[ranks]
            continue
        if may_flush:  # the suited bits only for a flush: without one no subset is a flush
            for j in range(n_cards):
                suited_bits[j] = card_bit(codes[hands[i, j]])
                suited |= suited_bits[j]
        best = LOW_CEILING
        for s in range(excluded.shape[0]):
            key = total
            kept = suited
            for e in range(2):
                left_out = excluded[s, e]
                if left_out >= 0:
                    key -= keys[left_out]
                    if may_flush:
                        kept &= ~suited_bits[left_out]
            badness = high_value(key, kept, flush_values, row_offsets, rank_values)
            if badness == _WHEEL_STRAIGHT:
                badness = _WHEEL_HIGH
            elif badness == _WHEEL_STRAIGHT_FLUSH:
                badness = _WHEEL_FLUSH
            best = min(best, badness)
        out[i] = LOW_CEILING - best


# --- public API ---------------------------------------------------------------------------------


def _check_qualifier(system: Lowball, qualifier: Qualifier | None) -> None:
    if qualifier is not None and system is not Lowball.ACE_TO_FIVE:
        raise ValueError(f"the {qualifier.label} qualifier applies to ace-to-five lows only")


def evaluate_low_batch(
    hands: npt.ArrayLike,
    system: Lowball,
    *,
    qualifier: Qualifier | None = None,
    check: bool = True,
) -> npt.NDArray[np.int32]:
    """Low values of an ``(n, k)`` array of card codes, 5 <= k <= 7, one value per row.

    With ``check`` (the default) every row is checked for jokers, codes outside 0..51 and
    repeated cards; pass ``check=False`` only for arrays a dealer built.
    """
    _check_qualifier(system, qualifier)
    array = hand_array(hands, MIN_CARDS, MAX_CARDS, f"{system.value} low", check=check)
    out = np.empty(array.shape[0], dtype=np.int32)
    t = TABLES
    if system is Lowball.ACE_TO_FIVE:
        if qualifier is None:
            ace_to_five_values(
                array,
                t.rank_bits,
                t.rank_nibbles,
                t.unpaired,
                t.ace_low_keys,
                HIGH_TABLES,
                out,
            )
        else:
            qualified_low_values(array, t.rank_bits, t.unpaired, qualifier.eligible_ranks, out)
        return out
    codes = t.ace_low_codes if system is Lowball.ACE_TO_SIX else t.identity_codes
    excluded = t.excluded[array.shape[1] - MIN_CARDS]
    subset_low_values(array, codes, excluded, t.straightless, HIGH_TABLES, out)
    return out


def evaluate_low(
    cards: CardsLike, system: Lowball, *, qualifier: Qualifier | None = None
) -> Ranking:
    """The best low of 5, 6 or 7 cards under ``system``, given as text or card codes."""
    _check_qualifier(system, qualifier)
    codes = hand_cards(cards, MIN_CARDS, MAX_CARDS, f"{system.value} low")
    # Qualifier ranks on the ace-low scale: the eight is 7, the nine 8.
    top = -1 if qualifier is None else int(qualifier.top) + 1
    value = low_value(np.array(codes, dtype=np.int64), system.code, top)
    return low_ranking(value, system, qualifier)


def evaluate_ace_to_five(cards: CardsLike, *, qualifier: Qualifier | None = None) -> Ranking:
    """Ace-to-five low (Razz, California lowball, the low half of eight-or-better games)."""
    return evaluate_low(cards, Lowball.ACE_TO_FIVE, qualifier=qualifier)


def evaluate_ace_to_six(cards: CardsLike) -> Ranking:
    """Ace-to-six low (London lowball): aces low, straights and flushes count against."""
    return evaluate_low(cards, Lowball.ACE_TO_SIX)


def evaluate_deuce_to_seven(cards: CardsLike) -> Ranking:
    """Deuce-to-seven low (Kansas City): aces high, straights and flushes count against."""
    return evaluate_low(cards, Lowball.DEUCE_TO_SEVEN)


# --- names --------------------------------------------------------------------------------------

_ACE_LOW_SYMBOLS = "A23456789TJQK"
_ACE_HIGH_SYMBOLS = "23456789TJQKA"
_GROUPS = {  # category -> sizes of the rank groups its deciding ranks stand for
    Category.HIGH_CARD: (1, 1, 1, 1, 1),
    Category.ONE_PAIR: (2, 1, 1, 1),
    Category.TWO_PAIR: (2, 2, 1),
    Category.THREE_OF_A_KIND: (3, 1, 1),
    Category.STRAIGHT: (5,),
    Category.FLUSH: (1, 1, 1, 1, 1),
    Category.FULL_HOUSE: (3, 2),
    Category.FOUR_OF_A_KIND: (4, 1),
    Category.STRAIGHT_FLUSH: (5,),
}


def system_name(system: Lowball, qualifier: Qualifier | None = None) -> str:
    """The ``Ranking.system`` of lows ranked this way: 'ace-to-five low, 8 or better'."""
    name = f"{system.value} low"
    return name if qualifier is None else f"{name}, {qualifier.label}"


def low_ranking(value: int, system: Lowball, qualifier: Qualifier | None = None) -> Ranking:
    """The :class:`Ranking` of a low value: category and a name like '8-6-5-3-A low'."""
    name = system_name(system, qualifier)
    if value == NO_LOW and qualifier is not None:
        return Ranking(name, NO_LOW, "no low", "no low")
    badness = LOW_CEILING - value
    if not 0 < value < LOW_CEILING or badness >> 20 not in _GROUPS:
        raise ValueError(f"{value} is not a value of the {name} ranking")
    category = Category(badness >> 20)
    sizes = _GROUPS[category]
    ranks = [(badness >> (16 - 4 * slot)) & 15 for slot in range(len(sizes))]
    if sizes == (5,):  # a straight is named by its top card
        played = [ranks[0] - k for k in range(5)]
    else:
        played = [rank for rank, size in zip(ranks, sizes, strict=True) for _ in range(size)]
    symbols = _ACE_LOW_SYMBOLS if system.ace_low else _ACE_HIGH_SYMBOLS
    cards = "-".join(symbols[r] for r in played)
    # Rank nouns are indexed on the standard scale (deuce 0 .. ace 12).
    std = [Rank((r - 1) % 13) if system.ace_low else Rank(r) for r in ranks]
    match category:
        case Category.HIGH_CARD:
            text = f"{cards} low"
        case Category.ONE_PAIR:
            text = f"Pair of {std[0].plural} ({cards})"
        case Category.TWO_PAIR:
            text = f"Two pair, {std[0].plural} and {std[1].plural} ({cards})"
        case Category.THREE_OF_A_KIND:
            text = f"Three {std[0].plural} ({cards})"
        case Category.FULL_HOUSE:
            text = f"{std[0].plural} full of {std[1].plural} ({cards})"
        case Category.FOUR_OF_A_KIND:
            text = f"Four {std[0].plural} ({cards})"
        case _:
            text = f"{std[0].noun}-high {category.label} ({cards})"
    return Ranking(name, value, category.label, text)
