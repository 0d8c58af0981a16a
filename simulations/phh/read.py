"""Reading PHH files: ``.phh`` (one hand) and ``.phhs`` (several, as tables ``[1]``, ...).

Every hand is checked as it is read, and a :class:`~simulations.phh.model.PhhError` names the
file, the hand and the field of the first problem: a field missing or of the wrong type, a
variant the registry does not have, an action line that cannot be read (the token named), a
card dealt while it is still in play, or more cards in play than the deck holds.  Whether the
actions are in turn is found when the hand is replayed (:mod:`simulations.phh.replay`).

A ``.phhs`` file is read hand by hand: a hand that cannot be read does not stop the others.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulations.cards import format_card
from simulations.checked import boolean_value, integer_value, list_value, string_value
from simulations.engine.game import GameDefinition
from simulations.engine.limits import Limit
from simulations.engine.variants import POKER_VARIANTS
from simulations.phh import toml_subset
from simulations.phh.lines import (
    BET_OR_RAISE,
    CHECK_OR_CALL,
    DEAL_BOARD,
    DEAL_HOLE,
    DRAW,
    FOLD,
    MAX_CHIPS,
    SHOW,
    Line,
    LineError,
    LineMemo,
    cards_of,
    pack_of,
    parse_lines,
    player_name,
)
from simulations.phh.model import OWN_FIELDS, Number, PhhError, PhhHand

SINGLE = ".phh"
SEVERAL = ".phhs"
_OWN_FIELDS = frozenset(OWN_FIELDS)


@dataclass(frozen=True, init=False)  # its own __init__: see simulations.phh.lines.Line
class ReadHand:
    """One hand of a file as read: the hand, or the error that kept it from being read;
    ``name`` as reports give it (``F7S.phhs#12``, or the file)."""

    name: str
    section: str | None
    hand: PhhHand | None = None
    error: PhhError | None = None

    def __init__(
        self,
        name: str,
        section: str | None,
        hand: PhhHand | None = None,
        error: PhhError | None = None,
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "section", section)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "error", error)


@dataclass(frozen=True, init=False)  # its own __init__: see simulations.phh.lines.Line
class ReadFile:
    """Every hand of one file; ``error`` when the file itself cannot be read (no hands)."""

    path: str
    hands: tuple[ReadHand, ...] = ()
    error: PhhError | None = None

    def __init__(
        self, path: str, hands: tuple[ReadHand, ...] = (), error: PhhError | None = None
    ) -> None:
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "error", error)


def read_file(path: str | Path, memo: LineMemo | None = None) -> ReadFile:
    """A ``.phh`` or ``.phhs`` file, hand by hand (never raises for what is in the file);
    ``memo`` keeps the action lines read for the other files of a run."""
    source = str(path)
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except OSError as error:
        return ReadFile(source, error=PhhError(source, None, "", f"cannot be read: {error}"))
    except UnicodeDecodeError as error:
        return ReadFile(source, error=PhhError(source, None, "", f"is not UTF-8 text: {error}"))
    return read_text(text, source, several=source.endswith(SEVERAL), memo=memo)


def read_text(text: str, source: str, *, several: bool, memo: LineMemo | None = None) -> ReadFile:
    """The hands of a file's text: one hand of top-level fields, or, ``several``, one hand
    per table."""
    try:
        document = toml_subset.loads(text)
    except tomllib.TOMLDecodeError as error:
        return ReadFile(source, error=PhhError(source, None, "", f"is not valid TOML: {error}"))
    except RecursionError:  # tomllib reads nested arrays and tables by recursion
        return ReadFile(
            source, error=PhhError(source, None, "", "is not valid TOML: nested too deeply")
        )
    if not several:
        # A user-defined field may be a table; a file of nothing but tables is several hands.
        if document and all(isinstance(value, dict) for value in document.values()):
            first = next(iter(document))
            problem = f"a {SINGLE} file holds one hand; [{first}] is a table (use {SEVERAL})"
            return ReadFile(source, error=PhhError(source, None, "", problem))
        return ReadFile(source, (_read_one(document, source, None, memo),))
    loose = [key for key, value in document.items() if not isinstance(value, dict)]
    if loose:
        problem = f"in a {SEVERAL} file every hand is a table ([1], [2], ...); {loose[0]} is not"
        return ReadFile(source, error=PhhError(source, None, loose[0], problem))
    if not document:
        return ReadFile(source, error=PhhError(source, None, "", "holds no hand"))
    hands = tuple(_read_one(table, source, key, memo) for key, table in document.items())
    return ReadFile(source, hands)


def _read_one(
    table: dict[str, Any], source: str, section: str | None, memo: LineMemo | None
) -> ReadHand:
    try:
        hand = hand_from_fields(table, source, section, memo)
    except PhhError as error:
        hand_name = source if section is None else f"{_file_name(source)}#{section}"
        return ReadHand(hand_name, section, error=error)
    return ReadHand(hand.name, section, hand=hand)


def _file_name(source: str) -> str:
    return source.replace("\\", "/").rsplit("/", 1)[-1]


def load(path: str | Path) -> PhhHand:
    """The one hand of a ``.phh`` file (the first of a ``.phhs``); PhhError if it cannot be
    read."""
    return load_all(path)[0]


def load_all(path: str | Path) -> tuple[PhhHand, ...]:
    """Every hand of a file; PhhError for the first that cannot be read."""
    return _hands(read_file(path))


def loads(text: str, source: str = "<text>", *, several: bool = False) -> tuple[PhhHand, ...]:
    """Every hand of a PHH text; PhhError for the first that cannot be read."""
    return _hands(read_text(text, source, several=several))


def _hands(read: ReadFile) -> tuple[PhhHand, ...]:
    if read.error is not None:
        raise read.error
    for entry in read.hands:
        if entry.error is not None:
            raise entry.error
    return tuple(entry.hand for entry in read.hands if entry.hand is not None)


# --- one hand ---------------------------------------------------------------------------


class _Fields:
    """The checks of one hand's fields, each error naming the file, hand and field: the
    shared value checks of :mod:`simulations.checked` raising :class:`PhhError`, and chips.
    Every other field of a hand is kept as written (``extra``), so no key is refused."""

    def __init__(self, table: dict[str, Any], source: str, section: str | None) -> None:
        self.table = table
        self.source = source
        self.section = section

    def error(self, field: str, problem: str) -> PhhError:
        return PhhError(self.source, self.section, field, problem)

    def required(self, field: str) -> Any:
        if field not in self.table:
            raise self.error(field, "missing")
        return self.table[field]

    def chips(self, field: str, value: Any, *, positive: bool = False) -> int:
        """A whole number of chips (a whole decimal is taken as one)."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.error(field, f"{value!r} is not a number of chips")
        if isinstance(value, float):
            if not value.is_integer():
                raise self.error(field, f"{value!r} is not a whole number of chips")
            value = int(value)
        if value < 0 or (positive and value == 0):
            raise self.error(field, f"{value} must be {'positive' if positive else 'at least 0'}")
        if value > MAX_CHIPS:
            raise self.error(field, f"{_size(value)} is more than {MAX_CHIPS:,} chips")
        return int(value)

    def optional_chips(self, field: str, *, positive: bool = False) -> int | None:
        value = self.table.get(field)
        return None if value is None else self.chips(field, value, positive=positive)

    def array(self, field: str, value: Any, players: int | None) -> list[Any]:
        # A list, the common case, is passed without a call.
        items: list[Any] = value if type(value) is list else list_value(value, field, self.error)
        if players is not None and len(items) != players:
            raise self.error(field, f"{len(items)} entries for {players} players")
        return items

    def chip_array(
        self, field: str, players: int | None, *, positive: bool = False
    ) -> tuple[int, ...]:
        values = self.array(field, self.table[field], players)
        if (
            values
            and all(type(v) is int for v in values)
            and int(positive) <= min(values)
            and max(values) <= MAX_CHIPS
        ):
            return tuple(values)  # whole numbers already: nothing to check one by one
        return tuple(
            self.chips(f"{field}[{i}]", value, positive=positive) for i, value in enumerate(values)
        )

    def flag(self, field: str) -> bool | None:
        value = self.table.get(field)
        if value is None or type(value) is bool:  # the common cases, without a call
            return value
        return boolean_value(value, field, self.error)

    def strings(self, field: str, value: Any, players: int | None) -> list[str]:
        items = self.array(field, value, players)
        for index, item in enumerate(items):
            if not isinstance(item, str):  # the common case passed without a call
                string_value(item, f"{field}[{index}]", None, self.error)
        return items


def _size(value: int | float) -> str:
    """A number too big to print whole, by its digits."""
    if isinstance(value, int) and value >= 10**18:
        return f"a {len(str(value)):,}-digit number"
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


def hand_from_fields(
    table: dict[str, Any],
    source: str = "<text>",
    section: str | None = None,
    memo: LineMemo | None = None,
) -> PhhHand:
    """One hand from its TOML fields, checked (:class:`PhhError` naming the first problem)."""
    fields = _Fields(table, source, section)
    code = fields.required("variant")
    if type(code) is not str:  # only a wrong value is passed to the shared check
        code = string_value(code, "variant", None, fields.error)
    found = POKER_VARIANTS.get(code)
    if found is None:
        raise fields.error(
            "variant", f"{code!r} is not a variant PHH defines or a game of the registry"
        )
    game = found.game()
    fields.required("starting_stacks")
    starting = fields.chip_array("starting_stacks", None, positive=True)
    players = len(starting)
    if players < 2:
        raise fields.error("starting_stacks", f"{players} players: a hand needs two or more")
    actions = fields.strings("actions", fields.required("actions"), None)
    antes = _antes(fields, players)
    blinds = (
        fields.chip_array("blinds_or_straddles", players)
        if table.get("blinds_or_straddles") is not None
        else None
    )
    finishing = _finishing(fields, players)
    players_names = _names(fields, players)
    hand_number = table.get("hand")
    if hand_number is not None and type(hand_number) is not int:
        integer_value(hand_number, "hand", error=fields.error)
    bring_in = fields.optional_chips("bring_in")
    small_bet = fields.optional_chips("small_bet", positive=True)
    big_bet = fields.optional_chips("big_bet", positive=True)
    min_bet = fields.optional_chips("min_bet", positive=True)
    values: dict[str, Any] = {
        "antes": antes,
        "blinds_or_straddles": blinds,
        "bring_in": bring_in,
        "small_bet": small_bet,
        "big_bet": big_bet,
        "min_bet": min_bet,
    }
    _require_stakes(fields, game, values)
    try:
        lines = parse_lines(actions, players, memo=memo)
    except LineError as error:
        field, _, problem = str(error).partition(": ")
        raise fields.error(field, problem) from None
    check_cards(fields, game, lines, players)
    return PhhHand(
        variant=code,
        starting_stacks=starting,
        actions=tuple(actions),
        ante_trimming_status=fields.flag("ante_trimming_status"),
        finishing_stacks=finishing,
        hand=hand_number,
        players=players_names,
        extra=tuple((key, value) for key, value in table.items() if key not in _OWN_FIELDS),
        source=source,
        section=section,
        lines=lines,
        antes=antes,
        blinds_or_straddles=blinds,
        bring_in=bring_in,
        small_bet=small_bet,
        big_bet=big_bet,
        min_bet=min_bet,
    )


def _antes(fields: _Fields, players: int) -> tuple[int, ...] | None:
    value = fields.table.get("antes")
    if value is None:
        return None
    if not isinstance(value, list):
        # A single number: the same ante for every player.
        return (fields.chips("antes", value),) * players
    return fields.chip_array("antes", players)


def _finishing(fields: _Fields, players: int) -> tuple[Number, ...] | None:
    value = fields.table.get("finishing_stacks")
    if value is None:
        return None
    stacks = fields.array("finishing_stacks", value, players)
    for index, stack in enumerate(stacks):
        if (
            isinstance(stack, bool)
            or not isinstance(stack, int | float)
            or not math.isfinite(stack)
            or stack < 0
        ):
            raise fields.error(f"finishing_stacks[{index}]", f"{stack!r} is not a stack of chips")
        if stack > MAX_CHIPS:
            raise fields.error(
                f"finishing_stacks[{index}]", f"{_size(stack)} is more than {MAX_CHIPS:,} chips"
            )
    return tuple(stacks)


def _names(fields: _Fields, players: int) -> tuple[str, ...] | None:
    value = fields.table.get("players")
    if value is None:
        return None
    return tuple(fields.strings("players", value, players))


def required_stakes(game: GameDefinition) -> tuple[str, ...]:
    """The stakes fields a hand of ``game`` must give (PHH requires them of its variants)."""
    needed = ["antes"]
    if game.forced.blinds:
        needed.append("blinds_or_straddles")
    if game.forced.bring_in:
        needed.append("bring_in")
    needed += ["small_bet", "big_bet"] if game.limit is Limit.FIXED else ["min_bet"]
    return tuple(needed)


def _require_stakes(fields: _Fields, game: GameDefinition, values: dict[str, Any]) -> None:
    """The stakes fields the game needs: no game file's value is taken in silence for a
    field the history leaves out."""
    for name in required_stakes(game):
        if values[name] is None:
            raise fields.error(name, f"missing ({game.name} needs it)")


def check_cards(fields: _Fields, game: GameDefinition, lines: Sequence[Line], players: int) -> None:
    """The cards the lines deal: each a card of the game's deck, none dealt while it is still
    in play (held by a player who has not folded or discarded it, or on the board), never
    more cards in play than the deck holds (hidden cards ``??`` counted too); and the cards a
    player discards or shows are his."""
    pack = pack_of(game)
    in_pack = cards_of(pack)
    where: dict[int, tuple[int, int]] = {}  # card -> (seat or -1 for the board, line index)
    held: list[list[int | None]] = [[] for _ in range(players)]
    in_play = 0
    for index, line in enumerate(lines):
        verb = line.verb
        if verb in (CHECK_OR_CALL, BET_OR_RAISE):
            continue  # no cards: the common case, passed at once
        field = f"actions[{index}]"
        if verb == FOLD:
            for card in held[line.seat]:
                if card is not None:
                    where.pop(card, None)
            in_play -= len(held[line.seat])
            held[line.seat] = []
        elif verb == DRAW and line.cards:
            for card in line.cards:
                if where.get(card, (None,))[0] != line.seat:
                    raise fields.error(
                        field,
                        f"{player_name(line.seat)} discards {format_card(card)}, "
                        "a card not in his hand",
                    )
                del where[card]
                held[line.seat].remove(card)
            in_play -= len(line.cards)
        elif verb == SHOW and line.cards:
            for card in line.cards:
                if where.get(card, (None,))[0] != line.seat:
                    raise fields.error(
                        field,
                        f"{player_name(line.seat)} shows {format_card(card)}, "
                        "a card not in his hand",
                    )
        elif verb in (DEAL_HOLE, DEAL_BOARD):
            count = len(line.cards) if line.cards is not None else _hidden(line)
            for card in line.cards or ():
                if card not in in_pack:
                    raise fields.error(
                        field, f"{format_card(card)} is not a card of {game.name}'s deck"
                    )
                if card in where:
                    seat, first = where[card]
                    holder = "the board" if seat < 0 else player_name(seat)
                    raise fields.error(
                        field,
                        f"{format_card(card)} is dealt again while in play "
                        f"({holder}, actions[{first}])",
                    )
                where[card] = (line.seat, index)
            if verb == DEAL_HOLE:
                held[line.seat].extend(line.cards if line.cards is not None else [None] * count)
            in_play += count
            if in_play > len(pack):
                raise fields.error(
                    field, f"{in_play} cards in play, more than the {len(pack)} of the deck"
                )


def _hidden(line: Line) -> int:
    """How many cards a line hiding them deals (each ``??`` is one)."""
    token = line.text.split("#", 1)[0].split()[-1]
    return max(1, len(token) // 2)
