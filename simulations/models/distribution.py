"""Whole distributions of a numeric statistic: quantiles with intervals, the mean only where
the tail allows it, log-scale bins for values that grow geometrically, and tail verdicts.

Every job kind reports its numeric statistics through :func:`summary` (an exact integer
histogram, :class:`~simulations.models.tally.Counts`) or :func:`log_summary` (log-scale
bins of :class:`LogBins`, for pots and nets that grow by multiplication).  Both give the
same report shape — the ``Distribution`` message of the API:

* ``count``, ``minimum``, ``maximum``;
* ``quantiles``: each with a distribution-free 95 % interval from the order statistics
  (the ranks between which the q-quantile lies with probability at least 0.95 under the
  binomial law of the number of trials below it), so it holds whatever the tail;
* ``mean`` with its 95 % interval, given only when the tail verdict allows it: a sample
  mean of a law with no finite mean wanders without settling, and a normal interval for one
  with infinite variance does not cover;
* ``tail`` and ``tail_note``: the verdict in a word and in a sentence (:class:`Tail`);
* ``censored``: trials stopped at a bound the job named, with the bound's effect in words.

The verdict comes from the caller, who knows the model: a statistic bounded by the rules
(a cap, a deck) is :attr:`Tail.BOUNDED`; a geometric law (a game that ends each deal with a
fixed chance) has every moment; a pot that grows by a factor each deal has its verdict from
the per-deal growth law (:func:`growth_verdict`).  :func:`hill` gives the model-free Hill
estimate of the tail index from the largest values, which the reports show beside it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from simulations.models.tally import Counts
from simulations.stats import Z_95

QUANTILES = (0.5, 0.9, 0.99)
# Log-scale bins: this many to an octave (a bin is 2^(1/16) wide, 4.4 %).
BINS_PER_OCTAVE = 16
# Whole numbers below this in size have a bin each (exact); above it the bins are log-scale.
EXACT_BELOW = 4096
_EXACT_OCTAVES = 12  # log2(EXACT_BELOW)
# The exact binomial is summed up to this many trials; past it the normal approximation
# (with continuity) gives the same ranks to within one.
EXACT_RANKS = 200_000


class Tail(StrEnum):
    """What the tail of a statistic's law allows."""

    BOUNDED = "bounded"  # the rules bound it: every moment exists
    FINITE_VARIANCE = "finite variance"
    INFINITE_VARIANCE = "finite mean, infinite variance"
    NO_FINITE_MEAN = "no finite mean"
    UNDETERMINED = "undetermined"  # the evidence does not settle it

    @property
    def shows_mean(self) -> bool:
        """The sample mean estimates something (the law has a finite mean)."""
        return self in (Tail.BOUNDED, Tail.FINITE_VARIANCE, Tail.INFINITE_VARIANCE)

    @property
    def shows_interval(self) -> bool:
        """A normal interval for the mean covers (the law has a finite variance)."""
        return self in (Tail.BOUNDED, Tail.FINITE_VARIANCE)


@dataclass(frozen=True)
class Verdict:
    """A tail verdict and the sentence that explains it."""

    tail: Tail
    note: str = ""


BOUNDED = Verdict(Tail.BOUNDED, "bounded by the rules: the mean and its interval hold")
GEOMETRIC = Verdict(
    Tail.FINITE_VARIANCE,
    "a geometric tail (the game ends each deal with a chance bounded away from zero): "
    "every moment is finite",
)


# -- order statistics ----------------------------------------------------------------------


def rank_interval(n: int, q: float, z: float = Z_95) -> tuple[int, int]:
    """The 1-based ranks ``(l, u)`` of the order statistics X(l) <= X(u) between which the
    ``q``-quantile of a continuous law lies with probability at least the level of ``z``
    (two-sided 95 % by default): the number of trials below the quantile is Binomial(n, q),
    and ``l``, ``u`` are its central quantiles.  Ranks are clamped to 1..n (at the edges the
    interval reaches the sample's extremes, and its coverage is what the data allow)."""
    if n <= 0:
        raise ValueError("an interval needs at least one value")
    if not 0.0 < q < 1.0:
        raise ValueError(f"q must lie strictly between 0 and 1, got {q}")
    alpha = math.erfc(z / math.sqrt(2.0))  # two-sided tail mass of z
    if n <= EXACT_RANKS:
        low_rank, high_rank = _exact_ranks(n, q, alpha / 2)
    else:
        sd = math.sqrt(n * q * (1.0 - q))
        low_rank = math.floor(n * q - z * sd)
        high_rank = math.ceil(n * q + z * sd) + 1
    return max(1, min(n, low_rank)), max(1, min(n, high_rank))


def _exact_ranks(n: int, q: float, tail: float) -> tuple[int, int]:
    """For B ~ Binomial(n, q), the number of trials below the quantile: ``l`` the largest
    rank with P(B <= l - 1) <= tail and ``u`` the smallest with P(B >= u) <= tail, so that
    X(l) <= quantile <= X(u) with probability at least 1 - 2 tail.  The terms more than
    ten standard deviations (and ten) from the mode are below 1e-20 and left out."""
    log_q, log_p = math.log(q), math.log1p(-q)
    lgn = math.lgamma(n + 1)

    def pmf(k: int) -> float:
        log = lgn - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_q + (n - k) * log_p
        return math.exp(log)

    sd = math.sqrt(n * q * (1.0 - q))
    mode = math.floor(n * q)
    first = max(0, mode - int(10 * sd) - 10)
    last = min(n, mode + int(10 * sd) + 10)
    low = first
    cumulative = 0.0
    for k in range(first, last + 1):
        cumulative += pmf(k)
        if cumulative > tail:
            break
        low = k + 1
    high = last + 1
    cumulative = 0.0
    for k in range(last, first - 1, -1):
        cumulative += pmf(k)
        if cumulative > tail:
            break
        high = k
    return low, high


def quantile_with_interval(counts: Counts, q: float, z: float = Z_95) -> tuple[int, int, int]:
    """The ``q``-quantile of the counted values and its distribution-free interval: the
    values at the ranks of :func:`rank_interval` (a discrete law's quantile is covered at
    least as often as a continuous one's)."""
    n = counts.total
    low_rank, high_rank = rank_interval(n, q, z)
    return counts.quantile(q), _value_at_rank(counts, low_rank), _value_at_rank(counts, high_rank)


def _value_at_rank(counts: Counts, rank: int) -> int:
    """The ``rank``-th smallest counted value (1-based)."""
    seen = 0
    for value, count in counts.pairs:
        seen += count
        if rank <= seen:
            return value
    return counts.maximum


# -- the mean ------------------------------------------------------------------------------


def mean_interval(counts: Counts, z: float = Z_95) -> tuple[float, float, float]:
    """The mean of the counted values and its normal 95 % interval, from exact sums."""
    squares = sum(value * value * count for value, count in counts.pairs)
    return mean_of_sums(counts.sum(), squares, counts.total, z)


def mean_of_sums(total: int, squares: int, n: int, z: float = Z_95) -> tuple[float, float, float]:
    """A mean and its normal 95 % interval from an exact sum and sum of squares of ``n``
    values (one value: the mean itself, no width)."""
    mean = Fraction(total, n)
    if n < 2:
        return float(mean), float(mean), float(mean)
    variance = (Fraction(squares) - mean * total) / (n - 1)
    half = z * math.sqrt(max(0.0, float(variance)) / n)
    return float(mean), float(mean) - half, float(mean) + half


# -- log-scale bins ------------------------------------------------------------------------


def log_bins(values: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """The bin of each of ``values`` (whole numbers of chips): the value itself below
    :data:`EXACT_BELOW` in size, so that small pots and nets are counted exactly; above it
    ``±(EXACT_BELOW + floor(16 log2(|v| / EXACT_BELOW)))``, a bin 2^(1/16) wide (4.4 %).
    Bins keep the sign and the order of the values they hold."""
    values = np.asarray(values, dtype=np.float64)
    size = np.abs(values)
    wide = size >= EXACT_BELOW
    octaves = np.log2(np.where(wide, size, EXACT_BELOW)) - _EXACT_OCTAVES
    index = EXACT_BELOW + np.floor(BINS_PER_OCTAVE * octaves).astype(np.int64)
    small = np.where(wide, 0.0, values).astype(np.int64)  # cast only what fits
    return np.where(wide, np.sign(values).astype(np.int64) * index, small)


def log_bin(value: float) -> int:
    """The bin of one value (:func:`log_bins`)."""
    return int(log_bins(np.array([value], dtype=np.float64))[0])


def bin_edges(index: int) -> tuple[float, float]:
    """The values bin ``index`` holds, as ``(low, high)`` in increasing order: ``(v, v)``
    for an exact value."""
    size = abs(index)
    if size < EXACT_BELOW:
        return float(index), float(index)
    octaves = _EXACT_OCTAVES + (size - EXACT_BELOW) / BINS_PER_OCTAVE
    low, high = 2.0**octaves, 2.0 ** (octaves + 1 / BINS_PER_OCTAVE)
    return (low, high) if index > 0 else (-high, -low)


def bin_centre(index: int) -> float:
    """The value of an exact bin; the geometric centre of a log-scale one."""
    low, high = bin_edges(index)
    if low == high:
        return low
    return math.copysign(math.sqrt(abs(low) * abs(high)), low)


@dataclass(frozen=True)
class LogBins:
    """A mergeable histogram of whole-number values in the bins of :func:`log_bin` (exact
    below :data:`EXACT_BELOW`, log-scale above), exact in its counts: ``bins`` counts trials
    by bin index."""

    bins: Counts = field(default_factory=Counts)

    @classmethod
    def of(cls, values: Sequence[float] | npt.NDArray[np.float64]) -> LogBins:
        return cls(Counts.of_array(log_bins(np.asarray(values, dtype=np.float64))))

    def merge(self, other: LogBins) -> LogBins:
        return LogBins(self.bins.merge(other.bins))

    @property
    def total(self) -> int:
        return self.bins.total


# -- tail verdicts -------------------------------------------------------------------------


@dataclass(frozen=True)
class Hill:
    """The Hill estimate of the tail index alpha from the ``k`` largest values, with its
    asymptotic 95 % interval alpha (1 ± z / sqrt(k)): alpha <= 1 means no finite mean,
    alpha <= 2 no finite variance."""

    alpha: float
    low: float
    high: float
    k: int

    def as_dict(self) -> dict[str, Any]:
        return {"alpha": self.alpha, "ci95_low": self.low, "ci95_high": self.high, "k": self.k}


def hill(bins: LogBins, z: float = Z_95) -> Hill | None:
    """The Hill estimator over the largest values: whole bins from the top until at least
    ``sqrt(n)`` values, measured from the lower edge of the last bin taken (so the
    threshold is exact) with each value at its bin's centre (exact below
    :data:`EXACT_BELOW`; above, a bin's width moves a log value by at most 0.022).  None
    with fewer than 50 positive values or no spread among the largest."""
    positive = [(index, count) for index, count in bins.bins.pairs if index > 0]
    n = sum(count for _, count in positive)
    if n < 50:
        return None
    wanted = max(10, math.isqrt(n))
    k = 0
    logs = 0.0
    threshold = 0.0
    for index, count in reversed(positive):
        k += count
        logs += count * math.log(bin_centre(index))
        threshold = math.log(bin_edges(index)[0])
        if k >= wanted:
            break
    spread = logs / k - threshold
    if k >= n or spread <= 0:
        return None
    alpha = 1.0 / spread
    half = z / math.sqrt(k)
    return Hill(alpha, alpha * (1 - half), alpha * (1 + half), k)


def growth_verdict(
    rho1: tuple[float, float, float], rho2: tuple[float, float, float], what: str
) -> Verdict:
    """The verdict of a quantity that grows by a factor G each deal and stops with the game
    (G = 0 on the deal that ends it), from ``rho1`` = E[G] and ``rho2`` = E[G²] per deal,
    each ``(estimate, ci95_low, ci95_high)``: the final value's mean is
    ``sum over d of rho1^(d-1) P(end)`` times the start, finite exactly when rho1 < 1, and
    its second moment likewise with rho2."""
    r1, lo1, hi1 = rho1
    r2, lo2, hi2 = rho2
    law = f"per deal, E[growth] = {r1:.3g} (95 % {lo1:.3g}–{hi1:.3g}), E[growth²] = {r2:.3g}"
    if lo1 > 1:
        return Verdict(
            Tail.NO_FINITE_MEAN,
            f"{what} has no finite mean: it grows by a factor whose mean per deal is above 1 "
            f"({law}); a sample mean does not settle as trials are added, so none is given",
        )
    if hi1 < 1 and lo2 > 1:
        return Verdict(
            Tail.INFINITE_VARIANCE,
            f"{what} has a finite mean but infinite variance ({law}): the mean is given "
            "without an interval, which would not cover",
        )
    if hi2 < 1:
        return Verdict(Tail.FINITE_VARIANCE, f"{what} has a finite variance ({law})")
    return Verdict(
        Tail.UNDETERMINED,
        f"{what}: the growth law's interval reaches 1 ({law}), so whether its mean (or "
        "variance) is finite is not settled: the mean is not given",
    )


# -- report shapes -------------------------------------------------------------------------


def summary(
    counts: Counts,
    verdict: Verdict,
    qs: Sequence[float] = QUANTILES,
    *,
    censored: int = 0,
    censored_note: str = "",
    histogram: bool = True,
) -> dict[str, Any]:
    """The ``Distribution`` report of an exact integer histogram."""
    if not counts:
        return _report(verdict)
    quantiles = []
    for q in qs:
        value, low, high = quantile_with_interval(counts, q)
        quantiles.append(
            {"q": q, "value": float(value), "ci95_low": float(low), "ci95_high": float(high)}
        )
    return _report(
        verdict,
        count=counts.total,
        minimum=float(counts.minimum),
        maximum=float(counts.maximum),
        quantiles=quantiles,
        mean=mean_interval(counts),
        censored=censored,
        censored_note=censored_note,
        histogram=counts.as_list() if histogram else [],
    )


def log_summary(
    bins: LogBins,
    verdict: Verdict,
    qs: Sequence[float] = QUANTILES,
    *,
    mean: tuple[float, float, float] | None = None,
    maximum: float | None = None,
    censored: int = 0,
    censored_note: str = "",
) -> dict[str, Any]:
    """The ``Distribution`` report of :class:`LogBins`: quantiles are exact values or
    bin centres, their intervals the outer edges of the bins at the order statistics' ranks;
    ``mean`` is the caller's ``(mean, low, high)`` from exact sums, shown as the verdict
    allows; ``maximum``, where the caller kept it exactly, replaces the top bin's edge."""
    counts = bins.bins
    if not counts:
        return _report(verdict)
    quantiles = []
    for q in qs:
        index, low, high = quantile_with_interval(counts, q)
        quantiles.append(
            {
                "q": q,
                "value": bin_centre(index),
                "ci95_low": bin_edges(low)[0],
                "ci95_high": bin_edges(high)[1],
            }
        )
    return _report(
        verdict,
        count=counts.total,
        minimum=bin_edges(counts.minimum)[0],
        maximum=bin_edges(counts.maximum)[1] if maximum is None else float(maximum),
        quantiles=quantiles,
        mean=mean,
        censored=censored,
        censored_note=censored_note,
        log_histogram=[
            {"low": bin_edges(i)[0], "high": bin_edges(i)[1], "count": c} for i, c in counts.pairs
        ],
    )


def _report(
    verdict: Verdict,
    *,
    count: int = 0,
    minimum: float = 0.0,
    maximum: float = 0.0,
    quantiles: list[dict[str, float]] | None = None,
    mean: tuple[float, float, float] | None = None,
    censored: int = 0,
    censored_note: str = "",
    histogram: list[dict[str, int]] | None = None,
    log_histogram: list[dict[str, float]] | None = None,
) -> dict[str, Any]:
    """The report's fields in the message's order; the mean and its interval only as far as
    the verdict allows (:attr:`Tail.shows_mean`, :attr:`Tail.shows_interval`)."""
    shown = mean is not None and verdict.tail.shows_mean
    with_interval = shown and verdict.tail.shows_interval
    return {
        "count": count,
        "minimum": minimum,
        "maximum": maximum,
        "quantiles": quantiles or [],
        "mean": mean[0] if shown and mean is not None else None,
        "mean_ci95_low": mean[1] if with_interval and mean is not None else None,
        "mean_ci95_high": mean[2] if with_interval and mean is not None else None,
        "tail": str(verdict.tail),
        "tail_note": verdict.note,
        "censored": censored,
        "censored_note": censored_note,
        "histogram": histogram or [],
        "log_histogram": log_histogram or [],
    }


def mean_words(report: Mapping[str, Any], number: Callable[[float], str]) -> str:
    """The mean as a report gives it, in words: ``mean 3.2 (95 % 3.1–3.3)``, without an
    interval where the variance is infinite, or ``no mean given``; ``number`` formats."""
    if report["mean"] is None:
        return "no mean given"
    words = f"mean {number(report['mean'])}"
    if report["mean_ci95_low"] is None:
        return words + " (no interval: infinite variance)"
    low, high = number(report["mean_ci95_low"]), number(report["mean_ci95_high"])
    return words + f" (95 % {low} to {high})"


def describe(name: str, report: dict[str, Any], unit: str = "") -> str:
    """One statistic's distribution in words for a terminal: median and quantiles with
    intervals, the mean as the tail allows, the tail's note, any censoring."""
    if not report["count"]:
        return f"{name}: no values"
    suffix = f" {unit}" if unit else ""

    def number(x: float) -> str:
        if abs(x) >= 1e7:
            return f"{x:.3g}"
        return f"{x:,.4g}" if x != int(x) else f"{int(x):,}"

    parts = []
    for quantile in report["quantiles"]:
        label = "median" if quantile["q"] == 0.5 else f"p{100 * quantile['q']:g}"
        parts.append(
            f"{label} {number(quantile['value'])}{suffix} "
            f"(95 % {number(quantile['ci95_low'])}–{number(quantile['ci95_high'])})"
        )
    line = f"{name}: " + ", ".join(parts)
    line += f"; {mean_words(report, number)}"
    line += f"; max {number(report['maximum'])}{suffix}"
    lines = [line]
    if report["tail"] not in (str(Tail.BOUNDED),) and report["tail_note"]:
        lines.append(f"  tail: {report['tail_note']}")
    if report["censored"]:
        lines.append(f"  censored: {report['censored']:,} trials — {report['censored_note']}")
    return "\n".join(lines)


__all__ = [
    "BOUNDED",
    "GEOMETRIC",
    "Hill",
    "LogBins",
    "Tail",
    "Verdict",
    "bin_centre",
    "bin_edges",
    "describe",
    "growth_verdict",
    "hill",
    "log_bin",
    "log_summary",
    "mean_interval",
    "mean_of_sums",
    "quantile_with_interval",
    "rank_interval",
    "summary",
]
