"""The card phases of a hand: deals, and the decisions players make about their own cards
(draws, discards, exposures) — a part of :class:`~simulations.engine.hand.Hand`.

Rules 003_6e018542f14946f8.txt, 'Five-card draw': 'Each player specifies how many of his
cards he wishes to replace, and discards that many from his hand ... each player in turn
beginning at the dealer's left is dealt from the stub the same number of cards he
discarded'.  A draw takes effect player by player; a discard or exposure is simultaneous and
takes effect when every live player has chosen (:mod:`simulations.engine.phases`).
"""

from __future__ import annotations

from mypy_extensions import trait

from simulations.cards import Card
from simulations.engine.actions import Action, ActionKind, CardChoice, IllegalAction, LegalActions
from simulations.engine.dealer import Dealer
from simulations.engine.decisions import ChoiceTerms, check_cards, check_choice
from simulations.engine.declare import Declaration
from simulations.engine.events import (
    Arranged,
    BoardDealt,
    Declared,
    Discarded,
    Event,
    Exposed,
    HoleDealt,
    Passed,
)
from simulations.engine.forced import clockwise
from simulations.engine.game import ExhaustionRule, GameDefinition
from simulations.engine.phases import (
    Arrange,
    Deal,
    Decision,
    Declare,
    Draw,
    Expose,
    Pass,
    Reveal,
    decision_action,
    simultaneous,
)


@trait  # a mixin of Hand: the compiled engine allows one base class besides traits
class CardPhases:
    """Deals and card decisions, mixed into :class:`~simulations.engine.hand.Hand` (which
    owns the state declared here)."""

    game: GameDefinition
    n: int
    button: int
    phase: int
    folded: list[bool]
    hole: list[list[Card]]
    up: list[list[Card]]
    upcards_dealt: list[Card]
    board: list[Card]
    events: list[Event]
    actor: int | None
    _dealer: Dealer
    _legal: LegalActions | None
    _draws: int
    _decision: Decision | None
    _deciding: list[int]
    _chosen: dict[int, tuple[Card, ...]]
    _declaring: dict[int, Declaration]  # made and not yet shown
    _arranged: dict[int, list[Card]]  # a roll-out's order, first turned up first
    declared: dict[int, Declaration]
    _owed: list[tuple[int, int]]
    _last_replaced: int

    def _advance(self) -> None:
        raise NotImplementedError  # the hand moves on to the next phase

    def _deal(self, phase: Deal) -> None:
        """Deal ``phase``: one card at a time, clockwise from the dealer's left, down cards
        before up cards; a player who has folded gets no more."""
        receiving = [s for s in clockwise(self.button + 1, self.n) if not self.folded[s]]
        # Whether this is the hand's last deal: only the tournament stud rule asks.
        last = self.game.exhaustion is ExhaustionRule.STUD_WSOP and not any(
            isinstance(p, Deal) for p in self.game.phases[self.phase + 1 :]
        )
        dealt = self._dealer.deal(phase, receiving, last=last)
        for i in range(phase.up if dealt.up else 0):  # the up cards in the order dealt
            self.upcards_dealt.extend(dealt.up[seat][i] for seat in receiving)
        for cards, face_up in ((dealt.down, False), (dealt.up, True)):
            for seat in sorted(cards):
                if cards[seat]:
                    self.hole[seat].extend(cards[seat])
                    if face_up:
                        self.up[seat].extend(cards[seat])
                    self.events.append(HoleDealt(seat, tuple(cards[seat]), face_up))
        if dealt.board:
            self.board.extend(dealt.board)
            self.events.append(BoardDealt(phase.street, dealt.board))

    def _open_decision(self, phase: Decision) -> bool:
        """Start a draw, discard or exposure: every live player chooses in turn from the
        dealer's left (True: someone is to choose)."""
        self._decision = phase
        self._deciding = [s for s in clockwise(self.button + 1, self.n) if not self.folded[s]]
        self._chosen = {}
        self._declaring = {}
        self._owed = []
        self._last_replaced = -1
        self._legal = None
        if isinstance(phase, Draw) and phase.burn:
            self._dealer.burn()
        self.actor = self._deciding[0] if self._deciding else None
        return self.actor is not None

    def _choice(self, seat: int, phase: Decision) -> CardChoice:
        return CardChoice(*self._choice_terms(seat, phase))

    def _choice_terms(self, seat: int, phase: Decision) -> ChoiceTerms:
        """What ``seat`` may choose in ``phase`` (:class:`CardChoice`'s fields)."""
        if isinstance(phase, Declare):
            raise TypeError("a declaration chooses no cards")
        kind = decision_action(phase)
        if isinstance(phase, Draw):
            return kind, tuple(self.hole[seat]), 0, phase.most, phase.most_keeping_ace
        # The other choices are among the cards no one has seen: a discard is of 'one of his
        # hole cards' (Rules 000_1a86611de8d3f5f7.txt, 'Shanghai'; pineapple's are all down).
        down = tuple(c for c in self.hole[seat] if c not in self.up[seat])
        if isinstance(phase, Arrange):  # every down card, in the order he names them
            return kind, down, len(down), len(down), None
        return kind, down, phase.count, phase.count, None

    def _decide(
        self, seat: int, action: Action, choice: CardChoice | None, phase: Decision
    ) -> None:
        """Apply ``seat``'s answer to ``choice`` (what ``legal_actions`` offered him), or,
        when he did not ask, to what the phase lets him choose."""
        if isinstance(phase, Declare):
            _check_declaration(action)
        elif choice is not None:
            check_choice(choice, action, self.game.showdown)
        else:
            check_cards(self._choice_terms(seat, phase), action, self.game.showdown)
        self._legal = None
        self._deciding.pop(0)
        together = simultaneous(phase)
        if isinstance(phase, Declare):
            assert action.declaration is not None  # checked above
            self._declaring[seat] = action.declaration
            if not together:  # in turn: known to everyone at once
                self._announce_declarations()
        elif together:
            self._chosen[seat] = action.cards
        else:
            assert isinstance(phase, Draw)  # the one card phase taken player by player
            self._draw(seat, action.cards, phase)
        if self._deciding:
            self.actor = self._deciding[0]
            return
        if isinstance(phase, Declare):
            self._announce_declarations()
        elif together:
            self._reveal(phase)
        else:
            assert isinstance(phase, Draw)
            self._deal_owed(phase)
        self.actor = None
        self._advance()

    def _announce_declarations(self) -> None:
        """The declarations made and not yet shown, in order from the dealer's left (all of
        them at once when the declaration is simultaneous: 'the players all open their hands
        simultaneously')."""
        for seat in clockwise(self.button + 1, self.n):
            if seat in self._declaring:
                self.declared[seat] = self._declaring[seat]
                self.events.append(Declared(seat, self._declaring[seat]))
        self._declaring = {}

    def _draw(self, seat: int, discards: tuple[Card, ...], street: Draw) -> None:
        """Rules 003_6e018542f14946f8.txt, 'Five-card draw': the player discards, then is dealt
        'the same number of cards he discarded'.  Unless the game allows it, no one is dealt
        five consecutive cards from the stub: 'he is given four of them in turn, the other
        players are given their draws, and then the dealer returns to that player'."""
        self.hole[seat] = [c for c in self.hole[seat] if c not in discards]
        self._dealer.discard(self._draws, seat, discards)
        self.events.append(Discarded(seat, discards))
        now = len(discards) + street.extra  # Four-before: one more than discarded
        if not self.game.five_consecutive and now >= 5:
            self._owed.append((seat, now - 4))
            now = 4
        self._replace(seat, now, street.street)

    def _replace(self, seat: int, count: int, street: str) -> None:
        if not count:
            return
        cards = tuple(self._dealer.replacement(seat, self._draws, street) for _ in range(count))
        self.hole[seat].extend(cards)
        self.events.append(HoleDealt(seat, cards))
        self._last_replaced = seat

    def _deal_owed(self, street: Draw) -> None:
        """The replacements held back by the five-consecutive rule, after everyone else's
        draw — 'if no later player drew, it is necessary to deal a burn card first'."""
        for seat, count in self._owed:
            if self._last_replaced == seat:
                self._dealer.burn()
            self._replace(seat, count, street.street)
        self._owed = []
        self._draws += 1

    def _reveal(self, phase: Decision) -> None:
        """A simultaneous phase takes effect once every choice is in."""
        if isinstance(phase, Pass):
            self._pass(phase)
            return
        if isinstance(phase, Arrange):
            for seat in clockwise(self.button + 1, self.n):
                if seat in self._chosen:
                    self._arranged[seat] = list(self._chosen[seat])
                    self.events.append(Arranged(seat, self._chosen[seat]))
            self._chosen = {}
            return
        for seat in clockwise(self.button + 1, self.n):  # shown from the dealer's left
            if seat not in self._chosen:
                continue
            cards = self._chosen[seat]
            if isinstance(phase, Expose):
                self.up[seat].extend(cards)
                self.upcards_dealt.extend(cards)
                self.events.append(Exposed(seat, cards))
            else:
                self.hole[seat] = [c for c in self.hole[seat] if c not in cards]
                self.events.append(Discarded(seat, cards))
        self._chosen = {}

    def _pass(self, phase: Pass) -> None:
        """Every pass at once (Rules 000_1a86611de8d3f5f7.txt, 'Anaconda': 'It is important
        that each player discard before looking at the cards he is to receive'): each
        player's chosen cards leave his hand, then go to the live player the pass names."""
        live = [s for s in clockwise(self.button + 1, self.n) if s in self._chosen]
        receivers = phase.receivers(live)
        for seat in live:
            cards = self._chosen[seat]
            self.hole[seat] = [c for c in self.hole[seat] if c not in cards]
        for seat in live:
            cards = self._chosen[seat]
            self.hole[receivers[seat]].extend(cards)
            self.events.append(Passed(seat, receivers[seat], cards))
        self._chosen = {}

    def _roll_out(self, phase: Reveal) -> None:
        """Turn up each live player's next ``count`` arranged cards, clockwise from the
        dealer's left (the order he arranged them in, which he may not change)."""
        for seat in clockwise(self.button + 1, self.n):
            if self.folded[seat] or seat not in self._arranged:
                continue
            order = self._arranged[seat]
            cards = tuple(c for c in order if c not in self.up[seat])[: phase.count]
            if cards:
                self.up[seat].extend(cards)
                self.upcards_dealt.extend(cards)
                self.events.append(Exposed(seat, cards))


def _check_declaration(action: Action) -> None:
    """A declaration is due: high, low or both, and nothing else."""
    if action.kind is not ActionKind.DECLARE:
        raise IllegalAction(f"a declaration is due: high, low or both (got {action.kind.value})")
    if action.declaration is None:
        raise IllegalAction("a declaration names high, low or both")
