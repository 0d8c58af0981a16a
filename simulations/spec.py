"""Reading job specifications: typed fields, defaults, and errors that name the field.

A specification arrives as nested mappings (from TOML, JSON or an API message).  Every
value is read through :class:`Fields`, the shared reader of :mod:`simulations.checked`,
which checks its type and range, and finally :meth:`Fields.finish` rejects any key nobody
read, so a misspelt setting is an error rather than a silent default.  The helpers that
show values in messages (:func:`echo`, ...) are the reader's, named here as well.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

from simulations.checked import (
    REQUIRED,
    CheckedTable,
    FieldError,
    digit_count,
    echo,
    number,
    shown_key,
    type_name,
)

__all__ = [
    "Fields",
    "SpecError",
    "digit_count",
    "echo",
    "number",
    "percentage",
    "shown_key",
    "type_name",
]


class SpecError(FieldError):
    """A specification is wrong; ``field`` is the dotted path of the culprit ('jackpot.players')."""

    root = "job"


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


class Fields(CheckedTable):
    """A table of a job specification, read by the shared reader (errors are
    :class:`SpecError`), with the lists a job's settings take."""

    error = SpecError

    def _list(self, key: str, default: list[Any] | None, kind: Any, words: str) -> list[Any]:
        """A list of ``kind`` (not booleans, unless they are asked for), or the error
        ``must be {words}``."""
        value = self.require(key, REQUIRED if default is None else default)
        if not isinstance(value, list) or any(
            not isinstance(v, kind) or (isinstance(v, bool) and kind is not bool) for v in value
        ):
            raise SpecError(self.path(key), f"must be {words}, not {echo(value)}")
        return list(value)

    def _within(self, key: str, values: list[int], low: int, high: int) -> None:
        for v in values:
            if not low <= v <= high:
                raise SpecError(
                    self.path(key), f"must hold integers in {low:,}..{high:,}, got {number(v)}"
                )

    def integer_range(
        self, key: str, default: tuple[int, int], *, low: int, high: int
    ) -> tuple[int, int]:
        """An integer ``n`` (the range n..n) or ``[first, last]`` (first..last), in low..high;
        a list of one, ``[n]``, is the integer (as a list crosses the API)."""
        value = self.require(key, list(default))
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

    def integers(
        self, key: str, default: list[int], *, count: int, low: int, high: int
    ) -> list[int]:
        """A list of ``count`` integers, each in low..high."""
        value = self._list(key, default, int, f"a list of {count} integers")
        if len(value) != count:
            raise SpecError(
                self.path(key), f"must be a list of {count} integers, not {echo(value)}"
            )
        self._within(key, value, low, high)
        return value

    def integer_list(
        self, key: str, default: list[int], *, low: int, high: int, most: int
    ) -> list[int]:
        """A list of one to ``most`` integers in low..high, strictly increasing."""
        value = self._list(key, default, int, "a list of integers")
        if not value:
            raise SpecError(self.path(key), f"must be a list of integers, not {echo(value)}")
        if len(value) > most:
            raise SpecError(
                self.path(key), f"must hold at most {most} integers, got {len(value):,}"
            )
        self._within(key, value, low, high)
        if any(b <= a for a, b in itertools.pairwise(value)):
            raise SpecError(self.path(key), f"must increase, got {echo(value)}")
        return value

    def optional_numbers(self, key: str) -> list[float] | None:
        """A list of numbers (integers or not, not booleans), or None when absent."""
        if not self.has(key):
            self.read.add(key)
            return None
        return [float(v) for v in self._list(key, None, int | float, "a list of numbers")]

    def booleans(self, key: str, *, count: int) -> list[bool]:
        """A list of exactly ``count`` booleans (required)."""
        words = f"a list of {count} true or false"
        value = self._list(key, None, bool, words)
        if len(value) != count:
            raise SpecError(self.path(key), f"must be {words}, not {echo(value)}")
        return value

    def strings(self, key: str, default: list[str], *, most: int) -> list[str]:
        """A list of at most ``most`` strings."""
        value = self._list(key, default, str, "a list of strings")
        if len(value) > most:
            raise SpecError(self.path(key), f"must hold at most {most} strings, got {len(value):,}")
        return value
