"""Checking a player's choice of his own cards: a draw, a discard or an exposure.

Rules 003_6e018542f14946f8.txt, 'Five-card draw': 'Each player specifies how many of his
cards he wishes to replace, and discards that many from his hand', up to the game's limit —
with the house limit, 'a player may not replace more than three cards, unless he draws four
cards while keeping an ace (or wild card)'.  A discard or exposure names exactly the number
of cards the phase asks for.  A bad choice raises :class:`IllegalAction` naming the card or
the count, and leaves the hand unchanged.
"""

from __future__ import annotations

from simulations.cards import Card, Rank, format_card, format_cards, is_joker, rank_of
from simulations.engine.actions import Action, ActionKind, CardChoice, IllegalAction
from simulations.engine.showdown import Showdown


def check_choice(choice: CardChoice, action: Action, showdown: Showdown) -> None:
    """Refuse ``action`` unless it answers ``choice`` with cards the player may name (the
    game's ``showdown`` tells which ranks are wild)."""
    terms = (choice.kind, choice.cards, choice.fewest, choice.most, choice.most_keeping_ace)
    check_cards(terms, action, showdown)


# A choice's terms, as CardChoice holds them: the action due, the cards that may be named,
# the fewest and most of them, and the most when an ace or wild card is kept.
ChoiceTerms = tuple[ActionKind, tuple[Card, ...], int, int, int | None]


def check_cards(terms: ChoiceTerms, action: Action, showdown: Showdown) -> None:
    """:func:`check_choice` on the terms of a choice, for a hand that checks a draw without
    making the :class:`CardChoice` it would list."""
    kind, offered, fewest, most, most_keeping_ace = terms
    if action.kind is not kind:
        raise IllegalAction(f"{kind.noun} is due: name the cards (got {action.kind.value})")
    cards = action.cards
    if len(set(cards)) != len(cards):
        raise IllegalAction(f"a card is named twice: {format_cards(cards)}")
    for card in cards:
        if card not in offered:
            raise IllegalAction(
                f"{format_card(card)} is not one of the player's cards that may be chosen "
                f"({format_cards(offered)})"
            )
    count = len(cards)
    limit = most
    if most_keeping_ace is not None and count > most:
        limit = most_keeping_ace
        kept = [c for c in offered if c not in cards]
        wild_ranks = showdown.wild_ranks
        if count <= limit and not any(
            is_joker(c) or rank_of(c) is Rank.ACE or rank_of(c) in wild_ranks for c in kept
        ):
            raise IllegalAction(
                f"at most {most} cards may be drawn unless an ace or wild card is kept"
            )
    if not fewest <= count <= limit:
        what = f"exactly {limit}" if fewest == limit else f"{fewest} to {limit}"
        raise IllegalAction(f"{kind.noun} names {what} cards, got {count}")
