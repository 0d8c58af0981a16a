"""Bad-beat jackpot frequency: how often a qualifying hand loses to a better qualifying hand.

Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot': the jackpot is paid when a strong
enough hand is shown down and loses to a stronger one, usually with both hole cards
playing in both hands.  The qualifier settings cover the ways cardrooms write this:

* ``min_losing_hand`` — the weakest losing hand that qualifies (a hand floor);
* ``min_winning_hand`` — optionally, the weakest winning hand that qualifies;
* ``hole_cards_play`` — 2, 1 or 0: a hand qualifies only if some five-card hand using at
  least that many of the player's hole cards is worth as much as his best hand;
* ``quads_need_pocket_pair`` — four of a kind qualifies only with a pocket pair of its rank;
* ``board_trips_full_house`` — false means a full house whose three of a kind lies
  entirely on the board does not qualify.

A hand hits when some pair of players (winner, loser) both qualify, the loser's hand
is at least the losing floor, the winner's at least the winning floor, and the
winner's hand beats the loser's.  Every player sees the river.

Each dealt hand is laid out as the five board cards followed by two hole cards per
player; the compiled kernel and :func:`reference_jackpot` (plain Python over the
scalar evaluator) are checked against each other on the same deals.

That is the classic job: hold'em, everyone to the river.  Omaha, the player models
(``[[players]]``), the room's conditions (``[room]``), the rake and the drop (``[rake]``,
``[drop]``) and the jackpot as a policy over time (``[policy]``) are read by
:mod:`simulations.models.bad_beat_room`, and a job that sets any of them plays its hands at a
table (:mod:`simulations.models.table`), judging the jackpot at every level of its schedule.
In Omaha exactly two hole cards play in every hand, and the qualifiers default to the
PLO rooms' "Lose with 2222 or better ... Pocket pairs are required for the winner or loser
to make a four of a kind" (GGPoker, 'Bad Beat Jackpot Rebirth').
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.dealing import deal_from_uniforms
from simulations.decks import Deck
from simulations.evaluators.floors import describe_floor, hand_floor
from simulations.evaluators.hand_value import Category
from simulations.evaluators.high import TABLES, evaluate_high, flush_suit, rank_lookup
from simulations.evaluators.high_tables import HighTables
from simulations.models.bad_beat_room import (
    Room,
    describe_policy,
    describe_room,
    level_rows,
    policy_report,
    read_house,
    read_policy,
    read_room,
)
from simulations.models.economics import read_blinds, table_report
from simulations.models.jackpot_policy import JackpotPolicy
from simulations.models.players import EVERY_RIVER, SeatModel, read_seat_models
from simulations.models.table import DropRule, Jackpot, RakePolicy, RakeRule, Table
from simulations.models.table_tally import LevelTally, TableTally, simulate_table
from simulations.spec import Fields, SpecError, echo
from simulations.stats import Proportion

BOARD_CARDS = 5
HOLE_CARDS = 2
MIN_PLAYERS = 2
MAX_PLAYERS = 10
CHUNK_HANDS = 4096  # hands per compiled call: part of the seeded result, keep fixed
VARIANTS = ("holdem", "omaha")
OMAHA_LOSING_HAND = "quads"
MAX_SWEEP = 12
_NO_FLOOR = -1

_QUADS = int(Category.FOUR_OF_A_KIND)
_FULL_HOUSE = int(Category.FULL_HOUSE)


@dataclass(frozen=True)
class BadBeatRules:
    """The jackpot's qualifiers.  Floors are packed high-hand values (see ``hand_floor``)."""

    min_losing_hand: str = "AAATT"
    min_winning_hand: str | None = None
    hole_cards_play: int = 2
    quads_need_pocket_pair: bool = False
    board_trips_full_house: bool = True

    def __post_init__(self) -> None:
        hand_floor(self.min_losing_hand)
        if self.min_winning_hand is not None:
            hand_floor(self.min_winning_hand)
        if self.hole_cards_play not in (0, 1, 2):
            raise ValueError(f"hole_cards_play must be 0, 1 or 2, got {self.hole_cards_play}")

    @property
    def losing_floor(self) -> int:
        return hand_floor(self.min_losing_hand)

    @property
    def winning_floor(self) -> int:
        return _NO_FLOOR if self.min_winning_hand is None else hand_floor(self.min_winning_hand)

    def describe(self) -> str:
        parts = [f"losing hand {describe_floor(self.min_losing_hand)} or better"]
        if self.min_winning_hand is not None:
            parts.append(f"winning hand {describe_floor(self.min_winning_hand)} or better")
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


@dataclass(frozen=True)
class BadBeatTally:
    """Mergeable counts from any number of hands."""

    hands: int = 0
    jackpot_hands: int = 0

    def merge(self, other: BadBeatTally) -> BadBeatTally:
        return BadBeatTally(self.hands + other.hands, self.jackpot_hands + other.jackpot_hands)

    @property
    def trials(self) -> int:
        return self.hands


@dataclass(frozen=True)
class BadBeatModel:
    """Texas hold'em with ``players`` players all to the river, and a jackpot's ``rules``."""

    kind: ClassVar[str] = "bad_beat"
    trials_field: ClassVar[str] = "hands"

    players: int = 9
    variant: str = "holdem"
    rules: BadBeatRules = BadBeatRules()
    blinds: tuple[int, int] = (1, 2)
    models: tuple[SeatModel, ...] = ()  # none: every seat to the river
    room: Room = field(default_factory=Room)
    rake: RakeRule | None = None
    drop: DropRule | None = None
    policy: JackpotPolicy | None = None
    sweep: tuple[str, ...] = ()  # more losing hands judged, each reported on its own

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {echo(self.variant)}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {self.players}")
        if self.variant == "omaha" and self.rules.hole_cards_play != 2:
            raise ValueError("hole_cards_play: an Omaha hand plays exactly two hole cards")

    @property
    def classic(self) -> bool:
        """Hold'em to the river with no room settings: dealt as the job always was."""
        return (
            self.variant == "holdem"
            and not self.models
            and self.blinds == (1, 2)
            and self.room == Room()
            and self.rake is None
            and self.drop is None
            and self.policy is None
            and not self.sweep
        )

    @property
    def levels(self) -> tuple[tuple[int, str], ...]:
        """The losing hands judged, strictest first, each once: the qualifier, its steps
        down to the floor and the sweep's, with their floors."""
        steps = self.policy.steps if self.policy is not None else ()
        found: dict[int, str] = {}
        for text in (self.rules.min_losing_hand, *steps, *self.sweep):
            found.setdefault(hand_floor(text), text)
        return tuple(sorted(found.items(), reverse=True))

    @property
    def losing_hands(self) -> tuple[str, ...]:
        return tuple(text for _, text in self.levels)

    @property
    def schedule(self) -> tuple[int, ...]:
        """The levels of the policy's qualifier, the reset one first, then its steps."""
        steps = self.policy.steps if self.policy is not None else ()
        floors = [floor for floor, _ in self.levels]
        return tuple(floors.index(hand_floor(t)) for t in (self.rules.min_losing_hand, *steps))

    @property
    def table(self) -> Table:
        """The table the hands are played at."""
        floors = tuple(floor for floor, _ in self.levels)
        policy = RakePolicy("house", self.rake, self.drop)
        return Table(
            self.variant,
            self.players,
            self.blinds,
            self.models or (replace(EVERY_RIVER, seats=self.players),),
            (policy,),
            Jackpot(self.rules, floors, self.room.conditions),
        )

    @classmethod
    def from_fields(cls, job: Fields) -> BadBeatModel:
        """Read the ``[game]`` and ``[jackpot]`` tables of a job, and those of
        :mod:`simulations.models.bad_beat_room`; errors name the field."""
        game = job.table("game")
        variant = game.string("variant", "holdem", choices=VARIANTS)
        players = game.integer("players", 9, low=MIN_PLAYERS, high=MAX_PLAYERS)
        blinds = read_blinds(game)
        game.finish()
        omaha = variant == "omaha"
        jackpot = job.table("jackpot")
        default_losing = OMAHA_LOSING_HAND if omaha else "AAATT"
        losing = _check_floor(
            jackpot, "min_losing_hand", jackpot.string("min_losing_hand", default_losing)
        )
        winning = jackpot.optional_string("min_winning_hand")
        if winning is not None:
            _check_floor(jackpot, "min_winning_hand", winning)
        hole = jackpot.integer("hole_cards_play", 2, low=0, high=2)
        if omaha and hole != 2:
            raise SpecError(
                jackpot.path("hole_cards_play"), "an Omaha hand plays exactly two hole cards"
            )
        quads = jackpot.boolean("quads_need_pocket_pair", omaha)
        board_trips = jackpot.boolean("board_trips_full_house", True)
        sweep = tuple(jackpot.strings("sweep", [], most=MAX_SWEEP))
        for i, text in enumerate(sweep):
            try:
                hand_floor(text)
            except ValueError as err:
                raise SpecError(f"{jackpot.path('sweep')}[{i}]", str(err)) from None
        jackpot.finish()
        rules = BadBeatRules(losing, winning, hole, quads, board_trips)
        models = read_seat_models(job, players, replace(EVERY_RIVER, seats=players))
        if not job.has("players"):
            models = ()
        room = read_room(job)
        rake, drop = read_house(job)
        if room.conditions.raked_only and rake is None:
            raise SpecError("room.raked_only", "needs a [rake]: which hands are raked?")
        policy = read_policy(job, rules.losing_floor, losing)
        if policy is not None and drop is None:
            raise SpecError("policy", "needs a [drop]: what funds the jackpot?")
        return cls(players, variant, rules, blinds, models, room, rake, drop, policy, sweep)

    @property
    def cards_per_hand(self) -> int:
        return BOARD_CARDS + HOLE_CARDS * self.players

    def describe(self) -> str:
        game = "Texas hold'em" if self.variant == "holdem" else "Omaha"
        if not self.models:
            return f"{game}, {self.players} players, every hand to the river"
        kinds = ", ".join(f"{m.seats} {m.name}" for m in self.models)
        return f"{game}, {self.players} players ({kinds})"

    def describe_qualifier(self) -> str:
        text = self.rules.describe()
        if self.variant == "omaha":
            text = text.replace("both hole cards play", "exactly two hole cards play")
        return text

    def describe_room(self) -> str:
        return describe_room(self.room, self.rake, self.drop)

    def describe_policy(self) -> str:
        return "" if self.policy is None else describe_policy(self.policy)

    def empty_tally(self) -> BadBeatTally | TableTally:
        return BadBeatTally() if self.classic else TableTally()

    def simulate(self, hands: int, rng: np.random.Generator) -> BadBeatTally | TableTally:
        """Deal and score ``hands`` hands from ``rng`` in fixed chunks (at a table, unless
        the job is the classic one)."""
        if not self.classic:
            return simulate_table(self.table, hands, rng)
        deck = Deck.standard().as_array()
        k = self.cards_per_hand
        dealt = np.empty((CHUNK_HANDS, k), dtype=np.int8)
        scratch = np.empty(self.players, dtype=np.int64)
        jackpots = 0
        done = 0
        while done < hands:
            n = min(CHUNK_HANDS, hands - done)
            deal_from_uniforms(deck, rng.random((n, k)), dealt[:n])
            jackpots += count_jackpots(dealt[:n], self.players, self.rules, scratch)
            done += n
        return BadBeatTally(hands, jackpots)

    def report(self, tally: BadBeatTally | TableTally) -> dict[str, Any]:
        """Hands dealt, jackpot hands, the frequency with its 95 % Wilson interval, one in N;
        each level of the qualifier's schedule; at a table its course, and the policy over
        time."""
        if isinstance(tally, TableTally):
            levels = level_rows(self.losing_hands, tally.levels, tally.hands)
            hits = tally.levels[self.schedule[0]].hits if tally.levels else 0
        else:
            hits = tally.jackpot_hands
            levels = level_rows(
                self.losing_hands[:1], (LevelTally(hits, hits),), max(tally.hands, 1)
            )
        estimate = Proportion(hits, max(tally.hands, 1))
        low, high = estimate.wilson()
        report: dict[str, Any] = {
            "hands": tally.hands,
            "jackpot_hands": hits,
            "frequency": estimate.frequency,
            "ci95_low": low,
            "ci95_high": high,
            "one_in": estimate.one_in,
            "levels": levels,
            "table": None,
            "policy": None,
        }
        if isinstance(tally, TableTally) and tally.hands:
            table = self.table
            house = tally.policies[0]
            report["table"] = {
                **table_report(table, tally),
                "rake_per_hand": house.rake.mean,
                "drop_per_hand": house.drop.mean,
                "conditions_met": tally.conditions_met / tally.hands,
            }
            if self.policy is not None:
                report["policy"] = policy_report(
                    self.policy,
                    tally,
                    self.room,
                    table.models,
                    self.players,
                    self.blinds[1],
                    self.losing_hands,
                    self.schedule,
                )
        return report


def _check_floor(table: Fields, key: str, text: str) -> str:
    try:
        hand_floor(text)
    except ValueError as err:
        raise SpecError(table.path(key), str(err)) from None
    return text


def count_jackpots(
    dealt: npt.NDArray[np.int8],
    players: int,
    rules: BadBeatRules,
    scratch: npt.NDArray[np.int64] | None = None,
    flags: npt.NDArray[np.bool_] | None = None,
) -> int:
    """Jackpot hands among ``dealt`` (board then hole cards); ``flags`` receives each verdict."""
    out = np.empty(dealt.shape[0], dtype=np.bool_) if flags is None else flags
    values = np.empty(players, dtype=np.int64) if scratch is None else scratch
    return int(
        _jackpot_kernel(
            dealt,
            players,
            rules.losing_floor,
            rules.winning_floor,
            rules.hole_cards_play,
            rules.quads_need_pocket_pair,
            rules.board_trips_full_house,
            TABLES,
            values,
            out,
        )
    )


@nb.njit(cache=True)
def _five_value(
    a: int,
    b: int,
    c: int,
    d: int,
    e: int,
    tables: HighTables,
) -> int:
    keys, flush_values, row_offsets, rank_values = tables
    key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e]
    if flush_suit(key) >= 0:
        mask = (
            (1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2)) | (1 << (d >> 2)) | (1 << (e >> 2))
        )
        return int(flush_values[mask])
    return rank_lookup(key, row_offsets, rank_values)


@nb.njit(cache=True)
def _hole_cards_play(
    dealt: npt.NDArray[np.int8],
    i: int,
    h0: int,
    h1: int,
    need: int,
    value: int,
    tables: HighTables,
) -> bool:
    """Whether a five-card hand using at least ``need`` hole cards is worth ``value``."""
    if need == 0:
        return True
    # Both hole cards and three of the board.
    for x in range(BOARD_CARDS):
        for y in range(x + 1, BOARD_CARDS):
            for z in range(y + 1, BOARD_CARDS):
                v = _five_value(
                    h0,
                    h1,
                    dealt[i, x],
                    dealt[i, y],
                    dealt[i, z],
                    tables,
                )
                if v == value:
                    return True
    if need == 2:
        return False
    # One hole card and four of the board: leave out one board card.
    for h in (h0, h1):
        for skip in range(BOARD_CARDS):
            cards = np.empty(4, dtype=np.int64)
            m = 0
            for x in range(BOARD_CARDS):
                if x != skip:
                    cards[m] = dealt[i, x]
                    m += 1
            v = _five_value(
                h,
                cards[0],
                cards[1],
                cards[2],
                cards[3],
                tables,
            )
            if v == value:
                return True
    return False


@nb.njit(cache=True)
def _qualifies(
    dealt: npt.NDArray[np.int8],
    i: int,
    p: int,
    value: int,
    hole_cards_play: int,
    quads_need_pocket_pair: bool,
    board_trips_full_house: bool,
    tables: HighTables,
) -> bool:
    h0 = dealt[i, BOARD_CARDS + 2 * p]
    h1 = dealt[i, BOARD_CARDS + 2 * p + 1]
    category = value >> 20
    top_rank = (value >> 16) & 15
    pocket_pair_of_top = h0 >> 2 == top_rank and h1 >> 2 == top_rank
    if quads_need_pocket_pair and category == _QUADS and not pocket_pair_of_top:
        return False
    holds_trips_rank = h0 >> 2 == top_rank or h1 >> 2 == top_rank
    if not board_trips_full_house and category == _FULL_HOUSE and not holds_trips_rank:
        return False
    return _hole_cards_play(
        dealt,
        i,
        h0,
        h1,
        hole_cards_play,
        value,
        tables,
    )


@nb.njit(cache=True)
def _jackpot_kernel(
    dealt: npt.NDArray[np.int8],
    players: int,
    losing_floor: int,
    winning_floor: int,
    hole_cards_play: int,
    quads_need_pocket_pair: bool,
    board_trips_full_house: bool,
    tables: HighTables,
    values: npt.NDArray[np.int64],
    flags: npt.NDArray[np.bool_],
) -> int:
    card_keys, flush_values, row_offsets, rank_values = tables
    hits = 0
    for i in range(dealt.shape[0]):
        board_key = 0
        for j in range(BOARD_CARDS):
            board_key += card_keys[dealt[i, j]]
        contenders = 0
        for p in range(players):
            h0 = dealt[i, BOARD_CARDS + 2 * p]
            h1 = dealt[i, BOARD_CARDS + 2 * p + 1]
            key = board_key + card_keys[h0] + card_keys[h1]
            suit = flush_suit(key)
            if suit >= 0:
                mask = 0
                for j in range(BOARD_CARDS):
                    c = dealt[i, j]
                    if c & 3 == suit:
                        mask |= 1 << (c >> 2)
                if h0 & 3 == suit:
                    mask |= 1 << (h0 >> 2)
                if h1 & 3 == suit:
                    mask |= 1 << (h1 >> 2)
                value = flush_values[mask]
            else:
                value = rank_lookup(key, row_offsets, rank_values)
            values[p] = value
            if value >= losing_floor:
                contenders += 1
        hit = False
        # A hit needs two hands at or above the losing floor: rare, so check them only then.
        if contenders >= 2:
            weakest_loser = 1 << 40
            best_winner = -1
            for p in range(players):
                value = values[p]
                if value < losing_floor:
                    continue
                if not _qualifies(
                    dealt,
                    i,
                    p,
                    value,
                    hole_cards_play,
                    quads_need_pocket_pair,
                    board_trips_full_house,
                    tables,
                ):
                    continue
                weakest_loser = min(weakest_loser, value)
                if value >= winning_floor:
                    best_winner = max(best_winner, value)
            hit = best_winner > weakest_loser
        flags[i] = hit
        hits += hit
    return hits


def reference_jackpot(
    board: Sequence[int], holes: Sequence[Sequence[int]], rules: BadBeatRules
) -> bool:
    """The same verdict as the kernel, written plainly over the scalar evaluator."""
    qualifying: list[int] = []
    winners: list[int] = []
    for hole in holes:
        best = evaluate_high([*board, *hole])
        if best.value < rules.losing_floor:
            continue
        top = best.value >> 16 & 15
        hole_ranks = [card >> 2 for card in hole]
        is_quads = best.category is Category.FOUR_OF_A_KIND
        if rules.quads_need_pocket_pair and is_quads and hole_ranks != [top, top]:
            continue
        is_full_house = best.category is Category.FULL_HOUSE
        if not rules.board_trips_full_house and is_full_house and top not in hole_ranks:
            continue
        if not _reference_hole_cards_play(board, hole, rules.hole_cards_play, best.value):
            continue
        qualifying.append(best.value)
        if best.value >= rules.winning_floor:
            winners.append(best.value)
    return bool(qualifying and winners and max(winners) > min(qualifying))


def _reference_hole_cards_play(
    board: Sequence[int], hole: Sequence[int], need: int, value: int
) -> bool:
    for used in range(need, HOLE_CARDS + 1):
        for hole_part in itertools.combinations(hole, used):
            for board_part in itertools.combinations(board, 5 - used):
                if evaluate_high([*hole_part, *board_part]).value == value:
                    return True
    return False
