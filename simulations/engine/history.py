"""A hand's event log as readable lines, for a person watching a variant play."""

from __future__ import annotations

from collections.abc import Iterable

from simulations.cards import format_cards
from simulations.engine.actions import Action
from simulations.engine.events import (
    Arranged,
    Awarded,
    BetOrRaised,
    BoardDealt,
    Burned,
    Called,
    Checked,
    Declared,
    Discarded,
    Event,
    Exhausted,
    Exposed,
    Folded,
    HoleDealt,
    Passed,
    Posted,
    Raked,
    Reshuffled,
    Returned,
    Shown,
)
from simulations.engine.hand import Hand


def describe_event(event: Event) -> str:
    """One event as a line ('seat 3 raises to 10')."""
    all_in = " (all in)"
    match event:
        case Posted(seat, kind, amount, is_all_in):
            return f"seat {seat} posts the {kind} of {amount}{all_in if is_all_in else ''}"
        case HoleDealt(seat, cards, face_up):
            return f"seat {seat} is dealt {format_cards(cards)} {'up' if face_up else 'down'}"
        case BoardDealt(street, cards):
            return f"{street}: {format_cards(cards)} on the board"
        case Burned():
            return "a card is burned"
        case Exhausted(street, stub, reused, community):
            what = "one community card for everyone" if community else "every player's card"
            return (
                f"the deck runs out on {street}: {stub} cards left, {reused} burn cards "
                f"dealt again, {what}"
            )
        case Reshuffled(street, stub, cards):
            return (
                f"the stub runs out on {street}: its {stub} cards and what the rule brings "
                f"back, {cards} cards, are shuffled into a new stub"
            )
        case Discarded(seat, cards):
            if not cards:  # standing pat, or a draw dealing more than discarded
                return f"seat {seat} discards no card"
            return f"seat {seat} discards {format_cards(cards)}"
        case Exposed(seat, cards):
            return f"seat {seat} turns up {format_cards(cards)}"
        case Passed(seat, to, cards):
            return f"seat {seat} passes {format_cards(cards)} to seat {to}"
        case Declared(seat, declaration):
            return f"seat {seat} declares {declaration.value}"
        case Arranged(seat, cards):
            return f"seat {seat} arranges his cards {format_cards(cards)} for the roll-out"
        case Folded(seat):
            return f"seat {seat} folds"
        case Checked(seat):
            return f"seat {seat} checks"
        case Called(seat, amount, is_all_in):
            return f"seat {seat} calls {amount}{all_in if is_all_in else ''}"
        case BetOrRaised(seat, total, _, is_all_in, _):
            return f"seat {seat} bets or raises to {total}{all_in if is_all_in else ''}"
        case Returned(seat, amount):
            return f"{amount} uncalled goes back to seat {seat}"
        case Raked(rake, drop):
            return f"the house takes a rake of {rake} and a jackpot drop of {drop}"
        case Shown(seat, hand, _):
            return f"seat {seat} shows {hand}"
        case Awarded(pot, seat, amount):
            which = "the main pot" if pot == 0 else f"side pot {pot}"
            return f"seat {seat} wins {amount} from {which}"
    raise TypeError(f"not an event: {event!r}")


def describe_events(events: Iterable[Event]) -> list[str]:
    return [describe_event(event) for event in events]


def play_plainly(hand: Hand) -> Hand:
    """Play ``hand`` to its end with a plain policy — pay the bring-in, check when free, call
    otherwise, stand pat, discard, expose or pass the first cards asked for, declare high —
    so that every card
    the game deals is dealt and shown down."""
    while not hand.finished:
        legal = hand.legal_actions()
        if legal.choice is not None:
            hand.act(legal.choice.action(legal.choice.cards[: legal.choice.fewest]))
        elif legal.declarations:
            hand.act(Action.declare(legal.declarations[0]))
        elif legal.bring_in is not None:
            hand.act(Action.bring_in())
        else:
            hand.act(Action.check() if legal.can_check else Action.call())
    return hand
