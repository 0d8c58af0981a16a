"""The dealer's side of a hand: the stub, burn cards, discards, and running out of cards.

The dealer deals a phase's cards one at a time clockwise from his left, burns where the game
says, deals a draw's replacements, and — when the stub cannot complete a deal — applies the
game's exhaustion rule (:class:`~simulations.engine.game.ExhaustionRule`), logging it:

* stud, the texts' rule (Rules 003_6e018542f14946f8.txt, 'Seven-card stud'): the earlier burn
  cards, then on the final round one community card; folded cards never come back;
* stud, the tournament form: before the last street the stub is counted against the live
  players plus two; if short, the burn cards are scrambled into it; if still short, one
  community card;
* draw (Rules 003, 'Five-card draw'): when the stub is used up — the bottom card is never
  given as a replacement unless the game deals it — the bottom card, the burn cards and the
  discards the rule allows are shuffled into a new stub.  The texts' rule takes every
  discard but the drawing player's own in this draw; the others take only earlier draws'
  discards, or all of them.  Folded hands never come back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from simulations.cards import Card
from simulations.engine.deck_order import DeckOrder
from simulations.engine.events import Burned, Event, Exhausted, Reshuffled
from simulations.engine.game import ExhaustionRule, GameDefinition
from simulations.engine.phases import Deal


@dataclass(frozen=True)
class Dealt:
    """One deal's cards: to each seat (down, then up), and to the board."""

    down: dict[int, list[Card]]
    up: dict[int, list[Card]]
    board: tuple[Card, ...]
    community: bool  # the players' cards went to the board as one community card


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
        if self.game.exhaustion is ExhaustionRule.STUD_WSOP and last:
            self._count_before_last_street(len(receiving))
        earlier = len(self.burns)  # burns from before this street may be dealt again
        if phase.burn:
            self.burn()
        needed = phase.per_player * len(receiving) + phase.board
        if needed <= self.deck.remaining:
            cards = self.deck.take(needed)  # the usual case: the stub holds the whole deal
        else:
            draw, community = self._exhausted(phase, needed, self.burns[:earlier])
            if community:
                # 'a single community card is dealt to the center of the table, and is shared
                # by everyone (that is, each player treats it as his seventh card)'
                cards = tuple(draw() for _ in range(phase.per_player + phase.board))
                return Dealt({}, {}, cards, True)
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
        return Dealt(down, up, cards[at:], False)

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
        if self.game.exhaustion is ExhaustionRule.STUD_WSOP:
            spare = []  # scrambled into the stub already, if they were needed
        community = needed > stub + len(spare)
        if community:
            needed = phase.per_player + phase.board
        reused = max(0, needed - stub)
        self.events.append(Exhausted(phase.street, stub, reused, community))

        def draw() -> Card:
            if self.deck.remaining:
                return self.deck.draw()
            card = spare.pop(0)
            self.burns.remove(card)
            return card

        return draw, community

    def _count_before_last_street(self, live: int) -> None:
        """The tournament rule: a stub shorter than the live players plus two (a card each,
        the burn and one more) has the burn cards scrambled into it."""
        if self.deck.remaining >= live + 2 or not self.burns:
            return
        self._shuffle_into_stub("before the last street", self.burns)

    # -- draws ---------------------------------------------------------------------------

    def replacement(self, seat: int, draw: int, street: str) -> Card:
        """The next replacement card for ``seat`` in draw number ``draw``."""
        reserve = 0 if self.game.deals_bottom_card or self.reshuffled else 1
        if self.deck.remaining <= reserve:
            self._reshuffle(seat, draw, street)
        return self.deck.draw()

    def _reshuffle(self, seat: int, draw: int, street: str) -> None:
        """Rules 003_6e018542f14946f8.txt: 'shuffles together the bottom card of the deck, the
        burn card, and the earlier players' discards (but not the player's own discards!)',
        with the discards the game's rule allows."""
        rule = self.game.exhaustion
        if not rule.for_draw:  # check_deal refused a draw game without a rule
            raise AssertionError(f"{street}: the stub ran out during the draw")

        def allowed(d: Discard) -> bool:
            if rule is ExhaustionRule.DRAW_ALL_DISCARDS:
                return True
            if rule is ExhaustionRule.DRAW_EARLIER_ROUNDS:
                return d.draw < draw
            return not (d.draw == draw and d.seat == seat)

        taken = [d for d in self.discards if allowed(d)]
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
