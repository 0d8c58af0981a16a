"""A brute-force oracle for the bad-beat jackpot, written from the rule definitions alone.

It shares nothing with the evaluators' tables or with :mod:`simulations.rules.jackpot`'s
code: a five-card hand is ranked by counting its ranks and suits (Rules
002_376df91f076a6501.txt, the ranking of poker hands: straight flush, four of a kind, full
house, flush, straight, three of a kind, two pair, one pair, high card; the ace plays low
only in A-2-3-4-5), a player's best hand is the best of every five-card choice the game
allows (hold'em: any five of his two and the board; Omaha: exactly two of his four and
exactly three of the board), and the qualifier is checked on the choices themselves:

* 'both hole cards play' (Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot'): some choice
  as good as his best uses at least that many hole cards;
* four of a kind with a pocket pair: that choice's hole cards are two of the quads' rank;
* no full house on board trips: that choice holds a hole card of the three of a kind's rank.

Values are packed as the project packs high hands (category << 20, then the ranks that
decide ties, most important first, four bits each) only so that the bands written as
:func:`~simulations.evaluators.floors.hand_floor` reads them can be compared.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache

from simulations.rules.jackpot import BadBeatRules

STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT = 8, 7, 6, 5, 4
TRIPS, TWO_PAIR, ONE_PAIR, HIGH_CARD = 3, 2, 1, 0


def five_card_value(cards: Sequence[int]) -> int:
    """The packed value of exactly five cards (codes: rank * 4 + suit, deuce = rank 0)."""
    return _five(tuple(sorted(cards)))


@lru_cache(maxsize=1 << 16)
def _five(cards: tuple[int, ...]) -> int:
    assert len(cards) == 5 and len(set(cards)) == 5
    ranks = [c >> 2 for c in cards]
    flush = len({c & 3 for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    top = -1
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        top = distinct[0]
    elif distinct == [12, 3, 2, 1, 0]:  # A-2-3-4-5: the five is the top card
        top = 3
    counts = Counter(ranks)
    # Ranks in the order they decide ties: by how many of them, then by rank.
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if top >= 0:
        return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, [top])
    if shape == [4, 1]:
        category = QUADS
    elif shape == [3, 2]:
        category = FULL_HOUSE
    elif flush:
        category = FLUSH
    elif shape == [3, 1, 1]:
        category = TRIPS
    elif shape == [2, 2, 1]:
        category = TWO_PAIR
    elif shape == [2, 1, 1, 1]:
        category = ONE_PAIR
    else:
        category = HIGH_CARD
    return _pack(category, order)


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def choices(
    hole: Sequence[int], board: Sequence[int], omaha: bool
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every five-card choice the game allows, as (hole cards used, board cards used)."""
    for used in (2,) if omaha else (0, 1, 2):
        for part in itertools.combinations(hole, used):
            for rest in itertools.combinations(board, 5 - used):
                yield part, rest


def best_value(hole: Sequence[int], board: Sequence[int], omaha: bool = False) -> int:
    """The player's best hand: the best of his choices."""
    return max(five_card_value([*part, *rest]) for part, rest in choices(hole, board, omaha))


def card_conditions(
    hole: Sequence[int], board: Sequence[int], rules: BadBeatRules, omaha: bool = False
) -> bool:
    """Whether some choice as good as the player's best meets the qualifier's card
    conditions (the hole cards that play, the pocket pair, the hole card of the trips)."""
    best = best_value(hole, board, omaha)
    category, top = best >> 20, best >> 16 & 15
    need = 2 if omaha else rules.hole_cards_play
    for part, rest in choices(hole, board, omaha):
        if len(part) < need or five_card_value([*part, *rest]) != best:
            continue
        ranks = [c >> 2 for c in part]
        if rules.quads_need_pocket_pair and category == QUADS and ranks != [top, top]:
            continue
        if not rules.board_trips_full_house and category == FULL_HOUSE and top not in ranks:
            continue
        return True
    return False


def qualifying_values(
    board: Sequence[int], holes: Sequence[Sequence[int]], rules: BadBeatRules, omaha: bool
) -> tuple[list[int], list[int]]:
    """The best values of the hands that qualify as losing hands and as winning hands."""
    losing, winning = rules.losing_band, rules.winning_band
    losers: list[int] = []
    winners: list[int] = []
    for hole in holes:
        value = best_value(hole, board, omaha)
        if value < rules.losing_floor or not card_conditions(hole, board, rules, omaha):
            continue
        if losing.floor <= value <= losing.ceiling:
            losers.append(value)
        if winning.floor <= value <= winning.ceiling:
            winners.append(value)
    return losers, winners


def jackpot_hit(
    board: Sequence[int], holes: Sequence[Sequence[int]], rules: BadBeatRules, omaha: bool = False
) -> bool:
    """The jackpot is hit: some qualifying winning hand beats some qualifying losing hand."""
    losers, winners = qualifying_values(board, holes, rules, omaha)
    return bool(losers and winners and max(winners) > min(losers))


def losing_hand_shown(
    board: Sequence[int], holes: Sequence[Sequence[int]], rules: BadBeatRules, omaha: bool = False
) -> bool:
    """Some hand shown is a qualifying losing hand, beaten or not."""
    return bool(qualifying_values(board, holes, rules, omaha)[0])
