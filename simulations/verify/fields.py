"""Reading a scenario's tables: typed values, and errors that name the key.

A scenario file is read through :class:`Table`, which checks each value's type as it is
read and, at :meth:`Table.finish`, refuses any key no reader asked for, so that a misspelt
expectation (``expect.pot``) is an error naming it rather than a check silently skipped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from simulations.spec import echo, shown_key, type_name

Number = int | Fraction  # a stack or share; a fraction only under the exact odd-chip rule


class ScenarioError(ValueError):
    """A scenario that cannot be read or set up; ``field`` is the dotted path of the culprit
    (``expect.pots[1].winners``), ``problem`` what is wrong with it."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem


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


class Table:
    """One table of a scenario that remembers which keys were read."""

    def __init__(self, data: object, path: str) -> None:
        if not isinstance(data, Mapping):
            raise ScenarioError(path, f"must be a table, not {type_name(data)}")
        self.data: Mapping[str, Any] = data
        self.path = path
        self._read: set[str] = set()

    def field(self, key: str) -> str:
        # The user's own keys land here too (a player's name, an unknown key): quoted
        # unless a plain word, so that the path stays one line and shows the key.
        shown = shown_key(key)
        return f"{self.path}.{shown}" if self.path else shown

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str) -> object:
        """The value as written (None when absent), marked as read."""
        self._read.add(key)
        return self.data.get(key)

    def integer(self, key: str, *, low: int | None = None) -> int | None:
        value = self.raw(key)
        if value is None:
            return None
        return read_integer(value, self.field(key), low=low)

    def boolean(self, key: str) -> bool | None:
        value = self.raw(key)
        if value is None:
            return None
        if not isinstance(value, bool):
            raise ScenarioError(self.field(key), f"must be true or false, not {type_name(value)}")
        return value

    def string(self, key: str) -> str | None:
        value = self.raw(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise ScenarioError(self.field(key), f"must be a string, not {type_name(value)}")
        return value

    def strings(self, key: str) -> tuple[str, ...] | None:
        value = self.raw(key)
        if value is None:
            return None
        items = read_list(value, self.field(key))
        for index, item in enumerate(items):
            if not isinstance(item, str):
                raise ScenarioError(
                    f"{self.field(key)}[{index}]", f"must be a string, not {type_name(item)}"
                )
        return tuple(items)

    def integers(self, key: str, *, low: int | None = None) -> tuple[int, ...] | None:
        value = self.raw(key)
        if value is None:
            return None
        items = read_list(value, self.field(key))
        return tuple(
            read_integer(item, f"{self.field(key)}[{i}]", low=low) for i, item in enumerate(items)
        )

    def numbers(self, key: str) -> tuple[Number, ...] | None:
        """Chip amounts: whole numbers, or decimals where the exact odd-chip rule leaves
        fractions of a chip (PHH writes half chips as ``10112.5``)."""
        value = self.raw(key)
        if value is None:
            return None
        items = read_list(value, self.field(key))
        return tuple(read_number(item, f"{self.field(key)}[{i}]") for i, item in enumerate(items))

    def table(self, key: str) -> Table | None:
        value = self.raw(key)
        return None if value is None else Table(value, self.field(key))

    def tables(self, key: str) -> list[Table]:
        value = self.raw(key)
        if value is None:
            return []
        items = read_list(value, self.field(key))
        return [Table(item, f"{self.field(key)}[{i}]") for i, item in enumerate(items)]

    def finish(self) -> None:
        """Refuse the first key that no reader asked for."""
        for key in self.data:
            if key not in self._read:
                known = ", ".join(sorted(self._read))
                raise ScenarioError(self.field(key), f"unknown key (known here: {known})")


def read_list(value: object, field: str) -> Sequence[Any]:
    if not isinstance(value, list):
        raise ScenarioError(field, f"must be a list, not {type_name(value)}")
    return value


# No amount, count or seed of a scenario needs more than 64 bits; a larger one is a typo,
# and one of thousands of digits could not even be printed back in a message.
MAX_INTEGER = 2**64 - 1


def _bounded(value: int, field: str) -> int:
    if abs(value) > MAX_INTEGER:
        raise ScenarioError(field, f"must be at most {MAX_INTEGER:,} in size, got {echo(value)}")
    return value


def read_integer(value: object, field: str, *, low: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(field, f"must be a whole number, not {type_name(value)}")
    if low is not None and value < low:
        raise ScenarioError(field, f"must be at least {low}, got {echo(value)}")
    return _bounded(value, field)


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
    return _bounded(value, field)


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
