"""A hand's deck order: given or shuffled, checked, drawn in order, the stub left over."""

from __future__ import annotations

import numpy as np
import pytest

from simulations.engine.deck_order import DeckOrder, cards_needed
from simulations.engine.limits import Limit
from tests.factories import holdem, seven_card_stud


def test_given_order_is_dealt_in_order_and_the_stub_is_the_rest() -> None:
    game = holdem(Limit.NO)
    order = DeckOrder.for_hand(game, 3, deck=list(range(51, -1, -1)))
    assert [order.draw() for _ in range(3)] == [51, 50, 49]
    assert order.stub == tuple(range(48, -1, -1))


def test_cards_needed_counts_burns_board_and_upcards() -> None:
    """Rules 001_af8fb40237a5ae1f.txt, hold'em's burns before the flop, turn and river; seven-
    card stud deals seven cards a player and burns before each later street."""
    assert cards_needed(holdem(Limit.NO), 10) == 20 + 3 + 5
    assert cards_needed(seven_card_stud(), 6) == 42 + 4


def test_bad_deck_orders() -> None:
    game = holdem(Limit.NO)
    with pytest.raises(ValueError, match="seeded rng"):
        DeckOrder.for_hand(game, 2)
    with pytest.raises(ValueError, match="may need 12"):
        DeckOrder.for_hand(game, 2, deck=range(8))
    with pytest.raises(ValueError, match="duplicate card 2c"):
        DeckOrder.for_hand(game, 2, deck=[0, 0, *range(2, 52)])
    shuffled = DeckOrder.for_hand(game, 2, rng=np.random.default_rng(1))
    assert sorted(shuffled.stub) == list(range(52))
