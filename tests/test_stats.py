"""Proportions and their Wilson interval (simulations/stats.py), and how a result prints."""

from __future__ import annotations

import pytest

from service.render_economics import render_jackpot
from simulations.models.bad_beat import BadBeatModel, BadBeatTally
from simulations.stats import Proportion
from workers.job import Job


@pytest.mark.parametrize("trials", [1, 7, 100, 1000, 10**6, 10**9, 10**13])
def test_wilson_bounds_are_exact_at_zero_and_all_hits(trials: int) -> None:
    """At 0 hits the low bound was a rounding residue (2e-19 at 1,000 trials), not 0."""
    low, high = Proportion(0, trials).wilson()
    assert low == 0.0 and 0.0 < high < 1.0
    low, high = Proportion(trials, trials).wilson()
    assert high == 1.0 and 0.0 < low < 1.0


def test_wilson_interval_between_the_ends() -> None:
    low, high = Proportion(5, 1000).wilson()
    assert 0.0 < low < 0.005 < high < 1.0
    # statsmodels' proportion_confint(5, 1000, method="wilson")
    assert low == pytest.approx(0.0021375, abs=1e-7)
    assert high == pytest.approx(0.0116510, abs=1e-7)


def test_no_jackpot_hit_prints_a_low_bound_of_zero() -> None:
    """The bad-beat result for 0 jackpot hands printed the low bound as '1.08e-17 %'."""
    job = Job(BadBeatModel(), trials=1000, seed=1)
    text = render_jackpot(job, job.report(BadBeatTally(hands=1000, jackpot_hands=0)))
    frequency = next(line for line in text.splitlines() if "frequency" in line)
    assert "(95 % CI 0 % to 0.38268 %)" in frequency, frequency
    assert "e-" not in text
