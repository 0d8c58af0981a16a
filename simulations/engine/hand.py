"""One hand as a state machine: forced bets, dealing, betting rounds, pots and the showdown.

The hand deals from a given deck order (or a seeded shuffle), asks the seat to act for an
action, lists the legal actions with their amounts, and rejects anything else with a reason
while leaving the state untouched.  Every step is recorded in :attr:`Hand.events`.

Betting follows Rules 002_376df91f076a6501.txt: 'Procedure' (check, call, raise, fold; the
big blind's option), 'Table stakes rules' and '"All in"' (nobody wins more from a player
than he put in; see :mod:`simulations.engine.pots`), 'Incomplete bet or raise' (who may
raise again after a short all-in; :func:`~simulations.engine.limits.reopens`), and 'All in
before the deal' (ante first, then the blind; others must still call the full blind).
Action starts left of the last blind before the first street's cards and left of the
button after; heads-up the button posts the small blind, acts first before the flop and
last after ('When there are only two players').
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

import numpy as np

from simulations.cards import Card, ensure_distinct, format_card
from simulations.decks import Deck
from simulations.engine.events import (
    Awarded,
    BetOrRaised,
    BoardDealt,
    Burned,
    Called,
    Checked,
    Event,
    Folded,
    HoleDealt,
    Posted,
    PostKind,
    Raked,
    Returned,
    Shown,
)
from simulations.engine.game import GameDefinition, StraddleRule
from simulations.engine.limits import (
    Limit,
    PotLimitBlinds,
    RaiseBounds,
    RoundView,
    raise_bounds,
    reopens,
)
from simulations.engine.pots import Chips, Pot, side_pots, split, uncalled_bet
from simulations.evaluators.hand_value import HandValue
from simulations.evaluators.high import evaluate_high
from simulations.evaluators.selection import evaluate_selection


class IllegalAction(ValueError):
    """An action the rules do not allow now; the hand is unchanged."""


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"


@dataclass(frozen=True)
class Action:
    """What a player does.  ``total`` is the bet or raise-to amount for the whole round."""

    kind: ActionKind
    total: int | None = None

    @classmethod
    def fold(cls) -> Action:
        return cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        return cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        return cls(ActionKind.CALL)

    @classmethod
    def bet(cls, total: int) -> Action:
        return cls(ActionKind.BET, total)

    @classmethod
    def raise_to(cls, total: int) -> Action:
        return cls(ActionKind.RAISE, total)


@dataclass(frozen=True)
class LegalActions:
    """What the seat to act may do.  Amounts are round totals; ``wager`` is a bet when
    nothing is to be called and a raise otherwise."""

    seat: int
    to_call: int  # chips a call puts in (at most the stack); 0 means check
    wager: tuple[int, int] | None  # smallest and largest legal bet/raise total
    all_in_total: int  # the round total of going all in
    wager_kind: ActionKind  # BET when no one has bet this round, RAISE otherwise
    full_total: int | None  # the smallest full bet or raise (an all-in below it is short)

    def wager_action(self, total: int) -> Action:
        """The bet or raise to ``total`` that this turn calls for."""
        return Action(self.wager_kind, total)

    @property
    def can_check(self) -> bool:
        return self.to_call == 0

    @property
    def can_fold(self) -> bool:
        return self.to_call > 0


class Hand:
    """A hand of ``game`` between the seats of ``stacks``, the button at seat ``button``."""

    def __init__(
        self,
        game: GameDefinition,
        stacks: Sequence[int],
        button: int,
        *,
        deck: Sequence[int] | None = None,
        rng: np.random.Generator | None = None,
        straddles: Sequence[tuple[int, int]] = (),
        kill: tuple[int, Fraction] | None = None,
    ) -> None:
        n = len(stacks)
        if not game.min_players <= n <= game.max_players:
            raise ValueError(f"{game.name} takes {game.min_players} to {game.max_players} players")
        if any(s <= 0 for s in stacks):
            raise ValueError("every player dealt in needs chips (stacks must be positive)")
        if not 0 <= button < n:
            raise ValueError(f"button must be a seat 0..{n - 1}, got {button}")
        self.game = game
        self.button = button
        self.n = n
        self.starting_stacks = tuple(int(s) for s in stacks)
        self._deck = self._deck_order(deck, rng)
        self._next_card = 0
        # Whole chips while betting; the exact odd-chip rule may leave fractions at the end.
        self.stacks: list[Chips] = list(self.starting_stacks)
        self.contributed = [0] * n  # this hand, every street
        self.round_bets = [0] * n  # this betting round
        self.folded = [False] * n
        self.hole: list[list[Card]] = [[] for _ in range(n)]
        self.board: list[Card] = []
        self.events: list[Event] = []
        self.street = 0
        self.actor: int | None = None
        self.pots: tuple[Pot, ...] = ()
        self.rake = 0
        self.jackpot_drop = 0
        self.finished = False
        self._acted: set[int] = set()
        self._to_match = 0
        self._last_raise = 0
        self._bets_made = 0
        self._big_blind_seat = -1
        self._small_blind_credit = 0  # pot-limit: the small blind counted as a big one
        self._legal: LegalActions | None = None
        self._first_actor_after = -1  # the last blind or straddle: action starts to its left
        self._cycle = list(range(self.n))  # the order of action, clockwise unless a kill
        self.stakes = game.stakes
        self._post_forced_bets()
        if kill is not None and straddles:
            raise ValueError("a hand takes a kill blind or straddles, not both")
        if kill is not None:
            self._post_kill(*kill)
        self._post_straddles(straddles)
        self._deal_street()
        self._open_round(first=True)

    # -- reading -----------------------------------------------------------------------

    @property
    def pot_total(self) -> int:
        return sum(self.contributed)

    @property
    def payoffs(self) -> tuple[Chips, ...]:
        """Each seat's net result once the hand has finished (the rake and drop are gone)."""
        if not self.finished:
            raise ValueError("the hand is still being played")
        return tuple(s - start for s, start in zip(self.stacks, self.starting_stacks, strict=True))

    def legal_actions(self) -> LegalActions:
        if self.actor is None:
            raise IllegalAction("no one is to act: the hand is over")
        # Asked by the player and again by act(): computed once per turn.
        if self._legal is not None and self._legal.seat == self.actor:
            return self._legal
        seat = self.actor
        stack = int(self.stacks[seat])
        to_call = min(self._to_match - self.round_bets[seat], stack)
        all_in_total = self.round_bets[seat] + stack
        kind = ActionKind.RAISE if self._to_match else ActionKind.BET
        wager = self._wager_range(seat)
        bounds = self._bounds(seat) if wager is not None else None
        full = None if bounds is None else bounds.low
        self._legal = LegalActions(seat, to_call, wager, all_in_total, kind, full)
        return self._legal

    # -- acting ------------------------------------------------------------------------

    def act(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for the seat to act (``seat``, if given, must be that seat)."""
        legal = self.legal_actions()
        if seat is not None and seat != legal.seat:
            raise IllegalAction(f"seat {seat} acted out of turn: seat {legal.seat} is to act")
        self._check(action, legal)
        s = legal.seat
        if action.kind is ActionKind.FOLD:
            self.folded[s] = True
            self.events.append(Folded(s))
        elif action.kind is ActionKind.CHECK:
            self._acted.add(s)
            self.events.append(Checked(s))
        elif action.kind is ActionKind.CALL:
            self._put(s, legal.to_call)
            self._acted.add(s)
            self.events.append(Called(s, legal.to_call, self.stacks[s] == 0))
        else:
            assert action.total is not None
            self._wager(s, action.total)
        self._after_action(s)

    def _check(self, action: Action, legal: LegalActions) -> None:
        kind = action.kind
        if kind is ActionKind.FOLD and not legal.can_fold:
            raise IllegalAction("nothing to call: check instead of folding")
        if kind is ActionKind.CHECK and not legal.can_check:
            raise IllegalAction(f"a check cannot answer a bet: {legal.to_call} to call")
        if kind is ActionKind.CALL and legal.can_check:
            raise IllegalAction("nothing to call: check")
        if kind in (ActionKind.BET, ActionKind.RAISE):
            if (kind is ActionKind.BET) != (self._to_match == 0):
                word = "bet" if self._to_match == 0 else "raise"
                raise IllegalAction(f"there is {'no' if word == 'bet' else 'a'} bet: {word}")
            if action.total is None:
                raise IllegalAction(f"a {kind.value} needs a total")
            if legal.wager is None:
                raise IllegalAction(self._why_no_wager(legal.seat))
            low, high = legal.wager
            total = action.total
            if total == legal.all_in_total and total <= high:
                return  # all in for less than the minimum is always allowed
            if not low <= total <= high:
                raise IllegalAction(f"a {kind.value} must be to {low}..{high}, got {total}")
            if not self.stakes.on_unit(total):
                raise IllegalAction(f"bets come in units of {self.stakes.unit}; {total} is not one")

    def _why_no_wager(self, seat: int) -> str:
        if self.stacks[seat] <= self._to_match - self.round_bets[seat]:
            return "no chips left to raise with: call or fold"
        if seat in self._acted:
            return "the betting was not reopened since this player acted: call or fold"
        if not self._someone_could_call_more(seat):
            return "no opponent can call a raise: call or fold"
        return "the betting is capped"

    # -- internals ---------------------------------------------------------------------

    def _deck_order(
        self, deck: Sequence[int] | None, rng: np.random.Generator | None
    ) -> list[Card]:
        if deck is None:
            if rng is None:
                raise ValueError("deal from a given deck order or a seeded rng")
            return [Card(int(c)) for c in Deck.standard().shuffled(rng)]
        cards = [Card(int(c)) for c in deck]
        ensure_distinct(cards)
        needed = sum(
            s.hole_cards * self.n + s.board_cards + (1 if s.burn else 0) for s in self.game.streets
        )
        if len(cards) < needed:
            raise ValueError(f"the deck holds {len(cards)} cards; this hand may need {needed}")
        return cards

    def _draw(self) -> Card:
        card = self._deck[self._next_card]
        self._next_card += 1
        return card

    def _clockwise(self, start: int) -> list[int]:
        """Every seat, clockwise, beginning with ``start``."""
        return [(start + i) % self.n for i in range(self.n)]

    def _put(self, seat: int, amount: int) -> None:
        self.stacks[seat] -= amount
        self.contributed[seat] += amount
        self.round_bets[seat] += amount

    def _post_forced_bets(self) -> None:
        forced = self.game.forced
        # 'Any money the player holds must be applied to the ante first.'
        if forced.ante:
            for seat in self._clockwise(self.button + 1):
                amount = min(forced.ante, int(self.stacks[seat]))
                self.stacks[seat] -= amount
                self.contributed[seat] += amount
                self.events.append(Posted(seat, PostKind.ANTE, amount, self.stacks[seat] == 0))
        blinds = forced.blinds
        if not blinds:
            return
        if self.n == 2 and len(blinds) == 2:
            posters = [self.button, (self.button + 1) % 2]
        elif forced.first_blind_on_button:
            posters = self._clockwise(self.button)[: len(blinds)]
        else:
            posters = self._clockwise(self.button + 1)[: len(blinds)]
        for seat, blind in zip(posters, blinds, strict=False):
            amount = min(blind, int(self.stacks[seat]))
            self._put(seat, amount)
            self.events.append(Posted(seat, PostKind.BLIND, amount, self.stacks[seat] == 0))
        self._big_blind_seat = posters[len(blinds) - 1]
        self._first_actor_after = self._big_blind_seat
        # 'Players to act must call the complete amount of the big blind.'
        self._to_match = blinds[-1]
        self._last_raise = blinds[-1]
        self._bets_made = 1
        if self.game.limit is Limit.POT and self.game.pot_limit_blinds is (
            PotLimitBlinds.SMALL_AS_BIG
        ):
            self._small_blind_credit = sum(blinds[-1] - b for b in blinds[:-1])

    def _post_kill(self, seat: int, factor: Fraction) -> None:
        """Post a kill blind (Rules 002_376df91f076a6501.txt, 'Kill game').

        A full kill (``factor`` 2) posts twice the big blind and plays the hand at twice the
        limits, a half kill (3/2) one and a half times; the kill blind acts last before the
        flop, after the big blind, wherever it sits, and has the option if unraised.
        """
        blinds = self.game.forced.blinds
        if not blinds:
            raise ValueError(f"{self.game.name} has no blinds to kill")
        if not 0 <= seat < self.n:
            raise ValueError(f"kill seat {seat} is not a seat 0..{self.n - 1}")
        blind_posters = {
            e.seat for e in self.events if isinstance(e, Posted) and e.kind is PostKind.BLIND
        }
        if seat in blind_posters:
            raise ValueError(f"seat {seat} has already posted a blind")
        self.stakes = self.game.stakes.killed(factor)
        amount = blinds[-1] * factor
        if amount.denominator != 1:
            raise ValueError(f"a kill of {factor} does not make whole chips of {blinds[-1]}")
        total = int(amount)
        if total > self.stacks[seat]:
            raise ValueError(f"seat {seat} cannot cover a kill blind of {total}")
        self._put(seat, total)
        self.events.append(Posted(seat, PostKind.KILL, total, self.stacks[seat] == 0))
        self._to_match = total
        self._last_raise = total
        self._small_blind_credit = 0
        # 'the order of action is player D, player A, player B (the small blind), player C
        # (the big blind), player E (the kill blind)'
        order = [s for s in self._clockwise(self._big_blind_seat + 1) if s != seat]
        self._cycle = [*order, seat]

    def _post_straddles(self, straddles: Sequence[tuple[int, int]]) -> None:
        """Post voluntary straddles, each a live blind raise (Rules 002, 'Straddle bets').

        A live straddle comes from the seat left of the big blind, a re-straddle from the seat
        left of the last straddle; a Mississippi straddle from any seat, a re-straddle from
        the seat to its right.  Each must be at least a minimum raise; action starts left of
        the last straddle, and its poster has the option when the action comes back unraised.
        """
        rule = self.game.straddles
        if straddles and (rule is StraddleRule.NONE or not self.game.forced.blinds):
            raise ValueError(f"{self.game.name} allows no straddles")
        posted = {e.seat for e in self.events if isinstance(e, Posted) and e.kind is PostKind.BLIND}
        previous = self._first_actor_after
        for index, (seat, total) in enumerate(straddles):
            if not 0 <= seat < self.n:
                raise ValueError(f"straddle seat {seat} is not a seat 0..{self.n - 1}")
            if rule is StraddleRule.LIVE or index > 0:
                step = 1 if rule is StraddleRule.LIVE else -1
                expected = (previous + step) % self.n
                if seat != expected:
                    where = "left" if step == 1 else "right"
                    raise ValueError(
                        f"this straddle must come from seat {expected}, {where} of seat {previous}"
                    )
            if seat in posted:
                raise ValueError(f"seat {seat} has already posted a blind or straddle")
            minimum = self._to_match + self._last_raise
            if total < minimum:
                raise ValueError(f"a straddle must be a raise: at least {minimum}, got {total}")
            if total > self.stacks[seat]:
                raise ValueError(f"seat {seat} cannot cover a straddle of {total}")
            self._put(seat, total)
            self.events.append(Posted(seat, PostKind.STRADDLE, total, self.stacks[seat] == 0))
            self._last_raise = total - self._to_match
            self._to_match = total
            self._bets_made += 1
            self._small_blind_credit = 0
            posted.add(seat)
            previous = self._first_actor_after = seat

    def _deal_street(self) -> None:
        street = self.game.streets[self.street]
        if street.burn:
            card = self._draw()
            self.events.append(Burned(card))
        for _ in range(street.hole_cards):
            for seat in self._clockwise(self.button + 1):
                self.hole[seat].append(self._draw())
        if street.hole_cards:
            for seat in range(self.n):
                self.events.append(HoleDealt(seat, tuple(self.hole[seat][-street.hole_cards :])))
        if street.board_cards:
            cards = tuple(self._draw() for _ in range(street.board_cards))
            self.board.extend(cards)
            self.events.append(BoardDealt(street.name, cards))

    def _can_bet(self, seat: int) -> bool:
        return not self.folded[seat] and self.stacks[seat] > 0

    def _others_can_bet(self, seat: int) -> bool:
        return any(self._can_bet(s) for s in range(self.n) if s != seat)

    def _someone_could_call_more(self, seat: int) -> bool:
        """Whether any opponent could put in more than the current bet: else a raise is idle."""
        return any(
            not self.folded[s] and self.round_bets[s] + self.stacks[s] > self._to_match
            for s in range(self.n)
            if s != seat
        )

    def _open_round(self, *, first: bool = False) -> None:
        """Find the first player to act, or move on if no betting is possible."""
        if not first:
            self.round_bets = [0] * self.n
            self._acted = set()
            self._to_match = 0
            self._last_raise = 0
            self._bets_made = 0
            self._small_blind_credit = 0
            self._cycle = list(range(self.n))  # 'After the flop, betting returns to normal.'
        start = (
            self._first_actor_after + 1
            if first and self._first_actor_after >= 0
            else self.button + 1
        )
        self.actor = start % self.n
        self.actor = self._next_to_act(self.actor, include_start=True)
        if self.actor is None or not self.game.streets[self.street].betting:
            self.actor = None
            self._end_round()

    def _needs_to_act(self, seat: int) -> bool:
        if not self._can_bet(seat):
            return False
        if self.round_bets[seat] < self._to_match:
            return True
        # Matched already: acts only if it has not acted since the last full raise and
        # someone else could still answer a raise (the big blind's option, for one).
        return seat not in self._acted and self._others_can_bet(seat)

    def _next_to_act(self, start: int, *, include_start: bool = False) -> int | None:
        """The next seat in the round's order of action (clockwise, but for a kill blind
        acting last before the flop) that still has to act."""
        cycle = self._cycle
        at = cycle.index(start)
        for step in range(0 if include_start else 1, self.n + 1):
            seat = cycle[(at + step) % self.n]
            if self._needs_to_act(seat):
                return seat
        return None

    def _wager_range(self, seat: int) -> tuple[int, int] | None:
        stack = int(self.stacks[seat])
        own = self.round_bets[seat]
        if stack <= self._to_match - own or seat in self._acted:
            return None
        if not self._someone_could_call_more(seat):
            return None
        bounds = self._bounds(seat)
        if bounds is None:
            return None
        all_in = own + stack
        if all_in < bounds.low:
            return all_in, all_in
        high = min(bounds.high, all_in)
        if self.game.limit is Limit.FIXED:
            return bounds.low, bounds.low
        return bounds.low, high

    def _bounds(self, seat: int) -> RaiseBounds | None:
        contesting = sum(1 for s in range(self.n) if self._can_bet(s))
        view = RoundView(
            round_index=self._betting_round_index(),
            pot=self.pot_total,
            to_match=self._to_match,
            own=self.round_bets[seat],
            last_raise=self._last_raise,
            bets_made=self._bets_made,
            contesting=contesting,
        )
        bonus = self._small_blind_credit
        return raise_bounds(self.game.limit, self.stakes, view, pot_limit_bonus=bonus)

    def _betting_round_index(self) -> int:
        return sum(1 for s in self.game.streets[: self.street] if s.betting)

    def _wager(self, seat: int, total: int) -> None:
        bounds = self._bounds(seat)
        assert bounds is not None
        faced = self._to_match
        added = total - self.round_bets[seat]
        self._put(seat, added)
        full_increment = bounds.low - faced
        increment = total - faced
        full = total >= bounds.low
        reopened = full or reopens(self.game.incomplete_raise, increment, full_increment)
        if reopened:
            self._acted = {seat}
            self._bets_made += 1
            if full:
                self._last_raise = max(increment, self._last_raise)
        else:
            self._acted.add(seat)
        self._to_match = total
        self.events.append(BetOrRaised(seat, total, added, self.stacks[seat] == 0, reopened))

    def _after_action(self, seat: int) -> None:
        self._legal = None
        if seat == self._big_blind_seat:
            self._small_blind_credit = 0  # 'until the big blind is through acting'
        live = [s for s in range(self.n) if not self.folded[s]]
        if len(live) == 1:
            self.actor = None
            self._finish(live)
            return
        self.actor = self._next_to_act(seat)
        if self.actor is None:
            self._end_round()

    def _end_round(self) -> None:
        betting_left = sum(1 for s in range(self.n) if self._can_bet(s)) >= 2
        while self.street + 1 < len(self.game.streets):
            self.street += 1
            self._deal_street()
            if betting_left:
                self._open_round()
                return
        self._finish([s for s in range(self.n) if not self.folded[s]])

    def _finish(self, live: list[int]) -> None:
        seat, excess = uncalled_bet(self.contributed)
        if seat >= 0:
            self.contributed[seat] -= excess
            self.stacks[seat] += excess
            self.events.append(Returned(seat, excess))
        alive = [not f for f in self.folded]
        self.pots = self._take_rake_and_drop(side_pots(self.contributed, alive))
        values: dict[int, int] = {}
        if len(live) > 1:
            for s in live:
                hand = self._showdown_hand(s)
                values[s] = hand.value
                self.events.append(Shown(s, hand.name, hand.value))
        # Pots are awarded from the last side pot back to the main pot.
        for index in range(len(self.pots) - 1, -1, -1):
            pot = self.pots[index]
            if len(pot.eligible) == 1 or not values:
                winners = list(pot.eligible)
            else:
                best = max(values[s] for s in pot.eligible)
                winners = [s for s in pot.eligible if values[s] == best]
            shares = split(
                pot.amount, winners, button=self.button, n_seats=self.n, rule=self.game.odd_chips
            )
            for winner, chips in shares.items():
                self.stacks[winner] += chips
                self.events.append(Awarded(index, winner, chips))
        self.actor = None
        self.finished = True

    def _take_rake_and_drop(self, pots: tuple[Pot, ...]) -> tuple[Pot, ...]:
        """Take the rake and the jackpot drop, main pot first, before anything is awarded."""
        game = self.game
        total = sum(p.amount for p in pots)
        # 'No flop, no drop': a hand over before the second street pays nothing.
        flopped = self.street > 0
        rake = drop = 0
        if game.rake is not None and (flopped or not game.rake.no_flop_no_drop):
            rake = game.rake.amount(total, self.n)
        if game.jackpot_drop is not None and flopped and total >= game.jackpot_drop.threshold:
            drop = game.jackpot_drop.amount
        take = min(rake + drop, total)
        if take == 0:
            return pots
        self.rake, self.jackpot_drop = rake, take - rake
        self.events.append(Raked(self.rake, self.jackpot_drop))
        remaining: list[Pot] = []
        for pot in pots:
            cut = min(take, pot.amount)
            take -= cut
            remaining.append(Pot(pot.amount - cut, pot.eligible))
        return tuple(p for p in remaining if p.amount > 0)

    def _showdown_hand(self, seat: int) -> HandValue:
        selection = self.game.selection
        cards = [*self.hole[seat], *self.board]
        if selection.plays_any_five and len(cards) <= 7:
            return evaluate_high(cards)  # one look-up for the best five of up to seven
        return evaluate_selection(selection, self.hole[seat], self.board)

    def __repr__(self) -> str:
        board = " ".join(format_card(c) for c in self.board)
        return f"Hand({self.game.name}, stacks={self.stacks}, board=[{board}], actor={self.actor})"
