"""Rake policies compared on the same hands (kind = "rake"): each policy's take, its paired
difference from the first with an interval narrower than the unpaired one, what each kind
of player pays adding up to the take, a time charge, and bad settings refused naming the
field.  Rules 003_6e018542f14946f8.txt: 'taking a percentage of the pots as their rake'."""

from __future__ import annotations

import json
from typing import Any

import pytest

from service.convert import report_to_result, result_to_report
from service.jobfile import job_from_mapping
from simulations.spec import SpecError
from workers.runner import InlineRunner

JOB: dict[str, Any] = {
    "kind": "rake",
    "hands": 60_000,
    "seed": 4,
    "shard_size": 30_000,
    "table": {"players": 6, "blinds": [50, 100]},
    "players": [
        {"name": "regular", "seats": 4, "vpip": 0.2},
        {"name": "recreational", "vpip": 0.45, "chance": 0.35},
    ],
    "room": {"tables": 5, "hands_per_hour": 30},
    "policies": [
        {"name": "10 % capped at 5 BB", "percent": 10, "caps": [{"players": 2, "cap": 500}]},
        {
            "name": "10 % capped at 4 BB and a drop",
            "percent": 10,
            "caps": [{"players": 2, "cap": 400}],
            "drop": {"amount": 100, "threshold": 2_000},
        },
        {
            "name": "5 % half to even, caps by players",
            "percent": 5,
            "rounding": "half-even",
            "caps": [
                {"players": 2, "cap": 100},
                {"players": 3, "cap": 200},
                {"players": 5, "cap": 300},
            ],
        },
        {
            "name": "25 per 500",
            "increment": 500,
            "per_increment": 25,
            "caps": [{"players": 2, "cap": 200}],
        },
        {"name": "time", "time": 1_000},
    ],
}


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    job = job_from_mapping(JOB)
    return job.report(InlineRunner().run(job))


def test_paired_differences_have_narrower_intervals_than_unpaired(
    report: dict[str, Any],
) -> None:
    """Every policy settles the same hands, so a difference of two rakes varies far less than
    either rake: the paired interval is narrower than the one that ignores the pairing."""
    for row in report["policies"][1:4]:
        assert 0 < row["difference_ci95"] < row["difference_unpaired_ci95"], row["name"]
        # The difference of the means is the mean of the differences.
        first = report["policies"][0]["per_hand"]
        assert row["difference"] == pytest.approx(row["per_hand"] - first, abs=1e-9)


def test_what_each_kind_pays_adds_up_to_the_take(report: dict[str, Any]) -> None:
    """A pot's winners pay its rake: what the kinds pay, seat by seat, adds up to the rake
    per hand (and the drop to the drop)."""
    seats = {"regular": 4, "recreational": 2}
    for row in report["policies"][:4]:
        paid = sum(k["paid_bb100"] * seats[k["name"]] for k in row["kinds"]) * 100 / 100
        assert paid == pytest.approx(row["per_hand"], rel=1e-9)
        dropped = sum(k["drop_bb100"] * seats[k["name"]] for k in row["kinds"])
        assert dropped == pytest.approx(row["drop_per_hand"], rel=1e-9, abs=1e-12)
    # The loose players win more pots and pay more of the rake per seat.
    kinds = {k["name"]: k["paid_bb100"] for k in report["policies"][0]["kinds"]}
    assert kinds["recreational"] > kinds["regular"]


def test_the_rules_show_in_the_take(report: dict[str, Any]) -> None:
    first, dropped, five, increment, time = report["policies"]
    assert first["raked_share"] == pytest.approx(report["table"]["flop_share"])  # no flop, no drop
    assert dropped["per_hand"] < first["per_hand"] and dropped["drop_per_hand"] > 0
    assert dropped["drop_per_hour"] == pytest.approx(dropped["drop_per_hand"] * 5 * 30)
    assert five["per_hand"] < first["per_hand"]
    assert 0 < first["capped_share"] < 1 and increment["capped_share"] > 0
    assert time["per_hand"] == pytest.approx(1_000 * 6 / 30) and time["raked_share"] == 0
    assert time["per_hand_ci95"] == 0 and time["bb_per_100_per_player"] == pytest.approx(
        100 * 1_000 / 30 / 100
    )


def test_the_report_crosses_the_api_unchanged(report: dict[str, Any]) -> None:
    back = result_to_report(report_to_result("rake", report), report["seed"])
    assert json.dumps(back) == json.dumps(report)


@pytest.mark.parametrize(
    ("policy", "field", "words"),
    [
        ({"percent": 120}, "policies[0].percent", "percentage"),
        ({"per_increment": 5}, "policies[0].per_increment", "needs an increment"),
        ({"increment": 500}, "policies[0].per_increment", "required"),
        ({"percent": 5, "rounding": "sideways"}, "policies[0].rounding", "must be one of"),
        (
            {"percent": 5, "caps": [{"players": 1, "cap": 5}]},
            "policies[0].caps[0].players",
            "at least 2",
        ),
        (
            {"percent": 5, "drop": {"amount": 300, "threshold": 200}},
            "policies[0].drop.amount",
            "above the threshold",
        ),
        ({"percent": 5, "flavour": 1}, "policies[0].flavour", "not a known setting"),
    ],
)
def test_bad_policies_name_the_field(policy: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(SpecError) as refused:
        job_from_mapping({"kind": "rake", "hands": 10, "policies": [policy]})
    assert refused.value.field == field and words in str(refused.value), refused.value


def test_a_job_without_policies_takes_the_common_live_rake() -> None:
    job = job_from_mapping({"kind": "rake", "hands": 2_000, "seed": 1})
    (row,) = job.report(InlineRunner().run(job))["policies"]
    assert row["name"] == "10 % capped at 5 big blinds" and row["per_hand"] > 0
