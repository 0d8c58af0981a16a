"""The game file's ``[kill]`` and ``[switch]`` tables: what ends a deal early and carries its
pot, and the game a passed deal turns into (:mod:`simulations.engine.deal_rules`)::

    [kill]                      # kill cards (Chernobyl Cowboy, The Bitch, Baseball's rainout)
    cards = "Kh"                # the cards that kill the deal when they appear face up
    folded_out = true           # whoever folded in a killed deal stays out (default true)
    reante_step = 0             # the ante grows by this much with each deal killed

    [switch]                    # Johnson: a round marked if_passed = "switch" passed out
    name = "California lowball" # the game the deal goes on as
    showdown = { use = "any", halves = [{ ranking = "ace-to-five low" }] }
"""

from __future__ import annotations

from collections.abc import Callable

from simulations.cards import parse_cards
from simulations.engine.deal_rules import KillCards, Switch
from simulations.engine.game import DeckSpec
from simulations.engine.gamefile_read import MAX_CHIPS, Invalid, Table
from simulations.engine.showdown import Showdown
from simulations.evaluators.selection import Selection

# Reads a showdown table as [showdown] is read, for the game's deck and cards.
ShowdownReader = Callable[[Table], tuple[Showdown, Selection | None]]


def read_kill(table: Table, deck: DeckSpec) -> KillCards | None:
    """The ``[kill]`` table, or None when the file has none."""
    if not table.mapping:
        return None
    where = table.path("cards")
    text = table.require("cards")
    if not isinstance(text, str):
        raise Invalid(where, 'is a string of cards, such as "Kh" or "Qs Kh"')
    try:
        cards = parse_cards(text)
    except ValueError as err:
        raise Invalid(where, str(err)) from None
    if not cards:
        raise Invalid(where, "names no card")
    for card in cards:
        if card not in deck.deck().cards:
            raise Invalid(where, f"{text.strip()!r}: a card the deck does not hold")
    kill = KillCards(
        cards,
        folded_out=table.boolean("folded_out", True),
        reante_step=table.integer("reante_step", 0, 0, MAX_CHIPS),
    )
    table.finish()
    return kill


def read_switch(
    table: Table, selection: Selection | None, read_showdown: ShowdownReader
) -> Switch | None:
    """The ``[switch]`` table, or None; its showdown plays the same cards as the game's."""
    if not table.mapping:
        return None
    name = table.string("name")
    if not name.strip() or len(name) > 80 or not name.isprintable():
        raise Invalid(table.path("name"), "a name is 1 to 80 printable characters on one line")
    showdown, switched_selection = read_showdown(table.table("showdown"))
    if switched_selection != selection:
        raise Invalid(
            table.path("showdown.use"), "the game switched to plays the same cards as the game"
        )
    table.finish()
    return Switch(name, showdown)
