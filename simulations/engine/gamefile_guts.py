"""Guts game files: a game of guts written as TOML, read into a checked :class:`GutsGame`.

A file with ``kind = "guts"`` at the top is a guts game (:mod:`simulations.engine.guts_game`;
Rules 000_1a86611de8d3f5f7.txt, 'Guts').  :mod:`simulations.engine.gamefile` reads the keys
every game file has (``kind``, ``code``, ``name``, ``players``) and hands the rest to this
reader, which is as strict: an unknown key, a wrong type, a name outside its list, or a key
that means nothing under the file's other choices is an error naming the field.

The format
==========

Top level, besides ``kind``, ``code``, ``name`` and ``players``::

    cards = 3                            # 2 or 3 cards a hand (required)
    ranking = "three-of-a-kind-first"    # three cards only: three-of-a-kind-first (the
                                         # texts', default) | straight-flush-first
    straights_and_flushes = false        # two cards only: do they count (default false)

``[deal]``::

    form = "all-down"            # all-down (default) | last-card-up: the last card face up,
                                 # only to the players in
    last_card = "as-declared"    # last-card-up with declaring in turn: as-declared (default;
                                 # the players after him see it) | after-declarations

``[declare]``::

    form = "simultaneous"        # simultaneous (default) | in-turn (the dealer last)
    dealer = "none"              # in-turn only: none (default) | pair-to-win-alone | challenge
    dealer_without_pair = "redeal"   # pair-to-win-alone only: redeal (default) | matches

``[pot]``::

    ante = 1                     # each player's ante (default 1)
    rule = "match"               # match (default) | worst-hand-doubles | vicious
    worst_hand_pays = "twice-the-pot"   # worst-hand-doubles only: twice-the-pot | the-pot
    vicious_payers = "losers"    # vicious only: losers (default) | every-player-in
    cap = 50                     # the most the pot holds, in chips (default: no cap) ...
    cap_times_ante = 50          # ... or as a multiple of the ante (not both)
    set_aside = "next-game-ante" # with a cap: next-game-ante (default) | last-winner
    nobody_in = "redeal"         # redeal (default) | re-ante
    odd_chips = "first-left-of-button"   # | one-each-left-of-button

``players`` may not pass 26 two-card or 17 three-card hands (52 cards).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from simulations.engine.gamefile_read import MAX_CHIPS, Invalid, Table, read_integer
from simulations.engine.guts_game import (
    DealerRule,
    DealerWithoutPair,
    Declaring,
    GutsDeal,
    GutsGame,
    LastCard,
    NobodyIn,
    PotRule,
    SetAside,
    ThreeCardOrder,
    ViciousPayers,
    WorstHandPays,
)
from simulations.engine.pots import OddChipRule

__all__ = ["GUTS_TOP_KEYS", "GutsEntry", "read_guts"]

GUTS_TOP_KEYS = (
    "kind",
    "code",
    "name",
    "players",
    "cards",
    "ranking",
    "straights_and_flushes",
    "deal",
    "declare",
    "pot",
)

# The game's own checks name its fields; the file's names for them where they differ.
_FILE_FIELDS = {
    "order": "ranking",
    "dealer": "declare.dealer",
    "ante": "pot.ante",
    "cap": "pot.cap",
    "odd_chips": "pot.odd_chips",
}
_GAME_FIELD = re.compile(r"([a-z_]+): (.+)", re.S)


@dataclass(frozen=True)
class GutsEntry:
    """One guts game read from a file: its stable code, its name and its rules."""

    code: str
    name: str
    guts: GutsGame
    source: str = "<game>"


def read_guts(top: Table, code: str, name: str, players: tuple[int, int], source: str) -> GutsEntry:
    """The rest of a guts file, after its kind, code, name and players."""
    cards = read_integer(top.require("cards"), "cards", 2, 3)
    _only(top, "ranking", cards == 3, "cards = 3")
    order = top.choice("ranking", ThreeCardOrder, ThreeCardOrder.THREE_OF_A_KIND_FIRST)
    _only(top, "straights_and_flushes", cards == 2, "cards = 2")
    straights_and_flushes = top.boolean("straights_and_flushes", False)
    declare = top.table("declare")
    declaring = declare.choice("form", Declaring, Declaring.SIMULTANEOUS)
    deal = top.table("deal")
    form = deal.choice("form", GutsDeal, GutsDeal.ALL_DOWN)
    last_card_up_in_turn = form is GutsDeal.LAST_CARD_UP and declaring is Declaring.IN_TURN
    _only(
        deal,
        "last_card",
        last_card_up_in_turn,
        "deal.form = 'last-card-up' and declare.form = 'in-turn'",
    )
    last_card = deal.choice("last_card", LastCard, LastCard.AS_DECLARED)
    _only(declare, "dealer", declaring is Declaring.IN_TURN, "declare.form = 'in-turn'")
    dealer = declare.choice("dealer", DealerRule, DealerRule.NONE)
    pair_rule = dealer is DealerRule.PAIR_TO_WIN_ALONE
    _only(declare, "dealer_without_pair", pair_rule, "declare.dealer = 'pair-to-win-alone'")
    without_pair = declare.choice(
        "dealer_without_pair", DealerWithoutPair, DealerWithoutPair.REDEAL
    )
    pot = top.table("pot")
    ante = pot.integer("ante", 1, 1)
    rule = pot.choice("rule", PotRule, PotRule.MATCH)
    worst = rule is PotRule.WORST_HAND_DOUBLES
    _only(pot, "worst_hand_pays", worst, "pot.rule = 'worst-hand-doubles'")
    worst_pays = pot.choice("worst_hand_pays", WorstHandPays, WorstHandPays.TWICE_THE_POT)
    _only(pot, "vicious_payers", rule is PotRule.VICIOUS, "pot.rule = 'vicious'")
    vicious = pot.choice("vicious_payers", ViciousPayers, ViciousPayers.LOSERS)
    cap = _cap(pot, ante)
    _only(pot, "set_aside", cap is not None, "a cap (pot.cap or pot.cap_times_ante)")
    set_aside = pot.choice("set_aside", SetAside, SetAside.NEXT_GAME_ANTE)
    nobody_in = pot.choice("nobody_in", NobodyIn, NobodyIn.REDEAL)
    odd_chips = pot.choice("odd_chips", OddChipRule, OddChipRule.FIRST_LEFT_OF_BUTTON)
    if odd_chips is OddChipRule.EXACT:
        raise Invalid(
            "pot.odd_chips",
            "guts pays whole chips: 'first-left-of-button' or 'one-each-left-of-button'",
        )
    for table in (deal, declare, pot, top):
        table.finish()
    try:
        guts = GutsGame(
            name=name,
            cards=cards,
            order=order,
            straights_and_flushes=straights_and_flushes,
            deal=form,
            declaring=declaring,
            last_card=last_card,
            dealer=dealer,
            dealer_without_pair=without_pair,
            pot_rule=rule,
            worst_hand_pays=worst_pays,
            vicious_payers=vicious,
            ante=ante,
            cap=cap,
            set_aside=set_aside,
            nobody_in=nobody_in,
            odd_chips=odd_chips,
            min_players=players[0],
            max_players=players[1],
        )
    except ValueError as err:  # the game's own checks
        match = _GAME_FIELD.fullmatch(str(err))
        if match is None:
            raise Invalid("", str(err)) from None
        field = match.group(1)
        raise Invalid(_FILE_FIELDS.get(field, field), match.group(2)) from None
    return GutsEntry(code, name, guts, source)


def _only(table: Table, key: str, allowed: bool, condition: str) -> None:
    """Refuse ``key`` where the file's other choices give it no meaning."""
    if table.has(key) and not allowed:
        raise Invalid(table.path(key), f"means something only with {condition}")


def _cap(pot: Table, ante: int) -> int | None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "cap them at 50x or 100x the ante" — in chips
    (``cap``) or in antes (``cap_times_ante``: 50 with a $1 ante is the texts' $50 cap)."""
    if pot.has("cap") and pot.has("cap_times_ante"):
        raise Invalid("pot.cap_times_ante", "give the cap once: pot.cap or pot.cap_times_ante")
    if pot.has("cap_times_ante"):
        times = pot.integer("cap_times_ante", 0, 1, MAX_CHIPS)
        return times * ante
    pot.raw("cap_times_ante")
    cap = pot.optional_integer("cap", 1, MAX_CHIPS)
    if cap is not None and cap < ante:
        raise Invalid("pot.cap", f"{cap} is less than one ante ({ante})")
    return cap
