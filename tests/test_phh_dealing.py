"""What the PHH replay asks the engine without building everything it would: a deck order
rebuilt under another way of dealing, and whether a ``cc`` line is a check.

* :func:`~simulations.phh.lines.deck_order` with a :class:`~simulations.phh.lines.Dealing`
  gives the order (or the refusal) of the game built with that way of dealing: the bottom
  card dealt, five cards in a row to one player, no burn cards.
* :meth:`Hand.can_check <simulations.engine.hand.Hand.can_check>` says what
  ``legal_actions().can_check`` says, on every turn of the hands played.

The hands are the generated corpus's draw and stud files (``../shared/phh``, or
``$CARDROOM_PHH``); the tests skip, naming the path, when it is missing, and fail instead
when CARDROOM_REQUIRE_PHH is set.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from simulations.engine.game import GameDefinition
from simulations.engine.phases import Deal, Draw
from simulations.engine.variants import POKER_VARIANTS
from simulations.phh.lines import (
    DEAL_BOARD,
    DEAL_HOLE,
    SHOW,
    Dealing,
    Unplayable,
    dealing_of,
    deck_order,
    engine_action,
)
from simulations.phh.model import PhhHand
from simulations.phh.read import load_all
from simulations.phh.replay import prepare

REPOSITORY = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CARDROOM_PHH") or REPOSITORY.parent / "shared" / "phh")
DRAW_AND_STUD = ("F2L3D", "FB", "N2L1D", "F7S", "F7S8")


def _hands(name: str) -> tuple[PhhHand, ...]:
    path = CORPUS / "generated" / f"{name}.phhs"
    if not path.is_file():
        missing = f"the PHH corpus is missing: expected {path}"
        if os.environ.get("CARDROOM_REQUIRE_PHH"):
            pytest.fail(missing)
        pytest.skip(missing)
    return load_all(path)


def _built(game: GameDefinition, dealing: Dealing) -> GameDefinition:
    """The game itself made to deal as ``dealing`` says (the oracle's way)."""
    phases = game.phases
    if not dealing.burns:
        phases = tuple(
            replace(p, burn=False) if isinstance(p, Deal | Draw) else p for p in game.phases
        )
    return replace(
        game,
        deals_bottom_card=dealing.bottom_card,
        five_consecutive=dealing.five_consecutive,
        phases=phases,
    )


def _order(game: GameDefinition, hand: PhhHand, dealing: Dealing | None = None) -> object:
    players = hand.player_count
    assert hand.lines is not None
    try:
        return deck_order(game, players, players - 1, hand.lines, dealing=dealing)
    except Unplayable as error:
        return f"Unplayable: {error}"


@pytest.mark.parametrize("name", ["F2L3D", "FB", "N2L1D"])
def test_a_way_of_dealing_gives_the_order_of_the_game_built_that_way(name: str) -> None:
    ways = [
        Dealing(bottom, five, burns)
        for bottom in (False, True)
        for five in (False, True)
        for burns in (True, False)
    ]
    refused = dealt_only_relaxed = 0
    for hand in _hands(name):
        game = POKER_VARIANTS[hand.variant].game()
        assert dealing_of(game) == Dealing(
            game.deals_bottom_card, game.five_consecutive, burns=True
        )
        orders = {way: _order(game, hand, way) for way in ways}
        for way, order in orders.items():
            assert order == _order(_built(game, way), hand), (hand.name, way)
        own = orders[dealing_of(game)]
        refused += isinstance(own, str)
        dealt_only_relaxed += isinstance(own, str) and any(
            not isinstance(order, str) for order in orders.values()
        )
    if name == "F2L3D":  # its triple draws run the deck out: the other ways are exercised
        assert refused > 0 and dealt_only_relaxed > 0


@pytest.mark.parametrize("name", DRAW_AND_STUD)
def test_can_check_is_what_the_legal_actions_say(name: str) -> None:
    seen: set[bool] = set()
    for hand in _hands(name):
        try:
            setup = prepare(hand)
        except ValueError:
            continue  # a hand no deck order deals: nothing to play
        played = setup.new_hand(hand.starting_stacks)
        for line in setup.lines:
            if line.verb in (DEAL_HOLE, DEAL_BOARD, SHOW) or played.actor != line.seat:
                continue
            can_check = played.can_check()
            legal = played.legal_actions()
            assert can_check == legal.can_check, (hand.name, line.text)
            seen.add(can_check)
            try:
                played.act(engine_action(line, legal))
            except ValueError:
                break  # a line the engine refuses (the corpus's conventions): hand over
    assert seen == {True, False}
