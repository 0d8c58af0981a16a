"""Distributions of a job's numeric statistics (simulations/models/distribution.py):
order-statistic intervals against the binomial law computed here, their coverage on laws
with known quantiles, the bins, the Hill estimate on an exact Pareto law, and the verdicts
that decide whether a mean is shown."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from simulations.models.distribution import (
    BOUNDED,
    EXACT_BELOW,
    LogBins,
    Tail,
    Verdict,
    bin_centre,
    bin_edges,
    describe,
    growth_verdict,
    hill,
    log_bin,
    log_summary,
    mean_interval,
    quantile_with_interval,
    rank_interval,
    summary,
)
from simulations.models.tally import Counts


def _binomial_cdf(n: int, q: Fraction, k: int) -> Fraction:
    """P(B <= k) for B ~ Binomial(n, q), exactly."""
    return sum(
        (Fraction(math.comb(n, i)) * q**i * (1 - q) ** (n - i) for i in range(k + 1)),
        Fraction(0),
    )


@pytest.mark.parametrize(("n", "q"), [(10, "1/2"), (25, "1/2"), (40, "9/10"), (60, "1/10")])
def test_rank_interval_is_the_tightest_with_95_percent_coverage(n: int, q: str) -> None:
    """The q-quantile lies in [X(l), X(u)] when at least l values fall at or below it and
    fewer than u do: P(l <= B <= u - 1) for B ~ Binomial(n, q), summed here in fractions.
    Each tail holds at most 2.5 % (where the sample allows), and moving either rank inward
    would break that."""
    p = Fraction(q)
    low, high = rank_interval(n, float(p))
    tail = Fraction(25, 1000)
    # X(l) above the quantile means fewer than l values at or below it: P(B <= l - 1).
    assert _binomial_cdf(n, p, low - 1) <= tail or low == 1
    assert _binomial_cdf(n, p, low) > tail  # l + 1 would leave more than 2.5 % out
    # X(u) below the quantile means at least u values below it: P(B >= u).
    assert 1 - _binomial_cdf(n, p, high - 1) <= tail or high == n
    assert 1 - _binomial_cdf(n, p, high - 2) > tail  # u - 1 would leave more out
    coverage = _binomial_cdf(n, p, high - 1) - _binomial_cdf(n, p, low - 1)
    assert coverage >= Fraction(95, 100) or low == 1 or high == n


def test_the_normal_ranks_agree_with_the_exact_sum_past_its_reach() -> None:
    """Past 200,000 values the ranks come from the normal law: at 200,000 both ways give
    ranks within one of each other (the exact way computed here in log space)."""
    n, q = 200_000, 0.3
    low, high = rank_interval(n, q)
    sd = math.sqrt(n * q * (1 - q))
    assert abs(low - (n * q - 1.959963984540054 * sd)) <= 2
    assert abs(high - (n * q + 1.959963984540054 * sd)) <= 3
    big_low, big_high = rank_interval(200_001, q)
    assert abs(big_low - low) <= 2 and abs(big_high - high) <= 2


def test_quantile_intervals_cover_a_known_quantile() -> None:
    """Over 2,000 samples of 200 exponential values (median ln 2, 0.9-quantile ln 10),
    the intervals hold the true quantile at least 94 % of the time."""
    rng = np.random.default_rng(11)
    hits = {0.5: 0, 0.9: 0}
    scale = 1000.0  # whole numbers, as the histograms count them
    for _ in range(2000):
        values = np.floor(rng.exponential(scale, size=200)).astype(np.int64)
        counts = Counts.of_array(values)
        for q in hits:
            truth = -scale * math.log(1 - q)
            _, low, high = quantile_with_interval(counts, q)
            hits[q] += low <= math.floor(truth) <= high
    assert all(h / 2000 >= 0.94 for h in hits.values()), hits


def test_mean_interval_is_the_normal_interval_of_the_exact_mean() -> None:
    """The mean of the counted values and mean ± 1.96 s / sqrt(n), s the sample standard
    deviation, as numpy computes them."""
    values = np.array([3, 3, 7, 10, 10, 10, 42, 0, -5], dtype=np.int64)
    mean, low, high = mean_interval(Counts.of_array(values))
    half = 1.959963984540054 * values.std(ddof=1) / math.sqrt(len(values))
    assert mean == pytest.approx(values.mean()) and low == pytest.approx(values.mean() - half)
    assert high == pytest.approx(values.mean() + half)


def test_bins_are_exact_below_4096_and_log_scale_above() -> None:
    """A value below 4,096 in size is its own bin; above, a bin 2^(1/16) wide holds it, and
    bins keep the values' order and sign."""
    for exact in (0, 1, -1, 7, 4095, -4095):
        assert bin_edges(log_bin(exact)) == (exact, exact) and bin_centre(log_bin(exact)) == exact
    values = [4096.0, 5000.0, 1e6, 3.3e15, 2.0**70, 1e300]
    for v in values + [-x for x in values]:
        low, high = bin_edges(log_bin(v))
        assert low <= v < high or (v < 0 and low < v <= high)
        assert high / low == pytest.approx(2 ** (1 / 16)) or high / low == pytest.approx(
            2 ** (-1 / 16)
        )
    ordered = sorted(values + [-x for x in values] + [0, 5, -5])
    indices = [log_bin(v) for v in ordered]
    assert indices == sorted(indices)
    assert EXACT_BELOW == 4096


def test_hill_recovers_a_pareto_tail_index() -> None:
    """For the Pareto law P(X > x) = (x / x0)^-alpha the Hill estimate from the largest
    values is unbiased; on a million draws with alpha = 1.5 (finite mean, infinite variance)
    and x0 = 10,000 its 95 % interval holds 1.5."""
    rng = np.random.default_rng(4)
    values = np.minimum(np.floor(10_000 * (1 - rng.random(1_000_000)) ** (-1 / 1.5)), 2.0**62)
    estimate = hill(LogBins.of(values.tolist()))
    assert estimate is not None
    assert estimate.low <= 1.5 <= estimate.high, estimate
    assert hill(LogBins.of([5.0] * 40)) is None  # too few values to say


@pytest.mark.parametrize(
    ("rho1", "rho2", "tail"),
    [
        ((2.0, 1.9, 2.1), (5.0, 4.8, 5.2), Tail.NO_FINITE_MEAN),
        ((0.8, 0.78, 0.82), (1.3, 1.25, 1.35), Tail.INFINITE_VARIANCE),
        ((0.5, 0.48, 0.52), (0.7, 0.68, 0.72), Tail.FINITE_VARIANCE),
        ((1.0, 0.98, 1.02), (1.5, 1.4, 1.6), Tail.UNDETERMINED),
    ],
)
def test_growth_verdicts(
    rho1: tuple[float, float, float], rho2: tuple[float, float, float], tail: Tail
) -> None:
    """A value multiplied by G each deal until the deal that ends it (G = 0 there) has a
    finite mean exactly when E[G] < 1 (the sum of E[G]^d converges) and a finite variance
    when E[G^2] < 1; an interval that reaches 1 settles neither."""
    assert growth_verdict(rho1, rho2, "the pot").tail is tail


def test_summaries_show_the_mean_only_where_the_tail_allows() -> None:
    """The mean and its interval are shown for a bounded or finite-variance law; the mean
    alone for finite mean and infinite variance; neither for no finite mean — and the text
    says so."""
    counts = Counts.of([1, 2, 2, 3, 100])
    shown = summary(counts, BOUNDED)
    assert shown["mean"] == pytest.approx(21.6) and shown["mean_ci95_low"] is not None
    heavy = summary(counts, Verdict(Tail.INFINITE_VARIANCE, "heavy"))
    assert heavy["mean"] is not None and heavy["mean_ci95_low"] is None
    none = log_summary(
        LogBins(counts), Verdict(Tail.NO_FINITE_MEAN, "no finite mean here"), mean=(21.6, 0, 50)
    )
    assert none["mean"] is None and none["mean_ci95_high"] is None
    text = describe("pot", none)
    assert "no mean given" in text and "no finite mean here" in text
    assert [q["value"] for q in shown["quantiles"]] == [2.0, 100.0, 100.0]
