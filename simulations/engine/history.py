"""A hand's event log as readable lines, for a person watching a variant play."""

from __future__ import annotations

from collections.abc import Iterable

from simulations.cards import format_card, format_cards
from simulations.engine.actions import Action, ActionKind, CardChoice, LegalActions
from simulations.engine.events import (
    Arranged,
    Awarded,
    BetOrRaised,
    Bid,
    BoardDealt,
    Bought,
    Burned,
    Called,
    CentreDealt,
    Checked,
    Declared,
    Designated,
    Discarded,
    Donated,
    Drafted,
    Event,
    Exhausted,
    Exposed,
    Folded,
    HandSplit,
    HoleDealt,
    Killed,
    OutOfCards,
    Paid,
    Passed,
    PassedOut,
    PileMade,
    Posted,
    Raked,
    Reshuffled,
    Returned,
    Shown,
    Switched,
    Twisted,
)
from simulations.engine.hand import Hand
from simulations.engine.phases import Auction, Bet, IfPassed


def describe_event(event: Event) -> str:
    """One event as a line ('seat 3 raises to 10')."""
    all_in = " (all in)"
    match event:
        case Posted(seat, kind, amount, is_all_in):
            return f"seat {seat} posts the {kind} of {amount}{all_in if is_all_in else ''}"
        case HoleDealt(seat, cards, face_up, extra):
            more = ", extra upcards" if extra and len(cards) > 1 else ", an extra upcard"
            return (
                f"seat {seat} is dealt {format_cards(cards)} {'up' if face_up else 'down'}"
                f"{more if extra else ''}"
            )
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
        case OutOfCards(street, short, extras):
            return (
                f"the deck runs out on {street}: extra upcards took every card, "
                f"{len(short) + extras} cards owed are not dealt"
            )
        case Donated(seat, cards):
            return f"seat {seat} donates {format_cards(cards)} face down"
        case PileMade(cards, from_stub):
            return (
                f"the donations are scrambled, {len(from_stub)} cards added from the stub and "
                f"the {len(cards)} scrambled again: the board comes from them"
            )
        case Twisted(seat, bought, price, is_all_in):
            if not bought:
                return f"seat {seat} buys no card"
            return f"seat {seat} pays {price} for a twist{all_in if is_all_in else ''}"
        case Paid(seat, card, amount, is_all_in):
            return (
                f"seat {seat} matches the pot for his {format_card(card)}: {amount} into it"
                f"{all_in if is_all_in else ''}"
            )
        case Discarded(seat, cards):
            if not cards:  # standing pat, or a draw dealing more than discarded
                return f"seat {seat} discards no card"
            return f"seat {seat} discards {format_cards(cards)}"
        case Exposed(seat, cards):
            return f"seat {seat} turns up {format_cards(cards)}"
        case Passed(seat, to, cards):
            return f"seat {seat} passes {format_cards(cards)} to seat {to}"
        case HandSplit(seat, five, two):
            return (
                f"seat {seat} splits his cards: {format_cards(five)} and {format_cards(two)}, "
                "face down"
            )
        case CentreDealt(street, cards):
            return f"{street}: {format_cards(cards)} face up in the centre"
        case Drafted(seat, card):
            return f"seat {seat} takes {format_card(card)} from the centre"
        case Bid(seat, amount):
            return f"seat {seat} passes" if amount is None else f"seat {seat} bids {amount}"
        case Bought(seat, card, amount, is_all_in):
            return (
                f"seat {seat} buys {format_card(card)} for {amount}, into the pot"
                f"{all_in if is_all_in else ''}"
            )
        case Designated(seat, to, card):
            if seat < 0:
                return f"no bid: {format_card(card)} goes to seat {to}"
            if seat == to:
                return f"seat {seat} keeps {format_card(card)}"
            return f"seat {seat} gives {format_card(card)} to seat {to}"
        case Declared(seat, declaration):
            return f"seat {seat} declares {declaration.value}"
        case Arranged(seat, cards):
            return f"seat {seat} arranges his cards {format_cards(cards)} for the roll-out"
        case PassedOut(pot):
            return f"no one opens: the deal is passed out, its pot of {pot} stays"
        case Killed(card, seat, pot):
            where = "the board" if seat < 0 else f"seat {seat}"
            return (
                f"{format_card(card)} is dealt up to {where}: a kill card, the deal is dead "
                f"and its pot of {pot} stays"
            )
        case Switched(game):
            return f"no one opens: the deal goes on as {game}, the betting starts again"
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
    otherwise, stand pat, discard, expose, pass or donate the first cards asked for, buy no
    twist, match the pot for an upcard that costs it, declare high, split off the first
    legal two-card hand, draft the first card in the centre, open an auction with the least
    bid and pass after one, keep the card bought — so that every card the game deals is
    dealt and shown down (a choice's fewest cards: none for a twist, and a payment names
    none, so its action pays)."""
    while not hand.finished:
        legal = hand.legal_actions()
        if legal.choice is not None:
            hand.act(_plain_choice(hand, legal.choice, legal.seat))
        elif legal.declarations:
            hand.act(Action.declare(legal.declarations[0]))
        elif legal.bring_in is not None:
            hand.act(Action.bring_in())
        else:
            hand.act(_plain_bet(hand, legal))
    return hand


def _plain_choice(hand: Hand, choice: CardChoice, seat: int) -> Action:
    """The plain answer to a choice of cards, a bid or a designation."""
    if choice.options:
        return choice.action(choice.options[0])
    if choice.kind is ActionKind.DESIGNATE:
        return Action.designate(seat)
    if choice.bids is not None:
        phase = hand.game.phases[hand.phase]
        opening = isinstance(phase, Auction) and choice.bids[0] == phase.minimum
        return Action.bid(choice.bids[0] if opening else None)
    return choice.action(choice.cards[: choice.fewest])


def _plain_bet(hand: Hand, legal: LegalActions) -> Action:
    """Check when free and call otherwise; but open for the least bet where a round would
    otherwise be passed out (a player holding openers opens) or must be opened (Q-Ball)."""
    phase = hand.game.phases[hand.phase]
    opens = legal.must_open or (
        isinstance(phase, Bet) and phase.passes is IfPassed.REDEAL and legal.to_call == 0
    )
    if opens and legal.wager is not None:
        return legal.wager_action(legal.wager[0])
    if legal.must_open:
        return Action.fold()
    return Action.check() if legal.can_check else Action.call()
