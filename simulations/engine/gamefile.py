"""Game files: a whole poker game written as TOML, read into a checked :class:`GameDefinition`.

A game is data (:mod:`simulations.engine.game`), so a new game — a house variant, a game of
the rule texts the registry lacks — needs a file, not code.  The reader is strict: a key it
does not know, a value of the wrong type, a name outside its list or a combination the
engine cannot play is a :class:`GameFileError` naming the file, the field
(``showdown.halves[0].ranking``) and the reason, so that a typo never turns into a silent
default.

The format
==========

Top level (every key below is required unless a default is given)::

    code = "NT"                       # the stable code: letters, digits and / . _ + -
    name = "No-limit Texas hold'em"   # what listings and logs print
    players = [2, 10]                 # fewest and most players dealt in
    structure = "no-limit"            # fixed-limit | spread-limit | pot-limit | no-limit
    acting_order = "position"         # position (default) | high-showing | low-showing
    phases = [ ... ]                  # the hand, in order (below)
    [stakes] ...   [forced] ...   [deck] ...   [showdown] ...   [house] ...

``acting_order``: ``position`` opens each round left of the blinds, then left of the
button; ``high-showing`` is seven-card stud's (the low card brings it in, the best hand
showing opens later rounds), ``low-showing`` razz's (high card in, lowest hand showing).

``[stakes]`` — the sizes the structure works from (:class:`~simulations.engine.limits.Stakes`)::

    small_bet = 2              # required: fixed limit's early bet, elsewhere the minimum bet
    big_bet = 4                # fixed limit's later bet (default: none)
    big_bet_round = 2          # the betting round (0 = first) the big bet starts; default 2
    max_bets = 4               # a bet and three raises; default: no cap
    cap_lifted_heads_up = true # default true; only with max_bets
    spreads = [[1, 5], [1, 10]]  # spread limit only, and required there: (min, max) per
                                 # round, the last repeating
    unit = 1                   # the betting unit; default 1

``[forced]`` — what is posted before the cards (all default to none)::

    ante = 0
    blinds = [1, 2]            # one to three blinds, the last the amount to call
    first_blind_on_button = false   # three blinds only
    bring_in = 0               # stud: paid by the poorest upcard (needs a showing order)
    big_blind_ante = 0         # one ante for the table, posted by the big blind

``[deck]`` — the pack and what happens when it runs out::

    ranks = "23456789TJQKA"    # default; rank symbols lowest first, or runs: "7-A", "2-7J-A"
    jokers = 0                 # 0 to 4
    exhaustion = "none"        # none | stud-texts | stud-wsop | draw-texts |
                               # draw-earlier-rounds | draw-all-discards
    deals_bottom_card = false  # draw games only: may the stub's last card be a replacement
    five_consecutive = false   # draw games only: may one player draw five in a row

With ``exhaustion = "none"`` the deck must hold every card the hand can deal to the most
players with every draw replacing its most; otherwise the rule says what the dealer does.

``[showdown]`` — which cards play and how the pot is split::

    use = "any"                # any five of the hole and board cards
    use = { exactly = 2 }      # exactly 2 hole cards with 3 of the board (Omaha, Manila)
    use = { at_most = 2 }      # no more than 2 hole cards (Tahoe)
    use = "whole"              # the hand plays whole as dealt (badugi's four cards)
    halves = [ { ranking = "high" } ]   # one half, or a high half then a low half
    boards = [[0, 1, 2, 6, 8], [3, 4, 5, 7, 9]]   # optional: several boards (positions in
                                                  # the order the board is dealt, from 0);
                                                  # a hand uses one of them

How many hole and board cards there are is not written: the phases say it.  Each half::

    ranking = "high"           # high | ace-to-five low | ace-to-six low |
                               # deuce-to-seven low | badugi
    qualifier = "eight-or-better"   # a split's ace-to-five low half: eight- or nine-or-better
    board = 0                  # with boards: the half plays this board only (double board:
                               # two high halves, board 0 and board 1)

A high half over a stripped deck, with jokers or with wild cards ranks by a ranking system
described in the half (:class:`~simulations.evaluators.systems.RankingSystem`; the ranks
come from the deck)::

    ace_low = true             # may the ace play below the lowest rank (default true)
    flush_beats_full_house = false   # (a stripped deck's file must give both of these)
    jokers = "wild"            # wild | bug; required when the deck has jokers
    wild_ranks = "2"           # ranks wild in every hand, as deck.ranks writes them
    wild_cards = "Js Jh"       # single wild cards
    double_ace_flush = false
    name = "Manila"            # the system's name in listings; default: the game's name

In a low half a joker is always the bug (the lowest card the hand lacks), so a low half
takes none of these keys, and jokers play only in ace-to-five lows.

``phases`` — a list; each item is the word ``"bet"`` (a betting round; ``{ bet = true }``
in a ``[[phases]]`` table) or a table naming its kind and street::

    { bet = true, opens_with = "J", first = "first-round-opener" }
                                                # a round only a pair of jacks or better
                                                # may open (jackpots); first: game (the
                                                # acting order, default) | first-round-opener

    { deal = "flop", board = 3, burn = true }   # down, up (to each live player), board;
                                                # burn defaults to false
    { draw = "first draw", most = 5 }           # most (default 5), most_keeping_ace,
                                                # burn (default true)
    { discard = "discard", count = 1 }          # each player throws away count cards
    { expose = "roll", count = 1 }              # each player turns count down cards up

``[house]`` — house options, each with its default::

    incomplete_raise = "full-bet"     # full-bet | half-bet (fixed and spread limit only)
    short_all_ins = "cumulative"      # cumulative | each-alone
    odd_chips = "first-left-of-button"  # first-left-of-button | one-each-left-of-button |
                                        # exact
    pot_limit_blinds = "as-posted"    # as-posted | small-blind-as-big (pot limit only)
    straddles = "none"                # none | live | mississippi (needs blinds)
    big_blind_ante_order = "blind-first"  # blind-first | ante-first (needs a big-blind ante)
    jackpot_drop = { amount = 1, threshold = 20 }   # default: none

    [house.rake]                      # default: no rake
    percent = 5                       # of each pot, rounded down to whole units
    caps = [{ players = 2, cap = 3 }] # the cap for that many players dealt in, and more
    no_flop_no_drop = true
    unit = 1

Then the whole game is checked as the engine checks any definition (the phases leave the
hands the showdown expects, a showing order has upcards to show, ...) and the deck against
the most players (:func:`~simulations.engine.deck_order.check_deal`).

The registry of built-in games (:mod:`simulations.engine.variants`) is one such file per
game under ``simulations/games``, each with a comment saying which rule text and phrase it
follows and, where the texts are silent, which card-room practice it takes.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

from simulations.cards import FIRST_JOKER, MAX_JOKERS, RANK_SYMBOLS, Card, Rank, parse_cards
from simulations.engine.deck_order import check_deal
from simulations.engine.game import (
    ActingOrder,
    BigBlindAnteOrder,
    DeckSpec,
    ExhaustionRule,
    ForcedBets,
    GameDefinition,
    JackpotDrop,
    Rake,
    StraddleRule,
)
from simulations.engine.limits import (
    IncompleteRaiseRule,
    Limit,
    PotLimitBlinds,
    ShortAllInRule,
    Stakes,
)
from simulations.engine.phases import (
    Bet,
    Deal,
    Discard,
    Draw,
    Expose,
    FirstToAct,
    Phase,
    PhaseKind,
)
from simulations.engine.pots import OddChipRule
from simulations.engine.showdown import Half, HandRanking, Showdown
from simulations.evaluators.lowball import Qualifier
from simulations.evaluators.selection import (
    FIVE_CARD_OMAHA,
    FIVE_CARDS,
    MANILA,
    OMAHA,
    SEVEN_CARD_STUD,
    SUPER_HOLDEM,
    TAHOE,
    TEXAS_HOLDEM,
    Selection,
    any_five,
    at_most,
    exactly,
)
from simulations.evaluators.stripped import FLUSH_OVER_FULL_HOUSE
from simulations.evaluators.systems import STANDARD_ORDER, JokerRole, RankingSystem
from simulations.spec import echo

__all__ = ["GameEntry", "GameFileError", "load_game_file", "parse_game", "parse_game_text"]

# A game file is a page of settings; anything much larger is not one.
MAX_GAME_FILE_BYTES = 256 * 1024
MAX_CHIPS = 10**12  # any stake or forced bet above this is a typo
MAX_CARDS = 64  # a player's cards travel as int8 column indices
MAX_PLAYERS = 64
_CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9/._+-]{0,15}")
_BOM = "\ufeff"

E = TypeVar("E", bound=Enum)


class GameFileError(ValueError):
    """A game file that cannot be read or does not describe a playable game.  The message
    names the file, the field and the reason: ``games/nt.toml: deck.ranks: ...``."""

    def __init__(self, source: str, field: str, problem: str) -> None:
        super().__init__(f"{source}: {field}: {problem}" if field else f"{source}: {problem}")
        self.source = source
        self.field = field
        self.problem = problem


class _Invalid(ValueError):
    """A problem found while reading, before the file's name is attached."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


@dataclass(frozen=True)
class GameEntry:
    """One game read from a file: its stable code, its name and its definition."""

    code: str
    name: str
    game: GameDefinition
    source: str = "<game>"


# --- reading tables -------------------------------------------------------------------------


def _type_name(value: object) -> str:
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "a table",
    }.get(type(value), f"a {type(value).__name__}")


class _Table:
    """One table of the file; remembers which keys were read so that :meth:`finish` can
    refuse the rest (a misspelt key is an error, not an ignored line)."""

    def __init__(self, value: object, path: str) -> None:
        if not isinstance(value, Mapping):
            raise _Invalid(path or "game", f"must be a table, not {_type_name(value)}")
        self.items: Mapping[str, Any] = value
        self.path = path
        self.read: set[str] = set()

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def has(self, key: str) -> bool:
        return key in self.items

    def raw(self, key: str) -> Any:
        self.read.add(key)
        return self.items.get(key)

    def require(self, key: str) -> Any:
        self.read.add(key)
        if key not in self.items:
            raise _Invalid(self.at(key), "is required")
        return self.items[key]

    def integer(self, key: str, default: int, low: int = 0, high: int = MAX_CHIPS) -> int:
        if key not in self.items:
            self.read.add(key)
            return default
        return _integer(self.require(key), self.at(key), low, high)

    def optional_integer(self, key: str, low: int = 0, high: int = MAX_CHIPS) -> int | None:
        if key not in self.items:
            self.read.add(key)
            return None
        return _integer(self.require(key), self.at(key), low, high)

    def boolean(self, key: str, default: bool) -> bool:
        if key not in self.items:
            self.read.add(key)
            return default
        value = self.require(key)
        if not isinstance(value, bool):
            raise _Invalid(self.at(key), f"must be true or false, not {_type_name(value)}")
        return value

    def string(self, key: str, default: str | None = None) -> str:
        if key not in self.items and default is not None:
            self.read.add(key)
            return default
        return _string(self.require(key), self.at(key))

    def choice(self, key: str, kind: type[E], default: E | None = None) -> E:
        """A value of the enum ``kind``, written as the enum's value."""
        if key not in self.items and default is not None:
            self.read.add(key)
            return default
        return _choice(self.require(key), self.at(key), kind)

    def table(self, key: str) -> _Table:
        value = self.raw(key)
        return _Table({} if value is None else value, self.at(key))

    def finish(self) -> None:
        for key in self.items:
            if key not in self.read:
                known = ", ".join(sorted(self.read))
                shown = key if isinstance(key, str) and len(key) <= 40 else echo(key)
                raise _Invalid(self.at(shown), f"is not a known setting (known: {known})")


def _integer(value: object, path: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Invalid(path, f"must be an integer, not {_type_name(value)}")
    if not low <= value <= high:
        raise _Invalid(path, f"must be {low:,} to {high:,}, got {echo(value)}")
    return value


def _string(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise _Invalid(path, f"must be a string, not {_type_name(value)}")
    return value


def _choice(value: object, path: str, kind: type[E]) -> E:
    allowed = [str(member.value) for member in kind]
    if isinstance(value, str) and value in allowed:
        return kind(value)
    shown = echo(value) if isinstance(value, str) else _type_name(value)
    raise _Invalid(path, f"must be one of {', '.join(map(repr, allowed))}; got {shown}")


def _list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise _Invalid(path, f"must be a list, not {_type_name(value)}")
    return value


# --- the parts of a game ----------------------------------------------------------------------


def _ranks(text: object, path: str) -> tuple[Rank, ...]:
    """Rank symbols lowest first, with runs written low-high: "7-A", "2-7J-A"."""
    spec = _string(text, path)
    allowed = " ".join(RANK_SYMBOLS)
    ranks: list[Rank] = []
    position = 0
    while position < len(spec):
        symbol = spec[position]
        if symbol not in RANK_SYMBOLS:
            raise _Invalid(
                path,
                f"{echo(symbol)} (at {position + 1} in {echo(spec)}) is not a rank; the ranks "
                f"are {allowed}, lowest first, and a run is written low-high as in '7-A'",
            )
        low = Rank(RANK_SYMBOLS.index(symbol))
        high = low
        if spec[position + 1 : position + 2] == "-":
            end = spec[position + 2 : position + 3]
            if end not in RANK_SYMBOLS or not end:
                raise _Invalid(
                    path, f"the run {echo(spec[position : position + 3])} has no end rank"
                )
            high = Rank(RANK_SYMBOLS.index(end))
            if high <= low:
                raise _Invalid(path, f"the run {symbol}-{end} must go from low to high")
            position += 2
        for rank in range(low, high + 1):
            if ranks and rank <= ranks[-1]:
                raise _Invalid(
                    path,
                    f"{Rank(rank).symbol} is out of order or repeated: lowest first, once each",
                )
            ranks.append(Rank(rank))
        position += 1
    if not ranks:
        raise _Invalid(path, "names no ranks")
    return tuple(ranks)


def _players(value: object) -> tuple[int, int]:
    pair = _list(value, "players")
    if len(pair) != 2:
        raise _Invalid("players", f"must be [fewest, most], got {len(pair)} values")
    low = _integer(pair[0], "players[0]", 2, MAX_PLAYERS)
    high = _integer(pair[1], "players[1]", 2, MAX_PLAYERS)
    if low > high:
        raise _Invalid("players", f"the fewest ({low}) is more than the most ({high})")
    return low, high


def _phase(item: object, path: str) -> Phase:
    if item == "bet":
        return Bet()
    if isinstance(item, str) or not isinstance(item, Mapping):
        raise _Invalid(
            path,
            "a phase is the word 'bet' or a table such as { deal = \"flop\", board = 3 }; "
            f"got {echo(item) if isinstance(item, str) else _type_name(item)}",
        )
    table = _Table(item, path)
    kinds = [kind for kind in PhaseKind if kind.value in item]
    if len(kinds) != 1:
        names = ", ".join(k.value for k in PhaseKind)
        given = " and ".join(k.value for k in kinds)
        problem = f"names both {given}" if kinds else "does not say its kind"
        raise _Invalid(path, f"{problem}: a phase is one of {names}")
    kind = kinds[0]
    phase: Phase
    if kind is PhaseKind.BET:
        if table.require("bet") is not True:
            raise _Invalid(table.at("bet"), "a betting round is written bet = true (or 'bet')")
        opens_with = None
        if table.has("opens_with"):
            ranks = _ranks(table.require("opens_with"), table.at("opens_with"))
            if len(ranks) != 1:
                raise _Invalid(table.at("opens_with"), "names one rank: the lowest pair that opens")
            opens_with = ranks[0]
        phase = Bet(opens_with, table.choice("first", FirstToAct, FirstToAct.GAME))
    else:
        street = table.string(kind.value)
        if not street.strip() or len(street) > 40:
            raise _Invalid(table.at(kind.value), "the street's name is 1 to 40 characters")
        if kind is PhaseKind.DEAL:
            down, up, board = (table.integer(k, 0, 0, MAX_CARDS) for k in ("down", "up", "board"))
            if not (down or up or board):
                raise _Invalid(path, "a deal deals at least one card: give down, up or board")
            phase = Deal(street, down, up, board, burn=table.boolean("burn", False))
        elif kind is PhaseKind.DRAW:
            most = table.integer("most", 5, 0, MAX_CARDS)
            keeping_ace = table.optional_integer("most_keeping_ace", most + 1, MAX_CARDS)
            phase = Draw(street, most, keeping_ace, burn=table.boolean("burn", True))
        elif kind is PhaseKind.DISCARD:
            phase = Discard(street, table.integer("count", 1, 1, MAX_CARDS))
        else:
            phase = Expose(street, table.integer("count", 1, 1, MAX_CARDS))
    table.finish()
    return phase


def _phases(value: object) -> tuple[Phase, ...]:
    items = _list(value, "phases")
    if not items:
        raise _Invalid("phases", "a game has at least a deal and a betting round")
    phases = tuple(_phase(item, f"phases[{i}]") for i, item in enumerate(items))
    if not isinstance(phases[0], Deal):
        raise _Invalid("phases[0]", "a hand begins by dealing cards")
    if not any(isinstance(p, Bet) for p in phases):
        raise _Invalid("phases", "a game has at least one betting round ('bet')")
    return phases


def _held(phases: Sequence[Phase]) -> tuple[int, int]:
    """(cards each player holds at the showdown, cards on the board)."""
    held = board = 0
    for phase in phases:
        if isinstance(phase, Deal):
            held += phase.per_player
            board += phase.board
        elif isinstance(phase, Discard):
            held -= phase.count
    return held, board


def _stakes(table: _Table, limit: Limit, betting_rounds: int) -> Stakes:
    small = _integer(table.require("small_bet"), table.at("small_bet"), 1, MAX_CHIPS)
    big = table.optional_integer("big_bet", 1)
    big_round = table.integer("big_bet_round", 2, 0, MAX_CARDS)
    if table.has("big_bet_round") and big is None:
        raise _Invalid(table.at("big_bet_round"), "goes with a big_bet")
    if big is not None and big_round >= betting_rounds:
        raise _Invalid(
            table.at("big_bet_round"),
            f"the game has {betting_rounds} betting rounds (0 to {betting_rounds - 1}): "
            f"round {big_round} never comes, so the big bet is never made",
        )
    if big is not None and big < small:
        raise _Invalid(table.at("big_bet"), f"must be at least small_bet ({small}), got {big}")
    max_bets = table.optional_integer("max_bets", 1, 1000)
    lifted = table.boolean("cap_lifted_heads_up", True)
    if table.has("cap_lifted_heads_up") and max_bets is None:
        raise _Invalid(table.at("cap_lifted_heads_up"), "only a capped game (max_bets) lifts a cap")
    spreads: list[tuple[int, int]] = []
    if table.has("spreads"):
        if limit is not Limit.SPREAD:
            raise _Invalid(table.at("spreads"), f"only spread limit has spreads, not {limit}")
        rows = _list(table.require("spreads"), table.at("spreads"))
        for i, row in enumerate(rows):
            where = f"{table.at('spreads')}[{i}]"
            pair = _list(row, where)
            if len(pair) != 2:
                raise _Invalid(where, f"a spread is [least, most], got {len(pair)} values")
            low, high = (_integer(v, f"{where}[{j}]", 1, MAX_CHIPS) for j, v in enumerate(pair))
            if low > high:
                raise _Invalid(where, f"the least ({low}) is more than the most ({high})")
            spreads.append((low, high))
        if not spreads:
            raise _Invalid(table.at("spreads"), "gives no spread")
    elif limit is Limit.SPREAD:
        raise _Invalid(table.at("spreads"), "spread limit needs its spreads: [[least, most], ...]")
    unit = table.integer("unit", 1, 1)
    table.finish()
    return Stakes(small, big, big_round, tuple(spreads), max_bets, lifted, unit)


def _forced(table: _Table, house: _Table) -> ForcedBets:
    ante = table.integer("ante", 0)
    blinds: tuple[int, ...] = ()
    if table.has("blinds"):
        where = table.at("blinds")
        values = _list(table.require("blinds"), where)
        blinds = tuple(_integer(v, f"{where}[{i}]", 1, MAX_CHIPS) for i, v in enumerate(values))
        if not 1 <= len(blinds) <= 3:
            raise _Invalid(where, f"one to three blinds, got {len(blinds)}")
    on_button = table.boolean("first_blind_on_button", False)
    if on_button and len(blinds) != 3:
        raise _Invalid(
            table.at("first_blind_on_button"), "only a three-blind structure has one on the button"
        )
    bring_in = table.integer("bring_in", 0)
    if bring_in and blinds:
        raise _Invalid(table.at("bring_in"), "a game opens with blinds or a bring-in, not both")
    big_blind_ante = table.integer("big_blind_ante", 0)
    if big_blind_ante and not blinds:
        raise _Invalid(table.at("big_blind_ante"), "a big-blind ante needs a big blind to post it")
    order = house.choice("big_blind_ante_order", BigBlindAnteOrder, BigBlindAnteOrder.BLIND_FIRST)
    if house.has("big_blind_ante_order") and not big_blind_ante:
        raise _Invalid(house.at("big_blind_ante_order"), "the game has no big-blind ante")
    table.finish()
    return ForcedBets(ante, blinds, on_button, bring_in, big_blind_ante, order)


def _deck(table: _Table, draws: bool) -> tuple[DeckSpec, ExhaustionRule, bool, bool]:
    ranks = _ranks(table.raw("ranks"), table.at("ranks")) if table.has("ranks") else tuple(Rank)
    jokers = table.integer("jokers", 0, 0, MAX_JOKERS)
    exhaustion = table.choice("exhaustion", ExhaustionRule, ExhaustionRule.NONE)
    rules: list[bool] = []
    for key in ("deals_bottom_card", "five_consecutive"):
        if table.has(key) and not draws:
            raise _Invalid(table.at(key), "is a rule of the draw, and the game has no draw")
        rules.append(table.boolean(key, False))
    table.finish()
    return DeckSpec(ranks, jokers), exhaustion, rules[0], rules[1]


_QUALIFIERS = {
    "eight-or-better": Qualifier.EIGHT_OR_BETTER,
    "nine-or-better": Qualifier.NINE_OR_BETTER,
}
_SYSTEM_KEYS = (
    "ace_low",
    "flush_beats_full_house",
    "jokers",
    "wild_ranks",
    "wild_cards",
    "double_ace_flush",
    "name",
)


def _half(table: _Table, deck: DeckSpec, game_name: str) -> Half:
    ranking = table.choice("ranking", HandRanking)
    board = table.optional_integer("board", 0, 63)
    qualifier = None
    if table.has("qualifier"):
        text = table.string("qualifier")
        if text not in _QUALIFIERS:
            allowed = ", ".join(map(repr, _QUALIFIERS))
            raise _Invalid(table.at("qualifier"), f"must be one of {allowed}; got {echo(text)}")
        if ranking is not HandRanking.ACE_TO_FIVE_LOW:
            raise _Invalid(table.at("qualifier"), f"qualifies an ace-to-five low, not {ranking}")
        qualifier = _QUALIFIERS[text]
    if ranking is not HandRanking.HIGH:
        for key in _SYSTEM_KEYS:
            if table.has(key):
                raise _Invalid(
                    table.at(key),
                    f"belongs to a high half's ranking system; a {ranking} half ranks by its "
                    "name alone (a joker there is the bug)",
                )
        if deck.jokers and ranking is not HandRanking.ACE_TO_FIVE_LOW:
            raise _Invalid(
                table.at("ranking"),
                f"the deck holds jokers, and a joker plays as the bug only in an ace-to-five "
                f"low, not in {ranking}",
            )
        table.finish()
        return Half(ranking, qualifier, board=board)
    system = _system(table, deck, game_name)
    table.finish()
    return Half(ranking, qualifier, system, board)


def _system(table: _Table, deck: DeckSpec, game_name: str) -> RankingSystem | None:
    """The high half's ranking system, or None where the standard high ranking serves.

    A stripped deck raises two questions the texts answer game by game (Manila: "an ace may
    not be played low", "a flush beats a full house"), so its file must answer both."""
    if deck.ranks != tuple(Rank):
        label = deck.label
        if not table.has("ace_low"):
            raise _Invalid(
                table.at("ace_low"),
                f"the deck is stripped ({label}): say whether the ace may play below "
                f"{deck.ranks[0].symbol} in a straight (true or false)",
            )
        if not table.has("flush_beats_full_house"):
            raise _Invalid(
                table.at("flush_beats_full_house"),
                f"the deck is stripped ({label}): say whether a flush beats a full house",
            )
    ace_low = table.boolean("ace_low", True)
    flush_first = table.boolean("flush_beats_full_house", False)
    role = JokerRole.NONE
    if table.has("jokers"):
        if not deck.jokers:
            raise _Invalid(table.at("jokers"), "the deck holds no jokers (deck.jokers)")
        named = _choice(table.require("jokers"), table.at("jokers"), _JokerName)
        role = JokerRole.WILD if named is _JokerName.WILD else JokerRole.BUG
    elif deck.jokers:
        raise _Invalid(
            table.at("jokers"),
            f"the deck holds {deck.jokers} joker(s): say what a joker is, 'wild' or 'bug'",
        )
    wild_ranks: frozenset[Rank] = frozenset()
    if table.has("wild_ranks"):
        wild_ranks = frozenset(_ranks(table.require("wild_ranks"), table.at("wild_ranks")))
        missing = sorted(wild_ranks - set(deck.ranks))
        if missing:
            raise _Invalid(table.at("wild_ranks"), f"{missing[0].symbol} is not a rank of the deck")
    wild_cards: frozenset[Card] = frozenset()
    if table.has("wild_cards"):
        where = table.at("wild_cards")
        text = _string(table.require("wild_cards"), where)
        try:
            wild_cards = frozenset(parse_cards(text))
        except ValueError as err:
            raise _Invalid(where, str(err)) from None
        if any(card >= FIRST_JOKER or Rank(card >> 2) not in deck.ranks for card in wild_cards):
            raise _Invalid(where, "names a card the deck does not hold (jokers go in 'jokers')")
    double_ace = table.boolean("double_ace_flush", False)
    name = table.string("name", game_name)
    needed = (
        not deck.standard or not ace_low or flush_first or wild_ranks or wild_cards or double_ace
    )
    if not needed:
        if table.has("name"):
            raise _Invalid(table.at("name"), "names a ranking system, and this half has none")
        return None
    try:
        return RankingSystem(
            name=name,
            ranks=deck.ranks,
            ace_low=ace_low,
            order=FLUSH_OVER_FULL_HOUSE if flush_first else STANDARD_ORDER,
            jokers=role,
            joker_count=deck.jokers,
            wild_ranks=wild_ranks,
            wild_cards=wild_cards,
            double_ace_flush=double_ace,
        )
    except ValueError as err:
        raise _Invalid(table.path, str(err)) from None


class _JokerName(Enum):
    WILD = "wild"
    BUG = "bug"


# Selections of the engine's presets' shapes are those presets (names included), so that a
# file's hold'em or Omaha is the very definition the engine's factories build.
_PRESETS = (TEXAS_HOLDEM, OMAHA, SEVEN_CARD_STUD, FIVE_CARDS, FIVE_CARD_OMAHA, SUPER_HOLDEM,
            MANILA, TAHOE)  # fmt: skip


def _boards(value: object, board: int) -> tuple[tuple[int, ...], ...]:
    """``showdown.boards``: the sets of board positions (in deal order, from 0) a hand may
    use one of — double-board hold'em's two boards."""
    path = "showdown.boards"
    if value is None:
        return ()
    rows = _list(value, path)
    if len(rows) < 2:
        raise _Invalid(path, "list two or more boards (leave it out for one board)")
    boards = []
    for i, row in enumerate(rows):
        positions = tuple(
            _integer(p, f"{path}[{i}][{j}]", 0, max(board - 1, 0))
            for j, p in enumerate(_list(row, f"{path}[{i}]"))
        )
        if not positions or len(set(positions)) != len(positions):
            raise _Invalid(f"{path}[{i}]", "a board is a non-empty set of distinct positions")
        boards.append(positions)
    return tuple(boards)


def _selection(
    value: object, held: int, board: int, boards: tuple[tuple[int, ...], ...] = ()
) -> Selection | None:
    path = "showdown.use"
    cards = f"the phases leave each player {held} cards and {board} on the board"
    if value == "whole":
        if boards:
            raise _Invalid("showdown.boards", "a hand played whole uses no board")
        return None
    if value == "any":
        if held + board < 5:
            raise _Invalid(path, f"a hand is five cards, but {cards}")
        where = f"{held} hole and {board} board cards" if board else f"{held} cards"
        built = any_five(f"any five of {where}", held, board, boards)
    elif (
        isinstance(value, Mapping)
        and len(value) == 1
        and next(iter(value))
        in (
            "exactly",
            "at_most",
        )
    ):
        key = next(iter(value))
        used = _integer(value[key], f"{path}.{key}", 0, 5)
        if used > held:
            raise _Invalid(
                f"{path}.{key}", f"{key.replace('_', ' ')} {used} hole cards, but {cards}"
            )
        if 5 - used > board and key == "exactly":
            raise _Invalid(
                f"{path}.{key}",
                f"exactly {used} hole cards need {5 - used} on the board, but {cards}",
            )
        try:
            if key == "exactly":
                built = exactly(f"exactly {used} of {held} hole cards", used, held, board, boards)
            else:
                built = at_most(f"at most {used} of {held} hole cards", used, held, board, boards)
        except ValueError as err:
            raise _Invalid(f"{path}.{key}", f"{err}; {cards}") from None
    else:
        shown = echo(value) if isinstance(value, str) else _type_name(value)
        raise _Invalid(
            path,
            "must be 'any', 'whole', { exactly = N } or { at_most = N }; got " + shown,
        )
    for preset in _PRESETS:
        same = (preset.hole_cards, preset.board_cards, preset.hole_counts, preset.boards)
        if same == (built.hole_cards, built.board_cards, built.hole_counts, built.boards):
            return preset
    return built


def _showdown(table: _Table, deck: DeckSpec, game_name: str) -> tuple[Showdown, object, object]:
    use = table.require("use")
    boards = table.raw("boards") if table.has("boards") else None
    where = table.at("halves")
    rows = _list(table.require("halves"), where)
    if len(rows) not in (1, 2):
        raise _Invalid(where, f"one half (the whole pot) or two (high, then low), got {len(rows)}")
    halves = tuple(
        _half(_Table(row, f"{where}[{i}]"), deck, game_name) for i, row in enumerate(rows)
    )
    count = len(_list(boards, "showdown.boards")) if boards is not None else 0
    for i, half in enumerate(halves):
        if half.board is not None and not half.board < count:
            raise _Invalid(
                f"{where}[{i}].board", f"{half.board} is not one of the {count} boards listed"
            )
    by_board = len(halves) == 2 and None not in (halves[0].board, halves[1].board)
    if by_board and halves[0].board == halves[1].board:
        raise _Invalid(where, "the two halves of a split by board play different boards")
    if len(halves) == 2 and not by_board and (halves[0].is_low or not halves[1].is_low):
        raise _Invalid(where, "a split pot is a high half, then a low half (or one per board)")
    if len(halves) == 1 and halves[0].qualifier is not None:
        raise _Invalid(f"{where}[0].qualifier", "a qualifier belongs to the low half of a split")
    table.finish()
    return Showdown(halves), use, boards


def _rake(value: object, path: str) -> Rake:
    table = _Table(value, path)
    percent_value = table.require("percent")
    if isinstance(percent_value, bool) or not isinstance(percent_value, int | float):
        raise _Invalid(table.at("percent"), f"must be a number, not {_type_name(percent_value)}")
    percent = Fraction(str(percent_value)) / 100
    if not 0 <= percent < 1:
        raise _Invalid(table.at("percent"), f"a percentage from 0 up to 100, got {percent_value}")
    caps: list[tuple[int, int]] = []
    if table.has("caps"):
        for i, row in enumerate(_list(table.require("caps"), table.at("caps"))):
            cap = _Table(row, f"{table.at('caps')}[{i}]")
            players = _integer(cap.require("players"), cap.at("players"), 2, MAX_PLAYERS)
            caps.append((players, _integer(cap.require("cap"), cap.at("cap"), 0, MAX_CHIPS)))
            cap.finish()
    no_flop_no_drop = table.boolean("no_flop_no_drop", True)
    unit = table.integer("unit", 1, 1)
    table.finish()
    return Rake(percent, tuple(caps), no_flop_no_drop, unit)


def _jackpot(value: object, path: str) -> JackpotDrop:
    table = _Table(value, path)
    amount = _integer(table.require("amount"), table.at("amount"), 1, MAX_CHIPS)
    threshold = _integer(table.require("threshold"), table.at("threshold"), amount, MAX_CHIPS)
    table.finish()
    return JackpotDrop(amount, threshold)


# --- the whole game ---------------------------------------------------------------------------


# The definition's messages start with the part they are about ('phases[4]: ...', 'deck: ...')
# when they are about one part; the file's own name for it is used where it differs.
_DEFINITION_FIELD = re.compile(r"([a-z_]+(?:\[\d+\])?): (.+)", re.S)
_FILE_FIELDS = {"exhaustion": "deck.exhaustion"}


def _definition_error(message: str) -> _Invalid:
    match = _DEFINITION_FIELD.fullmatch(message)
    if match is None:
        return _Invalid("", message)
    field = match.group(1)
    return _Invalid(_FILE_FIELDS.get(field, field), match.group(2))


def parse_game(data: Mapping[str, Any], source: str = "<game>") -> GameEntry:
    """Check ``data`` (a parsed game file) and build its game; ``source`` names the file in
    messages.  Raises :class:`GameFileError` naming the field of the first problem."""
    try:
        return _parse(data, source)
    except _Invalid as err:
        raise GameFileError(source, err.field, err.problem) from None


_TOP_KEYS = (
    "code",
    "name",
    "players",
    "structure",
    "acting_order",
    "phases",
    "stakes",
    "forced",
    "deck",
    "showdown",
    "house",
)


def _parse(data: Mapping[str, Any], source: str) -> GameEntry:
    top = _Table(data, "")
    # A misspelt table name ('stake') is reported as such, not as the table's missing keys.
    for key in data:
        if key not in _TOP_KEYS:
            shown = key if isinstance(key, str) and len(key) <= 40 else echo(key)
            raise _Invalid(shown, f"is not a known setting (known: {', '.join(_TOP_KEYS)})")
    code = top.string("code")
    if not _CODE.fullmatch(code):
        raise _Invalid(
            "code",
            f"{echo(code)} is not a code: 1 to 16 letters, digits and / . _ + -, "
            "starting with a letter or digit",
        )
    name = top.string("name")
    if not name.strip() or len(name) > 80 or not name.isprintable():
        raise _Invalid("name", "a name is 1 to 80 printable characters on one line")
    low, high = _players(top.require("players"))
    limit = top.choice("structure", Limit)
    acting_order = top.choice("acting_order", ActingOrder, ActingOrder.POSITION)
    phases = _phases(top.require("phases"))
    betting_rounds = sum(isinstance(p, Bet) for p in phases)
    draws = any(isinstance(p, Draw) for p in phases)
    held, board = _held(phases)
    stakes = _stakes(top.table("stakes"), limit, betting_rounds)
    house = top.table("house")
    forced = _forced(top.table("forced"), house)
    if len(forced.blinds) > low:
        raise _Invalid(
            "players", f"{len(forced.blinds)} blinds need at least as many players, not {low}"
        )
    deck, exhaustion, bottom_card, five_in_a_row = _deck(top.table("deck"), draws)
    if exhaustion.for_draw and not draws:
        raise _Invalid("deck.exhaustion", f"{exhaustion!s} is a rule for draw games")
    if exhaustion.for_stud and (draws or board):
        raise _Invalid("deck.exhaustion", f"{exhaustion!s} is a rule for stud games")
    showdown, use, boards = _showdown(top.table("showdown"), deck, name)
    selection = _selection(use, held, board, _boards(boards, board))
    if any(h.ranking is HandRanking.BADUGI for h in showdown.halves) != (selection is None):
        raise _Invalid("showdown.use", "a badugi half plays the hand 'whole', and only it does")
    incomplete = house.choice("incomplete_raise", IncompleteRaiseRule, IncompleteRaiseRule.FULL_BET)
    if limit in (Limit.POT, Limit.NO) and incomplete is not IncompleteRaiseRule.FULL_BET:
        raise _Invalid("house.incomplete_raise", f"a {limit} game uses the full bet rule")
    pot_blinds = house.choice("pot_limit_blinds", PotLimitBlinds, PotLimitBlinds.AS_POSTED)
    if house.has("pot_limit_blinds") and limit is not Limit.POT:
        raise _Invalid("house.pot_limit_blinds", f"counts blinds in pot limit, not {limit}")
    straddles = house.choice("straddles", StraddleRule, StraddleRule.NONE)
    if straddles is not StraddleRule.NONE and not forced.blinds:
        raise _Invalid("house.straddles", "a straddle follows the blinds, and the game has none")
    short_all_ins = house.choice("short_all_ins", ShortAllInRule, ShortAllInRule.CUMULATIVE)
    odd_chips = house.choice("odd_chips", OddChipRule, OddChipRule.FIRST_LEFT_OF_BUTTON)
    rake = _rake(house.raw("rake"), "house.rake") if house.has("rake") else None
    jackpot = _jackpot(house.raw("jackpot_drop"), "house.jackpot_drop") if house.has(
        "jackpot_drop"
    ) else None  # fmt: skip
    house.finish()
    top.finish()
    try:
        game = GameDefinition(
            name=name,
            phases=phases,
            forced=forced,
            limit=limit,
            stakes=stakes,
            selection=selection,
            showdown=showdown,
            deck=deck,
            exhaustion=exhaustion,
            deals_bottom_card=bottom_card,
            five_consecutive=five_in_a_row,
            incomplete_raise=incomplete,
            short_all_ins=short_all_ins,
            pot_limit_blinds=pot_blinds,
            odd_chips=odd_chips,
            rake=rake,
            jackpot_drop=jackpot,
            straddles=straddles,
            min_players=low,
            max_players=high,
            acting_order=acting_order,
        )
    except ValueError as err:  # the definition's own checks: phases, acting order, deck
        raise _definition_error(str(err)) from None
    try:
        check_deal(game, high, deck.size)
    except ValueError as err:
        raise _Invalid(
            "players",
            f"{high} players are too many for the {deck.label} deck with deck.exhaustion = "
            f"{exhaustion.value!r}: {err}",
        ) from None
    return GameEntry(code, name, game, source)


def parse_game_text(text: str, source: str = "<game>") -> GameEntry:
    """Parse TOML ``text`` and check it as a game (see the module docstring)."""
    if len(text) > MAX_GAME_FILE_BYTES:
        raise GameFileError(source, "", f"larger than {MAX_GAME_FILE_BYTES:,} bytes")
    try:
        data = tomllib.loads(text.removeprefix(_BOM))
    except tomllib.TOMLDecodeError as err:
        raise GameFileError(source, "", f"not valid TOML: {err}") from None
    except (ValueError, RecursionError):
        # An integer beyond Python's digit limit, or brackets nested past the recursion limit:
        # neither is a game file.
        raise GameFileError(source, "", "not valid TOML: a number or nesting too large") from None
    return parse_game(data, source)


def load_game_file(path: str | Path | Traversable) -> GameEntry:
    """Read and check one game file."""
    file: Path | Traversable = Path(path) if isinstance(path, str) else path
    source = str(file)
    try:
        with file.open("rb") as stream:
            raw = stream.read(MAX_GAME_FILE_BYTES + 1)
    except OSError as err:
        raise GameFileError(source, "", f"cannot read: {err.strerror or err}") from None
    if len(raw) > MAX_GAME_FILE_BYTES:
        raise GameFileError(source, "", f"larger than {MAX_GAME_FILE_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise GameFileError(source, "", "not UTF-8 text") from None
    return parse_game_text(text, source)
