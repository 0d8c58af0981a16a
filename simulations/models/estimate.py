"""A job's main estimate: the one figure a precision target is judged on.

Every model names one figure of its report as its main estimate (:class:`Estimate`) — the
bad-beat hit rate, the mean deals of a guts game, the share of hands that run out of cards,
the main rake policy's take a hand — with the 95 % interval its report gives it.  A job with
``precision = 0.01`` stops once that interval's half-width is within 1 % of the estimate
(:meth:`Estimate.precise_enough`); ``workers/precision.py`` decides where on the shards.

An interval's width alone would stop a job on a lucky early run: a rate with three hits in
a few hands, or a mean over a few games that happened to agree.  So each estimate also
counts the observations it rests on (``events``) and stops nothing before ``minimum`` of
them: :data:`MIN_EVENTS` hits for a rate, :data:`MIN_TRIALS` trials for a mean.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from simulations.stats import Proportion

# A rate's hits before its interval may stop a job.  Below about a hundred the Wilson
# interval's width itself is noisy (it scales as 1/sqrt(hits)), and stopping when it first
# looks narrow would favour runs that hit more than their share.
MIN_EVENTS = 100
# A mean's trials before its interval may stop a job: the normal interval of a skewed
# statistic (deals a game, a rake that is mostly zero) needs more values than a rate's.
MIN_TRIALS = 1_000


@dataclass(frozen=True)
class Estimate:
    """A main estimate: ``value`` and its 95 % interval ``low``..``high`` (all None while
    undefined: no trials yet, a mean the tail does not allow), the ``events`` it rests on
    and the ``minimum`` of them before it may stop a job."""

    name: str
    value: float | None
    low: float | None
    high: float | None
    events: int = 0
    minimum: int = 0

    @classmethod
    def rate(cls, name: str, hits: int, trials: int, minimum: int = MIN_EVENTS) -> Estimate:
        """``hits`` in ``trials`` with the 95 % Wilson interval (the reports' own); the hits
        are the events."""
        if trials <= 0:
            return cls(name, None, None, None, hits, minimum)
        share = Proportion(hits, trials)
        low, high = share.wilson()
        return cls(name, share.frequency, low, high, hits, minimum)

    @classmethod
    def mean(
        cls,
        name: str,
        interval: tuple[float, float, float] | None,
        events: int,
        minimum: int = MIN_TRIALS,
    ) -> Estimate:
        """A mean as ``(value, low, high)``, or None where it is not defined."""
        if interval is None:
            return cls(name, None, None, None, events, minimum)
        value, low, high = interval
        return cls(name, value, low, high, events, minimum)

    @property
    def half_width(self) -> float | None:
        """Half the interval's width (a Wilson interval is not centred on the value)."""
        if self.low is None or self.high is None:
            return None
        return (self.high - self.low) / 2

    @property
    def relative_half_width(self) -> float | None:
        """The half-width as a share of the value; None while the value is undefined, zero
        or not finite (no relative precision can be claimed for it)."""
        half = self.half_width
        value = self.value
        if half is None or value is None or value == 0:
            return None
        relative = half / abs(value)
        return relative if math.isfinite(relative) else None

    def precise_enough(self, precision: float) -> bool:
        """At least ``minimum`` events seen and the half-width within ``precision`` of the
        value (0.01: within 1 %)."""
        relative = self.relative_half_width
        return self.events >= self.minimum and relative is not None and relative <= precision

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": self.value,
            "ci95_low": self.low,
            "ci95_high": self.high,
            "events": self.events,
            "minimum": self.minimum,
        }


__all__ = ["MIN_EVENTS", "MIN_TRIALS", "Estimate"]
