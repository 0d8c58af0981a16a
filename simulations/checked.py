"""The strict reader of TOML tables: typed values, and one-line errors that name the field.

Job files, game files, scenario files and PHH hands arrive as nested mappings (from TOML,
JSON or an API message).  Each table is read through a :class:`CheckedTable`, which checks
every value's type and range as it is read and, at :meth:`CheckedTable.finish`, refuses any
key no reader asked for, so that a misspelt setting is an error naming it rather than a
silent default.  Every mistake is a :class:`FieldError` (or the reader's own subclass of it)
whose ``field`` is the dotted path of the culprit (``jackpot.policies[1].percent``).

The value checks are also functions (:func:`integer_value`, ...) for values that are not a
table's (list items, a PHH hand's fields); they take the error to raise, so that a reader
keeps its own error type.  This module imports nothing from the package.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, ClassVar, Self, TypeVar

T = TypeVar("T")
E = TypeVar("E", bound=Enum)
ErrorType = Callable[[str, str], Exception]  # (field, problem) -> the error to raise

REQUIRED: Any = object()  # the default of a value that must be given (the getters' default)
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]+")

ECHO_LIMIT = 40
# Integers of more digits than this are described by their length rather than written out:
# a message stays one short line, and str() of a huge int would itself raise past Python's
# integer-string limit.
ECHO_DIGITS = 30
_LOG10_2 = 0.30102999566398120


# --- values in messages -----------------------------------------------------------------


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


def described(value: object) -> str:
    """A value of the wrong type for a message: its kind, and a number or string itself
    (shortened by :func:`echo`), so that the message shows the token (``a string ('10')``)."""
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return f"{type_name(value)} ({echo(value)})"
    return type_name(value)


def shown_key(key: object) -> str:
    """A key of the user's as a field path shows it: a plain word as it is, anything else
    (empty, spaced, a line break in it, long) quoted and shortened by :func:`echo`, so that
    a message stays one line and still shows which key."""
    if isinstance(key, str) and len(key) <= ECHO_LIMIT and _PLAIN_KEY.fullmatch(key):
        return key
    return echo(key)


# --- values -----------------------------------------------------------------------------


class FieldError(ValueError):
    """A value that cannot be read; ``field`` is the dotted path of the culprit
    (``jackpot.players``), ``problem`` what is wrong with it; ``unknown_key`` when the
    culprit is a key that no reader asked for (a misspelling, not a wrong value)."""

    root: ClassVar[str] = "table"  # what a top-level table that is not one is called

    def __init__(self, field: str, problem: str, *, unknown_key: bool = False) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem
        self.unknown_key = unknown_key


def integer_value(
    value: object,
    path: str,
    low: int | None = None,
    high: int | None = None,
    error: ErrorType = FieldError,
) -> int:
    """An integer (not a boolean, not a float however whole) in ``low..high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(path, f"must be an integer, not {described(value)}")
    if low is not None and value < low:
        raise error(path, f"must be at least {low:,}, got {number(value)}")
    if high is not None and value > high:
        raise error(path, f"must be at most {high:,}, got {number(value)}")
    return value


def number_value(value: object, path: str, error: ErrorType = FieldError) -> float:
    """A number, integer or not (not a boolean, not NaN)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise error(path, f"must be a number, not {described(value)}")
    if isinstance(value, float) and value != value:
        raise error(path, "must be a number, not NaN")
    return float(value)


def boolean_value(value: object, path: str, error: ErrorType = FieldError) -> bool:
    if not isinstance(value, bool):
        raise error(path, f"must be true or false, not {described(value)}")
    return value


def string_value(
    value: object,
    path: str,
    choices: tuple[str, ...] | None = None,
    error: ErrorType = FieldError,
) -> str:
    """A string, one of ``choices`` when they are given."""
    if choices is not None and (not isinstance(value, str) or value not in choices):
        shown = echo(value) if isinstance(value, str) else described(value)
        raise error(path, f"must be one of {', '.join(map(repr, choices))}; got {shown}")
    if not isinstance(value, str):
        raise error(path, f"must be a string, not {described(value)}")
    return value


def choice_value(value: object, path: str, kind: type[E], error: ErrorType = FieldError) -> E:
    """A member of the enum ``kind``, written as its value."""
    return kind(string_value(value, path, tuple(str(m.value) for m in kind), error))


def list_value(value: object, path: str, error: ErrorType = FieldError) -> list[Any]:
    if not isinstance(value, list):
        raise error(path, f"must be a list, not {described(value)}")
    return value


# --- tables -----------------------------------------------------------------------------


class CheckedTable:
    """One table of a file, at the dotted path ``prefix``, that remembers which keys were
    read so that :meth:`finish` can refuse the rest.

    Each getter marks its key read; a value absent takes the default given, and without one
    is an error (``is required``); the ``optional_`` getters give None when it is absent.
    A reader with its own error type sets :attr:`error` in a subclass; the tables within a
    table are read with the same class.
    """

    error: ClassVar[type[FieldError]] = FieldError

    def __init__(self, mapping: object, prefix: str = "") -> None:
        if not isinstance(mapping, Mapping):
            raise self.error(
                prefix or self.error.root, f"must be a table, not {described(mapping)}"
            )
        self.mapping: Mapping[str, Any] = mapping
        self.prefix = prefix
        self.read: set[str] = set()

    def path(self, key: str) -> str:
        """The dotted path of ``key`` (the user's own keys quoted unless a plain word)."""
        shown = shown_key(key)
        return f"{self.prefix}.{shown}" if self.prefix else shown

    def has(self, key: str) -> bool:
        return key in self.mapping

    def raw(self, key: str) -> Any:
        """The value as written (None when absent), marked as read."""
        self.read.add(key)
        return self.mapping.get(key)

    def require(self, key: str, default: Any = REQUIRED) -> Any:
        """The value as written, marked as read; ``default`` when absent, if one is given."""
        self.read.add(key)
        if key in self.mapping:
            return self.mapping[key]
        if default is REQUIRED:
            raise self.error(self.path(key), "is required")
        return default

    def _read(self, key: str, default: Any, check: Callable[[Any, str], T]) -> T:
        value = self.require(key, default)
        return value if key not in self.mapping else check(value, self.path(key))

    def integer(
        self, key: str, default: int = REQUIRED, low: int | None = None, high: int | None = None
    ) -> int:
        return self._read(key, default, lambda v, p: integer_value(v, p, low, high, self.error))

    def optional_integer(
        self, key: str, low: int | None = None, high: int | None = None
    ) -> int | None:
        return self._read(key, None, lambda v, p: integer_value(v, p, low, high, self.error))

    def number(self, key: str, default: float = REQUIRED) -> float:
        """A number, integer or not (not a boolean)."""
        return float(self._read(key, default, lambda v, p: number_value(v, p, self.error)))

    def optional_number(self, key: str) -> float | None:
        return self._read(key, None, lambda v, p: number_value(v, p, self.error))

    def boolean(self, key: str, default: bool = REQUIRED) -> bool:
        return self._read(key, default, lambda v, p: boolean_value(v, p, self.error))

    def optional_boolean(self, key: str) -> bool | None:
        return self._read(key, None, lambda v, p: boolean_value(v, p, self.error))

    def string(
        self, key: str, default: str = REQUIRED, *, choices: tuple[str, ...] | None = None
    ) -> str:
        return self._read(key, default, lambda v, p: string_value(v, p, choices, self.error))

    def optional_string(self, key: str) -> str | None:
        return self._read(key, None, lambda v, p: string_value(v, p, None, self.error))

    def choice(self, key: str, kind: type[E], default: E = REQUIRED) -> E:
        """A member of the enum ``kind``, written as its value."""
        return self._read(key, default, lambda v, p: choice_value(v, p, kind, self.error))

    def optional_list(self, key: str, item: Callable[[Any, str], T]) -> list[T] | None:
        """A list, each item read by ``item`` (value, path ``key[i]``); None when absent."""
        value = self.raw(key)
        if value is None:
            return None
        path = self.path(key)
        return [item(v, f"{path}[{i}]") for i, v in enumerate(list_value(value, path, self.error))]

    def table(self, key: str, *, required: bool = False) -> Self:
        """The table ``key``; an empty one when absent, unless ``required``."""
        return type(self)(self.require(key, REQUIRED if required else {}), self.path(key))

    def optional_table(self, key: str) -> Self | None:
        value = self.raw(key)
        return None if value is None else type(self)(value, self.path(key))

    def tables(self, key: str) -> list[Self]:
        """An array of tables (``[[key]]`` in TOML), none when absent."""
        value = self.require(key, [])
        if not isinstance(value, list):
            raise self.error(self.path(key), f"must be a list of tables, not {described(value)}")
        return [type(self)(item, f"{self.path(key)}[{i}]") for i, item in enumerate(value)]

    def finish(self) -> None:
        """Refuse the first key that no reader asked for."""
        for key in self.mapping:
            if key not in self.read:
                known = ", ".join(sorted(self.read))
                hint = f" (known: {known})" if known else ""
                raise self.error(self.path(key), f"is not a known setting{hint}", unknown_key=True)
