"""The bad-beat jackpot model: qualifiers, the compiled kernel against the brute-force oracle
(:mod:`tests.jackpot_oracle`), results.

Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot': a strong enough hand shown down loses to
a stronger one; usually both hole cards must play in both the losing and winning hands.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulations.cards import parse_cards
from simulations.dealing import deal
from simulations.decks import Deck
from simulations.evaluators.floors import hand_floor
from simulations.evaluators.hand_value import Category, pack_value
from simulations.evaluators.high import evaluate_high
from simulations.models.bad_beat import BadBeatModel, BadBeatTally, count_jackpots
from simulations.rules.jackpot import BadBeatRules
from tests.jackpot_oracle import jackpot_hit


def _layout(board: str, *holes: str) -> np.ndarray:
    cards = [*parse_cards(board)]
    for hole in holes:
        cards.extend(parse_cards(hole))
    return np.array([cards], dtype=np.int8)


def _verdicts(rules: BadBeatRules, board: str, *holes: str) -> tuple[bool, bool]:
    """(kernel, oracle) verdicts on one hand."""
    dealt = _layout(board, *holes)
    kernel = count_jackpots(dealt, len(holes), rules) == 1
    hole_cards = [parse_cards(h) for h in holes]
    return kernel, jackpot_hit(parse_cards(board), hole_cards, rules)


def test_quads_beaten_by_straight_flush_hits() -> None:
    """Rules 000, 'Bad beat jackpot': 'the losing hand may be required to be four-of-a-kind'."""
    rules = BadBeatRules("quads", quads_need_pocket_pair=True)
    # Tens quads with a pocket pair lose to a queen-high straight flush; both use both cards.
    assert _verdicts(rules, "Ts Th 9h 8h 2c", "Tc Td", "Jh Qh", "3d 4d") == (True, True)


def test_quads_without_pocket_pair_do_not_qualify_when_required() -> None:
    """Rules 000, 'Bad beat jackpot': 'There may be additional requirements as well.'"""
    board = "Ts Th Tc 8h 9h"
    # Four tens from one hole ten and three on the board, beaten by a straight flush.
    needs_pair = BadBeatRules("quads", quads_need_pocket_pair=True, hole_cards_play=1)
    any_quads = BadBeatRules("quads", quads_need_pocket_pair=False, hole_cards_play=1)
    assert _verdicts(needs_pair, board, "Td 2c", "Jh Qh") == (False, False)
    assert _verdicts(any_quads, board, "Td 2c", "Jh Qh") == (True, True)


def test_both_hole_cards_must_play_in_the_losing_hand() -> None:
    """Rules 000, 'Bad beat jackpot': 'both hole cards play in both the losing and winning'."""
    board = "As Ad Tc Th 2c"
    # Aces full of tens made with one hole ace (the 3 does not play) lose to quad tens made
    # with a pocket pair.
    two = BadBeatRules("AAATT", hole_cards_play=2)
    one = BadBeatRules("AAATT", hole_cards_play=1)
    assert _verdicts(two, board, "Ah 3d", "Ts Td") == (False, False)
    assert _verdicts(one, board, "Ah 3d", "Ts Td") == (True, True)


def test_both_hole_cards_must_play_in_the_winning_hand() -> None:
    """Rules 000, 'Bad beat jackpot': 'both hole cards play in both the losing and winning'."""
    board = "Ks Qs Js Ts Kd"
    # Kings full of queens from Kh Qh lose to a royal flush that uses the As alone.
    two = BadBeatRules("full house", hole_cards_play=2)
    one = BadBeatRules("full house", hole_cards_play=1)
    assert _verdicts(two, board, "Kh Qh", "As 2c") == (False, False)
    assert _verdicts(one, board, "Kh Qh", "As 2c") == (True, True)


def test_full_house_with_trips_on_board_can_be_excluded() -> None:
    """Rules 000, 'Bad beat jackpot': 'These rules vary' — board trips in a losing full house."""
    board = "As Ac Ad Ks Qs"
    # Pocket kings make aces full of kings, the three aces all on the board; a royal flush wins.
    allowed = BadBeatRules("AAATT", board_trips_full_house=True)
    excluded = BadBeatRules("AAATT", board_trips_full_house=False)
    assert _verdicts(allowed, board, "Kh Kd", "Js Ts") == (True, True)
    assert _verdicts(excluded, board, "Kh Kd", "Js Ts") == (False, False)


def test_winning_floor() -> None:
    """The winning hand may need a floor of its own (a straight flush, say)."""
    board = "Ac Ad Th 7s 7c"
    # Aces full of tens (As Tc) lose to quad sevens (a pocket pair): both use both cards.
    assert _verdicts(BadBeatRules("AAATT"), board, "As Tc", "7h 7d") == (True, True)
    strict = BadBeatRules("AAATT", min_winning_hand="straight flush")
    assert _verdicts(strict, board, "As Tc", "7h 7d") == (False, False)


def test_below_the_losing_floor_never_hits() -> None:
    """A full house below aces full of tens does not qualify against a bigger full house."""
    rules = BadBeatRules("AAATT", hole_cards_play=0)
    assert _verdicts(rules, "Kc Kd Ks 7s 2c", "7c 7d", "Ah Ad") == (False, False)


@pytest.mark.parametrize(
    "rules",
    [
        BadBeatRules(),
        BadBeatRules("full house", hole_cards_play=2, quads_need_pocket_pair=True),
        BadBeatRules("full house", hole_cards_play=1, board_trips_full_house=False),
        BadBeatRules("TTT22", hole_cards_play=0, min_winning_hand="quads"),
        BadBeatRules("flush", hole_cards_play=1),
    ],
    ids=["default", "fh-2-pocket", "fh-1-noboardtrips", "ttt22-0-winquads", "flush-1"],
)
def test_kernel_agrees_with_the_oracle_hand_for_hand(rules: BadBeatRules) -> None:
    """The compiled kernel and the brute-force oracle give the same verdict on identical
    deals (the qualifier itself is checked on rich deals in test_rules_jackpot.py; here the
    kernel's weakest loser against best winner)."""
    players = 10
    dealt = deal(np.random.default_rng(2024), Deck.standard().as_array(), 2500, 5 + 2 * players)
    flags = np.empty(len(dealt), dtype=np.bool_)
    count_jackpots(dealt, players, rules, flags=flags)
    for row, flag in zip(dealt.tolist(), flags, strict=True):
        holes = [row[5 + 2 * p : 7 + 2 * p] for p in range(players)]
        assert jackpot_hit(row[:5], holes, rules) == bool(flag), row
    if rules != BadBeatRules():
        assert flags.any()  # loose settings: the check exercises hits as well as misses


def test_kernel_hits_under_default_rules_are_confirmed_by_the_oracle() -> None:
    """Default qualifiers hit about once in 20,000 hands: check every kernel hit in 300,000
    hands, and a sample of its misses, against the oracle."""
    rules = BadBeatRules()
    players = 10
    dealt = deal(np.random.default_rng(77), Deck.standard().as_array(), 300_000, 5 + 2 * players)
    flags = np.empty(len(dealt), dtype=np.bool_)
    hits = count_jackpots(dealt, players, rules, flags=flags)
    assert hits >= 5
    misses = np.flatnonzero(~flags)[:: len(dealt) // 300]
    for index in [*np.flatnonzero(flags), *misses]:
        row = dealt[index].tolist()
        holes = [row[5 + 2 * p : 7 + 2 * p] for p in range(players)]
        assert jackpot_hit(row[:5], holes, rules) == bool(flags[index]), row


def test_hand_floors() -> None:
    """Floors written by ranks or by category: 'AAATT', '8888' with any kicker, 'quads'."""
    assert hand_floor("AAATT") == pack_value(Category.FULL_HOUSE, 12, 8)
    assert hand_floor("TTAAA") == hand_floor("AAATT")
    assert evaluate_high("8c 8d 8h 8s 2c").value >= hand_floor("8888")
    assert evaluate_high("7c 7d 7h 7s Ac").value < hand_floor("8888")
    assert (
        hand_floor("quads") == hand_floor("four of a kind") == pack_value(Category.FOUR_OF_A_KIND)
    )
    assert evaluate_high("As Ks Qs Js Ts").value == hand_floor("royal flush")
    assert hand_floor("9TJQK") == pack_value(Category.STRAIGHT, 11)
    assert hand_floor("9TJQK flush") == pack_value(Category.STRAIGHT_FLUSH, 11)
    assert hand_floor("A2345") == pack_value(Category.STRAIGHT, 3)
    assert hand_floor("KKQQ") == pack_value(Category.TWO_PAIR, 11, 10)
    for bad in ("", "AAAAA", "AAAKKQ", "Z", "AAKKQQ", "A2347 flush x", "KKKK flush"):
        with pytest.raises(ValueError):
            hand_floor(bad)


def test_simulation_is_reproducible_and_chunk_independent_of_calls() -> None:
    model = BadBeatModel(players=10, rules=BadBeatRules("full house"))
    first = model.simulate(10_000, np.random.default_rng(9))
    again = model.simulate(10_000, np.random.default_rng(9))
    other = model.simulate(10_000, np.random.default_rng(10))
    assert first == again
    assert first != other
    assert first.hands == 10_000 and 0 < first.jackpot_hands < 10_000


def test_report_fields_and_tally_merge() -> None:
    model = BadBeatModel()
    total = BadBeatTally(600, 2, 7).merge(BadBeatTally(400, 3, 9))
    report = model.report(total)
    assert list(report) == [
        "hands",
        "jackpot_hands",
        "frequency",
        "ci95_low",
        "ci95_high",
        "one_in",
        "qualifying_hands",
        "qualifying_frequency",
        "qualifying_ci95_low",
        "qualifying_ci95_high",
        "hands_between_hits",
        "levels",
        "table",
        "policy",
    ]
    assert report["hands"] == 1000 and report["jackpot_hands"] == 5
    assert report["frequency"] == pytest.approx(0.005)
    assert report["ci95_low"] < 0.005 < report["ci95_high"]
    assert report["one_in"] == pytest.approx(200.0)
    assert [row["jackpot_hands"] for row in report["levels"]] == [5]
    assert report["qualifying_hands"] == 16 == report["levels"][0]["qualifying_hands"]
    assert report["table"] is None and report["policy"] is None
    assert model.report(BadBeatTally(10, 0))["one_in"] is None


def test_model_rejects_bad_values() -> None:
    with pytest.raises(ValueError, match="players"):
        BadBeatModel(players=1)
    with pytest.raises(ValueError, match="hole_cards_play"):
        BadBeatRules(hole_cards_play=3)
    with pytest.raises(ValueError, match="not a poker hand"):
        BadBeatRules("AAAAA")
