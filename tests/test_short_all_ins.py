"""Short all-ins in a row: whether they add up to reopen the betting for a player who has
already acted, in the reference engine and the replay kernel alike."""

from __future__ import annotations

import pytest

from simulations.engine.actions import IllegalAction
from simulations.engine.hand import Action, Hand
from simulations.engine.limits import Limit, ShortAllInRule
from simulations.engine.replay import record_hand, replay_records
from tests.factories import holdem

DECK = list(range(52))


def _two_short_all_ins(rule: ShortAllInRule) -> Hand:
    """Five seats, the button on seat 4, blinds 1 and 2.  Seat 2 raises to 100 (a full raise
    of 98); seat 3 goes all in for 150 and seat 4 calls it; seat 0 goes all in for 200, the
    big blind folds.  Each all-in is 50 over the bet before it, short of 98."""
    game = holdem(Limit.NO, short_all_ins=rule)
    hand = Hand(game, [200, 1000, 1000, 150, 1000], button=4, deck=DECK)
    hand.act(Action.raise_to(100))  # seat 2
    hand.act(Action.raise_to(150))  # seat 3, all in
    hand.act(Action.call())  # seat 4
    hand.act(Action.raise_to(200))  # seat 0, all in
    hand.act(Action.fold())  # seat 1
    return hand


def test_short_all_ins_add_up_for_the_player_they_reach() -> None:
    """Rules 002_376df91f076a6501.txt, 'Incomplete bet or raise' ('the all-in player's
    pseudo-raise was really just a call with some extra money'): the texts decide a single
    short all-in.  Read as most card rooms do, two of them that together make a full raise
    over what a player last acted on reopen the betting for him: seat 2 acted on 100 and now
    faces 200, a full 98 more, so he may raise; seat 4 acted on 150 and faces only 50 more."""
    hand = _two_short_all_ins(ShortAllInRule.CUMULATIVE)
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.to_call == 100
    assert legal.wager is not None and legal.wager[0] == 298  # 200 + the last full raise
    hand.act(Action.call())
    legal = hand.legal_actions()
    assert legal.seat == 4 and legal.to_call == 50 and legal.wager is None
    with pytest.raises(IllegalAction, match="not reopened since this player acted"):
        hand.act(Action.raise_to(400))


def test_each_short_all_in_alone_is_the_named_option() -> None:
    """Judged one at a time, neither all-in reopens anything: seat 2 may only call or fold."""
    hand = _two_short_all_ins(ShortAllInRule.EACH_ALONE)
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.wager is None
    with pytest.raises(IllegalAction, match="not reopened since this player acted"):
        hand.act(Action.raise_to(400))


@pytest.mark.parametrize("rule", list(ShortAllInRule))
def test_the_replay_kernel_reads_short_all_ins_the_same_way(rule: ShortAllInRule) -> None:
    """The kernel calls the same compiled rule: the hand in which seat 2 re-raises replays
    under the cumulative reading and stops at that raise, with the reference's message,
    under the other."""
    reference = _two_short_all_ins(ShortAllInRule.CUMULATIVE)
    reference.act(Action.raise_to(400))  # seat 2, reopened by the two all-ins
    while not reference.finished:
        legal = reference.legal_actions()
        reference.act(Action.check() if legal.can_check else Action.call())
    record = record_hand(reference)
    result = replay_records(holdem(Limit.NO, short_all_ins=rule), [record])
    if rule is ShortAllInRule.CUMULATIVE:
        assert not result.errors()
        assert result.stacks[0].tolist() == reference.stacks
    else:
        (error,) = result.errors()
        assert "not reopened since this player acted" in error
