"""Roll-outs: the players arrange their cards, then turn them up one at a time with a betting
round after each (Rules 000_1a86611de8d3f5f7.txt, 'Shotgun ("Roll 'em out" and "Skinny
Minnie")', and Anaconda's roll-out)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from simulations.engine.actions import Action, IllegalAction
from simulations.engine.events import Arranged, Checked, Exposed
from simulations.engine.hand import Hand
from simulations.engine.history import play_plainly
from simulations.engine.phases import Arrange, Bet, Deal, Reveal
from simulations.engine.variants import variant
from tests.state import state_of


def _to_the_arrangement(hand: Hand) -> None:
    while True:
        legal = hand.legal_actions()
        if legal.choice is not None and legal.choice.kind.value == "arrange":
            return
        if legal.choice is not None:
            hand.act(legal.choice.action(legal.choice.cards[: legal.choice.fewest]))
        else:
            hand.act(Action.check() if legal.can_check else Action.call())


def test_cards_roll_out_in_the_order_arranged_with_a_round_after_each() -> None:
    """'Each player's top card is now revealed, followed by a betting round. Then each player
    reveals his next card ... a fourth card, a betting round, and finally a showdown. Players
    may not change the order of their cards at any time during the rollout phase.'"""
    hand = Hand(variant("FSHOT").game(), [100] * 3, button=0, rng=np.random.default_rng(8))
    _to_the_arrangement(hand)
    orders = {}
    for seat in (1, 2, 0):
        assert hand.actor == seat
        cards = list(hand.hole[seat])[::-1]  # any order: here the reverse
        orders[seat] = cards
        hand.act(Action.arrange(cards))
        if seat != 0:  # all at once: nothing is shown until the last has arranged
            assert not any(isinstance(e, Arranged) for e in hand.events)
    play_plainly(hand)
    start = next(i for i, e in enumerate(hand.events) if isinstance(e, Arranged))
    rolled: dict[int, list[int]] = {1: [], 2: [], 0: []}
    between = []  # events between the reveals: a betting round after each
    for event in hand.events[start:]:
        if isinstance(event, Exposed):
            rolled[event.seat] += event.cards
        elif isinstance(event, Checked):
            between.append(sum(len(r) for r in rolled.values()))
    assert {s: rolled[s] for s in rolled} == {s: orders[s][:4] for s in orders}
    assert sorted(set(between)) == [3, 6, 9, 12]  # a round after each of the four cards
    assert all(len(hand.up[s]) == 4 for s in (0, 1, 2))  # the fifth is shown down


def test_anaconda_rolled_out_has_eight_betting_rounds() -> None:
    """'In some casual games, the showdown is replaced by a rollout phase, as described above
    in "Shotgun". This makes a total of eight betting rounds'."""
    game = variant("FANA-ROLL").game()
    assert sum(isinstance(p, Bet) for p in game.phases) == 8
    hand = play_plainly(Hand(game, [100] * 4, button=0, rng=np.random.default_rng(3)))
    assert hand.street == 7  # the eighth round (counted from 0) was played
    assert all(len(hand.hole[s]) == 5 and len(hand.up[s]) == 4 for s in range(4))


def test_bad_arrangements_are_refused_and_leave_the_hand_unchanged() -> None:
    hand = Hand(variant("FSHOT").game(), [100] * 3, button=0, rng=np.random.default_rng(9))
    _to_the_arrangement(hand)
    seat = hand.actor
    assert seat is not None
    mine, theirs = list(hand.hole[seat]), hand.hole[(seat + 1) % 3][0]
    before = state_of(hand)
    for action, message in [
        (Action.arrange(mine[:4]), "an arrangement names exactly 5 cards, got 4"),
        (Action.arrange([*mine[:4], theirs]), "not one of the player's cards"),
        (Action.arrange([*mine[:4], mine[0]]), "named twice"),
        (Action.check(), "an arrangement is due"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            hand.act(action)
        assert state_of(hand) == before


def test_a_roll_out_needs_its_cards_arranged() -> None:
    game = variant("FSHOT").game()
    deal, bet = Deal("deal", down=5), Bet()
    with pytest.raises(
        ValueError, match=r"phases\[2\]: first: a roll-out needs the cards arranged"
    ):
        replace(game, phases=(deal, bet, Reveal("first"), bet))
    with pytest.raises(ValueError, match=r"rolls out 2 cards but 1 arranged cards are still down"):
        replace(
            game,
            phases=(deal, bet, Arrange(), Reveal("a", 4), bet, Reveal("b", 2), bet),
        )
