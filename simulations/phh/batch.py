"""Replaying many PHH files: the files a command names (folders searched for ``.phh`` and
``.phhs`` files), read and replayed hand by hand, one report per file.

With :attr:`~simulations.phh.options.Engine.AUTO` the hands the compiled replay kernel
covers go through it in batches (:mod:`simulations.phh.fast`); the reference engine
replays every other hand, and again every hand the kernel does not end at the history's
finishing stacks, so that what is reported for a hand that does not match is always the
reference engine's.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from simulations.phh.fast import KernelGames
from simulations.phh.lines import LineMemo
from simulations.phh.model import PhhError, PhhHand
from simulations.phh.options import DEFAULT_OPTIONS, Engine, ReplayOptions
from simulations.phh.quick import QuickFile
from simulations.phh.read import SEVERAL, SINGLE, ReadFile, read_file, read_text
from simulations.phh.replay import Games, malformed, replay_hand
from simulations.phh.results import FileReport, Outcome, ScenarioResult

SUFFIXES = (SINGLE, SEVERAL)


def find_files(paths: Iterable[str | Path]) -> tuple[list[Path], list[FileReport]]:
    """The PHH files of ``paths`` (a folder's ``.phh`` and ``.phhs`` files, searched
    recursively, in order of their paths), and a report for each path that names none."""
    found: list[Path] = []
    missing: list[FileReport] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file())
            if not inside:
                missing.append(FileReport(str(path), error=f"{path}: no .phh or .phhs file in it"))
            found.extend(inside)
        elif path.is_file():
            if path.suffix not in SUFFIXES:
                error = f"{path}: not a hand history (.phh or .phhs)"
                missing.append(FileReport(str(path), error=error))
            else:
                found.append(path)
        else:
            missing.append(FileReport(str(path), error=f"{path}: no such file or folder"))
    return found, missing


# The cyclic collector's first threshold while a run replays: a run builds every hand's
# result and keeps them (tens of thousands of objects that never form a cycle), and at the
# default threshold of 700 allocations the collector walks the young ones over and over,
# finding no garbage; at this one it still runs, so cycles made by a hand are freed.
RUN_THRESHOLD = 100_000


def replay_files(
    paths: Sequence[str | Path], options: ReplayOptions = DEFAULT_OPTIONS
) -> list[FileReport]:
    """One report per file, its hands in file order (the collector's threshold raised to
    :data:`RUN_THRESHOLD` meanwhile, and set back as it was after)."""
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], RUN_THRESHOLD), *thresholds[1:])
    try:
        return _replay_files(paths, options)
    finally:
        gc.set_threshold(*thresholds)


def _replay_files(paths: Sequence[str | Path], options: ReplayOptions) -> list[FileReport]:
    settled: dict[int, QuickFile | FileReport] = {}
    kernel_games: KernelGames | None = None
    games: Games = {}
    if options.engine is Engine.AUTO:
        from simulations.phh.quick import replay_quick

        kernel_games = KernelGames(options)
        settled = replay_quick(paths, options, kernel_games)
    memo: LineMemo = {}
    reads = []
    nothing = ReadFile("")  # in the place of a file the kernel settled whole
    for number, path in enumerate(paths):
        quick = settled.get(number)
        if isinstance(quick, FileReport):
            reads.append(nothing)
            continue
        read, kept = _read_rest(path, quick, memo)
        reads.append(read)
        if kept is None:
            settled.pop(number, None)
    done: dict[tuple[int, int], ScenarioResult] = {}
    if kernel_games is not None:
        from simulations.phh.fast import replay_covered

        done = replay_covered(reads, options, kernel_games)
    reports = []
    for number, read in enumerate(reads):
        quick = settled.get(number)
        if isinstance(quick, FileReport):
            reports.append(quick)
            continue
        if read.error is not None:
            reports.append(FileReport(read.path, error=str(read.error)))
            continue
        results = []
        for index, entry in enumerate(read.hands):
            result = done.get((number, index))
            if result is None:
                if entry.hand is None:
                    assert entry.error is not None
                    result = malformed(read.path, entry.name, entry.error)
                else:
                    result = guarded(entry.hand, options, games)
            results.append(result)
        if quick is not None:
            # The kernel's results, the others' in their places.
            others = iter(results)
            results = [next(others) if r is None else r for r in quick.results]
        reports.append(FileReport(read.path, tuple(results)))
    return reports


def _read_rest(
    path: str | Path, quick: QuickFile | None, memo: LineMemo
) -> tuple[ReadFile, QuickFile | None]:
    """The hands of a file the kernel did not settle, read by the Python reader (the whole
    file where it settled none, or where the text of the others does not read as that many
    hands), and what the kernel settled, if it is kept."""
    if quick is not None:
        source = str(path)
        missing = sum(1 for result in quick.results if result is None)
        if not missing:
            return ReadFile(source), quick
        read = read_text(quick.rest, source, several=True, memo=memo)
        if read.error is None and len(read.hands) == missing:
            return read, quick
    return read_file(path, memo), None


def guarded(hand: PhhHand, options: ReplayOptions, games: Games) -> ScenarioResult:
    """:func:`replay_hand`, with anything unforeseen reported against the hand rather than
    stopping the other hands and files."""
    started = time.perf_counter()
    try:
        return replay_hand(hand, options, games)
    except Exception as error:  # a command must report every hand, whatever one of them does
        problem = PhhError(
            hand.source, hand.section, "", f"the replay stopped: {type(error).__name__}: {error}"
        )
        return ScenarioResult(
            file=hand.source,
            name=hand.name,
            outcome=Outcome.MALFORMED,
            seconds=time.perf_counter() - started,
            message=str(problem),
        )


def hands_of(reads: Sequence[ReadFile]) -> Iterable[tuple[int, int, PhhHand]]:
    """(file number, hand number, hand) of every hand read."""
    for number, read in enumerate(reads):
        for index, entry in enumerate(read.hands):
            if entry.hand is not None:
                yield number, index, entry.hand
