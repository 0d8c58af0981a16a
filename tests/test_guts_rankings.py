"""Three-card guts in both orders and two-card hands, against an exhaustive enumeration that
classifies every hand by its own plain rules (simulations/evaluators/small_hands.py).

The reference here shares no code with the evaluator: it looks at the ranks and suits of
each of the 22,100 three-card hands (1,326 two-card hands) and writes down the category and
the ranks that break ties, then demands that the evaluator order every pair of hands as
that reference does.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest

from simulations.evaluators.small_hands import (
    ThreeCardOrder,
    evaluate_three_card,
    evaluate_three_card_batch,
    evaluate_two_card,
    evaluate_two_card_batch,
    three_card_ranking,
    two_card_ranking,
)

# The categories weakest first, as each order writes them.
TEXTS = ["high card", "pair", "flush", "straight", "straight flush", "three of a kind"]
POKER = ["high card", "pair", "flush", "straight", "three of a kind", "straight flush"]
ORDERS = {ThreeCardOrder.THREE_OF_A_KIND_FIRST: TEXTS, ThreeCardOrder.STRAIGHT_FLUSH_FIRST: POKER}

# Every three-card hand, by category: the same hands under either order.
THREE_CARD_COUNTS = {
    "three of a kind": 52,
    "straight flush": 48,
    "straight": 720,
    "flush": 1_096,
    "pair": 3_744,
    "high card": 16_440,
}


def _three_card_reference(cards: Sequence[int]) -> tuple[str, tuple[int, ...]]:
    """The category and tie-breaking ranks of three cards (rank = card // 4, ace 12)."""
    ranks = sorted((c // 4 for c in cards), reverse=True)
    suited = len({c % 4 for c in cards}) == 1
    if ranks[0] == ranks[2]:
        return "three of a kind", (ranks[0],)
    if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]
        kicker = ranks[2] if ranks[0] == ranks[1] else ranks[0]
        return "pair", (pair, kicker)
    top = None
    if ranks[0] - ranks[1] == 1 and ranks[1] - ranks[2] == 1:
        top = ranks[0]
    if ranks == [12, 1, 0]:  # A-2-3: the ace low, the three on top
        top = 1
    if top is not None:
        return ("straight flush" if suited else "straight"), (top,)
    return ("flush" if suited else "high card"), tuple(ranks)


def _two_card_reference(cards: Sequence[int], sf: bool) -> tuple[str, tuple[int, ...]]:
    high, low = sorted((c // 4 for c in cards), reverse=True)
    if high == low:
        return "pair", (high,)
    suited = cards[0] % 4 == cards[1] % 4
    if sf:
        top = high if high - low == 1 else (0 if (high, low) == (12, 0) else None)
        if top is not None:
            return ("straight flush" if suited else "straight"), (top,)
        if suited:
            return "flush", (high, low)
    return "high card", (high, low)


def _orders_alike(values: Sequence[int], keys: Sequence[tuple[int, tuple[int, ...]]]) -> None:
    """``values`` and ``keys`` order the hands the same way, ties included: equal values
    exactly for equal keys, and the larger value for the larger key."""
    by_value: dict[int, set[tuple[int, tuple[int, ...]]]] = {}
    for value, key in zip(values, keys, strict=True):
        by_value.setdefault(value, set()).add(key)
    assert all(len(found) == 1 for found in by_value.values()), "a value covers two hands"
    ladder = [next(iter(by_value[v])) for v in sorted(by_value)]
    assert len(set(ladder)) == len(ladder), "one hand has two values"
    assert ladder == sorted(ladder)


@pytest.fixture(scope="module")
def every_three() -> list[tuple[int, int, int]]:
    return list(itertools.combinations(range(52), 3))


@pytest.mark.parametrize("order", list(ThreeCardOrder))
def test_every_three_card_hand_by_category(
    order: ThreeCardOrder, every_three: list[tuple[int, int, int]]
) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "The hands are ranked as follows: Three of a
    kind, straight flush, straight, flush, pair" (the texts' order), and the order "ranked
    as in regular 5-card poker" (the straight flush first).  All 22,100 hands counted by
    category, the same hands in either order; every pair of hands ordered as the plain
    reference orders them."""
    reference = [_three_card_reference(hand) for hand in every_three]
    assert len(reference) == 22_100
    assert Counter(category for category, _ in reference) == THREE_CARD_COUNTS
    values = evaluate_three_card_batch(np.array(every_three, dtype=np.int8), order=order)
    categories = [three_card_ranking(v, order=order).category for v in values.tolist()]
    assert Counter(categories) == THREE_CARD_COUNTS
    assert categories == [category for category, _ in reference]
    ladder = ORDERS[order]
    keys = [(ladder.index(category), ranks) for category, ranks in reference]
    _orders_alike(values.tolist(), keys)
    # the scalar call agrees with the batch, hand for hand (a sample of every hundredth)
    for hand, value in list(zip(every_three, values.tolist(), strict=True))[::100]:
        assert evaluate_three_card(hand, order=order).value == value


def test_the_two_orders_differ_only_at_the_top(every_three: list[tuple[int, int, int]]) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "Three of a kind, straight flush": in the
    texts' order the lowest three of a kind beats the best straight flush; in the poker
    order ("ranked as in regular 5-card poker") the lowest straight flush beats the best
    three of a kind, and the other four categories keep their places."""
    texts, poker = ThreeCardOrder.THREE_OF_A_KIND_FIRST, ThreeCardOrder.STRAIGHT_FLUSH_FIRST
    trips, straight_flush = "2c 2d 2h", "Qs Ks As"
    assert evaluate_three_card(trips, order=texts) > evaluate_three_card(straight_flush)
    assert evaluate_three_card("As 2s 3s", order=poker) > evaluate_three_card(
        "Ac Ad Ah", order=poker
    )
    hands = np.array(every_three, dtype=np.int8)
    a = evaluate_three_card_batch(hands, order=texts)
    b = evaluate_three_card_batch(hands, order=poker)
    moved = (a >> 12 >= 4) | (b >> 12 >= 4)
    assert int(moved.sum()) == 52 + 48
    assert np.array_equal(a[~moved], b[~moved])
    with pytest.raises(TypeError):  # two systems: their rankings do not compare
        _ = evaluate_three_card(trips, order=texts) < evaluate_three_card(trips, order=poker)
    assert "straight flush first" in evaluate_three_card(trips, order=poker).system


@pytest.mark.parametrize("sf", [False, True])
def test_every_two_card_hand_by_category(sf: bool) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "a reduced poker hand of either 2 or 3
    cards", "in some variations straights and flushes count and in some they do not".  All
    1,326 two-card hands: 78 pairs; with straights and flushes, 52 straight flushes, 156
    straights and 260 flushes, ranked pair, straight flush, straight, flush, high card."""
    hands = list(itertools.combinations(range(52), 2))
    reference = [_two_card_reference(hand, sf) for hand in hands]
    counts = Counter(category for category, _ in reference)
    if sf:
        assert counts == {
            "pair": 78,
            "straight flush": 52,
            "straight": 156,
            "flush": 260,
            "high card": 780,
        }
    else:
        assert counts == {"pair": 78, "high card": 1_248}
    values = evaluate_two_card_batch(np.array(hands, dtype=np.int8), straights_and_flushes=sf)
    named = [two_card_ranking(v, straights_and_flushes=sf).category for v in values.tolist()]
    assert named == [category for category, _ in reference]
    ladder = ["high card", "flush", "straight", "straight flush", "pair"]
    _orders_alike(values.tolist(), [(ladder.index(c), r) for c, r in reference])
    assert evaluate_two_card(hands[7], straights_and_flushes=sf).value == values[7]
