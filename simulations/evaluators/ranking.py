"""The common shape of a ranked hand, whatever the ranking system.

Every ranking system (high, the three lowball systems, badugi, guts ranks, stripped
decks, wild cards...) values a hand as an integer that orders hands totally *within that
system*, higher being better for that system (so a low system gives the best low the
largest value).  A :class:`Ranking` carries that value with the system's name for the
hand's category and a readable name.  Rankings of different systems do not compare.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class Ranked(Protocol):
    """What every ranked hand offers (``HandValue`` for high hands, ``Ranking`` for others)."""

    @property
    def system(self) -> str: ...

    @property
    def value(self) -> int: ...

    @property
    def name(self) -> str: ...


@dataclass(frozen=True)
class Ranking:
    """A hand ranked under ``system``: ``value`` orders hands (higher is better there)."""

    system: str
    value: int
    category: str = field(compare=False)
    name: str = field(compare=False)

    def _check(self, other: object) -> Ranking:
        if not isinstance(other, Ranking) or other.system != self.system:
            raise TypeError(f"cannot compare a {self.system} ranking with {other!r}")
        return other

    def __lt__(self, other: object) -> bool:
        return self.value < self._check(other).value

    def __le__(self, other: object) -> bool:
        return self.value <= self._check(other).value

    def __gt__(self, other: object) -> bool:
        return self.value > self._check(other).value

    def __ge__(self, other: object) -> bool:
        return self.value >= self._check(other).value

    def __str__(self) -> str:
        return self.name
