"""Reading a game file's deal: the ``phases`` list and the ``[deck]`` table (the format is
described in :mod:`simulations.engine.gamefile`)."""

from __future__ import annotations

from collections.abc import Mapping

from simulations.cards import MAX_JOKERS, Rank
from simulations.engine.game import DeckSpec, ExhaustionRule
from simulations.engine.gamefile_read import (
    MAX_CARDS,
    Invalid,
    Table,
    read_list,
    read_ranks,
    type_name,
)
from simulations.engine.phases import (
    Arrange,
    Bet,
    Deal,
    Declare,
    Discard,
    Draw,
    Expose,
    FirstToAct,
    Pass,
    PassDirection,
    Phase,
    PhaseKind,
    Reveal,
)
from simulations.spec import echo

__all__ = ["read_deck", "read_phases"]


def read_phases(value: object) -> tuple[Phase, ...]:
    items = read_list(value, "phases")
    if not items:
        raise Invalid("phases", "a game has at least a deal and a betting round")
    phases = tuple(_phase(item, f"phases[{i}]") for i, item in enumerate(items))
    if not isinstance(phases[0], Deal):
        raise Invalid("phases[0]", "a hand begins by dealing cards")
    if not any(isinstance(p, Bet) for p in phases):
        raise Invalid("phases", "a game has at least one betting round ('bet')")
    return phases


def _phase(item: object, path: str) -> Phase:
    if item == "bet":
        return Bet()
    if isinstance(item, str) or not isinstance(item, Mapping):
        raise Invalid(
            path,
            "a phase is the word 'bet' or a table such as { deal = \"flop\", board = 3 }; "
            f"got {echo(item) if isinstance(item, str) else type_name(item)}",
        )
    table = Table(item, path)
    kinds = [kind for kind in PhaseKind if kind.value in item]
    if len(kinds) != 1:
        names = ", ".join(k.value for k in PhaseKind)
        given = " and ".join(k.value for k in kinds)
        problem = f"names both {given}" if kinds else "does not say its kind"
        raise Invalid(path, f"{problem}: a phase is one of {names}")
    kind = kinds[0]
    phase: Phase
    if kind is PhaseKind.BET:
        phase = _bet(table)
    else:
        street = table.string(kind.value)
        if not street.strip() or len(street) > 40:
            raise Invalid(table.at(kind.value), "the street's name is 1 to 40 characters")
        if kind is PhaseKind.DEAL:
            down, up, board = (table.integer(k, 0, 0, MAX_CARDS) for k in ("down", "up", "board"))
            if not (down or up or board):
                raise Invalid(path, "a deal deals at least one card: give down, up or board")
            phase = Deal(street, down, up, board, burn=table.boolean("burn", False))
        elif kind is PhaseKind.DRAW:
            most = table.integer("most", 5, 0, MAX_CARDS)
            keeping_ace = table.optional_integer("most_keeping_ace", most + 1, MAX_CARDS)
            extra = table.integer("extra", 0, 0, MAX_CARDS)
            phase = Draw(street, most, keeping_ace, table.boolean("burn", True), extra)
        elif kind is PhaseKind.DISCARD:
            phase = Discard(street, table.integer("count", 1, 1, MAX_CARDS))
        elif kind is PhaseKind.ARRANGE:
            phase = Arrange(street)
        elif kind is PhaseKind.REVEAL:
            phase = Reveal(street, table.integer("count", 1, 1, MAX_CARDS))
        elif kind is PhaseKind.DECLARE:
            phase = Declare(street, in_turn=table.boolean("in_turn", False))
        elif kind is PhaseKind.PASS:
            count = table.integer("count", 1, 1, MAX_CARDS)
            phase = Pass(
                street, count, table.choice("direction", PassDirection, PassDirection.LEFT)
            )
        else:
            phase = Expose(street, table.integer("count", 1, 1, MAX_CARDS))
    table.finish()
    return phase


def _bet(table: Table) -> Bet:
    """A betting round written as a table: the one form that can name its openers and who
    acts first."""
    if table.require("bet") is not True:
        raise Invalid(table.at("bet"), "a betting round is written bet = true (or 'bet')")
    opens_with = None
    if table.has("opens_with"):
        ranks = read_ranks(table.require("opens_with"), table.at("opens_with"))
        if len(ranks) != 1:
            raise Invalid(table.at("opens_with"), "names one rank: the lowest pair that opens")
        opens_with = ranks[0]
    return Bet(opens_with, table.choice("first", FirstToAct, FirstToAct.GAME))


def read_deck(table: Table, draws: bool, board: int) -> tuple[DeckSpec, ExhaustionRule, bool, bool]:
    """(the deck, its exhaustion rule, deals_bottom_card, five_consecutive)."""
    ranks = read_ranks(table.raw("ranks"), table.at("ranks")) if table.has("ranks") else tuple(Rank)
    jokers = table.integer("jokers", 0, 0, MAX_JOKERS)
    exhaustion = table.choice("exhaustion", ExhaustionRule, ExhaustionRule.NONE)
    rules: list[bool] = []
    for key in ("deals_bottom_card", "five_consecutive"):
        if table.has(key) and not draws:
            raise Invalid(table.at(key), "is a rule of the draw, and the game has no draw")
        rules.append(table.boolean(key, False))
    table.finish()
    if exhaustion.for_draw and not draws:
        raise Invalid("deck.exhaustion", f"{exhaustion!s} is a rule for draw games")
    if exhaustion.for_stud and (draws or board):
        raise Invalid("deck.exhaustion", f"{exhaustion!s} is a rule for stud games")
    return DeckSpec(ranks, jokers), exhaustion, rules[0], rules[1]
