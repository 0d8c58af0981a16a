"""Spades in the hole: the half of the pot that Chicago and The Bitch give to a spade.

* Chicago (Big Chicago): the highest-ranking spade among a player's downcards splits the pot
  with the high hand; the ace of spades is the highest.
* Little Chicago: the lowest-ranking spade in the hole splits it; the ace counts lowest.
* The Bitch: the queen of spades is the highest spade, then the ace, king, jack and down;
  a queen of spades dealt face up ends the deal (everyone re-antes and it is dealt again).

A spade value is 0 without a spade in the hole, else 1..13, higher being the better spade
under the rule; spades are unique cards, so two players never tie with a spade.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.cards import Rank, Suit, make_card
from simulations.evaluators.hand_input import CardsLike, hand_array, hand_cards
from simulations.evaluators.ranking import Ranking

__all__ = [
    "QUEEN_OF_SPADES",
    "SpadeRule",
    "best_spade",
    "queen_of_spades_shown",
    "spade_in_hole",
    "spade_values",
    "spade_values_batch",
]

QUEEN_OF_SPADES = make_card(Rank.QUEEN, Suit.SPADES)
_SPADE = int(Suit.SPADES)


class SpadeRule(Enum):
    """Which spade in the hole wins its share of the pot."""

    BIG_CHICAGO = "Chicago, high spade"
    LITTLE_CHICAGO = "Little Chicago, low spade"
    THE_BITCH = "The Bitch, queen of spades high"

    @property
    def order(self) -> npt.NDArray[np.int32]:
        """Card code -> spade value (0 for the other suits)."""
        return _ORDERS[self]


def _order(strength: dict[Rank, int]) -> npt.NDArray[np.int32]:
    order = np.zeros(52, dtype=np.int32)
    for rank, value in strength.items():
        order[make_card(rank, Suit.SPADES)] = value
    order.setflags(write=False)
    return order


_ACE_LOW = [Rank.ACE, *[r for r in Rank if r is not Rank.ACE]]  # A, 2, 3 .. K
_BITCH = [r for r in Rank if r not in (Rank.QUEEN, Rank.ACE)] + [Rank.ACE, Rank.QUEEN]
_ORDERS = {
    SpadeRule.BIG_CHICAGO: _order({r: int(r) + 1 for r in Rank}),
    SpadeRule.LITTLE_CHICAGO: _order({r: 13 - i for i, r in enumerate(_ACE_LOW)}),
    SpadeRule.THE_BITCH: _order({r: i + 1 for i, r in enumerate(_BITCH)}),
}


def spade_in_hole(downcards: CardsLike, rule: SpadeRule = SpadeRule.BIG_CHICAGO) -> Ranking:
    """The spade among ``downcards`` that counts under ``rule`` ('no spade' if none)."""
    cards = hand_cards(downcards, 0, 52, rule.value)
    order = rule.order
    spades = [c for c in cards if c & 3 == _SPADE]
    if not spades:
        return Ranking(rule.value, 0, "no spade", "no spade in the hole")
    best = max(spades, key=lambda c: int(order[c]))
    noun = Rank(best >> 2).noun
    return Ranking(rule.value, int(order[best]), "spade", f"{noun} of Spades")


def best_spade(
    downcards_by_player: Sequence[CardsLike], rule: SpadeRule = SpadeRule.BIG_CHICAGO
) -> int | None:
    """The position of the player holding the winning spade in the hole, or None if no one
    holds a spade there (the high hand then wins the whole pot)."""
    values = [spade_in_hole(cards, rule).value for cards in downcards_by_player]
    if not values or max(values) == 0:
        return None
    return values.index(max(values))


def queen_of_spades_shown(upcards: CardsLike) -> bool:
    """The Bitch: whether the queen of spades was dealt face up (the deal is void)."""
    return QUEEN_OF_SPADES in hand_cards(upcards, 0, 52, "The Bitch")


@nb.njit(cache=True)
def spade_values(
    hands: npt.NDArray[np.int8], order: npt.NDArray[np.int32], out: npt.NDArray[np.int32]
) -> None:
    """The best spade value in each row of downcards (distinct codes 0..51, unchecked)."""
    for i in range(hands.shape[0]):
        best = 0
        for j in range(hands.shape[1]):
            best = max(best, order[hands[i, j]])
        out[i] = best


def spade_values_batch(
    hands: npt.ArrayLike, rule: SpadeRule = SpadeRule.BIG_CHICAGO, *, check: bool = True
) -> npt.NDArray[np.int32]:
    """Spade values of an ``(n, k)`` array of downcards, one per row."""
    array = hand_array(hands, 1, 52, rule.value, check=check)
    out = np.empty(array.shape[0], dtype=np.int32)
    spade_values(array, rule.order, out)
    return out
