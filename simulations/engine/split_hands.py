"""Cowpie's split: a player's seven cards made into a five-card hand and a two-card hand.

Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'Cowpie poker is played as seven-card stud
until after the seventh-street bet. All remaining players then split their hands into a
five-card hand and a two-card hand. The five-card hand must outrank the two-card hand, and
the latter must contain at least one downcard. After the split there is one more betting
round and showdown. Upon showdown, the highest five-card hand and the highest two-card hand
split the pot. The name of the game is a pun on Pai Gow.'

The two-card hand ranks as two-card guts does without straights and flushes: a pair above
any high card (:func:`~simulations.evaluators.small_hands.evaluate_two_card`).  The five
'outranks' the two as Pai Gow compares them: by category (a two-card hand is a pair or a
high card), then rank by rank; where the two-card hand's ranks run out first, the five-card
hand, which has more to show, is the higher (a pair of sevens with kickers outranks the
pair alone, A-K-9-5-3 outranks A-K).  A legal split always exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from simulations.cards import Card, format_cards
from simulations.engine.actions import Action, ActionKind, IllegalAction
from simulations.evaluators.hand_value import category_of, ranks_of
from simulations.evaluators.high import evaluate_high
from simulations.evaluators.small_hands import TwoCardCategory, evaluate_two_card

TWO = 2  # the cards of the two-card hand
FIVE = 5


def _order(five: Sequence[Card], two: Sequence[Card]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two hands as comparable (category, ranks...) of the poker order."""
    value = evaluate_high([int(c) for c in five]).value
    high = (int(category_of(value)), *(int(r) for r in ranks_of(value)))
    small = evaluate_two_card([int(c) for c in two]).value
    low: tuple[int, ...]
    if small >> 8 == TwoCardCategory.PAIR:
        low = (1, (small >> 4) & 15)  # one pair
    else:
        low = (0, (small >> 4) & 15, small & 15)  # high card
    return high, low


def outranks(five: Sequence[Card], two: Sequence[Card]) -> bool:
    """Whether the five-card hand outranks the two-card hand."""
    high, low = _order(five, two)
    return high > low


def two_card_hands(hole: Sequence[Card], up: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    """Every two-card hand a player holding ``hole`` (``up`` of them face up) may split off:
    at least one down card, the other five outranking it; in the order of his cards."""
    if len(hole) != FIVE + TWO:
        raise ValueError(f"a split is of seven cards, not {len(hole)}")
    hands = []
    for two in combinations(hole, TWO):
        if all(card in up for card in two):
            continue
        five = [card for card in hole if card not in two]
        if outranks(five, two):
            hands.append(two)
    return tuple(hands)


def check_split(hole: Sequence[Card], up: Sequence[Card], action: Action) -> tuple[Card, ...]:
    """The two-card hand ``action`` names, or IllegalAction saying what is wrong with it."""
    if action.kind is not ActionKind.SPLIT:
        raise IllegalAction(
            f"a split is due: name the two cards of the two-card hand (got {action.kind.value})"
        )
    two = action.cards
    if len(two) != TWO:
        raise IllegalAction(f"a split names the two cards of the two-card hand, got {len(two)}")
    if two[0] == two[1]:
        raise IllegalAction(f"a card is named twice: {format_cards(two)}")
    for card in two:
        if card not in hole:
            raise IllegalAction(
                f"{format_cards((card,))} is not one of the player's cards ({format_cards(hole)})"
            )
    if all(card in up for card in two):
        raise IllegalAction(
            f"the two-card hand must hold at least one down card: {format_cards(two)} are up"
        )
    five = [card for card in hole if card not in two]
    if not outranks(five, two):
        shown = evaluate_high([int(c) for c in five]).name
        small = evaluate_two_card([int(c) for c in two]).name
        raise IllegalAction(
            f"the five-card hand must outrank the two-card hand: {shown} "
            f"({format_cards(five)}) does not beat {small}"
        )
    return two
