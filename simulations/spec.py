"""Reading job specifications: typed fields, defaults, and errors that name the field.

A specification arrives as nested mappings (from TOML, JSON or an API message).  Every
value is read through :class:`Fields`, which checks its type and range, and finally
:meth:`Fields.finish` rejects any key nobody read, so a misspelt setting is an error
rather than a silent default.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, TypeVar

T = TypeVar("T")

_MISSING: Any = object()
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]+")

ECHO_LIMIT = 40
# Integers of more digits than this are described by their length rather than written out:
# a message stays one short line, and str() of a huge int would itself raise past Python's
# integer-string limit.
ECHO_DIGITS = 30
_LOG10_2 = 0.30102999566398120


def echo(value: object, limit: int = ECHO_LIMIT) -> str:
    """``value`` quoted for an error message, short however long the input.

    Up to ``limit`` characters are shown whole (``'holdem'``); a longer string shows its first
    ``limit`` characters, an ellipsis and its length (``'xxxx…' (100,000 characters)``).  Other
    values are shown by ``repr``, shortened the same way; an integer of more than ``limit``
    digits by its length (``a 5,000-digit number``).
    """
    if isinstance(value, int) and not isinstance(value, bool) and digit_count(value) > limit:
        # repr() of such an int may itself raise (sys.get_int_max_str_digits).
        return f"a {digit_count(value):,}-digit number"
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit] + '…'!r} ({len(value):,} characters)"
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def digit_count(value: int) -> int:
    """The number of decimal digits of ``abs(value)``, without converting it to a string.

    ``str()`` refuses integers beyond ``sys.get_int_max_str_digits()`` digits.
    """
    n = abs(value)
    # bit_length * log10(2) is within one of the answer; the powers of ten settle it.
    digits = max(1, int(n.bit_length() * _LOG10_2))
    while n >= 10**digits:
        digits += 1
    while digits > 1 and n < 10 ** (digits - 1):
        digits -= 1
    return digits


def number(value: int) -> str:
    """An integer for a message: ``1,000,000``, or ``a 5,000-digit number`` when it is huge."""
    if digit_count(value) > ECHO_DIGITS:
        return f"a {digit_count(value):,}-digit number"
    return f"{value:,}"


class SpecError(ValueError):
    """A specification is wrong; ``field`` is the dotted path of the culprit ('jackpot.players')."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem


def shown_key(key: object) -> str:
    """A key of the user's as a field path shows it: a plain word as it is, anything else
    (empty, spaced, a line break in it, long) quoted and shortened by :func:`echo`, so that
    a message stays one line and still shows which key."""
    if isinstance(key, str) and len(key) <= ECHO_LIMIT and _PLAIN_KEY.fullmatch(key):
        return key
    return echo(key)


# A percentage's decimal places: enough for any rake or drop a room posts, few enough that
# the fraction's numerator and denominator, times any pot, fit the kernels' 64-bit integers.
MAX_PERCENT_PLACES = 6


def percentage(value: object) -> Fraction:
    """A rake's or drop's percentage, written as a number (``5``, ``2.5``), as the exact
    fraction of one it means; ``ValueError`` with the problem (the caller names the field).

    Read through its decimal text, so that 2.5 is exactly 1/40 and not the float's binary
    neighbour; from 0 up to 100, finite, with at most :data:`MAX_PERCENT_PLACES` places.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"must be a number, not {type_name(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"must be a percentage from 0 up to 100, got {value}")
    written = Fraction(repr(value))
    if not 0 <= written < 100:
        raise ValueError(f"must be a percentage from 0 up to 100, got {value:g}")
    if written.denominator > 10**MAX_PERCENT_PLACES:
        raise ValueError(
            f"must have at most {MAX_PERCENT_PLACES} decimal places, got {echo(value)}"
        )
    return written / 100


def type_name(value: object) -> str:
    """What a TOML value is, in words ('an integer', 'a table'), for error messages."""
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "a table",
    }.get(type(value), f"a {type(value).__name__}")


class Fields:
    """A view of one table of a specification that remembers which keys were read."""

    def __init__(self, table: Mapping[str, Any], path: str = "") -> None:
        if not isinstance(table, Mapping):
            raise SpecError(path or "job", f"must be a table, not {type_name(table)}")
        self._table = table
        self._path = path
        self._read: set[str] = set()

    def path(self, key: str) -> str:
        return f"{self._path}.{key}" if self._path else key

    def has(self, key: str) -> bool:
        return key in self._table

    def _get(self, key: str, default: Any) -> Any:
        self._read.add(key)
        if key in self._table:
            return self._table[key]
        if default is _MISSING:
            raise SpecError(self.path(key), "is required")
        return default

    def integer(
        self, key: str, default: int = _MISSING, *, low: int | None = None, high: int | None = None
    ) -> int:
        value = self._get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise SpecError(self.path(key), f"must be an integer, not {type_name(value)}")
        if low is not None and value < low:
            raise SpecError(self.path(key), f"must be at least {low:,}, got {number(value)}")
        if high is not None and value > high:
            raise SpecError(self.path(key), f"must be at most {high:,}, got {number(value)}")
        return value

    def optional_integer(
        self, key: str, *, low: int | None = None, high: int | None = None
    ) -> int | None:
        if key not in self._table:
            self._read.add(key)
            return None
        return self.integer(key, low=low, high=high)

    def integer_range(
        self, key: str, default: tuple[int, int], *, low: int, high: int
    ) -> tuple[int, int]:
        """An integer ``n`` (the range n..n) or ``[first, last]`` (first..last), in low..high;
        a list of one, ``[n]``, is the integer (as a list crosses the API)."""
        value = self._get(key, list(default))
        items = value if isinstance(value, list) else [value]
        if not 1 <= len(items) <= 2 or any(
            isinstance(v, bool) or not isinstance(v, int) for v in items
        ):
            raise SpecError(
                self.path(key), f"must be an integer or [first, last], not {echo(value)}"
            )
        first, last = items[0], items[-1]
        for v in (first, last):
            if not low <= v <= high:
                raise SpecError(self.path(key), f"must lie in {low}..{high}, got {number(v)}")
        if first > last:
            raise SpecError(self.path(key), f"[first, last] must not decrease, got {echo(value)}")
        return first, last

    def boolean(self, key: str, default: bool = _MISSING) -> bool:
        value = self._get(key, default)
        if not isinstance(value, bool):
            raise SpecError(self.path(key), f"must be true or false, not {type_name(value)}")
        return value

    def string(
        self, key: str, default: str = _MISSING, *, choices: tuple[str, ...] | None = None
    ) -> str:
        value = self._get(key, default)
        if not isinstance(value, str):
            raise SpecError(self.path(key), f"must be a string, not {type_name(value)}")
        if choices is not None and value not in choices:
            raise SpecError(
                self.path(key), f"must be one of {', '.join(map(repr, choices))}; got {echo(value)}"
            )
        return value

    def optional_string(self, key: str) -> str | None:
        if key not in self._table:
            self._read.add(key)
            return None
        return self.string(key)

    def number(self, key: str, default: float = _MISSING) -> float:
        """A number, integer or not (not a boolean)."""
        value = self._get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SpecError(self.path(key), f"must be a number, not {type_name(value)}")
        if isinstance(value, float) and value != value:
            raise SpecError(self.path(key), "must be a number, not NaN")
        return float(value)

    def optional_number(self, key: str) -> float | None:
        if key not in self._table:
            self._read.add(key)
            return None
        return self.number(key)

    def integers(
        self, key: str, default: list[int], *, count: int, low: int, high: int
    ) -> list[int]:
        """A list of ``count`` integers, each in low..high."""
        value = self._get(key, default)
        if (
            not isinstance(value, list)
            or len(value) != count
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
        ):
            raise SpecError(
                self.path(key), f"must be a list of {count} integers, not {echo(value)}"
            )
        for v in value:
            if not low <= v <= high:
                raise SpecError(
                    self.path(key), f"must hold integers in {low:,}..{high:,}, got {number(v)}"
                )
        return list(value)

    def integer_list(
        self, key: str, default: list[int], *, low: int, high: int, most: int
    ) -> list[int]:
        """A list of one to ``most`` integers in low..high, strictly increasing."""
        value = self._get(key, default)
        if (
            not isinstance(value, list)
            or not value
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
        ):
            raise SpecError(self.path(key), f"must be a list of integers, not {echo(value)}")
        if len(value) > most:
            raise SpecError(
                self.path(key), f"must hold at most {most} integers, got {len(value):,}"
            )
        for v in value:
            if not low <= v <= high:
                raise SpecError(
                    self.path(key), f"must hold integers in {low:,}..{high:,}, got {number(v)}"
                )
        if any(b <= a for a, b in itertools.pairwise(value)):
            raise SpecError(self.path(key), f"must increase, got {echo(value)}")
        return list(value)

    def optional_numbers(self, key: str) -> list[float] | None:
        """A list of numbers (integers or not, not booleans), or None when absent."""
        if key not in self._table:
            self._read.add(key)
            return None
        value = self._get(key, _MISSING)
        if not isinstance(value, list) or any(
            isinstance(v, bool) or not isinstance(v, int | float) for v in value
        ):
            raise SpecError(self.path(key), f"must be a list of numbers, not {echo(value)}")
        return [float(v) for v in value]

    def booleans(self, key: str, *, count: int) -> list[bool]:
        """A list of exactly ``count`` booleans (required)."""
        value = self._get(key, _MISSING)
        if (
            not isinstance(value, list)
            or len(value) != count
            or any(not isinstance(v, bool) for v in value)
        ):
            raise SpecError(
                self.path(key), f"must be a list of {count} true or false, not {echo(value)}"
            )
        return list(value)

    def strings(self, key: str, default: list[str], *, most: int) -> list[str]:
        """A list of at most ``most`` strings."""
        value = self._get(key, default)
        if not isinstance(value, list) or any(not isinstance(v, str) for v in value):
            raise SpecError(self.path(key), f"must be a list of strings, not {echo(value)}")
        if len(value) > most:
            raise SpecError(self.path(key), f"must hold at most {most} strings, got {len(value):,}")
        return list(value)

    def tables(self, key: str) -> list[Fields]:
        """An array of tables (``[[key]]`` in TOML), each read as its own :class:`Fields`."""
        value = self._get(key, [])
        if not isinstance(value, list):
            raise SpecError(self.path(key), f"must be a list of tables, not {type_name(value)}")
        return [Fields(item, f"{self.path(key)}[{i}]") for i, item in enumerate(value)]

    def table(self, key: str, *, required: bool = False) -> Fields:
        value = self._get(key, _MISSING if required else {})
        return Fields(value, self.path(key)) if isinstance(value, Mapping) else self._not_table(key)

    def _not_table(self, key: str) -> Fields:
        raise SpecError(self.path(key), f"must be a table, not {type_name(self._table[key])}")

    def finish(self) -> None:
        """Raise on the first key that no reader asked for."""
        for key in self._table:
            if key not in self._read:
                known = sorted(self._read)
                hint = f" (known keys: {', '.join(known)})" if known else ""
                raise SpecError(self.path(shown_key(key)), f"is not a known setting{hint}")
