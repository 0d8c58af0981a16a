"""Exact, mergeable summaries for model tallies: integer histograms and their quantiles.

A tally is merged from shards in whatever order they finish, so everything in it must merge
exactly, associatively and commutatively: integer counts do, and so does :class:`Counts`, a
histogram of integer values kept as sparse ``(value, count)`` pairs.  Its mean and
quantiles are computed from the merged histogram, so they are the same however the trials
were sharded — a quantile sketch that merges exactly.

``Counts`` is a frozen dataclass of a tuple of integer pairs, so a tally holding it (or a
tuple of them) is still a frozen dataclass of integers that the generic tally codec
(:func:`workers.job.tally_to_dict`) stores and reads back with no code of its own::

    @dataclass(frozen=True)
    class SessionTally:
        sessions: int = 0
        deals: Counts = field(default_factory=Counts)   # deals per session
        net_by_seat: tuple[Counts, ...] = ()            # one histogram per seat

        def merge(self, other: SessionTally) -> SessionTally:
            return SessionTally(
                self.sessions + other.sessions,
                self.deals.merge(other.deals),
                merge_each(self.net_by_seat, other.net_by_seat),
            )
"""

from __future__ import annotations

import bisect
import heapq
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from operator import itemgetter

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True)
class Counts:
    """How many times each integer value occurred: ``pairs`` of (value, count), the values
    strictly increasing and every count positive (a value never seen has no pair)."""

    pairs: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        previous: int | None = None
        for pair in self.pairs:
            if len(pair) != 2:
                raise ValueError(f"Counts pairs are (value, count), got {pair!r}")
            value, count = pair
            if not _is_int(value) or not _is_int(count):
                raise ValueError(f"Counts pairs hold integers, got {pair!r}")
            if count <= 0:
                raise ValueError(f"Counts counts must be positive, got {count} for {value}")
            if previous is not None and value <= previous:
                raise ValueError(f"Counts values must increase, got {value} after {previous}")
            previous = value

    # -- building -----------------------------------------------------------------------

    @classmethod
    def of(cls, values: Iterable[int]) -> Counts:
        """The histogram of ``values`` (a plain iterable of integers)."""
        ordered = sorted(int(v) for v in values)
        return cls(tuple((value, len(list(run))) for value, run in groupby(ordered)))

    @classmethod
    def of_array(cls, values: npt.NDArray[np.integer]) -> Counts:
        """The histogram of an integer array, counted by numpy (for a model's kernel output)."""
        if values.size and not np.issubdtype(values.dtype, np.integer):
            raise ValueError(f"Counts.of_array needs integers, got {values.dtype}")
        distinct, counts = np.unique(values, return_counts=True)
        return cls(tuple(zip(distinct.tolist(), counts.tolist(), strict=True)))

    @classmethod
    def from_mapping(cls, counts: Mapping[int, int]) -> Counts:
        """From ``{value: count}``; zero counts are dropped."""
        return cls(tuple(sorted((int(v), int(c)) for v, c in counts.items() if c)))

    def add(self, value: int, count: int = 1) -> Counts:
        """These counts with ``count`` more of ``value``."""
        if count < 0:
            raise ValueError(f"count must not be negative, got {count}")
        return self.merge(Counts(((value, count),))) if count else self

    def merge(self, other: Counts) -> Counts:
        """The sum of two histograms: exact, associative and commutative."""
        if not other.pairs:
            return self
        if not self.pairs:
            return other
        merged: list[tuple[int, int]] = []
        for value, run in groupby(heapq.merge(self.pairs, other.pairs), key=itemgetter(0)):
            merged.append((value, sum(count for _, count in run)))
        return Counts(tuple(merged))

    # -- reading ------------------------------------------------------------------------

    @property
    def total(self) -> int:
        """How many values were counted."""
        return sum(count for _, count in self.pairs)

    def __len__(self) -> int:
        """How many distinct values were seen."""
        return len(self.pairs)

    def __bool__(self) -> bool:
        return bool(self.pairs)

    def count(self, value: int) -> int:
        """How many times ``value`` was counted (0 if never)."""
        at = bisect.bisect_left(self.pairs, (value,))
        found = at < len(self.pairs) and self.pairs[at][0] == value
        return self.pairs[at][1] if found else 0

    @property
    def minimum(self) -> int:
        self._need_values("minimum")
        return self.pairs[0][0]

    @property
    def maximum(self) -> int:
        self._need_values("maximum")
        return self.pairs[-1][0]

    def sum(self) -> int:
        """The sum of every counted value, exactly."""
        return sum(value * count for value, count in self.pairs)

    def mean(self) -> float:
        """The mean of the counted values (the exact ratio, rounded once)."""
        self._need_values("mean")
        return float(Fraction(self.sum(), self.total))

    def quantile(self, q: float) -> int:
        """The ``q``-quantile as a counted value: the smallest value whose cumulative share
        reaches ``q`` (numpy's ``method="inverted_cdf"`` on the expanded data, q in 0..1)."""
        if not 0.0 <= q <= 1.0:
            raise ValueError(f"q must lie in 0..1, got {q}")
        self._need_values("quantile")
        n = self.total
        # numpy's own arithmetic: the virtual index n*q - 1 in floating point, rounded up.
        index = min(max(math.ceil(float(n) * q - 1.0), 0), n - 1)
        seen = 0
        for value, count in self.pairs:
            seen += count
            if index < seen:
                return value
        raise AssertionError("unreachable: index < total")  # pragma: no cover

    def quantiles(self, qs: Sequence[float]) -> tuple[int, ...]:
        return tuple(self.quantile(q) for q in qs)

    def as_list(self) -> list[dict[str, int]]:
        """The histogram as ``[{"value": v, "count": c}, ...]``, values increasing: the form of
        a report field that a result message holds as a repeated ``{value, count}`` message."""
        return [{"value": value, "count": count} for value, count in self.pairs]

    def expand(self) -> npt.NDArray[np.int64]:
        """Every counted value, repeated by its count, in order (for tests and small data)."""
        if not self.pairs:
            return np.empty(0, dtype=np.int64)
        values, counts = zip(*self.pairs, strict=True)
        return np.repeat(np.array(values, dtype=np.int64), np.array(counts, dtype=np.int64))

    def _need_values(self, what: str) -> None:
        if not self.pairs:
            raise ValueError(f"the {what} of no values is undefined")


def merge_each(left: tuple[Counts, ...], right: tuple[Counts, ...]) -> tuple[Counts, ...]:
    """Merge two tuples of histograms position by position (a missing one counts as empty),
    as a tally's per-seat or per-round histograms merge."""
    width = max(len(left), len(right))
    empty = Counts()
    return tuple(
        (left[i] if i < len(left) else empty).merge(right[i] if i < len(right) else empty)
        for i in range(width)
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


__all__ = ["Counts", "merge_each"]
