"""Simulation models: what one trial is, and how trials add up to an estimate.

A model is a frozen dataclass that can ``simulate(trials, rng)`` into a tally, merge
tallies from any number of shards in any order, ``report`` a merged tally, and name its
``main_estimate``, the figure a job's precision target is judged on.  A tally is
a frozen dataclass of integers, tuples of them and exact histograms
(:class:`~simulations.models.tally.Counts`), so that shards merge exactly in any order and
the generic codec in ``workers/job.py`` stores it with no code of its own.

Each model is listed once in :data:`MODELS` by its ``kind``; the service registers the kind
with its API messages and rendering in ``service/kinds.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Protocol

import numpy as np

from simulations.models.bad_beat import BadBeatModel
from simulations.models.estimate import Estimate
from simulations.models.exhaustion import ExhaustionModel
from simulations.models.guts import GutsModel
from simulations.models.rake import RakeModel
from simulations.models.tally import Counts
from simulations.spec import Fields


class Tally(Protocol):
    @property
    def trials(self) -> int: ...

    def merge(self, other: Any) -> Any: ...


class Model(Protocol):
    @property
    def kind(self) -> str: ...

    @property
    def trials_field(self) -> str: ...

    def simulate(self, trials: int, rng: np.random.Generator) -> Any: ...

    def empty_tally(self) -> Any: ...

    def report(self, tally: Any) -> dict[str, Any]: ...

    def describe(self) -> str: ...

    # The figure a job's precision target is judged on (simulations/models/estimate.py).
    def main_estimate(self, tally: Any) -> Estimate: ...

    def precise_enough(self, tally: Any, precision: float) -> bool: ...


class ModelReader(Protocol):
    """A model class: its kind, the name of its trial count, and its spec reader."""

    @property
    def kind(self) -> str: ...

    @property
    def trials_field(self) -> str: ...

    def from_fields(self, job: Fields) -> Model: ...


MODELS: Mapping[str, ModelReader] = MappingProxyType(
    {
        BadBeatModel.kind: BadBeatModel,
        GutsModel.kind: GutsModel,
        ExhaustionModel.kind: ExhaustionModel,
        RakeModel.kind: RakeModel,
    }
)

__all__ = [
    "MODELS",
    "BadBeatModel",
    "Counts",
    "Estimate",
    "ExhaustionModel",
    "GutsModel",
    "Model",
    "ModelReader",
    "RakeModel",
    "Tally",
]
