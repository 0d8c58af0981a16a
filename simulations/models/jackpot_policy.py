"""The bad-beat jackpot as a policy over time: how long between hits, how big it is when it
hits, what share of the drop goes back to the players, and what each kind of player gets.

Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot': 'Bad beat jackpots are usually
progressive, often with a small rake being taken out of each pot to fund the jackpot ...
When the jackpot is won, it is usually split among all players sitting at the table at the
time of the bad beat, including players that folded their hands (usually a 25 % share),
with the largest shares of the jackpot going to the players holding the winning (usually
25 %) and losing hand (usually 50 %).'  The policy's other parts follow posted room rules:

* a **seed**, the jackpot's starting amount, and a **reserve** (backup) share of each drop
  that starts the next jackpot — 'Resets to $2500 or the Reserve BBJ when hit, whichever is
  higher' (torontopoker.ca/bad-beat; the other reading, the seed *plus* the reserve, is the
  option ``reseed = "sum"``) — and an **admin** share the house keeps ('the amount of
  administrative fees taken from the jackpot', Rules of Poker 5.28.2);
* the **payout shares** of the losing hand, the winning hand, the table (the others dealt
  in, folded hands included) and the room (every player at the room's other tables — with
  one table, the table's share: 'The room share allocation ... will transfer to the reserve
  ... if only one table is active' gives it to no one; we give it to the table), and the
  rule when **two qualifying losing hands** are shown: by default the best one takes the
  losing share and the other is one of the table (Poker Palace: 'the player with the
  lowest-ranking hand will only receive a "table share"'); with ``[policy.two_losers]``,
  'Best losing hand: 30 %, Second-best losing hand: 25 %, Winning hand: 20 %, Table share:
  25 %' (Rules of Poker 5.28.2);
* a qualifier that **resets after a hit and steps down on a schedule** to a floor (the
  criteria 'will lower ... each time the Bad Beat Jackpot has increased by $2,000 ... four
  Aces, four Kings, four Queens', acehighpoker.com/bad-beat): every ``every_hours`` hours
  of room play without a hit, the next losing hand of ``steps`` applies.

**How it is worked out.**  The room's hands are independent, so the jackpot is a renewal
process, reset by every hit: the job estimates, per hand, the chance ``q_k`` of a hit at each
level of the schedule (every hand is judged at every level at once) and the mean drop ``mu``;
then the hands from one hit to the next, ``G``, have a piecewise geometric law — a hand
``t`` after the reset hits with ``q_k`` while level ``k`` stands — known exactly from the
``q_k``.  By Wald's identity the drops of a cycle add up to ``mu * E[G]`` on average, so the
mean jackpot at a hit is exact: ``start + main * mu * E[G]`` (``main`` the drop's share left
after the reserve and admin; with a fixed drop ``h`` per hand, one level of chance ``p`` and
no reserve, ``seed + h / p``).  Its distribution is that of ``start + main * mu * G`` —
the drop's spread from hand to hand shifts it by well under a per cent at any real cycle
length — with ``start`` the seed or the reserve built over the cycle before (an independent
copy of ``G``).  The intervals are simultaneous: each ``q_k`` and ``mu`` at 95 % / (levels +
1) (Bonferroni), every figure being monotone in each of them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

from simulations.stats import Proportion

MIDPOINTS = 2_000  # quantile points of the cycle before, for a reserve-seeded jackpot
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9, 0.99)
BINS = 24


@dataclass(frozen=True)
class Shares:
    """The parts of a jackpot, each a share of it: the losing hand, the second losing hand
    (only under the two-losers rule), the winning hand, the table and the room."""

    loser: float = 0.5
    winner: float = 0.25
    table: float = 0.25
    room: float = 0.0
    second: float = 0.0

    @property
    def total(self) -> float:
        return self.loser + self.winner + self.table + self.room + self.second


@dataclass(frozen=True)
class JackpotPolicy:
    """A room's jackpot over time (see the module's text)."""

    seed: int = 0
    reserve_share: float = 0.0
    admin_share: float = 0.0
    reseed: str = "larger"
    shares: Shares = Shares()
    two_losers: Shares | None = None
    every_hours: float = 0.0
    steps: tuple[str, ...] = ()

    @property
    def main_share(self) -> float:
        """The share of each drop that goes to the jackpot standing."""
        return 1.0 - self.reserve_share - self.admin_share


@dataclass(frozen=True)
class Cycle:
    """The hands from a reset to the next hit: level ``k`` stands for ``lengths[k]`` hands
    (the last for ever) and each of its hands hits with chance ``q[k]``."""

    q: tuple[float, ...]
    lengths: tuple[float, ...]

    @property
    def starts(self) -> tuple[float, ...]:
        out, at = [], 0.0
        for length in self.lengths:
            out.append(at)
            at += length
        return tuple(out)

    @property
    def survival(self) -> tuple[float, ...]:
        """The chance of no hit before each level begins."""
        out, alive = [], 1.0
        for q, length in zip(self.q, self.lengths, strict=True):
            out.append(alive)
            alive *= _stay(q, length)
        return tuple(out)

    def hit_in(self) -> tuple[float, ...]:
        """The chance that the hit comes while each level stands."""
        return tuple(
            s * (1.0 - _stay(q, n))
            for s, q, n in zip(self.survival, self.q, self.lengths, strict=True)
        )

    @property
    def mean(self) -> float:
        """E[G], the mean hands per cycle (inf when the floor can never be hit)."""
        total = 0.0
        for s, q, n in zip(self.survival, self.q, self.lengths, strict=True):
            if s == 0.0:
                continue
            if q <= 0.0:
                if math.isinf(n):
                    return math.inf
                total += s * n
            else:
                total += s * (1.0 - _stay(q, n)) / q
        return total

    def mean_within(self) -> tuple[float, ...]:
        """E[G | the hit comes at each level]: the level's start plus the mean of a geometric
        variable cut at the level's length."""
        out = []
        for start, q, n in zip(self.starts, self.q, self.lengths, strict=True):
            if q <= 0.0:
                out.append(math.nan)
            elif math.isinf(n):
                out.append(start + 1.0 / q)
            else:
                stay = _stay(q, n)
                out.append(start + 1.0 / q - n * stay / (1.0 - stay))
        return tuple(out)

    def above_all(self, t: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """P(G > t) for each of ``t``."""
        out = np.zeros_like(t)
        whole = np.floor(np.maximum(t, 0.0))
        done = np.zeros(t.shape, dtype=np.bool_)
        for start, s, q, n in zip(self.starts, self.survival, self.q, self.lengths, strict=True):
            here = ~done & (whole < start + n)
            if q <= 0.0:
                out[here] = s
            else:
                out[here] = s * np.exp((whole[here] - start) * math.log1p(-q))
            done |= here
        return out

    def above(self, t: float) -> float:
        """P(G > t)."""
        for start, s, q, n in zip(self.starts, self.survival, self.q, self.lengths, strict=True):
            if t < start + n:
                return s * _stay(q, max(0.0, math.floor(t) - start))
        return 0.0

    def quantile(self, u: float) -> float:
        """The smallest whole number of hands t with P(G <= t) >= u (inf if none)."""
        target = 1.0 - u
        for start, s, q, n in zip(self.starts, self.survival, self.q, self.lengths, strict=True):
            end = s * _stay(q, n)
            if end <= target or math.isinf(n):
                if q <= 0.0:
                    return math.inf if math.isinf(n) else start + n
                if target <= 0.0:
                    return math.inf
                m = math.log(target / s) / math.log1p(-q)
                return max(1.0, start + math.ceil(m - 1e-9))
        return math.inf


def _stay(q: float, n: float) -> float:
    """(1 - q) ** n, with (1 - 0) ** inf = 1."""
    if q <= 0.0:
        return 1.0
    if math.isinf(n):
        return 0.0
    return math.exp(n * math.log1p(-q))


@dataclass(frozen=True)
class Outlook:
    """The policy's figures for one value of the hit chances and the mean drop."""

    cycle: Cycle
    mean_drop: float
    policy: JackpotPolicy

    @cached_property
    def starts(self) -> npt.NDArray[np.float64]:
        """The jackpot's start after the cycle before, at evenly spread quantiles of that
        cycle: the reserve it built, or the seed (:attr:`JackpotPolicy.reseed`)."""
        r = self.policy.reserve_share * self.mean_drop
        reserve = np.array(
            [r * self.cycle.quantile((i + 0.5) / MIDPOINTS) for i in range(MIDPOINTS)]
        )
        seed = float(self.policy.seed)
        return np.maximum(seed, reserve) if self.policy.reseed == "larger" else seed + reserve

    @property
    def mean_start(self) -> float:
        if self.policy.reserve_share == 0.0:
            return float(self.policy.seed)
        return float(self.starts.mean())

    @property
    def growth(self) -> float:
        """Chips the standing jackpot gains per hand on average."""
        return self.policy.main_share * self.mean_drop

    @property
    def mean_at_hit(self) -> float:
        return self.mean_start + self.growth * self.cycle.mean

    def mean_at_hit_in(self) -> tuple[float, ...]:
        return tuple(self.mean_start + self.growth * g for g in self.cycle.mean_within())

    def below(self, x: float) -> float:
        """P(jackpot at a hit <= x)."""
        if self.growth <= 0.0:
            return 1.0 if x >= self.mean_start else 0.0
        if self.policy.reserve_share == 0.0:
            return 1.0 - self.cycle.above((x - self.policy.seed) / self.growth)
        starts = self.starts
        below = 1.0 - self.cycle.above_all((x - starts) / self.growth)
        return float(np.where(x >= starts, below, 0.0).mean())

    def quantile(self, u: float) -> float:
        if self.policy.reserve_share == 0.0 or self.growth <= 0.0:
            return self.policy.seed + self.growth * self.cycle.quantile(u)
        low, high = 0.0, float(self.starts.max())
        high += self.growth * self.cycle.quantile(max(u, 0.999))
        if math.isinf(high):
            return math.inf
        for _ in range(60):
            middle = (low + high) / 2
            if self.below(middle) >= u:
                high = middle
            else:
                low = middle
        return high

    def histogram(self) -> list[tuple[float, float, float]]:
        """(low, high, share) bars from the 0.1 % to the 99.9 % quantile."""
        low, high = self.quantile(0.001), self.quantile(0.999)
        if not math.isfinite(high) or high <= low:
            return []
        width = (high - low) / BINS
        edges = [low + i * width for i in range(BINS + 1)]
        cdf = [self.below(e) for e in edges]
        return [(edges[i], edges[i + 1], max(0.0, cdf[i + 1] - cdf[i])) for i in range(BINS)]


def bonferroni_z(parameters: int, confidence: float = 0.95) -> float:
    """The normal quantile for ``parameters`` intervals that hold together at ``confidence``."""
    return NormalDist().inv_cdf(1.0 - (1.0 - confidence) / (2.0 * parameters))


def hit_chances(hits: Sequence[int], hands: int, z: float) -> tuple[list[float], ...]:
    """Each level's hit chance, with its low and high ends at ``z``."""
    mid, low, high = [], [], []
    for h in hits:
        estimate = Proportion(h, hands)
        a, b = estimate.wilson(z)
        mid.append(estimate.frequency)
        low.append(a)
        high.append(b)
    return mid, low, high
