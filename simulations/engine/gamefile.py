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

    kind = "poker"                    # poker (default) | guts: a guts game, whose format
                                      # simulations/engine/gamefile_guts.py gives
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
    sizes = [1, 2, 2, 4]       # fixed limit only, instead of big_bet: each round's bet,
                               # the first the small bet, the last repeating

``[forced]`` — what is posted before the cards (all default to none)::

    ante = 0
    blinds = [1, 2]            # one to three blinds, the last the amount to call
    first_blind_on_button = false   # three blinds only
    bring_in = 0               # stud: paid by the poorest upcard (needs a showing order)
    bring_in_by = "high card, aces high"   # which upcard pays it, where not the acting
                               # order's (low card | high card | high card, aces high)
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
    declare = true             # a high and a low half (no qualifier) that the players
                               # declare for in a declare phase; default false: cards speak
    restrict = [{ cards = [0, 1], at_most = 1 }]  # at most 1 of the player's first two
                               # cards plays (Crocodile stud; positions in the order dealt)

How many hole and board cards there are is not written: the phases say it.  Each half::

    ranking = "high"           # high | ace-to-five low | ace-to-six low |
                               # deuce-to-seven low | badugi | high card (one card) |
                               # high spade in the hole (also: low ..., ..., queen first) |
                               # two-card (a second half: Cowpie's two-card hand)
    qualifier = "eight-or-better"   # a split's ace-to-five low half: eight- or nine-or-better
    dealt_wild = "follow-the-queen" # a high half: ranks the deal makes wild, on top of any
                                    # wild_ranks: follow-the-queen | low-hole-card |
                                    # board-card | low-board-card
    board = 0                  # with boards: the half plays this board only (double board:
                               # two high halves, board 0 and board 1)

A high half over a stripped deck, with jokers or with wild cards ranks by a ranking system
described in the half (:class:`~simulations.evaluators.systems.RankingSystem`; the ranks
come from the deck)::

    ace_low = true             # may the ace play below the lowest rank (default true)
    flush_beats_full_house = false   # (a stripped deck's file must give both of these)
    order = ["high card", "one pair", ...]  # instead: every category, weakest first
                               # (Canadian stud, Spanish hold'em; see gamefile_showdown)
    jokers = "wild"            # wild | bug; required when the deck has jokers
    wild_ranks = "2"           # ranks wild in every hand, as deck.ranks writes them
    wild_cards = "Js Jh"       # single wild cards
    double_ace_flush = false
    adds_to = 9                # two number cards (ace 1) adding up to it make a wild card
    jokers_face_up = "bug"     # a joker face up plays otherwise (Mexican stud's bug)
    name = "Manila"            # the system's name in listings; default: the game's name

In a low half a joker is always the bug (the lowest card the hand lacks), so a low half
takes none of these keys, and jokers play only in ace-to-five lows.

``phases`` — a list; each item is the word ``"bet"`` (a betting round; ``{ bet = true }``
in a ``[[phases]]`` table) or a table naming its kind and street::

    { bet = true, opens_with = "J", first = "first-round-opener" }
                                                # a round only a pair of jacks or better
                                                # may open (jackpots); first: game (the
                                                # acting order, default) | first-round-opener
    { bet = true, opens_with = "J", progressive = true }
                                                # the openers rise a rank with each deal
                                                # passed out (queens, kings, aces)
    { bet = true, if_passed = "switch" }        # no one bets: play-on (default without
                                                # openers) | redeal (default with them) |
                                                # switch (to the [switch] game)
    { bet = true, checks = false }              # no checking: open or fold (Q-Ball)

    { deal = "flop", board = 3, burn = true }   # down, up (to each live player), board;
                                                # burn defaults to false
    { draw = "first draw", most = 5 }           # most (default 5), most_keeping_ace,
                                                # burn (default true), extra (default 0:
                                                # cards dealt beyond those discarded)
    { discard = "discard", count = 1 }          # each player throws away count cards
    { expose = "roll", count = 1 }              # each player turns count down cards up
    { declare = "declare", in_turn = false }    # high, low or both; all at once (default)
                                                # or in turn from the dealer's left; needs
                                                # declare = true in [showdown]
    { arrange = "roll-out" }                    # each player orders his down cards ...
    { reveal = "first card", count = 1 }        # ... and each reveal turns up his next ones
    { pass = "first pass", count = 3, direction = "left" }
                                                # each player hands count down cards on,
                                                # all at once; direction: left (default),
                                                # right or across
    { donate = "donate", count = 1, pile = 7 }  # East Village: each player gives count down
                                                # cards to a pile the stub fills to pile
    { deal = "flop", board = 3, from_pile = true }  # the board off that pile, unburned
    { twist = "twist", price = 5, again = false }   # a twist round: one card bought for
                                                # price, into the pot; again: the Tittle
    { deal = "fourth street", up = 1, extra_up = "4" }  # a 4 dealt up: another upcard
    { pay = "fourth street", rank = "3" }       # after that deal: a 3 dealt up matches
                                                # the pot or folds (Baseball)
    { split = "split" }                         # each player splits his seven cards into
                                                # a five-card and a two-card hand (Cowpie)
    { draft = "fourth street", burn = true }    # one upcard a player to the centre, taken
                                                # worst hand showing first (Draft)
    { auction = "fourth street", burn = true, minimum = 1, sealed = false }
                                                # the first upcard auctioned, the others
                                                # dealt (Auction); down = N cards first

``[house]`` — house options, each with its default::

    incomplete_raise = "full-bet"     # full-bet | half-bet (fixed and spread limit only)
    short_all_ins = "cumulative"      # cumulative | each-alone
    odd_chips = "first-left-of-button"  # first-left-of-button | one-each-left-of-button |
                                        # exact
    pot_limit_blinds = "as-posted"    # as-posted | small-blind-as-big (pot limit only)
    straddles = "none"                # none | live | mississippi (needs blinds)
    heads_up_cap = "at-capping-raise" # at-capping-raise | start-of-round: when the cap's
                                      # heads-up exception counts two players (a capped
                                      # game lifting its cap heads-up only)
    big_blind_ante_order = "blind-first"  # blind-first | ante-first (needs a big-blind ante)
    jackpot_drop = { amount = 1, threshold = 20 }   # default: none

    [house.rake]                      # default: no rake
    percent = 5                       # of each pot, rounded down to whole units
    caps = [{ players = 2, cap = 3 }] # the cap for that many players dealt in, and more
    no_flop_no_drop = true
    unit = 1

``[kill]`` and ``[switch]`` — deals that end without a winner and carry their pot
(:mod:`simulations.engine.gamefile_deals`)::

    [kill]
    cards = "Kh"                      # kill cards: face up, they kill the deal
    folded_out = true                 # whoever folded stays out until the pot is won
    reante_step = 0                   # the ante grows by this with each deal killed

    [switch]                          # the game a round with if_passed = "switch" turns into
    name = "California lowball"
    showdown = { use = "any", halves = [{ ranking = "ace-to-five low" }] }

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
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from simulations.engine.deck_order import check_deal
from simulations.engine.game import ActingOrder, GameDefinition
from simulations.engine.gamefile_chips import read_forced, read_house, read_stakes
from simulations.engine.gamefile_deal import read_deck, read_phases
from simulations.engine.gamefile_deals import read_kill, read_switch
from simulations.engine.gamefile_guts import GUTS_TOP_KEYS, GutsEntry, read_guts
from simulations.engine.gamefile_read import (
    MAX_PLAYERS,
    MAX_SHOWDOWN_CARDS,
    Invalid,
    Table,
    read_integer,
    read_list,
)
from simulations.engine.gamefile_showdown import read_showdown
from simulations.engine.limits import Limit
from simulations.engine.phases import Bet, Deal, Discard, Draw, Phase, cards_held
from simulations.engine.showdown import Showdown
from simulations.spec import echo, shown_key

__all__ = [
    "GameEntry",
    "GameFileError",
    "GameKind",
    "GutsEntry",
    "load_any_game_file",
    "load_game_file",
    "parse_any_game",
    "parse_any_game_text",
    "parse_game",
    "parse_game_text",
]

# A game file is a page of settings; anything much larger is not one.
MAX_GAME_FILE_BYTES = 256 * 1024
_CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9/._+-]{0,15}")
_BOM = "\ufeff"


class GameFileError(ValueError):
    """A game file that cannot be read or does not describe a playable game.  The message
    names the file, the field and the reason: ``games/nt.toml: deck.ranks: ...``."""

    def __init__(self, source: str, field: str, problem: str) -> None:
        super().__init__(f"{source}: {field}: {problem}" if field else f"{source}: {problem}")
        self.source = source
        self.field = field
        self.problem = problem


class GameKind(StrEnum):
    """What a game file describes: a poker game, or a game of guts."""

    POKER = "poker"
    GUTS = "guts"


@dataclass(frozen=True)
class GameEntry:
    """One game read from a file: its stable code, its name and its definition."""

    code: str
    name: str
    game: GameDefinition
    source: str = "<game>"


def parse_any_game(data: Mapping[str, Any], source: str = "<game>") -> GameEntry | GutsEntry:
    """Check ``data`` (a parsed game file) and build its game, poker or guts (``kind``);
    ``source`` names the file in messages.  Raises :class:`GameFileError` naming the field of
    the first problem."""
    try:
        return _parse(data, source)
    except Invalid as err:
        raise GameFileError(source, err.field, err.problem) from None


def parse_game(data: Mapping[str, Any], source: str = "<game>") -> GameEntry:
    """:func:`parse_any_game` for a poker game: a guts file is refused, naming ``kind``."""
    return _poker(parse_any_game(data, source))


def parse_game_text(text: str, source: str = "<game>") -> GameEntry:
    """Parse TOML ``text`` and check it as a poker game (see the module docstring)."""
    return _poker(parse_any_game_text(text, source))


def load_game_file(path: str | Path | Traversable) -> GameEntry:
    """Read and check one poker game file."""
    return _poker(load_any_game_file(path))


def _poker(entry: GameEntry | GutsEntry) -> GameEntry:
    if isinstance(entry, GutsEntry):
        raise GameFileError(
            entry.source, "kind", "is 'guts': a guts game, where a poker game is wanted"
        )
    return entry


def parse_any_game_text(text: str, source: str = "<game>") -> GameEntry | GutsEntry:
    """Parse TOML ``text`` and check it as a game of either kind."""
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
    return parse_any_game(data, source)


def load_any_game_file(path: str | Path | Traversable) -> GameEntry | GutsEntry:
    """Read and check one game file of either kind."""
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
    return parse_any_game_text(text, source)


# --- the whole game ---------------------------------------------------------------------------


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
    "kill",
    "switch",
    "kind",
)


def _check_halves_rank_extra_upcards(phases: tuple[Phase, ...], showdown: Showdown) -> None:
    """Extra upcards (Baseball's) give a player more cards than the deal counts: only a half
    with a ranking system (a high half over a stripped deck or with wild cards) ranks a hand
    of any size, as Baseball's own does."""
    if not any(isinstance(p, Deal) and p.extra_up is not None for p in phases):
        return
    for index, half in enumerate(showdown.halves):
        if half.system is None:
            raise Invalid(
                f"showdown.halves[{index}]",
                f"a {half.label} half ranks hands of the cards the deal counts, and extra "
                "upcards (extra_up) deal more: a game with extra upcards ranks a high half "
                "with wild cards or over a stripped deck, as Baseball does",
            )


def _check_discards(phases: tuple[Phase, ...]) -> None:
    """A discard throws away cards a player holds: it names its own count when the phases
    before it deal fewer (else the showdown would be blamed, for a negative hand)."""
    for index, phase in enumerate(phases):
        if isinstance(phase, Discard):
            held = cards_held(phases[:index])[0]
            if phase.count > held:
                raise Invalid(
                    f"phases[{index}].count",
                    f"discards {phase.count} cards, but each player holds only {held} then",
                )


def _check_cards_held(held: int, board: int, deck_size: int) -> None:
    """A player's cards and the board come out of one deck, and the hand at the showdown is
    chosen from them: both bound what the phases may deal."""
    dealt = f"the phases leave each player {held} cards and {board} on the board"
    if held + board > deck_size:
        raise Invalid("phases", f"{dealt}: more than the deck's {deck_size} cards")
    if held + board > MAX_SHOWDOWN_CARDS:
        raise Invalid(
            "phases", f"{dealt}: a hand is chosen from at most {MAX_SHOWDOWN_CARDS} cards"
        )


def _parse(data: Mapping[str, Any], source: str) -> GameEntry | GutsEntry:
    top = Table(data, "")
    kind = top.choice("kind", GameKind, GameKind.POKER)
    known = GUTS_TOP_KEYS if kind is GameKind.GUTS else _TOP_KEYS
    # A misspelt table name ('stake') is reported as such, not as the table's missing keys.
    for key in data:
        if key not in known:
            shown = shown_key(key)
            raise Invalid(shown, f"is not a known setting (known: {', '.join(known)})")
    code = top.string("code")
    if not _CODE.fullmatch(code):
        raise Invalid(
            "code",
            f"{echo(code)} is not a code: 1 to 16 letters, digits and / . _ + -, "
            "starting with a letter or digit",
        )
    name = top.string("name")
    if not name.strip() or len(name) > 80 or not name.isprintable():
        raise Invalid("name", "a name is 1 to 80 printable characters on one line")
    low, high = _players(top.require("players"))
    if kind is GameKind.GUTS:
        return read_guts(top, code, name, (low, high), source)
    limit = top.choice("structure", Limit)
    acting_order = top.choice("acting_order", ActingOrder, ActingOrder.POSITION)
    phases = read_phases(top.require("phases"))
    betting_rounds = sum(isinstance(p, Bet) for p in phases)
    draws = any(isinstance(p, Draw) for p in phases)
    _check_discards(phases)
    held, board = cards_held(phases)
    stakes = read_stakes(top.table("stakes"), limit, betting_rounds)
    # Read before [forced], which takes its big-blind ante order from it.
    house_table = top.table("house")
    forced, bring_in_by = read_forced(top.table("forced"), house_table)
    if len(forced.blinds) > low:
        raise Invalid(
            "players", f"{len(forced.blinds)} blinds need at least as many players, not {low}"
        )
    deck, exhaustion, bottom_card, five_in_a_row = read_deck(top.table("deck"), draws, board)
    _check_cards_held(held, board, deck.size)
    showdown, selection = read_showdown(top.table("showdown"), deck, name, held, board)
    _check_halves_rank_extra_upcards(phases, showdown)
    house = read_house(house_table, limit, forced, stakes)
    kill = read_kill(top.table("kill"), deck)
    switch = read_switch(
        top.table("switch"),
        selection,
        lambda table: read_showdown(table, deck, name, held, board),
    )
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
            incomplete_raise=house.incomplete_raise,
            short_all_ins=house.short_all_ins,
            pot_limit_blinds=house.pot_limit_blinds,
            odd_chips=house.odd_chips,
            rake=house.rake,
            jackpot_drop=house.jackpot_drop,
            straddles=house.straddles,
            heads_up_cap=house.heads_up_cap,
            min_players=low,
            max_players=high,
            acting_order=acting_order,
            bring_in_by=bring_in_by,
            kill_cards=kill,
            switch=switch,
        )
    except ValueError as err:  # the definition's own checks: phases, acting order, deck
        raise _definition_error(str(err)) from None
    try:
        check_deal(game, high, deck.size)
    except ValueError as err:
        raise Invalid(
            "players",
            f"{high} players are too many for the {deck.label} deck with deck.exhaustion = "
            f"{exhaustion.value!r}: {err}",
        ) from None
    return GameEntry(code, name, game, source)


def _players(value: object) -> tuple[int, int]:
    pair = read_list(value, "players")
    if len(pair) != 2:
        raise Invalid("players", f"must be [fewest, most], got {len(pair)} values")
    low = read_integer(pair[0], "players[0]", 2, MAX_PLAYERS)
    high = read_integer(pair[1], "players[1]", 2, MAX_PLAYERS)
    if low > high:
        raise Invalid("players", f"the fewest ({low}) is more than the most ({high})")
    return low, high


# The definition's messages start with the part they are about ('phases[4]: ...', 'deck: ...')
# when they are about one part; the file's own name for it is used where it differs.
_DEFINITION_FIELD = re.compile(r"([a-z_]+(?:\[\d+\])?): (.+)", re.S)
_FILE_FIELDS = {"exhaustion": "deck.exhaustion"}


def _definition_error(message: str) -> Invalid:
    match = _DEFINITION_FIELD.fullmatch(message)
    if match is None:
        return Invalid("", message)
    field = match.group(1)
    return Invalid(_FILE_FIELDS.get(field, field), match.group(2))
