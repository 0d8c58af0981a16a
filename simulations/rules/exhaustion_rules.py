"""Running out of cards: the arithmetic of the exhaustion rules, one compiled source for the
reference engine's dealer (:mod:`simulations.engine.dealer`) and the exhaustion kernel
(:mod:`simulations.models.exhaustion_kernel`) alike, so that the two cannot drift apart.

* Stud, Rules 003_6e018542f14946f8.txt ('Seven-card stud'): 'previously-dealt burn cards can
  be used when only a few cards are needed to complete the deal.  If even those are not
  sufficient, then on the final round instead of dealing a downcard to each player, a single
  community card is dealt' (:func:`stud_shortfall`).
* Stud, WSOP Live-Action Rule 228 (the tournament form): before the last street the dealer
  counts the players remaining plus two against the stub, and deals normally, scrambles the
  burn cards in and finishes, burns and deals a community card, or scrambles, burns and deals
  a community card (:func:`wsop_last_street`).
* Draw, Rules 003 ('Five-card draw'): 'the bottom card of the deck is never given as a
  replacement' (:func:`must_reshuffle`); the new stub takes 'the bottom card of the deck, the
  burn card, and the earlier players' discards (but not the player's own discards!)', or the
  discards another reading allows (:func:`discard_returns`); 'a player is not allowed to draw
  five consecutive cards from the deck stub' (:func:`held_back`).

The rules are passed as small integers so that compiled code can take them.
"""

from __future__ import annotations

import numba as nb

# ExhaustionRule as the compiled functions take it (simulations.engine.game_parts).
NO_RULE = 0
STUD_TEXTS = 1
STUD_WSOP = 2
DRAW_OTHERS_DISCARDS = 3
DRAW_EARLIER_ROUNDS = 4
DRAW_ALL_DISCARDS = 5

# Cards one player may be dealt in a row from the stub under the five-consecutive rule.
MOST_IN_A_ROW = 4


@nb.njit(cache=True)
def stud_shortfall(stub: int, spare: int, needed: int, community: int) -> tuple[int, bool]:
    """A stud street the stub cannot complete: ``stub`` cards left after the street's burn,
    ``spare`` earlier burn cards that may be dealt again (under the tournament rule, none
    once it has scrambled them into the stub before the last street), ``needed`` cards for
    the street and ``community`` cards for it as community cards.  Returns (burn cards
    dealt again, whether the street goes to the board as community cards)."""
    shared = needed > stub + spare
    if shared:
        needed = community
    return max(0, needed - stub), shared


# WSOP Rule 228's four ways of dealing the last street (wsop_last_street).
WSOP_NORMAL = 0  # 'If the stub has enough, deal normally'
WSOP_SCRAMBLE = 1  # 'if the stub plus the three burn cards is enough, scramble ... finish'
WSOP_COMMUNITY = 2  # 'the stub has more than two cards: burn and deal a community card'
WSOP_SCRAMBLE_COMMUNITY = 3  # 'two or fewer: scramble the stub and the burn cards, burn one,
# and deal a community card'


@nb.njit(cache=True)
def wsop_last_street(stub: int, cards: int, burns: int) -> int:
    """WSOP Live-Action Rule 228, before the last street: the stub of ``stub`` cards is
    counted against the street's ``cards`` (a card to each player remaining) 'plus two' (the
    burn and one more); ``burns`` burn cards lie in the burn pile.  Returns one of the
    ``WSOP_*`` codes, in the rule's order: enough, deal normally; else the stub and the burn
    cards enough, scramble them and finish; else a stub of more than two cards, burn and deal
    a community card; else scramble the stub and the burns, burn one, a community card."""
    wanted = cards + 2
    if stub >= wanted:
        return WSOP_NORMAL
    if stub + burns >= wanted:
        return WSOP_SCRAMBLE
    if stub > 2:
        return WSOP_COMMUNITY
    return WSOP_SCRAMBLE_COMMUNITY


@nb.njit(cache=True)
def must_reshuffle(remaining: int, deals_bottom_card: bool, reshuffled: bool) -> bool:
    """Whether a replacement needs a new stub first: the stub is used up, or holds only its
    bottom card, which is never given as a replacement unless the game deals it (after a
    reshuffle the stub's last card is no longer the bottom card)."""
    reserve = 0 if deals_bottom_card or reshuffled else 1
    return remaining <= reserve


@nb.njit(cache=True)
def discard_returns(rule: int, discard_draw: int, discard_seat: int, draw: int, seat: int) -> bool:
    """Whether a discard of ``discard_seat`` in draw number ``discard_draw`` goes into the new
    stub when ``seat`` runs the stub out in draw number ``draw``: every discard but his own of
    this draw (the texts), only earlier draws' discards, or every discard."""
    if rule == DRAW_ALL_DISCARDS:
        return True
    if rule == DRAW_EARLIER_ROUNDS:
        return discard_draw < draw
    return not (discard_draw == draw and discard_seat == seat)


@nb.njit(cache=True)
def held_back(count: int, five_consecutive: bool) -> int:
    """Of ``count`` replacements, how many wait until the other players have drawn: 'he is
    given four of them in turn, the other players are given their draws, and then the dealer
    returns to that player' (none where the game lets a player draw five in a row)."""
    if five_consecutive or count <= MOST_IN_A_ROW:
        return 0
    return count - MOST_IN_A_ROW
