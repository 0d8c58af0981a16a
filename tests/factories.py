"""The five games the tests build most, with their stakes and house rules as arguments, each
from its game file in the registry: hold'em (NT), Omaha (PO, FO/8), seven-card stud (F7S,
F7S/8) and razz (FR).  A test that wants hold'em with three blinds or a cumulative short
all-in takes the shipped file's definition and changes only what it names, so the games the
tests play are the games the files define."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from simulations.engine.game import (
    ForcedBets,
    GameDefinition,
    IncompleteRaiseRule,
    JackpotDrop,
    Limit,
    PotLimitBlinds,
    Rake,
    ShortAllInRule,
    Stakes,
    StraddleRule,
)
from simulations.engine.pots import OddChipRule
from simulations.engine.variants import VARIANTS


def _community_stakes(limit: Limit, blinds: tuple[int, ...]) -> Stakes:
    """Fixed-limit stakes with the big blind as the small bet and a bet and three raises;
    otherwise the big blind as the smallest bet."""
    big_blind = blinds[-1] if blinds else 1
    if limit is Limit.FIXED:
        return Stakes(big_blind, 2 * big_blind, max_bets=4)
    return Stakes(big_blind)


def holdem(
    limit: Limit,
    *,
    blinds: tuple[int, ...] = (1, 2),
    ante: int = 0,
    big_blind_ante: int = 0,
    stakes: Stakes | None = None,
    incomplete_raise: IncompleteRaiseRule = IncompleteRaiseRule.FULL_BET,
    short_all_ins: ShortAllInRule = ShortAllInRule.CUMULATIVE,
    pot_limit_blinds: PotLimitBlinds = PotLimitBlinds.AS_POSTED,
    odd_chips: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON,
    rake: Rake | None = None,
    jackpot_drop: JackpotDrop | None = None,
    straddles: StraddleRule = StraddleRule.NONE,
) -> GameDefinition:
    """Texas hold'em (NT's file) under ``limit``."""
    return replace(
        VARIANTS["NT"].game(),
        name=f"{limit.value} Texas hold'em",
        forced=ForcedBets(ante=ante, blinds=blinds, big_blind_ante=big_blind_ante),
        limit=limit,
        stakes=stakes or _community_stakes(limit, blinds),
        incomplete_raise=incomplete_raise,
        short_all_ins=short_all_ins,
        pot_limit_blinds=pot_limit_blinds,
        odd_chips=odd_chips,
        rake=rake,
        jackpot_drop=jackpot_drop,
        straddles=straddles,
    )


def omaha(
    limit: Limit,
    *,
    eight_or_better: bool = False,
    blinds: tuple[int, ...] = (1, 2),
    ante: int = 0,
    stakes: Stakes | None = None,
    odd_chips: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON,
) -> GameDefinition:
    """Omaha (PO's file), or Omaha eight or better (FO/8's), under ``limit``."""
    return replace(
        VARIANTS["FO/8" if eight_or_better else "PO"].game(),
        name=f"{limit.value} Omaha" + (" eight or better" if eight_or_better else ""),
        forced=ForcedBets(ante=ante, blinds=blinds),
        limit=limit,
        stakes=stakes or _community_stakes(limit, blinds),
        odd_chips=odd_chips,
    )


def seven_card_stud(
    *,
    ante: int = 1,
    bring_in: int = 2,
    stakes: Stakes | None = None,
    limit: Limit = Limit.FIXED,
    incomplete_raise: IncompleteRaiseRule = IncompleteRaiseRule.FULL_BET,
    short_all_ins: ShortAllInRule = ShortAllInRule.CUMULATIVE,
    odd_chips: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON,
    rake: Rake | None = None,
    code: str = "F7S",
) -> GameDefinition:
    """Seven-card stud (F7S's file; ``code`` another stud game's): the bring-in (2) below
    the small bet (5), the big bet from fifth street, a bet and three raises by default."""
    base = VARIANTS[code].game()
    return replace(
        base,
        name=base.name if code != "F7S" else f"{limit.value} seven-card stud",
        forced=ForcedBets(ante=ante, bring_in=bring_in),
        limit=limit,
        stakes=stakes or Stakes(5, 10, big_bet_round=2, max_bets=4),
        incomplete_raise=incomplete_raise,
        short_all_ins=short_all_ins,
        odd_chips=odd_chips,
        rake=rake,
    )


def seven_card_stud_eight(**changes: Any) -> GameDefinition:
    """Seven-card stud high-low, eight or better (F7S/8's file); ``changes`` as for
    :func:`seven_card_stud`."""
    game = seven_card_stud(**changes, code="F7S/8")
    return replace(game, name="seven-card stud eight or better")


def razz(**changes: Any) -> GameDefinition:
    """Razz (FR's file); ``changes`` as for :func:`seven_card_stud`."""
    return replace(seven_card_stud(**changes, code="FR"), name="razz")
