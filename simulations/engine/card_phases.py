"""The card phases of a hand: deals, and the decisions players make about their own cards
(draws, discards, exposures, donations, twists, payments) — a part of
:class:`~simulations.engine.hand.Hand`.

Rules 003_6e018542f14946f8.txt, 'Five-card draw': 'Each player specifies how many of his
cards he wishes to replace, and discards that many from his hand ... each player in turn
beginning at the dealer's left is dealt from the stub the same number of cards he
discarded'.  A draw takes effect player by player; a discard or exposure is simultaneous and
takes effect when every live player has chosen (:mod:`simulations.engine.phases`).

Three mechanics of the home games live here too, each once:

* East Village's donations (Rules 002_376df91f076a6501.txt, '= East Village =': 'each
  player "donates" one of his cards'): simultaneous, like a discard; once every live player
  has given his, the dealer makes the pile the board is dealt from (:meth:`_donate`).
* Twist rounds (Rules 002: 'A twist round in which players can buy another card from the
  deck ... This is sometimes called a "Tittle."'): each live player in turn from the
  dealer's left may buy one card in place of one of his, up for up and down for down,
  paying the price into the pot as dead money; with the Tittle he may buy again in place of
  the card he bought (:meth:`_twist`).
* Baseball's payment (Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'paying the pot for
  wild cards'): right after the deal, in the order the cards were dealt, each player dealt
  an upcard of the rank matches the pot or folds (:meth:`_pay`).  With one upcard a street
  nothing dealt later in the street depends on his answer, so asking once the street's
  cards are out is asking at once.

Cowpie's split is a simultaneous decision too (:mod:`simulations.engine.split_hands` says
which splits are legal); drafts and auctions are :mod:`simulations.engine.centre_phases`'.
"""

from __future__ import annotations

from mypy_extensions import trait

from simulations.cards import FIRST_JOKER, Card
from simulations.engine.actions import Action, ActionKind, CardChoice, IllegalAction, LegalActions
from simulations.engine.dealer import Dealer
from simulations.engine.decisions import (
    ChoiceTerms,
    check_cards,
    check_choice,
    check_payment,
    check_twist,
)
from simulations.engine.declare import Declaration
from simulations.engine.events import (
    Arranged,
    BoardDealt,
    Declared,
    Discarded,
    Donated,
    Event,
    Exposed,
    Folded,
    HandSplit,
    HoleDealt,
    Paid,
    Passed,
    Twisted,
)
from simulations.engine.forced import clockwise
from simulations.engine.game import ExhaustionRule, GameDefinition
from simulations.engine.phases import (
    Arrange,
    Auction,
    Deal,
    Decision,
    Declare,
    Donate,
    Draft,
    Draw,
    Expose,
    Pass,
    Pay,
    Reveal,
    Split,
    Twist,
    decision_action,
    simultaneous,
)
from simulations.engine.pots import Chips
from simulations.engine.split_hands import check_split, two_card_hands
from simulations.rules.exhaustion_rules import held_back


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
    stacks: list[Chips]
    contributed: list[int]
    dead: list[int]
    actor: int | None
    _dealer: Dealer
    _legal: LegalActions | None
    _draws: int
    _decision: Decision | None
    _deciding: list[int]
    # A simultaneous phase's choices so far; a twist's card bought (the Tittle buys again in
    # its place); a payment's cards still to pay for, in the order dealt.
    _chosen: dict[int, tuple[Card, ...]]
    _declaring: dict[int, Declaration]  # made and not yet shown
    _arranged: dict[int, list[Card]]  # a roll-out's order, first turned up first
    declared: dict[int, Declaration]
    split_two: dict[int, tuple[Card, ...]]  # Cowpie: each player's two-card hand
    _owed: list[tuple[int, int]]
    _last_replaced: int

    def _advance(self) -> None:
        raise NotImplementedError  # the hand moves on to the next phase

    # Drafts and auctions (simulations.engine.centre_phases.CentrePhases, a kind of this).
    def _open_centre(self, phase: Draft | Auction) -> None:
        raise NotImplementedError

    def _centre_choice(self, seat: int, phase: Draft | Auction) -> CardChoice:
        raise NotImplementedError

    def _centre_decide(self, seat: int, action: Action, phase: Draft | Auction) -> None:
        raise NotImplementedError

    @property
    def pot_total(self) -> int:
        raise NotImplementedError  # the hand's: every chip in the pot

    def _deal(self, phase: Deal) -> None:
        """Deal ``phase``: one card at a time, clockwise from the dealer's left, down cards
        before up cards; a player who has folded gets no more."""
        receiving = [s for s in clockwise(self.button + 1, self.n) if not self.folded[s]]
        # Whether this is the hand's last deal: the tournament stud rule asks, and a deal of
        # extra upcards (its community card, if any, comes only on the last).
        last = (
            self.game.exhaustion is ExhaustionRule.STUD_WSOP or phase.extra_up is not None
        ) and not any(isinstance(p, Deal) for p in self.game.phases[self.phase + 1 :])
        dealt = self._dealer.deal(phase, receiving, last=last)
        self.upcards_dealt.extend(card for _, card in self._dealer.last_up)  # in order dealt
        for cards, face_up in ((dealt.down, False), (dealt.up, True)):
            for seat in sorted(cards):
                if cards[seat]:
                    self.hole[seat].extend(cards[seat])
                    if face_up:
                        self.up[seat].extend(cards[seat])
                    self.events.append(HoleDealt(seat, tuple(cards[seat]), face_up))
                extra = dealt.extra.get(seat) if face_up else None
                if extra:  # Baseball: an extra upcard at once for each upcard of the rank
                    self.hole[seat].extend(extra)
                    self.up[seat].extend(extra)
                    self.events.append(HoleDealt(seat, tuple(extra), True, True))
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
        elif isinstance(phase, Pay):  # each upcard of the rank, in the order dealt
            self._deciding = []
            just_dealt = self.phase > 0 and isinstance(self.game.phases[self.phase - 1], Deal)
            for seat, card in self._dealer.last_up if just_dealt else ():
                if card < FIRST_JOKER and card >> 2 == phase.rank and not self.folded[seat]:
                    self._deciding.append(seat)
                    self._chosen[seat] = (*self._chosen.get(seat, ()), card)
        elif isinstance(phase, Twist):
            self._skip_twisters(phase)
        elif isinstance(phase, Draft | Auction):
            self._open_centre(phase)
        self.actor = self._deciding[0] if self._deciding else None
        return self.actor is not None

    def _choice(self, seat: int, phase: Decision) -> CardChoice:
        if isinstance(phase, Draft | Auction):
            return self._centre_choice(seat, phase)
        if isinstance(phase, Split):  # any of his cards, but only the legal two-card hands
            hole = self.hole[seat]
            hands = two_card_hands(hole, self.up[seat])
            return CardChoice(ActionKind.SPLIT, tuple(hole), 2, 2, options=hands)
        if isinstance(phase, Twist):
            offered = self._chosen.get(seat, tuple(self.hole[seat]))  # the Tittle: the card bought
            return CardChoice(ActionKind.TWIST, offered, 0, 1, price=phase.price)
        if isinstance(phase, Pay):
            return CardChoice(ActionKind.PAY, (), 0, 0, price=self._pot_price(seat), may_fold=True)
        return CardChoice(*self._choice_terms(seat, phase))

    def _choice_terms(self, seat: int, phase: Decision) -> ChoiceTerms:
        """What ``seat`` may choose in ``phase`` (:class:`CardChoice`'s fields)."""
        if isinstance(phase, Declare | Twist | Pay | Split | Draft | Auction):
            raise TypeError(f"{decision_action(phase).noun} has no choice terms")
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
        if isinstance(phase, Twist):
            self._twist(seat, action, phase)
            return
        if isinstance(phase, Pay):
            self._pay(seat, action)
            return
        if isinstance(phase, Draft | Auction):
            self._centre_decide(seat, action, phase)
            return
        if isinstance(phase, Declare):
            _check_declaration(action)
        elif isinstance(phase, Split):
            check_split(self.hole[seat], self.up[seat], action)
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
        later = held_back(now, self.game.five_consecutive)  # the kernel's arithmetic too
        if later:
            self._owed.append((seat, later))
            now -= later
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
        if isinstance(phase, Donate):
            self._donate(phase)
            return
        if isinstance(phase, Split):
            self._split()
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

    def _split(self) -> None:
        """Every split at once, shown in the log from the dealer's left (face down at the
        table until the showdown)."""
        for seat in clockwise(self.button + 1, self.n):
            if seat in self._chosen:
                two = self._chosen[seat]
                self.split_two[seat] = two
                five = tuple(c for c in self.hole[seat] if c not in two)
                self.events.append(HandSplit(seat, five, two))
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

    def _donate(self, phase: Donate) -> None:
        """Every donation at once, from the dealer's left; then the dealer scrambles them and
        fills the pile from the stub (Rules 002_376df91f076a6501.txt, '= East Village =':
        'The dealer then adds cards from the stub until there are a total of 7 donation
        cards')."""
        donated: list[Card] = []
        for seat in clockwise(self.button + 1, self.n):
            if seat in self._chosen:
                cards = self._chosen[seat]
                self.hole[seat] = [c for c in self.hole[seat] if c not in cards]
                self.events.append(Donated(seat, cards))
                donated.extend(cards)
        self._chosen = {}
        self._dealer.make_pile(donated, phase.pile)

    # -- twists and payments -------------------------------------------------------------

    def _put_dead(self, seat: int, amount: int) -> None:
        """Chips into the pot that count toward no bet and never go back (a twist's price,
        a pot matched): dead money, as a dead post is."""
        self.stacks[seat] -= amount
        self.contributed[seat] += amount
        self.dead[seat] += amount

    def _twist(self, seat: int, action: Action, phase: Twist) -> None:
        """Rules 002_376df91f076a6501.txt: 'players can buy another card from the deck'.  The
        card given up is out of play; the one bought takes its place face up if it was up
        and down if down.  Without the Tittle a player's turn ends with his purchase."""
        check_twist(self._choice(seat, phase), action)
        self._legal = None
        if not action.cards:
            self.events.append(Twisted(seat, False, 0, False))
            self._deciding.pop(0)
        else:
            card = action.cards[0]
            face_up = card in self.up[seat]
            self._put_dead(seat, phase.price)
            self.events.append(Twisted(seat, True, phase.price, self.stacks[seat] == 0))
            self.hole[seat].remove(card)
            if face_up:
                self.up[seat].remove(card)
            self.events.append(Discarded(seat, (card,)))
            bought = self._dealer.twist_card()
            self.hole[seat].append(bought)
            if face_up:
                self.up[seat].append(bought)
                self.upcards_dealt.append(bought)
            self.events.append(HoleDealt(seat, (bought,), face_up))
            if phase.again:  # 'the player can purchase another one by adding money'
                self._chosen[seat] = (bought,)
            else:
                self._deciding.pop(0)
        self._skip_twisters(phase)
        self._next_decider()

    def _skip_twisters(self, phase: Twist) -> None:
        """Pass over the players next in turn who cannot buy a card: who cannot pay the whole
        price, or when the stub holds no card beyond what the later deals need."""
        while self._deciding:
            seat = self._deciding[0]
            if self.stacks[seat] >= phase.price and (
                self._dealer.deck.remaining > self._twist_reserve()
            ):
                return
            self._deciding.pop(0)

    def _twist_reserve(self) -> int:
        """The stub cards a twist must leave for the hand's later deals with every player
        still in staying: all they deal, but under a stud rule the last deal only its burn
        and one community card (the rule deals the rest from the burn cards, or makes it a
        community card); extra upcards may take the four cards of their rank."""
        live = self.folded.count(False)
        rule = self.game.exhaustion
        phases = self.game.phases
        last = max(i for i, p in enumerate(phases) if isinstance(p, Deal))
        reserve = 0
        extras = False
        for index in range(self.phase + 1, len(phases)):
            phase = phases[index]
            if isinstance(phase, Deal) and not phase.pile:
                if rule.for_stud and index == last:
                    reserve += 1 + phase.burn
                else:
                    reserve += phase.per_player * live + phase.board + phase.burn
                extras = extras or phase.extra_up is not None
            elif isinstance(phase, Donate):
                reserve += max(0, phase.pile - phase.count * live)
            elif isinstance(phase, Draw) and rule is ExhaustionRule.NONE:
                reserve += (phase.limit(True) + phase.extra) * live + phase.burn
        return reserve + (4 if extras and not rule.for_stud else 0)

    def _pot_price(self, seat: int) -> int:
        """What matching the pot costs ``seat``: the whole pot, or all he has."""
        return min(self.pot_total, int(self.stacks[seat]))

    def _pay(self, seat: int, action: Action) -> None:
        """Baseball (Rules 000_1a86611de8d3f5f7.txt, 'paying the pot for wild cards'): a player
        dealt the rank up matches the pot — pays as much as it holds into it (dead money; all
        he has if that is less), once for each such card — or folds."""
        check_payment(action)
        self._legal = None
        self._deciding.pop(0)
        cards = self._chosen[seat]
        self._chosen[seat] = cards[1:]
        if action.kind is ActionKind.FOLD:
            self.folded[seat] = True
            self.events.append(Folded(seat))
        else:
            amount = self._pot_price(seat)
            self._put_dead(seat, amount)
            self.events.append(Paid(seat, cards[0], amount, self.stacks[seat] == 0))
        while self._deciding and self.folded[self._deciding[0]]:
            self._deciding.pop(0)
        if self.folded.count(False) == 1:
            self._deciding = []
        self._next_decider()

    def _next_decider(self) -> None:
        """The next player in turn of a twist or payment, or, when none is left, the next
        phase."""
        if self._deciding:
            self.actor = self._deciding[0]
            return
        self._chosen = {}
        self.actor = None
        self._advance()


def _check_declaration(action: Action) -> None:
    """A declaration is due: high, low or both, and nothing else."""
    if action.kind is not ActionKind.DECLARE:
        raise IllegalAction(f"a declaration is due: high, low or both (got {action.kind.value})")
    if action.declaration is None:
        raise IllegalAction("a declaration names high, low or both")
