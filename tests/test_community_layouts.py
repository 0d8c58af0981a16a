"""Community layouts of the texts' home games (Rules 002_376df91f076a6501.txt: Cincinnati, Iron
cross, Tic tac toe, Chowaha, Six-pack, Otis Elevator): every showdown value checked against a
brute force over the layout as the text draws it, written here from the text and not from the
game files."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from simulations.engine.events import Shown
from simulations.engine.hand import Hand
from simulations.engine.history import play_plainly
from simulations.engine.variants import variant
from simulations.evaluators.high import evaluate_high

Cards = Sequence[int]


def _best(fives: list[Cards]) -> int:
    return max(int(evaluate_high(list(five)).value) for five in fives)


def _any_five(hole: Cards, board: Cards) -> int:
    return _best(list(itertools.combinations([*hole, *board], 5)))


def _two_and_three(hole: Cards, boards: list[Cards]) -> int:
    """Exactly two hole cards and three of one board."""
    return _best(
        [
            (*two, *three)
            for board in boards
            for two in itertools.combinations(hole, 2)
            for three in itertools.combinations(board, 3)
        ]
    )


def cincinnati(hole: Cards, board: Cards) -> int:
    """'the best five-card hand he can make from his five hole cards plus the five community
    cards in any combination'"""
    return _any_five(hole, board)


def iron_cross(hole: Cards, board: Cards) -> int:
    """'his five hole cards plus the three cards from either the vertical arm or the
    horizontal arm of the cross'; dealt left, right, top, bottom, then the centre."""
    left, right, top, bottom, centre = board
    return max(_any_five(hole, arm) for arm in ((left, centre, right), (top, centre, bottom)))


def tic_tac_toe(hole: Cards, board: Cards) -> int:
    """'his two cards plus any consecutive row of three on the board, either a horizontally,
    vertically, or diagonally'; dealt: the top row, the bottom row, the middle row's left and
    right, the centre."""
    t1, t2, t3, b1, b2, b3, m1, m3, c = board
    grid = [[t1, t2, t3], [m1, c, m3], [b1, b2, b3]]
    lines = [*grid, *([grid[r][k] for r in range(3)] for k in range(3))]
    lines += [[grid[i][i] for i in range(3)], [grid[i][2 - i] for i in range(3)]]
    return _two_and_three(hole, lines)


def chowaha(hole: Cards, board: Cards) -> int:
    """Three flops F1, F2, F3, two turns T1, T2, one river R1, as the text's diagram joins
    them: F1-T1-R1, F2-T1-R1, F2-T2-R1, F3-T2-R1."""
    f1, f2, f3, (t1, t2), r1 = board[0:3], board[3:6], board[6:9], board[9:11], board[11]
    return _two_and_three(hole, [[*f1, t1, r1], [*f2, t1, r1], [*f2, t2, r1], [*f3, t2, r1]])


def six_pack(hole: Cards, board: Cards) -> int:
    """Both hole cards and three consecutive cards of the circle; dealt at 12 and 6 o'clock,
    then 2 and 8, then 4 and 10."""
    twelve, six, two, eight, four, ten = board
    circle = [twelve, two, four, six, eight, ten]
    return _two_and_three(hole, [[circle[(i + k) % 6] for k in range(3)] for i in range(6)])


def otis_elevator(hole: Cards, board: Cards) -> int:
    """'use the three cards on that floor (including the elevator card) with their hole
    cards'; turned up: the top corners, the bottom corners, the sides, the elevator."""
    top_left, top_right, bottom_left, bottom_right, left, right, elevator = board
    floors = (
        (top_left, elevator, top_right),
        (left, elevator, right),
        (bottom_left, elevator, bottom_right),
    )
    return max(_any_five(hole, floor) for floor in floors)


@pytest.mark.parametrize(
    ("code", "brute"),
    [
        ("FCIN", cincinnati),
        ("FIRX", iron_cross),
        ("FTTT", tic_tac_toe),
        ("FCHOW", chowaha),
        ("FSIX", six_pack),
        ("FOTIS", otis_elevator),
    ],
)
def test_showdowns_match_a_brute_force_over_the_layout(
    code: str, brute: Callable[[Cards, Cards], int]
) -> None:
    game = variant(code).game()
    checked = 0
    for seed in range(150):
        hand = play_plainly(Hand(game, [400] * 4, button=seed % 4, rng=np.random.default_rng(seed)))
        for event in hand.events:
            if isinstance(event, Shown):
                assert event.value == brute(hand.hole[event.seat], hand.board), (code, seed)
                checked += 1
    assert checked == 150 * 4  # everyone checks or calls down: every hand is shown
