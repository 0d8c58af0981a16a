"""Pots from contributions: the uncalled bet, main and side pots, and odd chips."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulations.engine.pots import (
    OddChipRule,
    Pot,
    side_pots,
    split,
    split_high_low,
    uncalled_bet,
)


def test_all_in_before_the_deal_example() -> None:
    """Rules 002_376df91f076a6501.txt, 'All in before the deal': ten players, $1 ante,
    $4/$8 blinds; Alice has $8 in the big blind (ante first, $7 to the blind), Bob calls $8,
    Carol raises to $16, everyone else folds, then Bob folds.  The main pot is $35 and the
    $10 above Alice's all-in goes to Carol."""
    # Seats: 0 small blind, 1 Alice (big blind), 2 Bob, 3 Carol, 4-9 the rest.
    contributions = [1 + 4, 1 + 7, 1 + 8, 1 + 16, 1, 1, 1, 1, 1, 1]
    live = [False, True, False, True, False, False, False, False, False, False]
    seat, returned = uncalled_bet(contributions)
    assert (seat, returned) == (3, 8)  # Carol's raise above Bob's call was never matched
    contributions[seat] -= returned
    pots = side_pots(contributions, live)
    assert pots[0] == Pot(35, (1, 3))
    assert pots[1] == Pot(2, (3,))
    # Carol takes the side pot and her unmatched $8: $10 above Alice's all-in, as the text says.
    assert pots[1].amount + returned == 10


def test_table_stakes_example() -> None:
    """Rules 002_376df91f076a6501.txt, '"All in"': the opener bets $20, the next player is
    all in for $5, the third calls $20: a $15 main pot and a $30 side pot."""
    pots = side_pots([20, 5, 20], [True, True, True])
    assert pots == (Pot(15, (0, 1, 2)), Pot(30, (0, 2)))


def test_folded_chips_stay_in_the_pots_they_reached() -> None:
    pots = side_pots([100, 50, 100, 30], [True, True, False, False])
    assert pots == (Pot(50 * 3 + 30, (0, 1)), Pot(100, (0,)))


@given(
    st.lists(st.integers(0, 10_000), min_size=2, max_size=10),
    st.lists(st.booleans(), min_size=10, max_size=10),
)
def test_every_chip_lands_in_exactly_one_pot(contributions: list[int], flags: list[bool]) -> None:
    live = flags[: len(contributions)]
    seat, returned = uncalled_bet(contributions)
    if seat >= 0:
        contributions[seat] -= returned
    # In a real hand the largest contribution is a live seat's: to fold, a player must face
    # a bigger bet, and that bettor is still in.
    live[max(range(len(contributions)), key=contributions.__getitem__)] = True
    pots = side_pots(contributions, live)
    assert sum(p.amount for p in pots) == sum(contributions)
    for pot in pots:
        assert all(live[s] for s in pot.eligible)
    # No seat can win more from any opponent than it put in itself.
    for seat_index, c in enumerate(contributions):
        winnable = sum(p.amount for p in pots if seat_index in p.eligible)
        assert winnable <= sum(min(c, other) for other in contributions)


def test_odd_chips_go_left_of_the_button() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'with any extra chips going to the person closest to
    the button in clockwise order': every odd chip to that one person."""
    assert split(11, [2, 5], button=4, n_seats=6) == {5: 6, 2: 5}
    assert split(11, [2, 5], button=1, n_seats=6) == {2: 6, 5: 5}
    assert split(10, [0, 1, 2], button=2, n_seats=3) == {0: 4, 1: 3, 2: 3}
    # Three winners share 11: two odd chips, both to seat 0, first clockwise from the button.
    assert split(11, [0, 1, 2], button=2, n_seats=3) == {0: 5, 1: 3, 2: 3}
    assert split(23, [1, 3, 4, 5], button=3, n_seats=6) == {4: 8, 5: 5, 1: 5, 3: 5}
    exact = split(10, [0, 1, 2], button=2, n_seats=3, rule=OddChipRule.EXACT)
    assert exact == {0: Fraction(10, 3), 1: Fraction(10, 3), 2: Fraction(10, 3)}
    with pytest.raises(ValueError, match="winner"):
        split(10, [], button=0, n_seats=3)


def test_odd_chips_one_each_is_a_named_option() -> None:
    """The other reading of the same sentence, one odd chip to each winner in turn clockwise
    from the button, as an option (OddChipRule.ONE_EACH_LEFT_OF_BUTTON)."""
    one_each = OddChipRule.ONE_EACH_LEFT_OF_BUTTON
    assert split(11, [0, 1, 2], button=2, n_seats=3, rule=one_each) == {0: 4, 1: 4, 2: 3}
    assert split(23, [1, 3, 4, 5], button=3, n_seats=6, rule=one_each) == {
        4: 6,
        5: 6,
        1: 6,
        3: 5,
    }
    # With one odd chip the two readings agree.
    assert split(10, [0, 1, 2], button=2, n_seats=3, rule=one_each) == split(
        10, [0, 1, 2], button=2, n_seats=3
    )


def test_high_low_halves() -> None:
    """Rules 002_376df91f076a6501.txt, 'Odd chip will go left of the button on both high
    and low': the high half takes the odd chip between halves; each half splits left of
    the button."""
    assert split_high_low(101, [0], [1], button=2, n_seats=3) == {0: 51, 1: 50}
    assert split_high_low(101, [0], [], button=2, n_seats=3) == {0: 101}
    # Two high winners share 51: the odd chip goes to seat 0, first left of the button.
    assert split_high_low(101, [0, 1], [1], button=2, n_seats=3) == {0: 26, 1: 25 + 50}
    scoop = split_high_low(9, [1], [1], button=0, n_seats=2, rule=OddChipRule.EXACT)
    assert scoop == {1: 9}


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="same seats"):
        side_pots([1, 2], [True])
    with pytest.raises(ValueError, match="negative"):
        side_pots([1, -2], [True, True])
    with pytest.raises(ValueError, match="uncalled bet"):
        side_pots([5, 9], [True, False])
    assert uncalled_bet([10, 10]) == (-1, 0)
