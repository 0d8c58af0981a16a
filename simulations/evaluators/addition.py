"""Wild cards made by addition: Number Nine.

Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': "Number Nine is a variant of seven-card stud
in which 9s are wild, and any two number cards that add up to 9 may make one wild card, at
the player's option. Aces count as 1 for wild card purposes. The player is not obliged to make
any wild cards, and can play cards that could make 9s at face value or as wild cards, at his
option. Cards used to make wild cards may not figure in the resulting hand twice. The player
cannot add three or more cards. Sometimes, 9s themselves are not wild, and wild cards can be
made only by addition."

A hand is therefore five *units*, each one card or two number cards (ace 1, deuce 2, ... ten
10; no picture card) adding up to the total, which play as one fully wild card; no card is in
two units.  :func:`made_wild_hands` lists every way a player's cards can be played so: the
cards as they are, and each set of disjoint adding pairs replaced by one placeholder joker
apiece, as long as five units are left.  A ranking system with ``adds_to``
(:class:`~simulations.evaluators.systems.RankingSystem`) values a hand as the best of these,
the placeholders fully wild.
"""

from __future__ import annotations

from collections.abc import Sequence

from simulations.cards import FIRST_JOKER, MAX_JOKERS, Rank

HAND_SIZE = 5
# Aces count as 1; the picture cards are no number cards.
_NUMBER = {int(rank): int(rank) + 2 for rank in Rank if rank <= Rank.TEN}
_NUMBER[int(Rank.ACE)] = 1
LOWEST_TOTAL = 1 + 2  # an ace and a deuce
HIGHEST_TOTAL = 9 + 10


def number_value(card: int) -> int | None:
    """What a card counts when added (ace 1, deuce 2, ... ten 10); None for a picture card or
    a joker."""
    if card >= FIRST_JOKER:
        return None
    return _NUMBER.get(card >> 2)


def adding_pairs(cards: Sequence[int], total: int) -> list[tuple[int, int]]:
    """The positions (i < j) of every two of ``cards`` that add up to ``total``."""
    values = [number_value(card) for card in cards]
    pairs = []
    for i, first in enumerate(values):
        for j in range(i + 1, len(values)):
            second = values[j]
            if first is not None and second is not None and first + second == total:
                pairs.append((i, j))
    return pairs


def made_wild_hands(cards: Sequence[int], total: int) -> list[tuple[int, ...]]:
    """Every way of playing ``cards`` with wild cards made by adding two of them to
    ``total``: the cards as they are first, then, for each set of disjoint adding pairs
    that leaves at least five units, the other cards followed by one placeholder joker
    (``FIRST_JOKER``, ``FIRST_JOKER + 1``, ...) per pair.  At most four pairs are made (the
    placeholders are the four joker codes)."""
    pairs = adding_pairs(cards, total)
    most = max(0, min(len(cards) - HAND_SIZE, MAX_JOKERS))
    hands: list[tuple[int, ...]] = []

    def extend(start: int, used: frozenset[int], made: int) -> None:
        kept = tuple(int(c) for k, c in enumerate(cards) if k not in used)
        hands.append(kept + tuple(FIRST_JOKER + m for m in range(made)))
        if made == most:
            return
        for index in range(start, len(pairs)):
            i, j = pairs[index]
            if i not in used and j not in used:
                extend(index + 1, used | {i, j}, made + 1)

    extend(0, frozenset(), 0)
    return hands
