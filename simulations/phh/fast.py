"""PHH hands replayed in batches by the compiled replay kernel (:mod:`simulations.engine.replay`).

The kernel plays hold'em (two down cards, flop, turn and river) with antes and blinds under
any structure, with the odd-chip rules that give whole chips; it takes a hand as its starting
stacks, a deck order and the actions as the engine's kinds (fold, check, call, bet, raise).
A hand of a PHH file is handed to it when everything it holds is in that range: its game
laid out with its stakes is one the kernel plays (antes, a big-blind ante, blinds and
straddles; no exact odd chips: the Pluribus hands that record half chips go to the
reference engine), every
card is given, and each line reads as the kernel's action by a simple count of the chips
in front of each player (a ``cc`` is a check when he owes nothing, a ``cbr`` a raise when a
bet stands).  Every game laid out is a row of the kernel's rules (:class:`KernelGames`), so
that the hands of every stakes are played in one call.

Hands where that reading meets something the reference engine would note but the kernel
cannot (a check asked of a player nobody could answer) are left to the reference engine, so
that the notes are the same either way; a short all-in, which the kernel reports with the
full bet it fell below, is noted as the reference engine notes it, and so is a heads-up
hand with equal blinds whose button's blind is taken as the big one (a game row of its
own, the blinds posted left of the button).  A hand the kernel plays is reported as passed
only when it completes, each player's chips put in (the uncalled bet returned) are those the
count found, which ties every action to its player, and its final stacks are the history's
finishing stacks; every other hand is replayed by the reference engine, whose verdict is the
one reported.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from simulations.cards import STANDARD_CARD_COUNT
from simulations.engine import replay_kernel as kernel
from simulations.engine.game import GameDefinition
from simulations.engine.pots import OddChipRule, uncalled_bet
from simulations.engine.replay import ReplayBatch, ReplayRules, replay_games
from simulations.engine.variants import POKER_VARIANTS
from simulations.phh.count import count_line
from simulations.phh.fast_draw import DrawnHand, drawn_hand, showdown_values
from simulations.phh.lines import (
    BET_OR_RAISE,
    BRING_IN,
    CHECK_OR_CALL,
    DEAL_BOARD,
    DEAL_HOLE,
    DRAW,
    FOLD,
    SHOW,
)
from simulations.phh.model import PhhHand
from simulations.phh.options import ReplayOptions
from simulations.phh.read import ReadFile, required_stakes
from simulations.phh.replay import (
    button_acts_last,
    hand_stakes,
    has_fractions,
    lay_game,
    short_all_in_note,
)
from simulations.phh.results import Outcome, ScenarioResult
from simulations.phh.scan import LINE_BET_RAISE, LINE_CHECK_CALL, LINE_FOLD
from simulations.phh.stakes import HandStakes, stakes_parts
from simulations.rules import betting
from simulations.rules.tiers import plain_python

_BOARD_STREETS = (3, 1, 1)  # flop, turn, river
# The forced bets' rules (simulations.rules.betting) as plain Python over the count's lists.
_post_antes = plain_python(betting.post_antes)
_post_blinds = plain_python(betting.post_blinds)
_post_live = plain_python(betting.post_live)
# A player's line as the kernel's action, the count's own rule (simulations.phh.count), as
# plain Python over the count's lists; the verbs it reads by their codes in the scan.
_count_line = plain_python(count_line)
_LINE_CODES = {FOLD: LINE_FOLD, CHECK_OR_CALL: LINE_CHECK_CALL, BET_OR_RAISE: LINE_BET_RAISE}
_BETTING = frozenset({FOLD, CHECK_OR_CALL, BET_OR_RAISE, BRING_IN})  # a player's turn taken


@dataclass(frozen=True)
class KernelGame:
    """The kernel's rules for a hand's game, its straddles as (seat, total), and the game
    laid out for the first hand of its kind (variant, table size and forced bets' form):
    its rules name the notes; ``notes``: those the reference engine takes for every hand
    of the row (the button's blind taken as the big one, heads-up)."""

    game: GameDefinition
    rules: ReplayRules
    straddles: tuple[tuple[int, int], ...] = ()
    notes: tuple[str, ...] = ()


class KernelGames:
    """The games a run's hands are played under by the kernel, numbered in the order first
    met: a row of the kernel's rules for each variant and stakes.

    A game is laid out in full (:func:`~simulations.phh.replay.lay_game`, the kernel's rules
    read from it) once per variant and form of its forced bets and stakes (straddles,
    whether there are blinds, a bring-in, a cap); other stakes of that form only replace its
    forced bets and stakes (:func:`~simulations.phh.stakes.stakes_parts`,
    :meth:`ReplayRules.with_stakes`), which gives the very rules a full layout gives: the
    game checks its forced bets and stakes against its other settings for nothing else, and
    the table size only against its fewest and most players.  Stakes that lay out the same
    forced bets, stakes and straddles (at another table size, say) share a row."""

    def __init__(self, options: ReplayOptions) -> None:
        self.options = options
        self.games: list[KernelGame] = []
        self._rows: dict[Hashable, int] = {}
        self._bases: dict[str, GameDefinition | None] = {}
        self._forms: dict[Hashable, KernelGame | None] = {}  # the first laid in full
        self._laid: dict[Hashable, int] = {}  # the row of each form's forced bets and stakes

    def known(self, key: Hashable) -> int | None:
        """The row laid out for ``key`` (-1: not the kernel's), None if not laid out yet."""
        return self._rows.get(key)

    def row(
        self,
        key: Hashable,
        variant: str,
        stakes: HandStakes,
        players: int,
        first_by_p1: bool = False,
    ) -> int:
        """The row of ``variant``'s game laid out with ``stakes`` for ``players`` (whole
        chips in the finishing stacks), or -1 where the kernel does not play it; ``key``
        names those three and ``first_by_p1`` as the caller reads them (the scan's bytes,
        say), and a game is laid out once however its hands were read.  ``first_by_p1``:
        the hand's first action is ``p1``'s, which heads-up with equal blinds may say whose
        blind is the big one (:func:`~simulations.phh.replay.button_acts_last`)."""
        found = self._rows.get(key)
        if found is None:
            same = (variant, stakes, players, first_by_p1)
            found = self._rows.get(same)
            if found is None:
                found = self._rows[same] = self._row(variant, stakes, players, first_by_p1)
            self._rows[key] = found
        return found

    def rules(self) -> list[ReplayRules]:
        return [game.rules for game in self.games]

    def straddle_table(self) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """Each game's straddles: seats (-1 after the last) and totals, a row per game."""
        most = max((len(game.straddles) for game in self.games), default=0)
        seats = np.full((len(self.games), most), -1, dtype=np.int8)
        totals = np.zeros((len(self.games), most), dtype=np.int64)
        for row, game in enumerate(self.games):
            for k, (seat, total) in enumerate(game.straddles):
                seats[row, k] = seat
                totals[row, k] = total
        return seats, totals

    def plays(self, variant: str) -> bool:
        """Whether the kernel plays ``variant``'s structure under some stakes."""
        return self._base(variant) is not None

    def _base(self, variant: str) -> GameDefinition | None:
        """The variant's game if the kernel plays its structure at all (hold'em's streets
        and showdown, or a draw game's betting) before any stakes are laid on it."""
        if variant not in self._bases:
            found = POKER_VARIANTS.get(variant)
            base = None if found is None else found.game()
            if base is not None and kernel_rules(base) is None:
                base = None
            self._bases[variant] = base
        return self._bases[variant]

    def _row(self, variant: str, stakes: HandStakes, players: int, first_by_p1: bool) -> int:
        base = self._base(variant)
        if base is None:
            return -1
        given = {
            "antes": stakes.antes,
            "blinds_or_straddles": stakes.blinds_or_straddles,
            "bring_in": stakes.bring_in,
            "small_bet": stakes.small_bet,
            "big_bet": stakes.big_bet,
            "min_bet": stakes.min_bet,
        }
        if any(given[name] is None for name in required_stakes(base)):
            return -1  # the reader names the field missing
        if 0 in (stakes.small_bet, stakes.big_bet, stakes.min_bet):
            return -1  # the reader requires a positive bet size
        try:
            laid = stakes_parts(base, stakes, players, players - 1)
        except ValueError:
            return -1  # stakes the engine cannot lay out: the reference engine names them
        forced = laid.forced
        blinds = forced.blinds
        left = False
        notes: tuple[str, ...] = ()
        if players == 2 and len(blinds) == 2 and blinds[0] == blinds[1]:
            # Whose blind is the big one: the button's, posted left of the button as at a
            # bigger table, where the options or the history say so.
            left, notes = button_acts_last(self.options, first_by_p1)
            if left != first_by_p1:
                # The options' blinds give the first turn to the other player: the kernel
                # plays a hand's actions in its own order, so the reference engine names
                # the line out of turn.
                return -1
            if left and forced.big_blind_ante:
                return -1  # a big-blind ante on p1, the small blind: the reference engine's
        form = (
            variant,
            laid.straddle_rule,
            bool(blinds),
            bool(forced.bring_in),
            laid.stakes.max_bets,
            laid.stakes.cap_lifted_heads_up,
        )
        first = self._forms.get(form)
        if first is None:
            # Laid out in full until once the kernel plays it: what keeps the kernel from a
            # game may be these stakes' own (a big-blind ante, say).
            first = self._forms[form] = self._laid_in_full(base, stakes, players)
            if first is None:
                return -1
        game = first.game
        low, high = max(game.min_players, len(blinds), 2), min(game.max_players, kernel.MAX_SEATS)
        if not low <= players <= high:
            return -1
        same = (form, forced, laid.stakes, laid.straddles, left, notes)
        row = self._laid.get(same)
        if row is None:
            try:
                rules = first.rules.with_stakes(forced, laid.stakes)
            except ValueError:
                rules = None
            row = -1
            if rules is not None:
                if left:
                    rules = replace(rules, heads_up_blinds_left=True)
                row = len(self.games)
                self.games.append(KernelGame(game, rules, laid.straddles, notes))
            self._laid[same] = row
        return row

    def _laid_in_full(
        self, base: GameDefinition, stakes: HandStakes, players: int
    ) -> KernelGame | None:
        """The game laid out with ``stakes``, if the kernel plays it."""
        try:
            game, straddles, notes = lay_game(base, stakes, players, False, self.options)
        except ValueError:
            return None  # stakes the engine cannot lay out: the reference engine names them
        if notes or game.odd_chips is OddChipRule.EXACT:
            return None
        rules = kernel_rules(game)
        if rules is None:
            return None
        return KernelGame(game, rules, straddles)


def kernel_rules(game: GameDefinition) -> ReplayRules | None:
    """The kernel's rules for ``game``: hold'em's, or a draw game's betting (None: the
    kernel plays neither)."""
    for read in (ReplayRules.from_game, ReplayRules.from_draw_game):
        try:
            return read(game)
        except ValueError:
            continue
    return None


def kernel_row(hand: PhhHand, games: KernelGames) -> int:
    """The kernel's row of the hand's game, or -1 if the kernel does not play it."""
    if hand.finishing_stacks is None or has_fractions(hand.finishing_stacks):
        return -1
    if not games.plays(hand.variant):
        return -1  # a draw or stud game, say: no stakes make it the kernel's
    stakes = hand_stakes(hand)
    n = hand.player_count
    first_by_p1 = False
    if n == 2 and hand.lines is not None:
        first = next((line for line in hand.lines if line.verb in _BETTING), None)
        first_by_p1 = first is not None and first.seat == 0
    return games.row((hand.variant, stakes, n, first_by_p1), hand.variant, stakes, n, first_by_p1)


def straddle_arrays(
    games: KernelGames, rows: Sequence[int] | npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """The straddle seats and totals of hands of the games ``rows``, as a batch takes them
    (seat -1 after a hand's last)."""
    seats, totals = games.straddle_table()
    chosen = np.asarray(rows, dtype=np.int64)
    return seats[chosen], totals[chosen]


def short_notes(
    game: GameDefinition, short_of: Sequence[int], seats: Sequence[int], totals: Sequence[int]
) -> tuple[str, ...]:
    """The reference engine's notes of a hand's short all-ins, in the order of its actions:
    ``short_of[i]`` the full bet action ``i`` fell below (0: none), by ``seats[i]`` to
    ``totals[i]``."""
    return tuple(
        short_all_in_note(game, seats[i], full, totals[i])
        for i, full in enumerate(short_of)
        if full
    )


@dataclass
class _Batch:
    """The hands handed to the kernel: where each came from, its row, and its encoding."""

    keys: list[tuple[int, int, PhhHand]] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)
    stacks: list[tuple[int, ...]] = field(default_factory=list)
    decks: list[list[int]] = field(default_factory=list)
    kinds: list[int] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    offsets: list[int] = field(default_factory=lambda: [0])
    contributed: list[list[int]] = field(default_factory=list)
    # A draw game's hands: the cards each seat shows down and every action's betting round.
    drawn: list[DrawnHand] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)


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


def _actions(
    hand: PhhHand, game: KernelGame
) -> tuple[list[int], list[int], list[int], list[int], list[int]] | None:
    """The kernel's action kinds and totals for the hand's player lines, the seat of each,
    each player's chips put in (the uncalled bet returned), counted from the lines, and the
    betting round of each (a draw game's: the draws begun before it); None where the count
    meets what the reference engine would note, or cannot say."""
    lines = hand.lines
    assert lines is not None
    rules = game.rules
    n = hand.player_count
    stacks = list(hand.starting_stacks)
    put = [0] * n
    dead = [0] * n  # a big-blind ante: toward no bet, never handed back
    round_bets = [0] * n
    folded = [False] * n
    # The forced bets as the kernel posts them (simulations.rules.betting); the button is the
    # last seat, ``p1`` the first after it.
    _post_antes(n, n - 1, rules.ante, stacks, put)
    blinds = rules.blinds
    _post_blinds(
        n,
        n - 1,
        blinds,
        rules.first_blind_on_button,
        rules.heads_up_blinds_left,
        rules.big_blind_ante,
        rules.big_blind_ante_first,
        stacks,
        put,
        round_bets,
        dead,
    )
    to_match = blinds[-1] if blinds else 0
    for seat, straddle in game.straddles:
        if straddle > stacks[seat]:
            return None  # the reference engine names the straddle it refuses
        _post_live(seat, straddle, stacks, put, round_bets)
        to_match = straddle
    kinds: list[int] = []
    totals: list[int] = []
    seats: list[int] = []
    rounds: list[int] = []
    draws = rules.values_given  # a draw game: its betting rounds end at its draws
    betting_round = 0
    drawing = False
    for line in lines:
        verb = line.verb
        if verb == DRAW and draws:
            if not drawing:
                betting_round += 1
                round_bets = [0] * n
                to_match = 0
            drawing = True
            continue
        if verb in (DEAL_HOLE, SHOW):
            drawing = drawing and verb == DEAL_HOLE
            continue
        drawing = False
        if verb == DEAL_BOARD:
            round_bets = [0] * n
            to_match = 0
            continue
        verb_code = _LINE_CODES.get(verb)
        if verb_code is None:
            return None
        seat = line.seat
        amount = line.amount
        kind, total, to_match = _count_line(
            verb_code,
            seat,
            0 if amount is None else amount,
            n,
            to_match,
            stacks,
            put,
            round_bets,
            folded,
        )
        if kind < 0:
            return None
        seats.append(seat)
        rounds.append(betting_round)
        kinds.append(kind)
        totals.append(total)
    seat, excess = uncalled_bet([chips - d for chips, d in zip(put, dead, strict=True)])
    if seat >= 0:
        put[seat] -= excess
    return kinds, totals, seats, put, rounds


def _encode(
    batches: tuple[_Batch, _Batch], number: int, index: int, hand: PhhHand, games: KernelGames
) -> None:
    """Add the hand to the batch of its kind (hold'em, a draw game) if the kernel plays it."""
    row = kernel_row(hand, games)
    if row < 0:
        return
    game = games.games[row]
    drawn = None
    if game.rules.values_given:
        batch = batches[1]
        drawn = drawn_hand(hand, game.game)
        if drawn is None:
            return
        deck: list[int] = []  # nothing is dealt from it: the values are given
    else:
        batch = batches[0]
        dealt = _deck(hand)
        if dealt is None:
            return
        deck = dealt
    counted = _actions(hand, game)
    if counted is None:
        return
    kinds, totals, seats, put, rounds = counted
    if drawn is not None:
        batch.drawn.append(drawn)
        batch.rounds.extend(rounds)
    batch.keys.append((number, index, hand))
    batch.rows.append(row)
    batch.stacks.append(hand.starting_stacks)
    batch.decks.append(deck)
    batch.kinds.extend(kinds)
    batch.totals.extend(totals)
    batch.seats.extend(seats)
    batch.offsets.append(len(batch.kinds))
    batch.contributed.append(put)


def _play(batch: _Batch, games: KernelGames) -> dict[tuple[int, int], ScenarioResult]:
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
    straddle_seats, straddle_totals = straddle_arrays(games, batch.rows)
    encoded = ReplayBatch(
        seats=seats,
        buttons=seats - 1,
        stacks=stacks,
        decks=decks,
        action_offsets=np.array(batch.offsets, dtype=np.int64),
        action_kinds=np.array(batch.kinds, dtype=np.int8),
        action_totals=np.array(batch.totals, dtype=np.int64),
        straddle_seats=straddle_seats,
        straddle_totals=straddle_totals,
        action_seats=np.array(batch.seats, dtype=np.int8),  # each line's player, in turn
        hand_values=_values(batch, games, widest) if batch.drawn else None,
        action_rounds=np.array(batch.rounds, dtype=np.int8) if batch.drawn else None,
    )
    result = replay_games(games.rules(), batch.rows, encoded, contributions=True, short_wagers=True)
    assert result.contributed is not None and result.short_of is not None
    each = (time.perf_counter() - started) / hands
    done: dict[tuple[int, int], ScenarioResult] = {}
    completed = result.ok.tolist()
    final = result.stacks.tolist()
    contributed = result.contributed.tolist()
    short_of = result.short_of.tolist()
    for row, (number, index, hand) in enumerate(batch.keys):
        if not completed[row]:
            continue
        n = len(batch.stacks[row])
        if contributed[row][:n] != batch.contributed[row]:
            continue
        assert hand.finishing_stacks is not None
        if final[row][:n] != list(hand.finishing_stacks):
            continue
        start, stop = batch.offsets[row], batch.offsets[row + 1]
        game = games.games[batch.rows[row]]
        notes = game.notes + short_notes(
            game.game, short_of[start:stop], batch.seats[start:stop], batch.totals[start:stop]
        )
        done[(number, index)] = ScenarioResult(
            file=hand.source, name=hand.name, outcome=Outcome.PASSED, seconds=each, notes=notes
        )
    return done


def _values(batch: _Batch, games: KernelGames, widest: int) -> npt.NDArray[np.int64]:
    """The showdown values of the batch's draw hands (hands, ``widest``), the hands of each
    game ranked together."""
    table = np.zeros((len(batch.drawn), widest), dtype=np.int64)
    by_game: dict[int, list[int]] = {}
    for position, row in enumerate(batch.rows):
        by_game.setdefault(id(games.games[row].game), []).append(position)
    for positions in by_game.values():
        game = games.games[batch.rows[positions[0]]].game
        ranked = showdown_values(game, [batch.drawn[p] for p in positions])
        for position, values in zip(positions, ranked, strict=True):
            table[position, : len(values)] = values
    return table


def replay_covered(
    reads: Sequence[ReadFile], options: ReplayOptions, games: KernelGames | None = None
) -> dict[tuple[int, int], ScenarioResult]:
    """The hands of ``reads`` the kernel replays to their finishing stacks, by (file number,
    hand number), in one kernel call; every other hand is the reference engine's to replay.
    ``games`` keeps the games laid out for the other hands of a run."""
    if games is None:
        games = KernelGames(options)
    batches = (_Batch(), _Batch())  # hold'em's hands, and draw games' (values given)
    for number, read in enumerate(reads):
        for index, entry in enumerate(read.hands):
            if entry.hand is not None:
                _encode(batches, number, index, entry.hand, games)
    done: dict[tuple[int, int], ScenarioResult] = {}
    for batch in batches:
        if batch.keys:
            done.update(_play(batch, games))
    return done
