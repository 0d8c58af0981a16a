"""The strict readers a game file is read with: a table that refuses every key it was not
asked for, and typed values (integers in a range, strings, a name from an enum's list, lists,
rank symbols), each mistake an :class:`Invalid` naming its field.

They know nothing of poker's sections; :mod:`simulations.engine.gamefile` attaches the file's
name to an :class:`Invalid` when it reaches the caller.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, TypeVar

from simulations.cards import RANK_SYMBOLS, Rank
from simulations.spec import echo, shown_key, type_name

__all__ = [
    "MAX_CARDS",
    "MAX_CHIPS",
    "MAX_PLAYERS",
    "MAX_SHOWDOWN_CARDS",
    "Invalid",
    "Table",
    "read_choice",
    "read_integer",
    "read_list",
    "read_ranks",
    "read_string",
    "type_name",
]

MAX_CHIPS = 10**12  # any stake or forced bet above this is a typo
MAX_CARDS = 64  # a player's cards travel as int8 column indices
MAX_PLAYERS = 64
# A hand at the showdown is chosen from a player's cards and the board; every choice of five
# is tried when the game file is read, so the count of cards is bounded (the built-in games
# use at most 14; 24 cards are 42,504 choices of five).
MAX_SHOWDOWN_CARDS = 24

E = TypeVar("E", bound=Enum)


class Invalid(ValueError):
    """A problem found while reading, before the file's name is attached."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


class Table:
    """One table of the file; remembers which keys were read so that :meth:`finish` can
    refuse the rest (a misspelt key is an error, not an ignored line)."""

    def __init__(self, value: object, path: str) -> None:
        if not isinstance(value, Mapping):
            raise Invalid(path or "game", f"must be a table, not {type_name(value)}")
        self.items: Mapping[str, Any] = value
        self.path = path
        self.read: set[str] = set()

    def at(self, key: str) -> str:
        # The user's own keys land here too (a player's name, an unknown key): quoted
        # unless a plain word, so that the path stays one line and shows the key.
        shown = shown_key(key)
        return f"{self.path}.{shown}" if self.path else shown

    def has(self, key: str) -> bool:
        return key in self.items

    def raw(self, key: str) -> Any:
        self.read.add(key)
        return self.items.get(key)

    def require(self, key: str) -> Any:
        self.read.add(key)
        if key not in self.items:
            raise Invalid(self.at(key), "is required")
        return self.items[key]

    def integer(self, key: str, default: int, low: int = 0, high: int = MAX_CHIPS) -> int:
        if key not in self.items:
            self.read.add(key)
            return default
        return read_integer(self.require(key), self.at(key), low, high)

    def optional_integer(self, key: str, low: int = 0, high: int = MAX_CHIPS) -> int | None:
        if key not in self.items:
            self.read.add(key)
            return None
        return read_integer(self.require(key), self.at(key), low, high)

    def boolean(self, key: str, default: bool) -> bool:
        if key not in self.items:
            self.read.add(key)
            return default
        value = self.require(key)
        if not isinstance(value, bool):
            raise Invalid(self.at(key), f"must be true or false, not {type_name(value)}")
        return value

    def string(self, key: str, default: str | None = None) -> str:
        if key not in self.items and default is not None:
            self.read.add(key)
            return default
        return read_string(self.require(key), self.at(key))

    def choice(self, key: str, kind: type[E], default: E | None = None) -> E:
        """A value of the enum ``kind``, written as the enum's value."""
        if key not in self.items and default is not None:
            self.read.add(key)
            return default
        return read_choice(self.require(key), self.at(key), kind)

    def table(self, key: str) -> Table:
        value = self.raw(key)
        return Table({} if value is None else value, self.at(key))

    def finish(self) -> None:
        for key in self.items:
            if key not in self.read:
                known = ", ".join(sorted(self.read))
                raise Invalid(self.at(key), f"is not a known setting (known: {known})")


def read_integer(value: object, path: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(path, f"must be an integer, not {type_name(value)}")
    if not low <= value <= high:
        raise Invalid(path, f"must be {low:,} to {high:,}, got {echo(value)}")
    return value


def read_string(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise Invalid(path, f"must be a string, not {type_name(value)}")
    return value


def read_choice(value: object, path: str, kind: type[E]) -> E:
    allowed = [str(member.value) for member in kind]
    if isinstance(value, str) and value in allowed:
        return kind(value)
    shown = echo(value) if isinstance(value, str) else type_name(value)
    raise Invalid(path, f"must be one of {', '.join(map(repr, allowed))}; got {shown}")


def read_list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise Invalid(path, f"must be a list, not {type_name(value)}")
    return value


def read_ranks(text: object, path: str) -> tuple[Rank, ...]:
    """Rank symbols lowest first, with runs written low-high: "7-A", "2-7J-A"."""
    spec = read_string(text, path)
    allowed = " ".join(RANK_SYMBOLS)
    ranks: list[Rank] = []
    position = 0
    while position < len(spec):
        symbol = spec[position]
        if symbol not in RANK_SYMBOLS:
            raise Invalid(
                path,
                f"{echo(symbol)} (at {position + 1} in {echo(spec)}) is not a rank; the ranks "
                f"are {allowed}, lowest first, and a run is written low-high as in '7-A'",
            )
        low = Rank(RANK_SYMBOLS.index(symbol))
        high = low
        if spec[position + 1 : position + 2] == "-":
            end = spec[position + 2 : position + 3]
            if end not in RANK_SYMBOLS or not end:
                raise Invalid(
                    path, f"the run {echo(spec[position : position + 3])} has no end rank"
                )
            high = Rank(RANK_SYMBOLS.index(end))
            if high <= low:
                raise Invalid(path, f"the run {symbol}-{end} must go from low to high")
            position += 2
        for rank in range(low, high + 1):
            if ranks and rank <= ranks[-1]:
                raise Invalid(
                    path,
                    f"{Rank(rank).symbol} is out of order or repeated: lowest first, once each",
                )
            ranks.append(Rank(rank))
        position += 1
    if not ranks:
        raise Invalid(path, "names no ranks")
    return tuple(ranks)
