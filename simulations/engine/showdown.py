"""The showdown as part of a game: one or two halves, each a ranking of the cards a player
may use, the low half with an optional qualifier.

Rules 000_1a86611de8d3f5f7.txt: 'Razz is seven-card stud played with ace-to-five low hand
values' (the lowest hand wins); in eight or better 'the pot is split between the player
with the highest hand and the player with the lowest hand', 'An 8-high hand or lower is
required to win low', 'If there is no qualifying low hand, high hand takes the entire pot',
and 'The showdown is cards speak' — each player's best hand for each half.

Every half values a hand as an integer, larger being better *in that half* (the best low
has the largest low value), so the pots are settled the same way for any game: the best
value among the eligible seats wins a half, ties split.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from simulations.cards import FIRST_JOKER, Rank
from simulations.evaluators.badugi import evaluate_badugi
from simulations.evaluators.hand_value import HandValue
from simulations.evaluators.high import TABLES as HIGH_TABLES
from simulations.evaluators.high import batch_values, evaluate_high
from simulations.evaluators.lowball import (
    NO_LOW,
    Lowball,
    Qualifier,
    evaluate_low,
    evaluate_low_batch,
    low_ranking,
)
from simulations.evaluators.ranking import Ranking
from simulations.evaluators.selection import FIVE_CARDS as _FIVE
from simulations.evaluators.selection import (
    HAND_SIZE,
    Selection,
    best_of,
    evaluate_selection,
    evaluate_selection_batch,
)
from simulations.evaluators.small_hands import evaluate_one_card, evaluate_two_card
from simulations.evaluators.spades import SpadeRule, spade_in_hole
from simulations.evaluators.systems import RankingSystem, evaluate_system
from simulations.evaluators.wild import substitute_low_bugs
from simulations.rules.wild_rules import DealtWild


class HandRanking(StrEnum):
    """How a half of the showdown ranks hands (the evaluators of ``simulations.evaluators``)."""

    HIGH = "high"
    ACE_TO_FIVE_LOW = "ace-to-five low"
    ACE_TO_SIX_LOW = "ace-to-six low"
    DEUCE_TO_SEVEN_LOW = "deuce-to-seven low"
    BADUGI = "badugi"
    # Chicago: 'the player with the highest spade face down (referred to as in the hole)
    # receives half the pot' (Rules 002_376df91f076a6501.txt, 'High Chicago or Low Chicago')
    HIGH_SPADE = "high spade in the hole"
    LOW_SPADE = "low spade in the hole"  # Low Chicago: 'with the A♠ being the lowest'
    # Indian poker: 'simply high card.  Each player is dealt one card' (Rules 000_
    # 1a86611de8d3f5f7.txt, 'Blind man's bluff'); a hand is one card (evaluate_one_card).
    HIGH_CARD = "high card"
    # The Bitch: 'the Queen of Spades is designated as the highest ranking Spade, followed by
    # the Ace, King, Jack, and so on' (Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous')
    QUEEN_SPADE = "high spade in the hole, queen first"
    # Cowpie: 'the highest five-card hand and the highest two-card hand split the pot' (Rules
    # 000_1a86611de8d3f5f7.txt, 'Miscellaneous'); a pair beats a high card, no straights or
    # flushes (evaluate_two_card), the half of a hand split in two (a split phase).
    TWO_CARD = "two-card"

    @property
    def lowball(self) -> Lowball | None:
        return _LOWBALL.get(self)

    @property
    def spade_rule(self) -> SpadeRule | None:
        """The spade in the hole this half pays (None: a hand ranking)."""
        return _SPADES.get(self)

    @property
    def hand_size(self) -> int:
        """The cards of a hand this ranking values (badugi plays the hand whole)."""
        if self is HandRanking.TWO_CARD:
            return 2
        return 1 if self is HandRanking.HIGH_CARD else HAND_SIZE


_SPADES = {
    HandRanking.HIGH_SPADE: SpadeRule.BIG_CHICAGO,
    HandRanking.LOW_SPADE: SpadeRule.LITTLE_CHICAGO,
    HandRanking.QUEEN_SPADE: SpadeRule.THE_BITCH,
}
_LOWBALL = {
    HandRanking.ACE_TO_FIVE_LOW: Lowball.ACE_TO_FIVE,
    HandRanking.ACE_TO_SIX_LOW: Lowball.ACE_TO_SIX,
    HandRanking.DEUCE_TO_SEVEN_LOW: Lowball.DEUCE_TO_SEVEN,
}


@dataclass(frozen=True)
class Half:
    """One half of the showdown: its ranking and, for an ace-to-five low, its qualifier.

    A high half over a stripped deck or with wild cards names its ``system`` (the deck's
    ranks, the order of the categories, what jokers and wild ranks do).  In a low half a
    joker is the bug: the lowest card the hand lacks (California lowball)."""

    ranking: HandRanking = HandRanking.HIGH
    qualifier: Qualifier | None = None
    system: RankingSystem | None = None
    # Which of the selection's boards this half plays (double-board hold'em: 'the high hand
    # using each board takes half of the pot'); None: any board the selection allows.
    board: int | None = None
    # The system for a player whose joker lies face up, where that differs (Rules 000_
    # 1a86611de8d3f5f7.txt, 'Mexican stud': 'The joker plays as a bug if it is face up, and
    # fully wild if it is face down').
    joker_face_up: RankingSystem | None = None
    # Ranks the deal makes wild, added to the system's own for each player at the showdown
    # (simulations.rules.wild_rules: Follow the Queen, low hole card, Spit in the ocean).
    dealt_wild: DealtWild | None = None

    def __post_init__(self) -> None:
        if self.joker_face_up is not None and self.system is None:
            raise ValueError("a face-up joker's system goes with a half's ranking system")
        if self.dealt_wild is not None and self.system is None:
            raise ValueError("wild cards decided by the deal need a half's ranking system")
        if self.qualifier is not None and self.ranking is not HandRanking.ACE_TO_FIVE_LOW:
            raise ValueError(f"a qualifier goes with an ace-to-five low, not a {self.ranking} half")
        if self.system is not None and self.ranking is not HandRanking.HIGH:
            raise ValueError(f"a ranking system goes with a high half, not a {self.ranking} half")

    @property
    def is_low(self) -> bool:
        return (
            self.ranking not in (HandRanking.HIGH, HandRanking.HIGH_CARD, HandRanking.TWO_CARD)
            and self.ranking.spade_rule is None
        )

    @property
    def is_spade(self) -> bool:
        return self.ranking.spade_rule is not None

    def rank_spade(self, down: Sequence[int]) -> Ranking | None:
        """The spade among ``down`` (a player's cards in the hole) this half pays; None
        without one (the high hand then takes the whole pot)."""
        rule = self.ranking.spade_rule
        assert rule is not None
        ranked = spade_in_hole([int(c) for c in down if c < FIRST_JOKER], rule)
        return ranked if ranked.value else None

    @property
    def label(self) -> str:
        where = "" if self.board is None else f" on board {self.board + 1}"
        if self.system is not None:
            return f"high ({self.system.name}){where}"
        if self.qualifier is None:
            return f"{self.ranking}{where}"
        return f"{self.ranking}, {self.qualifier.label}{where}"

    def rank(
        self, selection: Selection | None, hole: Sequence[int], board: Sequence[int]
    ) -> Ranking | None:
        """The best hand ``selection`` lets this player make in this half; None when it does
        not qualify."""
        if self.ranking is HandRanking.BADUGI or selection is None:
            return evaluate_badugi([int(c) for c in hole])
        if selection.board_cards == 0 and board:
            # Stud run out of cards: the community card stands in the place of the last card
            # each player would have been dealt, so a cap on his first cards still holds.
            hole, board = [*hole, *board], ()
        if self.ranking is HandRanking.HIGH_CARD:
            return best_of(selection, hole, board, evaluate_one_card)
        if self.ranking is HandRanking.TWO_CARD:  # the best two of the cards
            return max(
                (evaluate_two_card(list(two)) for two in combinations([*hole, *board], 2)),
                key=lambda ranked: ranked.value,
            )
        if self.board is not None:
            return self._rank_on_board(selection, hole, board)
        if self.system is not None:
            return self._rank_system(self.system, selection, hole, board)
        lowball = self.ranking.lowball
        if lowball is None:
            cards = [*hole, *board]
            if selection.plays_any_five and len(cards) <= 7:
                value = evaluate_high(cards)  # one look-up for the best five of up to seven
            else:
                value = evaluate_selection(selection, hole, board)
            return Ranking("high", value.value, value.category.label, value.name)
        best: Ranking | None = None
        row = [*hole, *board]
        jokers = any(c >= FIRST_JOKER for c in row)
        if selection.plays_any_five and len(row) <= 7:
            # Any five play: the best low takes the lowest ranks, so the bug is the lowest
            # rank missing from all the cards.
            cards = list(substitute_low_bugs(row)) if jokers else row
            best = evaluate_low(cards, lowball, qualifier=self.qualifier)
        else:
            for combo in selection.combos:
                five = [row[j] for j in combo]
                if jokers:  # the bug stands for the lowest rank missing from these five
                    five = list(substitute_low_bugs(five))
                ranked = evaluate_low(five, lowball, qualifier=self.qualifier)
                if best is None or ranked.value > best.value:
                    best = ranked
        assert best is not None
        if self.qualifier is not None and best.value == NO_LOW:
            return None
        return best

    def _rank_on_board(
        self, selection: Selection, hole: Sequence[int], board: Sequence[int]
    ) -> Ranking | None:
        """The best hand of this half over its one board, as the selection allows."""
        assert self.board is not None
        row = [int(c) for c in (*hole, *board)]
        combos = selection.board_combos(selection.usable_boards[self.board])
        anywhere = replace(self, board=None)  # this half, ranking five cards as they stand
        best: Ranking | None = None
        for combo in combos:
            ranked = anywhere.rank(_FIVE, [row[j] for j in combo], ())
            if ranked is not None and (best is None or ranked.value > best.value):
                best = ranked
        return best

    def rank_rows(
        self,
        selection: Selection | None,
        rows: npt.NDArray[np.int8],
        board_cards: int,
        *,
        jokers: bool,
    ) -> list[Ranking | None] | None:
        """:meth:`rank` for every row of ``rows`` (each a player's hole cards then the
        ``board_cards`` of the board, as dealt: distinct codes) in one compiled call; the values
        are :meth:`rank`'s and each is named once (the names depend on the value alone).
        None where the batch does not serve and :meth:`rank` must value each player: badugi,
        the one-card high card, one board of several, a ranking system, jokers (``jokers``:
        whether any row holds one), or rows the single-hand evaluators would refuse (they then
        raise as they always have)."""
        if (
            selection is None
            or self.ranking in (HandRanking.BADUGI, HandRanking.HIGH_CARD, HandRanking.TWO_CARD)
            or self.board is not None
            or self.system is not None
            or jokers  # any row holding a joker (known to the caller without a pass here)
        ):
            return None
        width = rows.shape[1]
        any_five = selection.plays_any_five and width <= 7
        if any_five and width < 5:
            return None
        if not any_five and (width != selection.row_width or board_cards != selection.board_cards):
            return None  # evaluate_selection's widths
        lowball = self.ranking.lowball
        if lowball is None:
            if any_five:  # one look-up for the best five of up to seven, as evaluate_high
                high = np.empty(rows.shape[0], dtype=np.int32)
                batch_values(rows, HIGH_TABLES, high)
            else:
                high = evaluate_selection_batch(selection, rows, check=False)
            return [_high_ranking(value) for value in high.tolist()]
        qualifier = self.qualifier
        if any_five:
            low = evaluate_low_batch(rows, lowball, qualifier=qualifier, check=False)
        else:  # every allowed five of every row in one call, then each row's best
            combos = selection.combo_array
            fives = rows[:, combos].reshape(-1, combos.shape[1])
            every = evaluate_low_batch(fives, lowball, qualifier=qualifier, check=False)
            low = every.reshape(rows.shape[0], combos.shape[0]).max(axis=1)
        return [
            None
            if qualifier is not None and value == NO_LOW
            else _low_ranking(value, lowball, qualifier)
            for value in low.tolist()
        ]

    @staticmethod
    def _rank_system(
        system: RankingSystem, selection: Selection, hole: Sequence[int], board: Sequence[int]
    ) -> Ranking:
        row = [int(c) for c in (*hole, *board)]
        if selection.plays_any_five:
            return evaluate_system(system, row)
        return max(
            (evaluate_system(system, [row[j] for j in combo]) for combo in selection.combos),
            key=lambda ranked: ranked.value,
        )


# A ranking's category and name depend on its value alone, so each is made once and shared
# (rankings are immutable): at most 7,462 high values, a few thousand per low ranking.
@cache
def _high_ranking(value: int) -> Ranking:
    hand = HandValue(value)
    return Ranking("high", value, hand.category.label, hand.name)


@cache
def _low_ranking(value: int, lowball: Lowball, qualifier: Qualifier | None) -> Ranking:
    return low_ranking(value, lowball, qualifier)


@dataclass(frozen=True)
class Showdown:
    """The halves a pot is shown down for: one (the whole pot) or two (high and low).

    With two, each pot is split between the best high and the best qualifying low, the odd
    chip between the halves to the high; with no qualifying low the high takes it all.
    ``declare``: the players declare which half they play for
    (:func:`~simulations.engine.declare.split_declared`) instead of the cards speaking.
    """

    halves: tuple[Half, ...] = (Half(),)
    declare: bool = False

    def __post_init__(self) -> None:
        if len(self.halves) not in (1, 2):
            raise ValueError(f"a showdown has one or two halves, got {len(self.halves)}")
        boards = [h.board for h in self.halves]
        if len(self.halves) == 2 and None not in boards:
            if boards[0] == boards[1]:
                raise ValueError("the two halves of a split by board play different boards")
        elif len(self.halves) == 2 and (
            self.halves[0].ranking is not HandRanking.HIGH
            or not (self.halves[1].is_low or self.halves[1].is_spade or self.parts)
        ):
            raise ValueError(
                "a split showdown is a high half, then a low half or a spade in the hole, or "
                "a two-card hand (or one per board)"
            )
        if self.halves[0].ranking is HandRanking.TWO_CARD:
            raise ValueError("a two-card hand is the second half of a hand split in two")
        if len(self.halves) == 1 and self.halves[0].is_spade:
            raise ValueError("a spade in the hole takes half a pot: it follows a high half")
        if len(self.halves) == 1 and self.halves[0].qualifier is not None:
            raise ValueError("a qualifier belongs to the low half of a split showdown")
        if len({h.dealt_wild for h in self.halves if h.dealt_wild is not None}) > 1:
            raise ValueError("one rule decides the wild cards of the deal for both halves")
        if self.declare:
            # 'it is necessary to have either a declaration phase or a qualifier (but not
            # both)' (Rules 000_1a86611de8d3f5f7.txt)
            if len(self.halves) != 2 or None not in boards or not self.halves[1].is_low:
                raise ValueError("a declaration splits a pot between a high and a low half")
            if self.halves[1].qualifier is not None:
                raise ValueError("a declared low half has no qualifier")

    @property
    def parts(self) -> bool:
        """Whether each player splits his hand in two, a five-card hand for the first half
        and a two-card hand for the second (Cowpie: 'the highest five-card hand and the
        highest two-card hand split the pot')."""
        return len(self.halves) == 2 and self.halves[1].ranking is HandRanking.TWO_CARD

    def rank_parts(
        self, fives: Sequence[Sequence[int]], twos: Sequence[Sequence[int]]
    ) -> list[tuple[Ranking | None, ...]]:
        """Each player's five-card hand ranked by the first half and his two-card hand by the
        second (the hands a split phase made)."""
        high = self.halves[0]
        return [
            (high.rank(_FIVE, five, ()), evaluate_two_card(list(two)))
            for five, two in zip(fives, twos, strict=True)
        ]

    def rank_players(
        self,
        selection: Selection | None,
        holes: Sequence[Sequence[int]],
        board: Sequence[int],
        jokers_up: Sequence[bool] = (),
        wild: Sequence[frozenset[Rank]] = (),
        down: Sequence[Sequence[int]] = (),
    ) -> list[tuple[Ranking | None, ...]]:
        """Each player's best hand in each half (as :meth:`Half.rank`, None where it does not
        qualify): every player of a half valued in one batch call where the half allows
        (:meth:`Half.rank_rows`), one player at a time otherwise.  ``jokers_up``: for each
        player, whether his joker lies face up (a half's ``joker_face_up`` system then ranks
        his hand).  ``wild``: for each player, the ranks the deal made wild for him (a half
        with a ``dealt_wild`` rule adds them to its system's); ``down``: each player's cards
        in the hole, for a half that pays a spade there."""
        rows = None
        jokers = False
        if holes and len({len(hole) for hole in holes}) == 1:
            listed = [[*hole, *board] for hole in holes]
            jokers = max(max(row) for row in listed) >= FIRST_JOKER
            rows = np.array(listed, dtype=np.int8)
        per_half = []
        extras = list(wild) or [frozenset()] * len(holes)
        for half in self.halves:
            if half.is_spade:
                if len(down) != len(holes):
                    raise ValueError("a spade in the hole is read from each player's down cards")
                per_half.append([half.rank_spade(cards) for cards in down])
                continue
            if half.dealt_wild is not None and half.system is not None:
                ups = list(jokers_up) or [False] * len(holes)
                ranked_wild = []
                for hole, extra, up in zip(holes, extras, ups, strict=True):
                    # a face-up joker's system where the half has one (Shifting sands)
                    system = half.joker_face_up if up and half.joker_face_up else half.system
                    mine = replace(system, wild_ranks=system.wild_ranks | extra)
                    ranked_wild.append(
                        replace(half, system=mine, joker_face_up=None).rank(selection, hole, board)
                    )
                per_half.append(ranked_wild)
                continue
            ranked = (
                None if rows is None else half.rank_rows(selection, rows, len(board), jokers=jokers)
            )
            if ranked is None:
                ranked = [half.rank(selection, hole, board) for hole in holes]
            if half.joker_face_up is not None and any(jokers_up):
                face_up = replace(half, system=half.joker_face_up, joker_face_up=None)
                ranked = [
                    face_up.rank(selection, hole, board) if up else mine
                    for hole, mine, up in zip(holes, ranked, jokers_up, strict=True)
                ]
            per_half.append(ranked)
        return list(zip(*per_half, strict=True))

    @property
    def reads_down_cards(self) -> bool:
        """Whether the showdown needs each player's down cards: a spade in the hole, or wild
        cards the deal decides."""
        return self.dealt_wild is not None or any(h.is_spade for h in self.halves)

    @property
    def dealt_wild(self) -> DealtWild | None:
        """The rule by which the deal decides wild cards, if a half has one."""
        rules = {h.dealt_wild for h in self.halves if h.dealt_wild is not None}
        return next(iter(rules)) if rules else None

    @property
    def wild_ranks(self) -> frozenset[Rank]:
        """Ranks wild in any half (a draw's 'keeping an ace (or wild card)' counts them)."""
        found: frozenset[Rank] = frozenset()
        for half in self.halves:
            if half.system is not None:
                found |= half.system.wild_ranks
        return found

    @property
    def low_only(self) -> bool:
        return len(self.halves) == 1 and self.halves[0].is_low

    @property
    def label(self) -> str:
        return " / ".join(half.label for half in self.halves)


HIGH_ONLY = Showdown()
ACE_TO_FIVE_ONLY = Showdown((Half(HandRanking.ACE_TO_FIVE_LOW),))
DEUCE_TO_SEVEN_ONLY = Showdown((Half(HandRanking.DEUCE_TO_SEVEN_LOW),))
HIGH_LOW_EIGHT = Showdown((Half(), Half(HandRanking.ACE_TO_FIVE_LOW, Qualifier.EIGHT_OR_BETTER)))
