"""The big-blind ante: one ante for the whole table, posted by the big blind as dead money."""

from __future__ import annotations

from dataclasses import replace

import pytest

from simulations.engine.events import Posted, PostKind
from simulations.engine.game import BigBlindAnteOrder, ForcedBets
from simulations.engine.hand import Action, Hand
from simulations.engine.limits import Limit
from simulations.engine.replay import ReplayRules
from tests.factories import holdem

DECK = list(range(52))


def test_the_big_blind_ante_is_dead_money_in_the_main_pot() -> None:
    """Rules 002_376df91f076a6501.txt, 'All in before the deal': an all-in player may win
    from each player only what he put in himself — but the ante is the table's, not a bet: a
    player all in for less than the big blind still contests all of it.  Three seats, blinds
    5 and 10, a big-blind ante of 30; the button goes all in for 10 and the blinds check it
    down."""
    game = holdem(Limit.NO, blinds=(5, 10), big_blind_ante=30)
    hand = Hand(game, [10, 500, 500], button=0, deck=DECK)
    posted = [(e.seat, e.kind, e.amount) for e in hand.events if isinstance(e, Posted)]
    assert posted == [(1, PostKind.BLIND, 5), (2, PostKind.BLIND, 10),
                      (2, PostKind.BIG_BLIND_ANTE, 30)]  # fmt: skip
    assert hand.legal_actions().to_call == 10  # the ante counts toward no bet
    hand.act(Action.call())  # the button, all in for 10
    hand.act(Action.call())  # the small blind completes
    hand.act(Action.check())  # the big blind: 10 live, the ante dead
    while not hand.finished:
        hand.act(Action.check())
    assert hand.pots[0].amount == 10 + 10 + 10 + 30
    assert set(hand.pots[0].eligible) == {0, 1, 2}
    assert sum(hand.stacks) == 1010


@pytest.mark.parametrize(
    ("order", "blind", "ante"),
    [(BigBlindAnteOrder.BLIND_FIRST, 10, 5), (BigBlindAnteOrder.ANTE_FIRST, 5, 10)],
)
def test_a_short_big_blind_pays_the_blind_or_the_ante_first(
    order: BigBlindAnteOrder, blind: int, ante: int
) -> None:
    """A big blind with 15 chips owes a blind of 10 and an ante of 10.  Tournament rules
    take the blind first, so that the hand is played for a full blind; the texts' rule for
    antes ('Any money the player holds must be applied to the ante first') is the option.
    Either way the others must call the full big blind."""
    base = holdem(Limit.NO, blinds=(5, 10), big_blind_ante=10)
    game = replace(base, forced=replace(base.forced, big_blind_ante_order=order))
    hand = Hand(game, [500, 500, 15], button=0, deck=DECK)
    paid = {e.kind: e.amount for e in hand.events if isinstance(e, Posted) and e.seat == 2}
    assert paid == {PostKind.BLIND: blind, PostKind.BIG_BLIND_ANTE: ante}
    assert hand.legal_actions().to_call == 10


def test_bad_big_blind_antes_are_refused() -> None:
    with pytest.raises(ValueError, match="needs a big blind"):
        ForcedBets(ante=0, blinds=(), big_blind_ante=5)
    with pytest.raises(ValueError, match="cannot be negative"):
        ForcedBets(blinds=(1, 2), big_blind_ante=-1)
    # The replay kernel posts it too (tests/test_engine_replay.py holds it to this engine).
    assert ReplayRules.from_game(holdem(Limit.NO, big_blind_ante=2)).big_blind_ante == 2
