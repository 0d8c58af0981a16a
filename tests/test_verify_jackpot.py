"""The scenario's bad-beat jackpot (Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot': "paid
when a sufficiently strong hand is shown down and loses to an even stronger hand held by
another player"): the verdict held to the brute-force oracle (tests/jackpot_oracle.py) on
seeded deals,
the shares worked out by hand, and the expectation through a played hand."""

from __future__ import annotations

import numpy as np
import pytest

from simulations.cards import Card, parse_cards
from simulations.phh.results import Difference, Outcome
from simulations.rules.jackpot import BadBeatRules
from simulations.verify.jackpot import JackpotRules, judge
from simulations.verify.run import verify_text
from tests.jackpot_oracle import jackpot_hit


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


def paired_deal(rng: np.random.Generator, players: int) -> tuple[list[Card], list[list[Card]]]:
    """A board of two pairs and a fifth card, and two hole cards a player, often of the
    board's ranks: full houses and four of a kind, the hands a jackpot is about, are common."""
    while True:
        ranks = rng.choice(13, size=3, replace=False)
        board_ranks = [ranks[0], ranks[0], ranks[1], ranks[1], ranks[2]]
        hole_ranks = [
            int(r) if rng.random() < 0.6 else int(rng.integers(13))
            for r in rng.choice(ranks, size=2 * players)
        ]
        wanted = [*board_ranks, *hole_ranks]
        used: set[int] = set()
        dealt: list[Card] = []
        for rank in wanted:
            free = [4 * int(rank) + s for s in range(4) if 4 * int(rank) + s not in used]
            if not free:
                break
            card = free[int(rng.integers(len(free)))]
            used.add(card)
            dealt.append(Card(card))
        else:
            board = dealt[:5]
            holes = [dealt[5 + 2 * p : 7 + 2 * p] for p in range(players)]
            return board, holes


RULES = [
    BadBeatRules(),
    BadBeatRules("quads", hole_cards_play=1),
    BadBeatRules("KKKQQ", "AAAKK", hole_cards_play=0, board_trips_full_house=False),
    BadBeatRules("22223", quads_need_pocket_pair=True),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.describe())
def test_the_verdict_agrees_with_the_oracle(rules: BadBeatRules) -> None:
    """Whether the jackpot is hit: the same as the brute-force oracle, on 1,500 seeded deals
    rich in full houses and quads."""
    rng = np.random.default_rng(20260)
    hits = 0
    for _ in range(1500):
        players = int(rng.integers(2, 7))
        board, holes = paired_deal(rng, players)
        verdict = judge(
            board, dict(enumerate(holes)), JackpotRules(rules), players=players, button=players - 1
        )
        expected = jackpot_hit(board, holes, rules)
        assert verdict.hit == expected, (board, holes)
        hits += expected
        if verdict.hit:
            assert verdict.losers and verdict.winners
            assert not set(verdict.losers) & set(verdict.winners)
    assert hits >= 5  # the deals do reach the jackpot


def test_the_shares_worked_out_by_hand() -> None:
    """A jackpot of 10,001 split 50/25/25: the losing hand 5,000, the winning hand 2,500,
    and 2,500 for the three others dealt in — 834, 833, 833, the odd chip to the first of
    them clockwise from the button (p5 on the button: p1 first)."""
    board = cards("9s 9c Kc Ks 2d")
    holes = {1: cards("9h 9d"), 2: cards("Kh Kd")}  # p2 four nines, p3 four kings
    rules = JackpotRules(BadBeatRules(), amount=10001)
    verdict = judge(board, holes, rules, players=5, button=4)
    assert verdict.hit and verdict.losers == (1,) and verdict.winners == (2,)
    assert dict(verdict.pays) == {0: 834, 1: 5000, 2: 2500, 3: 833, 4: 833}


def test_ties_share_their_part_and_a_loser_below_the_floor_does_not_hit() -> None:
    """Two losers tied on four nines share the half; a losing full house of twos over
    nines is below aces full of tens and does not qualify."""
    board = cards("9s 9c Kc Ks 2d")
    rules = JackpotRules(BadBeatRules(), amount=1000, table_share=0, winner_share=50)
    tied = {0: cards("9h 9d"), 1: cards("Kh Kd"), 2: cards("9h 9d")}
    # (a card cannot be held twice in a real deal: the verdict reads values, not identities)
    verdict = judge(board, tied, rules, players=3, button=2)
    assert verdict.losers == (0, 2) and dict(verdict.pays) == {0: 250, 1: 500, 2: 250}
    low = {0: cards("2h 2c"), 1: cards("Kh Kd")}
    assert not judge(board, low, rules, players=2, button=1).hit


@pytest.mark.parametrize(
    ("rules", "hit"),
    [
        # Both full houses qualify once one hole card may play: kings full of aces beat
        # kings full of nines.
        (BadBeatRules("KKK22", hole_cards_play=1), True),
        # Kings full of nines plays one hole card: with both needed it does not qualify.
        (BadBeatRules("KKK22", hole_cards_play=2), False),
        # Both take their three kings from the board: no full house of board trips counts.
        (BadBeatRules("KKK22", hole_cards_play=1, board_trips_full_house=False), False),
        # Kings full of nines is below the floor of kings full of queens.
        (BadBeatRules("KKKQQ", hole_cards_play=1), False),
    ],
)
def test_qualifiers_by_hand(rules: BadBeatRules, hit: bool) -> None:
    """Board K K K 9 2: p1 with A A has kings full of aces (both hole cards playing), p2
    with Q 9 kings full of nines (the nine alone playing) — the qualifiers decide whether
    that beat hits."""
    board = cards("Kc Kd Ks 9s 2d")
    holes = {0: cards("Ah Ad"), 1: cards("Qh 9h")}
    assert judge(board, holes, JackpotRules(rules), players=2, button=1).hit is hit


HAND = """
[[scenario]]
name = "jackpot"
game = "NT"
starting_stacks = [1000, 1000, 1000]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
actions = [
  "d dh p1 AhAd", "d dh p2 KhKd", "d dh p3 7c2c", "p3 f", "p1 cc", "p2 cc",
  "d db AsAcKc", "p1 cc", "p2 cc", "d db Ks", "p1 cc", "p2 cc", "d db 2d", "p1 cc", "p2 cc",
]
[scenario.jackpot]
min_losing_hand = "AAATT"
amount = 10000
[scenario.expect]
"""


def test_the_jackpot_expectation_through_a_played_hand() -> None:
    """Four aces beat four kings, both hole cards playing in both: hit; half to p2, a
    quarter to p1 and a quarter to p3, who folded."""
    passes = (
        HAND
        + 'jackpot = { hit = true, loser = "p2", winner = ["p1"], '
        + "pays = { p1 = 2500, p2 = 5000, p3 = 2500 } }"
    )
    (result,) = verify_text(passes, "j.toml").results
    assert result.outcome is Outcome.PASSED, result.message or result.differences
    fails = HAND + 'jackpot = { hit = false, loser = "p1", winner = "p2", pays = { p3 = 10000 } }'
    (result,) = verify_text(fails, "j.toml").results
    assert result.differences == (
        Difference("expect.jackpot.hit", "false", "true"),
        Difference("expect.jackpot.loser", "p1", "p2"),
        Difference("expect.jackpot.winner", "p2", "p1"),
        Difference("expect.jackpot.pays", "p3 10000", "p1 2500, p2 5000, p3 2500"),
    )


def test_no_showdown_no_jackpot() -> None:
    """Everyone folds to the big blind: nobody shows down, the jackpot is not hit."""
    text = (
        HAND.replace(
            HAND[HAND.index('"p3 f"') : HAND.index("]\n[scenario.jackpot]")],
            '"p3 f", "p1 f",\n',
        )
        + "jackpot = { hit = false }"
    )
    assert '"p1 f"' in text
    (result,) = verify_text(text, "j.toml").results
    assert result.outcome is Outcome.PASSED, result.message or result.differences
