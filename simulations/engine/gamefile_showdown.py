"""Reading a game file's ``[showdown]``: which cards play (``use``, ``boards``, ``restrict``)
and the halves of the pot with their rankings (the format is described in
:mod:`simulations.engine.gamefile`; the keys this module adds to it are described here).

``restrict`` caps how many of some of a player's cards one hand uses — stud with extra
downcards (Rules 000_1a86611de8d3f5f7.txt, 'One can also vary any stud game by dealing extra
downcards': "adding a restriction on how many of those hole cards may be played in the final
hand")::

    restrict = [{ cards = [0, 1], at_most = 1 }]   # of the player's cards in the order they
                                                    # came to him (down before up in a deal),
                                                    # from 0: Crocodile stud's two downcards

A high half's ``order`` lists the categories weakest first, where a deck's hand values are not
the standard ones (Canadian stud's four-card hands, a stripped deck ranked by rarity); it
replaces ``flush_beats_full_house``, and five of a kind, which only wild cards make, goes on
top unless it is listed::

    order = ["high card", "one pair", "four-card straight", "four-card flush", "two pair",
             "three of a kind", "straight", "flush", "full house", "four of a kind",
             "straight flush"]

A ``ranking = "high card"`` half plays a hand of one card, the highest winning (Indian poker).

A ``ranking = "two-card"`` second half, after a high half, is Cowpie's: each player splits his
seven cards in a ``split`` phase, the high half ranking his five-card hand and this one his
two-card hand (a pair above any high card; no straights or flushes)::

    halves = [{ ranking = "high" }, { ranking = "two-card" }]

A high half's ``adds_to`` makes wild cards by addition (Number Nine: "any two number cards
that add up to 9 may make one wild card, at the player's option. Aces count as 1"): two
number cards (ace 1 to ten 10) adding up to it may play as one wild card; with
``use = "any"`` only::

    halves = [{ ranking = "high", wild_ranks = "9", adds_to = 9, name = "Number Nine" }]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from enum import Enum

from simulations.cards import FIRST_JOKER, Card, Rank, parse_cards
from simulations.engine.game import DeckSpec
from simulations.engine.gamefile_read import (
    Invalid,
    Table,
    read_choice,
    read_integer,
    read_list,
    read_ranks,
    read_string,
    type_name,
)
from simulations.engine.showdown import Half, HandRanking, Showdown
from simulations.evaluators.addition import HIGHEST_TOTAL, LOWEST_TOTAL
from simulations.evaluators.lowball import Qualifier
from simulations.evaluators.selection import (
    FIVE_CARD_OMAHA,
    FIVE_CARDS,
    HAND_SIZE,
    MANILA,
    MANILA_THREE_HOLE,
    OMAHA,
    SEVEN_CARD_STUD,
    SUPER_HOLDEM,
    TAHOE,
    TEXAS_HOLDEM,
    Cap,
    Selection,
    any_cards,
    any_five,
    at_most,
    capped,
    exactly,
)
from simulations.evaluators.stripped import FLUSH_OVER_FULL_HOUSE
from simulations.evaluators.systems import (
    SHAPES_BY_LABEL,
    STANDARD_ORDER,
    JokerRole,
    RankingSystem,
    Shape,
)
from simulations.rules.wild_rules import DealtWild
from simulations.spec import echo

__all__ = ["read_showdown"]


def read_showdown(
    table: Table, deck: DeckSpec, game_name: str, held: int, board: int
) -> tuple[Showdown, Selection | None]:
    """The showdown and the selection of the cards that play (None: the hand plays whole),
    given the cards the phases leave each player (``held``) and on the ``board``."""
    use = table.require("use")
    boards = table.raw("boards") if table.has("boards") else None
    where = table.path("halves")
    rows = read_list(table.require("halves"), where)
    if len(rows) not in (1, 2):
        raise Invalid(where, f"one half (the whole pot) or two (high, then low), got {len(rows)}")
    halves = tuple(
        _half(Table(row, f"{where}[{i}]"), deck, game_name) for i, row in enumerate(rows)
    )
    count = len(read_list(boards, "showdown.boards")) if boards is not None else 0
    for i, half in enumerate(halves):
        if half.board is not None and not half.board < count:
            raise Invalid(
                f"{where}[{i}].board", f"{half.board} is not one of the {count} boards listed"
            )
    by_board = len(halves) == 2 and None not in (halves[0].board, halves[1].board)
    if by_board and halves[0].board == halves[1].board:
        raise Invalid(where, "the two halves of a split by board play different boards")
    second = halves[-1]
    two_card = second.ranking is HandRanking.TWO_CARD
    if (
        len(halves) == 2
        and not by_board
        and (
            halves[0].ranking is not HandRanking.HIGH
            or not (second.is_low or second.is_spade or two_card)
        )
    ):
        raise Invalid(
            where,
            "a split pot is a high half, then a low half or a spade in the hole, or a two-card "
            "hand (or one per board)",
        )
    if halves[0].ranking is HandRanking.TWO_CARD:
        raise Invalid(
            f"{where}[0].ranking",
            "a two-card hand is the second half of a hand split in two, after a high half",
        )
    if len(halves) == 1 and second.is_spade:
        raise Invalid(f"{where}[0].ranking", "a spade in the hole takes half a pot, after a high")
    if len(halves) == 1 and halves[0].qualifier is not None:
        raise Invalid(f"{where}[0].qualifier", "a qualifier belongs to the low half of a split")
    declare = table.boolean("declare", False)
    if declare and (len(halves) != 2 or by_board):
        raise Invalid("showdown.declare", "players declare between a high and a low half")
    if declare and halves[1].qualifier is not None:
        raise Invalid(
            f"{where}[1].qualifier",
            "a declared low has no qualifier ('either a declaration phase or a qualifier')",
        )
    caps = _caps(table.raw("restrict"), held) if table.has("restrict") else ()
    table.finish()
    showdown = Showdown(halves, declare=declare)
    size = halves[0].ranking.hand_size
    selection = _selection(use, held, board, _boards(boards, board), size)
    if any(h.ranking is HandRanking.BADUGI for h in showdown.halves) != (selection is None):
        raise Invalid("showdown.use", "a badugi half plays the hand 'whole', and only it does")
    for i, half in enumerate(halves):
        adds = half.system is not None and half.system.adds_to
        if adds and (selection is None or caps or not selection.plays_any_five):
            raise Invalid(
                f"{where}[{i}].adds_to",
                "wild cards made by addition play any five of the cards: use = 'any', no restrict",
            )
    if caps:
        if selection is None:
            raise Invalid("showdown.restrict", "a hand played whole uses every card")
        try:
            selection = capped(selection, caps, f"{selection.name}, " + _caps_label(caps))
        except ValueError as err:  # no hand left within the caps
            raise Invalid("showdown.restrict", str(err)) from None
    return showdown, selection


# --- which cards play ----------------------------------------------------------------------


# Selections of the engine's presets' shapes are those presets (names included), so that a
# file's hold'em or Omaha is the very definition the engine's factories build.
_PRESETS = (TEXAS_HOLDEM, OMAHA, SEVEN_CARD_STUD, FIVE_CARDS, FIVE_CARD_OMAHA, SUPER_HOLDEM,
            MANILA, TAHOE, MANILA_THREE_HOLE)  # fmt: skip
_COUNTED = ("exactly", "at_most")  # the keys of a use = { key = N } table


def _boards(value: object, board: int) -> tuple[tuple[int, ...], ...]:
    """``showdown.boards``: the sets of board positions (in deal order, from 0) a hand may
    use one of — double-board hold'em's two boards."""
    path = "showdown.boards"
    if value is None:
        return ()
    rows = read_list(value, path)
    if len(rows) < 2:
        raise Invalid(path, "list two or more boards (leave it out for one board)")
    boards = []
    for i, row in enumerate(rows):
        positions = tuple(
            read_integer(p, f"{path}[{i}][{j}]", 0, max(board - 1, 0))
            for j, p in enumerate(read_list(row, f"{path}[{i}]"))
        )
        if not positions or len(set(positions)) != len(positions):
            raise Invalid(f"{path}[{i}]", "a board is a non-empty set of distinct positions")
        boards.append(positions)
    return tuple(boards)


def _caps(value: object, held: int) -> tuple[Cap, ...]:
    """``showdown.restrict``: the caps on the player's own cards (positions from 0 in the
    order they came to him)."""
    path = "showdown.restrict"
    rows = read_list(value, path)
    if not rows:
        raise Invalid(path, "list one or more restrictions (leave it out for none)")
    caps = []
    for i, row in enumerate(rows):
        where = f"{path}[{i}]"
        table = Table(row, where)
        cards = read_list(table.require("cards"), table.path("cards"))
        positions = tuple(
            read_integer(p, f"{where}.cards[{j}]", 0, max(held - 1, 0)) for j, p in enumerate(cards)
        )
        if not positions or len(set(positions)) != len(positions):
            raise Invalid(table.path("cards"), "names one or more distinct cards of the hand")
        most = read_integer(table.require("at_most"), table.path("at_most"), 0, HAND_SIZE)
        if most >= len(positions):
            raise Invalid(
                table.path("at_most"),
                f"{most} of {len(positions)} cards restricts nothing: allow fewer than all",
            )
        table.finish()
        caps.append(Cap(positions, most))
    return tuple(caps)


def _caps_label(caps: tuple[Cap, ...]) -> str:
    return "; ".join(cap.label for cap in caps)


def _selection(
    value: object,
    held: int,
    board: int,
    boards: tuple[tuple[int, ...], ...] = (),
    size: int = HAND_SIZE,
) -> Selection | None:
    path = "showdown.use"
    cards = f"the phases leave each player {held} cards and {board} on the board"
    if value == "whole":
        if boards:
            raise Invalid("showdown.boards", "a hand played whole uses no board")
        return None
    if size != HAND_SIZE:  # a hand of one card (Indian poker): any of the player's cards
        if value != "any" or boards:
            raise Invalid(path, f"a hand of {size} card(s) is 'any' {size} of one board")
        if held + board < size:
            raise Invalid(path, f"a hand is {size} card(s), but {cards}")
        name = "one card" if (held, board, size) == (1, 0, 1) else f"any {size} of the cards"
        return any_cards(name, size, held, board)
    if value == "any":
        if held + board < 5:
            raise Invalid(path, f"a hand is five cards, but {cards}")
        where = f"{held} hole and {board} board cards" if board else f"{held} cards"
        try:
            built = any_five(f"any five of {where}", held, board, boards)
        except ValueError as err:
            # The selection's own checks, as for exactly and at_most below: a hand of more
            # than 64 cards, or boards that cannot make five (too short, or no board dealt).
            raise Invalid("showdown.boards" if boards else path, f"{err}; {cards}") from None
    elif isinstance(value, Mapping) and len(value) == 1 and next(iter(value)) in _COUNTED:
        key = next(iter(value))
        used = read_integer(value[key], f"{path}.{key}", 0, 5)
        if used > held:
            raise Invalid(
                f"{path}.{key}", f"{key.replace('_', ' ')} {used} hole cards, but {cards}"
            )
        if 5 - used > board and key == "exactly":
            raise Invalid(
                f"{path}.{key}",
                f"exactly {used} hole cards need {5 - used} on the board, but {cards}",
            )
        try:
            if key == "exactly":
                built = exactly(f"exactly {used} of {held} hole cards", used, held, board, boards)
            else:
                built = at_most(f"at most {used} of {held} hole cards", used, held, board, boards)
        except ValueError as err:
            raise Invalid(f"{path}.{key}", f"{err}; {cards}") from None
    else:
        shown = echo(value) if isinstance(value, str) else type_name(value)
        raise Invalid(
            path,
            "must be 'any', 'whole', { exactly = N } or { at_most = N }; got " + shown,
        )
    for preset in _PRESETS:
        if replace(preset, name=built.name) == built:
            return preset
    return built


# --- the halves and their rankings ---------------------------------------------------------


_QUALIFIERS = {
    "eight-or-better": Qualifier.EIGHT_OR_BETTER,
    "nine-or-better": Qualifier.NINE_OR_BETTER,
}
_SYSTEM_KEYS = (
    "dealt_wild",
    "ace_low",
    "flush_beats_full_house",
    "order",
    "jokers",
    "jokers_face_up",
    "wild_ranks",
    "wild_cards",
    "double_ace_flush",
    "adds_to",
    "name",
)


class _JokerName(Enum):
    WILD = "wild"
    BUG = "bug"


def _half(table: Table, deck: DeckSpec, game_name: str) -> Half:
    ranking = table.choice("ranking", HandRanking)
    board = table.optional_integer("board", 0, 63)
    qualifier = None
    if table.has("qualifier"):
        text = table.string("qualifier")
        if text not in _QUALIFIERS:
            allowed = ", ".join(map(repr, _QUALIFIERS))
            raise Invalid(table.path("qualifier"), f"must be one of {allowed}; got {echo(text)}")
        if ranking is not HandRanking.ACE_TO_FIVE_LOW:
            raise Invalid(table.path("qualifier"), f"qualifies an ace-to-five low, not {ranking}")
        qualifier = _QUALIFIERS[text]
    if ranking is not HandRanking.HIGH:
        for key in _SYSTEM_KEYS:
            if table.has(key):
                raise Invalid(
                    table.path(key),
                    f"belongs to a high half's ranking system; a {ranking} half ranks by its "
                    "name alone (a joker there is the bug)",
                )
        if deck.jokers and ranking is not HandRanking.ACE_TO_FIVE_LOW:
            raise Invalid(
                table.path("ranking"),
                f"the deck holds jokers, and a joker plays as the bug only in an ace-to-five "
                f"low, not in {ranking}",
            )
        table.finish()
        return Half(ranking, qualifier, board=board)
    dealt_wild = None
    if table.has("dealt_wild"):
        dealt_wild = table.choice("dealt_wild", DealtWild)
    system = _system(table, deck, game_name, needed=dealt_wild is not None)
    face_up = None
    if table.has("jokers_face_up"):
        where = table.path("jokers_face_up")
        if system is None or not deck.jokers:
            raise Invalid(where, "the deck holds no jokers (deck.jokers)")
        named = read_choice(table.require("jokers_face_up"), where, _JokerName)
        role = JokerRole.WILD if named is _JokerName.WILD else JokerRole.BUG
        face_up = replace(system, name=f"{system.name}, joker face up", jokers=role)
    table.finish()
    return Half(ranking, qualifier, system, board, face_up, dealt_wild)


def _system(
    table: Table, deck: DeckSpec, game_name: str, *, needed: bool = False
) -> RankingSystem | None:
    """The high half's ranking system, or None where the standard high ranking serves
    (``needed``: a system even then, for wild cards the deal decides).

    A stripped deck raises two questions the texts answer game by game (Manila: "an ace may
    not be played low", "a flush beats a full house"), so its file must answer both."""
    if deck.ranks != tuple(Rank):
        label = deck.label
        if not table.has("ace_low"):
            raise Invalid(
                table.path("ace_low"),
                f"the deck is stripped ({label}): say whether the ace may play below "
                f"{deck.ranks[0].symbol} in a straight (true or false)",
            )
        if not table.has("flush_beats_full_house") and not table.has("order"):
            raise Invalid(
                table.path("flush_beats_full_house"),
                f"the deck is stripped ({label}): say whether a flush beats a full house (or "
                "give the whole order)",
            )
    ace_low = table.boolean("ace_low", True)
    order: tuple[Shape, ...] = STANDARD_ORDER
    if table.has("order"):
        if table.has("flush_beats_full_house"):
            raise Invalid(
                table.path("flush_beats_full_house"),
                "the order says where a flush stands: give one or the other",
            )
        order = _order(table.require("order"), table.path("order"))
    elif table.boolean("flush_beats_full_house", False):
        order = FLUSH_OVER_FULL_HOUSE
    role = JokerRole.NONE
    if table.has("jokers"):
        if not deck.jokers:
            raise Invalid(table.path("jokers"), "the deck holds no jokers (deck.jokers)")
        named = read_choice(table.require("jokers"), table.path("jokers"), _JokerName)
        role = JokerRole.WILD if named is _JokerName.WILD else JokerRole.BUG
    elif deck.jokers:
        raise Invalid(
            table.path("jokers"),
            f"the deck holds {deck.jokers} joker(s): say what a joker is, 'wild' or 'bug'",
        )
    wild_ranks: frozenset[Rank] = frozenset()
    if table.has("wild_ranks"):
        wild_ranks = frozenset(read_ranks(table.require("wild_ranks"), table.path("wild_ranks")))
        missing = sorted(wild_ranks - set(deck.ranks))
        if missing:
            raise Invalid(
                table.path("wild_ranks"), f"{missing[0].symbol} is not a rank of the deck"
            )
    wild_cards: frozenset[Card] = frozenset()
    if table.has("wild_cards"):
        where = table.path("wild_cards")
        text = read_string(table.require("wild_cards"), where)
        try:
            wild_cards = frozenset(parse_cards(text))
        except ValueError as err:
            raise Invalid(where, str(err)) from None
        if any(card >= FIRST_JOKER or Rank(card >> 2) not in deck.ranks for card in wild_cards):
            raise Invalid(where, "names a card the deck does not hold (jokers go in 'jokers')")
    double_ace = table.boolean("double_ace_flush", False)
    adds_to = table.integer("adds_to", 0, LOWEST_TOTAL, HIGHEST_TOTAL)
    if adds_to and deck.jokers:
        raise Invalid(
            table.path("adds_to"), "wild cards made by addition are not defined with jokers"
        )
    name = table.string("name", game_name)
    needed = needed or bool(
        not deck.standard
        or not ace_low
        or order != STANDARD_ORDER
        or wild_ranks
        or wild_cards
        or double_ace
        or adds_to
    )
    if not needed:
        if table.has("name"):
            raise Invalid(table.path("name"), "names a ranking system, and this half has none")
        return None
    try:
        return RankingSystem(
            name=name,
            ranks=deck.ranks,
            ace_low=ace_low,
            order=order,
            jokers=role,
            joker_count=deck.jokers,
            wild_ranks=wild_ranks,
            wild_cards=wild_cards,
            double_ace_flush=double_ace,
            adds_to=adds_to,
        )
    except ValueError as err:
        raise Invalid(table.prefix, str(err)) from None


def _order(value: object, path: str) -> tuple[Shape, ...]:
    """``order``: category names weakest first; five of a kind on top unless listed."""
    names = read_list(value, path)
    shapes: list[Shape] = []
    for i, name in enumerate(names):
        where = f"{path}[{i}]"
        text = read_string(name, where)
        shape = SHAPES_BY_LABEL.get(text)
        if shape is None:
            allowed = ", ".join(map(repr, SHAPES_BY_LABEL))
            raise Invalid(where, f"must be one of {allowed}; got {echo(text)}")
        if shape in shapes:
            raise Invalid(where, f"{text!r} is listed twice")
        shapes.append(shape)
    if Shape.FIVE_OF_A_KIND not in shapes:
        shapes.append(Shape.FIVE_OF_A_KIND)
    missing = [s.label for s in STANDARD_ORDER if s not in shapes]
    if missing:
        raise Invalid(path, f"lists every category once; missing {', '.join(missing)}")
    if shapes[0] is not Shape.HIGH_CARD:
        raise Invalid(path, "high card is the weakest category: list it first")
    return tuple(shapes)
