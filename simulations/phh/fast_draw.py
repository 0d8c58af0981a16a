"""A draw game's PHH hand as the compiled replay kernel plays it: the cards each player shows
down, ranked by the game's own showdown, and the betting round of every player's turn.

The kernel plays a draw game's betting as hold'em's (its rules from
:meth:`~simulations.engine.replay.ReplayRules.from_draw_game`) and settles on the values
given here.  A hand is given to it only where nothing of its cards needs the reference
engine: the history's cards are dealt by the texts' own dealing of the game
(:func:`~simulations.phh.lines.deck_order`: no card twice, no reshuffle of the stub, every
deal and draw as the game's phases have them), every player is dealt the first deal, and
each draw is drawn by every player still in, in turn from the dealer's left, each
discarding cards he holds, no more than the draw allows, and dealt as many (Rules
003_6e018542f14946f8.txt, 'Five-card draw': 'each player in turn beginning at the dealer's
left is dealt from the stub the same number of cards he discarded').  A hand that reaches
the showdown has drawn every draw of the game.  Every other hand is the reference
engine's, which names what it refuses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from simulations.cards import FIRST_JOKER, Card
from simulations.engine.game import GameDefinition
from simulations.engine.phases import Draw
from simulations.phh.lines import (
    DEAL_HOLE,
    DRAW,
    FOLD,
    Unplayable,
    _DealGroup,
    _DrawGroup,
    card_groups,
    deck_order,
)
from simulations.phh.model import PhhHand


@dataclass(frozen=True)
class DrawnHand:
    """What the kernel needs of a draw hand beyond its betting: the cards each player holds
    at the showdown (None for a seat that folded, and for all when the hand ends before a
    showdown), ranked for a batch of hands at once by :func:`showdown_values`."""

    held: tuple[tuple[Card, ...] | None, ...]


def drawn_hand(hand: PhhHand, game: GameDefinition) -> DrawnHand | None:
    """The cards ``hand`` of the draw game ``game`` shows down, or None where its cards are
    the reference engine's to check (see the module docstring)."""
    lines = hand.lines
    assert lines is not None
    n = hand.player_count
    try:
        groups = card_groups(lines)
        deck_order(game, n, n - 1, lines, groups=groups)
    except Unplayable:
        return None
    first = groups[0] if groups else None
    if not isinstance(first, _DealGroup) or len(first.holes) != n or first.board:
        return None
    draws = [phase for phase in game.phases if isinstance(phase, Draw)]
    held: list[list[Card]] = [list(first.holes[seat]) for seat in range(n)]
    folded = [False] * n
    group_at = 0  # the draws begun
    drawing = False  # the line before was a discard or a replacement dealt
    for line in lines:
        verb = line.verb
        if verb == DRAW:
            if not drawing:
                group_at += 1
                if group_at >= len(groups) or group_at > len(draws):
                    return None
                group = groups[group_at]
                if not isinstance(group, _DrawGroup) or not _drawn(
                    group, draws[group_at - 1], held, folded
                ):
                    return None
            drawing = True
        elif verb == FOLD:
            folded[line.seat] = True
            drawing = False
        elif verb != DEAL_HOLE:
            drawing = False
    if group_at != len(groups) - 1:
        return None  # a deal or draw the walk above did not meet
    live = [seat for seat in range(n) if not folded[seat]]
    if len(live) < 2:
        return DrawnHand((None,) * n)
    if group_at != len(draws):
        return None  # a showdown before the last draw: the reference engine names it
    return DrawnHand(tuple(None if folded[seat] else tuple(held[seat]) for seat in range(n)))


def showdown_values(game: GameDefinition, hands: Sequence[DrawnHand]) -> list[tuple[int, ...]]:
    """Each seat's showdown value in each of ``hands`` of ``game`` (0 where a seat shows
    nothing), ranked by the game's own showdown half: every hand shown in one compiled call
    where the half ranks rows at once (:meth:`~simulations.engine.showdown.Half.rank_rows`),
    else one by one (:meth:`~simulations.engine.showdown.Half.rank`)."""
    (half,) = game.showdown.halves
    shown = [
        (h, seat, cards)
        for h, hand in enumerate(hands)
        for seat, cards in enumerate(hand.held)
        if cards is not None
    ]
    values = [[0] * len(hand.held) for hand in hands]
    if not shown:
        return [tuple(row) for row in values]
    rows = np.array([cards for _, _, cards in shown], dtype=np.int8)
    jokers = bool(np.any(rows >= FIRST_JOKER))
    ranked = half.rank_rows(game.selection, rows, 0, jokers=jokers)
    if ranked is None:
        ranked = [half.rank(game.selection, cards, ()) for _, _, cards in shown]
    for (h, seat, _), ranking in zip(shown, ranked, strict=True):
        if ranking is None or ranking.value < 0:
            # A draw game's half has no qualifier (ReplayRules.from_draw_game).
            raise ValueError(f"{game.name}: a hand shown down without a value")
        values[h][seat] = ranking.value
    return [tuple(row) for row in values]


def _drawn(group: _DrawGroup, draw: Draw, held: list[list[Card]], folded: list[bool]) -> bool:
    """Apply one draw to ``held``: whether every player still in drew once, in turn from the
    dealer's left, discarding cards he holds (at most the draw's limit) for as many dealt."""
    live = [seat for seat in range(len(held)) if not folded[seat]]
    if len(live) < 2 or [seat for seat, _ in group.discards] != live:
        return False
    drew = {seat for seat, discards in group.discards if discards}
    if not set(group.replacements) <= drew:
        return False
    for seat, discards in group.discards:
        cards = held[seat]
        if len(discards) > draw.most or len(set(discards)) != len(discards):
            return False
        if any(card not in cards for card in discards):
            return False
        dealt = group.replacements.get(seat, ())
        if len(dealt) != len(discards):
            return False
        held[seat] = [card for card in cards if card not in discards] + list(dealt)
    return True
