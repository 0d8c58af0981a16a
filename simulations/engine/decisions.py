"""Checking a player's choice of his own cards: a draw, a discard or an exposure.

Rules 003_6e018542f14946f8.txt, 'Five-card draw': 'Each player specifies how many of his
cards he wishes to replace, and discards that many from his hand', up to the game's limit —
with the house limit, 'a player may not replace more than three cards, unless he draws four
cards while keeping an ace (or wild card)'.  A discard or exposure names exactly the number
of cards the phase asks for.  A bad choice raises :class:`IllegalAction` naming the card or
the count, and leaves the hand unchanged.

A twist (Rules 002_376df91f076a6501.txt: 'A twist round in which players can buy another
card from the deck') names one card to give up, or none; a payment (Baseball, Rules
000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'paying the pot for wild cards') is paid or the
player folds (:func:`check_twist`, :func:`check_payment`).
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
    if action.total is not None:  # cards are chosen here, no chips: an amount is a mistake
        raise IllegalAction(
            f"{kind.noun} names cards, not an amount (got a total of {action.total})"
        )
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


def check_twist(choice: CardChoice, action: Action) -> None:
    """Refuse ``action`` unless it answers a twist: one of ``choice.cards`` to give up for a
    card from the stub (when ``choice.most`` allows one), or no card (no twist)."""
    if action.kind is not ActionKind.TWIST:
        raise IllegalAction(
            f"a twist is due: name one card to buy a replacement for, or none (got "
            f"{action.kind.value})"
        )
    if len(action.cards) > max(choice.most, 1):
        raise IllegalAction(f"a twist replaces one card, got {len(action.cards)}")
    if action.cards and not choice.most:
        raise IllegalAction("no twist is on offer: name no card")
    for card in action.cards:
        if card not in choice.cards:
            raise IllegalAction(
                f"{format_card(card)} is not a card the player may twist "
                f"({format_cards(choice.cards)})"
            )


def check_payment(action: Action) -> None:
    """Refuse ``action`` unless it pays what an upcard costs or folds."""
    if action.kind is ActionKind.FOLD:
        return
    if action.kind is not ActionKind.PAY:
        raise IllegalAction(f"a payment is due: match the pot or fold (got {action.kind.value})")
    if action.cards:
        raise IllegalAction("a payment names no cards")
