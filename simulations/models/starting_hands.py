"""Starting-hand rankings: which share of hold'em and Omaha starting hands a player plays.

A seat that plays a fraction ``vpip`` of its starting hands plays the best ``vpip`` of all
of them by one documented order: **the hand's equity against one random hand, both played
to the river** (a tie counting half) — the order of the published tables of "hand equity
against a random hand" (hold'em: AA 0.8520, KK 0.8240, QQ 0.7993, JJ 0.7747, TT 0.7501,
AKs 0.6704, computed exactly over every matchup at jazbo.com/poker/huholdem.html), and what
point counts such as Hutchison's for Omaha approximate.

* Hold'em: the 169 classes (pairs, suited and offsuit), 200,000 deals each.
* Omaha: the 16,432 classes of four cards under the exchange of suits, 5,000 deals each.

The equities are estimated once by :func:`build` (``python -m
simulations.models.starting_hands`` writes ``starting_hands.npz``, about three minutes);
each class draws from its own SplitMix64 stream, so any class can be rebuilt alone and must
give the shipped figure exactly (a test rebuilds a sample of them).  Hands of one class are
ranked together: a player whose share ends inside a class plays its hands with the chance
that makes his share exact (:func:`plays`).
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.cards import RANK_SYMBOLS
from simulations.evaluators.high import TABLES, rank_classes
from simulations.evaluators.omaha import OMAHA_TABLES
from simulations.models.splitmix import uniform
from simulations.models.table_eval import HOLDEM, OMAHA, board_key, holdem_value, omaha_value

TABLE_FILE = Path(__file__).with_name("starting_hands.npz")
HOLDEM_DEALS = 200_000
OMAHA_DEALS = 5_000
SEED_KEY = 0x5DEECE66D2B0F3A1  # a class's stream: this xor its index times the golden ratio
_GOLDEN = 0x9E3779B97F4A7C15
HOLE_CARDS = {HOLDEM: 2, OMAHA: 4}


def combo_index(cards: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The colexicographic index of each row of distinct card codes (any order): for sorted
    cards c0 < c1 < ..., the sum of C(c_i, i + 1); the kernel computes the same
    (:func:`combo_of`)."""
    rows = np.sort(np.atleast_2d(np.asarray(cards, dtype=np.int64)), axis=1)
    index = np.zeros(rows.shape[0], dtype=np.int64)
    for i in range(rows.shape[1]):
        index += _binomial(rows[:, i], i + 1)
    return index


def _binomial(n: npt.NDArray[np.int64], k: int) -> npt.NDArray[np.int64]:
    out = np.ones_like(n)
    for j in range(k):
        out = out * (n - j) // (j + 1)
    return np.where(n >= k, out, 0)


@nb.njit(cache=True, inline="always")
def combo_of(cards: npt.NDArray[np.int64], p: int, count: int) -> int:
    """:func:`combo_index` of seat ``p``'s ``count`` (2 or 4) hole cards (row ``p``)."""
    a = cards[p, 0]
    b = cards[p, 1]
    if a > b:
        a, b = b, a
    if count == 2:
        return int(a + b * (b - 1) // 2)
    c = cards[p, 2]
    d = cards[p, 3]
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    # C(c, 3) and C(d, 4) as products (zero below three and four): no loop, and divisions by
    # constants the compiler turns into multiplications.
    return int(
        a + b * (b - 1) // 2 + c * (c - 1) * (c - 2) // 6 + d * (d - 1) * (d - 2) * (d - 3) // 24
    )


# -- the classes --------------------------------------------------------------------------


def holdem_classes() -> tuple[npt.NDArray[np.int64], list[str]]:
    """Each of the 1,326 two-card hands' class (by colex index), and the classes' names
    ('AA', 'AKs', 'AKo'), pairs first from aces down, then suited, then offsuit."""
    names = [RANK_SYMBOLS[r] * 2 for r in range(12, -1, -1)]
    for suited in ("s", "o"):
        for high in range(12, -1, -1):
            for low in range(high - 1, -1, -1):
                names.append(f"{RANK_SYMBOLS[high]}{RANK_SYMBOLS[low]}{suited}")
    number = {name: i for i, name in enumerate(names)}
    pairs = np.array(list(itertools.combinations(range(52), 2)), dtype=np.int64)
    found = []
    for a, b in pairs.tolist():
        high, low = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
        if high == low:
            name = RANK_SYMBOLS[high] * 2
        else:
            name = f"{RANK_SYMBOLS[high]}{RANK_SYMBOLS[low]}{'s' if a & 3 == b & 3 else 'o'}"
        found.append(number[name])
    classes = np.empty(len(pairs), dtype=np.int64)
    classes[combo_index(pairs)] = found
    return classes, names


def omaha_classes() -> npt.NDArray[np.int64]:
    """Each of the 270,725 four-card hands' class (by colex index): hands equal under some
    exchange of the suits share a class, numbered in the order of their smallest form."""
    combos = np.array(list(itertools.combinations(range(52), 4)), dtype=np.int64)
    best = np.full(len(combos), np.iinfo(np.int64).max, dtype=np.int64)
    for perm in itertools.permutations(range(4)):
        mapped = combos >> 2 << 2 | np.array(perm, dtype=np.int64)[combos & 3]
        mapped.sort(axis=1)
        key = ((mapped[:, 0] * 52 + mapped[:, 1]) * 52 + mapped[:, 2]) * 52 + mapped[:, 3]
        np.minimum(best, key, out=best)
    _, inverse = np.unique(best, return_inverse=True)
    classes = np.empty(len(combos), dtype=np.int64)
    classes[combo_index(combos)] = inverse
    return classes


# -- the equities ---------------------------------------------------------------------------


@nb.njit(cache=True)
def class_equity(
    hero: npt.NDArray[np.int64],
    variant: int,
    deals: int,
    seed: np.uint64,
    card_keys: npt.NDArray[np.int64],
    flush_values: npt.NDArray[np.int32],
    row_offsets: npt.NDArray[np.int32],
    rank_classes: npt.NDArray[np.uint16],
    class_values: npt.NDArray[np.int32],
    pair_class: npt.NDArray[np.int32],
    triple_class: npt.NDArray[np.int32],
    omaha_values: npt.NDArray[np.int32],
) -> float:
    """The equity of the hole cards ``hero`` against one random hand, both to the river, over
    ``deals`` deals drawn from the stream ``seed`` (a tie counts half)."""
    h = hero.shape[0]
    rest = np.empty(52 - h, dtype=np.int64)
    m = 0
    for card in range(52):
        taken = False
        for i in range(h):
            if hero[i] == card:
                taken = True
        if not taken:
            rest[m] = card
            m += 1
    holes = np.empty((2, h), dtype=np.int64)
    for i in range(h):
        holes[0, i] = hero[i]
    board = np.empty(5, dtype=np.int64)
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    points = 0
    for _ in range(deals):
        need = h + 5
        for i in range(need):  # a partial Fisher-Yates shuffle of the cards left
            j = i + int(uniform(state) * (m - i))
            rest[i], rest[j] = rest[j], rest[i]
        for i in range(h):
            holes[1, i] = rest[i]
        for i in range(5):
            board[i] = rest[h + i]
        if variant == HOLDEM:
            key = board_key(board, 5, card_keys)
            mine = holdem_value(
                holes, 0, board, 5, key, card_keys, flush_values, row_offsets, rank_classes,
                class_values,
            )  # fmt: skip
            theirs = holdem_value(
                holes, 1, board, 5, key, card_keys, flush_values, row_offsets, rank_classes,
                class_values,
            )  # fmt: skip
        else:
            mine = omaha_value(
                holes, 0, board, 5, pair_class, triple_class, omaha_values, flush_values
            )
            theirs = omaha_value(
                holes, 1, board, 5, pair_class, triple_class, omaha_values, flush_values
            )
        points += 2 if mine > theirs else (1 if mine == theirs else 0)
    return points / (2.0 * deals)


def class_seed(index: int) -> np.uint64:
    return np.uint64((SEED_KEY ^ (index * _GOLDEN)) & 0xFFFFFFFFFFFFFFFF)


def representative(classes: npt.NDArray[np.int64], variant: int) -> npt.NDArray[np.int64]:
    """One hand of each class (its first by colex index), as card codes."""
    h = HOLE_CARDS[variant]
    combos = np.array(list(itertools.combinations(range(52), h)), dtype=np.int64)
    order = combo_index(combos)
    by_index = np.empty_like(combos)
    by_index[order] = combos
    first = np.full(int(classes.max()) + 1, -1, dtype=np.int64)
    for index in range(len(classes) - 1, -1, -1):
        first[classes[index]] = index
    return by_index[first]


def equities(variant: int, class_indices: Sequence[int] | None = None) -> npt.NDArray[np.float64]:
    """The equities of the classes asked (every class by default), as :func:`build` makes
    them."""
    classes = holdem_classes()[0] if variant == HOLDEM else omaha_classes()
    hands = representative(classes, variant)
    deals = HOLDEM_DEALS if variant == HOLDEM else OMAHA_DEALS
    wanted = range(len(hands)) if class_indices is None else [int(c) for c in class_indices]
    return np.array([_equity(hands[c], variant, deals, class_seed(c)) for c in wanted])


def _equity(hero: npt.NDArray[np.int64], variant: int, deals: int, seed: np.uint64) -> float:
    o = OMAHA_TABLES
    t = TABLES
    equity = class_equity(
        hero, variant, deals, seed, t.card_keys, t.flush_values, t.row_offsets,
        *rank_classes(), o.pair_class, o.triple_class, o.values,
    )  # fmt: skip
    return float(equity)


def build(path: Path = TABLE_FILE) -> None:
    """Estimate every class's equity and write the table file."""
    np.savez_compressed(
        path,
        holdem_equity=equities(HOLDEM),
        omaha_class=omaha_classes().astype(np.uint16),
        omaha_equity=equities(OMAHA),
    )


# -- the ranking a seat plays by -------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Ranking:
    """Every starting hand's place in the order, by colex index: the share of all hands
    ranked strictly above its class (``above``) and its class's share (``width``)."""

    above: npt.NDArray[np.float64]
    width: npt.NDArray[np.float64]
    equity: npt.NDArray[np.float64]  # by hand
    names: tuple[str, ...]  # hold'em class names ('AKs'); empty for Omaha
    classes: npt.NDArray[np.int64]  # by hand
    # The same by class, for the kernel: a hand's class (two bytes a hand, so that Omaha's
    # 270,725 hands stay in cache), then its class's place, the share above it and its width
    # side by side (``class_place[class]``: one memory line read for both).
    hand_class: npt.NDArray[np.uint16]
    class_place: npt.NDArray[np.float64]

    def share_at_least(self, cards: npt.ArrayLike) -> float:
        """The share of starting hands ranked at or above the hand ``cards``."""
        index = int(combo_index(cards)[0])
        return float(self.above[index] + self.width[index])


def _ranking(classes: npt.NDArray[np.int64], equity: npt.NDArray[np.float64]) -> Ranking:
    hands = len(classes)
    sizes = np.bincount(classes, minlength=len(equity)).astype(np.float64)
    order = np.lexsort((np.arange(len(equity)), -equity))  # best first; ties by class
    start = np.empty(len(equity), dtype=np.float64)
    start[order] = np.concatenate(([0.0], np.cumsum(sizes[order])[:-1]))
    class_above = start / hands
    class_width = sizes / hands
    above = class_above[classes]
    width = class_width[classes]
    hand_class = classes.astype(np.uint16)
    class_place = np.ascontiguousarray(np.stack((class_above, class_width), axis=1))
    for array in (above, width, class_place, hand_class):
        array.setflags(write=False)
    return Ranking(above, width, equity[classes], (), classes, hand_class, class_place)


@cache
def ranking(variant: int) -> Ranking:
    """The shipped ranking of hold'em (``HOLDEM``) or Omaha (``OMAHA``) starting hands."""
    with np.load(TABLE_FILE) as table:
        if variant == HOLDEM:
            classes, names = holdem_classes()
            found = _ranking(classes, table["holdem_equity"])
            return replace(found, names=tuple(names))
        return _ranking(table["omaha_class"].astype(np.int64), table["omaha_equity"])


@nb.njit(cache=True, inline="always")
def plays(above: float, width: float, u: float, vpip: float) -> bool:
    """Whether a seat playing the best ``vpip`` of its starting hands plays one ranked at
    ``above`` .. ``above + width``, with its uniform ``u``: its place within its class is
    ``above + width * u``, so that exactly the share ``vpip`` of hands is played."""
    return above + width * u < vpip


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else TABLE_FILE)
