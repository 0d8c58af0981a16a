"""Ranking systems as data, and one compiled routine that values a hand under any of them.

A :class:`RankingSystem` says which ranks the deck holds (its straights run over that
sequence), whether the ace may also play below the lowest rank, the order of the categories
(a stripped deck lets a flush beat a full house; Canadian stud adds the four-card straight
and flush), and which cards are wild: jokers fully wild or as the bug, whole ranks, single
cards, the double-ace flush rule, and wild cards made by adding two number cards (Number
Nine, :mod:`simulations.evaluators.addition`).

A value packs the category's place in the system's order above the deciding ranks, exactly
as high-hand values do (``place << 20 | r1 << 16 | ... | r5``), so for a system with the
standard order and deck the value *is* the high-hand value.

The best hand is found category by category: for each category the system knows, the best
hand of that category the cards can make (with the wild cards placed to suit it); the
largest of these values wins.  A category's candidate always describes cards the player
really holds, so it never overstates; the best hand's own category computes it exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum
from functools import cached_property

import numpy as np
import numpy.typing as npt

from simulations.cards import (
    FIRST_JOKER,
    MAX_JOKERS,
    Card,
    Rank,
    format_card,
    is_joker_code,
    parse_cards,
)
from simulations.decks import Deck
from simulations.evaluators.addition import HIGHEST_TOTAL, LOWEST_TOTAL, made_wild_hands
from simulations.evaluators.hand_input import first_invalid_row
from simulations.evaluators.hand_value import (
    CATEGORY_SHIFT,
    HandValue,
    describe_value,
)
from simulations.evaluators.ranking import Ranking
from simulations.evaluators.system_kernel import system_values

HAND_SIZE = 5
MAX_COLUMNS = 64  # column indices travel as int8
SLOT_MASK = (1 << CATEGORY_SHIFT) - 1
_ACE = int(Rank.ACE)


class Shape(IntEnum):
    """Hand categories of every system; 0-9 are the standard ones (``Category``)."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9
    FOUR_STRAIGHT = 10  # Canadian stud: four cards in sequence
    FOUR_FLUSH = 11  # Canadian stud: four cards of one suit

    @property
    def label(self) -> str:
        if self is Shape.FOUR_STRAIGHT:
            return "four-card straight"
        if self is Shape.FOUR_FLUSH:
            return "four-card flush"
        return self.name.lower().replace("_", " ")


S = Shape
SHAPES_BY_LABEL = {shape.label: shape for shape in Shape}  # 'four-card flush' -> FOUR_FLUSH
STANDARD_ORDER = (
    S.HIGH_CARD,
    S.ONE_PAIR,
    S.TWO_PAIR,
    S.THREE_OF_A_KIND,
    S.STRAIGHT,
    S.FLUSH,
    S.FULL_HOUSE,
    S.FOUR_OF_A_KIND,
    S.STRAIGHT_FLUSH,
    S.FIVE_OF_A_KIND,
)
_REQUIRED = frozenset(STANDARD_ORDER)
_FOUR_CARD = frozenset({S.FOUR_STRAIGHT, S.FOUR_FLUSH})


class JokerRole(Enum):
    """What a joker does in a system: not in the deck, fully wild, or the bug."""

    NONE = "none"
    WILD = "wild"
    # The bug: an ace, or any card that completes a straight, flush or straight flush.
    BUG = "bug"


@dataclass(frozen=True, eq=False)
class SystemTables:
    """The arrays the compiled routine takes for one system (read-only)."""

    straights: npt.NDArray[np.int64]  # (k, 2): rank mask, top rank; best first
    four_straights: npt.NDArray[np.int64]  # the same for four-card runs
    strength: npt.NDArray[np.int64]  # place of each Shape in the order, -1 when absent
    deck_mask: int  # ranks the deck holds (wild cards take one of these)
    wild_mask: int  # card codes (0..55) that are fully wild
    bug_mask: int  # card codes that play as the bug
    allowed_mask: int  # card codes the deck holds
    double_ace: bool


@dataclass(frozen=True)
class RankingSystem:
    """A high-hand ranking system: deck ranks, straights, category order and wild cards."""

    name: str
    ranks: tuple[Rank, ...] = tuple(Rank)
    ace_low: bool = True  # A may play below the lowest rank (A-2-3-4-5 in a full deck)
    order: tuple[Shape, ...] = STANDARD_ORDER  # weakest first
    jokers: JokerRole = JokerRole.NONE
    joker_count: int = 0  # jokers in the deck
    wild_ranks: frozenset[Rank] = field(default_factory=frozenset)
    wild_cards: frozenset[Card] = field(default_factory=frozenset)
    double_ace_flush: bool = False
    # Number Nine: any two number cards (aces 1) adding up to this may make one wild card
    # (0: none); the hand's value is the best of every way of making them.
    adds_to: int = 0

    def __post_init__(self) -> None:
        ranks = [int(r) for r in self.ranks]
        if ranks != sorted(set(ranks)) or len(ranks) < HAND_SIZE:
            raise ValueError(
                f"{self.name}: ranks must be at least five distinct ranks, lowest first"
            )
        if len(set(self.order)) != len(self.order) or not set(self.order) >= _REQUIRED:
            raise ValueError(f"{self.name}: the order must list every standard category once")
        if self.order[0] is not S.HIGH_CARD:
            # The evaluator's high-card candidate is the top five cards, pairs and all: it
            # stands for a real hand only where every other category beats it.
            raise ValueError(f"{self.name}: high card is the weakest category of any order")
        if (self.jokers is JokerRole.NONE) != (self.joker_count == 0):
            raise ValueError(f"{self.name}: a deck has jokers exactly when they have a role")
        if not 0 <= self.joker_count <= MAX_JOKERS:
            raise ValueError(f"{self.name}: at most {MAX_JOKERS} jokers")
        if not {int(r) for r in self.wild_ranks} <= set(ranks):
            raise ValueError(f"{self.name}: a wild rank is not in the deck")
        for card in self.wild_cards:
            if is_joker_code(card) or not 0 <= card < FIRST_JOKER or card >> 2 not in ranks:
                raise ValueError(f"{self.name}: wild card {card!r} is not a card of the deck")
        if self.adds_to and not LOWEST_TOTAL <= self.adds_to <= HIGHEST_TOTAL:
            raise ValueError(
                f"{self.name}: two number cards add up to {LOWEST_TOTAL}..{HIGHEST_TOTAL}, "
                f"not {self.adds_to}"
            )
        if self.adds_to and self.jokers is not JokerRole.NONE:
            raise ValueError(
                f"{self.name}: wild cards made by addition are not defined with jokers"
            )
        has_wild = (
            self.jokers is not JokerRole.NONE or self.wild_ranks or self.wild_cards or self.adds_to
        )
        if has_wild and _FOUR_CARD & set(self.order):
            raise ValueError(f"{self.name}: four-card categories are not defined with wild cards")
        if (self.jokers is JokerRole.BUG or self.double_ace_flush) and _ACE not in ranks:
            raise ValueError(f"{self.name}: the bug and the double-ace flush need aces in the deck")

    @property
    def standard(self) -> bool:
        """Whether values are high-hand values: the standard order, and exactly the standard
        straights that the deck's ranks can make."""
        if self.order != STANDARD_ORDER:
            return False
        ranks = [int(r) for r in self.ranks]
        full = {int(m) for m in _runs(list(range(13)), 5, ace_low=True)[:, 0]}
        deck = sum(1 << r for r in ranks)
        possible = {m for m in full if m & deck == m}
        return {int(m) for m in _runs(ranks, 5, self.ace_low)[:, 0]} == possible

    @property
    def deck(self) -> Deck:
        return Deck.stripped(ranks=self.ranks, jokers=self.joker_count)

    @cached_property
    def tables(self) -> SystemTables:
        ranks = [int(r) for r in self.ranks]
        strength = np.full(len(Shape), -1, dtype=np.int64)
        for place, shape in enumerate(self.order):
            strength[shape] = place
        wild = 0
        for card in self.wild_cards:
            wild |= 1 << int(card)
        for wild_rank in self.wild_ranks:
            wild |= 0b1111 << (4 * int(wild_rank))
        jokers = ((1 << self.joker_count) - 1) << FIRST_JOKER
        allowed = jokers
        for rank in ranks:
            allowed |= 0b1111 << (4 * rank)
        arrays = (_runs(ranks, 5, self.ace_low), _runs(ranks, 4, self.ace_low), strength)
        for array in arrays:
            array.setflags(write=False)
        return SystemTables(
            *arrays,
            deck_mask=sum(1 << r for r in ranks),
            wild_mask=wild | (jokers if self.jokers is JokerRole.WILD else 0),
            bug_mask=jokers if self.jokers is JokerRole.BUG else 0,
            allowed_mask=allowed,
            double_ace=self.double_ace_flush,
        )

    @cached_property
    def made_wild(self) -> RankingSystem:
        """The system a hand with wild cards made by addition is valued under: its made wild
        cards are placeholder jokers, fully wild (:mod:`simulations.evaluators.addition`)."""
        return replace(self, adds_to=0, jokers=JokerRole.WILD, joker_count=MAX_JOKERS)

    def shape_of(self, value: int) -> Shape:
        return self.order[value >> CATEGORY_SHIFT]

    def describe(self, value: int) -> str:
        """A readable name: 'Queen-high straight', 'Five Aces', 'King-high four-card flush'."""
        shape = self.shape_of(value)
        slots = value & SLOT_MASK
        top = Rank(slots >> 16)
        if shape is Shape.FOUR_STRAIGHT:
            return f"{top.noun}-high four-card straight"
        if shape is Shape.FOUR_FLUSH:
            return f"{top.noun}-high four-card flush"
        return describe_value(int(shape) << CATEGORY_SHIFT | slots)

    def ranking(self, value: int) -> Ranking:
        return Ranking(self.name, value, self.shape_of(value).label, self.describe(value))


def _runs(ranks: list[int], length: int, ace_low: bool) -> npt.NDArray[np.int64]:
    """Runs of ``length`` consecutive deck ranks as (mask, top), highest top first."""
    runs = [
        (sum(1 << r for r in ranks[i : i + length]), ranks[i + length - 1])
        for i in range(len(ranks) - length + 1)
    ]
    if ace_low and ranks[-1] == _ACE:
        low = ranks[: length - 1]
        wrapped = sum(1 << r for r in low) | 1 << _ACE
        if all(mask != wrapped for mask, _ in runs):  # a deck of five ranks has one run only
            runs.append((wrapped, low[-1]))
    runs.sort(key=lambda run: -run[1])
    return np.array(runs, dtype=np.int64).reshape(-1, 2)


# --- Python entry points --------------------------------------------------------------------------


def check_system_hands(system: RankingSystem, hands: npt.NDArray[np.int8]) -> None:
    """Raise ``ValueError`` naming the first bad row: a repeat, or a card the deck lacks."""
    row = first_invalid_row(hands, FIRST_JOKER + MAX_JOKERS)
    if row >= 0:
        seen: set[int] = set()
        for code in hands[row].tolist():
            if not 0 <= code < FIRST_JOKER + MAX_JOKERS:
                raise ValueError(f"hand {row} holds card code {code}, which is not a card")
            if code in seen:
                raise ValueError(f"hand {row} holds {format_card(code)} twice")
            seen.add(code)
    allowed = system.tables.allowed_mask
    ok = (np.right_shift(allowed, hands.astype(np.int64)) & 1).astype(bool)
    if not ok.all():
        row, col = (int(x) for x in np.argwhere(~ok)[0])
        code = int(hands[row, col])
        what = "a joker" if is_joker_code(code) else format_card(code)
        raise ValueError(f"hand {row} holds {what}, which the {system.name} deck does not have")


def as_hand_array(hands: npt.ArrayLike) -> npt.NDArray[np.int8]:
    array = np.asarray(hands)
    if array.ndim != 2:
        raise ValueError(f"hands must be a 2-D array (hands x cards), got {array.ndim} dimensions")
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"hands must hold integer card codes, got {array.dtype}")
    if array.size and (array.min() < 0 or array.max() >= FIRST_JOKER + MAX_JOKERS):
        raise ValueError("card codes must lie in 0..55")
    return np.require(array, dtype=np.int8, requirements=["C", "W"])


def evaluate_system_batch(
    system: RankingSystem,
    hands: npt.ArrayLike,
    combos: npt.ArrayLike | None = None,
    *,
    check: bool = True,
) -> npt.NDArray[np.int32]:
    """Values under ``system`` of an ``(n, k)`` array of card codes.

    Without ``combos`` each row plays its best five of all k cards (k >= 5); otherwise the
    best over the given 5-card column subsets (see ``simulations.evaluators.selection``).
    """
    array = as_hand_array(hands)
    if array.shape[1] > MAX_COLUMNS:
        raise ValueError(f"a hand of {array.shape[1]} cards is more than any game deals")
    if combos is None:
        if array.shape[1] < HAND_SIZE:
            raise ValueError(f"{system.name} hands need at least five cards, got {array.shape[1]}")
        subsets = np.arange(array.shape[1], dtype=np.int8).reshape(1, -1)
    else:
        subsets = np.array(combos, dtype=np.int8)
        if subsets.ndim != 2 or subsets.shape[1] != HAND_SIZE or not subsets.size:
            raise ValueError("combos must be a non-empty (m, 5) array of column indices")
        if subsets.min() < 0 or subsets.max() >= array.shape[1]:
            raise ValueError(f"combos name columns outside 0..{array.shape[1] - 1}")
    if check:
        check_system_hands(system, array)
    if system.adds_to:
        if combos is not None:
            raise ValueError(
                f"{system.name}: wild cards made by addition play any five of the cards, "
                "not given combos"
            )
        return _made_wild_values(system, array)
    # One array type per argument, so the kernel is compiled once.
    subsets.setflags(write=False)
    t = system.tables
    out = np.empty(array.shape[0], dtype=np.int32)
    system_values(
        array,
        subsets,
        t.straights,
        t.four_straights,
        t.strength,
        t.deck_mask,
        t.wild_mask,
        t.bug_mask,
        t.double_ace,
        out,
    )
    return out


def _made_wild_values(system: RankingSystem, array: npt.NDArray[np.int8]) -> npt.NDArray[np.int32]:
    """Each row's best value over every way of making wild cards by addition
    (:func:`~simulations.evaluators.addition.made_wild_hands`), the made ones fully wild."""
    rows: dict[int, list[tuple[int, ...]]] = {}  # hands of each width
    owners: dict[int, list[int]] = {}  # ... and the row each came from
    for index, row in enumerate(array.tolist()):
        for hand in made_wild_hands(row, system.adds_to):
            rows.setdefault(len(hand), []).append(hand)
            owners.setdefault(len(hand), []).append(index)
    out = np.full(array.shape[0], -1, dtype=np.int32)
    for width, hands in rows.items():
        values = evaluate_system_batch(
            system.made_wild, np.array(hands, dtype=np.int8).reshape(-1, width), check=False
        )
        np.maximum.at(out, np.array(owners[width], dtype=np.intp), values)
    return out


def parse_hand(cards: str | Sequence[int]) -> list[int]:
    """Card codes from text or a sequence; anything but an int card code is an error."""
    if isinstance(cards, str):
        return [int(c) for c in parse_cards(cards)]
    codes = []
    for code in cards:
        if isinstance(code, bool) or not isinstance(code, int | np.integer):
            raise ValueError(f"{code!r} is not a card code")
        codes.append(int(code))
    return codes


def system_value(system: RankingSystem, cards: str | Sequence[int]) -> int:
    """The value under ``system`` of the best five of ``cards`` (five or more)."""
    codes = parse_hand(cards)
    if len(codes) < HAND_SIZE:
        raise ValueError(f"a {system.name} hand needs at least five cards, got {len(codes)}")
    for code in codes:
        if not 0 <= code < FIRST_JOKER + MAX_JOKERS:
            raise ValueError(f"{code!r} is not a card code (0..55)")
    return int(evaluate_system_batch(system, np.array([codes], dtype=np.int8))[0])


def evaluate_system(system: RankingSystem, cards: str | Sequence[int]) -> Ranking:
    """The best five of ``cards`` ranked under ``system``, with its category and name."""
    return system.ranking(system_value(system, cards))


def evaluate_system_high(system: RankingSystem, cards: str | Sequence[int]) -> HandValue:
    """As :func:`evaluate_system`, as a high-hand value, for systems in the standard order."""
    if not system.standard:
        raise ValueError(f"{system.name} does not rank hands in the standard high order")
    return HandValue(system_value(system, cards))


# Canadian stud (Sökö): five-card stud with two more hands.  Rules 000_1a86611de8d3f5f7.txt,
# 'Miscellaneous': "a four-card straight beats one pair, a four-card flush beats a four-card
# straight, and two pair beats both of the above".
CANADIAN_STUD = RankingSystem(
    name="Canadian stud",
    order=(
        S.HIGH_CARD,
        S.ONE_PAIR,
        S.FOUR_STRAIGHT,
        S.FOUR_FLUSH,
        S.TWO_PAIR,
        S.THREE_OF_A_KIND,
        S.STRAIGHT,
        S.FLUSH,
        S.FULL_HOUSE,
        S.FOUR_OF_A_KIND,
        S.STRAIGHT_FLUSH,
        S.FIVE_OF_A_KIND,
    ),
)
STANDARD = RankingSystem(name="high")
