"""The rake and the drop taken from each hand as distributions (``rake_taken``,
``drop_taken``), pinned against pots worked out by hand.

Rules 003_6e018542f14946f8.txt: 'The casino makes their profit off of the game by taking a
percentage of the pots as their rake.'
"""

from __future__ import annotations

from typing import Any

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.convert import report_to_result, result_to_report
from service.jobfile import job_from_mapping
from workers.runner import InlineRunner

# Three players who play every hand, open to three big blinds, and bet half the pot and
# call on every street: every hand's pot is the same, worked out here by hand.
EVERY_HAND: dict[str, Any] = {
    "kind": "rake",
    "hands": 3_000,
    "seed": 8,
    "table": {"players": 3, "blinds": [1, 2]},
    "players": [{"name": "caller", "vpip": 1.0, "hand": "none", "chance": 1.0, "bet": 0.5}],
    "policies": [
        {"name": "10 %", "percent": 10},
        {"name": "10 % capped at 20", "percent": 10, "caps": [{"players": 2, "cap": 20}]},
        {"name": "5 per 50", "increment": 50, "per_increment": 5, "drop": {"amount": 1}},
    ],
}


def _pot() -> int:
    """Three players each raise or call to 6 before the flop (18); on each street the first
    bets half the pot, rounded down to a chip, and the other two call."""
    pot = 3 * 6
    for _street in range(3):
        pot += 3 * (pot // 2)
    return pot


def test_each_hands_take_is_the_rule_applied_to_the_pot() -> None:
    """Rules 003: 'taking a percentage of the pots as their rake': a pot of 276 raked 10 %
    rounded down (27), capped at 20, or 5 for each full 50 (25) with a drop of 1 — every
    hand alike, so each take's distribution is that one value, its mean exact."""
    pot = _pot()
    assert pot == 276
    job = job_from_mapping(EVERY_HAND)
    report = job.report(InlineRunner().run(job))
    expected = [(pot * 10 // 100, 0), (min(20, pot * 10 // 100), 0), (5 * (pot // 50), 1)]
    for row, (rake, drop) in zip(report["policies"], expected, strict=True):
        taken = row["rake_taken"]
        assert taken["histogram"] == [{"value": rake, "count": 3_000}], row["name"]
        assert taken["mean"] == rake == taken["mean_ci95_low"] == taken["mean_ci95_high"]
        assert [q["value"] for q in taken["quantiles"]] == [rake] * len(taken["quantiles"])
        assert taken["tail"] == "bounded"
        assert row["drop_taken"]["histogram"] == [{"value": drop, "count": 3_000}]
    result = report_to_result("rake", report, pb.JobResult())
    assert result_to_report(result, job.seed) == report
