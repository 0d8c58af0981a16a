"""The exhaustion job played by the reference engine: a real
:class:`~simulations.engine.hand.Hand` per trial, on the deck and the decisions the kernel
(:mod:`simulations.models.exhaustion_kernel`) used for the same seed, its outcome read from
the hand's events.

The player makes the decisions of :mod:`simulations.models.exhaustion_policy` through the
hand's legal actions.  A player can fold only when facing a bet, so on each betting round the
first player who stays to act makes it a bet (bets, completes the bring-in, raises the big
blind), the others who stay call, and those who fold check until the bet comes to them and
then fold; the bring-in is always paid.  Who folds is decided for the whole round when it
opens (:func:`~simulations.models.exhaustion_policy.round_folds`), so it does not depend on
the order of acting.  A draw discards what the draw policy throws; a pass hands on the first
cards asked for (it changes nothing the job measures).  With a draw-count law a player
discards the law's number of cards (drawn from his uniform for the draw), the first cards
held.  Stacks are deep enough that no one is ever all in.

The hand's dealer reshuffles with :class:`ScriptedShuffles`, a generator whose permutations
come from the hand's reshuffle stream, as the kernel's do.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from simulations.engine.actions import Action, ActionKind, LegalActions
from simulations.engine.events import (
    BoardDealt,
    Burned,
    Discarded,
    Event,
    Exhausted,
    Folded,
    HoleDealt,
    OutOfCards,
    Reshuffled,
)
from simulations.engine.hand import Hand
from simulations.engine.phases import Bet, Deal, Draw
from simulations.models import exhaustion_kernel as k
from simulations.models.exhaustion import Table
from simulations.models.exhaustion_policy import keep_cards, round_folds, start_score

STACK = 1_000_000


class ScriptedShuffles(np.random.Generator):
    """A generator whose :meth:`permutation` of ``n`` is the kernel's reshuffle of ``n``
    cards, drawn from the hand's reshuffle stream (nothing else of it is used)."""

    def __init__(self, seed: int) -> None:
        super().__init__(np.random.PCG64(0))
        self._stream = np.empty(1, dtype=np.uint64)
        k.reshuffle_state(np.uint64(seed), self._stream)

    def permutation(self, x: Any, axis: int = 0) -> Any:
        order = np.empty(int(x), dtype=np.int64)
        k.permutation(self._stream, int(x), order)
        return order


class Player:
    """The decisions of every seat of one reference hand."""

    def __init__(self, table: Table, uniforms: npt.NDArray[np.float64]) -> None:
        self.table = table
        self.uniforms = uniforms
        # The row of uniforms of each betting round (and, with a law, each draw).
        self.rounds = {
            index: r
            for r, index in enumerate(
                i
                for i, p in enumerate(table.game.phases)
                if isinstance(p, Bet) or (table.by_law and isinstance(p, Draw))
            )
        }
        self.folds: dict[int, npt.NDArray[np.bool_]] = {}
        self.wagered: set[int] = set()
        self.scores = np.zeros(table.players, dtype=np.int64)
        self.keep = np.empty(16, dtype=np.bool_)

    def act(self, hand: Hand, legal: LegalActions) -> Action:
        choice = legal.choice
        if choice is not None:
            if choice.kind is ActionKind.DRAW:
                t = self.table
                if t.by_law:  # the law's number of cards, the first cards held
                    u = self.uniforms[self.rounds[hand.phase], legal.seat]
                    count = min(int(k.law_count(t.law, u)), len(choice.cards))
                    return Action.draw(list(choice.cards[:count]))
                cards = np.array(choice.cards, dtype=np.int64)
                keep_cards(cards, len(cards), int(t.family), t.draw_rank, self.keep)
                return Action.draw([c for i, c in enumerate(choice.cards) if not self.keep[i]])
            return choice.action(choice.cards[: choice.fewest])
        phase = hand.phase
        folds = self.folds.get(phase)
        if folds is None:
            folds = self._open_round(hand, self.rounds[phase])
            self.folds[phase] = folds
        if legal.bring_in is not None:
            return Action.bring_in()
        if folds[legal.seat]:
            return Action.fold() if legal.can_fold else Action.check()
        if phase not in self.wagered and legal.wager is not None:
            self.wagered.add(phase)
            return legal.wager_action(legal.wager[0])
        return Action.check() if legal.can_check else Action.call()

    def _open_round(self, hand: Hand, r: int) -> npt.NDArray[np.bool_]:
        t = self.table
        live = np.array([not f for f in hand.folded], dtype=np.bool_)
        by_threshold = r == 0 and t.threshold >= 0
        if by_threshold:
            for s in range(t.players):
                cards = np.array(hand.hole[s], dtype=np.int64)
                if t.family.low:
                    score = keep_cards(cards, len(cards), int(t.family), t.draw_rank, self.keep)
                else:
                    score = start_score(cards, len(cards))
                self.scores[s] = score
        folds = np.zeros(t.players, dtype=np.bool_)
        round_folds(
            live, self.uniforms[r], t.fold_chance, by_threshold, self.scores, t.threshold, folds
        )
        return folds


def draws_for(table: Table, seed: int) -> tuple[list[int], npt.NDArray[np.float64]]:
    """The deck order and the uniforms (a row per betting round) of the hand of ``seed``."""
    size = int(table.settings[k.S_DECK])
    deck = np.empty(size, dtype=np.int64)
    uniforms = np.empty((table.rounds, table.players), dtype=np.float64)
    k.trial_draws(np.uint64(seed), size, deck, uniforms)
    return [int(c) for c in deck], uniforms


def play_reference(table: Table, seed: int) -> tuple[int, tuple[int, ...], Hand]:
    """Play the hand of ``seed`` through the engine up to its last deal, draw or pass: its
    outcome (the kernel's procedure bits), its numbers (the kernel's ``X_*`` columns, read
    from the events) and the hand (unfinished, unless all but one folded before)."""
    deck, uniforms = draws_for(table, seed)
    n = table.players
    hand = Hand(table.game, [STACK] * n, n - 1, deck=deck, rng=ScriptedShuffles(seed))
    player = Player(table, uniforms)
    last = table.last_card
    folded_before = 0
    start: int | None = None  # the first event of the last deal, draw or pass
    # Nothing after the last deal, draw or pass changes the outcome: the hand stops there.
    while not hand.finished and hand.phase <= last:
        phase = hand.phase
        seen = len(hand.events)
        hand.act(player.act(hand, hand.legal_actions()))
        if phase < last:
            folded_before += sum(isinstance(e, Folded) for e in hand.events[seen:])
            if hand.phase >= last and not hand.finished:
                start = next(
                    (i for i in range(seen, len(hand.events)) if _card_event(hand.events[i])),
                    len(hand.events),
                )
    live = n - folded_before
    if live <= 1 or start is None:  # won before the last deal
        stats = (min(live, 1) if live <= 1 else live, -1, 0, 0, _new_stubs(hand.events))
        return outcome_of(hand), stats, hand
    return outcome_of(hand), numbers_of(table, hand, live, start), hand


def _card_event(event: Event) -> bool:
    return isinstance(
        event, Burned | HoleDealt | BoardDealt | Reshuffled | Exhausted | OutOfCards | Discarded
    )


def _new_stubs(events: list[Event]) -> int:
    return sum(isinstance(e, Reshuffled) for e in events)


def numbers_of(table: Table, hand: Hand, live: int, start: int) -> tuple[int, ...]:
    """A hand's numbers as the kernel records them: the live players at the last deal, the
    stub when it began (counted from the events: the deck less what was dealt and burned,
    a new stub its ``Reshuffled`` size), the cards it needed (stud: a card to each live
    player; a draw: the cards discarded; a pass: none), those short, and the new stubs."""
    events = hand.events
    stub = int(table.settings[k.S_DECK])
    before = 0  # cards of the coming HoleDealt taken from a stub since rebuilt
    for event in events[:start]:
        if isinstance(event, Burned):
            stub -= 1
        elif isinstance(event, HoleDealt | BoardDealt):
            stub -= len(event.cards) - before
            before = 0
        elif isinstance(event, Reshuffled):
            before += stub - event.stub
            stub = event.cards
    phase = table.game.phases[table.last_card]
    rebuilt = any(isinstance(e, Reshuffled) for e in events[:start])
    if isinstance(phase, Deal):
        needed = phase.per_player * live + phase.board
        short = k.cards_short(stub, needed, phase.burn, False)
    elif isinstance(phase, Draw):
        needed = sum(len(e.cards) for e in events[start:] if isinstance(e, Discarded))
        kept_bottom = not table.game.deals_bottom_card and not rebuilt
        short = k.cards_short(stub, needed, phase.burn, kept_bottom)
    else:
        needed = short = 0
    return live, stub, needed, int(short), _new_stubs(events)


def outcome_of(hand: Hand) -> int:
    """The procedures the hand's dealer needed, read from its events as the kernel's bits.

    Stud: burn cards dealt again or a community card (``Exhausted``), the burns scrambled
    into the stub (``Reshuffled`` under a stud rule).  Draw: a new stub (``Reshuffled``);
    the five-consecutive rule — a player's first replacements fewer than his discards — and
    its burn card, a ``Burned`` followed by replacements with no discard between; the bottom
    card withheld — the first new stub made with only the bottom card left, for the hand's
    last replacement (with it dealt, the stub would have sufficed)."""
    game = hand.game
    outcome = 0
    drawing = False
    owed: dict[int, int] = {}
    burned = False  # a burn card since the last discard
    after_bottom = -1  # replacements since the first new stub, made with the bottom card left
    stub = len(game.deck.deck().cards)  # the stub, counted from the events
    before = 0  # cards of the coming HoleDealt taken from a stub since rebuilt
    for event in hand.events:
        if isinstance(event, Burned):
            stub -= 1
        elif isinstance(event, HoleDealt | BoardDealt):
            if after_bottom >= 0 and drawing:
                after_bottom += len(event.cards) - before
            stub -= len(event.cards) - before
            before = 0
        elif isinstance(event, Reshuffled):
            if (
                game.exhaustion.for_draw
                and not outcome & k.RESHUFFLED
                and event.stub == 1
                and not game.deals_bottom_card
            ):
                after_bottom = 0  # the cards dealt before it (``before``) don't count
            before += stub - event.stub
            stub = event.cards
        if isinstance(event, Exhausted):
            if event.reused_burns:
                outcome |= k.BURNS_REUSED
            if event.community:
                outcome |= k.COMMUNITY_CARD
        elif isinstance(event, OutOfCards):
            outcome |= k.OUT_OF_CARDS
        elif isinstance(event, Burned):
            burned = drawing
        elif isinstance(event, Reshuffled):
            if game.exhaustion.for_stud:
                outcome |= k.BURNS_SCRAMBLED
                continue
            outcome |= k.RESHUFFLED
        elif isinstance(event, Discarded):
            drawing = True
            burned = False
            if event.cards:
                owed[event.seat] = len(event.cards)
        elif isinstance(event, HoleDealt) and drawing:
            if burned:
                outcome |= k.FIVE_BURN
                burned = False
            if event.seat in owed and len(event.cards) < owed.pop(event.seat):
                outcome |= k.FIVE_CONSECUTIVE
    if after_bottom == 1:
        outcome |= k.BOTTOM_CARD
    return outcome
