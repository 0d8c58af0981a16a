"""The order a hand's cards come off the deck, and the stub: what is left undealt.

A hand deals from a given order (checked for repeats and for cards the game's deck does not
hold) or a seeded shuffle of the game's pack.  Under a game without an exhaustion rule the
deck must hold every card the hand could deal with every player staying to the end; under
stud's rules it must allow the deal to be completed with the earlier burn cards and, at the
last, a community card; under a draw rule it must hold the deals (:func:`check_deal`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import cast

import numpy as np

from simulations.cards import Card, Rank, ensure_distinct, format_card
from simulations.decks import Deck
from simulations.engine.game import DeckSpec, ExhaustionRule, GameDefinition
from simulations.engine.phases import Bet, Deal, Donate, Draw, Split


def cards_needed(game: GameDefinition, players: int, *, draws: bool = True) -> int:
    """Every card ``players`` could be dealt in ``game``, burns and board included (with
    ``draws``, every draw replacing the most cards it allows).

    A board dealt from East Village's donation pile comes off no stub; the pile itself takes
    from the stub what the donations leave it short (with a betting round before it, as if
    only two players were left to donate).  Extra upcards (Baseball) may take every card of
    their rank.  A twist takes a card only where the later deals leave one (the hand sees to
    that), so it needs none here."""
    total = 0
    extra_ranks: set[Rank] = set()
    for index, phase in enumerate(game.phases):
        if isinstance(phase, Deal):
            if phase.pile:
                continue
            total += phase.per_player * players + phase.board + phase.burn
            if phase.extra_up is not None:
                extra_ranks.add(phase.extra_up)
        elif isinstance(phase, Draw) and draws:
            total += (phase.limit(True) + phase.extra) * players + phase.burn
        elif isinstance(phase, Donate):
            bet_before = any(isinstance(p, Bet) for p in game.phases[:index])
            donors = min(players, 2) if bet_before else players
            total += max(0, phase.pile - phase.count * donors)
    return total + 4 * len(extra_ranks)  # the four cards of each rank


def _check_pile(game: GameDefinition, players: int) -> None:
    """East Village: every player's donations must fit in the pile ('the dealer then adds
    cards from the stub until there are a total of 7 donation cards')."""
    for phase in game.phases:
        if isinstance(phase, Donate) and phase.count * players > phase.pile:
            raise ValueError(
                f"{players} players donating {phase.count} each overfill the pile of {phase.pile}"
            )


def check_deal(game: GameDefinition, players: int, deck_size: int) -> None:
    """Refuse a deck too small for ``players`` of ``game`` with nobody folding (the most cards
    a hand can need), after what the game's exhaustion rule allows."""
    _check_pile(game, players)
    if game.exhaustion is ExhaustionRule.NONE or game.exhaustion.for_draw:
        draws = game.exhaustion is ExhaustionRule.NONE
        needed = cards_needed(game, players, draws=draws)
        if deck_size < needed:
            what = "may need" if draws else "are dealt"
            raise ValueError(
                f"the deck holds {deck_size} cards; {players} players of {game.name} "
                f"{what} {needed}"
            )
        return
    deals = [p for p in game.phases if isinstance(p, Deal) and not p.pile]
    stub, spare = deck_size, 0  # spare: earlier burn cards not dealt again yet
    for index, phase in enumerate(deals):
        burned = phase.burn and stub > 0
        stub -= burned
        needed = phase.per_player * players + phase.board
        if needed > stub + spare:
            # 'on the final round', instead of a card to each player, one community card
            # for all of them; an earlier round that cannot be dealt makes no hand.
            needed = phase.per_player + phase.board
            if any(isinstance(p, Split) for p in game.phases):
                raise ValueError(
                    f"the deck holds {deck_size} cards: {players} players of {game.name} would "
                    f"share a community card on {phase.street}, and a split is of each "
                    "player's own seven cards"
                )
            if index != len(deals) - 1 or needed > stub + spare:
                raise ValueError(
                    f"the deck holds {deck_size} cards: {players} players of {game.name} "
                    f"cannot be dealt {phase.street}, even with the burn cards and a "
                    "community card"
                )
        from_stub = min(stub, needed)
        stub, spare = stub - from_stub, spare - (needed - from_stub) + burned


@dataclass
class DeckOrder:
    """The cards in the order they will be dealt; :meth:`draw` takes the next one."""

    cards: tuple[Card, ...]
    dealt: int = 0

    @classmethod
    def for_hand(
        cls,
        game: GameDefinition,
        players: int,
        deck: Sequence[int] | None = None,
        rng: np.random.Generator | None = None,
    ) -> DeckOrder:
        """A given order (checked for repeats) or a seeded shuffle, long enough for the hand."""
        # Card is a NewType of int: int() makes the same cards without calling it per card.
        if deck is None:
            if rng is None:
                raise ValueError("deal from a given deck order or a seeded rng")
            cards = cast(list[Card], list(map(int, _pack(game.deck).shuffled(rng))))
        else:
            cards = cast(list[Card], [int(c) for c in deck])
            distinct = set(cards)
            if len(distinct) != len(cards):
                ensure_distinct(cards)  # names the first repeat
            allowed = _pack_cards(game.deck)
            if not distinct <= allowed:
                stranger = next(card for card in cards if card not in allowed)
                raise ValueError(
                    f"deck: {format_card(stranger)} is not a card of {game.name}'s "
                    f"{game.deck.label} deck"
                )
        check_deal(game, players, len(cards))
        return cls(tuple(cards))

    def draw(self) -> Card:
        card = self.cards[self.dealt]
        self.dealt += 1
        return card

    def take(self, count: int) -> tuple[Card, ...]:
        """The next ``count`` cards (the stub holds them), in order."""
        cards = self.cards[self.dealt : self.dealt + count]
        self.dealt += count
        return cards

    def restock(self, stub: Sequence[Card]) -> None:
        """Replace the undealt cards with ``stub`` (a reshuffle when the deck runs out)."""
        self.cards = (*self.cards[: self.dealt], *stub)

    @property
    def remaining(self) -> int:
        """How many cards the stub holds (without copying it out)."""
        return len(self.cards) - self.dealt

    @property
    def stub(self) -> tuple[Card, ...]:
        """The cards not yet dealt, in order."""
        return self.cards[self.dealt :]


# A game's pack is the same for every hand: made once per deck (the specs are immutable).
@cache
def _pack(spec: DeckSpec) -> Deck:
    return spec.deck()


@cache
def _pack_cards(spec: DeckSpec) -> frozenset[Card]:
    return frozenset(_pack(spec).cards)
