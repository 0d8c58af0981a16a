"""A hand history's stakes and forced bets laid onto a game of the registry.

PHH gives a hand's antes (one for all or one per player), its blinds and straddles (one
entry per player, from player 1), the bring-in, and the bet sizes: ``small_bet`` and
``big_bet`` for fixed limit, ``min_bet`` for pot and no limit.  A field the history leaves
out keeps the game file's value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from simulations.engine.game import ForcedBets, GameDefinition, StraddleRule
from simulations.engine.limits import Limit, Stakes


class StakesError(ValueError):
    """Stakes or forced bets the engine cannot lay onto the game; ``field`` names the key."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


@dataclass(frozen=True)
class HandStakes:
    """The PHH fields that set a hand's chips (None: the game file's)."""

    antes: Sequence[int] | None = None
    blinds_or_straddles: Sequence[int] | None = None
    bring_in: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    min_bet: int | None = None


def big_blind_seat(players: int, button: int) -> int:
    """The big blind's seat: the button's left heads-up (the button posts the small blind),
    two to its left otherwise."""
    return (button + 1) % players if players == 2 else (button + 2) % players


@dataclass(frozen=True)
class LaidStakes:
    """A hand's forced bets and stakes as a game takes them, its straddles as (seat, total),
    and the straddle rule they are posted under."""

    forced: ForcedBets
    stakes: Stakes
    straddles: tuple[tuple[int, int], ...]
    straddle_rule: StraddleRule


def lay_stakes(
    base: GameDefinition, stakes: HandStakes, players: int, button: int
) -> tuple[GameDefinition, tuple[tuple[int, int], ...]]:
    """``base`` with the hand's stakes and forced bets, and its straddles as (seat, total).

    Antes equal for every player are the game's ante; a single ante posted by the big blind
    is a big-blind ante; anything else is refused, naming ``antes``."""
    laid = stakes_parts(base, stakes, players, button)
    return laid_onto(base, laid), laid.straddles


def laid_onto(base: GameDefinition, laid: LaidStakes) -> GameDefinition:
    """``base`` with the forced bets, stakes and straddle rule of ``laid`` (StakesError
    naming ``stakes`` where the game refuses them)."""
    try:
        return replace(base, forced=laid.forced, stakes=laid.stakes, straddles=laid.straddle_rule)
    except ValueError as error:
        raise StakesError("stakes", str(error)) from None


def _with(forced: ForcedBets, **changes: Any) -> ForcedBets:
    """``forced`` with ``changes`` (itself when they change nothing: an equal value, as
    valid, without building it again)."""
    if all(getattr(forced, name) == value for name, value in changes.items()):
        return forced
    return replace(forced, **changes)


def stakes_parts(base: GameDefinition, stakes: HandStakes, players: int, button: int) -> LaidStakes:
    """What :func:`lay_stakes` lays onto ``base``: the forced bets, the stakes, the
    straddles and their rule (StakesError naming the field that cannot be laid).  The game
    then checks them against its other settings only for whether it has blinds or a
    bring-in and by the cap on bets (simulations.engine.game)."""
    forced = base.forced
    game_stakes = base.stakes
    if stakes.antes is not None:
        antes = list(stakes.antes)
        if len(antes) == 1 and players > 1:
            antes = antes * players
        if len(antes) != players:
            raise StakesError("antes", f"{len(antes)} entries for {players} players")
        posted = [(seat, a) for seat, a in enumerate(antes) if a]
        if not posted:
            forced = _with(forced, ante=0, big_blind_ante=0)
        elif len(posted) == players and len({a for _, a in posted}) == 1:
            forced = _with(forced, ante=posted[0][1], big_blind_ante=0)
        elif len(posted) == 1 and base.forced.bring_in == 0 and stakes.bring_in is None:
            if posted[0][0] != big_blind_seat(players, button):
                raise StakesError("antes", "one player's ante is a big-blind ante: the big blind")
            forced = _with(forced, ante=0, big_blind_ante=posted[0][1])
        else:
            raise StakesError("antes", "antes that differ between the players")
    straddles: tuple[tuple[int, int], ...] = ()
    if stakes.blinds_or_straddles is not None:
        bets = [int(b) for b in stakes.blinds_or_straddles]
        if len(bets) > players:
            raise StakesError("blinds_or_straddles", f"{len(bets)} entries for {players} players")
        blinds = tuple(b for b in bets[:2] if b)
        straddles = tuple((seat, b) for seat, b in enumerate(bets[2:], start=2) if b)
        forced = _with(forced, blinds=blinds)
    if stakes.bring_in is not None:
        if base.forced.bring_in == 0 and stakes.bring_in:
            raise StakesError("bring_in", f"{base.name} has no bring-in")
        forced = _with(forced, bring_in=stakes.bring_in)
    small, big = game_stakes.small_bet, game_stakes.big_bet
    small_field = "small_bet"
    if base.limit is Limit.FIXED:
        if stakes.small_bet is not None:
            small = stakes.small_bet
        elif stakes.min_bet is not None:
            small, small_field = stakes.min_bet, "min_bet"
        if stakes.big_bet is not None:
            big = stakes.big_bet
    else:
        if stakes.small_bet is not None or stakes.big_bet is not None:
            key = "small_bet" if stakes.small_bet is not None else "big_bet"
            raise StakesError(key, f"{base.name} is {base.limit.value}: give min_bet")
        if stakes.min_bet is not None:
            small, small_field = stakes.min_bet, "min_bet"
    if (small, big) != (game_stakes.small_bet, game_stakes.big_bet):
        # Both sizes at once: the small bet may outgrow the game file's big bet.
        try:
            game_stakes = replace(game_stakes, small_bet=small, big_bet=big)
        except ValueError as error:
            key = "big_bet" if "big_bet" in str(error) else small_field
            raise StakesError(key, str(error)) from None
    straddle_rule = base.straddles
    if straddles and straddle_rule is StraddleRule.NONE:
        straddle_rule = StraddleRule.LIVE
    return LaidStakes(forced, game_stakes, straddles, straddle_rule)
