"""Reading a scenario's tables: typed values, and errors that name the key.

A scenario file is read through :class:`Table`, the shared reader of
:mod:`simulations.checked`, which checks each value's type as it is read and, at
:meth:`Table.finish`, refuses any key no reader asked for, so that a misspelt expectation
(``expect.pot``) is an error naming it rather than a check silently skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from simulations.checked import (
    CheckedTable,
    FieldError,
    echo,
    integer_value,
    list_value,
    string_value,
    type_name,
)

Number = int | Fraction  # a stack or share; a fraction only under the exact odd-chip rule


# No amount, count or seed of a scenario needs more than 64 bits; a larger one is a typo,
# and one of thousands of digits could not even be printed back in a message.
MAX_INTEGER = 2**64 - 1


class ScenarioError(FieldError):
    """A scenario that cannot be read or set up; ``field`` is the dotted path of the culprit
    (``expect.pots[1].winners``), ``problem`` what is wrong with it."""

    root = "scenario"


def player_seat(value: object, field: str, players: int) -> int:
    """A player's seat from PHH's name ``pN`` (``p1`` is seat 0)."""
    if not isinstance(value, str) or not value.startswith("p") or not value[1:].isdigit():
        raise ScenarioError(field, f"{echo(value)} is not a player (p1, p2, ...)")
    seat = int(value[1:]) - 1
    if not 0 <= seat < players:
        raise ScenarioError(field, f"{value} is not at this table of {players} players")
    return seat


def player_name(seat: int) -> str:
    return f"p{seat + 1}"


class Table(CheckedTable):
    """One table of a scenario, read by the shared reader (errors are :class:`ScenarioError`);
    a value is optional (None when absent) and an integer at most 64 bits."""

    error = ScenarioError

    def optional_integer(
        self, key: str, low: int | None = None, high: int | None = MAX_INTEGER
    ) -> int | None:
        return super().optional_integer(key, -MAX_INTEGER if low is None else low, high)

    def strings(self, key: str) -> tuple[str, ...] | None:
        items = self.optional_list(key, lambda v, p: string_value(v, p, None, ScenarioError))
        return None if items is None else tuple(items)

    def integers(self, key: str, *, low: int | None = None) -> tuple[int, ...] | None:
        items = self.optional_list(key, lambda v, p: read_integer(v, p, low=low))
        return None if items is None else tuple(items)

    def numbers(self, key: str) -> tuple[Number, ...] | None:
        """Chip amounts: whole numbers, or decimals where the exact odd-chip rule leaves
        fractions of a chip (PHH writes half chips as ``10112.5``)."""
        items = self.optional_list(key, read_number)
        return None if items is None else tuple(items)


def read_list(value: object, field: str) -> Sequence[Any]:
    return list_value(value, field, ScenarioError)


def read_integer(value: object, field: str, *, low: int | None = None) -> int:
    low = -MAX_INTEGER if low is None else low
    return integer_value(value, field, low, MAX_INTEGER, ScenarioError)


def read_number(value: object, field: str) -> Number:
    """A chip amount: an integer, or a decimal read exactly as written (``10112.5``)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ScenarioError(field, f"must be a number of chips, not {type_name(value)}")
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ScenarioError(field, f"must be a number of chips, not {value}")
        exact = Fraction(repr(value))  # the decimal as written, not its binary neighbour
        if abs(exact) > MAX_INTEGER:
            raise ScenarioError(field, f"must be at most {MAX_INTEGER:,} in size, got {value!r}")
        return exact.numerator if exact.denominator == 1 else exact
    return read_integer(value, field)


def show_number(value: Number | float) -> str:
    """A chip amount for a message: whole chips plainly, fractions as decimals (or a/b)."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        decimal = float(value)
        return repr(decimal) if Fraction(repr(decimal)) == value else f"{value} (~{decimal:.4f})"
    return str(value)


def same_amount(expected: Number, actual: Number) -> bool:
    """Whether the engine's ``actual`` chips are the ``expected`` as written: exactly for whole
    chips, and to the decimal places written for a fraction of a chip (``3370.33`` is a
    third of 10,111)."""
    if isinstance(expected, int) or expected.denominator == 1:
        return actual == expected
    places = 1
    while (10**places) % expected.denominator:
        places += 1
        if places > 12:  # not a decimal as written: only exact equality will do
            return actual == expected
    scale = 10**places
    return Fraction(round(Fraction(actual) * scale), scale) == expected
