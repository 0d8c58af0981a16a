"""The bad-beat jackpot's qualifier: which shown hands may be its losing or its winning hand.

Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot': 'a prize that is paid when a sufficiently
strong hand is shown down and loses to an even stronger hand held by another player ... the
losing hand may be required to be four-of-a-kind or better.  There may be additional
requirements as well.  For example, in Texas hold 'em there is usually a requirement that
both hole cards play in both the losing and winning hands.  These rules vary from one
cardroom to the next.'  The settings (:class:`BadBeatRules`) cover the ways cardrooms write
them:

* a **band** of losing hands and one of winning hands (:class:`HandBand`, tested by
  :func:`in_band`): at least a floor, at most a ceiling, or exactly a category or a hand;
* **hole cards play** — 2, 1 or 0: some five-card hand worth the player's best and using at
  least that many of his hole cards; in Omaha exactly two of the four always play
  (Rules 002_376df91f076a6501.txt, 'Omaha hold 'em': 'exactly three of the five cards on the
  board, plus exactly two of his own cards');
* **four of a kind needs a pocket pair** — both hole cards of that hand of the quads' rank
  (GGPoker's PLO rules: 'Pocket pairs are required for the winner or loser to make a four of
  a kind');
* **no full house on board trips** — a hole card of that hand of the three of a kind's rank.

:func:`qualifies` is the one test of the last three, compiled and called by the bad-beat
kernel (:mod:`simulations.models.bad_beat`), the table kernel's verdict
(:mod:`simulations.models.table_jackpot`), the table's reference player and the scenario
judge (:mod:`simulations.verify.jackpot`); it runs as plain Python too
(``qualifies.py_func``).  It values five-card hands with
:func:`simulations.evaluators.high.high_value`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.evaluators.floors import describe_floor, hand_floor
from simulations.evaluators.hand_value import Category
from simulations.evaluators.high import card_bit, high_value

QUADS = int(Category.FOUR_OF_A_KIND)
FULL_HOUSE = int(Category.FULL_HOUSE)
NO_CEILING = (1 << 31) - 1  # above every packed hand value
NO_FLOOR = -1  # below every packed hand value
_RANK_BITS = (1 << 20) - 1  # a packed value's five rank slots

# The qualifier as one int64 array, as the kernels take it (:meth:`BadBeatRules.qualifier`).
Q_LOSING_FLOOR = 0
Q_LOSING_CEILING = 1  # NO_CEILING: none
Q_WINNING_FLOOR = 2  # NO_FLOOR: none
Q_WINNING_CEILING = 3
Q_HOLE_CARDS = 4  # at least this many hole cards play (0, 1 or 2; Omaha: 2, exactly)
Q_QUADS_POCKET_PAIR = 5
Q_BOARD_TRIPS_FULL_HOUSE = 6
QUALIFIER = 7


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


@dataclass(frozen=True)
class BadBeatRules:
    """The jackpot's qualifiers.  Floors and ceilings are packed high-hand values (see
    ``hand_floor`` and :func:`hand_ceiling`): a losing hand qualifies from
    ``min_losing_hand`` up to ``max_losing_hand``, a winning hand from ``min_winning_hand``
    up to ``max_winning_hand`` (None: no such end)."""

    min_losing_hand: str = "AAATT"
    min_winning_hand: str | None = None
    hole_cards_play: int = 2
    quads_need_pocket_pair: bool = False
    board_trips_full_house: bool = True
    max_losing_hand: str | None = None
    max_winning_hand: str | None = None

    def __post_init__(self) -> None:
        # Each band checks its ends: a hand it reads, a floor not above the ceiling.
        self.losing_band, self.winning_band  # noqa: B018
        if self.hole_cards_play not in (0, 1, 2):
            raise ValueError(f"hole_cards_play must be 0, 1 or 2, got {self.hole_cards_play}")

    @property
    def losing_band(self) -> HandBand:
        return HandBand(self.min_losing_hand, self.max_losing_hand)

    @property
    def winning_band(self) -> HandBand:
        return HandBand(self.min_winning_hand, self.max_winning_hand)

    @property
    def losing_floor(self) -> int:
        return hand_floor(self.min_losing_hand)

    @property
    def losing_ceiling(self) -> int:
        return self.losing_band.ceiling

    @property
    def winning_floor(self) -> int:
        return self.winning_band.floor

    @property
    def winning_ceiling(self) -> int:
        return self.winning_band.ceiling

    def qualifier(self, omaha: bool = False) -> npt.NDArray[np.int64]:
        """The settings as the compiled code takes them (the ``Q_`` indices); in Omaha
        exactly two hole cards play, whatever ``hole_cards_play`` says."""
        out = np.zeros(QUALIFIER, dtype=np.int64)
        out[Q_LOSING_FLOOR] = self.losing_floor
        out[Q_LOSING_CEILING] = self.losing_ceiling
        out[Q_WINNING_FLOOR] = self.winning_floor
        out[Q_WINNING_CEILING] = self.winning_ceiling
        out[Q_HOLE_CARDS] = 2 if omaha else self.hole_cards_play
        out[Q_QUADS_POCKET_PAIR] = self.quads_need_pocket_pair
        out[Q_BOARD_TRIPS_FULL_HOUSE] = self.board_trips_full_house
        return out

    def describe(self) -> str:
        parts = [f"losing hand {self.losing_band.describe()}"]
        if self.min_winning_hand is not None or self.max_winning_hand is not None:
            parts.append(f"winning hand {self.winning_band.describe()}")
        parts.append(
            {2: "both hole cards play", 1: "at least one hole card plays", 0: "board may play"}[
                self.hole_cards_play
            ]
        )
        if self.quads_need_pocket_pair:
            parts.append("four of a kind needs a pocket pair")
        if not self.board_trips_full_house:
            parts.append("no full house with three of a kind on the board")
        return "; ".join(parts)


@nb.njit(cache=True, inline="always")
def _five(
    a: int,
    b: int,
    c: int,
    d: int,
    e: int,
    card_keys: npt.NDArray[np.int64],
    flush_values: npt.NDArray[np.int32],
    row_offsets: npt.NDArray[np.int32],
    rank_values: npt.NDArray[np.int32],
    rank_classes: npt.NDArray[np.uint16] | None,
) -> int:
    key = card_keys[a] + card_keys[b] + card_keys[c] + card_keys[d] + card_keys[e]
    suited = card_bit(a) | card_bit(b) | card_bit(c) | card_bit(d) | card_bit(e)
    return int(high_value(key, suited, flush_values, row_offsets, rank_values, rank_classes))


@nb.njit(cache=True)
def qualifies(
    hole: npt.NDArray[np.integer],
    board: npt.NDArray[np.integer],
    value: int,
    qualifier: npt.NDArray[np.int64],
    card_keys: npt.NDArray[np.int64],
    flush_values: npt.NDArray[np.int32],
    row_offsets: npt.NDArray[np.int32],
    rank_values: npt.NDArray[np.int32],
    rank_classes: npt.NDArray[np.uint16] | None = None,
) -> bool:
    """Whether a player whose best hand is worth ``value`` (his hole cards ``hole``, two or
        four, with the five cards ``board``) meets the qualifier's card conditions: some five of
        his cards worth ``value`` use at least ``qualifier[Q_HOLE_CARDS]`` hole cards (never
        more than two), and those hole cards are a pair of the quads' rank where four of a kind
        needs a pocket pair, and hold the three of a kind's rank where a full house may not
        have its three of a kind on the board.  The bands are :func:`in_band`'s.  The tables are
    :data:`~simulations.evaluators.high.TABLES`' (the rank table read as
    :func:`~simulations.evaluators.high.high_value` reads it, through ``rank_classes`` if
    given)."""
    need = qualifier[Q_HOLE_CARDS]
    category = value >> 20
    top = (value >> 16) & 15  # the rank of the quads' or the full house's three cards
    pair = qualifier[Q_QUADS_POCKET_PAIR] != 0 and category == QUADS
    trips = qualifier[Q_BOARD_TRIPS_FULL_HOUSE] == 0 and category == FULL_HOUSE
    n = hole.shape[0]
    held = 0
    for i in range(n):
        held += hole[i] >> 2 == top
    if (pair and held < 2) or (trips and held < 1):
        return False
    if need == 0 and n == 2:
        # Any five cards may play, and with two hole cards the pair or the hole card of the
        # rank found above is in every five worth ``value``: nothing more to check.
        return True
    # Two hole cards and three of the board.
    for i in range(n - 1):
        x = hole[i]
        for j in range(i + 1, n):
            y = hole[j]
            if pair and not (x >> 2 == top and y >> 2 == top):
                continue
            if trips and not (x >> 2 == top or y >> 2 == top):
                continue
            for a in range(3):
                for b in range(a + 1, 4):
                    for c in range(b + 1, 5):
                        v = _five(
                            x, y, board[a], board[b], board[c], card_keys, flush_values,
                            row_offsets, rank_values, rank_classes,
                        )  # fmt: skip
                        if v == value:
                            return True
    if need == 2 or pair:  # a single hole card is no pocket pair
        return False
    # One hole card and four of the board: one board card left out.
    for i in range(n):
        h = hole[i]
        if trips and h >> 2 != top:
            continue
        for skip in range(5):
            four = np.empty(4, dtype=np.int64)
            m = 0
            for x in range(5):
                if x != skip:
                    four[m] = board[x]
                    m += 1
            v = _five(
                h, four[0], four[1], four[2], four[3], card_keys, flush_values, row_offsets,
                rank_values, rank_classes,
            )  # fmt: skip
            if v == value:
                return True
    if need == 1 or trips:  # the board alone holds no hole card
        return False
    v = _five(
        board[0], board[1], board[2], board[3], board[4], card_keys, flush_values, row_offsets,
        rank_values, rank_classes,
    )  # fmt: skip
    return bool(v == value)
