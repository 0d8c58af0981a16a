"""One hand of a PHH hand history as a value, and the error that names where a file is wrong.

PHH (the Poker Hand History standard) is TOML: a ``.phh`` file holds one hand as top-level
keys, a ``.phhs`` file several hands, each a table ``[1]``, ``[2]``, ...  The fields that set
up and play the hand are ``variant``, ``antes``, ``blinds_or_straddles``, ``bring_in``,
``small_bet``, ``big_bet``, ``min_bet``, ``starting_stacks`` and ``actions``; the result is
``finishing_stacks`` (which may hold fractions of a chip where a pot was split exactly).
Every other field (``hand``, ``players``, ``event``, user-defined ``_fields``, ...) is kept
as read so that a hand written back holds it unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simulations.phh.lines import Line

Number = int | float

# PHH's fields in the order the standard lists them: a hand is written in this order, its
# other fields after them in the order they were read.
PHH_FIELDS = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
    "starting_stacks",
    "actions",
    "author",
    "event",
    "url",
    "venue",
    "address",
    "city",
    "region",
    "postal_code",
    "country",
    "time",
    "time_zone",
    "time_zone_abbreviation",
    "day",
    "month",
    "year",
    "hand",
    "level",
    "seats",
    "seat_count",
    "table",
    "players",
    "finishing_stacks",
    "winnings",
    "currency",
    "currency_symbol",
    "time_limit",
    "time_banks",
)
# The fields PhhHand holds as its own attributes; the others go to ``extra``.
OWN_FIELDS = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
    "starting_stacks",
    "actions",
    "hand",
    "players",
    "finishing_stacks",
)


class PhhError(ValueError):
    """A hand history that cannot be read or replayed: the message names the file, the hand
    (``file#section`` in a ``.phhs`` file) and the field (``actions[3]``), then the problem."""

    def __init__(self, file: str, hand: str | None, field: str, problem: str) -> None:
        where = file if hand is None else f"{file}#{hand}"
        super().__init__(f"{where}: {field}: {problem}" if field else f"{where}: {problem}")
        self.file = file
        self.hand = hand
        self.field = field
        self.problem = problem


@dataclass(frozen=True, init=False)  # its own __init__: see simulations.phh.lines.Line
class PhhHand:
    """One hand as PHH gives it.  Chips are whole numbers but for ``finishing_stacks``;
    ``antes`` and ``blinds_or_straddles`` hold one entry per player, from ``p1``; None is a
    field the history leaves out.  ``extra`` holds every other field, in the order read,
    with its TOML value as :mod:`tomllib` reads it.  ``source`` and ``section`` say where the
    hand was read (not part of the hand: they do not take part in comparisons)."""

    variant: str
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    antes: tuple[int, ...] | None = None
    blinds_or_straddles: tuple[int, ...] | None = None
    bring_in: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    min_bet: int | None = None
    ante_trimming_status: bool | None = None
    finishing_stacks: tuple[Number, ...] | None = None
    hand: int | None = None
    players: tuple[str, ...] | None = None
    extra: tuple[tuple[str, Any], ...] = ()
    source: str = field(default="", compare=False)
    section: str | None = field(default=None, compare=False)
    # The action lines parsed, as the reader checked them (None: parsed when needed).
    lines: tuple[Line, ...] | None = field(default=None, compare=False, repr=False)

    def __init__(
        self,
        variant: str,
        starting_stacks: tuple[int, ...],
        actions: tuple[str, ...],
        antes: tuple[int, ...] | None = None,
        blinds_or_straddles: tuple[int, ...] | None = None,
        bring_in: int | None = None,
        small_bet: int | None = None,
        big_bet: int | None = None,
        min_bet: int | None = None,
        ante_trimming_status: bool | None = None,
        finishing_stacks: tuple[Number, ...] | None = None,
        hand: int | None = None,
        players: tuple[str, ...] | None = None,
        extra: tuple[tuple[str, Any], ...] = (),
        source: str = "",
        section: str | None = None,
        lines: tuple[Line, ...] | None = None,
    ) -> None:
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "starting_stacks", starting_stacks)
        object.__setattr__(self, "actions", actions)
        object.__setattr__(self, "antes", antes)
        object.__setattr__(self, "blinds_or_straddles", blinds_or_straddles)
        object.__setattr__(self, "bring_in", bring_in)
        object.__setattr__(self, "small_bet", small_bet)
        object.__setattr__(self, "big_bet", big_bet)
        object.__setattr__(self, "min_bet", min_bet)
        object.__setattr__(self, "ante_trimming_status", ante_trimming_status)
        object.__setattr__(self, "finishing_stacks", finishing_stacks)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "extra", extra)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "section", section)
        object.__setattr__(self, "lines", lines)

    def __hash__(self) -> int:
        # ``extra`` may hold lists (TOML arrays): the hand hashes by what plays it.
        return hash((self.variant, self.starting_stacks, self.actions))

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    @property
    def name(self) -> str:
        """How reports name the hand: ``F7S.phhs#12`` in a file of several, else the file."""
        if self.section is None:
            return self.source
        file = self.source.replace("\\", "/").rsplit("/", 1)[-1]
        return f"{file}#{self.section}"

    def fields(self) -> dict[str, Any]:
        """Every field the hand has, PHH's first in the standard's order, then the others
        in the order read (what a writer writes; None fields are left out)."""
        values: dict[str, Any] = {}
        extra = dict(self.extra)
        for key in PHH_FIELDS:
            if key in OWN_FIELDS:
                value = getattr(self, key)
                if value is not None:
                    values[key] = list(value) if isinstance(value, tuple) else value
            elif key in extra:
                values[key] = extra.pop(key)
        values.update(extra)
        return values
