"""One hand as a state machine: forced bets, dealing, betting rounds, pots and the showdown.

The hand deals from a given deck order (or a seeded shuffle), asks the seat to act for an
action, lists the legal actions with their amounts, and rejects anything else with a reason
while leaving the state untouched.  Every step is recorded in :attr:`Hand.events`.

Betting follows Rules 002_376df91f076a6501.txt: 'Procedure' (check, call, raise, fold; the
big blind's option), 'Table stakes rules' and '"All in"' (nobody wins more from a player
than he put in; see :mod:`simulations.engine.pots`), 'Incomplete bet or raise' (who may
raise again after a short all-in; the bet and raise sizes are in
:mod:`simulations.engine.wagers`), and 'All in before the deal' (ante first, then the blind;
others must still call the full blind).
Action starts left of the last blind before the first street's cards and left of the
button after; heads-up the button posts the small blind, acts first before the flop and
last after ('When there are only two players').  Stud games open with the bring-in and then
the best hand showing (:mod:`simulations.engine.forced`); the pots are settled by
:func:`~simulations.engine.settle.settle`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from simulations.cards import Card, format_card
from simulations.engine.actions import Action, ActionKind, IllegalAction, LegalActions
from simulations.engine.centre_phases import CentrePhases
from simulations.engine.deal_end import DealEnding
from simulations.engine.dealer import Dealer
from simulations.engine.deck_order import DeckOrder
from simulations.engine.declare import Declaration
from simulations.engine.events import (
    Called,
    Checked,
    Event,
    Folded,
    Posted,
    PostKind,
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
    GameDefinition,
)
from simulations.engine.hand_showdown import HandShowdown
from simulations.engine.limits import (
    HeadsUpCap,
)
from simulations.engine.openers import holds_openers
from simulations.engine.phases import (
    Auction,
    Bet,
    Deal,
    Decision,
    Declare,
    Draft,
    FirstToAct,
    IfPassed,
    Reveal,
)
from simulations.engine.pots import Chips, Pot
from simulations.engine.wagers import Wagering
from simulations.evaluators.lowball import Lowball
from simulations.rules import codes
from simulations.rules.reasons import reason

__all__ = ["Action", "ActionKind", "BlindSeats", "Hand", "IllegalAction", "LegalActions", "Post"]


class Hand(Wagering, CentrePhases, HandShowdown, DealEnding):
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
        carried_pot: int = 0,
        carried_pots: Sequence[Pot] = (),
        passed_out: int = 0,
    ) -> None:
        n = len(stacks)
        if not game.min_players <= n <= game.max_players:
            raise ValueError(f"{game.name} takes {game.min_players} to {game.max_players} players")
        if len(game.forced.blinds) > n:
            raise ValueError(f"{len(game.forced.blinds)} blinds need as many players, got {n}")
        carried = tuple(carried_pots)
        if carried_pot < 0:
            raise ValueError(f"a carried pot cannot be negative, got {carried_pot}")
        if carried_pot:
            carried = (Pot(carried_pot, tuple(range(n))), *carried)
        for pot in carried:
            if pot.amount <= 0 or not pot.eligible or not all(0 <= s < n for s in pot.eligible):
                raise ValueError(f"a carried pot needs chips and players of this deal: {pot}")
        # A player already all in for a pot carried from an earlier deal is dealt in with
        # no chips; anyone else needs chips.
        all_in = {s for pot in carried for s in pot.eligible}
        if any(stack < 0 or (stack == 0 and s not in all_in) for s, stack in enumerate(stacks)):
            raise ValueError("every player dealt in needs chips (stacks must be positive)")
        if passed_out < 0:
            raise ValueError(f"deals passed out cannot be negative, got {passed_out}")
        if not 0 <= button < n:
            raise ValueError(f"button must be a seat 0..{n - 1}, got {button}")
        self.game = game
        self.button = button
        self.n = n
        self.starting_stacks = tuple(map(int, stacks))
        self.blind_seats = blind_seats  # None: the blinds sit after the button
        self.events: list[Event] = []
        deck_order = DeckOrder.for_hand(game, n, deck, rng)
        # A given order: any reshuffle is seeded by the order itself (the dealer makes that
        # generator only if the hand reshuffles: most never do).
        seed = deck_order.cards if rng is None else ()
        self._dealer = Dealer(game, deck_order, rng, self.events, seed=seed)
        # Whole chips while betting; the exact odd-chip rule may leave fractions at the end.
        self.stacks: list[Chips] = list(self.starting_stacks)
        self.contributed = [0] * n  # this hand, every street
        self.dead = [0] * n  # the part of contributed that was posted dead
        self.round_bets = [0] * n  # this betting round
        self.folded = [False] * n
        self.hole: list[list[Card]] = [[] for _ in range(n)]  # every card dealt to a seat
        self.up: list[list[Card]] = [[] for _ in range(n)]  # the face-up ones among them
        self.upcards_dealt: list[Card] = []  # every card turned face up, in the order dealt
        self.board: list[Card] = []
        self.carried_in = carried  # pots of earlier deals passed out or killed
        self.passed_out = passed_out  # deals passed out before this one (progressive openers)
        self.carried = 0  # this deal's pot when it is passed out or killed
        self.carried_pots: tuple[Pot, ...] = ()  # ... as pots, for the next deal
        self.killed_by: Card | None = None  # the kill card that ended the deal
        self._face_up_seen = 0  # upcards checked for kill cards
        self._board_seen = 0  # board cards checked for kill cards
        self._first_opener: int | None = None  # who made the first round's first bet
        self.phase = -1  # the index in game.phases of the phase under way
        self.street = 0  # the betting round reached (0: the first)
        self._rounds_begun = 0  # betting rounds (bet phases) begun
        self._draws = 0  # draws begun
        self._decision: Decision | None = None  # the draw, discard or exposure under way
        self._deciding: list[int] = []  # a decision phase: seats still to choose, in order
        self._chosen: dict[int, tuple[Card, ...]] = {}  # a simultaneous phase's choices so far
        self._declaring: dict[int, Declaration] = {}  # declarations made, not yet shown
        self.declared: dict[int, Declaration] = {}  # high-low declare: what each declared
        self._arranged: dict[int, list[Card]] = {}  # a roll-out's order of each hand
        self.split_two: dict[int, tuple[Card, ...]] = {}  # Cowpie: each two-card hand
        self.centre: list[Card] = []  # a draft's or auction's cards, face up, not yet taken
        self._high_bid: tuple[int, int] | None = None  # an open auction's (seat, bid)
        self._sealed_bids: dict[int, int] = {}
        self._buyer = -1  # an auction's buyer, to say who takes the card
        self._owed: list[tuple[int, int]] = []  # (seat, cards): replacements held back
        self._last_replaced = -1  # who was dealt the last replacement card
        self.actor: int | None = None
        # The pots after the rake and drop, main pot first; one the take emptied stays, empty.
        self.pots: tuple[Pot, ...] = ()
        self.rake = 0
        self.jackpot_drop = 0
        self.finished = False
        self._acted: set[int] = set()
        # The bet each seat last acted on (called, checked or bet): short all-ins after it
        # add up against it (simulations.rules.reopening).
        self._acted_at = [0] * self.n
        self._to_match = 0
        self._last_raise = 0
        self._bets_made = 0
        self._big_blind_seat = -1
        # Pot limit, small-blind-as-big: what each smaller blind counts above what it posted.
        self._blind_credit = [0] * n
        # The players able to bet when this round's bets reached the cap (-1: not reached).
        self._cap_contesting = -1
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
        self._advance()

    # -- reading -----------------------------------------------------------------------

    @property
    def pot_total(self) -> int:
        return sum(self.contributed) + sum(p.amount for p in self.carried_in)

    @property
    def payoffs(self) -> tuple[Chips, ...]:
        """Each seat's net result once the hand has finished (the rake and drop are gone)."""
        if not self.finished:
            raise ValueError("the hand is still being played")
        return tuple(s - start for s, start in zip(self.stacks, self.starting_stacks, strict=True))

    def legal_actions(self) -> LegalActions:
        if self.actor is None:
            raise IllegalAction(reason(codes.HAND_OVER))
        # Asked by the player and again by act(): computed once per turn.
        if self._legal is not None and self._legal.seat == self.actor:
            return self._legal
        seat = self.actor
        stack = int(self.stacks[seat])
        if isinstance(self._decision, Declare):
            self._legal = LegalActions(
                seat, 0, None, 0, ActionKind.DECLARE, None, declarations=tuple(Declaration)
            )
            return self._legal
        if self._decision is not None:
            choice = self._choice(seat, self._decision)
            self._legal = LegalActions(seat, 0, None, 0, choice.kind, None, choice=choice)
            return self._legal
        to_call, bring_in = self._call_and_bring_in(seat)
        all_in_total = self.round_bets[seat] + stack
        kind = ActionKind.RAISE if self._to_match else ActionKind.BET
        # The rule's bounds are worked out once a turn: the full total comes from the same
        # bounds as the wager range (and act() hands it on to _wager).
        wager, full = self._wager_range(seat)
        self._legal = LegalActions(
            seat,
            to_call,
            wager,
            all_in_total,
            kind,
            full,
            bring_in,
            must_open=self._must_open(to_call, bring_in),
        )
        return self._legal

    # -- acting ------------------------------------------------------------------------

    def act(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for the seat to act (``seat``, if given, must be that seat).

        The checks are those of :meth:`legal_actions`, read from what it listed when the
        player asked for it this turn, or else worked out here for this action alone (a
        call reads no bet or raise amounts, a draw no betting): the same rules either way.
        """
        if seat is not None and not 0 <= seat < self.n:
            raise IllegalAction(f"there is no seat {seat}: seats are 0..{self.n - 1}")
        actor = self.actor
        if actor is None:
            raise IllegalAction(reason(codes.HAND_OVER))
        if seat is not None and seat != actor:
            raise IllegalAction(reason(codes.OUT_OF_TURN, seat=seat, a=actor))
        asked = self._legal if self._legal is not None and self._legal.seat == actor else None
        decision = self._decision
        if decision is not None:
            self._decide(actor, action, None if asked is None else asked.choice, decision)
            return
        kind = action.kind
        to_call, bring_in = self._call_and_bring_in(actor)
        self._check_plain(kind, to_call, bring_in)
        if kind is ActionKind.BET or kind is ActionKind.RAISE:
            if asked is not None:
                wager, full_total = asked.wager, asked.full_total
            else:
                wager, full_total = self._wager_range(actor)
            total = self._check_wager(action, actor, wager)
            self._bring_in_due = False  # completed: the bring-in's choice is made
            self._wager(actor, total, full_total)
        else:
            self._apply_plain(actor, kind, to_call, bring_in)
        self._after_action(actor)

    def can_check(self) -> bool:
        """Whether the seat to act may check now: :attr:`LegalActions.can_check`, without
        working out the turn's bet and raise amounts (a check or call asks no more)."""
        actor = self.actor
        if actor is None:
            raise IllegalAction(reason(codes.HAND_OVER))
        if self._decision is not None:
            return False  # a choice of cards or a declaration: no betting turn
        to_call, bring_in = self._call_and_bring_in(actor)
        return self._can_check(to_call, bring_in, self._must_open(to_call, bring_in))

    @staticmethod
    def _can_check(to_call: int, bring_in: int | None, must_open: bool) -> bool:
        """On a betting turn a check answers nothing to call, no bring-in due and a round
        that may be checked."""
        return to_call == 0 and bring_in is None and not must_open

    def _call_and_bring_in(self, seat: int) -> tuple[int, int | None]:
        """What a call costs ``seat`` (at most his stack), and the bring-in if it is due."""
        stack = int(self.stacks[seat])
        to_call = min(self._to_match - self.round_bets[seat], stack)
        return to_call, min(self.game.forced.bring_in, stack) if self._bring_in_due else None

    def _apply_plain(self, s: int, kind: ActionKind, to_call: int, bring_in: int | None) -> None:
        """A checked bring-in, fold, check or call: ``to_call`` and ``bring_in`` as
        :class:`LegalActions` lists them."""
        if kind is ActionKind.BRING_IN:
            assert bring_in is not None
            self._pay_bring_in(s, bring_in)
        elif kind is ActionKind.FOLD:
            self.folded[s] = True
            self.events.append(Folded(s))
        elif kind is ActionKind.CHECK:
            self._mark_acted(s)
            self.events.append(Checked(s))
        else:
            self._put(s, to_call)
            self._mark_acted(s)
            self.events.append(Called(s, to_call, self.stacks[s] == 0))

    def _check_plain(self, kind: ActionKind, to_call: int, bring_in: int | None) -> None:
        """The checks of :meth:`_check` that read only what a call costs and the bring-in
        (``LegalActions.can_fold`` is ``to_call > 0``; on a betting turn ``can_check`` is
        ``to_call == 0`` with no bring-in due)."""
        if bring_in is not None and kind not in (ActionKind.BRING_IN, ActionKind.BET):
            raise IllegalAction(
                f"the bring-in is forced: pay it ({bring_in}) or complete to a full bet"
            )
        if kind is ActionKind.BRING_IN and bring_in is None:
            raise IllegalAction("no bring-in is due")
        if not (
            kind is ActionKind.FOLD
            or kind is ActionKind.CHECK
            or kind is ActionKind.CALL
            or kind is ActionKind.BET
            or kind is ActionKind.RAISE
            or kind is ActionKind.BRING_IN
        ):  # a choice of cards: a draw, discard, exposure or pass
            raise IllegalAction(f"a betting turn, not {kind.noun}: no cards are chosen now")
        must_open = self._must_open(to_call, bring_in)
        if kind is ActionKind.FOLD and not (to_call > 0 or must_open):
            raise IllegalAction(reason(codes.FOLD_WITHOUT_BET))
        can_check = self._can_check(to_call, bring_in, must_open)
        if kind is ActionKind.CHECK and not can_check:
            if must_open:
                raise IllegalAction("no checking in this betting round: open (bet) or fold")
            raise IllegalAction(reason(codes.CHECK_FACING_BET, a=to_call))
        if kind is ActionKind.CALL and to_call == 0 and bring_in is None:
            raise IllegalAction(
                "nothing to call: open or fold" if must_open else reason(codes.CALL_WITHOUT_BET)
            )

    def _check_wager(self, action: Action, seat: int, wager: tuple[int, int] | None) -> int:
        """The total of a bet or raise ``seat`` may make now (``wager``: the turn's range, as
        :class:`LegalActions` lists it), or IllegalAction."""
        kind = action.kind
        if (kind is ActionKind.BET) != (self._to_match == 0):
            raise IllegalAction(
                reason(codes.RAISE_WITHOUT_BET if self._to_match == 0 else codes.BET_FACING_BET)
            )
        total = action.total
        if total is None:
            raise IllegalAction(f"a {kind.value} needs a total")
        if wager is None:
            raise IllegalAction(self._why_no_wager(seat))
        low, high = wager
        if total == self.round_bets[seat] + int(self.stacks[seat]) and total <= high:
            return total  # all in for less than the minimum is always allowed
        if not low <= total <= high:
            raise IllegalAction(
                reason(codes.OUT_OF_RANGE, word=kind.value, a=low, b=high, total=total)
            )
        if not self.stakes.on_unit(total):
            raise IllegalAction(reason(codes.OFF_UNIT, a=self.stakes.unit, total=total))
        return total

    def _must_open(self, to_call: int, bring_in: int | None) -> bool:
        """A round without checking, nothing to call: the player opens or folds (Q-Ball)."""
        return to_call == 0 and bring_in is None and not self._bet_phase().checks

    def _may_open(self, seat: int) -> bool:
        """Whether ``seat`` may make this round's first bet (jackpots' openers)."""
        rank = self._bet_phase().openers(self.passed_out)
        if rank is None or self._to_match:
            return True
        return holds_openers(self.game.showdown, self.hole[seat], rank)

    def _why_no_wager(self, seat: int) -> str:
        if self.stacks[seat] <= self._to_match - self.round_bets[seat]:
            return reason(codes.NO_CHIPS_TO_RAISE)
        if self._bring_in_due and self.stacks[seat] <= self.game.forced.bring_in:
            return "the bring-in takes every chip the player has: pay the bring-in"
        if not self._may_open(seat):
            rank = self._bet_phase().openers(self.passed_out)
            assert rank is not None
            return f"no one may open without a pair of {rank.plural} or better: check"
        if seat in self._acted:
            return reason(codes.NOT_REOPENED)
        if not self._someone_could_call_more(seat):
            return reason(codes.NO_OPPONENT_CAN_CALL)
        return reason(codes.CAPPED)

    # -- phases ------------------------------------------------------------------------

    def _advance(self) -> None:
        """Run the phases after the current one until a player has a decision to make or the
        hand is over: deals are automatic, a betting round or decision phase waits for the
        players (skipped when no one can act in it)."""
        done = self.game.phases[self.phase] if self.phase >= 0 else None
        if isinstance(done, Bet) and self._to_match == 0:
            passes = done.passes
            if passes is IfPassed.REDEAL:
                self._pass_out(None)
                return
            if passes is IfPassed.SWITCH:
                self._switch()
        if self._kill_card_seen():
            return
        phases = self.game.phases
        while True:
            if self.folded.count(False) == 1 or self.phase + 1 >= len(phases):
                self.actor = None
                self._finish([s for s in range(self.n) if not self.folded[s]])
                return
            self.phase += 1
            self._decision = None
            phase = phases[self.phase]
            if isinstance(phase, Draft | Auction):  # deals the players take part in
                if self._open_decision(phase) or self._kill_card_seen():
                    return
            elif isinstance(phase, Deal):
                self._deal(phase)
                if self._kill_card_seen():
                    return
            elif isinstance(phase, Reveal):
                self._roll_out(phase)
                if self._kill_card_seen():
                    return
            elif isinstance(phase, Bet):
                first = not self._rounds_begun  # no betting round before this one
                self._rounds_begun += 1
                if not first:
                    self.street += 1
                if self._open_round(first=first):
                    return
            elif self._open_decision(phase):
                return

    def _bet_phase(self) -> Bet:
        phase = self.game.phases[self.phase]
        assert isinstance(phase, Bet)
        return phase

    def _can_bet(self, seat: int) -> bool:
        return not self.folded[seat] and self.stacks[seat] > 0

    def _others_can_bet(self, seat: int) -> bool:
        return any(self._can_bet(s) for s in range(self.n) if s != seat)

    def _open_round(self, *, first: bool = False) -> bool:
        """Find the first player to act (True), or none when no betting is possible."""
        if not first:
            self.round_bets = [0] * self.n
            self._acted = set()
            self._to_match = 0
            self._last_raise = 0
            self._bets_made = 0
            self._blind_credit = [0] * self.n
            self._cycle = list(range(self.n))  # 'After the flop, betting returns to normal.'
        # The players the cap's heads-up exception counts: as the round begins under the
        # start-of-round reading, or where the forced bets alone reach the cap.
        max_bets = self.stakes.max_bets
        counted = max_bets is not None and (
            self._bets_made >= max_bets or self.game.heads_up_cap is HeadsUpCap.START_OF_ROUND
        )
        self._cap_contesting = self._contesting() if counted else -1
        start = (
            self._first_actor_after + 1
            if first and self._first_actor_after >= 0
            else self.button + 1
        )
        opener = self._first_opener
        if self._bet_phase().first is FirstToAct.FIRST_ROUND_OPENER and opener is not None:
            start = opener
            self._legal = None
            self.actor = self._next_to_act(start % self.n, include_start=True)
            return self.actor is not None
        order = self.game.acting_order
        if order is not ActingOrder.POSITION:
            bring_in = first and bool(self.game.forced.bring_in)
            if bring_in:  # the players able to bet are read for the bring-in only
                able = [s for s in clockwise(self.button + 1, self.n) if self._can_bet(s)]
                if len(able) >= 2:
                    seat = bring_in_seat(self.up, able, self.game.bring_in_rule)
                    if self._open_with_bring_in(seat):
                        return True
                    start = seat + 1
            else:
                live = [s for s in clockwise(self.button + 1, self.n) if not self.folded[s]]
                lowball = self.game.showdown.halves[-1].ranking.lowball
                # Stud with community cards (Oxford stud, Billabong): 'the highest-ranking
                # incomplete poker hand (as in stud) made from his upcard plus the two
                # community cards' (Rules 002_376df91f076a6501.txt, 'Oxford stud').
                shared = self.board if self.game.deals_board else []
                start = showing_opener(
                    [[*up, *shared] for up in self.up],
                    live,
                    order,
                    lowball or Lowball.ACE_TO_FIVE,
                    dealt=not self.game.deck.jokers,  # standard codes, checked by the deck
                )
        self._legal = None
        self.actor = self._next_to_act(start % self.n, include_start=True)
        return self.actor is not None

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

    def _after_action(self, seat: int) -> None:
        self._legal = None
        if self._blind_credit[seat] and not self.folded[seat]:
            # His call or raise put real chips where the credit stood: counting both would
            # count the difference twice.  A folded blind stays in the pot as posted, and is
            # still treated as a big one until the big blind is through acting.
            self._blind_credit[seat] = 0
        if seat == self._big_blind_seat:
            self._blind_credit = [0] * self.n  # 'until the big blind is through acting'
        if self.folded.count(False) == 1:
            self.actor = None
            self._finish([s for s in range(self.n) if not self.folded[s]])
            return
        self.actor = self._next_to_act(seat)
        if self.actor is None:
            self._advance()

    def __repr__(self) -> str:
        board = " ".join(format_card(c) for c in self.board)
        return f"Hand({self.game.name}, stacks={self.stacks}, board=[{board}], actor={self.actor})"
