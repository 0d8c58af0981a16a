"""Badugi: four cards, aces low; cards that repeat a rank or a suit do not play.

A hand plays its largest set of cards of different ranks and different suits; more playing
cards beat fewer, and among equal counts the hand whose highest card is lower wins, then
the next highest, and so on.  A four-card hand of four ranks and four suits is a badugi.

The value is ``count << 13 | (0x1FFF - mask)``, where ``mask`` has bit ``r`` set for each
playing card of ace-low rank ``r`` (A = 0 .. K = 12): comparing two masks of the same size
as integers compares their highest cards first, so a smaller mask is a better hand.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.evaluators.hand_input import CardsLike, hand_array, hand_cards
from simulations.evaluators.ranking import Ranking

__all__ = [
    "BADUGI_CARDS",
    "SYSTEM",
    "badugi_ranking",
    "badugi_values",
    "evaluate_badugi",
    "evaluate_badugi_batch",
    "reference_badugi_value",
    "reference_badugi_values",
]

SYSTEM = "badugi"
BADUGI_CARDS = 4
_RANK_FIELD = 13
_ALL_RANKS = (1 << _RANK_FIELD) - 1
_ACE_LOW_SYMBOLS = "A23456789TJQK"
_COUNT_WORDS = ("", "one", "two", "three", "four")

# Card code -> ace-low rank bit.
RANK_BITS = (1 << ((np.arange(52) // 4 + 1) % 13)).astype(np.int64)
RANK_BITS.setflags(write=False)
# The six pairs of positions in a four-card hand, in the bit order of a clash pattern.
_PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


def _playing_sets() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """For each of the 64 patterns of clashes (shared rank or suit) between the six pairs of
    cards: how many cards play, and every largest set of positions without a clash (as 4-bit
    masks, 0 padding), one of which plays - whichever has the lowest ranks."""
    sizes = np.zeros(64, dtype=np.int64)
    candidates = np.zeros((64, 6), dtype=np.int64)
    for pattern in range(64):
        clashing = [pair for k, pair in enumerate(_PAIRS) if pattern >> k & 1]
        free = [
            subset
            for subset in range(1, 16)
            if not any(subset >> a & 1 and subset >> b & 1 for a, b in clashing)
        ]
        size = max(subset.bit_count() for subset in free)
        largest = [subset for subset in free if subset.bit_count() == size]
        sizes[pattern] = size
        candidates[pattern, : len(largest)] = largest
    sizes.setflags(write=False)
    candidates.setflags(write=False)
    return sizes, candidates


PLAYING_SIZES, PLAYING_SETS = _playing_sets()


@nb.njit(cache=True)
def badugi_values(
    hands: npt.NDArray[np.int8],
    rank_bits: npt.NDArray[np.int64],
    playing_sizes: npt.NDArray[np.int64],
    playing_sets: npt.NDArray[np.int64],
    out: npt.NDArray[np.int32],
) -> None:
    """Badugi values of each row of ``hands`` (4 distinct codes 0..51, unchecked).

    The six pairs of cards are compared for a shared rank or suit; the pattern of clashes
    fixes how many cards play and which sets of them may, and the set with the smallest
    rank mask among those plays.
    """
    for i in range(hands.shape[0]):
        a = hands[i, 0]
        b = hands[i, 1]
        c = hands[i, 2]
        d = hands[i, 3]
        pattern = (
            _clash(a, b)
            | _clash(a, c) << 1
            | _clash(a, d) << 2
            | _clash(b, c) << 3
            | _clash(b, d) << 4
            | _clash(c, d) << 5
        )
        best = _ALL_RANKS
        for k in range(6):
            subset = playing_sets[pattern, k]
            if subset == 0:
                break
            mask = (
                rank_bits[a] * (subset & 1)
                | rank_bits[b] * (subset >> 1 & 1)
                | rank_bits[c] * (subset >> 2 & 1)
                | rank_bits[d] * (subset >> 3 & 1)
            )
            best = min(best, mask)
        out[i] = (playing_sizes[pattern] << _RANK_FIELD) | (_ALL_RANKS - best)


@nb.njit(cache=True)
def _clash(a: int, b: int) -> int:
    """1 if two cards share a rank or a suit."""
    return int(a >> 2 == b >> 2 or a & 3 == b & 3)


@nb.njit(cache=True)
def reference_badugi_value(cards: npt.NDArray[np.int64]) -> int:
    """The badugi value of four cards, found the long way.

    From four cards down to one, every set of that many cards is checked pair by pair for a
    shared rank or suit; of the sets that play, the one whose ranks, sorted from the highest
    down, come first is the hand.
    """
    members = np.empty(4, dtype=np.int64)
    ranks = np.empty(4, dtype=np.int64)
    best = np.empty(4, dtype=np.int64)
    for size in range(4, 0, -1):
        found = False
        for subset in range(1, 16):
            count = 0
            for j in range(4):
                if subset >> j & 1:
                    members[count] = j
                    count += 1
            if count != size:
                continue
            plays = True
            for x in range(size):
                for y in range(x + 1, size):
                    a = cards[members[x]]
                    b = cards[members[y]]
                    if a >> 2 == b >> 2 or a & 3 == b & 3:
                        plays = False
            if not plays:
                continue
            # Ace-low ranks, sorted from the highest down (insertion sort).
            for x in range(size):
                rank = ((cards[members[x]] >> 2) + 1) % 13
                y = x
                while y > 0 and ranks[y - 1] < rank:
                    ranks[y] = ranks[y - 1]
                    y -= 1
                ranks[y] = rank
            better = not found
            for x in range(size):
                if found and ranks[x] != best[x]:
                    better = ranks[x] < best[x]
                    break
            if better:
                best[:size] = ranks[:size]
                found = True
        if found:
            mask = 0
            for x in range(size):
                mask |= 1 << best[x]
            return (size << _RANK_FIELD) | (_ALL_RANKS - mask)
    return 0  # pragma: no cover - a single card always plays


@nb.njit(cache=True)
def reference_badugi_values(hands: npt.NDArray[np.int8], out: npt.NDArray[np.int32]) -> None:
    """:func:`reference_badugi_value` of every row, for checking the batch kernel."""
    cards = np.empty(BADUGI_CARDS, dtype=np.int64)
    for i in range(hands.shape[0]):
        for j in range(BADUGI_CARDS):
            cards[j] = hands[i, j]
        out[i] = reference_badugi_value(cards)


def badugi_ranking(value: int) -> Ranking:
    """The :class:`Ranking` of a badugi value: 'four-card badugi, 7 high (7-4-3-A)'."""
    count = value >> _RANK_FIELD
    mask = _ALL_RANKS - (value & _ALL_RANKS)
    ranks = [r for r in range(12, -1, -1) if mask >> r & 1]
    if not 1 <= count <= BADUGI_CARDS or len(ranks) != count or value & ~0xFFFF:
        raise ValueError(f"{value} is not a badugi value")
    category = "four-card badugi" if count == 4 else f"{_COUNT_WORDS[count]}-card hand"
    cards = "-".join(_ACE_LOW_SYMBOLS[r] for r in ranks)
    return Ranking(SYSTEM, value, category, f"{category}, {cards[0]} high ({cards})")


def evaluate_badugi(cards: CardsLike) -> Ranking:
    """The badugi hand of four cards, given as text ('As 2c 3h 4d') or card codes."""
    codes = hand_cards(cards, BADUGI_CARDS, BADUGI_CARDS, SYSTEM)
    return badugi_ranking(reference_badugi_value(np.array(codes, dtype=np.int64)))


def evaluate_badugi_batch(hands: npt.ArrayLike, *, check: bool = True) -> npt.NDArray[np.int32]:
    """Badugi values of an ``(n, 4)`` array of card codes, one per row (``check`` as for
    :func:`simulations.evaluators.lowball.evaluate_low_batch`)."""
    array = hand_array(hands, BADUGI_CARDS, BADUGI_CARDS, SYSTEM, check=check)
    out = np.empty(array.shape[0], dtype=np.int32)
    badugi_values(array, RANK_BITS, PLAYING_SIZES, PLAYING_SETS, out)
    return out
