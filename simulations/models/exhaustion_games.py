"""Which games of the registry the exhaustion job deals, and how its players read each
one's cards (its :class:`~simulations.models.exhaustion_policy.Family`), from the game's
definition (:mod:`simulations.engine.capabilities`).

The compiled dealer (:mod:`simulations.models.exhaustion_kernel`) deals plain phases — deals
of down and up cards to each player, betting rounds, draws of up to a fixed number, passes —
from the 52-card deck, and its players read the first cards and draw by one plain ranking:
a stud or Anaconda game's high hand, a draw game's high, deuce-to-seven, ace-to-five or
badugi hand.  A game whose deal and showdown are of that shape is dealt, whatever its code.
"""

from __future__ import annotations

from simulations.engine.capabilities import (
    Dealing,
    Need,
    dealing,
    high_only,
    lacking,
    one_half,
    settings_left_at_defaults,
    standard_deck,
)
from simulations.engine.game import GameDefinition
from simulations.engine.limits import Limit
from simulations.engine.phases import Bet, Draw
from simulations.engine.showdown import HandRanking
from simulations.engine.variants import POKER_VARIANTS, Variant
from simulations.models.exhaustion_policy import Family

# (how the game deals, the ranking of its one half) -> how the players read its cards.
_FAMILIES = {
    (Dealing.STUD, HandRanking.HIGH): Family.STUD,
    (Dealing.DRAW, HandRanking.HIGH): Family.DRAW_HIGH,
    (Dealing.DRAW, HandRanking.DEUCE_TO_SEVEN_LOW): Family.DEUCE_TO_SEVEN,
    (Dealing.DRAW, HandRanking.ACE_TO_FIVE_LOW): Family.ACE_TO_FIVE,
    (Dealing.DRAW, HandRanking.BADUGI): Family.BADUGI,
    (Dealing.PASS, HandRanking.HIGH): Family.ANACONDA,
}
# What the dealer reads of a game (its acting order and bring-in do not change who is dealt
# what: a player folds by his own cards and uniforms alone); every other setting must be at
# its default — kill cards or a game switch would change the deal.
_READ = frozenset(
    {"name", "phases", "forced", "limit", "stakes", "selection", "showdown", "deck"}
    | {"exhaustion", "deals_bottom_card", "five_consecutive", "min_players", "max_players"}
    | {"acting_order", "bring_in_by", "odd_chips", "incomplete_raise", "heads_up_cap"}
)


def family_of(game: GameDefinition) -> Family | None:
    """How the exhaustion job's players read ``game``'s cards, or None if it deals no shape
    of :data:`_FAMILIES`."""
    half = one_half(game)
    if half is None:
        return None
    return _FAMILIES.get((dealing(game), half.ranking))


EXHAUSTION_NEEDS = (
    Need(
        "plain stud streets, or one deal of down cards and then draws or passes",
        lambda game: dealing(game) in (Dealing.STUD, Dealing.DRAW, Dealing.PASS),
    ),
    Need(
        "one pot to one plain ranking the players read (high; a draw game's deuce-to-seven, "
        "ace-to-five or badugi)",
        lambda game: family_of(game) is not None,
    ),
    Need("the 52-card deck", standard_deck),
    # The dealer is held hand for hand to the reference engine's player, which bets the
    # fixed limits; a no-limit or pot-limit game's reference hands differ (N2L1D did).
    Need("fixed-limit betting", lambda game: game.limit is Limit.FIXED),
    # A single-draw lowball's deal is not yet held to the reference engine's: FA5L1D's
    # hands disagreed (five-card draw's agree).
    Need(
        "no single draw to a low hand",
        lambda game: sum(isinstance(p, Draw) for p in game.phases) != 1 or high_only(game),
    ),
    # The players read their first cards at the first betting round, right after the first
    # deal, every card counting (FANA-AFTER, betting first after a pass, disagreed).
    Need(
        "a betting round right after the first deal",
        lambda game: len(game.phases) > 1 and isinstance(game.phases[1], Bet),
    ),
    Need(
        "a hand of any five of the cards (no cap on which may play)",
        lambda game: game.selection is None or not game.selection.caps,
    ),
    Need(
        "no other setting that changes the deal (kill cards, a game switch)",
        lambda game: settings_left_at_defaults(game, _READ),
    ),
)


def exhaustion_lacks(found: Variant) -> list[str]:
    """What of :data:`EXHAUSTION_NEEDS` the registry game ``found`` lacks (empty: the job
    deals it)."""
    if not isinstance(found.definition, GameDefinition):
        return ["a poker game (this is a guts game)"]
    return lacking(found.definition, EXHAUSTION_NEEDS)


def exhaustion_games() -> tuple[str, ...]:
    """The codes of the registry the exhaustion job deals, in the registry's order."""
    return tuple(code for code, found in POKER_VARIANTS.items() if not exhaustion_lacks(found))
