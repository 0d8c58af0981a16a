"""High-hand values: categories, the packed integer value, and readable names.

A high-hand value packs the category above the ranks that order hands within it::

    value = category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

where r1..r5 are the ranks (0 = deuce .. 12 = ace) in the order that decides ties:
the quads rank then the kicker, the trips rank then the pair rank, the pairs high to
low then the kicker, the top card of a straight, or the five cards high to low.
Unused slots are zero.  A larger value is a better hand, and two hands tie exactly
when their values are equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property

from simulations.cards import Rank

CATEGORY_SHIFT = 20
RANK_SLOT_BITS = 4


class Category(IntEnum):
    """High-hand categories, weakest first (the standard order of the rule texts' ranking)."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9

    @property
    def label(self) -> str:
        """The category as players say it: 'full house', 'three of a kind'."""
        return self.name.lower().replace("_", " ")


def pack_value(category: Category | int, *ranks: int) -> int:
    """The packed value of a hand of ``category`` whose deciding ranks are ``ranks``."""
    if len(ranks) > 5:
        raise ValueError("a hand value holds at most five ranks")
    value = int(category) << CATEGORY_SHIFT
    for slot, rank in enumerate(ranks):
        value |= int(rank) << (RANK_SLOT_BITS * (4 - slot))
    return value


def category_of(value: int) -> Category:
    return Category(value >> CATEGORY_SHIFT)


def ranks_of(value: int) -> tuple[Rank, ...]:
    """The deciding ranks of a value, as many as its category uses."""
    count = _RANKS_USED[category_of(value)]
    return tuple(Rank((value >> (RANK_SLOT_BITS * (4 - slot))) & 0xF) for slot in range(count))


_RANKS_USED = {
    Category.HIGH_CARD: 5,
    Category.ONE_PAIR: 4,
    Category.TWO_PAIR: 3,
    Category.THREE_OF_A_KIND: 3,
    Category.STRAIGHT: 1,
    Category.FLUSH: 5,
    Category.FULL_HOUSE: 2,
    Category.FOUR_OF_A_KIND: 2,
    Category.STRAIGHT_FLUSH: 1,
    Category.FIVE_OF_A_KIND: 1,
}


def describe_value(value: int) -> str:
    """A readable name for a high-hand value: 'Aces full of Tens', 'Queen-high flush'."""
    category = category_of(value)
    ranks = ranks_of(value)
    top = ranks[0]
    match category:
        case Category.HIGH_CARD:
            return f"{top.noun}-high"
        case Category.ONE_PAIR:
            return f"Pair of {top.plural}"
        case Category.TWO_PAIR:
            return f"Two pair, {top.plural} and {ranks[1].plural}"
        case Category.THREE_OF_A_KIND:
            return f"Three {top.plural}"
        case Category.STRAIGHT:
            return f"{top.noun}-high straight"
        case Category.FLUSH:
            return f"{top.noun}-high flush"
        case Category.FULL_HOUSE:
            return f"{top.plural} full of {ranks[1].plural}"
        case Category.FOUR_OF_A_KIND:
            return f"Four {top.plural}"
        case Category.STRAIGHT_FLUSH:
            return "Royal flush" if top == Rank.ACE else f"{top.noun}-high straight flush"
        case Category.FIVE_OF_A_KIND:
            return f"Five {top.plural}"
    raise AssertionError(category)  # pragma: no cover - Category is exhaustive


@dataclass(frozen=True, order=True)
class HandValue:
    """A ranked hand: ``value`` orders hands totally (higher wins); the rest describes it."""

    value: int

    @property
    def system(self) -> str:
        return "high"

    @classmethod
    def from_value(cls, value: int) -> HandValue:
        return cls(value)

    @cached_property
    def category(self) -> Category:
        return category_of(self.value)

    @cached_property
    def name(self) -> str:
        return describe_value(self.value)

    def __str__(self) -> str:
        return self.name
