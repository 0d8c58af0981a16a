"""The registry of named variants, each under a stable code that job files, scenarios and
hand histories share.

Codes are PHH's where PHH names the game (NT: no-limit Texas hold'em, FT: fixed-limit Texas
hold'em, PO: pot-limit Omaha, FO/8: fixed-limit Omaha eight or better, F7S: fixed-limit
seven-card stud, F7S/8: its eight-or-better split, FR: fixed-limit razz); a code, once
given, always means the same game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from simulations.engine.game import (
    GameDefinition,
    holdem,
    omaha,
    razz,
    seven_card_stud,
    seven_card_stud_eight,
)
from simulations.engine.limits import Limit
from simulations.spec import echo


@dataclass(frozen=True)
class Variant:
    """A named game: its stable code, its name and how to build its definition."""

    code: str
    name: str
    build: Callable[[], GameDefinition]

    def game(self) -> GameDefinition:
        return self.build()

    def summary(self) -> dict[str, str]:
        """What ``cardroom games`` lists: code, name, players, deck and structure."""
        game = self.game()
        return {
            "code": self.code,
            "name": self.name,
            "players": f"{game.min_players}-{game.max_players}",
            "deck": "52 cards",
            "structure": str(game.limit),
            "showdown": game.showdown.label,
        }


def _registry(*variants: Variant) -> Mapping[str, Variant]:
    codes = [v.code for v in variants]
    if len(codes) != len(set(codes)):
        raise ValueError(f"variant codes must be unique: {codes}")
    return MappingProxyType({v.code: v for v in variants})


VARIANTS = _registry(
    Variant("NT", "No-limit Texas hold'em", lambda: holdem(Limit.NO)),
    Variant("FT", "Fixed-limit Texas hold'em", lambda: holdem(Limit.FIXED)),
    Variant("PO", "Pot-limit Omaha", lambda: omaha(Limit.POT)),
    Variant(
        "FO/8",
        "Fixed-limit Omaha eight or better",
        lambda: omaha(Limit.FIXED, eight_or_better=True),
    ),
    Variant("F7S", "Fixed-limit seven-card stud", seven_card_stud),
    Variant("F7S/8", "Fixed-limit seven-card stud eight or better", seven_card_stud_eight),
    Variant("FR", "Fixed-limit razz", razz),
)


def variant(code: str) -> Variant:
    """The variant of ``code``; ``ValueError`` naming the code and the known ones."""
    found = VARIANTS.get(code)
    if found is None:
        known = ", ".join(VARIANTS)
        raise ValueError(f"{echo(code)} is not a game code; the codes are {known}")
    return found
