"""Seven-card stud against pokerkit on random hands: the bring-in, completion, showing order.

Both engines play the same seeded hands, cards dealt to pokerkit from our deal, actions chosen
at random among ours.  At every turn the two must agree on who acts, whether the bring-in is
due, what a call costs and the completion or raise amounts; at the end on every stack.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from pokerkit import BettingStructure, Opening, State, Street

from simulations.cards import format_card
from simulations.engine.game import seven_card_stud
from simulations.engine.hand import Action, Hand
from simulations.engine.limits import Stakes
from tests.pokerkit_oracle import assert_same_final_stacks, assert_same_wager, cash_game, play_on

SMALL, BIG, BRING_IN = 4, 8, 1


def _pokerkit_state(stacks: list[int], ante: int) -> State:
    # Uncapped on both sides: pokerkit counts the cap differently (the texts' cap is tested
    # on its own).
    streets = (
        Street(False, (False, False, True), 0, False, Opening.LOW_CARD, SMALL, None),
        Street(True, (True,), 0, False, Opening.HIGH_HAND, SMALL, None),
        Street(True, (True,), 0, False, Opening.HIGH_HAND, BIG, None),
        Street(True, (True,), 0, False, Opening.HIGH_HAND, BIG, None),
        Street(True, (False,), 0, False, Opening.HIGH_HAND, BIG, None),
    )
    return cash_game(streets, BettingStructure.FIXED_LIMIT, stacks, ante=ante, bring_in=BRING_IN)


def _play_one(seed: int) -> None:
    chooser = random.Random(seed)
    n = chooser.randint(2, 6)
    ante = chooser.choice([0, 1])
    # Everyone covers the ante and the bring-in: short forced bets are tested on their own.
    stacks = [chooser.choice([chooser.randint(3, 20), chooser.randint(20, 200)]) for _ in range(n)]
    game = seven_card_stud(ante=ante, bring_in=BRING_IN, stakes=Stakes(SMALL, BIG, max_bets=None))
    # The dealer sits last, so that seat 0 is dealt first, as pokerkit's player 0.
    hand = Hand(game, stacks, button=n - 1, rng=np.random.default_rng(seed))
    state = _pokerkit_state(stacks, ante)
    while state.status:
        if state.can_deal_hole():
            player = state.hole_dealee_index
            assert player is not None
            dealt = len(state.hole_cards[player])
            state.deal_hole(format_card(hand.hole[player][dealt]))
        elif state.actor_index is not None and hand.actor is None:
            # pokerkit still offers a check where no bet could be answered; ours skips it.
            assert state.checking_or_calling_amount == 0
            state.check_or_call()
        elif state.actor_index is not None or state.can_post_bring_in():
            legal = hand.legal_actions()
            if state.can_post_bring_in():
                assert legal.bring_in is not None and legal.seat == state.actor_index
            else:
                assert legal.bring_in is None and legal.seat == state.actor_index
                assert state.checking_or_calling_amount == legal.to_call
            assert_same_wager(state, legal, seed)
            if legal.bring_in is not None:
                options = [Action.bring_in()]
            else:
                options = [Action.check() if legal.can_check else Action.call()]
                if legal.can_fold:
                    options.append(Action.fold())
            full = legal.full_total
            if legal.wager is not None and full is not None and legal.wager[0] >= full:
                options.append(legal.wager_action(legal.wager[0]))  # short all-ins: see hold'em
            action = chooser.choice(options)
            hand.act(action)
            play_on(state, action)
        else:
            pytest.fail(f"pokerkit waits for something unexpected: {state}")
    # pokerkit's player i sits in our seat i.
    assert_same_final_stacks(hand, state, range(n), stacks, seed)


@pytest.mark.filterwarnings("ignore:A card being dealt")  # pokerkit's own deck order differs
def test_random_stud_hands_match_pokerkit() -> None:
    """Rules 002_376df91f076a6501.txt, 'Bring-in' (low card pays, suits break ties; call it or
    complete) and Rules 000_1a86611de8d3f5f7.txt, 'Seven-Card Stud' (the best hand showing
    opens later rounds), played out to final stacks on 1,500 random hands."""
    for seed in range(1500):
        _play_one(seed)
