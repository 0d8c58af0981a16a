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
last after ('When there are only two players').  Stud games open with the bring-in and then
the best hand showing (:mod:`simulations.engine.forced`); the pots are settled by
:func:`~simulations.engine.settle.settle`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from simulations.cards import Card, format_card
from simulations.engine.actions import Action, ActionKind, IllegalAction, LegalActions
from simulations.engine.deck_order import DeckOrder
from simulations.engine.events import (
    Awarded,
    BetOrRaised,
    BoardDealt,
    Burned,
    Called,
    Checked,
    Event,
    Exhausted,
    Folded,
    HoleDealt,
    Posted,
    PostKind,
    Raked,
    Returned,
    Shown,
)
from simulations.engine.forced import (
    BlindSeats,
    Post,
    bring_in_seat,
    clockwise,
    showing_opener,
)
from simulations.engine.game import (
    ActingOrder,
    BigBlindAnteOrder,
    ExhaustionRule,
    GameDefinition,
    StraddleRule,
    Street,
)
from simulations.engine.limits import (
    IncompleteRaiseRule,
    Limit,
    PotLimitBlinds,
    RaiseBounds,
    RoundView,
    raise_bounds,
    reopens,
)
from simulations.engine.pots import Chips, Pot
from simulations.engine.reopening import still_closed
from simulations.engine.settle import settle
from simulations.evaluators.ranking import Ranking

__all__ = ["Action", "ActionKind", "BlindSeats", "Hand", "IllegalAction", "LegalActions", "Post"]


class Hand:
    """A hand of ``game`` between the seats of ``stacks``, the button at seat ``button``.

    The blinds go to the seats after the button unless ``blind_seats`` places them (a button
    rule's positions, through :func:`~simulations.engine.buttons.hand_seating`).
    """

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
        posts: Sequence[Post] = (),
        blind_seats: BlindSeats | None = None,
    ) -> None:
        n = len(stacks)
        if not game.min_players <= n <= game.max_players:
            raise ValueError(f"{game.name} takes {game.min_players} to {game.max_players} players")
        if len(game.forced.blinds) > n:
            raise ValueError(f"{len(game.forced.blinds)} blinds need as many players, got {n}")
        if any(s <= 0 for s in stacks):
            raise ValueError("every player dealt in needs chips (stacks must be positive)")
        if not 0 <= button < n:
            raise ValueError(f"button must be a seat 0..{n - 1}, got {button}")
        self.game = game
        self.button = button
        self.n = n
        self.starting_stacks = tuple(int(s) for s in stacks)
        self.blind_seats = blind_seats  # None: the blinds sit after the button
        self._deck = DeckOrder.for_hand(game, n, deck, rng)
        self._spare_burns: list[Card] = []  # burn cards the stud exhaustion rule may deal again
        # Whole chips while betting; the exact odd-chip rule may leave fractions at the end.
        self.stacks: list[Chips] = list(self.starting_stacks)
        self.contributed = [0] * n  # this hand, every street
        self.dead = [0] * n  # the part of contributed that was posted dead
        self.round_bets = [0] * n  # this betting round
        self.folded = [False] * n
        self.hole: list[list[Card]] = [[] for _ in range(n)]  # every card dealt to a seat
        self.up: list[list[Card]] = [[] for _ in range(n)]  # the face-up ones among them
        self.board: list[Card] = []
        self.events: list[Event] = []
        self.street = 0
        self.actor: int | None = None
        self.pots: tuple[Pot, ...] = ()
        self.rake = 0
        self.jackpot_drop = 0
        self.finished = False
        self._acted: set[int] = set()
        # The bet each seat last acted on (called, checked or bet): short all-ins after it
        # add up against it (simulations.engine.reopening).
        self._acted_at = [0] * self.n
        self._to_match = 0
        self._last_raise = 0
        self._bets_made = 0
        self._big_blind_seat = -1
        self._small_blind_credit = 0  # pot-limit: the small blind counted as a big one
        self._legal: LegalActions | None = None
        self._first_actor_after = -1  # the last blind or straddle: action starts to its left
        self._cycle = list(range(self.n))  # the order of action, clockwise unless a kill
        self._bring_in_due = False  # the first round opens with the bring-in's choice
        self.stakes = game.stakes
        self._post_forced_bets(blind_seats)
        if kill is not None and straddles:
            raise ValueError("a hand takes a kill blind or straddles, not both")
        self._post_posts(posts)
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
        bring_in = min(self.game.forced.bring_in, stack) if self._bring_in_due else None
        self._legal = LegalActions(seat, to_call, wager, all_in_total, kind, full, bring_in)
        return self._legal

    # -- acting ------------------------------------------------------------------------

    def act(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for the seat to act (``seat``, if given, must be that seat)."""
        if seat is not None and not 0 <= seat < self.n:
            raise IllegalAction(f"there is no seat {seat}: seats are 0..{self.n - 1}")
        legal = self.legal_actions()
        if seat is not None and seat != legal.seat:
            raise IllegalAction(f"seat {seat} acted out of turn: seat {legal.seat} is to act")
        self._check(action, legal)
        s = legal.seat
        if action.kind is ActionKind.BRING_IN:
            assert legal.bring_in is not None
            self._pay_bring_in(s, legal.bring_in)
        elif action.kind is ActionKind.FOLD:
            self.folded[s] = True
            self.events.append(Folded(s))
        elif action.kind is ActionKind.CHECK:
            self._mark_acted(s)
            self.events.append(Checked(s))
        elif action.kind is ActionKind.CALL:
            self._put(s, legal.to_call)
            self._mark_acted(s)
            self.events.append(Called(s, legal.to_call, self.stacks[s] == 0))
        else:
            assert action.total is not None
            self._bring_in_due = False  # completed: the bring-in's choice is made
            self._wager(s, action.total)
        self._after_action(s)

    def _check(self, action: Action, legal: LegalActions) -> None:
        kind = action.kind
        if legal.bring_in is not None and kind not in (ActionKind.BRING_IN, ActionKind.BET):
            raise IllegalAction(
                f"the bring-in is forced: pay it ({legal.bring_in}) or complete to a full bet"
            )
        if kind is ActionKind.BRING_IN and legal.bring_in is None:
            raise IllegalAction("no bring-in is due")
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

    def _put(self, seat: int, amount: int) -> None:
        self.stacks[seat] -= amount
        self.contributed[seat] += amount
        self.round_bets[seat] += amount

    def _post_forced_bets(self, blind_seats: BlindSeats | None) -> None:
        forced = self.game.forced
        # 'Any money the player holds must be applied to the ante first.'
        if forced.ante:
            for seat in clockwise(self.button + 1, self.n):
                amount = min(forced.ante, int(self.stacks[seat]))
                self.stacks[seat] -= amount
                self.contributed[seat] += amount
                self.events.append(Posted(seat, PostKind.ANTE, amount, self.stacks[seat] == 0))
        blinds = forced.blinds
        if not blinds:
            if blind_seats is not None:
                raise ValueError(f"{self.game.name} has no blinds to place")
            return
        if blind_seats is not None:
            placed = blind_seats.placed(blinds, self.n)
        elif self.n == 2 and len(blinds) == 2:
            placed = list(zip([self.button, (self.button + 1) % 2], blinds, strict=True))
        elif forced.first_blind_on_button:
            placed = list(zip(clockwise(self.button, self.n), blinds, strict=False))
        else:
            placed = list(zip(clockwise(self.button + 1, self.n), blinds, strict=False))
        big_blind_seat = placed[-1][0]
        if blind_seats is not None:  # left of the big blind furthest round from the button
            big_blind_seat = max(
                blind_seats.big, key=lambda seat: (seat - self.button - 1) % self.n
            )
        ante_first = forced.big_blind_ante_order is BigBlindAnteOrder.ANTE_FIRST
        if ante_first:
            self._post_big_blind_ante(big_blind_seat)
        for seat, blind in placed:
            amount = min(blind, int(self.stacks[seat]))
            self._put(seat, amount)
            self.events.append(Posted(seat, PostKind.BLIND, amount, self.stacks[seat] == 0))
        if not ante_first:
            self._post_big_blind_ante(big_blind_seat)
        self._big_blind_seat = big_blind_seat
        self._first_actor_after = self._big_blind_seat
        # 'Players to act must call the complete amount of the big blind.'
        self._to_match = blinds[-1]
        self._last_raise = blinds[-1]
        self._bets_made = 1
        if self.game.limit is Limit.POT and self.game.pot_limit_blinds is (
            PotLimitBlinds.SMALL_AS_BIG
        ):
            self._small_blind_credit = sum(blinds[-1] - b for _, b in placed)

    def _post_big_blind_ante(self, seat: int) -> None:
        """The big-blind ante: the table's ante in one, paid by the big blind as dead money
        (into the main pot, toward no bet), before or after the blind by the game's order."""
        ante = self.game.forced.big_blind_ante
        if not ante:
            return
        amount = min(ante, int(self.stacks[seat]))
        self.stacks[seat] -= amount
        self.contributed[seat] += amount
        self.dead[seat] += amount
        self.events.append(Posted(seat, PostKind.BIG_BLIND_ANTE, amount, self.stacks[seat] == 0))

    def _blind_posters(self) -> set[int]:
        """Seats that have posted a blind, a post, a kill or a straddle (antes aside)."""
        posted = (e for e in self.events if isinstance(e, Posted))
        return {e.seat for e in posted if e.kind not in (PostKind.ANTE, PostKind.BIG_BLIND_ANTE)}

    def _post_posts(self, posts: Sequence[Post]) -> None:
        """Posts of new and returning players (Rules 002_376df91f076a6501.txt, 'Post').

        The big blind's amount is live: it counts toward a call or raise, and if no one
        raises the poster has the option, as a blind does.  A missed small blind is posted
        dead: it goes into the pot but counts toward no bet.  A player in the blinds owes no
        post ('Posting is not required if the player due the post happens to be in the big
        blind').
        """
        blinds = self.game.forced.blinds
        for post in posts:
            seat = post.seat
            if not 0 <= seat < self.n:
                raise ValueError(f"post seat {seat} is not a seat 0..{self.n - 1}")
            if seat in self._blind_posters():
                raise ValueError(f"seat {seat} has already posted a blind or post: no post is due")
            live, dead = post.amounts(blinds)
            if live + dead > self.stacks[seat]:
                raise ValueError(f"seat {seat} cannot cover a post of {live + dead}")
            self._put(seat, live)
            self.events.append(Posted(seat, PostKind.POST, live, self.stacks[seat] == 0))
            if dead:
                self.stacks[seat] -= dead
                self.contributed[seat] += dead
                self.dead[seat] += dead
                self.events.append(Posted(seat, PostKind.DEAD, dead, self.stacks[seat] == 0))

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
        if seat in self._blind_posters():
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
        order = [s for s in clockwise(self._big_blind_seat + 1, self.n) if s != seat]
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
        posted = self._blind_posters()
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
        burned = None
        if street.burn and self._deck.stub:
            burned = self._deck.draw()
            self.events.append(Burned(burned))
        # One card at a time, clockwise from the dealer's left, down cards before up cards;
        # a player who has folded gets no more.
        receiving = [s for s in clockwise(self.button + 1, self.n) if not self.folded[s]]
        per_player = street.hole_cards + street.up_cards
        needed = per_player * len(receiving) + street.board_cards
        draw = self._deck.draw
        community = False
        if needed > len(self._deck.stub):
            draw, community = self._exhausted(street, needed, per_player)
        if community:
            # 'a single community card is dealt to the center of the table, and is shared by
            # everyone (that is, each player treats it as his seventh card)'
            cards = tuple(draw() for _ in range(per_player + street.board_cards))
            self.board.extend(cards)
            self.events.append(BoardDealt(street.name, cards))
        else:
            self._deal_to_players(street, receiving, draw)
        if burned is not None:  # from the next street on, a 'previously-dealt' burn card
            self._spare_burns.append(burned)

    def _deal_to_players(
        self, street: Street, receiving: list[int], draw: Callable[[], Card]
    ) -> None:
        for count, face_up in ((street.hole_cards, False), (street.up_cards, True)):
            if not count:
                continue
            dealt: dict[int, list[Card]] = {seat: [] for seat in receiving}
            for _ in range(count):
                for seat in receiving:
                    dealt[seat].append(draw())
            for seat in sorted(receiving):
                self.hole[seat].extend(dealt[seat])
                if face_up:
                    self.up[seat].extend(dealt[seat])
                self.events.append(HoleDealt(seat, tuple(dealt[seat]), face_up))
        if street.board_cards:
            cards = tuple(draw() for _ in range(street.board_cards))
            self.board.extend(cards)
            self.events.append(BoardDealt(street.name, cards))

    def _exhausted(
        self, street: Street, needed: int, per_player: int
    ) -> tuple[Callable[[], Card], bool]:
        """The game's rule for running out of cards on ``street``: the stub, then the earlier
        burn cards in the order they were burned; if even those are too few, one community
        card in place of a card to each player.  Folded cards never come back.  Returns the
        card source and whether the street goes to the board; logs the exhaustion."""
        stub = len(self._deck.stub)
        spare = self._spare_burns
        if self.game.exhaustion is ExhaustionRule.NONE:  # check_deal refused such a deck
            raise AssertionError(f"{street.name}: the deck ran out of cards")
        community = needed > stub + len(spare)
        if community:
            needed = per_player + street.board_cards
        reused = max(0, needed - stub)
        self.events.append(Exhausted(street.name, stub, reused, community))

        def draw() -> Card:
            return self._deck.draw() if self._deck.stub else spare.pop(0)

        return draw, community

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
        betting = self.game.streets[self.street].betting
        order = self.game.acting_order
        if betting and order is not ActingOrder.POSITION:
            able = [s for s in clockwise(self.button + 1, self.n) if self._can_bet(s)]
            if first and self.game.forced.bring_in and len(able) >= 2:
                seat = bring_in_seat(self.up, able, order)
                if self._open_with_bring_in(seat):
                    return
                start = seat + 1
            elif not first:
                live = [s for s in clockwise(self.button + 1, self.n) if not self.folded[s]]
                start = showing_opener(self.up, live, order)
        self.actor = start % self.n
        self.actor = self._next_to_act(self.actor, include_start=True)
        if self.actor is None or not betting:
            self.actor = None
            self._end_round()

    def _open_with_bring_in(self, seat: int) -> bool:
        """Start the first stud round with the bring-in (Rules 002_376df91f076a6501.txt,
        'Bring-in').  Below the first round's bet the player chooses: pay the bring-in, or
        complete to a full bet (True: he is to act).  A bring-in as large as the bet is
        posted at once and treated as live, like a blind, so that he keeps his right to
        raise ('the bring-in must be treated as live in the same way as a blind')."""
        amount = self.game.forced.bring_in
        if amount < self.stakes.bet_size(0):
            self._bring_in_due = True
            self.actor = seat
            return True
        self._put(seat, min(amount, int(self.stacks[seat])))
        self.events.append(
            Posted(seat, PostKind.BRING_IN, self.round_bets[seat], self.stacks[seat] == 0)
        )
        self._to_match = self._last_raise = amount
        self._bets_made = 1
        self._first_actor_after = seat
        return False

    def _pay_bring_in(self, seat: int, amount: int) -> None:
        """The bring-in paid as it is: not a bet toward the cap, and others call all of it
        even if its payer was short ('Players to act must call the complete amount')."""
        self._put(seat, amount)
        self._bring_in_due = False
        self._to_match = self.game.forced.bring_in
        self._mark_acted(seat)
        self.events.append(Posted(seat, PostKind.BRING_IN, amount, self.stacks[seat] == 0))

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
        self._to_match = total
        if reopened:
            self._acted = {seat}
            self._acted_at[seat] = total
            self._bets_made += 1
            if full:
                self._last_raise = max(increment, self._last_raise)
        else:
            self._mark_acted(seat)
            self._reopen_for_short_all_ins(full_increment)
        self.events.append(BetOrRaised(seat, total, added, self.stacks[seat] == 0, reopened))

    def _mark_acted(self, seat: int) -> None:
        self._acted.add(seat)
        self._acted_at[seat] = self._to_match

    def _reopen_for_short_all_ins(self, full_increment: int) -> None:
        """Rules 002_376df91f076a6501.txt, 'Incomplete bet or raise', as the game reads a run
        of short all-ins: each seat that acted may raise again once what it faces since its
        own action adds up to a reopening amount (the shared compiled rule)."""
        acted = sum(1 << s for s in self._acted)
        closed = still_closed(
            acted,
            np.array(self._acted_at, dtype=np.int64),
            self.n,
            self._to_match,
            full_increment,
            self.game.incomplete_raise is IncompleteRaiseRule.HALF_BET,
            self.game.short_all_ins.code,
        )
        self._acted = {s for s in self._acted if (closed >> s) & 1}

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
        values: dict[int, tuple[int | None, ...]] = {}
        shown: dict[int, str] = {}
        if len(live) > 1:
            for s in live:
                ranked = self._showdown_hand(s)
                values[s] = tuple(None if r is None else r.value for r in ranked)
                shown[s] = " / ".join("no low" if r is None else r.name for r in ranked)
        # 'No flop, no drop': a hand over on its first street pays no rake or drop.
        result = settle(
            self.game,
            self.contributed,
            self.dead,
            self.folded,
            values,
            button=self.button,
            flopped=self.street > 0,
        )
        for seat, excess in result.returned:
            self.contributed[seat] -= excess
            self.stacks[seat] += excess
            self.events.append(Returned(seat, excess))
        self.pots = result.pots
        self.rake, self.jackpot_drop = result.rake, result.jackpot_drop
        if result.rake or result.jackpot_drop:
            self.events.append(Raked(result.rake, result.jackpot_drop))
        for s in live if len(live) > 1 else ():
            self.events.append(Shown(s, shown[s], values[s][0] or 0))
        for award in result.awards:
            self.stacks[award.seat] += award.chips
            self.events.append(Awarded(award.pot, award.seat, award.chips))
        self.actor = None
        self.finished = True

    def _showdown_hand(self, seat: int) -> tuple[Ranking | None, ...]:
        """The seat's best hand in each half of the game's showdown (None: no low)."""
        selection = self.game.selection
        return tuple(
            half.rank(selection, self.hole[seat], self.board) for half in self.game.showdown.halves
        )

    def __repr__(self) -> str:
        board = " ".join(format_card(c) for c in self.board)
        return f"Hand({self.game.name}, stacks={self.stacks}, board=[{board}], actor={self.actor})"
