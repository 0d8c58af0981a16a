"""Stripped decks: Manila and its short decks, Mexican stud, Royal hold'em, Spanish hold'em.

Each is a :class:`~simulations.evaluators.systems.RankingSystem`: the deck's ranks, straights
over the deck's own rank sequence, and the category order the rule text gives — or, where a
text gives none, the order of the categories' rarity in that deck (:func:`rarity_order`, from
:func:`category_counts`).  Values order
hands exactly within a system (``place << 20 | ranks``) and come back as
:class:`~simulations.evaluators.ranking.Ranking`; Royal hold'em keeps the standard order, so
:func:`~simulations.evaluators.systems.evaluate_system_high` gives its hands as high-hand values.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from math import comb, prod

import numpy as np
import numpy.typing as npt

from simulations.cards import Rank, is_joker, rank_of
from simulations.evaluators.ranking import Ranking
from simulations.evaluators.selection import Selection
from simulations.evaluators.systems import (
    STANDARD_ORDER,
    JokerRole,
    RankingSystem,
    Shape,
    evaluate_system,
    evaluate_system_batch,
)

# A flush beats a full house: the standard order with the two swapped.
FLUSH_OVER_FULL_HOUSE = tuple(
    Shape.FULL_HOUSE if s is Shape.FLUSH else Shape.FLUSH if s is Shape.FULL_HOUSE else s
    for s in STANDARD_ORDER
)
_SEVEN_UP = tuple(Rank)[Rank.SEVEN :]
_EIGHT_UP = tuple(Rank)[Rank.EIGHT :]
_SIX_UP = tuple(Rank)[Rank.SIX :]

# Rules 002, 'Manila': a stripped deck in which all cards below the rank of 7 are removed
# (32 cards); "because of the stripped deck, a flush beats a full house.  Also, an ace may not
# be played low for a straight (that is, the hand A-7-8-9-10 is not a straight in Manila)."
MANILA = RankingSystem(name="Manila", ranks=_SEVEN_UP, ace_low=False, order=FLUSH_OVER_FULL_HOUSE)
# Rules 002, 'Manila': the three-card variant "is sometimes played with 6s being restored to the
# deck, making it 36 cards"; Manila's hand rules stand.
MANILA_WITH_SIXES = RankingSystem(
    name="Manila with sixes", ranks=_SIX_UP, ace_low=False, order=FLUSH_OVER_FULL_HOUSE
)
# Rules 002, 'Pinatubo': Manila with fewer betting rounds; the same deck and hands.
PINATUBO = replace(MANILA, name="Pinatubo")

# Rules 000, 'Mexican stud': 8s, 9s and 10s stripped and a single joker added (41 cards); the
# 7-spot and the J become consecutive, so that 5-6-7-J-Q is a straight; a flush beats a full
# house; "the joker plays as a bug if it is face up, and fully wild if it is face down."
_MEXICAN_RANKS = tuple(r for r in Rank if r not in (Rank.EIGHT, Rank.NINE, Rank.TEN))
MEXICAN_STUD = RankingSystem(
    name="Mexican stud",
    ranks=_MEXICAN_RANKS,
    order=FLUSH_OVER_FULL_HOUSE,
    jokers=JokerRole.WILD,
    joker_count=1,
)
MEXICAN_STUD_JOKER_UP = replace(
    MEXICAN_STUD, name="Mexican stud, joker face up", jokers=JokerRole.BUG
)

# Rules 002, 'Royal hold 'em': the deck only contains tens, jacks, queens, kings and aces.  The
# text changes no hand values, so the standard order stands (no high-card hand or plain flush
# can be dealt: five distinct ranks of this deck always run T-J-Q-K-A).
ROYAL_HOLDEM = RankingSystem(name="Royal hold'em", ranks=tuple(Rank)[Rank.TEN :], ace_low=False)


def category_counts(ranks: Sequence[Rank], ace_low: bool = True) -> dict[Shape, int]:
    """How many five-card hands of a four-suit deck of ``ranks`` fall in each standard
    category (five of a kind: none, there being no wild cards), straights running over the
    deck's own ranks (``ace_low``: A also below the lowest).  Counted over rank multisets,
    each multiset standing for the product of C(4, m) suit choices of its ranks."""
    deck = tuple(sorted(set(ranks)))
    runs = {int(mask) for mask in RankingSystem("runs", deck, ace_low).tables.straights[:, 0]}
    counts = dict.fromkeys(STANDARD_ORDER, 0)
    for multiset in itertools.combinations_with_replacement([int(r) for r in deck], 5):
        sizes = sorted(Counter(multiset).values(), reverse=True)
        if sizes[0] > 4:
            continue
        ways = prod(comb(4, size) for size in sizes)
        if sizes[0] == 1:  # five ranks: four one-suit hands, the rest of mixed suits
            run = sum(1 << r for r in multiset) in runs
            counts[Shape.STRAIGHT_FLUSH if run else Shape.FLUSH] += 4
            counts[Shape.STRAIGHT if run else Shape.HIGH_CARD] += ways - 4
            continue
        shape = {
            (4, 1): Shape.FOUR_OF_A_KIND,
            (3, 2): Shape.FULL_HOUSE,
            (3, 1): Shape.THREE_OF_A_KIND,
            (2, 2): Shape.TWO_PAIR,
            (2, 1): Shape.ONE_PAIR,
        }[sizes[0], sizes[1]]
        counts[shape] += ways
    return counts


def rarity_order(ranks: Sequence[Rank], ace_low: bool = True) -> tuple[Shape, ...]:
    """The categories weakest first by their rarity among the five-card hands of a stripped
    deck (:func:`category_counts`): the rarer beats the more common, equal counts keeping the
    standard order.

    Rules 002_376df91f076a6501.txt, 'Manila': "Because of the stripped deck, a flush beats a
    full house" — the rarer hand ranks higher.  High card stays the weakest: it is no
    combination at all, and Manila, whose 32 cards also make fewer no-pair hands than one-pair
    hands, still ranks any pair above it."""
    counts = category_counts(ranks, ace_low)
    made = sorted((s for s in STANDARD_ORDER if s is not Shape.HIGH_CARD), key=lambda s: -counts[s])
    return (Shape.HIGH_CARD, *made)


# Rules 002, 'Stripped deck': "A popular poker game in Spain is played with cards 8-A.  It is
# played similar to hold'em, except that one card is dealt at a time and you must use both of
# your hole cards."  The text gives no hand values: the categories rank by their rarity in the
# 28-card deck (a flush, 72 hands, beats four of a kind, 168, and a full house, 1,008), and the
# ace does not play low (A-8-9-T-J is no straight), as in Manila, the texts' other short deck.
SPANISH_HOLDEM = RankingSystem(
    name="Spanish hold'em", ranks=_EIGHT_UP, ace_low=False, order=rarity_order(_EIGHT_UP, False)
)


def mexican_stud(hole_card: int) -> RankingSystem:
    """The Mexican stud system for a player whose one face-down card is ``hole_card``.

    Five-card stud: every other card is face up, so the joker is fully wild in the hole and the
    bug anywhere else.
    """
    return MEXICAN_STUD if is_joker(hole_card) else MEXICAN_STUD_JOKER_UP


def shifting_sands(hole_card: int) -> RankingSystem:
    """Rules 000, 'Shifting sands': Mexican stud in which the player's hole card (and all others
    of that rank) are wild for that player only."""
    system = mexican_stud(hole_card)
    if is_joker(hole_card):
        return replace(system, name="Shifting sands")
    return replace(system, name="Shifting sands", wild_ranks=frozenset({rank_of(hole_card)}))


def evaluate_stripped(system: RankingSystem, cards: str | Sequence[int]) -> Ranking:
    """The best five of ``cards`` (five or more, all from the system's deck)."""
    return evaluate_system(system, cards)


def evaluate_stripped_batch(
    system: RankingSystem,
    hands: npt.ArrayLike,
    selection: Selection | None = None,
    *,
    check: bool = True,
) -> npt.NDArray[np.int32]:
    """Values of each row under ``system``; with a ``selection`` only its allowed fives play
    (Manila: both hole cards with three of the five board cards)."""
    if selection is None:
        return evaluate_system_batch(system, hands, check=check)
    array = np.asarray(hands)
    if array.ndim != 2 or array.shape[1] != selection.row_width:
        raise ValueError(
            f"{selection.name} rows hold {selection.row_width} cards, got shape {array.shape}"
        )
    return evaluate_system_batch(system, array, selection.combo_array, check=check)
