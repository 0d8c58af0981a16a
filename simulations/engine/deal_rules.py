"""Rules that end a deal early and carry its pot to the next deal: kill cards, and the game a
deal turns into when it is passed out.

Kill cards — Rules 000_1a86611de8d3f5f7.txt, 'Chernobyl Cowboy': 'Whenever the King of
Hearts appears face up in a stud or shared card game the game is dead. All bets remain in
the pot and the game begins again with a new ante and a new deal. Anyone who has folded is
out until the game concludes.'  The Bitch: 'if the Queen of Spades is ever dealt as an
upcard to any player, all players turn in their cards, re-ante, and replay the game. This
can lead to quickly increasing pots, especially if the re-ante amount is increased on each
iteration.'  Baseball's 'rainout': 'the appearance of the queen of spades ... ends the
hand'.

The switched game — 'Johnson': 'If the first round is passed out (that is, no one opens),
then the player to the dealer's left may now open if he chooses, but the game has switched
to California lowball.'
"""

from __future__ import annotations

from dataclasses import dataclass

from simulations.cards import Card, format_cards
from simulations.engine.showdown import Showdown


@dataclass(frozen=True)
class KillCards:
    """Cards that kill the deal when they appear face up (to a player or on the board).

    ``folded_out``: whoever folded in a killed deal is out until the pot is won (Chernobyl
    Cowboy); otherwise everyone is dealt in again (The Bitch: 'all players turn in their
    cards, re-ante, and replay').  ``reante_step``: the ante grows by this much with each
    deal killed ('especially if the re-ante amount is increased on each iteration')."""

    cards: tuple[Card, ...]
    folded_out: bool = True
    reante_step: int = 0

    def __post_init__(self) -> None:
        if not self.cards:
            raise ValueError("kill cards: name at least one card")
        if len(set(self.cards)) != len(self.cards):
            raise ValueError("kill cards: a card is named twice")
        if self.reante_step < 0:
            raise ValueError("kill cards: the re-ante cannot shrink")

    @property
    def label(self) -> str:
        return format_cards(self.cards)


@dataclass(frozen=True)
class Switch:
    """The game a deal turns into when a round marked ``if_passed = "switch"`` is passed out:
    the same cards and phases, another showdown, and that round played again with anyone
    free to open."""

    name: str
    showdown: Showdown
