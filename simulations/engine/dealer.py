"""The dealer's side of a hand: the stub, burn cards, discards, and running out of cards.

The dealer deals a phase's cards one at a time clockwise from his left, burns where the game
says, deals a draw's replacements, and — when the stub cannot complete a deal — applies the
game's exhaustion rule (:class:`~simulations.engine.game.ExhaustionRule`), logging it:

* stud, the texts' rule (Rules 003_6e018542f14946f8.txt, 'Seven-card stud'): the earlier burn
  cards, then on the final round one community card; folded cards never come back;
* stud, the tournament form (WSOP Live-Action Rule 228): before the last street the stub is
  counted against the players remaining plus two; enough, the street is dealt normally; else,
  if the stub and the burn cards are enough, they are scrambled together and the deal
  finished; else a stub of more than two cards has a card burned and one community card
  dealt; else the stub and the burn cards are scrambled, one burned, one community card dealt;
* draw (Rules 003, 'Five-card draw'): when the stub is used up — the bottom card is never
  given as a replacement unless the game deals it — the bottom card, the burn cards and the
  discards the rule allows are shuffled into a new stub.  The texts' rule takes every
  discard but the drawing player's own in this draw; the others take only earlier draws'
  discards, or all of them.  Folded hands never come back.

Two deals of the home games are the dealer's too:

* East Village (Rules 002_376df91f076a6501.txt, '= East Village ='): the donations are
  scrambled, 'The dealer then adds cards from the stub until there are a total of 7 donation
  cards. The dealer then "shuffles" these seven cards with a scramble'; the board is dealt
  from that pile, and 'there are no "burn cards" used in this game'.  A scramble draws from
  the hand's rng, or, for a hand dealt from a given order, from the generator a reshuffle
  would use (seeded by that order), so a replay scrambles the same way.
* Baseball's extra upcards (Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'being dealt
  an extra upcard upon receiving a [4]'): dealt at once, before the next player's card, so
  a deal cannot know beforehand how many cards it takes.  When the stub runs out in such a
  deal the game's stud rule goes on with the burn cards, in the order they were burned;
  the last street's community card is decided before the street is dealt, as usual; and
  should the extra cards have taken every card there is, what is still owed is not dealt
  (an ``OutOfCards`` event).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from simulations.cards import FIRST_JOKER, Card
from simulations.engine.deck_order import DeckOrder
from simulations.engine.events import (
    Burned,
    Event,
    Exhausted,
    OutOfCards,
    PileMade,
    Reshuffled,
)
from simulations.engine.game import ExhaustionRule, GameDefinition
from simulations.engine.phases import Deal
from simulations.rules.exhaustion_rules import (
    DRAW_ALL_DISCARDS,
    DRAW_EARLIER_ROUNDS,
    DRAW_OTHERS_DISCARDS,
    WSOP_COMMUNITY,
    WSOP_SCRAMBLE,
    WSOP_SCRAMBLE_COMMUNITY,
    discard_returns,
    must_reshuffle,
    stud_shortfall,
    wsop_last_street,
)

# The draw rules as the shared compiled functions take them.
_DRAW_RULES = {
    ExhaustionRule.DRAW_OTHERS_DISCARDS: DRAW_OTHERS_DISCARDS,
    ExhaustionRule.DRAW_EARLIER_ROUNDS: DRAW_EARLIER_ROUNDS,
    ExhaustionRule.DRAW_ALL_DISCARDS: DRAW_ALL_DISCARDS,
}


@dataclass(frozen=True)
class Dealt:
    """One deal's cards: to each seat (down, then up), and to the board."""

    down: dict[int, list[Card]]
    up: dict[int, list[Card]]
    board: tuple[Card, ...]
    community: bool  # the players' cards went to the board as one community card
    # Extra upcards dealt at once for an upcard of the deal's extra rank (Baseball's 4s).
    extra: dict[int, list[Card]] = field(default_factory=dict)


class Discard:
    """A card discarded in a draw, kept for a reshuffle.  A plain class, made once per card
    on every draw: a dataclass's generated constructor would cost several times more."""

    def __init__(self, draw: int, seat: int, card: Card) -> None:
        self.draw = draw  # which draw of the hand (0 is the first)
        self.seat = seat
        self.card = card

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Discard):
            return NotImplemented
        return (self.draw, self.seat, self.card) == (other.draw, other.seat, other.card)

    __hash__ = None  # type: ignore[assignment]  # compared by value, and mutable

    def __repr__(self) -> str:
        return f"Discard(draw={self.draw}, seat={self.seat}, card={self.card})"


@dataclass
class Dealer:
    """The cards of one hand that are not in a player's hand or on the board."""

    game: GameDefinition
    deck: DeckOrder
    # What a reshuffle draws from; None: a generator seeded with ``seed`` (the given deck
    # order), made when the hand first reshuffles.
    rng: np.random.Generator | None = field(compare=False)  # a deep copy is a different object
    events: list[Event]
    burns: list[Card] = field(default_factory=list)  # not yet dealt again
    discards: list[Discard] = field(default_factory=list)  # not yet back in a stub
    reshuffled: bool = False  # the stub has been rebuilt: its last card is no longer the bottom
    seed: Sequence[int] = ()
    # East Village: the donation pile, in the order the board is dealt from it; what is left
    # at the end stays face down, unused.
    pile: list[Card] = field(default_factory=list)
    # The last deal's upcards as (seat, card), in the order dealt, extra upcards included.
    last_up: list[tuple[int, Card]] = field(default_factory=list)

    def _generator(self) -> np.random.Generator:
        if self.rng is None:
            # The order's digest, not the order itself: 128 bits seed the generator as well
            # and cost an eighth of 52 words (numpy mixes every word into the state).
            digest = hashlib.blake2b(bytes(int(c) for c in self.seed), digest_size=16)
            self.rng = np.random.default_rng(int.from_bytes(digest.digest(), "little"))
        return self.rng

    # -- deals ---------------------------------------------------------------------------

    def burn(self) -> None:
        if self.deck.remaining:
            card = self.deck.draw()
            self.events.append(Burned(card))
            self.burns.append(card)

    def deal(self, phase: Deal, receiving: Sequence[int], *, last: bool) -> Dealt:
        """Deal ``phase`` to ``receiving`` (clockwise from the dealer's left); ``last``: the
        hand's final deal, where the stud rules may deal a community card."""
        self.last_up = []
        if phase.pile:
            return self._from_pile(phase)
        rule = self.game.exhaustion
        shared = False
        if rule is ExhaustionRule.STUD_WSOP and last:
            shared = self._count_before_last_street(phase, len(receiving))
        earlier = len(self.burns)  # burns from before this street may be dealt again
        if phase.burn:
            self.burn()
        needed = phase.per_player * len(receiving) + phase.board
        count = phase.per_player + phase.board  # a community card's street
        if shared and self.deck.remaining >= count:
            # Rule 228: '... burn and deal a community card', off the stub as it stands.
            self.events.append(Exhausted(phase.street, self.deck.remaining, 0, True))
            return Dealt({}, {}, tuple(self.deck.draw() for _ in range(count)), True)
        # The burn cards _exhausted may deal again.  Under the tournament rule too: it differs
        # from the texts only in scrambling them in before the last street (when it does, none
        # are left to count), so a street before it that a stripped deck's stub cannot
        # complete is dealt by the texts' rule.
        if phase.extra_up is not None and not (
            last and rule.for_stud and needed > self.deck.remaining + earlier
        ):  # extra upcards: card by card (the final round's community card aside)
            return self._deal_with_extras(phase, receiving)
        if needed <= self.deck.remaining:
            cards = self.deck.take(needed)  # the usual case: the stub holds the whole deal
        else:
            if rule.for_stud and self.deck.remaining + earlier < count:
                # Not even a community card is left: extra upcards took every card.
                self.events.append(OutOfCards(phase.street, tuple(receiving) * count, 0))
                return Dealt({}, {}, (), True)
            draw, community = self._exhausted(phase, needed, self.burns[:earlier])
            if community:
                # 'a single community card is dealt to the center of the table, and is shared
                # by everyone (that is, each player treats it as his seventh card)'
                return Dealt({}, {}, tuple(draw() for _ in range(count)), True)
            cards = tuple(draw() for _ in range(needed))
        # One card at a time around the table: the down cards, then the up cards, then the
        # board, in the order ``cards`` came off the stub.
        down: dict[int, list[Card]] = {seat: [] for seat in receiving}
        up: dict[int, list[Card]] = {seat: [] for seat in receiving}
        at = 0
        for count, into in ((phase.down, down), (phase.up, up)):
            for _ in range(count):
                for seat in receiving:
                    into[seat].append(cards[at])
                    at += 1
        for i in range(phase.up):  # the upcards in the order dealt
            self.last_up.extend((seat, up[seat][i]) for seat in receiving)
        return Dealt(down, up, cards[at:], False)

    def _deal_with_extras(self, phase: Deal, receiving: Sequence[int]) -> Dealt:
        """Deal ``phase`` one card at a time, an upcard of its extra rank followed at once by
        another upcard to the same player (Baseball's 4s; the phase deals no board).  The
        cards come off the stub, then, under a stud rule, the burn cards in the order they
        were burned (this street's too: it was dealt before them); what nothing is left for
        is not dealt."""
        rank = phase.extra_up
        stub = self.deck.remaining
        reused = 0
        short: list[int] = []

        def source() -> Card | None:
            nonlocal reused
            if self.deck.remaining:
                return self.deck.draw()
            if self.burns and self.game.exhaustion.for_stud:
                reused += 1
                return self.burns.pop(0)
            return None

        down: dict[int, list[Card]] = {seat: [] for seat in receiving}
        up: dict[int, list[Card]] = {seat: [] for seat in receiving}
        extra: dict[int, list[Card]] = {seat: [] for seat in receiving}
        missed = 0
        for _ in range(phase.down):
            for seat in receiving:
                card = source()
                if card is None:
                    short.append(seat)
                else:
                    down[seat].append(card)
        for _ in range(phase.up):
            for seat in receiving:
                card = source()
                if card is None:
                    short.append(seat)
                    continue
                up[seat].append(card)
                self.last_up.append((seat, card))
                while card < FIRST_JOKER and card >> 2 == rank:
                    card = source()
                    if card is None:
                        missed += 1
                        break
                    extra[seat].append(card)
                    self.last_up.append((seat, card))
        if reused:
            self.events.append(Exhausted(phase.street, stub, reused, False))
        if short or missed:
            self.events.append(OutOfCards(phase.street, tuple(short), missed))
        return Dealt(down, up, (), False, extra)

    def _from_pile(self, phase: Deal) -> Dealt:
        """East Village's board, off the donation pile: 'Note that there are no "burn cards"
        used in this game'."""
        cards = tuple(self.pile[: phase.board])
        del self.pile[: phase.board]
        return Dealt({}, {}, cards, False)

    def make_pile(self, donated: Sequence[Card], size: int) -> None:
        """Rules 002_376df91f076a6501.txt, '= East Village =': 'the dealer "shuffles" these
        cards with a scramble. The dealer then adds cards from the stub until there are a
        total of 7 donation cards. The dealer then "shuffles" these seven cards with a
        scramble' (``size``: that total)."""
        rng = self._generator()
        scrambled = [donated[i] for i in rng.permutation(len(donated))]
        added = self.deck.take(min(max(0, size - len(scrambled)), self.deck.remaining))
        pile = [*scrambled, *added]
        self.pile = [pile[i] for i in rng.permutation(len(pile))]
        self.events.append(PileMade(tuple(self.pile), added))

    def twist_card(self) -> Card:
        """The card a twist buys, off the stub (the hand offers a twist only while the stub
        holds one beyond what its later deals need)."""
        return self.deck.draw()

    def _exhausted(
        self, phase: Deal, needed: int, spare: list[Card]
    ) -> tuple[Callable[[], Card], bool]:
        """The stud rules' card source for a street the stub cannot complete: the stub, then
        the earlier burn cards in the order they were burned; if even those are too few, one
        community card in place of a card to each player (``check_deal`` has made sure this
        happens only on the final round)."""
        stub = self.deck.remaining
        if not self.game.exhaustion.for_stud:  # check_deal refused such a deck
            raise AssertionError(f"{phase.street}: the deck ran out of cards")
        # The shared rule (simulations.rules.exhaustion_rules), as the kernel applies it.
        shortfall = stud_shortfall(stub, len(spare), needed, phase.per_player + phase.board)
        reused, community = int(shortfall[0]), bool(shortfall[1])
        self.events.append(Exhausted(phase.street, stub, reused, community))

        def draw() -> Card:
            if self.deck.remaining:
                return self.deck.draw()
            card = spare.pop(0)
            self.burns.remove(card)
            return card

        return draw, community

    def _count_before_last_street(self, phase: Deal, live: int) -> bool:
        """WSOP Rule 228 before the last street (the shared arithmetic,
        :func:`~simulations.rules.exhaustion_rules.wsop_last_street`): scramble the burn
        cards into the stub where the rule says so; returns whether the street is one
        community card."""
        cards = phase.per_player * live + phase.board
        way = wsop_last_street(self.deck.remaining, cards, len(self.burns))
        if way in (WSOP_SCRAMBLE, WSOP_SCRAMBLE_COMMUNITY):
            self._shuffle_into_stub("before the last street", self.burns)
        return way in (WSOP_COMMUNITY, WSOP_SCRAMBLE_COMMUNITY)

    # -- draws ---------------------------------------------------------------------------

    def replacement(self, seat: int, draw: int, street: str) -> Card:
        """The next replacement card for ``seat`` in draw number ``draw``."""
        # The shared rule (simulations.rules.exhaustion_rules) decides only near the bottom
        # of the stub: a call into compiled code costs more than the test it saves.
        remaining = self.deck.remaining
        if remaining <= 1 and must_reshuffle(
            remaining, self.game.deals_bottom_card, self.reshuffled
        ):
            self._reshuffle(seat, draw, street)
        return self.deck.draw()

    def _reshuffle(self, seat: int, draw: int, street: str) -> None:
        """Rules 003_6e018542f14946f8.txt: 'shuffles together the bottom card of the deck, the
        burn card, and the earlier players' discards (but not the player's own discards!)',
        with the discards the game's rule allows."""
        rule = self.game.exhaustion
        if not rule.for_draw:  # check_deal refused a draw game without a rule
            raise AssertionError(f"{street}: the stub ran out during the draw")

        code = _DRAW_RULES[rule]
        taken = [d for d in self.discards if discard_returns(code, d.draw, d.seat, draw, seat)]
        if not (self.deck.remaining or self.burns or taken):
            # Nothing else is left (a tiny deck): the player's own discards are all there is.
            taken = list(self.discards)
        self.discards = [d for d in self.discards if d not in taken]
        self._shuffle_into_stub(street, [*self.burns, *(d.card for d in taken)])
        self.reshuffled = True

    def _shuffle_into_stub(self, street: str, cards: Sequence[Card]) -> None:
        """Shuffle ``cards`` together with what is left of the stub into a new stub (the burn
        cards always go in: they leave the burn pile), and log it."""
        pile = [*self.deck.stub, *cards]
        order = self._generator().permutation(len(pile))
        self.events.append(Reshuffled(street, self.deck.remaining, len(pile)))
        self.burns.clear()
        self.deck.restock([pile[i] for i in order])

    def discard(self, draw: int, seat: int, cards: Sequence[Card]) -> None:
        self.discards.extend(Discard(draw, seat, card) for card in cards)
