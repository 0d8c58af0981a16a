"""Replaying recorded hold'em hands in bulk, exactly as the reference engine plays them.

A :class:`ReplayBatch` holds many hands as flat arrays: per hand the number of seats, the
starting stacks, the button, the deck order (the cards the hand may deal: hole cards one at
a time clockwise from the button's left, two rounds, then a burn before each of the flop,
turn and river), its straddles if any, and its actions in compressed-row form
(``action_offsets`` into ``action_kinds`` and ``action_totals``, a bet's or raise's total
being the round total as in :class:`~simulations.engine.hand.Action`).  :func:`replay`
plays the whole batch under one game in one compiled loop
(:mod:`simulations.engine.replay_kernel`), :func:`replay_games` each hand under its own game
of several (the hands of many stakes), and both return every final stack, the payoffs,
optionally the contributions and the short all-ins, and a status per hand: completed, or the
first illegal action and why, in the reference engine's words.

:class:`ReplayRules` reads a :class:`~simulations.engine.game.GameDefinition` into the
numbers the kernel needs and refuses, naming them, the features it does not play: anything
but hold'em's streets and showdown, bring-ins, kill blinds, posts, rake, the jackpot drop
and exact fractional odd chips.  :func:`record_hand` turns a hand played by
:class:`~simulations.engine.hand.Hand` into a :class:`HandRecord` from its events.

The rules are the reference engine's (Rules 002_376df91f076a6501.txt; see
:mod:`simulations.engine.hand`); a differential test holds the kernel to it hand for hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Any

import numpy as np
import numpy.typing as npt

from simulations.cards import STANDARD_CARD_COUNT, Card
from simulations.engine import replay_kernel as kernel
from simulations.engine.capabilities import holdem_streets, hole_cards, one_half, unread_defaults
from simulations.engine.events import (
    BetOrRaised,
    BoardDealt,
    Burned,
    Called,
    Checked,
    Folded,
    Posted,
    PostKind,
)
from simulations.engine.game import (
    BigBlindAnteOrder,
    ForcedBets,
    GameDefinition,
    StraddleRule,
)
from simulations.engine.hand import Action, ActionKind, Hand, IllegalAction
from simulations.engine.limits import (
    HeadsUpCap,
    IncompleteRaiseRule,
    Limit,
    PotLimitBlinds,
    ShortAllInRule,
    Stakes,
)
from simulations.engine.phases import Bet, Deal, Draw
from simulations.engine.pots import OddChipRule
from simulations.engine.showdown import HIGH_ONLY
from simulations.evaluators.high import TABLES
from simulations.evaluators.selection import TEXAS_HOLDEM
from simulations.rules import codes, reasons

MAX_SEATS = kernel.MAX_SEATS
MAX_CHIPS = 1 << 60  # per hand: keeps every pot-limit sum inside int64
BETTING_ROUNDS = kernel.BETTING_ROUNDS

Int8Array = npt.NDArray[np.int8]
Int64Array = npt.NDArray[np.int64]


class ActionCode(IntEnum):
    """The batch encoding's action kinds."""

    FOLD = codes.FOLD
    CHECK = codes.CHECK
    CALL = codes.CALL
    BET = codes.BET
    RAISE = codes.RAISE


_CODE_OF_KIND = {
    ActionKind.FOLD: ActionCode.FOLD,
    ActionKind.CHECK: ActionCode.CHECK,
    ActionKind.CALL: ActionCode.CALL,
    ActionKind.BET: ActionCode.BET,
    ActionKind.RAISE: ActionCode.RAISE,
}
_KIND_OF_CODE = {code: kind for kind, code in _CODE_OF_KIND.items()}
_WAGERS = (ActionCode.BET, ActionCode.RAISE)
_STRADDLE_CODES = {
    StraddleRule.NONE: codes.STRADDLES_NONE,
    StraddleRule.LIVE: codes.STRADDLES_LIVE,
    StraddleRule.MISSISSIPPI: codes.STRADDLES_MISSISSIPPI,
}
_LIMIT_CODES = {
    Limit.FIXED: codes.LIMIT_FIXED,
    Limit.SPREAD: codes.LIMIT_SPREAD,
    Limit.POT: codes.LIMIT_POT,
    Limit.NO: codes.LIMIT_NO,
}


class ReplayStatus(IntEnum):
    """How a replayed hand ended: completed, or why it stopped (the reference engine's
    ``IllegalAction`` reasons, in the order ``Hand._check`` tests them, and the reasons it
    refuses a hand's straddles as it sets the hand up)."""

    COMPLETED = codes.COMPLETED
    HAND_OVER = codes.HAND_OVER
    FOLD_WITHOUT_BET = codes.FOLD_WITHOUT_BET
    CHECK_FACING_BET = codes.CHECK_FACING_BET
    CALL_WITHOUT_BET = codes.CALL_WITHOUT_BET
    BET_FACING_BET = codes.BET_FACING_BET
    RAISE_WITHOUT_BET = codes.RAISE_WITHOUT_BET
    NO_CHIPS_TO_RAISE = codes.NO_CHIPS_TO_RAISE
    NOT_REOPENED = codes.NOT_REOPENED
    NO_OPPONENT_CAN_CALL = codes.NO_OPPONENT_CAN_CALL
    CAPPED = codes.CAPPED
    OUT_OF_RANGE = codes.OUT_OF_RANGE
    OFF_UNIT = codes.OFF_UNIT
    UNKNOWN_ACTION = codes.UNKNOWN_ACTION
    TOO_FEW_ACTIONS = codes.TOO_FEW_ACTIONS
    STRADDLE_OUT_OF_ORDER = codes.STRADDLE_OUT_OF_ORDER
    STRADDLE_AFTER_POST = codes.STRADDLE_AFTER_POST
    STRADDLE_NOT_A_RAISE = codes.STRADDLE_NOT_A_RAISE
    STRADDLE_NOT_COVERED = codes.STRADDLE_NOT_COVERED
    OUT_OF_TURN = codes.OUT_OF_TURN
    WRONG_ROUND = codes.WRONG_ROUND


@dataclass(frozen=True)
class HandRecord:
    """One hand to replay: starting stacks by seat, the button's seat, the deck order (at
    least the cards the hand may deal), every action in the order taken, and the straddles
    posted before them as (seat, total), as :class:`~simulations.engine.hand.Hand` takes
    them."""

    stacks: tuple[int, ...]
    button: int
    deck: tuple[int, ...]
    actions: tuple[Action, ...]
    straddles: tuple[tuple[int, int], ...] = ()


def _integers(value: npt.ArrayLike, name: str, ndim: int) -> npt.NDArray[np.integer]:
    array = np.asarray(value)
    if array.size == 0:
        array = array.astype(np.int64)
    if array.ndim != ndim or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"{name} must be a {ndim}-d array of integers")
    return array


def _fitted(array: npt.NDArray[np.integer], dtype: type[np.integer], name: str) -> npt.NDArray[Any]:
    """``array`` as contiguous ``dtype``, refusing values the type would wrap."""
    info = np.iinfo(dtype)
    if array.size and (array.min() < info.min or array.max() > info.max):
        raise ValueError(f"{name} holds values outside {info.min}..{info.max}")
    return np.ascontiguousarray(array, dtype=dtype)


@dataclass(frozen=True, eq=False)
class ReplayBatch:
    """Many hands as arrays (see the module docstring).

    ``stacks`` is (hands, width) with zeros past each hand's seats; ``decks`` is
    (hands, at least ``2 * max(seats) + 8``) card codes, of which a hand of n seats uses the
    first ``2 * n + 8``.  ``straddle_seats`` and ``straddle_totals`` (hands, straddles at
    most; None: no straddles) give each hand's straddles in the order posted, seat -1 after
    the last.  ``action_seats`` (None: not checked) gives the seat each action is for; an
    action for a seat other than the one to act stops its hand out of turn, as the reference
    engine refuses it.  Checked on construction: seats, buttons, positive stacks, distinct
    card codes 0..51, offsets that cover the actions, straddles of the hand's seats for chips
    and action seats of the hand's seats.
    """

    seats: Int8Array
    buttons: Int8Array
    stacks: Int64Array
    decks: Int8Array
    action_offsets: Int64Array
    action_kinds: Int8Array
    action_totals: Int64Array
    straddle_seats: Int8Array | None = None
    straddle_totals: Int64Array | None = None
    action_seats: Int8Array | None = None
    # A draw game's hands (rules with ``values_given``): each seat's showdown value (hands,
    # seats; higher better, 0 or more) and the betting round of every action.
    hand_values: Int64Array | None = None
    action_rounds: Int8Array | None = None

    def __post_init__(self) -> None:
        seats = _fitted(_integers(self.seats, "seats", 1), np.int8, "seats")
        hands = seats.shape[0]
        buttons = _fitted(_integers(self.buttons, "buttons", 1), np.int8, "buttons")
        stacks = _fitted(_integers(self.stacks, "stacks", 2), np.int64, "stacks")
        decks = _fitted(_integers(self.decks, "decks", 2), np.int8, "decks")
        offsets = _fitted(_integers(self.action_offsets, "action_offsets", 1), np.int64, "offsets")
        kinds = _fitted(_integers(self.action_kinds, "action_kinds", 1), np.int8, "action_kinds")
        totals = _fitted(_integers(self.action_totals, "action_totals", 1), np.int64, "totals")
        if buttons.shape[0] != hands or stacks.shape[0] != hands or decks.shape[0] != hands:
            raise ValueError("seats, buttons, stacks and decks must have one row per hand")
        if hands and not (seats.min() >= 2 and seats.max() <= MAX_SEATS):
            raise ValueError(f"every hand needs 2 to {MAX_SEATS} seats")
        widest = int(seats.max()) if hands else 2
        if stacks.shape[1] < widest:
            raise ValueError(f"stacks has {stacks.shape[1]} columns; a hand has {widest} seats")
        if decks.shape[1] < kernel.cards_dealt(widest):
            raise ValueError(
                f"decks has {decks.shape[1]} columns; {widest} players may need "
                f"{kernel.cards_dealt(widest)} cards"
            )
        if hands and (buttons.min() < 0 or np.any(buttons >= seats)):
            bad = int(np.argmax((buttons < 0) | (buttons >= seats)))
            raise ValueError(f"hand {bad}: button must be a seat 0..{seats[bad] - 1}")
        seated = np.arange(stacks.shape[1]) < seats[:, None]
        if np.any(seated & (stacks <= 0)):
            bad = int(np.argmax(np.any(seated & (stacks <= 0), axis=1)))
            raise ValueError(f"hand {bad}: every player dealt in needs chips (stacks positive)")
        if np.any(~seated & (stacks != 0)):
            raise ValueError("stacks must be zero past each hand's seats")
        if hands and np.any(stacks.sum(axis=1, dtype=np.float64) >= MAX_CHIPS):
            raise ValueError(f"a hand's chips must add up to less than 2**60 ({MAX_CHIPS})")
        if offsets.shape[0] != hands + 1 or offsets[0] != 0 or np.any(np.diff(offsets) < 0):
            raise ValueError("action_offsets must run from 0, never decreasing, one per hand + 1")
        if kinds.shape[0] != offsets[-1] or totals.shape[0] != offsets[-1]:
            raise ValueError("action_kinds and action_totals must hold action_offsets[-1] actions")
        straddlers, straddled = self._straddles(seats)
        actors = self._actors(seats, offsets)
        values, action_rounds = self._draw_arrays(stacks, offsets)
        hand, position = kernel.first_bad_deck(seats, decks)
        if hand >= 0:
            raise ValueError(
                f"hand {hand}: deck card {position} ({decks[hand, position]}) is not a card "
                "0..51 or repeats one dealt before it"
            )
        for name, array in (
            ("seats", seats),
            ("buttons", buttons),
            ("stacks", stacks),
            ("decks", decks),
            ("action_offsets", offsets),
            ("action_kinds", kinds),
            ("action_totals", totals),
            ("straddle_seats", straddlers),
            ("straddle_totals", straddled),
            ("action_seats", actors),
            ("hand_values", values),
            ("action_rounds", action_rounds),
        ):
            object.__setattr__(self, name, array)

    def _draw_arrays(self, stacks: Int64Array, offsets: Int64Array) -> tuple[Int64Array, Int8Array]:
        """The showdown values and action rounds checked, empty where none are given (an
        empty array, as these are kept, is none given)."""
        values = np.zeros((0, 0), dtype=np.int64)
        if self.hand_values is not None and np.size(self.hand_values):
            values = _fitted(_integers(self.hand_values, "hand_values", 2), np.int64, "values")
            if values.shape[0] != stacks.shape[0] or values.shape[1] < stacks.shape[1]:
                raise ValueError("hand_values must have a row per hand and a column per seat")
            if values.min() < 0:
                raise ValueError("hand_values must be 0 or more")
        rounds = np.zeros(0, dtype=np.int8)
        if self.action_rounds is not None and np.size(self.action_rounds):
            rounds = _fitted(_integers(self.action_rounds, "action_rounds", 1), np.int8, "rounds")
            if rounds.shape[0] != offsets[-1]:
                raise ValueError("action_rounds must hold action_offsets[-1] actions")
            if rounds.size and rounds.min() < 0:
                raise ValueError("action_rounds must be 0 or more")
        return values, rounds

    def _actors(self, seats: Int8Array, offsets: Int64Array) -> Int8Array:
        """The action seats checked, empty where none are given."""
        if self.action_seats is None:
            return np.zeros(0, dtype=np.int8)
        actors = _fitted(_integers(self.action_seats, "action_seats", 1), np.int8, "action_seats")
        if actors.shape[0] != offsets[-1]:
            raise ValueError("action_seats must hold action_offsets[-1] actions")
        owner = np.repeat(seats, np.diff(offsets))
        if np.any((actors < 0) | (actors >= owner)):
            bad = int(np.argmax((actors < 0) | (actors >= owner)))
            raise ValueError(f"action {bad}: action_seats must name a seat of its hand")
        return actors

    def _straddles(self, seats: Int8Array) -> tuple[Int8Array, Int64Array]:
        """The straddle arrays checked, (hands, 0) where none are given."""
        hands = seats.shape[0]
        if self.straddle_seats is None and self.straddle_totals is None:
            return np.zeros((hands, 0), dtype=np.int8), np.zeros((hands, 0), dtype=np.int64)
        if self.straddle_seats is None or self.straddle_totals is None:
            raise ValueError("straddle_seats and straddle_totals come together")
        where = _fitted(_integers(self.straddle_seats, "straddle_seats", 2), np.int8, "seats")
        totals = _fitted(
            _integers(self.straddle_totals, "straddle_totals", 2), np.int64, "straddle_totals"
        )
        if where.shape != totals.shape or where.shape[0] != hands:
            raise ValueError("straddle_seats and straddle_totals must have one row per hand")
        given = where >= 0
        if np.any(where < -1) or np.any(where >= seats[:, None]):
            bad = int(np.argmax(np.any((where < -1) | (where >= seats[:, None]), axis=1)))
            raise ValueError(f"hand {bad}: a straddle's seat must be a seat of the hand")
        if np.any(given[:, 1:] & ~given[:, :-1]):
            raise ValueError("a hand's straddles come first in its row, then seats -1")
        if np.any(given & (totals <= 0)):
            raise ValueError("a straddle puts in chips (totals positive)")
        return where, totals

    @classmethod
    def from_records(cls, records: Iterable[HandRecord]) -> ReplayBatch:
        """Encode hands; a bet or raise without a total, or a deck too short, is refused."""
        hands = list(records)
        widest = max((len(r.stacks) for r in hands), default=2)
        if widest > MAX_SEATS:
            raise ValueError(f"every hand needs 2 to {MAX_SEATS} seats, got {widest}")
        stacks = np.zeros((len(hands), widest), dtype=np.int64)
        decks = np.full((len(hands), kernel.cards_dealt(widest)), -1, dtype=np.int8)
        offsets = np.zeros(len(hands) + 1, dtype=np.int64)
        kinds: list[int] = []
        totals: list[int] = []
        for i, record in enumerate(hands):
            n = len(record.stacks)
            stacks[i, :n] = record.stacks
            needed = kernel.cards_dealt(n)
            if len(record.deck) < needed:
                raise ValueError(
                    f"hand {i}: the deck holds {len(record.deck)} cards; needs {needed}"
                )
            if not all(0 <= c < STANDARD_CARD_COUNT for c in record.deck):
                raise ValueError(f"hand {i}: deck cards must be codes 0..51")
            if len(set(record.deck)) != len(record.deck):
                # The reference engine refuses such a deck even where no card is dealt.
                raise ValueError(f"hand {i}: the deck repeats a card")
            decks[i, :needed] = record.deck[:needed]
            for j, action in enumerate(record.actions):
                code = _CODE_OF_KIND.get(action.kind)
                if code is None:
                    raise ValueError(f"hand {i}, action {j}: hold'em has no {action.kind.value}")
                if code in _WAGERS and action.total is None:
                    raise ValueError(f"hand {i}, action {j}: a {action.kind.value} needs a total")
                kinds.append(code)
                totals.append(action.total if code in _WAGERS and action.total is not None else 0)
            offsets[i + 1] = len(kinds)
        most = max((len(r.straddles) for r in hands), default=0)
        straddle_seats = np.full((len(hands), most), -1, dtype=np.int8)
        straddle_totals = np.zeros((len(hands), most), dtype=np.int64)
        for i, record in enumerate(hands):
            for k, (seat, total) in enumerate(record.straddles):
                straddle_seats[i, k] = seat
                straddle_totals[i, k] = total
        return cls(
            seats=np.array([len(r.stacks) for r in hands], dtype=np.int64),
            buttons=np.array([r.button for r in hands], dtype=np.int64),
            stacks=stacks,
            decks=decks,
            action_offsets=offsets,
            action_kinds=np.array(kinds, dtype=np.int64),
            action_totals=np.array(totals, dtype=np.int64),
            straddle_seats=straddle_seats if most else None,
            straddle_totals=straddle_totals if most else None,
        )

    def __len__(self) -> int:
        return int(self.seats.shape[0])

    def actions(self, hand: int) -> tuple[Action, ...]:
        """Hand ``hand``'s actions decoded (an unknown code raises ValueError)."""
        start, stop = int(self.action_offsets[hand]), int(self.action_offsets[hand + 1])
        return tuple(
            _decode(int(code), int(total))
            for code, total in zip(
                self.action_kinds[start:stop], self.action_totals[start:stop], strict=True
            )
        )

    def record(self, hand: int) -> HandRecord:
        """Hand ``hand`` decoded (its deck as far as the hand may deal)."""
        n = int(self.seats[hand])
        assert self.straddle_seats is not None and self.straddle_totals is not None
        return HandRecord(
            stacks=tuple(int(s) for s in self.stacks[hand, :n]),
            button=int(self.buttons[hand]),
            deck=tuple(int(c) for c in self.decks[hand, : kernel.cards_dealt(n)]),
            actions=self.actions(hand),
            straddles=tuple(
                (int(seat), int(total))
                for seat, total in zip(
                    self.straddle_seats[hand], self.straddle_totals[hand], strict=True
                )
                if seat >= 0
            ),
        )


def _decode(code: int, total: int) -> Action:
    if code not in _KIND_OF_CODE:
        raise ValueError(reasons.reason(codes.UNKNOWN_ACTION, code=code))
    kind = _KIND_OF_CODE[ActionCode(code)]
    return Action(kind, total if code in _WAGERS else None)


@dataclass(frozen=True)
class ReplayRules:
    """A hold'em game as the kernel's numbers: the structure and stakes per betting round.

    ``bet_sizes`` and ``spreads`` hold one entry per betting round (preflop, flop, turn,
    river) as :class:`~simulations.engine.limits.Stakes` gives them; ``max_bets`` None is
    uncapped.
    """

    limit: Limit
    ante: int
    blinds: tuple[int, ...]
    first_blind_on_button: bool
    bet_sizes: tuple[int, ...]
    spreads: tuple[tuple[int, int], ...]
    max_bets: int | None
    cap_lifted_heads_up: bool
    heads_up_cap: HeadsUpCap
    unit: int
    half_bet: bool
    small_blind_as_big: bool
    odd_chips: OddChipRule
    short_all_ins: ShortAllInRule
    min_players: int
    max_players: int
    big_blind_ante: int = 0
    big_blind_ante_first: bool = False
    straddles: StraddleRule = StraddleRule.NONE
    # Heads-up with two blinds: posted left of the button as at a bigger table (the button
    # posts the big one), as Hand's ``blind_seats`` places them for a history read so.
    heads_up_blinds_left: bool = False
    # The betting rounds: hold'em's four, or a draw game's (one before each draw and one
    # after the last); a draw game shows down on values the batch gives (``values_given``).
    rounds: int = BETTING_ROUNDS
    values_given: bool = False

    @classmethod
    def from_game(cls, game: GameDefinition) -> ReplayRules:
        """The kernel's rules for ``game``; a ValueError names everything it cannot play."""
        return cls._read(game, _unsupported(game))

    @classmethod
    def from_draw_game(cls, game: GameDefinition) -> ReplayRules:
        """The kernel's rules for the betting of a draw game (one deal of down cards, then
        betting rounds with a draw between each two, one half shown down): its rounds are
        played as hold'em's, and its hands shown down on values the batch gives, which the
        caller ranks by the game's own showdown from the cards each player holds after the
        last draw (the deck, the draws and the ranking are the caller's; a ValueError
        names what else the kernel cannot play)."""
        rounds, problems = _draw_rounds(game)
        problems += _unsupported(game, draw=True)
        return cls._read(game, problems, rounds=rounds, values_given=True)

    @classmethod
    def _read(cls, game: GameDefinition, problems: list[str], **shape: Any) -> ReplayRules:
        """The rules of ``game`` (with ``shape``: its rounds and showdown), or a ValueError
        naming ``problems`` if there are any."""
        if problems:
            raise ValueError(f"the replay kernel cannot play {game.name}: {'; '.join(problems)}")
        rules = cls(
            limit=game.limit,
            heads_up_cap=game.heads_up_cap,
            half_bet=game.incomplete_raise is IncompleteRaiseRule.HALF_BET,
            small_blind_as_big=game.pot_limit_blinds is PotLimitBlinds.SMALL_AS_BIG,
            odd_chips=game.odd_chips,
            short_all_ins=game.short_all_ins,
            min_players=game.min_players,
            max_players=game.max_players,
            straddles=game.straddles,
            **shape,
            **_stakes_numbers(game.forced, game.stakes),
        )
        rules.check_amounts()
        return rules

    def with_stakes(self, forced: ForcedBets, stakes: Stakes) -> ReplayRules:
        """These rules with other forced bets and stakes: :meth:`from_game` of the same game
        with ``forced`` and ``stakes`` in its own's place (a ValueError names what of them
        the kernel cannot play).  A run over hands of many stakes lays the game out once."""
        problems = [*_unsupported_forced(forced), *_unsupported_stakes(stakes)]
        if problems:
            raise ValueError(f"the replay kernel cannot play these stakes: {'; '.join(problems)}")
        rules = replace(self, **_stakes_numbers(forced, stakes))
        rules.check_amounts()
        return rules

    def check_amounts(self) -> None:
        amounts = [self.ante, self.big_blind_ante, *self.blinds, *self.bet_sizes, self.unit]
        amounts += [x for spread in self.spreads for x in spread]
        if max(amounts) >= MAX_CHIPS:
            raise ValueError(f"the replay kernel plays stakes below 2**60 ({MAX_CHIPS}) only")

    @property
    def player_range(self) -> tuple[int, int]:
        """The fewest and the most players a hand of this game is replayed with."""
        return max(self.min_players, len(self.blinds), 2), min(self.max_players, MAX_SEATS)


def check_hands(rules: Sequence[ReplayRules], rows: Int64Array, batch: ReplayBatch) -> None:
    """Refuse hands their game cannot deal (hand ``h`` is of game ``rules[rows[h]]``): seat
    counts outside the game's range, or fewer players than blinds."""
    if not len(batch):
        return
    ranges = np.array([r.player_range for r in rules], dtype=np.int64).reshape(len(rules), 2)
    low, high = ranges[rows, 0], ranges[rows, 1]
    bad = (batch.seats < low) | (batch.seats > high)
    if np.any(bad):
        hand = int(np.argmax(bad))
        game = rules[int(rows[hand])]
        fewest, most = game.player_range
        raise ValueError(
            f"hand {hand} has {batch.seats[hand]} players; this game replays {fewest} to {most}"
            + (f" ({len(game.blinds)} blinds need as many players)" if fewest > 2 else "")
        )


def kernel_table(rules: Sequence[ReplayRules]) -> kernel.KernelRules:
    """``rules`` as the compiled kernel takes them: one row per game, in order."""
    widest = max((len(r.blinds) for r in rules), default=0)
    blinds = np.zeros((len(rules), max(widest, 1)), dtype=np.int64)
    for row, r in enumerate(rules):
        blinds[row, : len(r.blinds)] = r.blinds

    def column(values: list[int], dtype: type[np.generic] = np.int64) -> npt.NDArray[Any]:
        return np.array(values, dtype=dtype)

    return kernel.KernelRules(
        column([_LIMIT_CODES[r.limit] for r in rules]),
        column([r.ante for r in rules]),
        blinds,
        column([len(r.blinds) for r in rules]),
        column([r.first_blind_on_button for r in rules], np.bool_),
        column([r.heads_up_blinds_left for r in rules], np.bool_),
        np.array([r.bet_sizes for r in rules], dtype=np.int64).reshape(len(rules), BETTING_ROUNDS),
        np.array([[low for low, _ in r.spreads] for r in rules], dtype=np.int64).reshape(
            len(rules), BETTING_ROUNDS
        ),
        np.array([[high for _, high in r.spreads] for r in rules], dtype=np.int64).reshape(
            len(rules), BETTING_ROUNDS
        ),
        column([-1 if r.max_bets is None else r.max_bets for r in rules]),
        column([r.cap_lifted_heads_up for r in rules], np.bool_),
        column([r.heads_up_cap is HeadsUpCap.START_OF_ROUND for r in rules], np.bool_),
        column([r.unit for r in rules]),
        column([r.half_bet for r in rules], np.bool_),
        column([r.small_blind_as_big for r in rules], np.bool_),
        column([r.odd_chips.code for r in rules]),
        column([r.short_all_ins.code for r in rules]),
        column([r.big_blind_ante for r in rules]),
        column([r.big_blind_ante_first for r in rules], np.bool_),
        column([_STRADDLE_CODES[r.straddles] for r in rules]),
        column([r.rounds for r in rules]),
        column([r.values_given for r in rules], np.bool_),
    )


# What the kernel reads of a game and of its stakes (the selection, showdown, rake and
# jackpot drop it takes only at their defaults, checked by name first).
_GAME_DEFAULTS = unread_defaults(
    GameDefinition,
    frozenset(
        {
            "name",
            "phases",
            "forced",
            "limit",
            "stakes",
            "incomplete_raise",
            "short_all_ins",
            "pot_limit_blinds",
            "heads_up_cap",
            "odd_chips",
            "min_players",
            "max_players",
            "straddles",
        }
    ),
)
# A draw game's cards are the caller's (its deck order, draws and showdown values): the
# settings that decide them are left to it.
_DRAW_GAME_DEFAULTS = tuple(
    (name, default)
    for name, default in _GAME_DEFAULTS
    if name
    not in ("selection", "showdown", "deck", "exhaustion", "deals_bottom_card", "five_consecutive")
)
_FORCED_DEFAULTS = unread_defaults(
    ForcedBets,
    frozenset(
        {"ante", "blinds", "first_blind_on_button", "big_blind_ante", "big_blind_ante_order"}
    ),
)
_STAKES_DEFAULTS = unread_defaults(
    Stakes,
    frozenset(
        {
            "small_bet",
            "big_bet",
            "big_bet_round",
            "spreads",
            "max_bets",
            "cap_lifted_heads_up",
            "unit",
        }
    ),
)


def _draw_rounds(game: GameDefinition) -> tuple[int, list[str]]:
    """A draw game's betting rounds, and what in its phases and showdown the kernel does not
    play: one deal of down cards, then a plain betting round before each draw and after
    the last, each draw replacing as many cards as discarded, up to a fixed number; one
    half shown down, with no qualifier, on the whole hand held."""
    problems = []
    phases = game.phases
    first = phases[0] if phases else None
    if not (
        isinstance(first, Deal)
        and first.down > 0
        and replace(first, street="", down=1, burn=False) == Deal("", down=1)
    ):
        problems.append("a draw game's first deal gives each player down cards only")
    rest = phases[1:]
    bets = rest[0::2]
    draws = rest[1::2]
    if not (
        len(rest) % 2 == 1
        and all(isinstance(p, Bet) and p == Bet() for p in bets)
        and all(isinstance(p, Draw) and p.most_keeping_ace is None and p.extra == 0 for p in draws)
        and draws
        and len(bets) <= BETTING_ROUNDS
    ):
        problems.append(
            "only betting rounds with a plain draw between each two follow the deal "
            f"(at most {BETTING_ROUNDS} rounds; no other phases, openers or limits keeping an ace)"
        )
    halves = game.showdown.halves
    if game.showdown.declare or len(halves) != 1:
        problems.append("one half is shown down (no split pot, no declaration)")
    elif one_half(game) is None:
        problems.append("the half has no qualifier, wild cards or ranking system")
    return len(bets), problems


def _unsupported(game: GameDefinition, draw: bool = False) -> list[str]:
    """What in ``game`` the kernel does not play, in words (``draw``: its betting only,
    a draw game's phases and showdown being :func:`_draw_rounds`'s)."""
    problems = []
    # Hold'em's own streets (capabilities.holdem_streets), two down cards first.
    if not draw and not (holdem_streets(game) and hole_cards(game) == 2):
        problems.append(
            "only hold'em's streets are played (two down cards, then flop, turn and river, "
            "each after a burn)"
        )
    if not draw and game.selection != TEXAS_HOLDEM:
        shown = "the whole hand" if game.selection is None else game.selection.name
        problems.append(f"only hold'em high is shown down, not {shown}")
    if not draw and game.showdown != HIGH_ONLY:
        problems.append(f"only high hands are shown down, not {game.showdown.label}")
    problems += _unsupported_forced(game.forced)
    if game.rake is not None:
        problems.append("rake is not taken")
    if game.jackpot_drop is not None:
        problems.append("no jackpot drop is taken")
    if game.odd_chips is OddChipRule.EXACT:
        problems.append("odd chips are whole chips (no exact fractional shares)")
    if problems:
        return problems
    # Anything else a definition may say (a setting added later) must be left at its
    # default: the kernel would otherwise ignore it silently.
    defaults = _DRAW_GAME_DEFAULTS if draw else _GAME_DEFAULTS
    if any(getattr(game, name) != default for name, default in defaults):
        problems.append("it has settings the replay kernel does not know")
    else:
        problems += _unsupported_stakes(game.stakes)
    return problems


def _unsupported_forced(forced: ForcedBets) -> list[str]:
    if any(getattr(forced, name) != default for name, default in _FORCED_DEFAULTS):
        return ["only antes and blinds open the hand (no bring-in)"]
    return []


def _unsupported_stakes(stakes: Stakes) -> list[str]:
    if any(getattr(stakes, name) != default for name, default in _STAKES_DEFAULTS):
        return ["it has settings the replay kernel does not know"]
    return []


def _stakes_numbers(forced: ForcedBets, stakes: Stakes) -> dict[str, Any]:
    """The fields of :class:`ReplayRules` the forced bets and stakes give."""
    return {
        "ante": forced.ante,
        "big_blind_ante": forced.big_blind_ante,
        "big_blind_ante_first": forced.big_blind_ante_order is BigBlindAnteOrder.ANTE_FIRST,
        "blinds": forced.blinds,
        "first_blind_on_button": forced.first_blind_on_button,
        "bet_sizes": tuple(stakes.bet_size(r) for r in range(BETTING_ROUNDS)),
        "spreads": tuple(stakes.spread(r) for r in range(BETTING_ROUNDS)),
        "max_bets": stakes.max_bets,
        "cap_lifted_heads_up": stakes.cap_lifted_heads_up,
        "unit": stakes.unit,
    }


@dataclass(frozen=True, eq=False)
class ReplayResult:
    """Per hand: final ``stacks`` and ``payoffs`` (hands, width), ``contributed`` (what each
    seat put in, the uncalled bet handed back; None unless asked for), ``status``
    (:class:`ReplayStatus`), ``failed_action`` (the index of the first illegal action within
    the hand, or -1) and ``detail`` (the seat and numbers a status message quotes).  Per
    action, ``short_of`` (None unless asked for): at a bet or raise below a full one (an
    all-in short of it, ``LegalActions.full_total`` in the reference engine) that full
    total, else 0.  Hand ``h`` was played under ``rules[rows[h]]``.

    A hand that did not complete keeps its starting stacks, zero payoffs and zero
    contributions: nothing of it is applied.
    """

    batch: ReplayBatch
    rules: tuple[ReplayRules, ...]
    rows: Int64Array
    stacks: Int64Array
    payoffs: Int64Array
    contributed: Int64Array | None
    status: Int8Array
    failed_action: Int64Array
    detail: Int64Array
    short_of: Int64Array | None = None

    @property
    def ok(self) -> npt.NDArray[np.bool_]:
        done: npt.NDArray[np.bool_] = self.status == ReplayStatus.COMPLETED
        return done

    @property
    def completed(self) -> int:
        return int(np.count_nonzero(self.ok))

    def reason(self, hand: int) -> str | None:
        """Why hand ``hand`` stopped, in the reference engine's words (None if completed)."""
        status = ReplayStatus(int(self.status[hand]))
        if status is ReplayStatus.COMPLETED:
            return None
        seat, a, b = (int(x) for x in self.detail[hand])
        index = int(self.failed_action[hand])
        code = total = 0
        if index >= 0 and status is not ReplayStatus.TOO_FEW_ACTIONS:
            at = int(self.batch.action_offsets[hand]) + index
            code, total = int(self.batch.action_kinds[at]), int(self.batch.action_totals[at])
        live = self.rules[int(self.rows[hand])].straddles is StraddleRule.LIVE
        rule = codes.STRADDLES_LIVE if live else codes.STRADDLES_MISSISSIPPI
        return reasons.reason(
            status,
            seat=seat,
            a=a,
            b=b,
            total=total,
            code=code,
            word="bet" if code == ActionCode.BET else "raise",
            side=reasons.straddle_side(rule),
            round=a + 1,
            given=b + 1,
        )

    def message(self, hand: int) -> str | None:
        """``reason`` with the hand, the action's index and seat (None if completed)."""
        reason = self.reason(hand)
        if reason is None:
            return None
        index = int(self.failed_action[hand])
        seat = int(self.detail[hand, codes.DETAIL_SEAT])
        where = f"hand {hand}"
        if index >= 0:
            where += f", action {index}"
        if seat >= 0 and self.status[hand] != ReplayStatus.TOO_FEW_ACTIONS:
            where += f" (seat {seat})"
        return f"{where}: {reason}"

    def errors(self) -> list[str]:
        """A message for every hand that did not complete."""
        return [m for h in np.flatnonzero(~self.ok) if (m := self.message(int(h))) is not None]

    def raise_for_status(self) -> None:
        """Raise IllegalAction naming the first hand that did not complete, if any."""
        failed = np.flatnonzero(~self.ok)
        if failed.size:
            first = self.message(int(failed[0]))
            more = f" (and {failed.size - 1} more hands)" if failed.size > 1 else ""
            raise IllegalAction(f"{first}{more}")


def replay(
    game: GameDefinition,
    batch: ReplayBatch,
    *,
    contributions: bool = False,
    short_wagers: bool = False,
) -> ReplayResult:
    """Play every hand of ``batch`` under ``game`` in one compiled loop.

    Raises ValueError up front if the game or a hand is outside what the kernel plays;
    illegal actions are reported per hand in the result, never half applied.
    """
    rules = ReplayRules.from_game(game)
    rows = np.zeros(len(batch), dtype=np.int64)
    return replay_games(
        (rules,), rows, batch, contributions=contributions, short_wagers=short_wagers
    )


def replay_games(
    rules: Sequence[ReplayRules],
    rows: npt.ArrayLike,
    batch: ReplayBatch,
    *,
    contributions: bool = False,
    short_wagers: bool = False,
) -> ReplayResult:
    """Play every hand of ``batch`` in one compiled loop, hand ``h`` under ``rules[rows[h]]``
    (:meth:`ReplayRules.from_game` of each game): the hands of many stakes, or of several
    hold'em structures, in one call.

    Raises ValueError up front if a hand is outside what its game plays; illegal actions
    are reported per hand in the result, never half applied.
    """
    games = tuple(rules)
    hands = len(batch)
    chosen = _fitted(_integers(rows, "rows", 1), np.int64, "rows")
    if chosen.shape[0] != hands:
        raise ValueError("rows must name one game per hand")
    if hands and (not games or chosen.min() < 0 or chosen.max() >= len(games)):
        raise ValueError(f"rows must name games 0..{len(games) - 1}")
    check_hands(games, chosen, batch)
    assert batch.straddle_seats is not None and batch.straddle_totals is not None
    assert batch.action_seats is not None
    assert batch.hand_values is not None and batch.action_rounds is not None
    given = np.array([r.values_given for r in games], dtype=bool)
    if hands and np.any(given[chosen]) and batch.hand_values.shape[0] != hands:
        hand = int(np.argmax(given[chosen]))
        raise ValueError(f"hand {hand}: its game shows down on given values (hand_values)")
    if batch.straddle_seats.shape[1]:
        straddled = batch.straddle_seats[:, 0] >= 0
        allowed = np.array(
            [r.straddles is not StraddleRule.NONE and bool(r.blinds) for r in games], dtype=bool
        )
        refused = straddled & ~allowed[chosen] if hands else straddled
        if np.any(refused):
            hand = int(np.argmax(refused))
            raise ValueError(f"hand {hand}: its game allows no straddles")
    width = batch.stacks.shape[1]
    stacks = np.zeros((hands, width), dtype=np.int64)
    contributed = np.zeros((hands if contributions else 0, width), dtype=np.int64)
    status = np.zeros(hands, dtype=np.int8)
    failed = np.full(hands, -1, dtype=np.int64)
    detail = np.zeros((hands, codes.DETAIL_WIDTH), dtype=np.int64)
    short_of = np.zeros(batch.action_kinds.shape[0] if short_wagers else 0, dtype=np.int64)
    kernel.replay_kernel(
        batch.seats,
        batch.buttons,
        batch.stacks,
        batch.decks,
        batch.action_offsets,
        batch.action_kinds,
        batch.action_totals,
        batch.action_seats,
        kernel_table(games),
        chosen,
        batch.straddle_seats,
        batch.straddle_totals,
        TABLES,
        stacks,
        contributed,
        status,
        failed,
        detail,
        short_of,
        batch.hand_values,
        batch.action_rounds,
    )
    return ReplayResult(
        batch=batch,
        rules=games,
        rows=chosen,
        stacks=stacks,
        payoffs=stacks - batch.stacks,
        contributed=contributed if contributions else None,
        status=status,
        failed_action=failed,
        detail=detail,
        short_of=short_of if short_wagers else None,
    )


_UNPLAYED_POSTS = {
    PostKind.KILL: "kill blind",
    PostKind.POST: "new player's post",
    PostKind.DEAD: "dead small blind",
    PostKind.BRING_IN: "bring-in",
}


_PLAYED_POSTS = (PostKind.ANTE, PostKind.BIG_BLIND_ANTE, PostKind.BLIND, PostKind.STRADDLE)


def record_hand(hand: Hand) -> HandRecord:
    """The record of a hand played (or being played) by the reference engine.

    The actions come from its events (a wager is a raise when a bet stands: preflop the
    blinds, later a bet already made on the street); the deck order is rebuilt from the
    cards dealt, and positions the hand never reached hold the unused cards in order, which
    no replay reads.  Kill blinds, posts, blinds placed by a button rule and games the kernel
    does not play are refused with a ValueError.
    """
    ReplayRules.from_game(hand.game)
    if hand.blind_seats is not None:
        raise ValueError("the replay kernel posts the blinds after the button, not elsewhere")
    n = hand.n
    actions: list[Action] = []
    burns: list[Card] = []
    straddles: list[tuple[int, int]] = []
    bet_standing = bool(hand.game.forced.blinds)
    for event in hand.events:
        if isinstance(event, Posted) and event.kind not in _PLAYED_POSTS:
            noun = _UNPLAYED_POSTS.get(event.kind, event.kind.value)
            raise ValueError(
                "the replay kernel plays antes, blinds and straddles only: "
                f"seat {event.seat} posted a {noun}"
            )
        if isinstance(event, Posted) and event.kind is PostKind.STRADDLE:
            straddles.append((event.seat, event.amount))
        elif isinstance(event, Burned):
            burns.append(event.card)
        elif isinstance(event, BoardDealt):
            bet_standing = False
        elif isinstance(event, Folded):
            actions.append(Action.fold())
        elif isinstance(event, Checked):
            actions.append(Action.check())
        elif isinstance(event, Called):
            actions.append(Action.call())
        elif isinstance(event, BetOrRaised):
            wager = Action.raise_to if bet_standing else Action.bet
            actions.append(wager(event.total))
            bet_standing = True
    deck: list[int] = [-1] * kernel.cards_dealt(n)
    for k in range(n):
        seat = (hand.button + 1 + k) % n
        for r in range(kernel.HOLE_CARDS):
            deck[r * n + k] = int(hand.hole[seat][r])
    base = kernel.HOLE_CARDS * n
    for position, card in zip((base, base + 4, base + 6), burns, strict=False):
        deck[position] = int(card)
    board_positions = (base + 1, base + 2, base + 3, base + 5, base + 7)
    for position, card in zip(board_positions, hand.board, strict=False):
        deck[position] = int(card)
    unused = iter(sorted(set(range(STANDARD_CARD_COUNT)) - set(deck)))
    deck = [next(unused) if c < 0 else c for c in deck]
    return HandRecord(
        hand.starting_stacks, hand.button, tuple(deck), tuple(actions), tuple(straddles)
    )


def replay_records(
    game: GameDefinition, records: Sequence[HandRecord], *, contributions: bool = False
) -> ReplayResult:
    """Encode ``records`` and replay them: :func:`replay` of :meth:`ReplayBatch.from_records`."""
    return replay(game, ReplayBatch.from_records(records), contributions=contributions)
