"""Openers: the hand a player needs to open a jackpots betting round.

Rules 000_1a86611de8d3f5f7.txt, 'Gardena jackpots': 'no player is allowed to open the
betting unless his hand already contains a pair of jacks or a better hand'; progressive
jackpots raise the requirement to queens, kings and aces after each deal passed out.  A hand
qualifies when its high value is at least that of the weakest hand holding the pair: the
pair with the three lowest other ranks beside it.
"""

from __future__ import annotations

from collections.abc import Sequence

from simulations.cards import Rank, make_card
from simulations.engine.showdown import Showdown
from simulations.evaluators.high import evaluate_high
from simulations.evaluators.systems import evaluate_system


def weakest_with_pair(rank: Rank) -> int:
    """The high value of the pair of ``rank`` with the lowest kickers."""
    kickers = [r for r in Rank if r is not rank][:3]
    cards = [make_card(rank, 0), make_card(rank, 1), *(make_card(r, 2) for r in kickers)]
    return evaluate_high(cards).value


def holds_openers(showdown: Showdown, cards: Sequence[int], rank: Rank) -> bool:
    """Whether ``cards`` hold a pair of ``rank`` or better, valued as the game's high half
    values them (a joker as the game's bug or wild card)."""
    high = showdown.halves[0]
    if high.is_low or len(cards) < 5:
        raise ValueError("openers are judged on a high hand of five cards or more")
    if high.system is None:
        value = evaluate_high([int(c) for c in cards]).value
    else:
        if not high.system.standard:
            raise ValueError(f"openers need standard high values, not {high.system.name}'s")
        value = evaluate_system(high.system, [int(c) for c in cards]).value
    return value >= weakest_with_pair(rank)
