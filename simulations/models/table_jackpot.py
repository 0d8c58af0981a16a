"""The bad-beat verdict of one hand for the economics kernel, hold'em and Omaha, at every
qualifier of a step-down schedule at once.

Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot': 'a prize that is paid when a sufficiently
strong hand is shown down and loses to an even stronger hand held by another player ... in
Texas hold 'em there is usually a requirement that both hole cards play in both the losing
and winning hands'.  The qualifiers are :class:`~simulations.models.bad_beat.BadBeatRules`'
(the losing floor, the winning floor, the hole cards that must play, four of a kind with a
pocket pair, a full house whose three of a kind lies on the board).  In Omaha exactly two
hole cards always play; 'Pocket pairs are required for the winner or loser to make a four of
a kind' (GGPoker's Omaha rules) reads as both hole cards of the hand's two being of the
quads' rank.

A qualifier is a band of hands (:func:`in_band`, the one test every path uses): a losing
hand qualifies from the level's losing floor up to the qualifier's ceiling (``at_most``; a
ceiling of its own for no level), a winning hand within the winning band.  Levels differ
only in their floors, so a hit at a level is a hit at every looser one, and a qualifying
losing hand shown at a level is one at every looser one: :func:`verdict` returns the
strictest level hit, gives the strictest level at which one qualifying losing hand was shown
at all, and, for every level, the seats of the roles the jackpot pays: the best qualifying
hand of the winning band (the *winning hand*), the best qualifying hand of the losing band
it beat (the *losing hand*), and the next best qualifying losing hand below that (the
*second losing hand*), each a bit mask of seats (ties share).
The reference is :func:`simulations.models.table_reference.reference_verdict`, plain Python
over the scalar evaluators.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.evaluators.floors import describe_floor, hand_floor
from simulations.evaluators.hand_value import Category
from simulations.models.table_eval import two_plus_three

QUADS = int(Category.FOUR_OF_A_KIND)
FULL_HOUSE = int(Category.FULL_HOUSE)
LOSER = 0
WINNER = 1
SECOND = 2
ROLES = 3

# The qualifier settings as one int64 array (indices).
Q_WINNING_FLOOR = 0  # -1: none
Q_HOLE_CARDS = 1  # 0, 1 or 2 (hold'em)
Q_QUADS_POCKET_PAIR = 2
Q_BOARD_TRIPS_FULL_HOUSE = 3
Q_OMAHA = 4
Q_LOSING_CEILING = 5  # NO_CEILING: none
Q_WINNING_CEILING = 6
QUALIFIER = 7
NO_CEILING = (1 << 31) - 1  # above every packed hand value
NO_FLOOR = -1  # below every packed hand value
_RANK_BITS = (1 << 20) - 1  # a packed value's five rank slots


@nb.njit(cache=True, inline="always")
def in_band(value: int, floor: int, ceiling: int) -> bool:
    """Whether a hand worth ``value`` lies in a qualifier's band: at least its floor and at
    most its ceiling (the packed values of :mod:`simulations.evaluators.floors`).  The one
    test of a band: the kernels and the reference paths all call it."""
    return floor <= value <= ceiling


def hand_ceiling(text: str) -> int:
    """The highest high-hand value matching ``text`` (:func:`hand_floor` gives the lowest):
    a category's best hand, a named hand itself, the ranks named with the best kickers
    ('8888' is four eights with any kicker).  Values between the floor and the ceiling that
    no hand has are harmless: a band is compared with real hands' values only."""
    floor = hand_floor(text)
    if describe_floor(text).startswith("any "):  # a category: every hand of it
        return floor | _RANK_BITS
    words = " ".join(text.lower().replace("-", " ").split())
    if words == "royal flush":
        return floor
    ranks = text.strip()
    if words.endswith(" flush"):
        ranks = ranks[: -len("flush")]
    named = len(set(ranks.upper().replace("10", "T").replace(" ", "")))
    if words.endswith(" flush") or named >= 5:  # five ranks: one hand
        return floor
    # The named ranks fill the value's first slots; the kickers left free may be anything.
    return floor | ((1 << (4 * (5 - named))) - 1)


@dataclass(frozen=True)
class HandBand:
    """A qualifier as a band of hands, each end written as :func:`hand_floor` reads it
    ('AAATT', '8888', 'quads'): at least ``at_least`` (None: any hand) and at most
    ``at_most`` (None: no ceiling); both the same text: exactly that category or hand."""

    at_least: str | None = None
    at_most: str | None = None

    def __post_init__(self) -> None:
        if self.floor > self.ceiling:
            raise ValueError(
                f"at_least {self.at_least!r} is above at_most {self.at_most!r}: no hand lies "
                "in the band"
            )

    @property
    def floor(self) -> int:
        return NO_FLOOR if self.at_least is None else hand_floor(self.at_least)

    @property
    def ceiling(self) -> int:
        return NO_CEILING if self.at_most is None else hand_ceiling(self.at_most)

    @property
    def exact(self) -> bool:
        return self.at_least is not None and self.at_least == self.at_most

    def contains(self, value: int) -> bool:
        return bool(in_band(value, self.floor, self.ceiling))

    def describe(self) -> str:
        """The band in words: 'Aces full of Tens or better', 'exactly any four of a kind',
        'any full house to four of a kind'."""
        if self.at_least is None and self.at_most is None:
            return "any hand"
        if self.exact:
            return f"exactly {describe_floor(str(self.at_least)).removeprefix('any ')}"
        if self.at_most is None:
            return f"{describe_floor(str(self.at_least))} or better"
        top = describe_floor(self.at_most).removeprefix("any ")
        if self.at_least is None:
            return f"{top} or worse"
        return f"{describe_floor(self.at_least)} to {top}"


@nb.njit(cache=True)
def _holdem_plays(
    hole: npt.NDArray[np.int64],
    board: npt.NDArray[np.int64],
    need: int,
    value: int,
    quads: bool,
    trips: bool,
    top: int,
    pair_class: npt.NDArray[np.int32],
    triple_class: npt.NDArray[np.int32],
    values: npt.NDArray[np.int32],
    flush_values: npt.NDArray[np.int32],
) -> bool:
    """Whether some five-card hand worth ``value`` uses at least ``need`` of the two hole
    cards (with four of a kind from a pocket pair and a full house's three of a kind holding
    a hole card, where ``quads``/``trips`` ask it)."""
    if quads and not (hole[0] >> 2 == top and hole[1] >> 2 == top):
        return False
    if trips and not (hole[0] >> 2 == top or hole[1] >> 2 == top):
        return False
    if need == 0:
        return True
    for a in range(3):
        for b in range(a + 1, 4):
            for c in range(b + 1, 5):
                v = two_plus_three(
                    hole[0],
                    hole[1],
                    board[a],
                    board[b],
                    board[c],
                    pair_class,
                    triple_class,
                    values,
                    flush_values,
                )
                if v == value:
                    return True
    if need == 2:
        return False
    for h in range(2):  # one hole card and four of the board: one board card left out
        for skip in range(5):
            four = np.empty(4, dtype=np.int64)
            m = 0
            for x in range(5):
                if x != skip:
                    four[m] = board[x]
                    m += 1
            v = two_plus_three(
                hole[h], four[0], four[1], four[2], four[3], pair_class, triple_class, values,
                flush_values,
            )  # fmt: skip
            if v == value:
                return True
    return False


@nb.njit(cache=True)
def _omaha_plays(
    hole: npt.NDArray[np.int64],
    board: npt.NDArray[np.int64],
    value: int,
    quads: bool,
    trips: bool,
    top: int,
    pair_class: npt.NDArray[np.int32],
    triple_class: npt.NDArray[np.int32],
    values: npt.NDArray[np.int32],
    flush_values: npt.NDArray[np.int32],
) -> bool:
    """Whether some two hole cards and three board cards worth ``value`` make it as the
    qualifier asks: the quads' rank in both hole cards, a hole card of the full house's
    three of a kind."""
    for i in range(3):
        for j in range(i + 1, 4):
            x = hole[i]
            y = hole[j]
            if quads and not (x >> 2 == top and y >> 2 == top):
                continue
            if trips and not (x >> 2 == top or y >> 2 == top):
                continue
            for a in range(3):
                for b in range(a + 1, 4):
                    for c in range(b + 1, 5):
                        v = two_plus_three(
                            x, y, board[a], board[b], board[c], pair_class, triple_class,
                            values, flush_values,
                        )  # fmt: skip
                        if v == value:
                            return True
    return False


@nb.njit(cache=True)
def qualifies(
    hole: npt.NDArray[np.int64],
    board: npt.NDArray[np.int64],
    value: int,
    qualifier: npt.NDArray[np.int64],
    pair_class: npt.NDArray[np.int32],
    triple_class: npt.NDArray[np.int32],
    values: npt.NDArray[np.int32],
    flush_values: npt.NDArray[np.int32],
) -> bool:
    """Whether a hand worth ``value`` (its best) meets the qualifiers other than the floors."""
    category = value >> 20
    top = (value >> 16) & 15
    quads = qualifier[Q_QUADS_POCKET_PAIR] == 1 and category == QUADS
    trips = qualifier[Q_BOARD_TRIPS_FULL_HOUSE] == 0 and category == FULL_HOUSE
    if qualifier[Q_OMAHA] == 1:
        return _omaha_plays(
            hole, board, value, quads, trips, top, pair_class, triple_class, values, flush_values
        )
    return _holdem_plays(
        hole,
        board,
        int(qualifier[Q_HOLE_CARDS]),
        value,
        quads,
        trips,
        top,
        pair_class,
        triple_class,
        values,
        flush_values,
    )


@nb.njit(cache=True)
def verdict(
    holes: npt.NDArray[np.int64],
    board: npt.NDArray[np.int64],
    shown: npt.NDArray[np.int64],
    count: int,
    river_values: npt.NDArray[np.int64],
    floors: npt.NDArray[np.int64],
    qualifier: npt.NDArray[np.int64],
    pair_class: npt.NDArray[np.int32],
    triple_class: npt.NDArray[np.int32],
    values: npt.NDArray[np.int32],
    flush_values: npt.NDArray[np.int32],
    roles: npt.NDArray[np.int64],
    qualified: npt.NDArray[np.int64],
) -> int:
    """The strictest level (index into ``floors``, strictest first) at which the hands of the
    ``count`` seats ``shown`` (their best values in ``river_values``, by seat) hit, or -1;
    ``roles[level, role]`` receives each level's seats (0 where it does not hit) and
    ``qualified[0]`` the strictest level at which some shown hand is a qualifying losing
    hand (-1: none)."""
    levels = floors.shape[0]
    for level in range(levels):
        for role in range(ROLES):
            roles[level, role] = 0
    qualified[0] = -1
    loosest = floors[levels - 1]
    # Every hit, and every qualifying losing hand, needs a hand at or above the loosest
    # floor: rare, so look closer only then.
    above = 0
    for i in range(count):
        if river_values[shown[i]] >= loosest:
            above += 1
    if above < 1:
        return -1
    good = np.zeros(count, dtype=np.bool_)
    for i in range(count):
        s = shown[i]
        v = river_values[s]
        if v >= loosest:
            good[i] = qualifies(
                holes[s], board, v, qualifier, pair_class, triple_class, values, flush_values
            )
    winning_floor = qualifier[Q_WINNING_FLOOR]
    winning_ceiling = qualifier[Q_WINNING_CEILING]
    ceiling = qualifier[Q_LOSING_CEILING]
    strictest = -1
    for level in range(levels - 1, -1, -1):
        floor = floors[level]
        for i in range(count):
            if good[i] and in_band(river_values[shown[i]], floor, ceiling):
                qualified[0] = level
        if above < 2:
            continue
        best = -1
        for i in range(count):
            v = river_values[shown[i]]
            if good[i] and v >= floor and in_band(v, winning_floor, winning_ceiling) and v > best:
                best = v
        if best < 0:
            continue
        losing = -1
        for i in range(count):
            v = river_values[shown[i]]
            if good[i] and in_band(v, floor, ceiling) and v < best and v > losing:
                losing = v
        if losing < 0:
            continue
        second = -1
        for i in range(count):
            v = river_values[shown[i]]
            if good[i] and in_band(v, floor, ceiling) and v < losing and v > second:
                second = v
        for i in range(count):
            s = shown[i]
            v = river_values[s]
            if not good[i] or v < floor:
                continue
            if v == best:
                roles[level, WINNER] |= 1 << s
            elif v == losing:
                roles[level, LOSER] |= 1 << s
            elif v == second:
                roles[level, SECOND] |= 1 << s
        strictest = level
    return strictest
