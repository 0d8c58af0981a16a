"""A guts game's rules and a session's event log as readable lines, and a plain policy that
plays a whole session, for a person watching a guts game play as written."""

from __future__ import annotations

from collections.abc import Iterable

from simulations.cards import format_cards
from simulations.engine.guts import GutsSession
from simulations.engine.guts_events import (
    AnteCarried,
    Anted,
    CardsDealt,
    ChallengeOffered,
    DealStarted,
    Decided,
    GameEnded,
    GutsDecision,
    GutsEvent,
    HandShown,
    NobodyWon,
    PaidIn,
    PotTaken,
    SetAsideOverCap,
    Stopped,
)
from simulations.engine.guts_game import (
    DealerRule,
    Declaring,
    GutsDeal,
    GutsGame,
    NobodyIn,
    PotRule,
    SetAside,
)

__all__ = [
    "DEAL_LIMIT",
    "describe_guts_event",
    "describe_guts_events",
    "describe_guts_game",
    "plain_decision",
    "play_guts_plainly",
]

# The most deals a plainly played session runs before it stops and says so: guts may go on
# for as long as two or more players keep staying in (the vicious rule "can degenerate").
DEAL_LIMIT = 1_000


_SET_ASIDE = {
    SetAside.NEXT_GAME_ANTE: "over the cap: the next game's ante",
    SetAside.LAST_WINNER: "over the cap: the last winner's, with the pot",
}
_NOBODY_IN = {
    NobodyIn.REDEAL: "the same pot is dealt again",
    NobodyIn.RE_ANTE: "everyone antes again into the pot, and it is dealt again",
}


def describe_guts_game(game: GutsGame) -> list[tuple[str, str]]:
    """The rules of ``game`` as (heading, line) pairs, for ``cardroom games show``."""
    if game.cards == 3:
        ladder = [c.label for c in reversed(game.order.categories)]
    elif game.straights_and_flushes:
        ladder = ["pair", "straight flush", "straight", "flush", "high card"]
    else:
        ladder = ["pair", "high card"]
    ranking = f"{game.system} ({' > '.join(ladder)})"
    deal = f"{game.cards} cards face down each"
    if game.deal is GutsDeal.LAST_CARD_UP:
        deal = f"{game.down_cards} down each; the last face up to each player in"
        if game.declaring is Declaring.IN_TURN:
            deal += ", " + game.last_card.value.replace("-", " ")
    declare = "all at once" if game.declaring is Declaring.SIMULTANEOUS else "in turn"
    if game.declaring is Declaring.IN_TURN:
        declare += " from the dealer's left, the dealer last"
    if game.dealer is DealerRule.PAIR_TO_WIN_ALONE:
        declare += (
            "; the dealer alone in needs a pair or better to win "
            f"(without one: {game.dealer_without_pair.value})"
        )
    elif game.dealer is DealerRule.CHALLENGE:
        declare += "; the dealer alone in may be challenged, and wins if nobody does"
    pot = {
        PotRule.MATCH: "the best hand takes the pot; every other player in matches it",
        PotRule.WORST_HAND_DOUBLES: (
            f"the best hand takes the pot; the worst hand pays {game.worst_hand_pays.value}"
        ),
        PotRule.VICIOUS: (
            f"nobody wins unless alone; the {game.vicious_payers.value.replace('-', ' ')} "
            "match the pot"
        ),
    }[game.pot_rule]
    lines = [
        ("ranking", ranking),
        ("deal", deal),
        ("declare", declare),
        ("ante", f"{game.ante} each, once at the start"),
        ("pot", pot),
        ("cap", game.cap_label()),
    ]
    if game.cap is not None:
        lines.append(("set aside", _SET_ASIDE[game.set_aside]))
    lines += [
        ("nobody in", _NOBODY_IN[game.nobody_in]),
        ("odd chips", game.odd_chips.value),
        ("game ends", "when a deal has a winner and no loser"),
    ]
    return lines


def describe_guts_event(event: GutsEvent) -> str:
    """One event as a line ('seat 3 is in')."""
    match event:
        case Anted(seat, amount):
            return f"seat {seat} antes {amount}"
        case AnteCarried(amount):
            return f"the {amount} set aside by the last game is this game's ante"
        case DealStarted(deal, dealer, pot):
            return f"deal {deal}: seat {dealer} deals, the pot is {pot}"
        case CardsDealt(seat, cards, face_up):
            return f"seat {seat} is dealt {format_cards(cards)} {'up' if face_up else 'down'}"
        case Decided(seat, decision, challenge):
            if challenge:
                verb = "challenges" if decision is GutsDecision.IN else "does not challenge"
                return f"seat {seat} {verb} the dealer"
            return f"seat {seat} is {decision.value}"
        case ChallengeOffered(dealer):
            return f"the dealer, seat {dealer}, is in alone: the others may challenge him"
        case HandShown(seat, cards, hand):
            return f"seat {seat} shows {format_cards(cards)}: {hand}"
        case PotTaken(seat, amount):
            return f"seat {seat} takes {amount}"
        case PaidIn(seat, amount):
            return f"seat {seat} pays {amount} into the pot"
        case SetAsideOverCap(amount, pot):
            return f"the pot is capped at {pot}: {amount} is set aside"
        case NobodyWon(reason, pot):
            return f"nobody wins the pot of {pot}: {reason.value}"
        case GameEnded(winners, set_aside):
            who = " and ".join(f"seat {s}" for s in winners)
            left = f"; {set_aside} stays set aside for the next game" if set_aside else ""
            return f"the game ends: a winner ({who}) and no loser{left}"
        case Stopped(reason, deals):
            return f"stopped after {deals} deals: {reason.value}"
    raise TypeError(f"not a guts event: {event!r}")


def describe_guts_events(events: Iterable[GutsEvent]) -> list[str]:
    return [describe_guts_event(event) for event in events]


def plain_decision(session: GutsSession, seat: int) -> GutsDecision:
    """A plain policy: in with a pair or better among the cards he holds, out otherwise;
    and the dealer, declaring last in turn with nobody else in, stays in to take the pot
    (or to be challenged) unless the dealer's rule asks him for a pair he may not have."""
    game = session.game
    cards = session.cards(seat)
    ranks = [card >> 2 for card in cards]
    paired = len(set(ranks)) < len(ranks)
    if len(cards) == game.cards:
        paired = game.pair_or_better(cards)
    alone = (
        game.declaring is Declaring.IN_TURN
        and seat == session.dealer
        and not session.legal_actions().challenge
        and not session.seats_in
        and game.dealer is not DealerRule.PAIR_TO_WIN_ALONE
    )
    return GutsDecision.IN if paired or alone else GutsDecision.OUT


def play_guts_plainly(session: GutsSession) -> GutsSession:
    """Play ``session`` to its end with :func:`plain_decision`, each player deciding in
    turn or, when decisions are made all at once, one after another from the dealer's left
    (nobody sees another's decision before the last is made).  Give the session a deal
    limit (``max_deals``, :data:`DEAL_LIMIT` say) to be sure it stops: a stopped session
    logs why (:class:`~simulations.engine.guts_events.Stopped`)."""
    while not session.finished:
        seat = session.legal_actions().seats[0]
        session.act(seat, plain_decision(session, seat))
    return session
