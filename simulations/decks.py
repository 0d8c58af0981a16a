"""Decks: the standard 52-card pack, packs stripped of ranks, and packs with jokers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from simulations.cards import (
    MAX_JOKERS,
    RANK_SYMBOLS,
    Card,
    Rank,
    Suit,
    ensure_distinct,
    format_cards,
    joker,
    make_card,
)
from simulations.spec import echo


@dataclass(frozen=True)
class Deck:
    """An ordered pack of distinct cards; shuffling it never changes the pack itself."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        if not self.cards:
            raise ValueError("a deck needs at least one card")
        ensure_distinct(self.cards)

    @classmethod
    def standard(cls, jokers: int = 0) -> Deck:
        """The 52-card pack, with ``jokers`` jokers added (0 to 4)."""
        return cls.stripped(ranks=tuple(Rank), jokers=jokers)

    @classmethod
    def stripped(
        cls,
        ranks: Iterable[Rank | int | str] | None = None,
        *,
        removed: Iterable[Rank | int | str] = (),
        jokers: int = 0,
    ) -> Deck:
        """A pack holding only ``ranks`` (default all thirteen) less the ``removed`` ranks.

        Manila and other short decks keep 7 to A; Mexican stud removes the 8s, 9s and 10s;
        Royal hold'em keeps T to A.  Ranks are given as ``Rank`` values, 0-12, or symbols.
        """
        if not 0 <= jokers <= MAX_JOKERS:
            raise ValueError(f"jokers must be 0..{MAX_JOKERS}, got {jokers}")
        kept = {_to_rank(r) for r in (Rank if ranks is None else ranks)}
        kept -= {_to_rank(r) for r in removed}
        if not kept:
            raise ValueError("a stripped deck must keep at least one rank")
        cards = [make_card(rank, suit) for rank in sorted(kept) for suit in Suit]
        cards.extend(joker(i) for i in range(jokers))
        return cls(tuple(cards))

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The standard ranks present, lowest first."""
        return tuple(sorted({Rank(c >> 2) for c in self.cards if c < 52}))

    @property
    def joker_count(self) -> int:
        return sum(1 for c in self.cards if c >= 52)

    def as_array(self) -> npt.NDArray[np.int8]:
        return np.array(self.cards, dtype=np.int8)

    def shuffled(self, rng: np.random.Generator) -> npt.NDArray[np.int8]:
        """A uniformly shuffled copy of the pack, drawn from ``rng``."""
        return rng.permutation(self.as_array())

    def __str__(self) -> str:
        return format_cards(self.cards)


def _to_rank(value: Rank | int | str) -> Rank:
    if isinstance(value, str):
        symbol = "T" if value == "10" else value.upper()
        if len(symbol) != 1 or symbol not in RANK_SYMBOLS:
            raise ValueError(f"{echo(value)} is not a rank")
        return Rank(RANK_SYMBOLS.index(symbol))
    if not 0 <= int(value) < 13:
        raise ValueError(f"{echo(value)} is not a rank (0..12)")
    return Rank(int(value))
