"""A deliberately plain reference for five-card hands, written from the rule texts' words.

Nothing here is shared with the evaluators: straights are listed by hand as rank strings,
categories are named by their words, and every reading a five-card hand admits (a Canadian
four-flush that is also a pair, a double-ace flush that is also a pair) is valued and the
largest kept.  Wild cards are resolved by trying every substitution.  Arrays keep it fast
enough for hundreds of thousands of hands.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

SYMBOLS = "23456789TJQKA"
ACE = 12

HIGH_CARD = "high card"
ONE_PAIR = "one pair"
TWO_PAIR = "two pair"
TRIPS = "three of a kind"
STRAIGHT = "straight"
FLUSH = "flush"
FULL_HOUSE = "full house"
QUADS = "four of a kind"
STRAIGHT_FLUSH = "straight flush"
FIVE_KIND = "five of a kind"
FOUR_STRAIGHT = "four-card straight"
FOUR_FLUSH = "four-card flush"

STANDARD_ORDER = (
    HIGH_CARD,
    ONE_PAIR,
    TWO_PAIR,
    TRIPS,
    STRAIGHT,
    FLUSH,
    FULL_HOUSE,
    QUADS,
    STRAIGHT_FLUSH,
    FIVE_KIND,
)
STANDARD_STRAIGHTS = ("A2345", *(SYMBOLS[low : low + 5] for low in range(9)))


@dataclass(frozen=True)
class Rules:
    """A five-card ranking as the texts state it."""

    straights: tuple[str, ...] = STANDARD_STRAIGHTS  # each written low to high
    order: tuple[str, ...] = STANDARD_ORDER  # weakest first
    four_straights: tuple[str, ...] = ()
    double_ace: bool = False
    deck_ranks: str = SYMBOLS  # ranks a wild card may take


def ranks_of(text: str) -> list[int]:
    return [SYMBOLS.index(s) for s in text]


def _straight_table(windows: Sequence[str]) -> dict[int, int]:
    """Rank mask -> the straight's top rank (its last, highest-placed card)."""
    return {sum(1 << r for r in ranks_of(w)): SYMBOLS.index(w[-1]) for w in windows}


def _pack(ranks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Pack up to five rank columns into the high slots (r1 << 16 | r2 << 12 | ...)."""
    out = np.zeros(ranks.shape[0], dtype=np.int64)
    for slot in range(ranks.shape[1]):
        out |= ranks[:, slot] << (16 - 4 * slot)
    return out


def reference_values(
    ranks: npt.NDArray[np.int64],
    suits: npt.NDArray[np.int64],
    rules: Rules,
    only: Sequence[str] | None = None,
) -> npt.NDArray[np.int64]:
    """Value of each five-card row (``place << 20 | ranks``); cards may repeat (wild cards).

    With ``only``, just those readings count (-1 where none applies).
    """
    n = ranks.shape[0]
    place = {name: i for i, name in enumerate(rules.order) if only is None or name in only}
    counts = np.zeros((n, 13), dtype=np.int64)
    for j in range(5):
        counts[np.arange(n), ranks[:, j]] += 1
    # Ranks in tie-break order: bigger groups first, then higher ranks, each rank once.
    keys = np.sort(counts * 16 + np.arange(13), axis=1)[:, ::-1]
    groups = keys & 15
    shape = keys >> 4
    by_rank_desc = np.sort(ranks, axis=1)[:, ::-1]
    mask = (np.left_shift(1, ranks)).astype(np.int64)
    rank_mask = np.bitwise_or.reduce(mask, axis=1)
    distinct = (counts > 0).sum(axis=1)
    same_suit = (suits == suits[:, :1]).all(axis=1)
    codes = np.sort(ranks * 4 + suits, axis=1)
    repeats = codes[:, 1:] == codes[:, :-1]
    repeated_non_ace = (repeats & ((codes[:, 1:] >> 2) != ACE)).any(axis=1)
    # A flush is five distinct cards of one suit; with the double-ace rule wild aces may
    # repeat the ace.
    distinct_cards = ~repeats.any(axis=1)
    flush = same_suit & (distinct_cards | (rules.double_ace & ~repeated_non_ace))
    top = np.full(n, -1, dtype=np.int64)
    for window_mask, window_top in _straight_table(rules.straights).items():
        top[(rank_mask == window_mask) & (distinct == 5)] = window_top
    straight = top >= 0

    best = np.full(n, -1, dtype=np.int64)

    def offer(name: str, hit: npt.NDArray[np.bool_], slots: npt.NDArray[np.int64]) -> None:
        if name in place:
            value = place[name] << 20 | slots
            best[hit] = np.maximum(best[hit], value[hit])

    s0, s1, s2 = shape[:, 0], shape[:, 1], shape[:, 2]
    offer(FIVE_KIND, s0 == 5, _pack(groups[:, :1]))
    offer(STRAIGHT_FLUSH, straight & flush, top << 16)
    offer(QUADS, s0 == 4, _pack(groups[:, :2]))
    offer(FULL_HOUSE, (s0 == 3) & (s1 == 2), _pack(groups[:, :2]))
    offer(FLUSH, flush, _pack(by_rank_desc))
    offer(STRAIGHT, straight, top << 16)
    offer(TRIPS, (s0 == 3) & (s1 == 1), _pack(groups[:, :3]))
    offer(TWO_PAIR, (s0 == 2) & (s1 == 2), _pack(groups[:, :3]))
    offer(ONE_PAIR, (s0 == 2) & (s1 == 1), _pack(groups[:, :4]))
    offer(HIGH_CARD, (s0 == 1) & (s1 == 1) & (s2 == 1), _pack(by_rank_desc))
    if FOUR_STRAIGHT in place:
        table = _straight_table(rules.four_straights)
        for out in range(5):
            keep = [j for j in range(5) if j != out]
            kept_mask = np.bitwise_or.reduce(mask[:, keep], axis=1)
            kept = np.sort(ranks[:, keep], axis=1)
            kept_distinct = (kept[:, 1:] != kept[:, :-1]).all(axis=1)
            for window_mask, window_top in table.items():
                hit = (kept_mask == window_mask) & kept_distinct
                offer(FOUR_STRAIGHT, hit, np.full(n, window_top << 16) | ranks[:, out] << 12)
    if FOUR_FLUSH in place:
        for out in range(5):
            keep = [j for j in range(5) if j != out]
            four_suited = (suits[:, keep] == suits[:, keep[:1]]).all(axis=1)
            four = np.sort(ranks[:, keep], axis=1)[:, ::-1]
            offer(FOUR_FLUSH, four_suited, _pack(np.hstack([four, ranks[:, out : out + 1]])))
    return best


def brute_force(
    hand: Sequence[int],
    rules: Rules,
    wild: frozenset[int] = frozenset(),
    bugs: frozenset[int] = frozenset(),
) -> int:
    """The best value of ``hand`` (five or more codes) trying every substitution for its wild
    cards: any card of the deck, held cards included (five of a kind), each wild card on its
    own.  A bug is kept only where it is an ace or the five cards make a straight or flush."""
    deck = [r * 4 + s for r in ranks_of(rules.deck_ranks) for s in range(4)]
    best = -1
    for five in itertools.combinations(hand, 5):
        fixed = [c for c in five if c not in wild and c not in bugs]
        n_wild = sum(1 for c in five if c in wild)
        n_bug = sum(1 for c in five if c in bugs)
        # Wild cards of one kind are interchangeable: multisets of substitutions suffice.
        wild_subs = list(itertools.combinations_with_replacement(deck, n_wild))
        bug_subs = list(itertools.combinations_with_replacement(deck, n_bug))
        rows = np.array(
            [fixed + list(w) + list(b) for w in wild_subs for b in bug_subs], dtype=np.int64
        ).reshape(-1, 5)
        ranks, suits = rows >> 2, rows & 3
        values = reference_values(ranks, suits, rules)
        if n_bug:
            all_aces = ((rows[:, 5 - n_bug :] >> 2) == ACE).all(axis=1)
            completing = reference_values(ranks, suits, rules, (STRAIGHT, FLUSH, STRAIGHT_FLUSH))
            values = np.where(all_aces, values, completing)
        best = max(best, int(values.max()))
    return best


def deal_hands(
    rng: np.random.Generator, deck: Sequence[int], n: int, k: int
) -> npt.NDArray[np.int8]:
    """``n`` hands of ``k`` distinct cards of ``deck``."""
    pack = np.array(deck, dtype=np.int8)
    picks = rng.random((n, len(deck))).argsort(axis=1)[:, :k]
    return pack[picks]
