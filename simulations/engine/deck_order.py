"""The order a hand's cards come off the deck, and the stub: what is left undealt.

A hand deals from a given order (checked for repeats) or a seeded shuffle of the standard
pack.  The deck must hold every card the hand could deal with every player staying to the
end: running out of cards has rules of its own (a common last card in stud), not played here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from simulations.cards import Card, ensure_distinct
from simulations.decks import Deck
from simulations.engine.game import GameDefinition


def cards_needed(game: GameDefinition, players: int) -> int:
    """Every card ``players`` could be dealt in ``game``, burns and board included."""
    return sum(
        (s.hole_cards + s.up_cards) * players + s.board_cards + (1 if s.burn else 0)
        for s in game.streets
    )


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
        needed = cards_needed(game, players)
        if len(cards) < needed:
            raise ValueError(
                f"the deck holds {len(cards)} cards; {players} players of {game.name} "
                f"may need {needed}"
            )
        return cls(tuple(cards))

    def draw(self) -> Card:
        card = self.cards[self.dealt]
        self.dealt += 1
        return card

    @property
    def stub(self) -> tuple[Card, ...]:
        """The cards not yet dealt, in order."""
        return self.cards[self.dealt :]
