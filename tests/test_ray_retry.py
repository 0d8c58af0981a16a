"""A shard whose Ray worker dies is run again and reproduces its tally."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from simulations.models import BadBeatModel
from simulations.rules.jackpot import BadBeatRules
from workers.job import Job
from workers.runner import RayRunner

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class DiesOnceModel:
    """A bad-beat model whose first attempt at each shard kills its worker process."""

    inner: BadBeatModel
    marker_dir: str
    kind = "bad_beat"
    trials_field = "hands"

    def simulate(self, trials: int, rng: np.random.Generator) -> Any:
        state = rng.bit_generator.state["state"]["state"]
        marker = Path(self.marker_dir) / f"{state}"
        if not marker.exists():
            marker.touch()
            os._exit(1)  # the worker dies mid-shard, as after an out-of-memory kill
        return self.inner.simulate(trials, rng)

    def empty_tally(self) -> Any:
        return self.inner.empty_tally()

    def report(self, tally: Any) -> dict[str, Any]:
        return self.inner.report(tally)

    def describe(self) -> str:
        return self.inner.describe()


def test_retried_shards_reproduce_their_tallies(tmp_path: Path) -> None:
    import ray.cloudpickle

    # Ship this module's classes to the workers by value: they need not import tests/.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    inner = BadBeatModel(players=9, rules=BadBeatRules("full house"))
    expected = Job(inner, 40_000, 3, 10_000)
    dying = Job(DiesOnceModel(inner, str(tmp_path)), 40_000, 3, 10_000)  # type: ignore[arg-type]
    runner = RayRunner(2)
    try:
        tally = runner.run(dying)
    finally:
        runner.close()
    assert len(list(tmp_path.iterdir())) == 4  # every shard's first worker died
    assert tally == _inline(expected)


def _inline(job: Job) -> Any:
    total = job.model.empty_tally()
    for index in range(job.plan.count):
        total = total.merge(job.run_shard(index))
    return total
