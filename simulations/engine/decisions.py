"""Checking a player's choice of his own cards: a draw, a discard or an exposure.

Rules 003_6e018542f14946f8.txt, 'Five-card draw': 'Each player specifies how many of his
cards he wishes to replace, and discards that many from his hand', up to the game's limit —
with the house limit, 'a player may not replace more than three cards, unless he draws four
cards while keeping an ace (or wild card)'.  A discard or exposure names exactly the number
of cards the phase asks for.  A bad choice raises :class:`IllegalAction` naming the card or
the count, and leaves the hand unchanged.
"""

from __future__ import annotations

from simulations.cards import Rank, format_card, format_cards, is_joker, rank_of
from simulations.engine.actions import Action, CardChoice, IllegalAction
from simulations.engine.showdown import Showdown


def check_choice(choice: CardChoice, action: Action, showdown: Showdown) -> None:
    """Refuse ``action`` unless it answers ``choice`` with cards the player may name (the
    game's ``showdown`` tells which ranks are wild)."""
    if action.kind is not choice.kind:
        raise IllegalAction(
            f"a {choice.kind.value} is due: name the cards (got {action.kind.value})"
        )
    cards = action.cards
    if len(set(cards)) != len(cards):
        raise IllegalAction(f"a card is named twice: {format_cards(cards)}")
    for card in cards:
        if card not in choice.cards:
            raise IllegalAction(
                f"{format_card(card)} is not one of the player's cards that may be chosen "
                f"({format_cards(choice.cards)})"
            )
    count = len(cards)
    most = choice.most
    if choice.most_keeping_ace is not None and count > most:
        most = choice.most_keeping_ace
        kept = [c for c in choice.cards if c not in cards]
        wild_ranks = showdown.wild_ranks
        if count <= most and not any(
            is_joker(c) or rank_of(c) is Rank.ACE or rank_of(c) in wild_ranks for c in kept
        ):
            raise IllegalAction(
                f"at most {choice.most} cards may be drawn unless an ace or wild card is kept"
            )
    if not choice.fewest <= count <= most:
        what = f"exactly {most}" if choice.fewest == most else f"{choice.fewest} to {most}"
        raise IllegalAction(f"a {choice.kind.value} names {what} cards, got {count}")
