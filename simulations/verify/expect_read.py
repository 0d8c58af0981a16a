"""Reading a scenario's ``expect`` table: the checks on the hand, each value's type and
every player's name checked, unknown keys refused."""

from __future__ import annotations

from simulations.phh.lines import LineError, parse_line
from simulations.spec import echo, type_name
from simulations.verify.fields import (
    Number,
    ScenarioError,
    Table,
    player_seat,
    read_integer,
    read_number,
)
from simulations.verify.model import (
    ACTION_WORDS,
    Expectations,
    JackpotCheck,
    LegalCheck,
    PotCheck,
    RefusedCheck,
)

# Expectations read at the hand's end only: a hand expected to stop before it has none.
_SETTLED = ("pots", "rake", "jackpot_drop", "jackpot")


def read_expect(
    table: Table | None, finishing: tuple[Number, ...] | None, players: int
) -> Expectations:
    """``expect`` (absent: only that the hand finishes), with PHH's ``finishing_stacks``."""
    expect = table if table is not None else Table({}, "expect")
    stacks = _stacks(expect, "stacks", players)
    pot_tables = expect.tables("pots")
    pots = None
    if expect.has("pots"):
        pots = tuple(_pot(pot, index, players) for index, pot in enumerate(pot_tables))
    rake = expect.optional_integer("rake", low=0)
    drop = expect.optional_integer("jackpot_drop", low=0)
    events = expect.strings("events") or ()
    no_events = expect.strings("no_events") or ()
    finished = expect.optional_boolean("finished")
    jackpot_table = expect.optional_table("jackpot")
    jackpot = None if jackpot_table is None else _jackpot(jackpot_table, players)
    legal = tuple(_legal(t, i, players) for i, t in enumerate(expect.tables("legal")))
    refused = tuple(_refused(t, i, players) for i, t in enumerate(expect.tables("refused")))
    refused_setup = expect.optional_string("refused_setup")
    expect.finish()
    if refused_setup is not None:
        if not refused_setup.strip():
            raise ScenarioError(
                expect.path("refused_setup"), "is a phrase of the refusal's message, not empty"
            )
        others = [key for key in expect.mapping if key != "refused_setup"]
        if others or finishing is not None:
            other = expect.path(others[0]) if others else "finishing_stacks"
            raise ScenarioError(
                other,
                "a hand whose setup is refused (expect.refused_setup) is never played: "
                "nothing else can be expected of it",
            )
    if finished is False:
        for key in _SETTLED:
            if expect.has(key):
                raise ScenarioError(
                    expect.path(key),
                    "is settled at the hand's end, and the hand is expected to stop before "
                    "(finished = false)",
                )
    if finishing is not None and len(finishing) != players:
        raise ScenarioError(
            "finishing_stacks", f"{len(finishing)} stacks for {players} players (starting_stacks)"
        )
    return Expectations(
        stacks=stacks,
        finishing_stacks=finishing,
        pots=pots,
        rake=rake,
        jackpot_drop=drop,
        events=events,
        no_events=no_events,
        finished=True if finished is None else finished,
        jackpot=jackpot,
        legal=legal,
        refused=refused,
        refused_setup=refused_setup,
    )


def _stacks(table: Table, key: str, players: int) -> tuple[Number, ...] | None:
    stacks = table.numbers(key)
    if stacks is not None and len(stacks) != players:
        raise ScenarioError(
            table.path(key), f"{len(stacks)} stacks for {players} players (starting_stacks)"
        )
    return stacks


def _seats(table: Table, key: str, players: int) -> frozenset[int] | None:
    """Players named as ``"p2"`` or ``["p1", "p3"]``."""
    value = table.raw(key)
    if value is None:
        return None
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list):
        raise ScenarioError(
            table.path(key), f"must be a player or a list of players, not {type_name(value)}"
        )
    seats = [player_seat(name, f"{table.path(key)}", players) for name in names]
    if len(set(seats)) != len(seats):
        raise ScenarioError(table.path(key), "names a player twice")
    return frozenset(seats)


def _chips_by_player(
    table: Table, key: str, players: int, *, whole: bool
) -> tuple[tuple[int, Number], ...] | None:
    """A table ``{ p1 = 1250, p3 = 2500 }``: chips by player."""
    inner = table.optional_table(key)
    if inner is None:
        return None
    found: list[tuple[int, Number]] = []
    for name in inner.mapping:
        field = inner.path(name)
        seat = player_seat(name, field, players)
        value = inner.raw(name)
        found.append(
            (seat, read_integer(value, field, low=0) if whole else read_number(value, field))
        )
    return tuple(sorted(found))


def _pot(table: Table, index: int, players: int) -> PotCheck:
    pot = PotCheck(
        index,
        amount=table.optional_integer("amount", low=0),
        eligible=_seats(table, "eligible", players),
        winners=_seats(table, "winners", players),
        shares=_chips_by_player(table, "shares", players, whole=False),
    )
    table.finish()
    return pot


def _jackpot(table: Table, players: int) -> JackpotCheck:
    check = JackpotCheck(
        hit=table.optional_boolean("hit"),
        losers=_seats(table, "loser", players),
        winners=_seats(table, "winner", players),
        pays=_pays(table, players),
    )
    table.finish()
    return check


def _pays(table: Table, players: int) -> tuple[tuple[int, int], ...] | None:
    pays = _chips_by_player(table, "pays", players, whole=True)
    return None if pays is None else tuple((seat, int(chips)) for seat, chips in pays)


def _legal(table: Table, index: int, players: int) -> LegalCheck:
    after = _after(table)
    actor_name = table.raw("actor")
    actor = None if actor_name is None else player_seat(actor_name, table.path("actor"), players)
    words = table.strings("actions")
    if words is not None:
        for position, word in enumerate(words):
            if word not in ACTION_WORDS:
                raise ScenarioError(
                    f"{table.path('actions')}[{position}]",
                    f"{echo(word)} is not an action (the words: {', '.join(ACTION_WORDS)})",
                )
    check = LegalCheck(
        index,
        after,
        actor=actor,
        actions=None if words is None else frozenset(words),
        call=table.optional_integer("call", low=0),
        min=table.optional_integer("min", low=0),
        max=table.optional_integer("max", low=0),
        bring_in=table.optional_integer("bring_in", low=0),
    )
    table.finish()
    return check


def _refused(table: Table, index: int, players: int) -> RefusedCheck:
    after = _after(table)
    text = table.optional_string("action")
    if text is None:
        raise ScenarioError(table.path("action"), "is required: the action line refused")
    try:
        line = parse_line(text, players)
    except LineError as error:
        raise ScenarioError(table.path("action"), str(error)) from None
    if line.by_dealer:
        raise ScenarioError(table.path("action"), f"{text!r} is the dealer's: a player's action")
    check = RefusedCheck(index, after, line, reason=table.optional_string("reason"))
    table.finish()
    return check


def _after(table: Table) -> int:
    after = table.optional_integer("after", low=0)
    if after is None:
        raise ScenarioError(
            table.path("after"), "is required: the player actions before the point (0: first)"
        )
    return after
