"""PHH hands replayed in batches by the compiled replay kernel (:mod:`simulations.engine.replay`).

The kernel plays hold'em (two down cards, flop, turn and river) with antes and blinds under
any structure, with the odd-chip rules that give whole chips; it takes a hand as its starting
stacks, a deck order and the actions as the engine's kinds (fold, check, call, bet, raise).
A hand of a PHH file is handed to it when everything it holds is in that range: its game
laid out with its stakes is one the kernel plays (no straddles, no big-blind ante, no exact
odd chips: the Pluribus hands that record half chips go to the reference engine), every
card is given, and each line reads as the kernel's action by a simple count of the chips
in front of each player (a ``cc`` is a check when he owes nothing, a ``cbr`` a raise when a
bet stands).

Hands where that reading meets something the reference engine would note (a short all-in
raise, a check asked of a player nobody could answer, heads-up with equal blinds) are left
to the reference engine, so that the notes are the same either way.  A hand the kernel
plays is reported as passed only when it completes, each player's chips put in (the
uncalled bet returned) are those the count found, which ties every action to its player,
and its final stacks are the history's finishing stacks; every other hand is replayed by
the reference engine, whose verdict is the one reported.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from simulations.cards import STANDARD_CARD_COUNT
from simulations.engine import replay_kernel as kernel
from simulations.engine.game import GameDefinition
from simulations.engine.pots import OddChipRule, uncalled_bet
from simulations.engine.replay import ReplayBatch, ReplayRules, replay
from simulations.phh.lines import BET_OR_RAISE, CHECK_OR_CALL, DEAL_BOARD, DEAL_HOLE, FOLD, SHOW
from simulations.phh.model import PhhError, PhhHand
from simulations.phh.options import ReplayOptions
from simulations.phh.read import ReadFile
from simulations.phh.replay import Games, base_game, has_fractions, laid_game
from simulations.verify.results import Outcome, ScenarioResult

_BOARD_STREETS = (3, 1, 1)  # flop, turn, river


@dataclass
class _Batch:
    """The hands of one game: where each came from, and its encoding."""

    game: GameDefinition
    keys: list[tuple[int, int, PhhHand]] = field(default_factory=list)
    stacks: list[tuple[int, ...]] = field(default_factory=list)
    decks: list[list[int]] = field(default_factory=list)
    kinds: list[int] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    offsets: list[int] = field(default_factory=lambda: [0])
    contributed: list[list[int]] = field(default_factory=list)


def kernel_game_of(hand: PhhHand, options: ReplayOptions, games: Games) -> GameDefinition | None:
    """The hand's game if the kernel plays it (None otherwise)."""
    if has_fractions(hand.finishing_stacks) or hand.finishing_stacks is None:
        return None
    try:
        game, straddles, notes = laid_game(hand, options, games)
    except PhhError:
        return None
    if straddles or notes or game.odd_chips is OddChipRule.EXACT:
        return None
    blinds = game.forced.blinds
    if hand.player_count == 2 and len(blinds) == 2 and blinds[0] == blinds[1]:
        return None  # whose blind is the big one is the reference engine's note to make
    if not 2 <= hand.player_count <= min(game.max_players, kernel.MAX_SEATS):
        return None
    return game


def _deck(hand: PhhHand) -> list[int] | None:
    """The deck order the kernel deals the history's cards from: the down cards one at a
    time from the button's left (``p1``), then burn, flop, burn, turn, burn, river; burns
    and cards never reached are cards the history does not show, lowest first."""
    lines = hand.lines
    assert lines is not None
    n = hand.player_count
    holes: list[tuple[int, ...] | None] = [None] * n
    board: list[int] = []
    streets = 0
    for line in lines:
        if line.verb == DEAL_HOLE:
            if line.cards is None or len(line.cards) != kernel.HOLE_CARDS or holes[line.seat]:
                return None
            holes[line.seat] = line.cards
        elif line.verb == DEAL_BOARD:
            if line.cards is None or streets >= 3 or len(line.cards) != _BOARD_STREETS[streets]:
                return None
            board.extend(line.cards)
            streets += 1
    if any(cards is None for cards in holes):
        return None
    shown = {card for cards in holes if cards is not None for card in cards}
    shown.update(board)
    spare = (card for card in range(STANDARD_CARD_COUNT) if card not in shown)
    deck = [cards[0] for cards in holes if cards is not None]
    deck += [cards[1] for cards in holes if cards is not None]
    board_cards = iter(board)
    for count in _BOARD_STREETS:
        deck.append(next(spare))
        for _ in range(count):
            card = next(board_cards, None)
            deck.append(next(spare) if card is None else card)
    return deck


def _actions(hand: PhhHand, game: GameDefinition) -> tuple[list[int], list[int], list[int]] | None:
    """The kernel's action kinds and totals for the hand's player lines, and each player's
    chips put in (the uncalled bet returned), counted from the lines; None where the count
    meets what the reference engine would note, or cannot say."""
    lines = hand.lines
    assert lines is not None
    n = hand.player_count
    stacks = list(hand.starting_stacks)
    put = [0] * n
    round_bets = [0] * n
    folded = [False] * n
    forced = game.forced
    if forced.ante:
        for seat in range(n):
            paid = min(forced.ante, stacks[seat])
            stacks[seat] -= paid
            put[seat] += paid
    blinds = forced.blinds
    posters = [1, 0] if n == 2 and len(blinds) == 2 else list(range(len(blinds)))
    for seat, blind in zip(posters, blinds, strict=False):
        paid = min(blind, stacks[seat])
        stacks[seat] -= paid
        put[seat] += paid
        round_bets[seat] += paid
    to_match = blinds[-1] if blinds else 0
    raised_by = to_match  # the last full bet or raise
    minimum = game.stakes.small_bet
    fixed = game.stakes.big_bet is not None
    street = 0
    kinds: list[int] = []
    totals: list[int] = []
    for line in lines:
        verb = line.verb
        if verb in (DEAL_HOLE, SHOW):
            continue
        if verb == DEAL_BOARD:
            street += 1
            round_bets = [0] * n
            to_match = raised_by = 0
            continue
        seat = line.seat
        if verb == FOLD:
            folded[seat] = True
            kinds.append(kernel.FOLD)
            totals.append(0)
        elif verb == CHECK_OR_CALL:
            owed = min(to_match - round_bets[seat], stacks[seat])
            if owed <= 0:
                others = [s for s in range(n) if s != seat and not folded[s]]
                if all(stacks[s] == 0 for s in others):
                    return None  # a check nobody could answer: the reference engine notes it
                kinds.append(kernel.CHECK)
            else:
                stacks[seat] -= owed
                put[seat] += owed
                round_bets[seat] += owed
                kinds.append(kernel.CALL)
            totals.append(0)
        elif verb == BET_OR_RAISE:
            total = line.amount
            assert total is not None
            added = total - round_bets[seat]
            if added <= 0 or added > stacks[seat]:
                return None
            size = game.stakes.bet_size(street) if fixed else max(raised_by, minimum)
            if total - to_match < size and added == stacks[seat]:
                return None  # a short all-in: the reference engine notes the rule it applied
            kinds.append(kernel.RAISE if to_match else kernel.BET)
            totals.append(total)
            raised_by = max(raised_by, total - to_match)
            to_match = total
            stacks[seat] -= added
            put[seat] += added
            round_bets[seat] = total
        else:
            return None
    seat, excess = uncalled_bet(put)
    if seat >= 0:
        put[seat] -= excess
    return kinds, totals, put


def _encode(batch: _Batch, number: int, index: int, hand: PhhHand) -> bool:
    deck = _deck(hand)
    if deck is None:
        return False
    counted = _actions(hand, batch.game)
    if counted is None:
        return False
    kinds, totals, put = counted
    batch.keys.append((number, index, hand))
    batch.stacks.append(hand.starting_stacks)
    batch.decks.append(deck)
    batch.kinds.extend(kinds)
    batch.totals.extend(totals)
    batch.offsets.append(len(batch.kinds))
    batch.contributed.append(put)
    return True


def _play(batch: _Batch) -> dict[tuple[int, int], ScenarioResult]:
    started = time.perf_counter()
    hands = len(batch.keys)
    widest = max(len(s) for s in batch.stacks)
    stacks = np.zeros((hands, widest), dtype=np.int64)
    decks = np.zeros((hands, kernel.cards_dealt(widest)), dtype=np.int8)
    seats = np.empty(hands, dtype=np.int8)
    for row, (chips, deck) in enumerate(zip(batch.stacks, batch.decks, strict=True)):
        n = len(chips)
        stacks[row, :n] = chips
        decks[row, : len(deck)] = deck
        seats[row] = n
        used = set(deck)
        decks[row, len(deck) :] = [c for c in range(STANDARD_CARD_COUNT) if c not in used][
            : decks.shape[1] - len(deck)
        ]
    encoded = ReplayBatch(
        seats=seats,
        buttons=seats - 1,
        stacks=stacks,
        decks=decks,
        action_offsets=np.array(batch.offsets, dtype=np.int64),
        action_kinds=np.array(batch.kinds, dtype=np.int8),
        action_totals=np.array(batch.totals, dtype=np.int64),
    )
    result = replay(batch.game, encoded, contributions=True)
    assert result.contributed is not None
    each = (time.perf_counter() - started) / hands
    done: dict[tuple[int, int], ScenarioResult] = {}
    completed = result.ok
    for row, (number, index, hand) in enumerate(batch.keys):
        if not completed[row]:
            continue
        n = len(batch.stacks[row])
        if list(result.contributed[row, :n]) != batch.contributed[row]:
            continue
        assert hand.finishing_stacks is not None
        if list(result.stacks[row, :n]) != list(hand.finishing_stacks):
            continue
        done[(number, index)] = ScenarioResult(
            file=hand.source, name=hand.name, outcome=Outcome.PASSED, seconds=each
        )
    return done


def _plays(game: GameDefinition) -> bool:
    try:
        ReplayRules.from_game(game)
    except ValueError:
        return False
    return True


def replay_covered(
    reads: Sequence[ReadFile], options: ReplayOptions
) -> dict[tuple[int, int], ScenarioResult]:
    """The hands of ``reads`` the kernel replays to their finishing stacks, by (file number,
    hand number); every other hand is the reference engine's to replay."""
    games: Games = {}
    # The variants whose game the kernel plays at all (hold'em's streets and showdown), and
    # one batch per game laid out (equal games share one), None where the kernel cannot.
    variants: dict[str, bool] = {}
    batches: dict[GameDefinition, _Batch | None] = {}
    for number, read in enumerate(reads):
        for index, entry in enumerate(read.hands):
            hand = entry.hand
            if hand is None:
                continue
            if hand.variant not in variants:
                variants[hand.variant] = _plays(base_game(hand))
            if not variants[hand.variant]:
                continue
            game = kernel_game_of(hand, options, games)
            if game is None:
                continue
            if game not in batches:
                batches[game] = _Batch(game) if _plays(game) else None
            batch = batches[game]
            if batch is not None:
                _encode(batch, number, index, hand)
    done: dict[tuple[int, int], ScenarioResult] = {}
    for batch in batches.values():
        if batch is not None and batch.keys:
            done.update(_play(batch))
    return done
