"""Which games of the registry the economics jobs' table (bad_beat, rake) deals, read from
each game's definition (:mod:`simulations.engine.capabilities`).

The compiled table (:mod:`simulations.models.table_kernel`) deals hold'em's streets to two
hole cards any of which play, or to Omaha's four of which exactly two play; bets no limit
with two blinds, whose amounts are the job's; shows down one pot to the best high hand from
the 52-card deck; and settles each policy's rake and drop itself.  A game with all of that
is played, whatever its code: today NT and NO.
"""

from __future__ import annotations

from simulations.engine.capabilities import (
    Need,
    high_only,
    holdem_streets,
    hole_cards,
    lacking,
    settings_left_at_defaults,
    standard_deck,
)
from simulations.engine.game import GameDefinition
from simulations.engine.limits import Limit, Stakes
from simulations.engine.variants import Variant
from simulations.evaluators.selection import OMAHA as OMAHA_SELECTION
from simulations.evaluators.selection import TEXAS_HOLDEM
from simulations.models.table_eval import HOLDEM, OMAHA


def evaluator(game: GameDefinition) -> int | None:
    """The table's evaluator of ``game``'s hands: HOLDEM (two hole cards, any playing),
    OMAHA (four, exactly two playing), or None for any other hand."""
    if not holdem_streets(game):
        return None
    if game.selection == TEXAS_HOLDEM and hole_cards(game) == 2:
        return HOLDEM
    if game.selection == OMAHA_SELECTION and hole_cards(game) == 4:
        return OMAHA
    return None


def _two_blinds_only(game: GameDefinition) -> bool:
    forced = game.forced
    return (
        len(forced.blinds) == 2
        and not forced.first_blind_on_button
        and not (forced.ante or forced.bring_in or forced.big_blind_ante)
    )


# What the table reads of a game; every other setting must be at its default.
_READ = frozenset(
    {"name", "phases", "forced", "limit", "stakes", "selection", "showdown", "deck"}
    | {"min_players", "max_players"}
)

TABLE_NEEDS = (
    Need("hold'em's streets (down cards, then flop, turn and river)", holdem_streets),
    Need(
        "two hole cards any of which play, or four of which exactly two play",
        lambda game: evaluator(game) is not None,
    ),
    Need("no-limit betting", lambda game: game.limit is Limit.NO),
    Need(
        "two blinds and no other forced bet (the job sets the blinds)",
        lambda game: _two_blinds_only(game) and game.stakes == Stakes(game.stakes.small_bet),
    ),
    Need("one pot to the best high hand", high_only),
    Need("the 52-card deck", standard_deck),
    Need(
        "no other house setting (each policy brings its rake and drop)",
        lambda game: settings_left_at_defaults(game, _READ),
    ),
)


def table_lacks(found: Variant) -> list[str]:
    """What of :data:`TABLE_NEEDS` the registry game ``found`` lacks (empty: the table deals
    it)."""
    if not isinstance(found.definition, GameDefinition):
        return ["a poker game (this is a guts game)"]
    return lacking(found.definition, TABLE_NEEDS)
