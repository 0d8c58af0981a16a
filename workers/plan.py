"""Shard plans and per-shard seeds.

A job's trials are cut into shards from (trials, shard size) alone — never from the
number of workers — and shard ``i`` draws from ``SeedSequence(seed).spawn(n)[i]``.
So a job's result is a function of its specification only: one core, two cores or a
cluster give the same integers, and a retried shard reproduces itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_SHARDS = 1_000_000


@dataclass(frozen=True)
class Shard:
    index: int
    trials: int


@dataclass(frozen=True)
class ShardPlan:
    trials: int
    shard_size: int

    def __post_init__(self) -> None:
        if self.trials <= 0:
            raise ValueError(f"trials must be positive, got {self.trials}")
        if self.shard_size <= 0:
            raise ValueError(f"shard size must be positive, got {self.shard_size}")
        if self.count > MAX_SHARDS:
            raise ValueError(
                f"{self.trials:,} trials in shards of {self.shard_size:,} make {self.count:,} "
                f"shards; at most {MAX_SHARDS:,} are allowed (raise the shard size)"
            )

    @property
    def count(self) -> int:
        return -(-self.trials // self.shard_size)

    def shard(self, index: int) -> Shard:
        if not 0 <= index < self.count:
            raise IndexError(f"shard {index} is outside 0..{self.count - 1}")
        start = index * self.shard_size
        return Shard(index, min(self.shard_size, self.trials - start))

    def shards(self) -> tuple[Shard, ...]:
        return tuple(self.shard(i) for i in range(self.count))


def shard_rng(seed: int, index: int) -> np.random.Generator:
    """The generator of shard ``index``: the ``index``-th child of ``SeedSequence(seed)``.

    ``SeedSequence(seed, spawn_key=(index,))`` is exactly ``SeedSequence(seed).spawn(n)[index]``
    for any ``n > index``, without building the other children.
    """
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(index,))))
