"""The ranking-system engine (simulations/evaluators/systems.py): the standard system against
the high evaluator, Canadian stud's extra hands, rankings and bad systems."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest

from simulations.dealing import deal
from simulations.evaluators.high import evaluate_high, evaluate_high_batch
from simulations.evaluators.ranking import Ranking
from simulations.evaluators.stripped import MANILA
from simulations.evaluators.system_census import system_census
from simulations.evaluators.systems import (
    CANADIAN_STUD,
    STANDARD,
    RankingSystem,
    Shape,
    evaluate_system,
    evaluate_system_batch,
    evaluate_system_high,
)
from tests import poker_reference as ref

S = Shape
DECK = np.arange(52, dtype=np.int8)
CANADIAN_RULES = ref.Rules(
    order=(
        ref.HIGH_CARD,
        ref.ONE_PAIR,
        ref.FOUR_STRAIGHT,
        ref.FOUR_FLUSH,
        ref.TWO_PAIR,
        ref.TRIPS,
        ref.STRAIGHT,
        ref.FLUSH,
        ref.FULL_HOUSE,
        ref.QUADS,
        ref.STRAIGHT_FLUSH,
        ref.FIVE_KIND,
    ),
    four_straights=("A234", *(ref.SYMBOLS[low : low + 4] for low in range(10))),
)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_standard_system_is_the_high_evaluator(k: int) -> None:
    hands = deal(np.random.default_rng(k), DECK, 100_000, k)
    assert np.array_equal(evaluate_system_batch(STANDARD, hands), evaluate_high_batch(hands))
    assert STANDARD.standard


@pytest.mark.parametrize("k", [8, 10])
def test_best_five_of_more_than_seven(k: int) -> None:
    """Cincinnati deals ten cards a player; the engine takes the best five of any number."""
    hands = deal(np.random.default_rng(k), DECK, 20_000, k)
    fives = itertools.combinations(range(k), 5)
    expected = np.max([evaluate_high_batch(hands[:, list(f)]) for f in fives], axis=0)
    assert np.array_equal(evaluate_system_batch(STANDARD, hands), expected)


def test_combos_restrict_the_fives() -> None:
    hands = deal(np.random.default_rng(3), DECK, 5_000, 7)
    combos = np.array([[0, 1, 2, 3, 4], [2, 3, 4, 5, 6]], dtype=np.int8)
    expected = np.maximum(evaluate_high_batch(hands[:, :5]), evaluate_high_batch(hands[:, 2:]))
    assert np.array_equal(evaluate_system_batch(STANDARD, hands, combos), expected)
    with pytest.raises(ValueError, match=r"\(m, 5\)"):
        evaluate_system_batch(STANDARD, hands, combos[:, :4])
    with pytest.raises(ValueError, match=r"outside 0\.\.6"):
        evaluate_system_batch(STANDARD, hands, combos + 3)


# --- Canadian stud --------------------------------------------------------------------------------


def test_canadian_stud_order() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Canadian stud': "a four-card straight beats one pair, a
    four-card flush beats a four-card straight, and two pair beats both of the above"."""
    pair = evaluate_system(CANADIAN_STUD, "Ac Ad Kh 9s 2c")
    four_straight = evaluate_system(CANADIAN_STUD, "5c 6d 7h 8s Kc")
    four_flush = evaluate_system(CANADIAN_STUD, "2c 5c 9c Jc Kd")
    two_pair = evaluate_system(CANADIAN_STUD, "2c 2d 3h 3s 4c")
    assert pair < four_straight < four_flush < two_pair
    assert four_straight.name == "Eight-high four-card straight"
    assert four_flush.category == "four-card flush"
    assert evaluate_system(CANADIAN_STUD, "Ac 2d 3h 4s 9c").name == "Four-high four-card straight"
    # A four-flush that pairs its odd card is still a four-flush; a straight is still a straight.
    assert evaluate_system(CANADIAN_STUD, "2c 5c 9c Jc Jd").category == "four-card flush"
    assert evaluate_system(CANADIAN_STUD, "5c 6c 7c 8c 9d").name == "Nine-high straight"


def test_canadian_stud_census() -> None:
    """Two pair and better keep their standard counts; exactly four cards of a suit that are not
    a straight make the four-card flushes, 4 x C(13, 4) x 39 less 600 straights."""
    census = system_census(CANADIAN_STUD, 5)
    assert census.total_hands == comb(52, 5)
    assert census.hands[S.FOUR_FLUSH] == 4 * comb(13, 4) * 39 - 10 * 5 * 4 * 3
    standard = system_census(STANDARD, 5)
    for shape in (S.TWO_PAIR, S.THREE_OF_A_KIND, S.STRAIGHT, S.FLUSH, S.FULL_HOUSE):
        assert census.hands[shape] == standard.hands[shape]
    low = (S.HIGH_CARD, S.ONE_PAIR, S.FOUR_STRAIGHT, S.FOUR_FLUSH)
    assert sum(census.hands[s] for s in low) == (
        standard.hands[S.HIGH_CARD] + standard.hands[S.ONE_PAIR]
    )


def test_canadian_stud_against_reference() -> None:
    hands = deal(np.random.default_rng(4), DECK, 200_000, 5).astype(np.int64)
    ours = evaluate_system_batch(CANADIAN_STUD, hands)
    assert [s.label for s in CANADIAN_STUD.order] == list(CANADIAN_RULES.order)
    assert np.array_equal(ours, ref.reference_values(hands >> 2, hands & 3, CANADIAN_RULES))
    seven = deal(np.random.default_rng(5), DECK, 40, 7)
    for row, value in zip(seven.tolist(), evaluate_system_batch(CANADIAN_STUD, seven), strict=True):
        assert value == ref.brute_force(row, CANADIAN_RULES)


# --- rankings and bad systems ---------------------------------------------------------------------


def test_rankings_carry_their_system() -> None:
    manila = evaluate_system(MANILA, "7c 8d 9h Ts Jc")
    assert isinstance(manila, Ranking)
    assert (manila.system, manila.category, manila.name) == (
        "Manila",
        "straight",
        "Jack-high straight",
    )
    canadian = evaluate_system(CANADIAN_STUD, "7c 8d 9h Ts Jc")
    with pytest.raises(TypeError, match="cannot compare"):
        _ = manila < canadian
    assert evaluate_system_high(STANDARD, "7c 8d 9h Ts Jc") == evaluate_high("7c 8d 9h Ts Jc")
    assert not CANADIAN_STUD.standard and not MANILA.standard


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ranks": tuple(S)[:0]}, "at least five distinct ranks"),
        ({"order": (S.HIGH_CARD, S.ONE_PAIR)}, "every standard category"),
        ({"joker_count": 5, "jokers": "wild"}, "at most 4 jokers"),
    ],
)
def test_bad_systems(kwargs: dict[str, object], message: str) -> None:
    from simulations.evaluators.systems import JokerRole

    if kwargs.get("jokers") == "wild":
        kwargs = {**kwargs, "jokers": JokerRole.WILD}
    with pytest.raises(ValueError, match=message):
        RankingSystem(name="x", **kwargs)  # type: ignore[arg-type]


def test_bad_hands() -> None:
    with pytest.raises(ValueError, match="2-D"):
        evaluate_system_batch(STANDARD, np.zeros(5, dtype=np.int8))
    with pytest.raises(ValueError, match=r"0\.\.55"):
        evaluate_system_batch(STANDARD, np.array([[0, 1, 2, 3, 60]]))
    with pytest.raises(ValueError, match="at least five cards, got 4"):
        evaluate_system_batch(STANDARD, np.array([[0, 1, 2, 3]]))
    with pytest.raises(ValueError, match="holds 2c twice"):
        evaluate_system_batch(STANDARD, np.array([[0, 0, 4, 8, 12]]))
    with pytest.raises(ValueError, match="not a card code"):
        evaluate_system(STANDARD, [0, 1, 2, 3, "4"])  # type: ignore[list-item]
