"""What the benchmark scripts share: logging, timing, machine facts, options and output.

The scripts are run as ``python bench/NAME.py``, which puts this folder on ``sys.path``, so
they import this module as ``common``.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

T = TypeVar("T")
C = TypeVar("C", bound="Timed")

SMOKE_NOTE = "Quick smoke run: the sizes are too small for these figures to mean much."


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@contextmanager
def gc_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def timed(work: Callable[[], T]) -> tuple[float, T]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def repeat_times(work: Callable[[], T], repeats: int) -> tuple[list[float], T | None]:
    """Every one of ``repeats`` wall times of ``work``, and its last result: the figures are
    their median and range (:class:`Spread`), never the best alone."""
    times, result = [], None
    for _ in range(repeats):
        seconds, result = timed(work)
        times.append(seconds)
    return times, result


@dataclass(frozen=True)
class Spread:
    """The median of some repeats and their range: what every figure of the report shows."""

    median: float
    low: float
    high: float
    repeats: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        if not values:
            raise ValueError("a spread needs at least one value")
        return cls(statistics.median(values), min(values), max(values), len(values))

    @classmethod
    def rates(cls, count: float, seconds: Sequence[float]) -> Spread:
        """``count`` items a pass at each pass's time: items per second."""
        return cls.of([count / s for s in seconds])


class Timed(Protocol):
    """A call timed by :func:`time_in_rounds`: every time, and its first result."""

    repeats: int
    work: Callable[[], Any]
    times: list[float]
    result: Any


def time_in_rounds(
    contenders: Sequence[C],
    *,
    before: Callable[[C], object] | None = None,
    after: Callable[[C, float], object] | None = None,
) -> None:
    """Time each contender ``repeats`` times, one pass of every contender per round, so that
    all meet the same changes in the machine's load; keep each one's times and its first
    result.  ``before`` runs untimed ahead of each pass, ``after`` is told each
    pass's time."""
    with gc_paused():
        for round_ in range(max(c.repeats for c in contenders)):
            for c in contenders:
                if round_ < c.repeats:
                    if before is not None:
                        before(c)
                    seconds, result = timed(c.work)
                    c.times.append(seconds)
                    if c.result is None:
                        c.result = result
                    if after is not None:
                        after(c, seconds)


def same_order(ours: npt.NDArray[np.integer], theirs: npt.NDArray[np.integer]) -> bool:
    """Whether ``theirs`` (larger is stronger) ranks every pair of hands as ``ours`` does."""
    order = np.lexsort((theirs, ours))
    return bool(np.array_equal(np.diff(ours[order]) > 0, np.diff(theirs[order]) > 0))


def cpu_model(fallback: str = "unknown") -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or fallback


def pin_to_one_cpu() -> int | None:
    """Keep this process on one CPU, the same for every contender; which one, if any."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    pinned = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {pinned})
    return pinned


def package_versions(packages: Iterable[str]) -> dict[str, str]:
    versions = {}
    for package in packages:
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = "not installed"
    return versions


def machine_facts(packages: Iterable[str], *, pin: bool = False) -> dict[str, Any]:
    """The machine, its load and the versions of ``packages``; with ``pin``, this process is
    first pinned to one CPU (``pinned_cpu``)."""
    versions = package_versions(packages)
    facts: dict[str, Any] = {"cpu_count": os.cpu_count(), "cpu_model": cpu_model()}
    if pin:
        facts["pinned_cpu"] = pin_to_one_cpu()
    return facts | {
        "engine": engine_build(),
        "load_average_at_start": os.getloadavg()[0],
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "versions": versions,
    }


def engine_build() -> str:
    """Whether the reference engine and the PHH replay run compiled
    (simulations/engine/compiled.py)."""
    from simulations.engine import compiled

    for name in compiled.COMPILED:
        importlib.import_module(name)
    done = compiled.compiled_modules()
    if not done:
        return "plain Python (not compiled: `make compile`)"
    return f"compiled with mypyc ({len(done)} of {len(compiled.COMPILED)} modules)"


def parse_args(argv: Sequence[str] | None, description: str, hands_help: str) -> argparse.Namespace:
    """``--hands N``, ``--quick`` and ``--json PATH``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--hands", type=int, help=hands_help)
    parser.add_argument("--quick", action="store_true", help="small sizes for a smoke run")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the numbers here")
    args = parser.parse_args(argv)
    if args.hands is not None and args.hands < 1:
        parser.error("--hands must be positive")
    return args


def chosen_config(args: argparse.Namespace, default: T, quick: T) -> T:
    """``quick`` under ``--quick``, else ``default``; with ``--hands N``, its ``hands``."""
    config = quick if args.quick else default
    if args.hands is not None:
        config = replace(config, hands=args.hands)  # type: ignore[type-var]
    return config


def write_json(path: Path, payload: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2) + "\n")


def rate(per_s: float) -> str:
    """A rate (or a count) as the reports write it: 1.21 M, 73.9 k, 2,603."""
    if per_s >= 1e6:
        return f"{per_s / 1e6:,.2f} M"
    if per_s >= 1e4:
        return f"{per_s / 1e3:,.1f} k"
    return f"{per_s:,.0f}"


RULES = {"l": "---", "r": "---:", "c": ":---:"}


def markdown_table(
    header: Sequence[str], aligns: str, rows: Iterable[Sequence[object]], *, spaced: bool = True
) -> list[str]:
    """A Markdown table's lines: ``aligns`` has a letter a column, ``l``, ``r`` or ``c``; the
    rule under the header is written ``| --- | ---: |``, or ``|---|---:|`` unless ``spaced``."""

    def row(cells: Sequence[object]) -> str:
        return "| " + " | ".join(str(cell) for cell in cells) + " |"

    rules = [RULES[align] for align in aligns]
    rule = row(rules) if spaced else "|" + "|".join(rules) + "|"
    return [row(header), rule, *(row(cells) for cells in rows)]


def machine_lines(machine: Mapping[str, Any], versions: Iterable[str]) -> list[str]:
    """The report's "Machine" section: the CPUs and the load around the run, Python and the
    packages that matter, as Markdown lines."""
    v = machine["versions"]
    pinned = (
        f"pinned to CPU {machine['pinned_cpu']}"
        if machine["pinned_cpu"] is not None
        else "not pinned"
    )
    return [
        "## Machine",
        "",
        f"- CPUs: {machine['cpu_count']} ({machine['cpu_model']}), this process {pinned}; "
        f"1-minute load average {machine['load_average_at_start']:.2f} at start, "
        f"{machine['load_average_at_end']:.2f} at end",
        f"- Python: {machine['python']} on {machine['platform']}; the engine "
        f"{machine.get('engine', 'plain Python')}",
        "- " + ", ".join(f"{name} {v[name]}" for name in versions),
        "",
    ]
