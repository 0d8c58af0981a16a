"""Who stays in at guts: each seat's stay policy, and the hand values a decision sees.

A player decides on the cards he holds when he declares: the whole hand where every card is
dealt down, the two down cards where the last card comes up only to the players in (Rules
000_1a86611de8d3f5f7.txt, 'Guts': "Each player receives two cards face down. In turn, each
player declares whether they're in or out. If they're in, they receive their third card face
up").  Two cards of a three-card game are valued as a two-card hand without straights and
flushes (a pair, else the high cards), the order a player reads them in.

A policy stays in with a decision value at or above a threshold — written as a hand ("stay
with Q-J-4 or better") or as the share of holdings that stay ("the best 40 %") — or with a
fixed probability, whatever the cards.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

import numpy as np
import numpy.typing as npt

from simulations.engine.guts_game import GutsDeal, GutsGame
from simulations.evaluators.small_hands import THREE_CARD_TABLES, TWO_CARD_TABLES, evaluate_two_card


class Stay(StrEnum):
    """How a seat decides to stay in."""

    THRESHOLD = "threshold"  # with a hand at or above a threshold
    PROBABILITY = "probability"  # with a fixed chance, whatever the cards


@dataclass(frozen=True)
class StayPolicy:
    """One seat's rule: ``threshold`` is a decision value (stay at or above it), ``chance``
    the probability of staying; ``label`` says it in words."""

    stay: Stay
    threshold: int = 0
    chance: float = 0.0
    label: str = ""


@dataclass(frozen=True)
class DecisionTables:
    """The value tables a game's decisions and showdowns read (indexed as the compiled
    evaluators of :mod:`simulations.evaluators.small_hands` index them)."""

    three: npt.NDArray[np.int16]  # the showdown's three-card values
    two: npt.NDArray[np.int16]  # the showdown's two-card values (two-card games)
    decision_two: npt.NDArray[np.int16]  # two cards held at a decision
    decision_cards: int  # how many cards a player holds when he decides


@cache
def tables(game: GutsGame) -> DecisionTables:
    """The tables for ``game``."""
    two = TWO_CARD_TABLES[game.straights_and_flushes]
    down = game.cards - (game.deal is GutsDeal.LAST_CARD_UP)
    return DecisionTables(
        THREE_CARD_TABLES[game.order],
        two,
        two if game.cards == 2 else TWO_CARD_TABLES[False],
        down,
    )


def decision_value(game: GutsGame, cards: tuple[int, ...]) -> int:
    """The value a decision on ``cards`` (as many as the player holds then) reads."""
    t = tables(game)
    ranks = [c >> 2 for c in cards]
    if len(cards) == 3:
        suited = len({c & 3 for c in cards}) == 1
        return int(t.three[ranks[0] * 169 + ranks[1] * 13 + ranks[2] + 2197 * suited])
    if len(cards) != 2:
        raise ValueError(f"a guts decision reads 2 or 3 cards, not {len(cards)}")
    suited = cards[0] & 3 == cards[1] & 3
    table = t.decision_two if len(cards) == t.decision_cards else t.two
    return int(table[ranks[0] * 13 + ranks[1] + 169 * suited])


@cache
def holdings(game: GutsGame) -> tuple[int, ...]:
    """The decision value of every holding a player may decide on, best first."""
    count = tables(game).decision_cards
    values = [decision_value(game, combo) for combo in itertools.combinations(range(52), count)]
    return tuple(sorted(values, reverse=True))


def threshold_for_top(game: GutsGame, top: float) -> int:
    """The threshold that keeps in the best ``top`` share of holdings (ties at the edge stay
    in too): 0 stays with nothing, 1 with everything."""
    if not 0.0 <= top <= 1.0:
        raise ValueError(f"top must lie in 0..1, got {top}")
    values = holdings(game)
    if top == 0.0:
        return values[0] + 1  # above the best holding: never in
    return values[max(0, math.ceil(top * len(values)) - 1)]


def share_staying(game: GutsGame, threshold: int) -> float:
    """The share of holdings at or above ``threshold``."""
    values = holdings(game)
    return sum(v >= threshold for v in values) / len(values)


def threshold_label(game: GutsGame, threshold: int) -> str:
    """A threshold in words: the weakest holding that stays in, and the share that does."""
    values = holdings(game)
    if threshold > values[0]:
        return "never in"
    count = tables(game).decision_cards
    weakest = min(
        (combo for combo in itertools.combinations(range(52), count)
         if decision_value(game, combo) >= threshold),
        key=lambda combo: decision_value(game, combo),
    )  # fmt: skip
    if len(weakest) == game.cards:
        name = game.ranking(weakest).name
    else:  # two cards of a three-card game, read as a two-card hand
        name = evaluate_two_card(weakest).name
    return f"{name} or better ({100 * share_staying(game, threshold):.1f} % in)"
