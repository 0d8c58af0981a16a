"""A scenario's table under a button rule: where the button and the blinds go in this hand,
moved on from the last hand's by the house's rule (Rules 002_376df91f076a6501.txt, 'When a
player in the blinds leaves the game': the simplified moving button, dead button and moving
button rules, and the rule for two players).

``button_rule`` names the rule; PHH's ``seat_count`` and ``seats`` give the table's seats and
each player's seat (table seats count from 1, clockwise; ``p1`` is the player in the lowest
seat, and the players go on clockwise); ``last_hand`` gives the button and the blinds of the
hand before as table seats, which may be empty now (a player who left).  The rule's
positions are played as :func:`~simulations.engine.buttons.hand_seating` numbers them: the
players dealt in clockwise, a dead button on an empty seat played by the player before it.
"""

from __future__ import annotations

from dataclasses import dataclass

from simulations.engine.buttons import ButtonRule, Positions, hand_seating, next_positions
from simulations.engine.forced import BlindSeats
from simulations.engine.game import GameDefinition
from simulations.engine.gamefile_read import MAX_PLAYERS as MAX_SEATS
from simulations.spec import echo
from simulations.verify.fields import ScenarioError, Table

_NOT_WITH_A_RULE = (
    ("button", "the button rule places the button"),
    (
        "blinds_or_straddles",
        "the button rule places the blinds (their sizes: options.forced.blinds)",
    ),
)


@dataclass(frozen=True)
class Seating:
    """The hand's button (a player's seat in the hand, from 0) and who posts which blind."""

    button: int
    blind_seats: BlindSeats


def read_seating(top: Table, game: GameDefinition, players: int) -> Seating | None:
    """The seating ``button_rule`` gives (None: the scenario has no button rule);
    :class:`ScenarioError` naming the key."""
    name = top.optional_string("button_rule")
    last = top.optional_table("last_hand")
    if name is None:
        if last is not None:
            raise ScenarioError(
                "last_hand", "goes with button_rule: the rule moves the button on from it"
            )
        return None
    try:
        rule = ButtonRule(name)
    except ValueError:
        choices = ", ".join(r.value for r in ButtonRule)
        problem = f"{echo(name)} is not a button rule: {choices}"
        raise ScenarioError("button_rule", problem) from None
    for key, why in _NOT_WITH_A_RULE:
        if top.has(key):
            raise ScenarioError(key, f"not with button_rule: {why}")
    if len(game.forced.blinds) != 2:
        raise ScenarioError(
            "button_rule",
            f"places a small and a big blind; {game.name} posts {len(game.forced.blinds)}",
        )
    count = top.optional_integer("seat_count", low=2)
    if count is None:
        raise ScenarioError("seat_count", "is required with button_rule: the table's seats")
    if count > MAX_SEATS:
        raise ScenarioError("seat_count", f"{count} seats: a table has at most {MAX_SEATS}")
    occupied = _occupied(top, count, players)
    if last is None:
        raise ScenarioError(
            "last_hand", "is required with button_rule: the last hand's button and blinds"
        )
    previous = _last_hand(last, count)
    try:
        positions = next_positions(rule, previous, occupied)
        seating = hand_seating(positions, occupied)
    except ValueError as error:
        raise ScenarioError("last_hand", str(error)) from None
    posting = [*positions.small_blinds, *positions.big_blinds]
    twice = sorted({seat + 1 for seat in posting if posting.count(seat) > 1})
    if twice:
        # A last hand the rule would not have left (its big blind not moved on from its
        # button), so that the rule moves the big blind round the whole table.
        seats = ", ".join(str(seat) for seat in twice)
        raise ScenarioError(
            "last_hand",
            f"the {rule.value} rule moves on from this last hand to two blinds for seat "
            f"{seats}: its button and blinds are not a hand that rule leaves",
        )
    return Seating(
        seating.button, BlindSeats(tuple(seating.small_blinds), tuple(seating.big_blinds))
    )


def _occupied(top: Table, count: int, players: int) -> list[bool]:
    """Which table seats are occupied, from ``seats`` (one a player, rising)."""
    seats = top.integers("seats", low=1)
    if seats is None:
        raise ScenarioError(
            "seats", "is required with button_rule: each player's table seat, from 1"
        )
    if len(seats) != players:
        raise ScenarioError("seats", f"{len(seats)} seats for {players} players (starting_stacks)")
    for index, seat in enumerate(seats):
        if seat > count:
            raise ScenarioError(f"seats[{index}]", f"seat {seat} of a table of {count} seats")
        if index and seat <= seats[index - 1]:
            raise ScenarioError(
                f"seats[{index}]",
                f"seat {seat} after seat {seats[index - 1]}: the players sit clockwise from "
                "seat 1, each in a higher seat than the one before",
            )
    taken = set(seats)
    return [seat in taken for seat in range(1, count + 1)]


def _last_hand(last: Table, count: int) -> Positions:
    """``last_hand``'s button and blinds, as table seats from 0."""

    def seat(value: int, field: str) -> int:
        if value > count:
            raise ScenarioError(field, f"seat {value} of a table of {count} seats")
        return value - 1

    button = last.optional_integer("button", low=1)
    if button is None:
        raise ScenarioError(last.path("button"), "is required: the last hand's button seat")
    small = last.integers("small_blinds", low=1) or ()
    big = last.integers("big_blinds", low=1) or ()
    if not big:
        raise ScenarioError(
            last.path("big_blinds"), "is required: the seats that posted the last big blinds"
        )
    last.finish()
    smalls, bigs = last.path("small_blinds"), last.path("big_blinds")
    return Positions(
        seat(button, last.path("button")),
        tuple(seat(s, f"{smalls}[{i}]") for i, s in enumerate(small)),
        tuple(seat(s, f"{bigs}[{i}]") for i, s in enumerate(big)),
    )
