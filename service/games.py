"""The game registry and game-file checking as the API's messages (GameService).

Only the engine's public names are used: the registry (:mod:`simulations.engine.variants`),
the game-file reader (:mod:`simulations.engine.gamefile`) and the phases' readable lines.
"""

from __future__ import annotations

from service.api.cardroom.v1 import game_service_pb2 as game_pb
from simulations.engine.gamefile import parse_game_text
from simulations.engine.phases import describe_phase
from simulations.engine.variants import GUTS_VARIANTS, POKER_VARIANTS, Variant
from simulations.spec import echo

# A game file is a page of settings; the API refuses more than this before parsing.
MAX_GAME_TEXT_BYTES = 64 * 1024
# What a game file's errors call the request's text (the request field).
TEXT_FIELD = "text"


class GameNotFound(LookupError):
    """No built-in game has the code; the message names it (quoted, shortened)."""


def summary_message(found: Variant) -> game_pb.GameSummary:
    """A game as one line of ``cardroom games``: the same labels, the players as numbers."""
    game = found.game()
    labels = found.summary()
    return game_pb.GameSummary(
        code=found.code,
        name=found.name,
        min_players=game.min_players,
        max_players=game.max_players,
        deck=labels["deck"],
        structure=labels["structure"],
        showdown=labels["showdown"],
    )


def game_message(found: Variant) -> game_pb.Game:
    """A game in full: its summary, its phases as readable lines, forced bets, exhaustion."""
    game = found.game()
    forced = game.forced
    return game_pb.Game(
        summary=summary_message(found),
        phases=[describe_phase(phase) for phase in game.phases],
        forced=game_pb.GameForcedBets(
            ante=forced.ante,
            blinds=list(forced.blinds),
            first_blind_on_button=forced.first_blind_on_button,
            bring_in=forced.bring_in,
            big_blind_ante=forced.big_blind_ante,
        ),
        exhaustion=str(game.exhaustion),
    )


def all_games() -> list[game_pb.GameSummary]:
    """Every built-in poker game (the messages describe poker games: guts has no phases,
    stakes or forced bets to describe)."""
    return [summary_message(found) for found in POKER_VARIANTS.values()]


def built_in_game(code: str) -> game_pb.Game:
    """The built-in game of ``code``; :class:`GameNotFound` naming the code otherwise."""
    found = POKER_VARIANTS.get(code)
    if code in GUTS_VARIANTS:
        raise GameNotFound(
            f"code: {echo(code)} is a guts game; the game service describes poker games"
        )
    if found is None:
        raise GameNotFound(f"code: {echo(code)} is not a built-in game's code (see ListGames)")
    return game_message(found)


def text_problem(text: str) -> str | None:
    """Why ``text`` is refused before it is parsed (empty, too large), or None."""
    if not text:
        return f"{TEXT_FIELD}: is required (the text of a TOML game file)"
    # A character is at most four bytes of UTF-8: count the bytes only when it matters.
    if len(text) * 4 > MAX_GAME_TEXT_BYTES:
        size = len(text.encode("utf-8"))
        if size > MAX_GAME_TEXT_BYTES:
            return f"{TEXT_FIELD}: must be at most {MAX_GAME_TEXT_BYTES:,} bytes, got {size:,}"
    return None


def checked_game(text: str) -> game_pb.Game:
    """The game a game file's text defines; :class:`GameFileError` naming the field
    (``text: showdown.halves[0].ranking: ...``) when the engine cannot play it."""
    return game_message(Variant.from_entry(parse_game_text(text, TEXT_FIELD)))
