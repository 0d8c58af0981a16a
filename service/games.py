"""The game registry and game-file checking as the API's messages (GameService).

Only the engine's public names are used: the registry (:mod:`simulations.engine.variants`),
the game-file reader (:mod:`simulations.engine.gamefile`), the phases' readable lines, and a
guts game's rules (:mod:`simulations.engine.guts_game`) with their readable lines
(:func:`simulations.engine.guts_history.describe_guts_game`).  Poker games and games of guts
both: a poker game is described by its phases, forced bets and exhaustion rule, a game of guts
by its guts rules (``Game.guts``), and ``GameSummary.kind`` says which.
"""

from __future__ import annotations

from service.api.cardroom.v1 import game_service_pb2 as game_pb
from simulations.engine.game import GameDefinition
from simulations.engine.gamefile import parse_any_game_text
from simulations.engine.guts_game import DealerRule, Declaring, GutsDeal, GutsGame, PotRule
from simulations.engine.guts_history import describe_guts_game
from simulations.engine.phases import describe_phase
from simulations.engine.variants import VARIANTS, Variant
from simulations.evaluators.small_hands import TwoCardCategory
from simulations.spec import echo

# A game file is a page of settings; the API refuses more than this before parsing.
MAX_GAME_TEXT_BYTES = 64 * 1024
# What a game file's errors call the request's text (the request field).
TEXT_FIELD = "text"


class GameNotFound(LookupError):
    """No built-in game has the code; the message names it (quoted, shortened)."""


def summary_message(found: Variant) -> game_pb.GameSummary:
    """A game as one line of ``cardroom games``: the same labels, the players as numbers,
    and the game's kind ("poker" or "guts")."""
    definition = found.definition
    labels = found.summary()
    return game_pb.GameSummary(
        code=found.code,
        name=found.name,
        min_players=definition.min_players,
        max_players=definition.max_players,
        deck=labels["deck"],
        structure=labels["structure"],
        showdown=labels["showdown"],
        kind=found.kind.value,
    )


def guts_categories(guts: GutsGame) -> list[str]:
    """The hand categories of ``guts``' ranking, best first (two-card hands without
    straights and flushes have only pairs and high cards)."""
    if guts.cards == 3:
        return [category.label for category in reversed(guts.order.categories)]
    counted = [
        category
        for category in TwoCardCategory
        if guts.straights_and_flushes
        or category in (TwoCardCategory.PAIR, TwoCardCategory.HIGH_CARD)
    ]
    return [category.label for category in sorted(counted, reverse=True)]


def guts_message(guts: GutsGame) -> game_pb.GameGuts:
    """A guts game's rules: its readable lines (as ``cardroom games show`` prints them) and
    the choices of its definition, each as the file gives it; a choice that means nothing
    under the others is left empty, as a file leaves it out."""
    in_turn = guts.declaring is Declaring.IN_TURN
    return game_pb.GameGuts(
        rules=[f"{heading}: {line}" for heading, line in describe_guts_game(guts)],
        cards=guts.cards,
        down_cards=guts.down_cards,
        ranking=guts_categories(guts),
        ranking_order=guts.order.value if guts.cards == 3 else "",
        straights_and_flushes=guts.straights_and_flushes,
        deal=guts.deal.value,
        last_card=guts.last_card.value if in_turn and guts.deal is GutsDeal.LAST_CARD_UP else "",
        declaring=guts.declaring.value,
        dealer=guts.dealer.value,
        dealer_without_pair=(
            guts.dealer_without_pair.value if guts.dealer is DealerRule.PAIR_TO_WIN_ALONE else ""
        ),
        ante=guts.ante,
        pot_rule=guts.pot_rule.value,
        worst_hand_pays=(
            guts.worst_hand_pays.value if guts.pot_rule is PotRule.WORST_HAND_DOUBLES else ""
        ),
        vicious_payers=guts.vicious_payers.value if guts.pot_rule is PotRule.VICIOUS else "",
        cap=guts.cap,
        set_aside=guts.set_aside.value if guts.cap is not None else "",
        nobody_in=guts.nobody_in.value,
        odd_chips=guts.odd_chips.value,
    )


def poker_message(summary: game_pb.GameSummary, game: GameDefinition) -> game_pb.Game:
    """A poker game in full: its phases as readable lines, forced bets, exhaustion."""
    forced = game.forced
    return game_pb.Game(
        summary=summary,
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


def game_message(found: Variant) -> game_pb.Game:
    """A game in full: its summary, then a poker game's phases, forced bets and exhaustion,
    or a guts game's rules."""
    summary = summary_message(found)
    definition = found.definition
    if isinstance(definition, GutsGame):
        return game_pb.Game(summary=summary, guts=guts_message(definition))
    return poker_message(summary, definition)


def all_games() -> list[game_pb.GameSummary]:
    """Every built-in game, poker and guts, in the registry's order (``cardroom games``')."""
    return [summary_message(found) for found in VARIANTS.values()]


def built_in_game(code: str) -> game_pb.Game:
    """The built-in game of ``code``, poker or guts; :class:`GameNotFound` naming the code
    otherwise."""
    found = VARIANTS.get(code)
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
    """The game, poker or guts (``kind = "guts"``), a game file's text defines;
    :class:`GameFileError` naming the field (``text: showdown.halves[0].ranking: ...``,
    ``text: pot.rule: ...``) when the engine cannot play it."""
    return game_message(Variant.from_entry(parse_any_game_text(text, TEXT_FIELD)))
