"""Properties of every built-in game over random play (2,000 hands each): no card dealt twice,
folded cards never come back, each player ends with the cards the game deals, chips are
conserved, and the shares of every pot add up to the pot — whatever the showdown's halves."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

from simulations.engine.events import Awarded, BoardDealt, Exhausted, Folded, HoleDealt
from simulations.engine.game import (
    ExhaustionRule,
    GameDefinition,
    holdem,
    omaha,
    razz,
    seven_card_stud,
    seven_card_stud_eight,
)
from simulations.engine.hand import Action, Hand
from simulations.engine.limits import Limit

GAMES: dict[str, tuple[Callable[[], GameDefinition], int]] = {
    "no-limit hold'em": (lambda: holdem(Limit.NO), 10),
    "fixed-limit hold'em": (lambda: holdem(Limit.FIXED), 10),
    "pot-limit Omaha": (lambda: omaha(Limit.POT), 10),
    "fixed-limit Omaha eight or better": (lambda: omaha(Limit.FIXED, eight_or_better=True), 10),
    "seven-card stud": (seven_card_stud, 8),
    "razz": (razz, 8),
    "stud eight or better": (seven_card_stud_eight, 8),
}
HANDS = 2_000


def _random_action(hand: Hand, chooser: random.Random) -> Action:
    legal = hand.legal_actions()
    if legal.bring_in is not None:
        return Action.bring_in()
    options = [Action.check() if legal.can_check else Action.call()] * 4
    if legal.can_fold:
        options.append(Action.fold())
    if legal.wager is not None:
        low, high = legal.wager
        options += [legal.wager_action(low), legal.wager_action(high)]
    return chooser.choice(options)


def _cards_when_folding(hand: Hand) -> dict[int, int]:
    """How many cards each folded seat held when it folded."""
    held: Counter[int] = Counter()
    folded: dict[int, int] = {}
    for event in hand.events:
        if isinstance(event, HoleDealt):
            held[event.seat] += len(event.cards)
        elif isinstance(event, Folded):
            folded[event.seat] = held[event.seat]
    return folded


@pytest.mark.parametrize("name", list(GAMES))
def test_random_play_keeps_the_cards_and_the_chips(name: str) -> None:
    make, most = GAMES[name]
    game = make()
    seen: Counter[str] = Counter()
    for seed in range(HANDS):
        chooser = random.Random(seed)
        n = chooser.randint(2, most)
        stacks = [
            chooser.choice([chooser.randint(5, 40), chooser.randint(40, 400)]) for _ in range(n)
        ]
        hand = Hand(game, stacks, button=chooser.randrange(n), rng=np.random.default_rng(seed))
        while not hand.finished:
            hand.act(_random_action(hand, chooser))
        folded_at = _cards_when_folding(hand)
        dealt = [c for e in hand.events if isinstance(e, HoleDealt) for c in e.cards]
        dealt += [c for e in hand.events if isinstance(e, BoardDealt) for c in e.cards]
        assert len(dealt) == len(set(dealt)), (name, seed)  # no card dealt twice
        community = any(isinstance(e, Exhausted) and e.community for e in hand.events)
        reached = game.streets[: hand.street + 1]
        expected = sum(s.hole_cards + s.up_cards for s in reached)
        if community:  # the last street's card went to the board, shared by everyone
            expected -= reached[-1].hole_cards + reached[-1].up_cards
        for seat in range(n):
            if seat in folded_at:  # a folded hand gets no more cards
                assert len(hand.hole[seat]) == folded_at[seat], (name, seed)
            else:
                assert len(hand.hole[seat]) == expected, (name, seed)
        assert sum(hand.stacks) == sum(stacks), (name, seed)
        awarded: Counter[int] = Counter()
        for event in hand.events:
            if isinstance(event, Awarded):
                awarded[event.pot] += int(event.amount)
        assert [awarded[i] for i in range(len(hand.pots))] == [p.amount for p in hand.pots]
        seen["exhausted"] += any(isinstance(e, Exhausted) for e in hand.events)
        seen["community"] += community
        seen["split"] += any(c > 1 for c in Counter(
            e.pot for e in hand.events if isinstance(e, Awarded)).values())  # fmt: skip
        seen["folds"] += bool(folded_at)
    assert seen["folds"] > 0 and seen["split"] > 0, seen
    if game.exhaustion is not ExhaustionRule.NONE:
        assert seen["exhausted"] > 0 and seen["community"] > 0, seen
