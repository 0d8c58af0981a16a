"""A second kind of job for tests, built only as a new kind would be: its model, its
messages, its renderer and one JobKind — so that the plumbing is shown to work for a kind
whose trials are not hands and whose tally holds histograms.

Dice sessions (``kind = "dice"``, trials field ``sessions``): each session rolls
``table.dice`` dice of ``table.sides`` sides ``session.rolls`` times, and counts the rolls
whose total is ``session.target``.  The tally holds the histogram of those hits per
session, one histogram of faces per die, and the longest session without a hit.

Its messages live in a proto of their own (package ``cardroom.demo``) with the shape of
the public API's ``JobSpec`` and ``JobResult``, compiled by :func:`messages`.
"""

from __future__ import annotations

import functools
import importlib.util
import math
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from service.kinds import JobKind, registry
from service.render import text_histogram
from simulations.models.tally import Counts, merge_each
from simulations.spec import Fields
from workers.job import Job

PROTO = """
syntax = "proto3";
package cardroom.demo;

message JobSpec {
  uint64 trials = 1;
  optional uint64 seed = 2;
  uint64 shard_size = 3;
  oneof kind {
    DiceSpec dice = 10;
  }
}
message DiceSpec {
  DiceTable table = 1;
  DiceSession session = 2;
}
message DiceTable {
  optional uint32 dice = 1;
  optional uint32 sides = 2;
}
message DiceSession {
  optional uint32 rolls = 1;
  optional uint32 target = 2;
  optional bool count_doubles = 3;
}

message JobResult {
  oneof kind {
    DiceResult dice = 10;
  }
}
message Bucket {
  int64 value = 1;
  uint64 count = 2;
}
message Quantiles {
  int64 p50 = 1;
  int64 p90 = 2;
  int64 p99 = 3;
}
message DiceResult {
  uint64 sessions = 1;
  double mean_hits = 2;
  repeated Bucket hits = 3;
  Quantiles hit_quantiles = 4;
  optional double sessions_per_miss = 5;
  repeated uint64 face_totals = 6;
  double spread = 7;
  uint64 longest_dry_spell = 8;
}
"""


@dataclass(frozen=True)
class DiceTally:
    sessions: int = 0
    hits: Counts = field(default_factory=Counts)  # rolls on target, per session
    faces: tuple[Counts, ...] = ()  # the faces each die showed
    longest_dry_spell: int = 0

    def merge(self, other: DiceTally) -> DiceTally:
        return DiceTally(
            self.sessions + other.sessions,
            self.hits.merge(other.hits),
            merge_each(self.faces, other.faces),
            max(self.longest_dry_spell, other.longest_dry_spell),
        )

    @property
    def trials(self) -> int:
        return self.sessions


@dataclass(frozen=True)
class DiceModel:
    kind: ClassVar[str] = "dice"
    trials_field: ClassVar[str] = "sessions"

    dice: int = 2
    sides: int = 6
    rolls: int = 10
    target: int = 7
    count_doubles: bool = False

    @classmethod
    def from_fields(cls, job: Fields) -> DiceModel:
        table = job.table("table")
        dice = table.integer("dice", 2, low=1, high=6)
        sides = table.integer("sides", 6, low=2, high=20)
        table.finish()
        session = job.table("session")
        rolls = session.integer("rolls", 10, low=1, high=1000)
        target = session.integer("target", 7, low=1)
        doubles = session.boolean("count_doubles", False)
        session.finish()
        return cls(dice, sides, rolls, target, doubles)

    def describe(self) -> str:
        return f"{self.dice}d{self.sides}, {self.rolls} rolls a session, target {self.target}"

    def empty_tally(self) -> DiceTally:
        return DiceTally()

    def simulate(self, sessions: int, rng: np.random.Generator) -> DiceTally:
        faces = rng.integers(1, self.sides + 1, size=(sessions, self.rolls, self.dice))
        totals = faces.sum(axis=2)
        on_target = totals == self.target
        if self.count_doubles and self.dice > 1:
            on_target |= faces.min(axis=2) == faces.max(axis=2)
        hits = on_target.sum(axis=1)
        dry = 0
        for row in on_target:
            run = best = 0
            for hit in row:
                run = 0 if hit else run + 1
                best = max(best, run)
            dry = max(dry, best)
        return DiceTally(
            sessions,
            Counts.of_array(hits),
            tuple(Counts.of_array(faces[:, :, die]) for die in range(self.dice)),
            dry,
        )

    def report(self, tally: DiceTally) -> dict[str, Any]:
        hits = tally.hits
        misses = hits.count(0)
        return {
            "sessions": tally.sessions,
            "mean_hits": hits.mean(),
            "hits": hits.as_list(),
            "hit_quantiles": {
                "p50": hits.quantile(0.5),
                "p90": hits.quantile(0.9),
                "p99": hits.quantile(0.99),
            },
            "sessions_per_miss": tally.sessions / misses if misses else None,
            "face_totals": [die.sum() for die in tally.faces],
            "spread": _spread(hits),
            "longest_dry_spell": tally.longest_dry_spell,
        }


def _spread(hits: Counts) -> float:
    """The hits' coefficient of variation, from exact sums; NaN when no session hit (a target
    the dice cannot make): a non-finite double crosses the API too."""
    n = hits.total
    mean = Fraction(hits.sum(), n)
    if not mean:
        return math.nan
    square = Fraction(sum(v * v * c for v, c in hits.pairs), n)
    return math.sqrt(square - mean * mean) / float(mean)


def render_dice(job: Job, report: Mapping[str, Any]) -> str:
    return "\n".join(
        [
            f"Dice sessions — {job.model.describe()}",
            f"  sessions       {report['sessions']:,}",
            f"  mean hits      {report['mean_hits']:.3f}",
            f"  seed           {report['seed']}",
        ]
    )


def plot_dice(job: Job, report: Mapping[str, Any]) -> str:
    return "  hits per session\n" + text_histogram(report["hits"])


DICE = JobKind(DiceModel, render_dice, plot=plot_dice)
KINDS = registry(DICE)


@functools.cache
def messages() -> ModuleType:
    """The demo API's generated module (compiled once per test process)."""
    from grpc_tools import protoc

    with tempfile.TemporaryDirectory(prefix="cardroom-demo-proto-") as folder:
        out = Path(folder)
        (out / "cardroom_demo.proto").write_text(PROTO)
        args = ["protoc", f"--proto_path={out}", f"--python_out={out}", "cardroom_demo.proto"]
        if protoc.main(args):
            raise RuntimeError("protoc failed on the demo proto")
        path = out / "cardroom_demo_pb2.py"
        spec = importlib.util.spec_from_file_location("cardroom_demo_pb2", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return module
