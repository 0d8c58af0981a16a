"""The bad-beat job at a table and as a policy over time: the classic job's tally unchanged,
the mean jackpot at a hit against the analytic seed + h / p, a step-down schedule and a
reserve against a hand-by-hand timeline of the same kernel's hands, each kind's share adding
up to what the jackpot pays, and bad settings refused naming the field.

Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot': 'Bad beat jackpots are usually
progressive, often with a small rake being taken out of each pot to fund the jackpot ...
split among all players sitting at the table ... (usually a 25% share) ... the winning
(usually 25%) and losing hand (usually 50%)'."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from service.convert import report_to_result, result_to_report
from service.jobfile import job_from_mapping
from simulations.models.bad_beat import BadBeatModel
from simulations.models.jackpot_policy import Cycle
from simulations.models.players import EVERY_RIVER
from simulations.models.table import Conditions, DropRule, Jackpot, RakePolicy, Table
from simulations.spec import SpecError
from workers.runner import InlineRunner

EVERY_RIVER_JOB: dict[str, Any] = {
    "kind": "bad_beat",
    "table": {"players": 9},
    "jackpot": {"min_losing_hand": "full house"},
    "drop": {"amount": 2, "threshold": 2},
}


def _report(mapping: dict[str, Any]) -> dict[str, Any]:
    job = job_from_mapping(mapping)
    return job.report(InlineRunner().run(job))


def _hit_levels(model: BadBeatModel, count: int, seed: int) -> npt.NDArray[np.int64]:
    """The strictest level each hand of an independent run hits (-1: none), in order."""
    seeds = np.random.default_rng(seed).integers(0, 2**64, size=count, dtype=np.uint64)
    levels: npt.NDArray[np.int64] = model.table.play(seeds).hit_level
    return levels


def test_the_classic_job_gives_the_same_tally_as_before() -> None:
    """Hold'em to the river with today's settings alone deals as it always did: the same job
    gives the same tally as the code before the table was added (figures recorded from it)."""
    first = _report({"kind": "bad_beat", "hands": 300_000, "seed": 42, "shard_size": 100_000})
    assert (first["hands"], first["jackpot_hands"]) == (300_000, 34)
    second = _report(
        {
            "kind": "bad_beat",
            "hands": 300_000,
            "seed": 7,
            "shard_size": 100_000,
            "table": {"players": 10},
            "jackpot": {
                "min_losing_hand": "full house",
                "hole_cards_play": 1,
                "quads_need_pocket_pair": True,
            },
        }
    )
    assert second["jackpot_hands"] == 13_725 and second["ci95_low"] == 0.0450081215657827
    assert first["table"] is None and first["policy"] is None


def test_the_mean_jackpot_at_a_hit_is_the_seed_plus_the_drop_over_the_chance() -> None:
    """A fixed drop h = 2 from every hand (every seat sees the flop), one qualifier of chance
    p, no reserve: the mean jackpot at a hit is seed + h / p.  The job's interval holds that
    figure for p measured on ten times as many other hands, and a hand-by-hand timeline of
    those hands — the jackpot growing by 2 a hand and reset at every hit — agrees."""
    mapping = {**EVERY_RIVER_JOB, "hands": 100_000, "seed": 3, "policy": {"seed": 1_000}}
    policy = _report(mapping)["policy"]
    model = job_from_mapping(mapping).model
    assert isinstance(model, BadBeatModel)
    levels = _hit_levels(model, 1_000_000, 99)
    p = float(np.mean(levels >= 0))
    assert policy["jackpot_ci95_low"] < 1_000 + 2 / p < policy["jackpot_ci95_high"]
    assert policy["hands_between_hits_ci95_low"] < 1 / p < policy["hands_between_hits_ci95_high"]
    hits = np.flatnonzero(levels >= 0)
    cycles = np.diff(np.concatenate(([-1], hits)))  # hands from a reset to its hit, the hit's too
    timeline = 1_000 + 2 * cycles.mean()
    assert timeline == pytest.approx(1_000 + 2 / p, rel=0.02)
    assert policy["drop_per_hand"] == 2.0 and policy["returned_share"] > 1.0  # the seed


def test_a_schedule_and_a_reserve_match_a_timeline_of_the_hands() -> None:
    """The qualifier resets at a hit and steps down every 100 hands (one table, 100 hands an
    hour, every hour) from aces full of kings to kings full of queens to any full house; 30 %
    of the drop builds the reserve that starts the next jackpot when it beats the seed of
    100.  The report's hands between hits, mean jackpot, median and where the hits come agree
    with a timeline played hand by hand over other hands of the same table."""
    mapping = {
        **EVERY_RIVER_JOB,
        "hands": 200_000,
        "seed": 5,
        "jackpot": {"min_losing_hand": "AAAKK"},
        "room": {"tables": 1, "hands_per_hour": 100},
        "policy": {
            "seed": 100,
            "reserve_share": 0.3,
            "admin_share": 0.1,
            "step_down": {"every_hours": 1, "steps": ["KKKQQ", "full house"]},
        },
    }
    policy = _report(mapping)["policy"]
    model = job_from_mapping(mapping).model
    assert isinstance(model, BadBeatModel)
    levels = _hit_levels(model, 1_000_000, 17)
    at_hit, lengths, where = [], [], [0, 0, 0]
    since, reserve, start = 0, 0.0, 100.0
    for level in levels.tolist():
        since += 1
        standing = min((since - 1) // 100, 2)
        if 0 <= level <= standing:
            at_hit.append(start + 0.6 * 2 * since)
            lengths.append(since)
            where[standing] += 1
            start = max(100.0, reserve + 0.3 * 2 * since)
            reserve, since = 0.0, 0
    assert policy["hands_between_hits"] == pytest.approx(np.mean(lengths), rel=0.04)
    assert policy["jackpot_mean"] == pytest.approx(np.mean(at_hit), rel=0.04)
    median = next(q["value"] for q in policy["jackpot_quantiles"] if q["q"] == 0.5)
    assert median == pytest.approx(np.median(at_hit), rel=0.05)
    shares = [h["share"] for h in policy["hit_levels"]]
    assert shares == pytest.approx(np.array(where) / len(at_hit), abs=0.01)
    assert sum(b["share"] for b in policy["jackpot_histogram"]) == pytest.approx(0.998, abs=2e-3)


def test_the_cycle_law() -> None:
    """One level of chance p: G is geometric (mean 1/p, median the smallest t with
    1 - (1 - p)^t >= 1/2); two levels add their pieces."""
    one = Cycle((0.01,), (float("inf"),))
    assert one.mean == pytest.approx(100.0)
    assert one.quantile(0.5) == 69  # 1 - 0.99**69 = 0.500 >= 0.5 > 1 - 0.99**68
    two = Cycle((0.0, 0.02), (50.0, float("inf")))
    assert two.mean == pytest.approx(50 + 1 / 0.02)
    assert two.hit_in() == pytest.approx((0.0, 1.0))
    assert two.above(50) == 1.0 and two.above(51) == pytest.approx(0.98)


def test_each_kind_gets_its_share_of_the_jackpots_and_pays_its_drops() -> None:
    """Two kinds of player: what both get from the jackpot adds up to the jackpots paid per
    hand (the room's share goes to the table with one table; a table share with nobody left to
    take it — every other seat holding a paid hand — is not paid), what both pay adds up to the
    drop; a second qualifying losing hand is paid under the two-losers rule."""
    mapping = {
        **EVERY_RIVER_JOB,
        "hands": 60_000,
        "seed": 9,
        "table": {"players": 6, "blinds": [1, 2]},
        "players": [
            {"name": "tight", "seats": 3, "vpip": 0.3, "hand": "pair", "chance": 0.5},
            {"name": "loose", "vpip": 0.8, "hand": "any"},
        ],
        "jackpot": {"min_losing_hand": "two pair", "hole_cards_play": 0},
        "policy": {
            "seed": 500,
            "room_share": 0.1,
            "table_share": 0.15,
            "two_losers": {"loser_share": 0.3, "second_share": 0.25, "winner_share": 0.2},
        },
    }
    report = _report(mapping)
    policy = report["policy"]
    kinds = policy["kinds"]
    paid_per_hand = policy["jackpot_mean"] / policy["hands_between_hits"]
    received = sum(k["received_bb100"] * 3 / 100 * 2 for k in kinds)
    assert received <= paid_per_hand and received == pytest.approx(paid_per_hand, rel=1e-3)
    dropped = sum(k["drop_paid_bb100"] * 3 / 100 * 2 for k in kinds)
    assert dropped == pytest.approx(policy["drop_per_hand"], rel=1e-9)
    model = job_from_mapping(mapping).model
    assert isinstance(model, BadBeatModel)
    assert report["table"]["kinds"][1]["vpip"] > report["table"]["kinds"][0]["vpip"]


def test_a_full_report_crosses_the_api_unchanged() -> None:
    mapping = {**EVERY_RIVER_JOB, "hands": 20_000, "seed": 1, "policy": {"seed": 100}}
    report = _report(mapping)
    back = result_to_report(report_to_result("bad_beat", report), report["seed"])
    assert json.dumps(back) == json.dumps(report)


def test_omaha_takes_the_plo_qualifiers() -> None:
    """GGPoker's PLO jackpot: 'Lose with 2222 or better ... Pocket pairs are required for the
    winner or loser to make a four of a kind'; two hole cards always play."""
    model = job_from_mapping({"kind": "bad_beat", "hands": 10, "game": "NO"}).model
    assert isinstance(model, BadBeatModel)
    assert model.rules.min_losing_hand == "quads" and model.rules.quads_need_pocket_pair
    assert "exactly two hole cards play" in model.describe_qualifier()
    assert not model.classic


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"policy": {"loser_share": 0.6}}, "policy.loser_share", "add up to 1.1"),
        (
            {"policy": {"step_down": {"every_hours": 24, "steps": ["AAAA"]}}},
            "policy.step_down.steps[0]",
            "not below the qualifier before it",
        ),
        ({"drop": {"amount": 5, "threshold": 2}}, "drop.amount", "above the threshold"),
        ({"players": [{"vpip": 0.2, "colour": "red"}]}, "players[0].colour", "not a known"),
        (
            {"game": "NO", "jackpot": {"hole_cards_play": 1}},
            "jackpot.hole_cards_play",
            "exactly two",
        ),
        (
            {"policy": {"reserve_share": 0.8, "admin_share": 0.3}},
            "policy.admin_share",
            "more than the drop",
        ),
        ({"room": {"raked_only": True}}, "room.raked_only", "needs a [rake]"),
    ],
)
def test_bad_settings_name_the_field(change: dict[str, Any], field: str, words: str) -> None:
    mapping = {**EVERY_RIVER_JOB, "hands": 10, "policy": {}, **change}
    with pytest.raises(SpecError) as refused:
        job_from_mapping(mapping)
    assert refused.value.field == field and words in str(refused.value), refused.value


def test_a_condition_the_hands_cannot_meet_is_never_hit() -> None:
    """Room conditions: with a minimum pot no hand reaches, no jackpot hits, though the cards
    alone hit it."""
    table = replace(
        job_from_mapping({**EVERY_RIVER_JOB, "hands": 10}).model,  # type: ignore[type-var]
    ).table
    blocked = Table(
        table.code,
        table.players,
        table.blinds,
        (replace(EVERY_RIVER, seats=9),),
        (RakePolicy("drop", None, DropRule(2, 2)),),
        Jackpot(table.jackpot.rules, table.jackpot.floors, Conditions(min_pot=10**11)),  # type: ignore[union-attr]
    )
    hands = blocked.play(np.random.default_rng(2).integers(0, 2**64, 20_000, dtype=np.uint64))
    assert (hands.card_level >= 0).sum() > 50 and (hands.hit_level >= 0).sum() == 0
