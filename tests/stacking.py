"""Hand-built deals: a deck order that gives each seat the cards a test names, played to the
showdown with the plain policy (nobody folds), and what each seat showed and won."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from simulations.cards import parse_cards
from simulations.engine.events import Awarded, Shown
from simulations.engine.game import GameDefinition
from simulations.engine.hand import Hand
from simulations.engine.history import play_plainly
from simulations.engine.phases import Deal


def stacked_deck(
    game: GameDefinition, players: int, button: int, seats: Mapping[int, str], board: str = ""
) -> list[int]:
    """The deck order that deals each seat the cards listed for it, in the order they come to
    him (each deal's down cards, then its up cards), and the board in order; burns and the
    rest of the deck are the game's other cards, lowest first."""
    own = {seat: list(parse_cards(text)) for seat, text in seats.items()}
    shared = list(parse_cards(board))
    used = {c for cards in own.values() for c in cards} | set(shared)
    spare = [c for c in game.deck.deck().cards if c not in used]
    order: list[int] = []
    receiving = [(button + 1 + k) % players for k in range(players)]
    for phase in game.phases:
        if not isinstance(phase, Deal):
            continue
        if phase.burn:
            order.append(spare.pop(0))
        for count in (phase.down, phase.up):  # one card at a time around the table
            for _ in range(count):
                order.extend(own[seat].pop(0) for seat in receiving)
        order.extend(shared.pop(0) for _ in range(phase.board))
    assert not shared and not any(own.values()), "more cards listed than the game deals"
    return order + spare


@dataclass(frozen=True)
class Outcome:
    shown: dict[int, str]  # each seat's hand as the showdown named it
    won: dict[int, int]  # chips each winning seat took


def play_stacked(
    game: GameDefinition, seats: Mapping[int, str], board: str = "", button: int = 0
) -> Outcome:
    """Deal ``seats`` their cards (every seat from 0 listed) and check it down."""
    players = len(seats)
    deck = stacked_deck(game, players, button, seats, board)
    hand = play_plainly(Hand(game, [500] * players, button=button, deck=deck))
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    won: dict[int, int] = {}
    for event in hand.events:
        if isinstance(event, Awarded):
            won[event.seat] = won.get(event.seat, 0) + int(event.amount)
    return Outcome(shown, won)
