"""Which cards may form the hand (simulations/evaluators/selection.py): the rule texts' games,
the compiled batch against the plain reference, and bad input."""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pytest

from simulations.cards import parse_cards
from simulations.dealing import deal
from simulations.evaluators import selection as sel
from simulations.evaluators.hand_value import Category
from simulations.evaluators.high import evaluate_high, evaluate_high_batch
from simulations.evaluators.omaha import evaluate_omaha
from simulations.evaluators.selection import (
    Selection,
    evaluate_per_board,
    evaluate_per_board_batch,
    evaluate_selection,
    evaluate_selection_batch,
)

C = Category
DECK = np.arange(52, dtype=np.int8)

PRESETS = [
    (sel.FIVE_CARDS, 1),
    (sel.SEVEN_CARD_STUD, 21),
    (sel.TEXAS_HOLDEM, 21),
    (sel.OMAHA, 6 * 10),
    (sel.FIVE_CARD_OMAHA, 10 * 10),
    (sel.COURCHEVAL, 60),
    (sel.MANILA, 10),
    (sel.MANILA_THREE_HOLE, 3 * 10),
    (sel.EAST_VILLAGE, 100),
    (sel.TAHOE, 1 + 3 * 5 + 3 * 10),
    (sel.SUPER_HOLDEM, 56),
    (sel.CINCINNATI, 252),
    (sel.BILLABONG, 21),
    (sel.SHANGHAI, 46),
    (sel.MURRUMBIDGEE_STUD, 46),
    (sel.OXFORD_STUD, 21),
    (sel.LAME_BRAIN_PETE, 21),
    (sel.DOUBLE_BOARD_HOLDEM, 21 + 21),
    # Two arms of five hole cards and three board cards, sharing the center card.
    (sel.IRON_CROSS, 56 + 56 - 6),
    # Four boards of five, the three F2 boards' triples shared by two of them.
    (sel.CHOWAHA, 4 * 10 - 4),
    (sel.TIC_TAC_TOE, 8),
    (sel.tic_tac_toe(4), 6 * 8),
    (sel.SIX_PACK, 6),
    (sel.six_pack(3), 3 * 6),
    (sel.OTIS_ELEVATOR, 3 * 21 - 2),
]


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def reference_batch(selection: Selection, hands: npt.NDArray[np.int8]) -> npt.NDArray[np.int32]:
    """Max over the selection's fives, each column subset valued by ``evaluate_high_batch``."""
    best = np.zeros(hands.shape[0], dtype=np.int32)
    for five in selection.combos:
        best = np.maximum(best, evaluate_high_batch(hands[:, list(five)], check=False))
    return best


# --- the rule texts' games ------------------------------------------------------------------------


def test_sample_hand_26_dollar_pot() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Sample hand': board 9♣ K♣ 3♥ 5♠ 9♦; Bob's Q♠ 9♥ makes
    three 9's with a King and a Queen as kickers, Carol's K♠ J♥ two pair, Kings and 9's, with a
    Jack kicker.  Bob wins the showdown and the $26 pot."""
    board = "9c Kc 3h 5s 9d"
    bob = evaluate_selection(sel.TEXAS_HOLDEM, "Qs 9h", board)
    carol = evaluate_selection(sel.TEXAS_HOLDEM, "Ks Jh", board)
    assert bob == evaluate_high("9c 9d 9h Kc Qs") and bob.name == "Three Nines"
    assert carol == evaluate_high("Kc Ks 9c 9d Jh") and carol.name == "Two pair, Kings and Nines"
    assert bob > carol
    alice = evaluate_selection(sel.TEXAS_HOLDEM, "Ac 7c", board)  # hoping for a club flush
    assert alice.category is C.ONE_PAIR


def test_omaha_selection_is_omaha() -> None:
    """Rules 002_376df91f076a6501.txt, 'Omaha hold 'em': exactly three of the five board cards
    plus exactly two of his own cards."""
    assert sel.OMAHA.hole_counts == (2,)
    hole, board = "Ts 3c 4c 5h", "As Ks Qs Js 2d"
    assert evaluate_selection(sel.OMAHA, hole, board) == evaluate_omaha(hole, board)
    assert evaluate_selection(sel.TEXAS_HOLDEM, "Ts 3c", board).name == "Royal flush"


def test_manila_both_hole_cards() -> None:
    """Rules 002_376df91f076a6501.txt, 'Manila': "each player makes the best hand he can from
    both of his hole cards with exactly three of the five community cards"."""
    # Four hearts on the board and one in the hole: no flush, where hold'em has one.
    board = "Ah Kh Qh 9h 8c"
    assert evaluate_selection(sel.MANILA, "2h 7s", board).category is C.HIGH_CARD
    assert evaluate_selection(sel.TEXAS_HOLDEM, "2h 7s", board).category is C.FLUSH
    # A pair in the hole is always part of the hand.
    assert evaluate_selection(sel.MANILA, "7c 7d", "Ah As Ad Kc Kd").name == "Aces full of Sevens"


def test_tahoe_none_one_or_two_hole_cards() -> None:
    """Rules 002_376df91f076a6501.txt, 'Tahoe': "may use none, one, or two cards from his hand"
    — but not all three; 'Super hold'em': "may use all three cards"."""
    hole, board = "2h 5h 9h", "Kh Jh 3c 4d 7s"
    assert evaluate_selection(sel.TAHOE, hole, board).category is C.HIGH_CARD
    assert evaluate_selection(sel.SUPER_HOLDEM, hole, board).category is C.FLUSH
    # Using none: the board plays.
    assert evaluate_selection(sel.TAHOE, "2c 3d 4h", "Ts Js Qs Ks As").name == "Royal flush"


def test_shanghai_no_more_than_two_hole_cards() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Shanghai': "no more than two hole cards play"; the upcard
    and the board play freely."""
    downcards, upcard_and_board = "7s 8s Ks", "9s Ts Jd 3c 2d"
    assert evaluate_selection(sel.SHANGHAI, downcards, upcard_and_board).name == (
        "Jack-high straight"
    )
    all_three = sel.any_five("all three downcards", 3, 5)
    assert evaluate_selection(all_three, downcards, upcard_and_board).name == "King-high flush"


def test_chowaha_only_valid_boards() -> None:
    """Rules 002_376df91f076a6501.txt, 'Chowaha': both hole cards plus three from one of the valid
    boards F1-F1-F1-T1-R1, F2-F2-F2-T1-R1, F2-F2-F2-T2-R1 and F3-F3-F3-T2-R1."""
    # F1 = Qh Jh 2c, F2 = 4c 5d 6s, F3 = 2s 3s 9d, T1 = 7d, T2 = Th, R1 = 8c.  The royal flush
    # needs F1 with T2, which share no valid board; the deuces of F1 and F3 never meet either.
    board = "Qh Jh 2c 4c 5d 6s 2s 3s 9d 7d Th 8c"
    hand = evaluate_selection(sel.CHOWAHA, "Ah Kh", board)
    assert hand.name == "Ace-high"
    everywhere = sel.exactly("any three", 2, 2, 12)
    assert evaluate_selection(everywhere, "Ah Kh", board).name == "Royal flush"
    boards = {frozenset(b) for b in sel.CHOWAHA.boards}
    assert frozenset({0, 1, 2, 9, 11}) in boards and len(boards) == 4


def test_tic_tac_toe_lines_only() -> None:
    """Rules 002_376df91f076a6501.txt, 'Tic tac toe': "any consecutive row of three on the board,
    either a horizontally, vertically, or diagonally" — the corners 0, 2, 6 are no line."""
    grid = "Ah 2c Ac 3d 4s 5c As 6h 7d"  # aces at positions 0, 2 and 6
    hand = evaluate_selection(sel.TIC_TAC_TOE, "Ad Kd", grid)
    assert hand.name == "Three Aces"  # two aces share row 0 or column 0, never all three
    three_any = sel.exactly("any three", 2, 2, 9)
    assert evaluate_selection(three_any, "Ad Kd", grid).name == "Four Aces"
    assert len(sel.TIC_TAC_TOE.combos) == 8


def test_six_pack_three_consecutive() -> None:
    """Rules 002_376df91f076a6501.txt, 'Six-pack': "cards dealt to opposite sides of the circle
    will never appear in the same final hand.  With exactly two hole cards, there are only six
    possible choices"."""
    assert len(sel.SIX_PACK.combos) == 6
    for five in sel.SIX_PACK.combos:
        board = {c - 2 for c in five if c >= 2}
        assert all((p + 3) % 6 not in board for p in board)
    # 12 and 6 o'clock hold the two other queens: never together.
    hand = evaluate_selection(sel.SIX_PACK, "Qs Qh", "Qc 2d 3h Qd 4s 5c")
    assert hand.name == "Three Queens"


def test_iron_cross_either_arm() -> None:
    """Rules 002_376df91f076a6501.txt, 'Iron cross': five hole cards "plus the three cards from
    either the vertical arm or the horizontal arm of the cross"."""
    # Layout left, right, top, bottom, center: the horizontal arm is 7h Kd 8h (left, center,
    # right), the vertical 9h Kd Th (top, center, bottom).
    board = "7h 8h 9h Th Kd"
    hole = "6h 5h 4h 2c 3d"
    assert evaluate_selection(sel.IRON_CROSS, hole, board).name == "Eight-high straight flush"
    # 8h-9h-Th-Jh-Qh would take cards of both arms.
    hand = evaluate_selection(sel.IRON_CROSS, "Jh Qh 2c 2s 3d", board)
    assert hand.name == "King-high straight"
    both_arms = sel.any_five("whole cross", 5, 5)
    assert evaluate_selection(both_arms, "Jh Qh 2c 2s 3d", board).name == (
        "Queen-high straight flush"
    )


def test_otis_elevator_floors() -> None:
    """Rules 002_376df91f076a6501.txt, 'Otis Elevator': the elevator card "can be positioned on
    any of the three floors", and the player uses the three cards on that floor."""
    # Floors: top As Ad, middle Kc Kd, bottom 2c 3d; the elevator Ah.
    board = "As Ad Kc Kd 2c 3d Ah"
    assert evaluate_selection(sel.OTIS_ELEVATOR, "Ac 7s 8s 9s", board).name == "Four Aces"
    # Aces full of kings would take the top floor's aces and the middle floor's kings.
    assert evaluate_selection(sel.OTIS_ELEVATOR, "Kh 7s 8s 9s", board).name == "Three Aces"
    whole_h = sel.any_five("whole board", 4, 7)
    assert evaluate_selection(whole_h, "Kh 7s 8s 9s", board).name == "Aces full of Kings"
    for five in sel.OTIS_ELEVATOR.combos:
        floors = {(c - 4) // 2 for c in five if 4 <= c < 10}
        assert len(floors) <= 1


def test_double_board_each_board_separately() -> None:
    """Rules 002_376df91f076a6501.txt, 'Double-board hold 'em': "two separate five-card boards are
    dealt, and the high hand using each board takes half of the pot"."""
    hole = "Ah Kh"
    first, second = "Qh Jh Th 2c 3d", "As Ad 7c 8c 9s"
    per_board = evaluate_per_board(sel.DOUBLE_BOARD_HOLDEM, hole, first + " " + second)
    assert [h.name for h in per_board] == ["Royal flush", "Three Aces"]
    assert per_board[0] == evaluate_selection(sel.TEXAS_HOLDEM, hole, first)
    assert per_board[1] == evaluate_selection(sel.TEXAS_HOLDEM, hole, second)
    row = np.array([cards(hole + " " + first + " " + second)], dtype=np.int8)
    assert evaluate_per_board_batch(sel.DOUBLE_BOARD_HOLDEM, row).tolist() == [
        [h.value for h in per_board]
    ]


def test_combinations_by_hand_count() -> None:
    for selection, expected in PRESETS:
        assert len(selection.combos) == expected, selection.name
        assert len(set(selection.combos)) == expected
        for five in selection.combos:
            used = sum(1 for c in five if c < selection.hole_cards)
            assert used in selection.hole_counts


def test_cincinnati_variants() -> None:
    """Rules 002_376df91f076a6501.txt, 'Cincinnati': any combination; "some variants restrict each
    player to using exactly two of his hole cards (as in Omaha) or no more than two"."""
    exactly_two = sel.exactly("Cincinnati, exactly two", 2, 5, 5)
    at_most_two = sel.at_most("Cincinnati, at most two", 2, 5, 5)
    assert exactly_two.hole_counts == (2,) and at_most_two.hole_counts == (0, 1, 2)
    hole, board = "Ah Kh Qh Jh Th", "2c 3d 4s 7c 9d"
    assert evaluate_selection(sel.CINCINNATI, hole, board).name == "Royal flush"
    assert evaluate_selection(exactly_two, hole, board).category is C.HIGH_CARD


# --- batch kernels against the reference ----------------------------------------------------------


@pytest.mark.parametrize(("selection", "count"), PRESETS, ids=[p[0].name for p in PRESETS])
def test_batch_equals_reference(selection: Selection, count: int) -> None:
    hands = deal(np.random.default_rng(count), DECK, 20_000, selection.row_width)
    assert np.array_equal(
        evaluate_selection_batch(selection, hands), reference_batch(selection, hands)
    )
    for row in hands[:20]:
        hole, board = row[: selection.hole_cards].tolist(), row[selection.hole_cards :].tolist()
        expected = max(evaluate_high([row[j] for j in five]) for five in selection.combos)
        assert evaluate_selection(selection, hole, board) == expected


def test_per_board_batch_equals_reference() -> None:
    selection = sel.DOUBLE_BOARD_HOLDEM
    hands = deal(np.random.default_rng(3), DECK, 20_000, selection.row_width)
    per_board = evaluate_per_board_batch(selection, hands)
    for b, board in enumerate(selection.usable_boards):
        columns = [0, 1, *(2 + p for p in board)]
        assert np.array_equal(per_board[:, b], evaluate_high_batch(hands[:, columns]))
    assert np.array_equal(per_board.max(axis=1), evaluate_selection_batch(selection, hands))


# --- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("x", 2, 5, (3,)), "0 to 2 hole cards"),
        (("x", 2, 5, (2, 1)), "distinct and increasing"),
        (("x", 2, 5, ()), "distinct and increasing"),
        (("x", 2, 5, (2,), ((0, 1, 7),)), "positions lie in 0..4"),
        (("x", 2, 5, (2,), ((0, 0, 1),)), "non-empty set"),
        (("x", 2, 5, (2,), ((0, 1),)), "no allowed combination"),
        (("x", -1, 5, (0,)), "negative"),
    ],
)
def test_bad_selections(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Selection(*args)  # type: ignore[arg-type]


def test_bad_hands() -> None:
    with pytest.raises(ValueError, match="Omaha needs 4 hole cards, got 3"):
        evaluate_selection(sel.OMAHA, "As Kd Qc", "2c 3d 4h 5s 6c")
    with pytest.raises(ValueError, match="needs 5 board cards, got 6"):
        evaluate_selection(sel.OMAHA, "As Kd Qc Jh", "2c 3d 4h 5s 6c 7c")
    with pytest.raises(ValueError, match="duplicate card 2c"):
        evaluate_selection(sel.OMAHA, "As Kd Qc 2c", "2c 3d 4h 5s 6c")
    with pytest.raises(ValueError, match="joker"):
        evaluate_selection(sel.OMAHA, "As Kd Qc Jk", "2c 3d 4h 5s 6c")
    row = np.array([cards("As Kd 2c 3d 4h 5s 6c")], dtype=np.int8)
    with pytest.raises(ValueError, match=r"expected shape \(n, 9\)"):
        evaluate_selection_batch(sel.OMAHA, row)
    twice = row.copy()
    twice[0, 1] = twice[0, 0]
    with pytest.raises(ValueError, match="holds As twice"):
        evaluate_selection_batch(sel.TEXAS_HOLDEM, twice)
    joker = row.copy()
    joker[0, 1] = 52
    with pytest.raises(ValueError, match="joker"):
        evaluate_selection_batch(sel.TEXAS_HOLDEM, joker)


def test_reference_can_fail() -> None:
    """The batch comparison notices a selection that lets one more five play."""
    hands = deal(np.random.default_rng(4), DECK, 5_000, 9)
    looser = sel.at_most("Omaha, at most two", 2, 4, 5)
    assert not np.array_equal(
        evaluate_selection_batch(looser, hands), reference_batch(sel.OMAHA, hands)
    )
    assert set(sel.OMAHA.combos) < set(looser.combos)
    assert list(itertools.islice(sel.OMAHA.combos, 1)) == [(0, 1, 4, 5, 6)]
