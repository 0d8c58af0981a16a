"""The registry of named variants, each under a stable code that job files, scenarios and
hand histories share.

Every built-in game is a game file (:mod:`simulations.engine.gamefile`) in the package's
``simulations/games`` folder, read once when this module is first imported; a user's own
folder of game files loads the same way (:func:`load_games`).  Codes are PHH's where PHH
names the game (NT: no-limit Texas hold'em, FT: fixed-limit Texas hold'em, PO: pot-limit
Omaha, FO/8: fixed-limit Omaha eight or better, F7S: fixed-limit seven-card stud, F7S/8: its
eight-or-better split, FR: fixed-limit razz, N2L1D, F2L3D, FB: the draw games) and the
project's own, in the same pattern, otherwise; a code, once given, always means the same
game.

The registry holds the guts games too (files with ``kind = "guts"``), under codes of their
own: G2 (two-card guts), G2-SF (two-card, straights and flushes counting), G3 (three-card
guts as the texts rank it), G3-POKER (three-card, ranked as in poker: the straight flush
first), G3-DEALER (two cards down, in turn, the third face up, the dealer's pair rule),
G3-CHALLENGE (the same with the challenge instead), G3-WORST (the worst hand doubles the
pot), G3-VICIOUS (nobody wins unless alone) and G3-CAP50 (the pot capped at 50 antes).
:data:`VARIANTS` maps every code; :data:`POKER_VARIANTS` only the poker games, whose
:meth:`Variant.game` is a :class:`GameDefinition`, and :data:`GUTS_VARIANTS` only the guts
games, whose :meth:`Variant.guts` is a :class:`~simulations.engine.guts_game.GutsGame`.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType

from simulations.engine.game import GameDefinition
from simulations.engine.gamefile import (
    GameEntry,
    GameFileError,
    GameKind,
    GutsEntry,
    load_any_game_file,
)
from simulations.engine.guts_game import GutsGame
from simulations.spec import echo

# The package folder of the built-in game files (shipped in the wheel as package data).
GAMES_FOLDER = files("simulations") / "games"


@dataclass(frozen=True)
class Variant:
    """A named game: its stable code, its name, its definition (a poker game's or a guts
    game's rules) and the file it came from."""

    code: str
    name: str
    definition: GameDefinition | GutsGame
    source: str

    @classmethod
    def from_entry(cls, entry: GameEntry | GutsEntry) -> Variant:
        if isinstance(entry, GutsEntry):
            return cls(entry.code, entry.name, entry.guts, entry.source)
        return cls(entry.code, entry.name, entry.game, entry.source)

    @property
    def kind(self) -> GameKind:
        return GameKind.GUTS if isinstance(self.definition, GutsGame) else GameKind.POKER

    def game(self) -> GameDefinition:
        """A poker game's definition; ``ValueError`` for a guts game (see :meth:`guts`)."""
        if isinstance(self.definition, GutsGame):
            raise ValueError(f"{self.code} is a guts game, not a poker game: see its guts()")
        return self.definition

    def guts(self) -> GutsGame:
        """A guts game's rules; ``ValueError`` for a poker game (see :meth:`game`)."""
        if not isinstance(self.definition, GutsGame):
            raise ValueError(f"{self.code} is a poker game, not a guts game: see its game()")
        return self.definition

    def summary(self) -> dict[str, str]:
        """What ``cardroom games`` lists: code, name, players, deck, structure, showdown."""
        if isinstance(self.definition, GutsGame):
            guts = self.definition
            return {
                "code": self.code,
                "name": self.name,
                "players": f"{guts.min_players}-{guts.max_players}",
                "deck": "52 cards",
                "structure": "guts",
                "showdown": guts.system,
            }
        game = self.definition
        return {
            "code": self.code,
            "name": self.name,
            "players": f"{game.min_players}-{game.max_players}",
            "deck": game.deck.label,
            "structure": str(game.limit),
            "showdown": game.showdown.label,
        }


def load_games(folder: str | Path | Traversable) -> Mapping[str, Variant]:
    """Every ``*.toml`` game file in ``folder``, in the order of the files' numbers, by code.

    A bad file raises :class:`~simulations.engine.gamefile.GameFileError` naming it; two
    files giving one code raise it naming both, since a code must mean one game.
    """
    root: Path | Traversable = Path(folder) if isinstance(folder, str) else folder
    if not root.is_dir():
        raise GameFileError(str(root), "", "is not a folder of game files")
    found: dict[str, Variant] = {}
    for file in sorted((f for f in root.iterdir() if f.name.endswith(".toml")), key=_name):
        entry = load_any_game_file(file)
        earlier = found.get(entry.code)
        if earlier is not None:
            raise GameFileError(
                entry.source, "code", f"{entry.code!r} is already the code of {earlier.source}"
            )
        found[entry.code] = Variant.from_entry(entry)
    return MappingProxyType(found)


def _name(file: Traversable) -> tuple[int, str]:
    """Files sort by their leading number ('100-...' after '99-...'), then by name."""
    number = file.name.split("-", 1)[0]
    return (int(number) if number.isdigit() else -1, file.name)


VARIANTS = load_games(GAMES_FOLDER)
POKER_VARIANTS: Mapping[str, Variant] = MappingProxyType(
    {code: found for code, found in VARIANTS.items() if found.kind is GameKind.POKER}
)
GUTS_VARIANTS: Mapping[str, Variant] = MappingProxyType(
    {code: found for code, found in VARIANTS.items() if found.kind is GameKind.GUTS}
)


def variant(code: str) -> Variant:
    """The variant of ``code``; ``ValueError`` naming the code and the known ones."""
    found = VARIANTS.get(code)
    if found is None:
        known = ", ".join(VARIANTS)
        raise ValueError(f"{echo(code)} is not a game code; the codes are {known}")
    return found


def close_codes(code: str, among: Mapping[str, Variant] = VARIANTS, most: int = 3) -> list[str]:
    """The codes of ``among`` nearest to ``code`` (case aside), nearest first: what a
    refusal of an unknown code suggests."""
    by_upper = {known.upper(): known for known in among}
    near = difflib.get_close_matches(code.upper(), list(by_upper), n=most, cutoff=0.5)
    return [by_upper[found] for found in near]
