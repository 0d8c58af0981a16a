"""Reading a game file's money: the ``[stakes]``, ``[forced]`` and ``[house]`` tables (the
format is described in :mod:`simulations.engine.gamefile`)."""

from __future__ import annotations

from dataclasses import dataclass

from simulations.engine.game import (
    BigBlindAnteOrder,
    ForcedBets,
    JackpotDrop,
    Rake,
    StraddleRule,
)
from simulations.engine.gamefile_read import (
    MAX_CARDS,
    MAX_CHIPS,
    MAX_PLAYERS,
    Invalid,
    Table,
    read_integer,
    read_list,
)
from simulations.engine.limits import (
    HeadsUpCap,
    IncompleteRaiseRule,
    Limit,
    PotLimitBlinds,
    ShortAllInRule,
    Stakes,
)
from simulations.engine.pots import OddChipRule
from simulations.evaluators.stud_showing import BringIn
from simulations.spec import percentage

__all__ = ["HouseRules", "read_forced", "read_house", "read_stakes"]


@dataclass(frozen=True)
class HouseRules:
    """The ``[house]`` options, as :class:`~simulations.engine.game.GameDefinition` takes them."""

    incomplete_raise: IncompleteRaiseRule
    pot_limit_blinds: PotLimitBlinds
    straddles: StraddleRule
    short_all_ins: ShortAllInRule
    odd_chips: OddChipRule
    rake: Rake | None
    jackpot_drop: JackpotDrop | None
    heads_up_cap: HeadsUpCap


def read_stakes(table: Table, limit: Limit, betting_rounds: int) -> Stakes:
    small = read_integer(table.require("small_bet"), table.path("small_bet"), 1, MAX_CHIPS)
    big = table.optional_integer("big_bet", 1)
    big_round = table.integer("big_bet_round", 2, 0, MAX_CARDS)
    if table.has("big_bet_round") and big is None:
        raise Invalid(table.path("big_bet_round"), "goes with a big_bet")
    if big is not None and big_round >= betting_rounds:
        raise Invalid(
            table.path("big_bet_round"),
            f"the game has {betting_rounds} betting rounds (0 to {betting_rounds - 1}): "
            f"round {big_round} never comes, so the big bet is never made",
        )
    if big is not None and big < small:
        raise Invalid(table.path("big_bet"), f"must be at least small_bet ({small}), got {big}")
    max_bets = table.optional_integer("max_bets", 1, 1000)
    lifted = table.boolean("cap_lifted_heads_up", True)
    if table.has("cap_lifted_heads_up") and max_bets is None:
        raise Invalid(
            table.path("cap_lifted_heads_up"), "only a capped game (max_bets) lifts a cap"
        )
    spreads: list[tuple[int, int]] = []
    if table.has("spreads"):
        if limit is not Limit.SPREAD:
            raise Invalid(table.path("spreads"), f"only spread limit has spreads, not {limit}")
        rows = read_list(table.require("spreads"), table.path("spreads"))
        for i, row in enumerate(rows):
            where = f"{table.path('spreads')}[{i}]"
            pair = read_list(row, where)
            if len(pair) != 2:
                raise Invalid(where, f"a spread is [least, most], got {len(pair)} values")
            low, high = (read_integer(v, f"{where}[{j}]", 1, MAX_CHIPS) for j, v in enumerate(pair))
            if low > high:
                raise Invalid(where, f"the least ({low}) is more than the most ({high})")
            spreads.append((low, high))
        if not spreads:
            raise Invalid(table.path("spreads"), "gives no spread")
    elif limit is Limit.SPREAD:
        raise Invalid(table.path("spreads"), "spread limit needs its spreads: [[least, most], ...]")
    unit = table.integer("unit", 1, 1)
    sizes: tuple[int, ...] = ()
    if table.has("sizes"):
        where = table.path("sizes")
        if limit is not Limit.FIXED:
            raise Invalid(where, f"only fixed limit takes round-by-round sizes, not {limit}")
        if big is not None:
            raise Invalid(where, "give the big bet or the sizes of every round, not both")
        rows = read_list(table.require("sizes"), where)
        sizes = tuple(read_integer(v, f"{where}[{i}]", 1, MAX_CHIPS) for i, v in enumerate(rows))
        if not sizes or sizes[0] != small:
            raise Invalid(where, f"the sizes start with the small bet ({small})")
        if len(sizes) > betting_rounds:
            raise Invalid(where, f"{len(sizes)} sizes for {betting_rounds} betting rounds")
    table.finish()
    return Stakes(small, big, big_round, tuple(spreads), max_bets, lifted, unit, sizes)


def read_forced(table: Table, house: Table) -> tuple[ForcedBets, BringIn | None]:
    """``[forced]``, with the one house option that orders a forced bet: the big-blind ante's
    (it is refused when the game has none, so it is read here where that is known); and
    which upcard pays the bring-in, where the acting order's usual card does not."""
    ante = table.integer("ante", 0)
    blinds: tuple[int, ...] = ()
    if table.has("blinds"):
        where = table.path("blinds")
        values = read_list(table.require("blinds"), where)
        blinds = tuple(read_integer(v, f"{where}[{i}]", 1, MAX_CHIPS) for i, v in enumerate(values))
        if not 1 <= len(blinds) <= 3:
            raise Invalid(where, f"one to three blinds, got {len(blinds)}")
        if any(blind > blinds[-1] for blind in blinds):
            # ForcedBets holds the rule; read here so that the file's field is named.
            raise Invalid(
                where, f"the big blind, the last, is the largest blind: got {list(blinds)}"
            )
    on_button = table.boolean("first_blind_on_button", False)
    if on_button and len(blinds) != 3:
        raise Invalid(
            table.path("first_blind_on_button"),
            "only a three-blind structure has one on the button",
        )
    bring_in = table.integer("bring_in", 0)
    bring_in_by = table.choice("bring_in_by", BringIn) if table.has("bring_in_by") else None
    if bring_in_by is not None and not bring_in:
        raise Invalid(table.path("bring_in_by"), "the game has no bring-in")
    if bring_in and blinds:
        raise Invalid(table.path("bring_in"), "a game opens with blinds or a bring-in, not both")
    big_blind_ante = table.integer("big_blind_ante", 0)
    if big_blind_ante and not blinds:
        raise Invalid(table.path("big_blind_ante"), "a big-blind ante needs a big blind to post it")
    order = house.choice("big_blind_ante_order", BigBlindAnteOrder, BigBlindAnteOrder.BLIND_FIRST)
    if house.has("big_blind_ante_order") and not big_blind_ante:
        raise Invalid(house.path("big_blind_ante_order"), "the game has no big-blind ante")
    table.finish()
    return ForcedBets(ante, blinds, on_button, bring_in, big_blind_ante, order), bring_in_by


def read_house(house: Table, limit: Limit, forced: ForcedBets, stakes: Stakes) -> HouseRules:
    """The rest of ``[house]`` (:func:`read_forced` reads ``big_blind_ante_order`` first);
    finishes the table.

    ``heads_up_cap``: when the cap's heads-up exception counts the players, as the raise
    that reaches the cap is made (the default) or as the round begins (Rules
    000_1a86611de8d3f5f7.txt, 'cap', gives both); only a capped game whose cap is lifted
    heads-up takes it."""
    incomplete = house.choice("incomplete_raise", IncompleteRaiseRule, IncompleteRaiseRule.FULL_BET)
    if limit in (Limit.POT, Limit.NO) and incomplete is not IncompleteRaiseRule.FULL_BET:
        raise Invalid("house.incomplete_raise", f"a {limit} game uses the full bet rule")
    pot_blinds = house.choice("pot_limit_blinds", PotLimitBlinds, PotLimitBlinds.AS_POSTED)
    if house.has("pot_limit_blinds") and limit is not Limit.POT:
        raise Invalid("house.pot_limit_blinds", f"counts blinds in pot limit, not {limit}")
    straddles = house.choice("straddles", StraddleRule, StraddleRule.NONE)
    if straddles is not StraddleRule.NONE and not forced.blinds:
        raise Invalid("house.straddles", "a straddle follows the blinds, and the game has none")
    short_all_ins = house.choice("short_all_ins", ShortAllInRule, ShortAllInRule.CUMULATIVE)
    odd_chips = house.choice("odd_chips", OddChipRule, OddChipRule.FIRST_LEFT_OF_BUTTON)
    heads_up_cap = house.choice("heads_up_cap", HeadsUpCap, HeadsUpCap.AT_CAPPING_RAISE)
    if house.has("heads_up_cap") and (stakes.max_bets is None or not stakes.cap_lifted_heads_up):
        raise Invalid(
            "house.heads_up_cap", "only a cap lifted heads-up (stakes.max_bets) counts players"
        )
    rake = _rake(house.raw("rake"), "house.rake") if house.has("rake") else None
    jackpot = None
    if house.has("jackpot_drop"):
        jackpot = _jackpot(house.raw("jackpot_drop"), "house.jackpot_drop")
    house.finish()
    return HouseRules(
        incomplete, pot_blinds, straddles, short_all_ins, odd_chips, rake, jackpot, heads_up_cap
    )


def _rake(value: object, path: str) -> Rake:
    table = Table(value, path)
    try:
        percent = percentage(table.require("percent"))
    except ValueError as err:
        raise Invalid(table.path("percent"), str(err)) from None
    caps: list[tuple[int, int]] = []
    if table.has("caps"):
        for i, row in enumerate(read_list(table.require("caps"), table.path("caps"))):
            cap = Table(row, f"{table.path('caps')}[{i}]")
            players = read_integer(cap.require("players"), cap.path("players"), 2, MAX_PLAYERS)
            caps.append((players, read_integer(cap.require("cap"), cap.path("cap"), 0, MAX_CHIPS)))
            cap.finish()
    no_flop_no_drop = table.boolean("no_flop_no_drop", True)
    unit = table.integer("unit", 1, 1)
    table.finish()
    return Rake(percent, tuple(caps), no_flop_no_drop, unit)


def _jackpot(value: object, path: str) -> JackpotDrop:
    table = Table(value, path)
    amount = read_integer(table.require("amount"), table.path("amount"), 1, MAX_CHIPS)
    threshold = read_integer(table.require("threshold"), table.path("threshold"), amount, MAX_CHIPS)
    table.finish()
    return JackpotDrop(amount, threshold)
