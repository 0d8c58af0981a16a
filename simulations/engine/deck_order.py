"""The order a hand's cards come off the deck, and the stub: what is left undealt.

A hand deals from a given order (checked for repeats) or a seeded shuffle of the standard
pack.  Under a game without an exhaustion rule the deck must hold every card the hand could
deal with every player staying to the end; under stud's rule it must allow the deal to be
completed with the earlier burn cards and, at the last, a community card
(:func:`check_deal`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from simulations.cards import Card, ensure_distinct
from simulations.decks import Deck
from simulations.engine.game import ExhaustionRule, GameDefinition


def cards_needed(game: GameDefinition, players: int) -> int:
    """Every card ``players`` could be dealt in ``game``, burns and board included."""
    return sum(
        (s.hole_cards + s.up_cards) * players + s.board_cards + (1 if s.burn else 0)
        for s in game.streets
    )


def check_deal(game: GameDefinition, players: int, deck_size: int) -> None:
    """Refuse a deck too small for ``players`` of ``game`` with nobody folding (the most cards
    a hand can need), after what the game's exhaustion rule allows."""
    if game.exhaustion is ExhaustionRule.NONE:
        needed = cards_needed(game, players)
        if deck_size < needed:
            raise ValueError(
                f"the deck holds {deck_size} cards; {players} players of {game.name} "
                f"may need {needed}"
            )
        return
    stub, spare = deck_size, 0  # spare: earlier burn cards not dealt again yet
    last = len(game.streets) - 1
    for index, street in enumerate(game.streets):
        burned = street.burn and stub > 0
        stub -= burned
        per_player = street.hole_cards + street.up_cards
        needed = per_player * players + street.board_cards
        if needed > stub + spare:
            # 'on the final round', instead of a card to each player, one community card
            # for all of them; an earlier round that cannot be dealt makes no hand.
            needed = per_player + street.board_cards
            if index != last or needed > stub + spare:
                raise ValueError(
                    f"the deck holds {deck_size} cards: {players} players of {game.name} "
                    f"cannot be dealt {street.name}, even with the burn cards and a "
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
        if deck is None:
            if rng is None:
                raise ValueError("deal from a given deck order or a seeded rng")
            cards = [Card(int(c)) for c in Deck.standard().shuffled(rng)]
        else:
            cards = [Card(int(c)) for c in deck]
            ensure_distinct(cards)
        check_deal(game, players, len(cards))
        return cls(tuple(cards))

    def draw(self) -> Card:
        card = self.cards[self.dealt]
        self.dealt += 1
        return card

    @property
    def stub(self) -> tuple[Card, ...]:
        """The cards not yet dealt, in order."""
        return self.cards[self.dealt :]
