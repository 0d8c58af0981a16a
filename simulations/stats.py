"""Estimates of a frequency from counts: the point estimate and its confidence interval."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z_95 = 1.959963984540054  # the two-sided 95 % quantile of the standard normal


@dataclass(frozen=True)
class Proportion:
    """``hits`` successes in ``trials`` independent trials."""

    hits: int
    trials: int

    def __post_init__(self) -> None:
        if self.trials <= 0:
            raise ValueError("a proportion needs at least one trial")
        if not 0 <= self.hits <= self.trials:
            raise ValueError(f"hits must lie in 0..{self.trials}, got {self.hits}")

    @property
    def frequency(self) -> float:
        return self.hits / self.trials

    def wilson(self, z: float = Z_95) -> tuple[float, float]:
        """The Wilson score interval, which stays inside [0, 1] and behaves at zero hits."""
        n = self.trials
        p = self.frequency
        z2 = z * z
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        # At p = 0 (or 1) the exact bound is 0 (or 1), but centre - half cancels to a rounding
        # residue such as 1e-19, which would print as a tiny nonzero chance.
        low = 0.0 if self.hits == 0 else max(0.0, centre - half)
        high = 1.0 if self.hits == n else min(1.0, centre + half)
        return low, high

    @property
    def one_in(self) -> float | None:
        """Trials per hit ('one in N'), or None when nothing hit."""
        return self.trials / self.hits if self.hits else None
