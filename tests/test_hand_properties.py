"""Property: at every turn the actions the engine lists are accepted and every other is
rejected, leaving the hand as it was — over every structure, blinds or bring-ins, antes,
posts, 2 to 10 players and random stacks."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simulations.engine.forced import Post
from simulations.engine.game import GameDefinition
from simulations.engine.hand import Action, ActionKind, Hand, IllegalAction, LegalActions
from simulations.engine.limits import IncompleteRaiseRule, Limit, Stakes
from tests.factories import holdem, seven_card_stud


def _snapshot(hand: Hand) -> tuple[Any, ...]:
    return (
        list(hand.stacks),
        list(hand.contributed),
        list(hand.round_bets),
        list(hand.folded),
        hand.actor,
        hand.street,
        len(hand.events),
    )


def _listed(legal: LegalActions, action: Action, unit: int) -> bool:
    """Whether ``action`` is one the listing allows."""
    kind = action.kind
    if legal.bring_in is not None:
        if kind is ActionKind.BRING_IN:
            return True
        if kind is not ActionKind.BET:
            return False
    elif kind is ActionKind.BRING_IN:
        return False
    if kind is ActionKind.FOLD:
        return legal.can_fold
    if kind is ActionKind.CHECK:
        return legal.can_check
    if kind is ActionKind.CALL:
        return not legal.can_check and legal.bring_in is None
    if legal.wager is None or kind is not legal.wager_kind or action.total is None:
        return False
    low, high = legal.wager
    total = action.total
    if total == legal.all_in_total and total <= high:
        return True
    return low <= total <= high and total % unit == 0


def _candidates(legal: LegalActions, rng: random.Random) -> list[Action]:
    totals = {0, 1, legal.all_in_total, legal.all_in_total + 1, legal.to_call}
    if legal.wager is not None:
        low, high = legal.wager
        totals |= {low - 1, low, low + 1, high - 1, high, high + 1, rng.randint(low, high)}
    if legal.full_total is not None:
        totals |= {legal.full_total - 1, legal.full_total}
    actions = [Action.fold(), Action.check(), Action.call(), Action.bring_in()]
    for total in sorted(t for t in totals if t >= 0):
        actions += [Action.bet(total), Action.raise_to(total)]
    return actions


def _game(kind: int, limit: Limit, half_bet: bool, unit: int) -> GameDefinition:
    rule = IncompleteRaiseRule.HALF_BET if half_bet else IncompleteRaiseRule.FULL_BET
    if limit in (Limit.POT, Limit.NO):
        rule = IncompleteRaiseRule.FULL_BET
    if kind == 0:
        stakes = {
            Limit.FIXED: Stakes(2 * unit, 4 * unit, max_bets=4, unit=unit),
            Limit.SPREAD: Stakes(2 * unit, spreads=((2 * unit, 6 * unit),), unit=unit),
        }.get(limit, Stakes(2 * unit, unit=unit))
        return holdem(limit, blinds=(unit, 2 * unit), ante=0, stakes=stakes, incomplete_raise=rule)
    if kind == 1:
        stakes = Stakes(2 * unit, 4 * unit, max_bets=3, unit=unit)
        blinds = (unit, unit, 2 * unit)
        return holdem(Limit.FIXED, blinds=blinds, ante=1, stakes=stakes, incomplete_raise=rule)
    stakes = Stakes(5, 10, max_bets=4) if limit is Limit.FIXED else Stakes(5)
    if limit is Limit.SPREAD:
        stakes = Stakes(5, spreads=((5, 10),))
    return seven_card_stud(ante=1, bring_in=2, limit=limit, stakes=stakes, incomplete_raise=rule)


@settings(max_examples=120, deadline=None)
@given(
    kind=st.sampled_from([0, 1, 2]),
    limit=st.sampled_from(list(Limit)),
    half_bet=st.booleans(),
    unit=st.sampled_from([1, 5]),
    stacks=st.lists(st.integers(1, 300), min_size=2, max_size=10),
    button=st.integers(0, 9),
    seed=st.integers(0, 2**32 - 1),
    post=st.booleans(),
)
def test_listed_actions_accepted_all_others_rejected(
    kind: int,
    limit: Limit,
    half_bet: bool,
    unit: int,
    stacks: list[int],
    button: int,
    seed: int,
    post: bool,
) -> None:
    """Rules 002_376df91f076a6501.txt, 'Procedure' ('Players may bet, check, raise, or fold in
    turn') with 'Limits', 'Incomplete bet or raise' and 'Bring-in': whatever the engine lists
    is accepted; anything else raises IllegalAction and changes nothing."""
    game = _game(kind, limit, half_bet, unit)
    if kind == 2:
        stacks = stacks[:6]
        stacks += [50] * (2 - len(stacks))
    n = len(stacks)
    if kind == 1:
        stacks = [max(s, 4 * unit) for s in stacks] + [100] * (3 - n)  # three blinds
        n = len(stacks)
    button %= n
    posts: tuple[Post, ...] = ()
    if post and kind == 0 and n >= 4:
        seat = (button + 3) % n
        stacks[seat] = max(stacks[seat], 3 * unit)
        posts = (Post(seat, missed_small_blind=True),)
    hand = Hand(game, stacks, button=button, rng=np.random.default_rng(seed), posts=posts)
    rng = random.Random(seed)
    steps = 0
    while not hand.finished:
        legal = hand.legal_actions()
        before = _snapshot(hand)
        allowed = []
        for action in _candidates(legal, rng):
            if _listed(legal, action, game.stakes.unit):
                allowed.append(action)
                continue
            try:
                hand.act(action)
            except IllegalAction:
                assert _snapshot(hand) == before, action
            else:
                raise AssertionError(f"{action} accepted though not listed: {legal}")
        assert allowed, legal
        hand.act(rng.choice(allowed))  # a listed action is accepted
        steps += 1
        assert steps < 500
    assert sum(hand.stacks) == sum(stacks)
