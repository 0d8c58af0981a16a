"""What the economics job kinds (``bad_beat`` with a table, ``rake``) share: reading a rake,
a jackpot drop and the game from a job file, and the table's statistics in a report — the
figures a room compares with its own tracked statistics to set the player models.

A rake is written as the engine's :class:`~simulations.engine.game.Rake` reads it (Rules
003_6e018542f14946f8.txt: 'taking a percentage of the pots as their rake'; the arithmetic is
:mod:`simulations.rules.rake_rules`'):

* ``percent`` (a percentage of the pot, 0 to under 100), ``unit`` (whole chips of rake),
  ``rounding`` (``down``, ``half-even``, ``half-up``, ``up``) — a linear rake;
* or ``increment`` and ``per_increment``: so many chips for each full increment of the pot;
* ``caps``: ``[{players = 2, cap = 50}, {players = 5, cap = 300}]``, the cap of the entry with
  the most players not above those dealt in;
* ``no_flop_no_drop`` (true): nothing from a hand that ends before the flop.

A jackpot drop: ``amount`` chips, or ``percent`` of the pot with an optional ``cap``, from a
pot of at least ``threshold`` chips once the flop is out.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from simulations.engine.game import RakeRounding
from simulations.models.distribution import BOUNDED, Verdict, summary
from simulations.models.table import DropRule, RakeRule, Table
from simulations.models.table_tally import TableTally
from simulations.models.tally import Counts
from simulations.spec import Fields, SpecError, percentage

MAX_CHIPS = 10**9
MAX_BLIND = 10**6
ROUNDINGS = tuple(r.value for r in RakeRounding)


def read_percent(table: Fields, key: str) -> Fraction:
    """A percentage written as a number (``5``, ``2.5``) as an exact fraction of one
    (:func:`simulations.spec.percentage`)."""
    value = table.number(key)  # its own SpecError for a value that is no number
    try:
        return percentage(value)
    except ValueError as err:
        raise SpecError(table.path(key), str(err)) from None


def read_rake_rule(table: Fields) -> RakeRule:
    """The rake keys of ``table`` (see the module's text); errors name the field."""
    increment = table.integer("increment", 0, low=0, high=MAX_CHIPS)
    per = table.optional_integer("per_increment", low=1, high=increment or MAX_CHIPS)
    percent = read_percent(table, "percent") if table.has("percent") else Fraction(0)
    table.optional_number("percent")
    if increment and table.has("percent"):
        raise SpecError(table.path("percent"), "is a linear rake's; this rake is per increment")
    if increment and per is None:
        raise SpecError(table.path("per_increment"), "is required with an increment")
    if per is not None and not increment:
        if table.has("increment"):  # given, as 0: the increment is what is wrong
            raise SpecError(
                table.path("increment"), "must be at least 1 with a per_increment, got 0"
            )
        raise SpecError(table.path("per_increment"), "needs an increment")
    caps: list[tuple[int, int]] = []
    seen: set[int] = set()
    for cap in table.tables("caps"):
        players = cap.integer("players", low=2, high=10)
        if players in seen:
            raise SpecError(cap.path("players"), f"{players} players are given twice")
        seen.add(players)
        caps.append((players, cap.integer("cap", low=0, high=MAX_CHIPS)))
        cap.finish()
    no_flop = table.boolean("no_flop_no_drop", True)
    unit = table.integer("unit", 1, low=1, high=MAX_CHIPS)
    rounding = RakeRounding(table.string("rounding", "down", choices=ROUNDINGS))
    return RakeRule(percent, tuple(sorted(caps)), no_flop, unit, rounding, increment, per or 0)


def read_drop(table: Fields) -> DropRule | None:
    """The jackpot drop of ``table`` (None when it sets neither an amount nor a percent)."""
    amount = table.optional_integer("amount", low=1, high=MAX_CHIPS) or 0
    percent = read_percent(table, "percent") if table.has("percent") else Fraction(0)
    table.optional_number("percent")
    cap = table.optional_integer("cap", low=1, high=MAX_CHIPS)
    threshold = table.integer("threshold", amount, low=0, high=MAX_CHIPS)
    table.finish()
    if amount and percent:
        raise SpecError(table.path("percent"), "a drop is a fixed amount or a percentage, not both")
    if not amount and not percent:
        for key in ("cap", "threshold"):
            if table.has(key):
                raise SpecError(table.path(key), "needs a drop: an amount or a percent")
        return None
    if cap is not None and not percent:
        raise SpecError(table.path("cap"), "caps a percentage drop; this drop is a fixed amount")
    if amount > threshold:
        raise SpecError(
            table.path("amount"),
            f"{amount:,} is above the threshold ({threshold:,}): a drop comes out of pots of at "
            "least its threshold",
        )
    return DropRule(amount, threshold, percent, cap)


def read_blinds(game: Fields) -> tuple[int, int]:
    small, big = game.integers("blinds", [1, 2], count=2, low=1, high=MAX_BLIND)
    if small > big:
        raise SpecError(game.path("blinds"), f"the small blind ({small}) is above the big ({big})")
    return small, big


def describe_rake(rake: RakeRule | None) -> str:
    if rake is None:
        return "no rake"
    if rake.increment:
        text = f"{rake.per_increment:,} for each {rake.increment:,} in the pot"
    else:
        text = f"{float(rake.percent * 100):g} %"
        if rake.unit > 1:
            text += f" in units of {rake.unit:,}"
        if rake.rounding is not RakeRounding.DOWN:
            text += f", rounded {rake.rounding.value}"
    if len(rake.caps) == 1 and rake.caps[0][0] == 2:
        text += f", capped at {rake.caps[0][1]:,}"
    elif rake.caps:
        text += ", capped at " + ", ".join(
            f"{c:,} {'heads-up' if p == 2 else f'from {p} players'}" for p, c in rake.caps
        )
    if not rake.no_flop_no_drop:
        text += ", raked before the flop too"
    return text


def describe_drop(drop: DropRule | None) -> str:
    if drop is None:
        return "no drop"
    what = f"{drop.amount:,}" if drop.amount else f"{float(drop.percent * 100):g} %"
    if drop.cap is not None:
        what += f" up to {drop.cap:,}"
    return f"{what} from pots of {drop.threshold:,} or more after the flop"


def table_report(table: Table, tally: TableTally) -> dict[str, Any]:
    """The table's course: flops, showdowns, players per flop, the mean pot in big blinds,
    and each kind of player's tracked statistics (VPIP, flops seen, went to showdown of the
    flops seen, pots won)."""
    n = max(tally.hands, 1)
    kinds = []
    for model, kind in zip(table.models, tally.kinds, strict=True):
        kinds.append(
            {
                "name": model.name,
                "seats": model.seats or table.players,
                "model": model.describe(),
                "vpip": kind.played / max(kind.seat_hands, 1),
                "saw_flop": kind.saw_flop / max(kind.seat_hands, 1),
                "went_to_showdown": kind.showdowns / max(kind.saw_flop, 1),
                "won": kind.won / max(kind.seat_hands, 1),
            }
        )
    return {
        "flop_share": tally.flopped / n,
        "showdown_share": tally.showdowns / n,
        "no_showdown_share": 1.0 - tally.showdowns / n,
        "players_per_flop": tally.flop_players / max(tally.flopped, 1),
        "mean_pot_bb": tally.pot_total / n / table.big_blind,
        "kinds": kinds,
    }


def taken_report(counts: Counts, what: str, rake: RakeRule | None) -> dict[str, Any]:
    """The house's take of each hand (``what``: the rake, the jackpot drop), in chips, as a
    ``Distribution`` over the hands: an exact histogram.  The take is bounded — by a cap
    where the rake has one, else by the pot, which the players' bets bound (three streets of
    bets of at most twice the pot over a bounded opening raise)."""
    capped = rake is not None and bool(rake.caps)
    verdict = BOUNDED if capped else Verdict(
        BOUNDED.tail, f"bounded by the pot, which the players' bets bound: the {what}'s mean "
        "and its interval hold"
    )  # fmt: skip
    return summary(counts, verdict)
