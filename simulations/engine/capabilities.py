"""What a game's definition asks of whoever plays it, read from the definition itself.

A compiled kernel (the batch replay kernel, the economics jobs' table, the exhaustion
dealer, the guts loop) plays a few shapes of game.  Which games of the registry it may
play is decided here, from the game data — the streets and how the cards are dealt, the
hole cards and how a hand is made of them, the betting structure, the forced bets, the
showdown's halves and the deck — never from a list of codes: a designer's new game file
reaches every kernel whose shape it has.  Each kernel states what it needs as
:class:`Need` s and asks :func:`lacking` which of them a game misses, in words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from simulations.engine.game import HOLDEM_PHASES, GameDefinition
from simulations.engine.phases import Bet, Deal, Draw, Pass
from simulations.engine.showdown import Half, HandRanking


class Dealing(StrEnum):
    """How a game's cards reach the players, as the dealing kernels tell games apart."""

    HOLDEM = "hold'em streets"  # down cards, then flop, turn and river, each after a burn
    STUD = "stud streets"  # down and up cards to each player, no board, no draw
    DRAW = "draws"  # one deal of down cards, then betting rounds with draws between
    PASS = "passes"  # one deal of down cards, then passes and betting rounds
    OTHER = "another deal"


@dataclass(frozen=True)
class Need:
    """One thing a kernel needs of a game: ``says`` names it (for the refusal), ``met``
    tells whether a game has it."""

    says: str
    met: Callable[[GameDefinition], bool]


def lacking(game: GameDefinition, needs: Iterable[Need]) -> list[str]:
    """What of ``needs`` ``game`` misses, in words (empty: it has them all)."""
    return [need.says for need in needs if not need.met(game)]


def dealing(game: GameDefinition) -> Dealing:
    """How ``game`` deals (:class:`Dealing`); plain phases only — a deal off a pile, an extra
    upcard, a draw of extras or limits keeping an ace, or any other phase is OTHER."""
    phases = game.phases
    if holdem_streets(game):
        return Dealing.HOLDEM
    # A Draft or an auction is a Deal of another type: not a plain deal.
    plain = all(
        (type(p) is Deal and not p.pile and p.extra_up is None)
        or isinstance(p, Bet | Pass)
        or (isinstance(p, Draw) and not p.extra and p.most_keeping_ace is None)
        for p in phases
    )
    if not plain:
        return Dealing.OTHER
    deals = [p for p in phases if type(p) is Deal]
    draws = any(isinstance(p, Draw) for p in phases)
    passes = any(isinstance(p, Pass) for p in phases)
    if any(d.board for d in deals):
        return Dealing.OTHER
    if not draws and not passes and any(d.up for d in deals):
        return Dealing.STUD
    if len(deals) == 1 and not deals[0].up and draws != passes:
        return Dealing.DRAW if draws else Dealing.PASS
    return Dealing.OTHER


def holdem_streets(game: GameDefinition) -> bool:
    """Hold'em's streets: a deal of down cards (two, or Omaha's four, or any number), a
    betting round, then flop, turn and river, each after a burn and followed by a betting
    round (a street may have another name)."""
    phases = game.phases
    if len(phases) != len(HOLDEM_PHASES) or not isinstance(phases[0], Deal):
        return False
    first = phases[0]
    if first.down < 1 or replace(first, street="preflop", down=2) != HOLDEM_PHASES[0]:
        return False
    return all(
        (replace(p, street=ours.street) if isinstance(p, Deal) and isinstance(ours, Deal) else p)
        == ours
        for p, ours in zip(phases[1:], HOLDEM_PHASES[1:], strict=True)
    )


def hole_cards(game: GameDefinition) -> int:
    """The cards each player is dealt first (hold'em's two, Omaha's four, stud's three)."""
    return next(p for p in game.phases if isinstance(p, Deal)).per_player


def one_half(game: GameDefinition) -> Half | None:
    """The showdown's one half, plain (no wild cards, ranking system, board or qualifier), or
    None: a split pot, a declaration, or a half with any of those."""
    showdown = game.showdown
    if showdown.declare or len(showdown.halves) != 1:
        return None
    half = showdown.halves[0]
    return half if replace(half, ranking=HandRanking.HIGH) == Half() else None


def high_only(game: GameDefinition) -> bool:
    """The whole pot to the best high hand, ranked as in poker (no split, no wild cards)."""
    half = one_half(game)
    return half is not None and half.ranking is HandRanking.HIGH


def standard_deck(game: GameDefinition) -> bool:
    """The 52-card deck, no jokers."""
    return len(game.deck.deck().cards) == 52 and not game.deck.jokers


def settings_left_at_defaults(game: GameDefinition, read: frozenset[str]) -> bool:
    """Every setting of ``game`` other than ``read`` is at its default: a kernel that reads
    only ``read`` would otherwise ignore a setting silently (fail closed: a setting added to
    the definition later is refused until a kernel reads it)."""
    return all(
        getattr(game, name) == default for name, default in unread_defaults(type(game), read)
    )


def unread_defaults(kind: type[Any], read: frozenset[str]) -> tuple[tuple[str, Any], ...]:
    """The fields of the dataclass ``kind`` that take part in comparisons, other than
    ``read``, with their defaults."""
    found = []
    for f in fields(kind):
        if f.compare and f.name not in read:
            factory = f.default_factory
            found.append((f.name, factory() if callable(factory) else f.default))
    return tuple(found)
