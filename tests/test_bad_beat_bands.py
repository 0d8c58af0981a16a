"""Bad-beat qualifiers as bands, the hands showing one qualifying hand, and the hands between
hits, pinned against exact counts worked out here by enumeration.

Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot': 'a prize that is paid when a sufficiently
strong hand is shown down and loses to an even stronger hand held by another player ... the
losing hand may be required to be four-of-a-kind or better'.  The exact figures come from an
enumeration of heads-up hold'em deals by their ranks (four of a kind is a matter of ranks
alone: seven cards holding four of a kind hold at most four of a suit, so no flush), whose
single-player count is the published one (/work/shared/notes/reference-numbers.md, best five
of seven: four of a kind 224,848 of 133,784,560).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from service.jobfile import job_from_mapping
from service.pictures_economics import jackpot_picture
from simulations.cards import parse_cards
from simulations.evaluators.high import evaluate_high
from simulations.models.bad_beat import BadBeatModel, count_jackpots
from simulations.models.table_tally import Waiting
from simulations.rules.jackpot import BadBeatRules, HandBand, hand_ceiling
from simulations.spec import SpecError
from tests.jackpot_oracle import jackpot_hit, losing_hand_shown
from workers.runner import InlineRunner

# Losing and winning hand exactly four of a kind, any cards playing: a hit is two players
# with four of a kind of different values (ranks or kicker).
QUADS_ONLY = BadBeatRules(
    "quads",
    min_winning_hand="quads",
    hole_cards_play=0,
    max_losing_hand="quads",
    max_winning_hand="quads",
)


@cache
def exact_heads_up_quads() -> tuple[Fraction, Fraction, Fraction]:
    """Heads-up hold'em to the river, exactly: (P(the first player holds four of a kind),
    P(at least one player does), P(both do, with different values)).  Every deal (board,
    first hole, second hole) is counted through its ranks: for each rank the ways of
    choosing its suits for the board, the first and the second hand."""
    ways = np.zeros((5, 3, 3), dtype=np.int64)  # board, first, second cards of one rank
    for b, a, c in itertools.product(range(5), range(3), range(3)):
        if b + a + c <= 4:
            ways[b, a, c] = math.comb(4, b) * math.comb(4 - b, a) * math.comb(4 - b - a, c)
    holes = list(itertools.combinations_with_replacement(range(13), 2))
    hole_counts = np.zeros((len(holes), 13), dtype=np.int64)
    for i, (x, y) in enumerate(holes):
        hole_counts[i, x] += 1
        hole_counts[i, y] += 1
    total = first = either = beaten = 0
    for board in itertools.combinations_with_replacement(range(13), 5):
        b = np.bincount(board, minlength=13)
        if b.max() > 4:
            continue
        weight = np.ones((len(holes), len(holes)), dtype=np.int64)
        for r in range(13):
            weight *= ways[b[r]][hole_counts[:, r]][:, hole_counts[:, r]]
        value = np.array([_quads_value(b + hole_counts[i]) for i in range(len(holes))])
        mine = (value >= 0)[:, None]
        theirs = (value >= 0)[None, :]
        total += int(weight.sum())
        first += int((weight * mine).sum())
        either += int((weight * (mine | theirs)).sum())
        differ = value[:, None] != value[None, :]
        beaten += int((weight * (mine & theirs & differ)).sum())
    assert total == math.comb(52, 5) * math.comb(47, 2) * math.comb(45, 2)
    return Fraction(first, total), Fraction(either, total), Fraction(beaten, total)


def _quads_value(counts: np.ndarray) -> int:
    """Four of a kind's rank and kicker as one number, from seven cards' rank counts (-1:
    none)."""
    fours = np.flatnonzero(counts == 4)
    if not fours.size:
        return -1
    rank = int(fours[0])
    kicker = max(r for r in range(13) if r != rank and counts[r])
    return rank * 16 + kicker


def _z(hits: int, n: int, p: Fraction) -> float:
    q = float(p)
    return (hits - n * q) / math.sqrt(n * q * (1 - q))


def test_the_enumeration_gives_the_published_four_of_a_kind_count() -> None:
    """reference-numbers.md, 'Best five of seven': 'four of a kind | 224,848'; Rules 000,
    'Bad beat jackpot': 'the losing hand may be required to be four-of-a-kind'."""
    first, either, beaten = exact_heads_up_quads()
    assert first == Fraction(224_848, math.comb(52, 7))
    assert 0 < beaten < either < 2 * first


@pytest.mark.parametrize("table", [False, True], ids=["classic", "table"])
def test_one_qualifying_hand_and_the_bad_beat_match_the_exact_shares(table: bool) -> None:
    """Rules 000, 'Bad beat jackpot': 'a sufficiently strong hand is shown down and loses to
    an even stronger hand': heads-up to the river with both bands exactly four of a kind,
    the share of hands showing one (or two) and the share where one beats the other lie
    within four standard errors of the exact shares — in the classic kernel and at a table
    (a sweep plays the hands at a table of seats that all see the river)."""
    _, either, beaten = exact_heads_up_quads()
    model = BadBeatModel(players=2, rules=QUADS_ONLY, sweep=("full house",) if table else ())
    assert model.classic is not table
    n = 1_000_000 if not table else 600_000
    report = model.report(model.simulate(n, np.random.default_rng(20260)))
    assert report["hands"] == n
    assert abs(_z(report["qualifying_hands"], n, either)) < 4, report["qualifying_hands"]
    assert abs(_z(report["jackpot_hands"], n, beaten)) < 4, report["jackpot_hands"]
    low, high = report["qualifying_ci95_low"], report["qualifying_ci95_high"]
    assert low < report["qualifying_frequency"] < high
    row = report["levels"][0]
    assert row["losing_hand"] == "exactly four of a kind"
    assert (row["qualifying_hands"], row["jackpot_hands"]) == (
        report["qualifying_hands"],
        report["jackpot_hands"],
    )


def test_hands_between_hits_follow_the_exact_geometric_law() -> None:
    """Rules 000, 'Bad beat jackpot': 'because such bad beats are rare': the hands from one
    hit to the next are geometric with the exact chance of a hit; their mean and the share
    at or below the exact median lie within four standard errors, and the waits seen add up
    to no more than the hands dealt."""
    _, _, beaten = exact_heads_up_quads()
    p = float(beaten)
    model = BadBeatModel(players=2, rules=QUADS_ONLY)
    n = 2_000_000
    tally = model.simulate(n, np.random.default_rng(7))
    waits = tally.waits
    assert waits.counts.total == tally.jackpot_hands and waits.counts.sum() <= n
    k = waits.counts.total
    sd = math.sqrt(1 - p) / p
    assert abs((waits.counts.mean() - 1 / p) / (sd / math.sqrt(k))) < 4
    median = math.ceil(math.log(0.5) / math.log1p(-p))
    share = 1 - (1 - p) ** median  # P(wait <= median)
    seen = sum(c for v, c in waits.counts.pairs if v <= median)
    assert abs((seen - k * share) / math.sqrt(k * share * (1 - share))) < 4
    report = model.report(tally)["hands_between_hits"]
    assert report["count"] == k and report["tail"] == "finite variance"
    assert report["mean_ci95_low"] < report["mean"] < report["mean_ci95_high"]


def test_waits_are_counted_across_batches_and_the_last_left_open() -> None:
    """The hands from one hit to the next, counted by hand: hits at hands 3 and 6 of the
    first batch of six and hand 2 of the next batch of four are waits of 3, 3 and 2; the
    two hands after the last hit are a wait still running."""
    waiting = Waiting()
    waiting.add(np.array([0, 0, 1, 0, 0, 1], dtype=np.bool_))
    waiting.add(np.array([0, 1, 0, 0], dtype=np.bool_))
    waits = waiting.waits()
    assert waits.counts.pairs == ((2, 1), (3, 2)) and waits.open == 1
    none = Waiting()
    none.add(np.zeros(5, dtype=np.bool_))
    assert none.waits().counts.total == 0 and none.waits().open == 1


def _verdicts(rules: BadBeatRules, board: str, *holes: str) -> tuple[bool, bool, bool, bool]:
    """(kernel hit, oracle hit, kernel one qualifying, oracle one qualifying)."""
    cards = [*parse_cards(board)]
    for hole in holes:
        cards.extend(parse_cards(hole))
    dealt = np.array([cards], dtype=np.int8)
    flags = np.empty(1, dtype=np.bool_)
    shown = np.empty(1, dtype=np.bool_)
    count_jackpots(dealt, len(holes), rules, flags=flags, qualifying=shown)
    hole_cards = [parse_cards(h) for h in holes]
    return (
        bool(flags[0]),
        jackpot_hit(parse_cards(board), hole_cards, rules),
        bool(shown[0]),
        losing_hand_shown(parse_cards(board), hole_cards, rules),
    )


def test_a_band_with_a_ceiling_refuses_a_losing_hand_above_it() -> None:
    """Rules 000, 'Bad beat jackpot': 'These rules vary from one cardroom to the next': quad
    tens (a pocket pair) lose to a straight flush.  Losing hand exactly four of a kind: a
    hit; at most aces full: not a hit, and no qualifying hand shown (the tens are above the
    band); exactly four tens: a hit; exactly four jacks: none."""
    board, loser, winner = "Ts Th 9h 8h 2c", "Tc Td", "Jh Qh"
    exact = BadBeatRules("quads", hole_cards_play=0, max_losing_hand="quads")
    assert _verdicts(exact, board, loser, winner) == (True, True, True, True)
    capped = BadBeatRules("full house", hole_cards_play=0, max_losing_hand="AAAKK")
    assert _verdicts(capped, board, loser, winner) == (False, False, False, False)
    tens = BadBeatRules("TTTT", hole_cards_play=0, max_losing_hand="TTTT")
    assert _verdicts(tens, board, loser, winner) == (True, True, True, True)
    jacks = BadBeatRules("JJJJ", hole_cards_play=0, max_losing_hand="JJJJ")
    assert _verdicts(jacks, board, loser, winner) == (False, False, False, False)


def test_a_winning_band_with_a_ceiling_refuses_a_winning_hand_above_it() -> None:
    """Rules 000, 'Bad beat jackpot': 'loses to an even stronger hand': aces full of tens
    lose to quad sevens and a straight flush is elsewhere.  A winning hand at most four of a
    kind still hits (the sevens beat the aces full); at most a full house does not."""
    board = "Ac Ad Th 7s 7c"
    holes = ("As Tc", "7h 7d")
    quads = BadBeatRules("AAATT", hole_cards_play=0, max_winning_hand="quads")
    assert _verdicts(quads, board, *holes)[:2] == (True, True)
    houses = BadBeatRules("AAATT", hole_cards_play=0, max_winning_hand="full house")
    assert _verdicts(houses, board, *holes) == (False, False, True, True)


def test_band_ends_cover_the_hands_they_name() -> None:
    """reference-numbers.md's categories: 'four of a kind' is every one of its 156 values
    and nothing else; '8888' four eights with any kicker; 'AAATT' one hand."""
    quads = HandBand("quads", "quads")
    assert quads.contains(evaluate_high("2c 2d 2h 2s 3c").value)
    assert quads.contains(evaluate_high("Ac Ad Ah As Kc").value)
    assert not quads.contains(evaluate_high("Ac Ad Ah Kc Kd").value)
    assert not quads.contains(evaluate_high("9h Th Jh Qh Kh").value)
    eights = HandBand("8888", "8888")
    assert eights.contains(evaluate_high("8c 8d 8h 8s Ac").value)
    assert eights.contains(evaluate_high("8c 8d 8h 8s 2c").value)
    assert not eights.contains(evaluate_high("9c 9d 9h 9s 2c").value)
    aces_tens = evaluate_high("Ac Ad Ah Tc Td").value
    assert HandBand("AAATT", "AAATT").contains(aces_tens)
    assert aces_tens <= hand_ceiling("AAATT") < evaluate_high("Ac Ad Ah Jc Jd").value
    assert not HandBand("AAATT", "AAATT").contains(evaluate_high("Ac Ad Ah 9c 9d").value)
    assert HandBand("AAATT").describe() == "Aces full of Tens or better"
    assert HandBand("full house", "quads").describe() == "any full house to four of a kind"
    with pytest.raises(ValueError, match="no hand lies in the band"):
        HandBand("quads", "AAAKK")


def _job(jackpot: dict[str, Any], **more: Any) -> Any:
    return job_from_mapping(
        {"kind": "bad_beat", "hands": 10, "seed": 1, "jackpot": jackpot, **more}
    )


def test_job_file_bands_and_their_one_line_errors() -> None:
    """Rules 000, 'Bad beat jackpot': 'those that do have specific requirements for how strong
    a losing hand must be to qualify': the bands read from a job file, and every mistake a
    one-line error naming its field."""
    model = _job({"losing_hand": {"exactly": "quads"}, "winning_hand": {"at_most": "quads"}}).model
    assert (model.rules.min_losing_hand, model.rules.max_losing_hand) == ("quads", "quads")
    assert (model.rules.min_winning_hand, model.rules.max_winning_hand) == (None, "quads")
    assert _job({"min_losing_hand": "KKKQQ"}).model.rules.max_losing_hand is None
    bands = _job({"losing_hand": {"at_least": "full house", "at_most": "quads"}}).model
    assert bands.describe_qualifier().startswith("losing hand any full house to four of a kind")
    cases = [
        ({"losing_hand": {"at_least": "quads", "at_most": "AAAKK"}}, "jackpot.losing_hand.at_most"),
        ({"losing_hand": {"at_most": "KKKQQ"}}, "jackpot.losing_hand.at_most"),
        ({"min_losing_hand": "quads", "losing_hand": {"exactly": "quads"}}, "jackpot.losing_hand"),
        ({"losing_hand": {"exactly": "quads", "at_least": "quads"}}, "jackpot.losing_hand.exactly"),
        ({"losing_hand": {"at_least": "AAAAA"}}, "jackpot.losing_hand.at_least"),
        ({"losing_hand": {}}, "jackpot.losing_hand"),
        ({"losing_hand": {"exactly": "quads", "below": "x"}}, "jackpot.losing_hand.below"),
        ({"losing_hand": {"at_most": "AAAKK"}, "sweep": ["quads"]}, "jackpot.sweep[0]"),
        (
            {"winning_hand": {"at_least": "royal flush", "at_most": "quads"}},
            "jackpot.winning_hand.at_most",
        ),
    ]  # fmt: skip
    for jackpot, field in cases:
        with pytest.raises(SpecError) as refused:
            _job(jackpot)
        assert refused.value.field == field, (jackpot, refused.value)
        assert "\n" not in str(refused.value)


def test_every_bad_beat_job_draws_its_picture(tmp_path: Path) -> None:
    """`--plot` for a plain bad-beat job (no policy, no sweep): the frequency of one
    qualifying hand and of the bad beat, and the hands between hits (Rules 000, 'Bad beat
    jackpot': 'such bad beats are rare')."""
    from matplotlib import image

    job = job_from_mapping(
        {"kind": "bad_beat", "hands": 200_000, "seed": 3, "jackpot": {"min_losing_hand": "TTT22"}}
    )
    report = job.report(InlineRunner().run(job))
    assert report["jackpot_hands"] > 10 and report["qualifying_hands"] > report["jackpot_hands"]
    path = tmp_path / "jackpot.png"
    jackpot_picture(job, report, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 20_000
    pixels = image.imread(path)
    assert float(pixels[..., :3].std()) > 0.05  # not a blank canvas
