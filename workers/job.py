"""A simulation job: a model, how many trials, the seed, and the shard size."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from simulations.models import Model, Tally
from workers.plan import ShardPlan, shard_rng

DEFAULT_SHARD_SIZE = 1_000_000


@dataclass(frozen=True)
class Job:
    model: Model
    trials: int
    seed: int
    shard_size: int = DEFAULT_SHARD_SIZE

    @property
    def kind(self) -> str:
        return self.model.kind

    @property
    def plan(self) -> ShardPlan:
        return ShardPlan(self.trials, self.shard_size)

    def run_shard(self, index: int) -> Tally:
        """Simulate shard ``index``; the same index always gives the same tally."""
        shard = self.plan.shard(index)
        tally: Tally = self.model.simulate(shard.trials, shard_rng(self.seed, index))
        return tally

    def report(self, tally: Tally) -> dict[str, Any]:
        """The result as flat JSON-ready fields: kind first, seed last."""
        return {"kind": self.kind, **self.model.report(tally), "seed": self.seed}

    def tally_from_dict(self, data: dict[str, Any]) -> Tally:
        """Rebuild a stored tally (tallies are frozen dataclasses of counts)."""
        return type(self.model.empty_tally())(**data)  # type: ignore[no-any-return]

    @staticmethod
    def tally_to_dict(tally: Tally) -> dict[str, Any]:
        return dataclasses.asdict(tally)  # type: ignore[call-overload, no-any-return]
