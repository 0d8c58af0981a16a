"""A session of guts as a state machine: deals until the game ends.

Rules 000_1a86611de8d3f5f7.txt, 'Guts': "guts features multiple rounds, each of which
consist of the decision to be “in” or “out”, and each of which contains a showdown. Only
the players who stay “in” participate in the showdown."  A session antes the pot, then
deals: it shuffles (a seeded ``numpy`` generator, or given deck orders), deals each player
his cards one at a time from the dealer's left, takes every player's decision, shows down
the hands of those in and applies the game's pot rule (:class:`~simulations.engine.guts_game.
GutsGame`), and deals again — "all players (even those who were “out” in the last round)
can participate again" — with the deal moving one seat to the left each time, until "only
a single player has the guts to stay “in”, and thus the pot is taken without
replenishment".

Decisions are made all at once by default: any undecided player may decide, in any order,
and nobody learns another's decision until all are made (the log shows them together).  In
turn, each decides when :meth:`GutsSession.legal_actions` names him, from the dealer's left,
the dealer last.  A decision the rules do not allow (deciding twice, out of turn, after the
game ended, a word other than in or out) raises :class:`IllegalAction` and changes
nothing.

Every chip is accounted for: each player's net (``nets``, negative when he has paid more
than he took), the pot and the chips set aside over the cap always sum to what the session
started from (``carried``, 0 unless it starts from an earlier game's set-aside).  There are
no table stakes: a loser pays the whole match however much that is.  Without a cap the pot
can grow "exponentially" (ten players all in multiply it by nine each deal); chips are
Python integers, so no pot is too big to count, and a session stops for its size only when
asked to (``max_pot``), saying so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from simulations.cards import STANDARD_CARD_COUNT, Card, format_card
from simulations.decks import Deck
from simulations.engine.actions import IllegalAction
from simulations.engine.guts_events import (
    AnteCarried,
    Anted,
    CardsDealt,
    ChallengeOffered,
    DealStarted,
    Decided,
    GameEnded,
    GutsDecision,
    GutsEvent,
    HandShown,
    NobodyWon,
    NobodyWonReason,
    PaidIn,
    PotTaken,
    SetAsideOverCap,
    Stopped,
    StopReason,
)
from simulations.engine.guts_game import (
    DealerRule,
    DealerWithoutPair,
    Declaring,
    GutsDeal,
    GutsGame,
    LastCard,
    NobodyIn,
    PotRule,
    SetAside,
    ViciousPayers,
    WorstHandPays,
)
from simulations.engine.pots import clockwise_from_button, split
from simulations.rules.guts_rules import MATCH, NO_CAP, VICIOUS, WORST_HAND_DOUBLES, over_cap, owed
from simulations.spec import echo

# The compiled pot rules reckon in 64-bit chips; a pot past them (without a cap it multiplies
# every deal) is reckoned by the same rule's own Python source, in Python's integers.
_INT64_MAX = 2**63 - 1


def _wide(chips: int) -> bool:
    """Whether ``chips`` is past what the compiled rules reckon in."""
    return not -_INT64_MAX <= chips <= _INT64_MAX


__all__ = ["GutsDecision", "GutsGame", "GutsLegal", "GutsSession", "IllegalAction"]

_PACK = Deck.standard()
_POT_RULES = {
    PotRule.MATCH: MATCH,
    PotRule.WORST_HAND_DOUBLES: WORST_HAND_DOUBLES,
    PotRule.VICIOUS: VICIOUS,
}


@dataclass(frozen=True)
class GutsLegal:
    """Who may decide now: every undecided player when the decision is made all at once,
    the one whose turn it is otherwise; ``challenge`` when the decision is a challenge of
    the dealer who stayed in alone."""

    seats: tuple[int, ...]
    challenge: bool = False
    decisions: tuple[GutsDecision, ...] = (GutsDecision.IN, GutsDecision.OUT)


class _Stage(Enum):
    DECIDING = "deciding"
    CHALLENGING = "challenging"
    OVER = "over"


class GutsSession:
    """One game of guts, from the antes to the deal that ends it.

    ``players`` sit in seats 0 to players - 1, clockwise; ``button`` deals first.  Deals come
    from ``decks`` (each a deck order: the cards in the order they are dealt), one per deal
    in turn, then from ``rng``; with neither left the session stops (:class:`Stopped`), and
    so it does after ``max_deals`` deals, or once the pot and the set-aside pass ``max_pot``
    chips where a caller names that bound.  ``carried`` is an earlier game's set-aside, this
    game's ante in place of the players' antes.
    """

    def __init__(
        self,
        game: GutsGame,
        players: int,
        *,
        button: int = 0,
        rng: np.random.Generator | None = None,
        decks: Sequence[Sequence[int]] = (),
        carried: int = 0,
        max_deals: int | None = None,
        max_pot: int | None = None,
    ) -> None:
        if not game.min_players <= players <= game.max_players:
            raise ValueError(
                f"players: {game.name} is for {game.min_players} to {game.max_players} "
                f"players, got {players}"
            )
        if not 0 <= button < players:
            raise ValueError(f"button: seat {button} is not at a table of {players}")
        if rng is None and not decks:
            raise ValueError("deal from given deck orders (decks) or a seeded rng")
        if carried < 0:
            raise ValueError(f"carried: cannot be negative, got {carried}")
        start, field = (carried, "carried") if carried else (game.ante * players, "ante")
        if max_pot is not None and start > max_pot:
            raise ValueError(f"{field}: the pot starts at {start:,} chips; at most {max_pot:,}")
        if max_deals is not None and max_deals < 1:
            raise ValueError(f"max_deals: must be at least 1, got {max_deals}")
        self.game = game
        self.n = players
        self.button = button  # the dealer of the current deal
        self.carried = carried
        self._rng = rng
        self._decks = [
            _checked_deck(order, i, players * game.cards) for i, order in enumerate(decks)
        ]
        self._max_deals = max_deals
        self._max_pot = max_pot
        self.events: list[GutsEvent] = []
        self.deals = 0
        self.pot = 0
        self.set_aside = 0
        self._nets = [0] * players
        self._stage = _Stage.DECIDING
        self.ended = False  # the game ended by its rules
        self.stopped: StopReason | None = None
        self._deck: tuple[Card, ...] = ()
        self._dealt = 0
        self._cards: list[list[Card]] = [[] for _ in range(players)]
        self._up: list[list[Card]] = [[] for _ in range(players)]
        self._decisions: dict[int, GutsDecision] = {}  # unseen by the others until all are in
        self._challenges: dict[int, GutsDecision] = {}
        self._turn: int | None = None
        if carried:
            self.events.append(AnteCarried(carried))
            self._into_pot(carried)
        else:
            self._ante()
        self._start_deal()

    # --- what the players see -----------------------------------------------------------

    @property
    def nets(self) -> tuple[int, ...]:
        """Each seat's chips taken less chips paid so far."""
        return tuple(self._nets)

    @property
    def finished(self) -> bool:
        """No decision is due: the game ended, or the session stopped."""
        return self._stage is _Stage.OVER

    @property
    def dealer(self) -> int:
        return self.button

    def cards(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s cards this deal, down and up (his own view of his hand)."""
        return tuple(self._cards[seat])

    def up_cards(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s face-up cards this deal (what everyone sees)."""
        return tuple(self._up[seat])

    @property
    def seats_in(self) -> tuple[int, ...]:
        """The players known to be in this deal so far: those who declared in, in turn;
        nobody while decisions made all at once are still being made."""
        if self.game.declaring is Declaring.SIMULTANEOUS:
            return ()
        return tuple(s for s in self._left_of_dealer() if self._decisions.get(s) is GutsDecision.IN)

    def legal_actions(self) -> GutsLegal:
        """Who may decide now; :class:`IllegalAction` once no decision is due."""
        if self._stage is _Stage.OVER:
            raise IllegalAction(self._over_message())
        challenge = self._stage is _Stage.CHALLENGING
        if self._turn is not None:
            return GutsLegal((self._turn,), challenge)
        waiting = clockwise_from_button(
            (s for s in range(self.n) if s not in self._decisions), self.button, self.n
        )
        return GutsLegal(tuple(waiting), challenge)

    # --- deciding -----------------------------------------------------------------------

    def act(self, seat: int, decision: GutsDecision | str) -> None:
        """``seat`` decides to be in or out (or, offered the challenge, to challenge the
        dealer: in).  Raises :class:`IllegalAction`, the session unchanged, when he may not."""
        chosen = self._check(seat, decision)
        if self._stage is _Stage.CHALLENGING:
            self._challenges[seat] = chosen
            self._declared_in_turn(seat, chosen, challenge=True)
            if self._turn is None:
                self._after_challenges()
            return
        self._decisions[seat] = chosen
        if self.game.declaring is Declaring.IN_TURN:
            self._declared_in_turn(seat, chosen, challenge=False)
            if self._turn is None:
                self._after_decisions()
        elif len(self._decisions) == self.n:
            self._after_decisions()

    def _check(self, seat: int, decision: GutsDecision | str) -> GutsDecision:
        if self._stage is _Stage.OVER:
            raise IllegalAction(self._over_message())
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction(f"seat: {echo(seat)} is not a seat (0 to {self.n - 1})")
        try:
            chosen = GutsDecision(decision)
        except ValueError:
            raise IllegalAction(
                f"decision: {echo(decision)} is not a decision: 'in' or 'out'"
            ) from None
        if self._turn is not None and seat != self._turn:
            what = "challenge the dealer" if self._stage is _Stage.CHALLENGING else "declare"
            raise IllegalAction(f"it is seat {self._turn}'s turn to {what}, not seat {seat}'s")
        if self._turn is None and seat in self._decisions:
            raise IllegalAction(f"seat {seat} has already decided this deal")
        return chosen

    def _over_message(self) -> str:
        if self.stopped is not None:
            return f"the session has stopped: {self.stopped.value}"
        return "the game is over: a deal had a winner and no loser"

    def _declared_in_turn(self, seat: int, chosen: GutsDecision, *, challenge: bool) -> None:
        """A decision made in turn is shown at once; 'If they're in, they receive their
        third card face up' (Rules 000_1a86611de8d3f5f7.txt, 'Guts'), as he declares unless
        the game deals it once all have declared."""
        self.events.append(Decided(seat, chosen, challenge))
        if chosen is GutsDecision.IN and self.game.last_card is LastCard.AS_DECLARED:
            self._deal_last_card(seat)
        last = self.button
        if challenge:  # the dealer does not challenge himself: the seat before him is last
            last = (self.button - 1) % self.n
        self._turn = None if seat == last else (seat + 1) % self.n

    # --- dealing ------------------------------------------------------------------------

    def _ante(self) -> None:
        """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "if there are 5 players with an ante of
        $1, the pot started at $5": every player antes into the pot."""
        for seat in range(self.n):
            self.events.append(Anted(seat, self.game.ante))
            self._nets[seat] -= self.game.ante
        self._into_pot(self.game.ante * self.n)

    def _start_deal(self) -> None:
        if self._max_pot is not None and self.pot + self.set_aside > self._max_pot:
            self._stop(StopReason.POT_LIMIT)
            return
        if self._max_deals is not None and self.deals >= self._max_deals:
            self._stop(StopReason.DEAL_LIMIT)
            return
        if self.deals < len(self._decks):
            self._deck = self._decks[self.deals]
        elif self._rng is not None:
            self._deck = tuple(Card(int(c)) for c in _PACK.shuffled(self._rng))
        else:
            self._stop(StopReason.NO_DECK_ORDER)
            return
        self.deals += 1
        self._dealt = 0
        self._cards = [[] for _ in range(self.n)]
        self._up = [[] for _ in range(self.n)]
        self._decisions, self._challenges = {}, {}
        self._stage = _Stage.DECIDING
        self.events.append(DealStarted(self.deals, self.button, self.pot))
        order = self._left_of_dealer()
        for _ in range(self.game.down_cards):  # one card at a time, round the table
            for seat in order:
                self._cards[seat].append(self._next_card())
        for seat in order:
            self.events.append(CardsDealt(seat, tuple(self._cards[seat])))
        in_turn = self.game.declaring is Declaring.IN_TURN
        self._turn = order[0] if in_turn else None

    def _next_card(self) -> Card:
        card = self._deck[self._dealt]
        self._dealt += 1
        return card

    def _deal_last_card(self, seat: int) -> None:
        if self.game.deal is not GutsDeal.LAST_CARD_UP or len(self._cards[seat]) == self.game.cards:
            return
        card = self._next_card()
        self._cards[seat].append(card)
        self._up[seat].append(card)
        self.events.append(CardsDealt(seat, (card,), face_up=True))

    def _left_of_dealer(self) -> list[int]:
        """Every seat clockwise from the dealer's left, the dealer last."""
        return [(self.button + k) % self.n for k in range(1, self.n + 1)]

    # --- after the decisions ------------------------------------------------------------

    def _after_decisions(self) -> None:
        """Everyone has decided: decisions made all at once are shown together ("the
        players simultaneously open their hands to reveal their decision", Rules
        000_1a86611de8d3f5f7.txt, 'Guts'), and those in are dealt any card still due."""
        order = self._left_of_dealer()
        if self.game.declaring is Declaring.SIMULTANEOUS:
            for seat in order:
                self.events.append(Decided(seat, self._decisions[seat]))
        ins = [s for s in order if self._decisions[s] is GutsDecision.IN]
        for seat in ins:
            self._deal_last_card(seat)
        if self.game.dealer is DealerRule.CHALLENGE and ins == [self.button]:
            self._offer_challenge()
            return
        self._settle(ins)

    def _offer_challenge(self) -> None:
        """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "Another variation is for the other
        players to have another chance to declare and challenge the dealer": the dealer
        alone stayed in, so each of the others, in turn from his left, may challenge."""
        self._stage = _Stage.CHALLENGING
        self.events.append(ChallengeOffered(self.button))
        self._turn = (self.button + 1) % self.n

    def _after_challenges(self) -> None:
        """ "With this variation, there is no requirement for the dealer's hand; if no one
        challenges him, the dealer wins" (Rules 000_1a86611de8d3f5f7.txt, 'Guts'); those who
        challenge show down against him."""
        order = self._left_of_dealer()
        challengers = [s for s in order if self._challenges.get(s) is GutsDecision.IN]
        for seat in challengers:
            self._deal_last_card(seat)
        if not challengers:
            self._end([self.button])
            return
        self._showdown([*challengers, self.button])

    def _settle(self, ins: list[int]) -> None:
        if not ins:
            self._nobody_in()
        elif len(ins) > 1:
            self._showdown(ins)
        elif (
            ins[0] == self.button
            and self.game.dealer is DealerRule.PAIR_TO_WIN_ALONE
            and not self.game.pair_or_better(self._cards[self.button])
        ):
            self._dealer_without_pair()
        else:
            self._end(ins)

    def _nobody_in(self) -> None:
        """Nobody stayed in: the same pot is dealt again, after everyone antes again into
        it under the re-ante rule (the texts are silent)."""
        self.events.append(NobodyWon(NobodyWonReason.NOBODY_IN, self.pot))
        if self.game.nobody_in is NobodyIn.RE_ANTE:
            self._ante()
        self._next_deal()

    def _dealer_without_pair(self) -> None:
        """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "if no other player has stayed in, then
        the dealer must have a pair or better to win the pot".  Without one he wins nothing
        and the same pot is dealt again; under the other reading he matches it first."""
        dealer = self.button
        self._show(dealer)
        self.events.append(NobodyWon(NobodyWonReason.DEALER_WITHOUT_PAIR, self.pot))
        if self.game.dealer_without_pair is DealerWithoutPair.MATCHES:
            self._pay({dealer: self.pot})
        self._next_deal()

    def _show(self, seat: int) -> int:
        cards = tuple(self._cards[seat])
        ranking = self.game.ranking(cards)
        self.events.append(HandShown(seat, cards, ranking.name))
        return ranking.value

    def _showdown(self, ins: list[int]) -> None:
        """Only the players in show down; the pot rule says who takes the pot and who pays
        into the next one."""
        values = {seat: self._show(seat) for seat in ins}
        best = max(values.values())
        winners = [s for s in ins if values[s] == best]
        losers = [s for s in ins if values[s] != best]
        pot = self.pot
        if self.game.pot_rule is PotRule.VICIOUS:
            self.events.append(NobodyWon(NobodyWonReason.VICIOUS, pot))
            self._pay(self._owed(ins, values, pot))
            self._next_deal()
            return
        if not losers:  # every player in tied for the best hand: a winner and no loser
            self._end(winners)
            return
        self._take(pot, winners)
        self._pay(self._owed(losers, values, pot))
        self._next_deal()

    def _owed(self, payers: list[int], values: dict[int, int], pot: int) -> dict[int, int]:
        """What each of ``payers`` pays into the next pot under the game's pot rule
        (:func:`simulations.rules.guts_rules.owed`): every loser matches the pot ("if the pot
        is $5 and three people stay in, then one player will receive the $5 pot and two
        players will be forced to add $5 each to the next pot"); the worst hand alone pays,
        twice the pot or the pot, players tied for it each paying; the vicious rule's losers,
        or every player in, match the pot that nobody took."""
        game = self.game
        rule = _POT_RULES[game.pot_rule]
        twice = game.worst_hand_pays is WorstHandPays.TWICE_THE_POT
        every = game.vicious_payers is ViciousPayers.EVERY_PLAYER_IN
        best, worst = max(values.values()), min(values.values())
        reckon = owed.py_func if _wide(2 * pot) else owed
        payments = {
            s: reckon(rule, pot, values[s] == best, values[s] == worst, twice, every)
            for s in payers
        }
        return {s: chips for s, chips in payments.items() if chips}

    # --- chips --------------------------------------------------------------------------

    def _take(self, amount: int, winners: Sequence[int]) -> None:
        """``winners`` take ``amount`` from the pot; tied winners split it, odd chips to the
        first winner left of the dealer (the game's odd-chip rule)."""
        shares = split(
            amount, winners, button=self.button, n_seats=self.n, rule=self.game.odd_chips
        )
        for seat in clockwise_from_button(winners, self.button, self.n):
            chips = int(shares[seat])
            self._nets[seat] += chips
            self.events.append(PotTaken(seat, chips))
        self.pot -= amount

    def _pay(self, payments: dict[int, int]) -> None:
        for seat in clockwise_from_button(payments, self.button, self.n):
            self._nets[seat] -= payments[seat]
            self.events.append(PaidIn(seat, payments[seat]))
        self._into_pot(sum(payments.values()))

    def _into_pot(self, amount: int) -> None:
        """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "One solution to the exponentially
        growing pots is to cap them ... each loser would pay $40, but the pot would now be
        at $50 and the extra $30 would be set aside as the ante": what would take the pot
        past the cap is set aside."""
        cap = self.game.cap
        reckon = over_cap.py_func if _wide(self.pot + amount) else over_cap
        excess = reckon(self.pot, amount, NO_CAP if cap is None else cap)
        self.pot += amount - excess
        if excess:
            assert cap is not None
            self.set_aside += excess
            self.events.append(SetAsideOverCap(excess, cap))

    def _end(self, winners: list[int]) -> None:
        """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "The game ends when only a single player
        has the guts to stay “in”, and thus the pot is taken without replenishment" — or when
        every player in ties for the best hand, who split it: a winner and no loser.  The
        set-aside waits for the next game's ante, or goes with the pot to the last winner."""
        if self.game.set_aside is SetAside.LAST_WINNER and self.set_aside:
            self.pot += self.set_aside
            self.set_aside = 0
        self._take(self.pot, winners)
        self.events.append(GameEnded(tuple(winners), self.set_aside))
        self.ended = True
        self._stage = _Stage.OVER
        self._turn = None

    def _next_deal(self) -> None:
        """The deal passes to the left, and "the hand is re-dealt" (Rules
        000_1a86611de8d3f5f7.txt, 'Guts')."""
        self.button = (self.button + 1) % self.n
        self._start_deal()

    def _stop(self, reason: StopReason) -> None:
        self.stopped = reason
        self._stage = _Stage.OVER
        self._turn = None
        self.events.append(Stopped(reason, self.deals))


def _checked_deck(order: Sequence[int], index: int, needed: int) -> tuple[Card, ...]:
    """A given deck order: distinct cards of the 52-card pack, at least ``needed`` of them."""
    cards: list[Card] = []
    seen: set[int] = set()
    for card in order:
        if isinstance(card, bool) or not isinstance(card, int | np.integer):
            raise ValueError(f"decks[{index}]: {echo(card)} is not a card code")
        code = int(card)
        if not 0 <= code < STANDARD_CARD_COUNT:
            raise ValueError(f"decks[{index}]: {echo(card)} is not a card of the 52-card pack")
        if code in seen:
            raise ValueError(f"decks[{index}]: {format_card(code)} is given twice")
        seen.add(code)
        cards.append(Card(code))
    if len(cards) < needed:
        raise ValueError(f"decks[{index}]: {len(cards)} cards; a deal may need {needed}")
    return tuple(cards)
