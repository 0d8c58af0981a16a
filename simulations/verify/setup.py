"""A scenario's table (its file's defaults and any PHH hand already merged in) made into a
:class:`~simulations.verify.model.Scenario`: the game with the house's options, the stakes
and forced bets, the seats, the cards and the action lines.

The house's ``options`` are a partial game file laid over the game's own file, and the whole
is read by the game-file reader, so an unknown option or a value out of range is refused
naming its key.  The stakes keys are PHH's (:func:`~simulations.phh.stakes.lay_stakes`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from simulations.cards import Card, format_card, parse_cards
from simulations.engine.forced import Post
from simulations.engine.game import GameDefinition
from simulations.engine.gamefile import GameFileError, parse_game
from simulations.engine.phases import cards_held
from simulations.engine.showdown import HandRanking
from simulations.engine.variants import variant
from simulations.phh.lines import Line, LineError, Unplayable, deck_order, parse_line
from simulations.phh.stakes import HandStakes, StakesError, lay_stakes
from simulations.rules.jackpot import BadBeatRules
from simulations.spec import echo
from simulations.verify.expect_read import read_expect
from simulations.verify.fields import ScenarioError, Table, player_name, player_seat
from simulations.verify.files import deep_merge, resolve
from simulations.verify.jackpot import BOARD_CARDS, HOLE_CARDS, JackpotRules
from simulations.verify.model import Scenario
from simulations.verify.phh_seed import PHH_INFORMATION
from simulations.verify.seating import read_seating

MAX_GAME_FILE_BYTES = 256 * 1024

# A kill blind's size (Rules 002_376df91f076a6501.txt, 'Kill game'): a full kill posts twice
# the big blind and doubles the limits; 'a half kill' plays a $4/$8 game 'at a $6/$12 limit'.
KILL_SIZES = {"full": Fraction(2), "half": Fraction(3, 2)}

# The stakes key a refusal of the game's forced bets names, by a word of its message.
_FORCED_FIELDS = (("blind", "blinds_or_straddles"), ("ante", "antes"), ("bring-in", "bring_in"))


def build_scenario(data: Mapping[str, Any], source: str, name: str, base: Path | None) -> Scenario:
    """The scenario of ``data``, read from ``source`` (whose paths are relative to ``base``;
    None: it may name no files); :class:`ScenarioError` naming the key."""
    top = Table(data, "")
    top.raw("name")
    covers = top.strings("covers") or ()
    for key in data:
        if key.startswith("_") or (key in PHH_INFORMATION and key != "ante_trimming_status"):
            top.raw(key)  # PHH's information and user fields: kept, never checked
    game_base = _game(top, base)
    stacks = top.integers("starting_stacks", low=1)
    if stacks is None:
        raise ScenarioError("starting_stacks", "is required: one stack a player")
    players = len(stacks)
    if not game_base.min_players <= players <= game_base.max_players:
        low, high = game_base.min_players, game_base.max_players
        raise ScenarioError(
            "starting_stacks", f"{players} players: {game_base.name} takes {low} to {high}"
        )
    seating = read_seating(top, game_base, players)
    button_name = top.raw("button")
    button = players - 1 if button_name is None else player_seat(button_name, "button", players)
    if seating is not None:
        button = seating.button
    game, straddles = _stakes(top, game_base, players, button)
    posts = _posts(top, players)
    kill = _kill(top, players)
    lines = _lines(top, players)
    refusal = refused_setup_phrase(data)
    if refusal is not None and lines:
        raise ScenarioError(
            "actions", "a scenario whose setup is refused (expect.refused_setup) plays no lines"
        )
    deck, seed = _cards(top, game, players, button, lines, any_source=refusal is not None)
    finishing = top.numbers("finishing_stacks")
    jackpot = _jackpot(top.optional_table("jackpot"), game)
    expect = read_expect(top.optional_table("expect"), finishing, players)
    if expect.jackpot is not None and jackpot is None:
        raise ScenarioError("expect.jackpot", "the scenario has no jackpot table to judge")
    wants_pays = expect.jackpot is not None and expect.jackpot.pays is not None
    if wants_pays and (jackpot is None or jackpot.amount is None):
        raise ScenarioError("expect.jackpot.pays", "needs the jackpot's amount (jackpot.amount)")
    top.finish()
    return Scenario(
        file=source,
        name=name,
        covers=covers,
        game=game,
        stacks=stacks,
        button=button,
        straddles=straddles,
        posts=posts,
        kill=kill,
        deck=deck,
        seed=seed,
        lines=lines,
        jackpot=jackpot,
        expect=expect,
        blind_seats=None if seating is None else seating.blind_seats,
    )


# --- the game ----------------------------------------------------------------------------------


def _game(top: Table, base: Path | None) -> GameDefinition:
    """The game (a registry code or a game file) with the house's ``options`` laid over it."""
    code = top.optional_string("game")
    game_file = top.optional_string("game_file")
    phh_code = top.optional_string("variant")
    options = top.optional_table("options")
    if code is not None and game_file is not None:
        raise ScenarioError("game_file", "give a game code (game) or a game file, not both")
    code_field = "game"
    if code is None and game_file is None:
        if phh_code is None:
            raise ScenarioError("game", "is required: a game code, a game_file, or PHH's variant")
        code, code_field = phh_code, "variant"
    elif code is not None and phh_code is not None and phh_code != code:
        raise ScenarioError("variant", f"{echo(phh_code)} is not the scenario's game {echo(code)}")
    if code is not None:
        try:
            found = variant(code)
        except ValueError as error:
            raise ScenarioError(code_field, str(error)) from None
        source = f"game {code}"
        data = _read_toml(Path(found.source), code_field)
    else:
        assert game_file is not None
        path = resolve(base, game_file, "game_file")
        source = f"game_file {game_file}"
        data = _read_toml(path, "game_file")
    changes = options.mapping if options is not None else {}
    if options is not None:
        for key in options.mapping:
            options.raw(key)  # the game-file reader checks every option
    try:
        return parse_game(deep_merge(data, changes), source).game
    except GameFileError as error:
        touched = error.field.split(".", 1)[0].split("[", 1)[0]
        if changes and (touched in changes or not error.field):
            field = f"options.{error.field}" if error.field else "options"
        else:
            field = code_field if code is not None else "game_file"
            if error.field:
                field = f"{field} ({source}: {error.field})"
        raise ScenarioError(field, error.problem) from None


def _read_toml(path: Path, field: str) -> dict[str, Any]:
    try:
        raw = path.read_bytes()[: MAX_GAME_FILE_BYTES + 1]
    except OSError as error:
        raise ScenarioError(field, f"cannot read {path}: {error.strerror or error}") from None
    if len(raw) > MAX_GAME_FILE_BYTES:
        raise ScenarioError(field, f"{path} is larger than {MAX_GAME_FILE_BYTES:,} bytes")
    try:
        return tomllib.loads(raw.decode("utf-8").removeprefix("\ufeff"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError, RecursionError) as error:
        raise ScenarioError(field, f"{path} is not a TOML game file: {error}") from None


def _stakes(
    top: Table, base: GameDefinition, players: int, button: int
) -> tuple[GameDefinition, tuple[tuple[int, int], ...]]:
    """PHH's stakes and forced bets laid on the game, and the straddles as (seat, total).

    ``blinds_or_straddles`` has one entry a player from p1; the blinds are posted from the
    button's left, so the list is read from there (the same list when the button is on the
    last player, as PHH seats it).  In a game of three blinds the entries of the three seats
    that post them are the blinds (:func:`_three_blinds`)."""
    raw_antes = top.raw("antes")
    antes: tuple[int, ...] | None
    if raw_antes is None or isinstance(raw_antes, list):
        antes = top.integers("antes", low=0)
    else:
        antes = Table({"antes": [raw_antes]}, "").integers("antes", low=0) or (0,)
    if top.optional_boolean("ante_trimming_status") and antes is not None and any(antes):
        raise ScenarioError(
            "ante_trimming_status", "antes trimmed to the shortest stack are not played: false"
        )
    blinds = top.integers("blinds_or_straddles", low=0)
    rotated: tuple[int, ...] | None = None
    three: tuple[int, ...] | None = None
    if blinds is not None:
        if len(blinds) > players:
            raise ScenarioError(
                "blinds_or_straddles", f"{len(blinds)} entries for {players} players"
            )
        padded = [*blinds, *[0] * (players - len(blinds))]
        if len(base.forced.blinds) == 3:
            three = _three_blinds(base, padded, button)
        else:
            rotated = tuple(padded[(button + 1 + k) % players] for k in range(players))
    stakes = HandStakes(
        antes=antes,
        blinds_or_straddles=rotated,
        bring_in=top.optional_integer("bring_in", low=0),
        small_bet=top.optional_integer("small_bet", low=1),
        big_bet=top.optional_integer("big_bet", low=1),
        min_bet=top.optional_integer("min_bet", low=1),
    )
    try:
        game, straddles = lay_stakes(base, stakes, players, button)
    except StakesError as error:
        raise ScenarioError(error.field, error.problem) from None
    except ValueError as error:  # the forced bets refused as the game's (blinds in stud, ...)
        problem = str(error)
        field = next(
            (key for word, key in _FORCED_FIELDS if word in problem), "blinds_or_straddles"
        )
        raise ScenarioError(field, problem) from None
    if three is not None:
        try:
            game = replace(game, forced=replace(game.forced, blinds=three))
        except ValueError as error:
            raise ScenarioError("blinds_or_straddles", str(error)) from None
    return game, tuple(((button + 1 + k) % players, total) for k, total in straddles)


def _three_blinds(base: GameDefinition, padded: list[int], button: int) -> tuple[int, ...]:
    """The three blinds of a three-blind game from ``blinds_or_straddles`` (one entry a
    player from p1): the entries of the three seats that post them, in posting order.

    Rules 002_376df91f076a6501.txt, 'Blinds': 'In the case of three blinds (usually one
    quarter, one quarter, and half a normal bet amount), the first blind goes "on the
    button", that is, is paid by the dealer' — so the button and the two players on his
    left post, where the game puts the first blind on the button (as Q-Ball does), and
    otherwise the three players left of the button.  No other player posts: three blinds
    take no straddle."""
    players = len(padded)
    first = button if base.forced.first_blind_on_button else (button + 1) % players
    seats = [(first + k) % players for k in range(3)]
    for seat, amount in enumerate(padded):
        if amount and seat not in seats:
            posters = ", ".join(player_name(s) for s in seats)
            raise ScenarioError(
                f"blinds_or_straddles[{seat}]",
                f"{player_name(seat)} posts no blind: the three blinds are {posters}'s "
                "(a three-blind game takes no straddle)",
            )
    amounts = tuple(padded[seat] for seat in seats)
    for seat, amount in zip(seats, amounts, strict=True):
        if amount == 0:
            raise ScenarioError(
                f"blinds_or_straddles[{seat}]",
                f"{player_name(seat)} posts one of the three blinds: it cannot be 0",
            )
    return amounts


def _posts(top: Table, players: int) -> tuple[Post, ...]:
    """``posts``: new and returning players posting to come in (Rules
    002_376df91f076a6501.txt, 'Post'), each ``{ player = "pN" }`` (the big blind, live) or
    with ``missed_small_blind = true`` (the small blind as well, dead)."""
    found: list[Post] = []
    for table in top.tables("posts"):
        name = table.raw("player")
        if name is None:
            raise ScenarioError(table.path("player"), "is required: the player who posts")
        seat = player_seat(name, table.path("player"), players)
        missed = table.optional_boolean("missed_small_blind")
        table.finish()
        if any(post.seat == seat for post in found):
            raise ScenarioError(table.path("player"), f"{name} posts once")
        found.append(Post(seat, missed_small_blind=bool(missed)))
    return tuple(found)


def _kill(top: Table, players: int) -> tuple[int, Fraction] | None:
    """``kill``: the player who posts a kill blind this hand, and its ``size`` (``"full"``,
    the default, or ``"half"``)."""
    table = top.optional_table("kill")
    if table is None:
        return None
    name = table.raw("player")
    if name is None:
        raise ScenarioError(table.path("player"), "is required: the player who posts the kill")
    seat = player_seat(name, table.path("player"), players)
    size = table.optional_string("size") or "full"
    if size not in KILL_SIZES:
        raise ScenarioError(table.path("size"), f"{echo(size)} is not a kill's size: full or half")
    table.finish()
    return seat, KILL_SIZES[size]


def refused_setup_phrase(data: Mapping[str, Any]) -> str | None:
    """``expect.refused_setup`` as written, when it is a string (the reader checks it)."""
    expect = data.get("expect")
    phrase = expect.get("refused_setup") if isinstance(expect, Mapping) else None
    return phrase if isinstance(phrase, str) else None


# --- the cards and the actions -------------------------------------------------------------------


def _lines(top: Table, players: int) -> tuple[Line, ...]:
    texts = top.strings("actions") or ()
    lines = []
    for index, text in enumerate(texts):
        try:
            lines.append(parse_line(text, players))
        except LineError as error:
            raise ScenarioError(f"actions[{index}]", str(error)) from None
    return tuple(lines)


def _cards(
    top: Table,
    game: GameDefinition,
    players: int,
    button: int,
    lines: tuple[Line, ...],
    *,
    any_source: bool = False,
) -> tuple[tuple[Card, ...] | None, int | None]:
    """The deck order (from the dealing lines or ``deck``) or the shuffle's seed: exactly
    one of the three (``any_source``: none is needed either, a hand whose setup is to be
    refused then being dealt from seed 0)."""
    seed = top.optional_integer("seed", low=0)
    deck_text = top.optional_string("deck")
    dealing = any(line.by_dealer for line in lines)
    given = [
        key
        for key, present in (
            ("actions (d dh / d db lines)", dealing),
            ("deck", deck_text is not None),
            ("seed", seed is not None),
        )
        if present
    ]
    if any_source and not given:
        return None, 0
    if len(given) != 1:
        what = " and ".join(given) if given else "none of them"
        raise ScenarioError(
            "deck" if deck_text is not None else "seed" if seed is not None else "actions",
            f"the cards come from exactly one of the dealing lines of actions, deck or seed; "
            f"this scenario gives {what}",
        )
    if seed is not None:
        return None, seed
    if deck_text is not None:
        return _deck(deck_text, game), None
    try:
        return deck_order(game, players, button, lines), None
    except Unplayable as error:
        raise ScenarioError("actions", f"the dealing lines cannot be dealt: {error}") from None


def _deck(text: str, game: GameDefinition) -> tuple[Card, ...]:
    """``deck``: the top of the deck, the cards not named following in the pack's order."""
    try:
        top = parse_cards(text)
    except ValueError as error:
        raise ScenarioError("deck", str(error)) from None
    pack = game.deck.deck().cards
    in_pack = set(pack)
    for card in top:
        if card not in in_pack:
            raise ScenarioError(
                "deck", f"{format_card(card)} is not a card of {game.name}'s {game.deck.label} deck"
            )
    named = set(top)
    return (*top, *(card for card in pack if card not in named))


def _jackpot(table: Table | None, game: GameDefinition) -> JackpotRules | None:
    """``jackpot``: the qualifiers as :class:`BadBeatRules` checks them, the amount and the
    shares (per cent; the usual half, quarter and quarter by default)."""
    if table is None:
        return None
    losing = table.optional_string("min_losing_hand")
    winning = table.optional_string("min_winning_hand")
    hole = table.optional_integer("hole_cards_play")
    quads = table.optional_boolean("quads_need_pocket_pair")
    trips = table.optional_boolean("board_trips_full_house")
    defaults = BadBeatRules()
    checks: tuple[tuple[str, dict[str, Any]], ...] = (
        ("min_losing_hand", {"min_losing_hand": losing or defaults.min_losing_hand}),
        ("min_winning_hand", {"min_winning_hand": winning}),
        (
            "hole_cards_play",
            {"hole_cards_play": defaults.hole_cards_play if hole is None else hole},
        ),
    )
    for key, values in checks:
        try:
            BadBeatRules(**values)
        except ValueError as error:
            raise ScenarioError(table.path(key), str(error)) from None
    qualifiers = BadBeatRules(
        min_losing_hand=losing or defaults.min_losing_hand,
        min_winning_hand=winning,
        hole_cards_play=defaults.hole_cards_play if hole is None else hole,
        quads_need_pocket_pair=defaults.quads_need_pocket_pair if quads is None else quads,
        board_trips_full_house=defaults.board_trips_full_house if trips is None else trips,
    )
    amount = table.optional_integer("amount", low=0)
    shares = table.optional_table("shares")
    parts = {"loser": 50, "winner": 25, "table": 25}
    if shares is not None:
        for key in parts:
            value = shares.optional_integer(key, low=0)
            if value is not None:
                parts[key] = value
        shares.finish()
    table.finish()
    if sum(parts.values()) > 100 or any(v > 100 for v in parts.values()):
        raise ScenarioError(table.path("shares"), f"{sum(parts.values())} per cent: 100 at most")
    held, board = cards_held(game.phases)
    halves = game.showdown.halves
    holdem = (
        (held, board) == (HOLE_CARDS, BOARD_CARDS)
        and len(halves) == 1
        and halves[0].ranking is HandRanking.HIGH
        and halves[0].system is None
        and game.deck.deck().size == 52
    )
    if not holdem:
        raise ScenarioError(
            "jackpot",
            f"a bad-beat jackpot is judged in hold'em games (two hole cards, a five-card board, "
            f"high hands, 52 cards); {game.name} is not one",
        )
    return JackpotRules(qualifiers, amount, parts["loser"], parts["winner"], parts["table"])
