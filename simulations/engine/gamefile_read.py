"""The strict readers a game file is read with: the shared table reader of
:mod:`simulations.checked` (a table that refuses every key it was not asked for, typed values,
a name from an enum's list), raising :class:`Invalid` naming the field, and rank symbols.

They know nothing of poker's sections; :mod:`simulations.engine.gamefile` attaches the file's
name to an :class:`Invalid` when it reaches the caller.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, TypeVar

from simulations.cards import RANK_SYMBOLS, Rank
from simulations.checked import (
    REQUIRED,
    CheckedTable,
    FieldError,
    choice_value,
    echo,
    integer_value,
    list_value,
    string_value,
    type_name,
)

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


class Invalid(FieldError):
    """A problem found while reading, before the file's name is attached."""

    root = "game"


class Table(CheckedTable):
    """One table of the file, read by the shared reader (errors are :class:`Invalid`); an
    integer is a count of chips (0 up to :data:`MAX_CHIPS`) unless bounds are given."""

    error = Invalid

    def integer(
        self, key: str, default: int = REQUIRED, low: int | None = 0, high: int | None = MAX_CHIPS
    ) -> int:
        return super().integer(key, default, low, high)

    def optional_integer(
        self, key: str, low: int | None = 0, high: int | None = MAX_CHIPS
    ) -> int | None:
        return super().optional_integer(key, low, high)


def read_integer(value: object, path: str, low: int, high: int) -> int:
    return integer_value(value, path, low, high, Invalid)


def read_string(value: object, path: str) -> str:
    return string_value(value, path, None, Invalid)


def read_choice(value: object, path: str, kind: type[E]) -> E:
    return choice_value(value, path, kind, Invalid)


def read_list(value: object, path: str) -> list[Any]:
    return list_value(value, path, Invalid)


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
