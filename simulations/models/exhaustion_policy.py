"""The players of the exhaustion job: who folds, and what a player discards in a draw.

One compiled function for each decision, called by the kernel
(:mod:`simulations.models.exhaustion_kernel`) and by the reference player that plays a real
:class:`~simulations.engine.hand.Hand` (:mod:`simulations.models.exhaustion_reference`)
alike, so that both make the same decisions from the same cards and uniforms.

**Folding.**  On every betting round each live player folds with the chance ``fold_chance``
(he folds when his uniform for the round is below it); with a starting-hand ``threshold``, the
first betting round is decided by the first cards instead: he folds unless they reach it.
Should every live player fold, the one with the highest uniform stays (and wins), so who
folds never depends on the order of acting.

**Starting hands**, as a threshold reads them:

* high games (stud, five-card draw, Anaconda): by the ranks of the first cards alone, aces
  high: three of a kind by its rank, above any pair, by the highest rank held twice, above
  any unpaired hand, by its highest card; straights and flushes do not count.  A threshold is
  written ``"Q"`` (a queen or better, or any pair), ``"JJ"`` (jacks or better) or ``"777"``;
* lowball and badugi: by how many cards the draw policy keeps of them, written ``"3 cards"``.

**Draws** (the cards kept; the rest are discarded, in the order held):

* five-card draw: a straight or a flush or better stands pat; otherwise every card of a rank
  held twice or more (a pair, two pair, trips, a full house, quads); with no pair, the cards
  at or above the draw rank (default ``"A"``: an ace is kept, nothing else);
* deuce-to-seven and ace-to-five lowball: one card of each rank at or below the draw rank
  (default ``"8"``; aces are high in deuce-to-seven, low in ace-to-five), the first held;
* badugi: its playing cards, read from the lowest up (aces low; equal ranks in the order
  held): a card is kept when it is at or below the draw rank (default ``"K"``, every card)
  and neither its rank nor its suit is among the cards kept already.
"""

from __future__ import annotations

import re
from enum import IntEnum

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.cards import RANK_SYMBOLS

# The families as the compiled functions take them.
STUD = 0
DRAW_HIGH = 1
DEUCE_TO_SEVEN = 2
ACE_TO_FIVE = 3
BADUGI = 4
ANACONDA = 5


class Family(IntEnum):
    """How a game's starting hands and draws are read."""

    STUD = STUD
    DRAW_HIGH = DRAW_HIGH
    DEUCE_TO_SEVEN = DEUCE_TO_SEVEN
    ACE_TO_FIVE = ACE_TO_FIVE
    BADUGI = BADUGI
    ANACONDA = ANACONDA

    @property
    def low(self) -> bool:
        """A threshold counts the cards the draw policy keeps (lowball, badugi)."""
        return self in (Family.DEUCE_TO_SEVEN, Family.ACE_TO_FIVE, Family.BADUGI)

    @property
    def draws(self) -> bool:
        return self in (Family.DRAW_HIGH, Family.DEUCE_TO_SEVEN, Family.ACE_TO_FIVE, Family.BADUGI)


DEFAULT_DRAW_RANK = {
    Family.DRAW_HIGH: "A",
    Family.DEUCE_TO_SEVEN: "8",
    Family.ACE_TO_FIVE: "8",
    Family.BADUGI: "K",
}
PAIRS = 13  # the starting-hand score of a pair of deuces
TRIPS = 26  # ... and of three deuces
_COUNT = re.compile(r"^([0-9]+) cards?$")


# -- the threshold and the draw rank, as written in a job ---------------------------------


def parse_threshold(text: str, family: Family, first_cards: int, hand_cards: int) -> int:
    """A threshold as the compiled functions compare it: a score (high games) or a count of
    kept cards (low games).  ``ValueError`` for one outside the game's ranking."""
    if family.low:
        found = _COUNT.match(text.strip())
        if found is None:
            raise ValueError(f"is a number of cards kept in this game, as '3 cards'; got {text!r}")
        count = int(found.group(1))
        if not 0 <= count <= hand_cards:
            raise ValueError(f"a hand of {hand_cards} cards keeps 0 to {hand_cards}, not {count}")
        return count
    ranks = text.strip().upper()
    if not ranks or len(ranks) > 3 or len(set(ranks)) != 1 or ranks[0] not in RANK_SYMBOLS:
        raise ValueError(
            f"is a rank ('Q'), a pair ('JJ') or three of a kind ('777'), read by ranks alone; "
            f"got {text!r}"
        )
    if len(ranks) > first_cards:
        raise ValueError(f"{text!r} cannot be made with the first {first_cards} cards")
    return (len(ranks) - 1) * PAIRS + RANK_SYMBOLS.index(ranks[0])


def describe_threshold(threshold: int, family: Family) -> str:
    if family.low:
        return f"{threshold} or more cards kept"
    rank = RANK_SYMBOLS[threshold % PAIRS]
    return {0: f"{rank}-high or better", 1: f"{rank * 2} or better", 2: f"{rank * 3} or better"}[
        threshold // PAIRS
    ]


def parse_draw_rank(text: str) -> int:
    """A draw rank ('8', 'T', 'A') as a rank 0 (deuce) .. 12 (ace)."""
    symbol = text.strip().upper()
    if len(symbol) != 1 or symbol not in RANK_SYMBOLS:
        raise ValueError(f"is one rank, 2 to A; got {text!r}")
    return RANK_SYMBOLS.index(symbol)


def describe_draw(family: Family, rank: int) -> str:
    symbol = RANK_SYMBOLS[rank]
    if family is Family.DRAW_HIGH:
        return f"pat with a straight or better; keeps paired cards, else cards {symbol} or higher"
    if family is Family.BADUGI:
        return f"keeps its playing cards {symbol} or lower (from the lowest up)"
    aces = "aces high" if family is Family.DEUCE_TO_SEVEN else "aces low"
    return f"keeps one card of each rank {symbol} or lower ({aces})"


# -- the compiled decisions ---------------------------------------------------------------


@nb.njit(cache=True)
def _multiples(cards: npt.NDArray[np.int64], count: int) -> tuple[int, int, int]:
    """Bit masks of the ranks held once or more, twice or more, three times or more."""
    once = 0
    twice = 0
    thrice = 0
    for i in range(count):
        bit = 1 << (cards[i] >> 2)
        if twice & bit:
            thrice |= bit
        elif once & bit:
            twice |= bit
        once |= bit
    return once, twice, thrice


@nb.njit(cache=True)
def _highest(mask: int) -> int:
    rank = -1
    while mask:
        mask >>= 1
        rank += 1
    return rank


@nb.njit(cache=True)
def start_score(cards: npt.NDArray[np.int64], count: int) -> int:
    """The first ``count`` cards' starting-hand score (high games): the highest card
    (0..12), a pair (13 + its rank), or three of a kind (26 + its rank)."""
    once, twice, thrice = _multiples(cards, count)
    if thrice:
        return TRIPS + _highest(thrice)
    if twice:
        return PAIRS + _highest(twice)
    return _highest(once)


@nb.njit(cache=True)
def _low_rank(card: int, aces_low: bool) -> int:
    """A card's rank for a low game: 0 (the lowest) .. 12."""
    rank = card >> 2
    return (rank + 1) % 13 if aces_low else rank


@nb.njit(cache=True)
def _pat(cards: npt.NDArray[np.int64], count: int) -> bool:
    """Five cards making a straight or a flush (or both)."""
    if count != 5:
        return False
    flush = True
    mask = 0
    for i in range(count):
        if cards[i] & 3 != cards[0] & 3:
            flush = False
        mask |= 1 << (cards[i] >> 2)
    if flush:
        return True
    distinct = 0
    for rank in range(13):
        if mask >> rank & 1:
            distinct += 1
    if distinct != 5:
        return False
    if mask == 0b1000000001111:  # A-2-3-4-5
        return True
    low = 0
    while not mask >> low & 1:
        low += 1
    return mask == 0b11111 << low


@nb.njit(cache=True)
def keep_cards(
    cards: npt.NDArray[np.int64], count: int, family: int, rank: int, keep: npt.NDArray[np.bool_]
) -> int:
    """The draw policy: ``keep[i]`` for each of the first ``count`` cards held (in the order
    held); returns how many are kept (see the module's text for each game)."""
    kept = 0
    for i in range(count):
        keep[i] = False
    if family == DRAW_HIGH:
        if _pat(cards, count):
            for i in range(count):
                keep[i] = True
            return count
        twice = _multiples(cards, count)[1]
        for i in range(count):
            if twice >> (cards[i] >> 2) & 1:
                keep[i] = True
                kept += 1
        if kept:
            return kept
        for i in range(count):
            if cards[i] >> 2 >= rank:
                keep[i] = True
                kept += 1
        return kept
    if family in (DEUCE_TO_SEVEN, ACE_TO_FIVE):
        aces_low = family == ACE_TO_FIVE
        limit = _low_rank(rank * 4, aces_low)
        seen = 0
        for i in range(count):
            low = _low_rank(cards[i], aces_low)
            if low <= limit and not seen >> low & 1:
                seen |= 1 << low
                keep[i] = True
                kept += 1
        return kept
    # Badugi: from the lowest card up, aces low, equal ranks in the order held.
    limit = _low_rank(rank * 4, True)
    ranks = 0
    suits = 0
    for low in range(13):
        if low > limit:
            break
        for i in range(count):
            card = cards[i]
            if _low_rank(card, True) != low:
                continue
            if ranks >> low & 1 or suits >> (card & 3) & 1:
                continue
            ranks |= 1 << low
            suits |= 1 << (card & 3)
            keep[i] = True
            kept += 1
    return kept


@nb.njit(cache=True)
def round_folds(
    live: npt.NDArray[np.bool_],
    uniforms: npt.NDArray[np.float64],
    fold_chance: float,
    by_threshold: bool,
    scores: npt.NDArray[np.int64],
    threshold: int,
    folds: npt.NDArray[np.bool_],
) -> int:
    """Who folds on a betting round: ``folds[s]`` for each live seat (the others False);
    returns how many fold.  By the threshold (the first round of a threshold policy) a seat
    folds when its score is below it, otherwise when its uniform is below ``fold_chance``;
    should every live seat fold, the one with the highest uniform (the first such) stays."""
    staying = 0
    folding = 0
    best = -1
    for s in range(live.shape[0]):
        folds[s] = False
        if not live[s]:
            continue
        fold = scores[s] < threshold if by_threshold else uniforms[s] < fold_chance
        folds[s] = fold
        if fold:
            folding += 1
        else:
            staying += 1
        if best < 0 or uniforms[s] > uniforms[best]:
            best = s
    if staying == 0 and best >= 0:
        folds[best] = False
        folding -= 1
    return folding
