"""Checking scenario files and hand histories: one result a scenario, one report a file.

A path is a scenario file (``.toml`` with ``[[scenario]]`` or ``[defaults]`` tables), a PHH
file (``.phh``, ``.phhs``: each hand must end at its ``finishing_stacks``, checked by
:func:`simulations.phh.replay.replay_file`) or a folder, searched recursively for both (other
TOML files there, such as the game files scenarios name, are passed over; so is anything
else, a folder's README included).  Nothing stops at a bad scenario or file: each is
reported MALFORMED, naming the file, the scenario and the field, and the others are still
checked.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from simulations.phh.results import Difference, FileReport, Outcome, ScenarioResult
from simulations.verify.check import final_differences
from simulations.verify.fields import ScenarioError
from simulations.verify.files import (
    Entry,
    FileError,
    holds_scenarios,
    load_toml,
    parse_toml,
    read_scenario_file,
)
from simulations.verify.play import deal, play
from simulations.verify.setup import build_scenario, refused_setup_phrase

SCENARIO_SUFFIX = ".toml"
PHH_SUFFIXES = (".phh", ".phhs")


def malformed_message(file: str, name: str, error: ScenarioError) -> str:
    return f'{file}: scenario "{name}": {error}'


def run_entry(base: Path | None, shown: str, entry: Entry) -> ScenarioResult:
    """One scenario read, set up, played and checked."""
    start = time.perf_counter()

    def result(
        outcome: Outcome,
        differences: tuple[Difference, ...] = (),
        notes: tuple[str, ...] = (),
        message: str = "",
    ) -> ScenarioResult:
        seconds = time.perf_counter() - start
        return ScenarioResult(
            shown, entry.name, outcome, seconds, entry.covers, differences, notes, message
        )

    if entry.error is not None or entry.data is None:
        error = entry.error or ScenarioError("", "could not be read")
        return result(Outcome.MALFORMED, message=malformed_message(shown, entry.name, error))
    phrase = refused_setup_phrase(entry.data)
    try:
        scenario = build_scenario(entry.data, shown, entry.name, base)
        if phrase is not None:
            deal(scenario)
            dealt = Difference(
                "expect.refused_setup", f"the setup refused: {phrase!r}", "the hand was dealt"
            )
            return result(Outcome.FAILED, differences=(dealt,))
        played = play(scenario)
    except ScenarioError as error:
        if phrase is not None and _refusal(error):
            if phrase.lower() in str(error).lower():
                return result(Outcome.PASSED, notes=(f"refused: {error}",))
            wrong = Difference("expect.refused_setup", repr(phrase), repr(str(error)))
            return result(Outcome.FAILED, differences=(wrong,))
        return result(Outcome.MALFORMED, message=malformed_message(shown, entry.name, error))
    except Exception as error:  # the engine failed on a hand it accepted: report, go on
        crash = Difference(
            "engine", "the hand plays to its end", f"{type(error).__name__}: {error}"
        )
        return result(Outcome.FAILED, differences=(crash,))
    try:
        differences = [*played.differences, *final_differences(scenario, played.hand)]
    except Exception as error:
        crash = Difference("engine", "the hand settles", f"{type(error).__name__}: {error}")
        differences = [*played.differences, crash]
    outcome = Outcome.FAILED if differences else Outcome.PASSED
    return result(outcome, differences=tuple(differences), notes=tuple(played.notes))


def _refusal(error: ScenarioError) -> bool:
    """Whether ``error`` refuses the house configuration or the hand's setup, as
    ``expect.refused_setup`` may expect, rather than the scenario's own writing (its
    expectations, an unknown key)."""
    return not (
        error.field.startswith("expect")
        or error.unknown_key
        or "expect.refused_setup" in error.problem
    )


def check_scenario_file(
    path: Path, shown: str | None = None, data: Mapping[str, Any] | None = None
) -> FileReport:
    """Every scenario of one file (``shown``: the path as reports print it; ``data``: its
    tables, when already read)."""
    name = shown or str(path)
    try:
        if data is None:
            data = load_toml(path)
    except FileError as error:
        return FileReport(name, error=f"{name}: {error}")
    return check_scenario_data(data, name, path.parent)


def check_scenario_data(data: Mapping[str, Any], name: str, base: Path | None) -> FileReport:
    """Every scenario of a file's tables (``name``: the file as reports print it; ``base``:
    the folder its paths are relative to, None for a file sent as text)."""
    try:
        if not holds_scenarios(data):
            raise FileError("not a scenario file: no [[scenario]] tables")
        entries = read_scenario_file(data, base)
    except FileError as error:
        return FileReport(name, error=f"{name}: {error}")
    return FileReport(name, tuple(run_entry(base, name, entry) for entry in entries))


def verify_text(text: str, source: str, base: Path | None = None) -> FileReport:
    """Every scenario of a scenario file's text (``source`` names it in the report; ``base``
    is the folder its paths are relative to: None, and a scenario naming a file is
    malformed, naming the key)."""
    try:
        data = parse_toml(text)
    except FileError as error:
        return FileReport(source, error=f"{source}: {error}")
    return check_scenario_data(data, source, base)


def check_phh_file(path: Path, shown: str | None = None) -> FileReport:
    """A hand history replayed to its final stacks (by the PHH replay)."""
    name = shown or str(path)
    try:
        from simulations.phh.replay import replay_file  # type: ignore[import-not-found,unused-ignore]
    except ImportError as error:
        return FileReport(name, error=f"{name}: the PHH replay is not available ({error})")
    try:
        report: FileReport = replay_file(path)
    except Exception as error:  # the replay failed on this file: report it, check the others
        return FileReport(
            name, error=f"{name}: the PHH replay failed: {type(error).__name__}: {error}"
        )
    return report


def found_files(paths: Iterable[Path]) -> list[tuple[Path, bool]]:
    """The files to check under ``paths`` as (path, named): ``named`` when the path itself
    was given, so that a TOML file without scenarios is reported rather than passed over."""
    files: list[tuple[Path, bool]] = []
    for path in paths:
        if path.is_dir():
            for found in sorted(path.rglob("*")):
                if found.is_file() and found.suffix in (SCENARIO_SUFFIX, *PHH_SUFFIXES):
                    files.append((found, False))
        else:
            files.append((path, True))
    return files


def verify_paths(
    paths: Iterable[str | Path], on_report: Callable[[FileReport], None] | None = None
) -> list[FileReport]:
    """Check every scenario and PHH file under ``paths``, in order; ``on_report`` hears of
    each file as it is done."""
    reports: list[FileReport] = []

    def done(report: FileReport) -> None:
        reports.append(report)
        if on_report is not None:
            on_report(report)

    for given in paths:
        root = Path(given)
        if not root.exists():
            done(FileReport(str(given), error=f"{given}: no such file or folder"))
            continue
        files = found_files([root])
        checked = 0
        for path, named in files:
            if path.suffix in PHH_SUFFIXES:
                done(check_phh_file(path, str(path)))
                checked += 1
                continue
            if path.suffix != SCENARIO_SUFFIX and named:
                done(FileReport(str(path), error=f"{path}: not a scenario (.toml) or PHH file"))
                continue
            data = None
            if not named:
                with contextlib.suppress(FileError):  # reported as the file it may be meant as
                    data = load_toml(path)
                if data is not None and not holds_scenarios(data):
                    continue  # a game file or other TOML beside the scenarios
            done(check_scenario_file(path, str(path), data))
            checked += 1
        if root.is_dir() and not checked:
            done(FileReport(str(given), error=f"{given}: no scenario or PHH files in this folder"))
    return reports
