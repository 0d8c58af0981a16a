"""The high-hand evaluator: the best five of 5, 6 or 7 cards (simulations/evaluators/high.py)."""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulations.cards import Rank, parse_cards
from simulations.evaluators.hand_value import Category, HandValue, category_of, pack_value, ranks_of
from simulations.evaluators.high import evaluate_high, evaluate_high_batch
from simulations.evaluators.high_tables import _pack

R = Rank
C = Category
ALL_SETTINGS = settings(deadline=None, max_examples=300)


def ev(text: str) -> HandValue:
    return evaluate_high(text)


def best_of_fives(hands: npt.NDArray[np.int8]) -> npt.NDArray[np.int32]:
    """Max over every 5-card subset of each row, each subset valued by the batch API."""
    subsets = itertools.combinations(range(hands.shape[1]), 5)
    return np.max([evaluate_high_batch(hands[:, list(s)]) for s in subsets], axis=0)


def random_hands(seed: int, n: int, k: int) -> npt.NDArray[np.int8]:
    rng = np.random.default_rng(seed)
    return rng.random((n, 52)).argsort(axis=1)[:, :k].astype(np.int8)


def distinct_cards(low: int, high: int) -> st.SearchStrategy[list[int]]:
    return st.integers(low, high).flatmap(
        lambda k: st.lists(st.integers(0, 51), min_size=k, max_size=k, unique=True)
    )


# --- named hands --------------------------------------------------------------------------------

NAMED = [
    ("As Ks Qs Js Ts", "Royal flush", C.STRAIGHT_FLUSH, (R.ACE,)),
    ("Ah 2h 3h 4h 5h", "Five-high straight flush", C.STRAIGHT_FLUSH, (R.FIVE,)),
    ("9d Kd Td Qd Jd", "King-high straight flush", C.STRAIGHT_FLUSH, (R.KING,)),
    ("8c 8d 8h 8s 2c", "Four Eights", C.FOUR_OF_A_KIND, (R.EIGHT, R.TWO)),
    ("As Ad Ah Ts Td", "Aces full of Tens", C.FULL_HOUSE, (R.ACE, R.TEN)),
    ("Qd 9d 7d 4d 2d", "Queen-high flush", C.FLUSH, (R.QUEEN, R.NINE, R.SEVEN, R.FOUR, R.TWO)),
    ("As 2d 3c 4h 5s", "Five-high straight", C.STRAIGHT, (R.FIVE,)),
    ("Ts Jd Qc Kh As", "Ace-high straight", C.STRAIGHT, (R.ACE,)),
    ("9s 9d 9h Kc 2d", "Three Nines", C.THREE_OF_A_KIND, (R.NINE, R.KING, R.TWO)),
    ("Ks Kd 9s 9d Jc", "Two pair, Kings and Nines", C.TWO_PAIR, (R.KING, R.NINE, R.JACK)),
    ("6s 6d Ac 8h 3c", "Pair of Sixes", C.ONE_PAIR, (R.SIX, R.ACE, R.EIGHT, R.THREE)),
    ("Kh Jd 8c 5s 2d", "King-high", C.HIGH_CARD, (R.KING, R.JACK, R.EIGHT, R.FIVE, R.TWO)),
    ("7c 5d 4h 3s 2c", "Seven-high", C.HIGH_CARD, (R.SEVEN, R.FIVE, R.FOUR, R.THREE, R.TWO)),
]


@pytest.mark.parametrize(("text", "name", "category", "ranks"), NAMED)
def test_named_hands(text: str, name: str, category: Category, ranks: tuple[Rank, ...]) -> None:
    hand = ev(text)
    assert hand.name == str(hand) == name
    assert hand.category is category == category_of(hand.value)
    assert ranks_of(hand.value) == ranks
    assert hand.value == pack_value(category, *ranks)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Ah 2h 3h 4h 5h", "Five-high straight flush"),
        ("Jc Jd Jh Js 2c", "Four Jacks"),
        ("7c 7d 7h 3s 3d", "Sevens full of Threes"),
        ("Qd Td 7d 5d 3d", "Queen-high flush"),
        ("6c 7d 8h 9s Tc", "Ten-high straight"),
        ("4c 4d 4h Ks 9d", "Three Fours"),
        ("8c 8d 5h 5s Kc", "Two pair, Eights and Fives"),
        ("9c 9d Ah 5s 3c", "Pair of Nines"),
        ("Kh Jd 8c 5s 2d", "King-high"),
    ],
)
def test_ranking_list_examples(text: str, name: str) -> None:
    """Rules 002_376df91f076a6501.txt, 'Our example shows': the ranking list's example hands."""
    assert ev(text).name == name


def test_royal_flushes_tie_whatever_the_suit() -> None:
    """Rules 002_376df91f076a6501.txt, 'Two people with royal flushes would tie'."""
    royals = {ev(f"A{s} K{s} Q{s} J{s} T{s}").value for s in "cdhs"}
    assert royals == {pack_value(C.STRAIGHT_FLUSH, R.ACE)}


def test_suits_have_no_value() -> None:
    """Rules 002_376df91f076a6501.txt, 'Suits have no value': 3s-7s does not beat 3d-7d."""
    assert ev("3s 4s 5s 6s 7s").value == ev("3d 4d 5d 6d 7d").value
    assert ev("As Kd 9h 5c 2c").value == ev("Ac Kh 9s 5d 2d").value


WEAKEST_AND_STRONGEST = [
    ("7c 5d 4h 3s 2c", "Ac Kd Qh Js 9c"),
    ("2c 2d 3h 4s 5c", "Ac Ad Kh Qs Jc"),
    ("2d 2s 3d 3c 4s", "Ac Ad Kh Ks Qc"),
    ("2c 2d 2h 3s 4c", "Ac Ad Ah Ks Qc"),
    ("Ac 2d 3h 4s 5c", "Tc Jd Qh Ks Ac"),
    ("7h 5h 4h 3h 2h", "Ah Kh Qh Jh 9h"),
    ("2c 2d 2h 3s 3c", "Ac Ad Ah Ks Kc"),
    ("2c 2d 2h 2s 3c", "Ac Ad Ah As Kc"),
    ("Ac 2c 3c 4c 5c", "Tc Jc Qc Kc Ac"),
]


def test_ranked_first_by_category() -> None:
    """Rules 002_376df91f076a6501.txt, 'ranked first by category': the lowest of a category
    beats every hand of the categories below (the smallest two pair is 2d 2s 3d 3c 4s)."""
    previous_best = -1
    for category, (weakest, strongest) in zip(Category, WEAKEST_AND_STRONGEST, strict=False):
        low, high = ev(weakest), ev(strongest)
        assert low.category is high.category is category
        assert previous_best < low.value < high.value
        previous_best = high.value


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("8s 8d 8h 2c 2d", "7s 7d 7h Ac Ad"),  # trips decide before the pair
        ("8s 8d 8h 3c 3d", "8c 8s 8h 2c 2d"),  # then the pair
        ("Ks Kd 5s 5d 2c", "Ks Kd 4s 4d Ac"),  # same high pair: the second pair wins
        ("Ks Kd 5s 5d 3c", "Kc Kh 5c 5h 2c"),  # both pairs tie: the high card
        ("9s 9d Ac 4h 3c", "9c 9h Kd Qs Jc"),  # pair: in a tie the high card wins
        ("9s 9d Ac 8h 3c", "9c 9h Ad 7s 6c"),  # ... then the next one
        ("Ks Qd 7c 4h 3c", "Kd Qh 7s 4c 2d"),  # high card down to the fifth card
    ],
)
def test_ties_broken_by_rank(better: str, worse: str) -> None:
    """Rules 002_376df91f076a6501.txt, 'Ties are broken first by the three of a kind', and
    'If both pairs tie, the high card wins'."""
    assert ev(better).value > ev(worse).value
    assert ev(better).category is ev(worse).category


# --- best five of six and seven -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "ranks"),
    [
        ("Ks Kd Kh 9s 9d 9h 2c", "Kings full of Nines", (R.KING, R.NINE)),
        ("5s 5d 5h Qs Qd 9s 9d", "Fives full of Queens", (R.FIVE, R.QUEEN)),
        ("As Ad Ks Kd 7s 7d 9c", "Two pair, Aces and Kings", (R.ACE, R.KING, R.NINE)),
        ("As Ad Ks Kd 7s 7d 2c", "Two pair, Aces and Kings", (R.ACE, R.KING, R.SEVEN)),
        ("As Ad Ks Kd 7s 7d", "Two pair, Aces and Kings", (R.ACE, R.KING, R.SEVEN)),
        ("8c 8d 8h 8s Ks Kd 2c", "Four Eights", (R.EIGHT, R.KING)),
        ("8c 8d 8h 8s 3c 3d 3h", "Four Eights", (R.EIGHT, R.THREE)),
        ("8c 8d 8h 8s 2c 5d Qh", "Four Eights", (R.EIGHT, R.QUEEN)),
        ("8c 8d 8h 8s 2c Ad", "Four Eights", (R.EIGHT, R.ACE)),
        ("5s 5d 5h 6c 7d 8s 9h", "Nine-high straight", (R.NINE,)),
        ("2h 5h 6h 7h 9h 8c Td", "Nine-high flush", (R.NINE, R.SEVEN, R.SIX, R.FIVE, R.TWO)),
        ("Ah Kh 9h 7h 5h 3h 2h", "Ace-high flush", (R.ACE, R.KING, R.NINE, R.SEVEN, R.FIVE)),
        ("9h Th Jh Qh 2h Kd 8c", "Queen-high flush", (R.QUEEN, R.JACK, R.TEN, R.NINE, R.TWO)),
        ("9h Th Jh Qh Kh 9s 9d", "King-high straight flush", (R.KING,)),
        ("2h 3h 4h 5h 6h 7h Ah", "Seven-high straight flush", (R.SEVEN,)),
        ("As 2d 3c 4h 5s 6d Kc", "Six-high straight", (R.SIX,)),
        ("As 2d 3c 4h 5s Ad Ac", "Five-high straight", (R.FIVE,)),
        ("As Ks Qd 2c 3h 4d 9s", "Ace-high", (R.ACE, R.KING, R.QUEEN, R.NINE, R.FOUR)),
        ("Qs Ks As 2d 3c 7h", "Ace-high", (R.ACE, R.KING, R.QUEEN, R.SEVEN, R.THREE)),
    ],
)
def test_best_five_of_six_and_seven(text: str, name: str, ranks: tuple[Rank, ...]) -> None:
    """Rules 002_376df91f076a6501.txt, 'A hand always consists of five cards': the best
    five-card combination plays (two trips make a full house; the kicker may come from a third
    pair or from the remaining cards; a straight beats trips and a flush a straight)."""
    hand = ev(text)
    assert (hand.name, ranks_of(hand.value)) == (name, ranks)


def test_ace_plays_low_only_in_the_wheel() -> None:
    """Rules 002_376df91f076a6501.txt, 'Aces only appear low': only in A-2-3-4-5."""
    assert ev("As 2d 3c 4h 5s").category is C.STRAIGHT
    for text in ("Ks As 2d 3c 4h", "Qs Ks As 2d 3c", "Js Qs Ks As 2d"):
        assert ev(text).category is C.HIGH_CARD
        assert ranks_of(ev(text).value)[0] is R.ACE
    assert ev("Ts Jd Qc Kh As").value > ev("2s 3d 4c 5h 6s").value > ev("As 2d 3c 4h 5s").value
    assert ev("Ah 2h 3h 4h 5h").value < ev("2h 3h 4h 5h 6h").value


# --- properties and cross-checks ----------------------------------------------------------------


@ALL_SETTINGS
@given(distinct_cards(5, 7).flatmap(lambda h: st.tuples(st.just(h), st.permutations(h))))
def test_card_order_does_not_matter(pair: tuple[list[int], list[int]]) -> None:
    cards, shuffled = pair
    assert evaluate_high(cards) == evaluate_high(shuffled)
    batch = evaluate_high_batch(np.array([cards, shuffled]))
    assert batch[0] == batch[1] == evaluate_high(cards).value


@ALL_SETTINGS
@given(distinct_cards(6, 7))
def test_six_and_seven_cards_play_their_best_five(cards: list[int]) -> None:
    best = max(evaluate_high(list(five)).value for five in itertools.combinations(cards, 5))
    assert evaluate_high(cards).value == best


@pytest.mark.parametrize("k", [6, 7])
def test_batch_equals_max_over_five_card_subsets(k: int) -> None:
    hands = random_hands(seed=20_000 + k, n=20_000, k=k)
    values = evaluate_high_batch(hands)
    assert np.array_equal(values, best_of_fives(hands))
    assert len(np.unique(values >> 20)) == 9  # every category turned up


def test_batch_agrees_with_scalar() -> None:
    for k in (5, 6, 7):
        hands = random_hands(seed=k, n=300, k=k)
        values = evaluate_high_batch(hands)
        assert values.dtype == np.int32 and values.shape == (300,)
        assert [evaluate_high(row.tolist()).value for row in hands] == values.tolist()


def test_unchecked_path_equals_checked_path() -> None:
    hands = random_hands(seed=77, n=5_000, k=7)
    assert np.array_equal(evaluate_high_batch(hands, check=False), evaluate_high_batch(hands))
    wide = hands.astype(np.int64)  # other integer dtypes are accepted and converted
    assert np.array_equal(evaluate_high_batch(wide, check=False), evaluate_high_batch(hands))


def test_empty_batch() -> None:
    assert evaluate_high_batch(np.zeros((0, 7), dtype=np.int8)).shape == (0,)


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("k", [4, 8, 1])
def test_wrong_card_count(k: int) -> None:
    with pytest.raises(ValueError, match=f"5 to 7 cards, got {k}"):
        ev(" ".join(["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s"][:k]))
    with pytest.raises(ValueError, match=f"5 to 7 cards each, got {k}"):
        evaluate_high_batch(np.arange(k, dtype=np.int8).reshape(1, k))


def test_jokers_are_rejected() -> None:
    with pytest.raises(ValueError, match="joker"):
        ev("As Ks Qs Js Jk")
    with pytest.raises(ValueError, match="joker"):
        evaluate_high([51, 47, 43, 39, 52])
    with pytest.raises(ValueError, match="hand 1 holds a joker"):
        evaluate_high_batch(np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 53]]))


def test_duplicates_are_rejected() -> None:
    with pytest.raises(ValueError, match="duplicate card As"):
        ev("As Ks Qs Js As")
    with pytest.raises(ValueError, match=r"duplicate card As|As twice"):
        evaluate_high([51, 47, 43, 39, 51])
    with pytest.raises(ValueError, match="hand 2 holds 2c twice"):
        evaluate_high_batch(np.array([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [0, 9, 10, 11, 0]]))


@pytest.mark.parametrize("bad", [-1, 60, 127, 128, 1000, -129])
def test_batch_codes_out_of_range(bad: int) -> None:
    message = f"hand 0 holds card code {bad}" if -128 <= bad <= 127 else r"lie in 0\.\.51"
    with pytest.raises(ValueError, match=message):
        evaluate_high_batch(np.array([[0, 1, 2, 3, bad]]))


@pytest.mark.parametrize("bad", [-1, 60, 300])
def test_scalar_codes_out_of_range(bad: int) -> None:
    with pytest.raises(ValueError, match=f"card code {bad}"):
        evaluate_high([0, 1, 2, 3, bad])


@pytest.mark.parametrize("bad", [4.0, "4", None, True])
def test_scalar_non_integer_codes(bad: object) -> None:
    with pytest.raises(ValueError, match=r"not (a )?card code"):
        evaluate_high([0, 1, 2, 3, bad])  # type: ignore[list-item]


@pytest.mark.parametrize(
    "array", [np.zeros((2, 5), dtype=float), np.ones((1, 5), dtype=bool), np.array([["As"] * 5])]
)
def test_batch_non_integer_arrays(array: npt.NDArray[np.generic]) -> None:
    with pytest.raises(ValueError, match="integer card codes"):
        evaluate_high_batch(array)


@pytest.mark.parametrize("array", [np.arange(7), np.arange(35).reshape(1, 5, 7), np.int8(3)])
def test_batch_needs_two_dimensions(array: npt.NDArray[np.generic]) -> None:
    with pytest.raises(ValueError, match="2-D array"):
        evaluate_high_batch(array)


# --- golden hands from the rule texts -----------------------------------------------------------


def holdem(hole: str, board: str) -> HandValue:
    return evaluate_high(parse_cards(hole + " " + board))


def test_sample_hand_trips_beat_two_pair() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Sample hand' (also 001 'sample deal'): board
    9♣ K♣ 3♥ 5♠ 9♦; Bob's three 9s with K-Q kickers beat Carol's Kings and 9s."""
    board = "9♣ K♣ 3♥ 5♠ 9♦"
    bob, carol = holdem("Q♠ 9♥", board), holdem("K♠ J♥", board)
    assert (bob.name, ranks_of(bob.value)) == ("Three Nines", (R.NINE, R.KING, R.QUEEN))
    assert carol.name == "Two pair, Kings and Nines"
    assert ranks_of(carol.value) == (R.KING, R.NINE, R.JACK)
    assert bob.value > carol.value
    # Alice folded A♣ 7♣ 'hoping the river card would be a club': a club makes her flush.
    assert holdem("A♣ 7♣", "9♣ K♣ 3♥ 5♠ 2♣").value > holdem("Q♠ 9♥", "9♣ K♣ 3♥ 5♠ 2♣").value
    assert holdem("A♣ 7♣", "9♣ K♣ 3♥ 5♠ 2♣").name == "Ace-high flush"


KICKERS_BOARD = "8♠ Q♣ 8♥ 4♣"  # the turn board, read off the hands the paragraph lists
KICKERS_HOLES = {"Alice": "10♣ 9♣", "Bob": "K♥ Q♠", "Carol": "Q♥ 10♦", "Ted": "J♣ 2♣"}


def showdown(river: str) -> dict[str, HandValue]:
    return {p: holdem(h, f"{KICKERS_BOARD} {river}") for p, h in KICKERS_HOLES.items()}


def test_kickers_example_split_pot() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Kickers and ranks' (also 001): after the turn Bob's King
    kicker beats Carol; the A♠ river plays for both, so they split the pot."""
    turn = {p: holdem(h, KICKERS_BOARD) for p, h in KICKERS_HOLES.items()}  # six cards each
    assert ranks_of(turn["Bob"].value) == (R.QUEEN, R.EIGHT, R.KING)
    assert ranks_of(turn["Carol"].value) == (R.QUEEN, R.EIGHT, R.TEN)
    assert max(turn.values()) == turn["Bob"] and turn["Bob"].value > turn["Carol"].value
    river = showdown("A♠")
    assert river["Bob"].value == river["Carol"].value
    assert river["Bob"].name == "Two pair, Queens and Eights"
    assert ranks_of(river["Bob"].value) == (R.QUEEN, R.EIGHT, R.ACE)
    assert river["Bob"].value > max(river["Alice"].value, river["Ted"].value)


def test_kickers_example_what_if_rivers() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Kickers and ranks': on the 7♣ Ted's Q-J-7-4-2 flush beats
    Alice's Q-10-9-7-4; on the J♦ Alice's Queen-high straight wins."""
    club = showdown("7♣")
    assert ranks_of(club["Ted"].value) == (R.QUEEN, R.JACK, R.SEVEN, R.FOUR, R.TWO)
    assert ranks_of(club["Alice"].value) == (R.QUEEN, R.TEN, R.NINE, R.SEVEN, R.FOUR)
    assert club["Ted"].category is club["Alice"].category is C.FLUSH
    assert max(club.values()) == club["Ted"] and club["Ted"].value > club["Alice"].value
    jack = showdown("J♦")
    assert jack["Alice"].name == "Queen-high straight"
    assert all(jack["Alice"].value > v.value for p, v in jack.items() if p != "Alice")


def test_stud_sample_deal() -> None:
    """Rules 003_6e018542f14946f8.txt, 'K-K-9-9-5' (also 001): Alice's three pairs play Kings and
    Nines with the 5 kicker; Carol's ace-high straight wins the pot."""
    alice, carol = ev("9♥ 5♦ 9♣ K♥ K♣ 3♠ 5♠"), ev("Q♠ 2♥ K♦ J♣ T♥ T♦ A♦")
    assert ranks_of(alice.value) == (R.KING, R.NINE, R.FIVE)
    assert alice.name == "Two pair, Kings and Nines"
    assert carol.name == "Ace-high straight"
    assert carol.value > alice.value


def test_lowest_possible_nuts_is_three_queens() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'lowest possible nuts is three Queens': 2 3 7 8 Q on
    the board with no more than two cards of a suit; checked over all 1,081 hole-card pairs."""
    board = list(parse_cards("2c 3d 7h 8c Qd"))
    rest = [c for c in range(52) if c not in board]
    holes = np.array(list(itertools.combinations(rest, 2)), dtype=np.int8)
    hands = np.hstack([holes, np.tile(np.array(board, dtype=np.int8), (len(holes), 1))])
    best = int(evaluate_high_batch(hands).max())
    assert len(holes) == 1081
    assert HandValue.from_value(best).name == "Three Queens"
    assert ranks_of(best) == (R.QUEEN, R.EIGHT, R.SEVEN)


# --- packed values ------------------------------------------------------------------------------


def test_pack_value_agrees_with_compiled_pack() -> None:
    rng = np.random.default_rng(5)
    cases = [tuple(int(x) for x in row) for row in rng.integers(0, 13, size=(2_000, 5))]
    for i, ranks in enumerate(cases):
        category = i % 10
        assert pack_value(category, *ranks) == _pack(category, *ranks)
    full_house = (6 << 20) | (12 << 16) | (8 << 12)
    assert pack_value(C.FULL_HOUSE, 12, 8) == _pack(6, 12, 8, 0, 0, 0) == full_house
    assert pack_value(C.HIGH_CARD) == _pack(0, 0, 0, 0, 0, 0) == 0
    with pytest.raises(ValueError, match="at most five ranks"):
        pack_value(C.HIGH_CARD, 1, 2, 3, 4, 5, 6)


def test_hand_value_order_follows_value() -> None:
    values = evaluate_high_batch(random_hands(seed=9, n=2_000, k=7)).tolist()
    hands = [HandValue.from_value(v) for v in values]
    assert [h.value for h in sorted(hands)] == sorted(values)
    for (a, x), (b, y) in itertools.pairwise(zip(hands, values, strict=True)):
        assert (a < b, a == b, a > b) == (x < y, x == y, x > y)
    for hand in hands[:50]:
        assert hand == HandValue.from_value(hand.value)
        assert (hand.category, hand.name) == (category_of(hand.value), str(hand))
