"""Every hand of the PHH corpus through ``cardroom replay``: the 10,000 Pluribus hands and
the 1,560 generated hands (``../shared/phh``, or ``$CARDROOM_PHH``; see its README).

The finishing stacks come from the files (recorded by other engines).  Every Pluribus hand
must replay to them; a generated hand may fail only for a reason the corpus documents: a
convention flag of its manifest (a forced bet all in, a short ante, ante trimming, a draw
that reshuffled the discards) or a card the generator's dealer dealt again after it had
left play (mucked stud cards re-dealt when the deck ran out), which no single deck order
can give.  The compiled kernel's path must report every hand as the reference engine does.

The corpus is part of the development environment: the tests skip, naming the path, when
it is missing, and fail instead when CARDROOM_REQUIRE_PHH is set.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

import pytest

from service.cli import main
from simulations.phh.batch import find_files, replay_files
from simulations.phh.fast import replay_covered
from simulations.phh.options import Engine, ReplayOptions
from simulations.phh.read import read_file

REPOSITORY = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CARDROOM_PHH") or REPOSITORY.parent / "shared" / "phh")
REDEALT = "after it left play"  # the replay's reason for a card dealt a second time


@pytest.fixture(scope="module")
def corpus() -> Path:
    if not (CORPUS / "generated").is_dir() or not (CORPUS / "pluribus").is_dir():
        missing = f"the PHH corpus is missing: expected {CORPUS}/generated and {CORPUS}/pluribus"
        if os.environ.get("CARDROOM_REQUIRE_PHH"):
            pytest.fail(missing)
        pytest.skip(missing)
    return CORPUS


def replay_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["replay", *args, "--json"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return code, report


def hands(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [hand for file in report["files"] for hand in file["hands"]]


def test_every_pluribus_hand_replays(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """All 10,000 hands end at their finishing stacks; exactly the hands whose stacks hold a
    half chip (read here with tomllib) were split exactly, each with the note."""
    code, report = replay_json(capsys, str(corpus / "pluribus"))
    assert report["summary"]["hands"] == 10_000
    assert report["summary"]["replayed"] == 10_000, report["summary"]
    assert code == 0
    halves = set()
    for path in (corpus / "pluribus").rglob("*.phh"):
        stacks = tomllib.loads(path.read_text())["finishing_stacks"]
        if any(not float(s).is_integer() for s in stacks):
            halves.add(str(path))
    noted = {h["file"] for h in hands(report) if any("split exactly" in n for n in h["notes"])}
    assert halves and noted == halves


def test_the_texts_odd_chip_rule_on_the_half_chip_hands(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under the texts' rule (the odd chip to the first winner left of the button) the
    Pluribus hands recording half chips differ, by odd chips only, and say so: exit 1."""
    files = [
        str(path)
        for path in sorted((corpus / "pluribus").rglob("*.phh"))
        if ".5" in path.read_text().rsplit("finishing_stacks", 1)[-1]
    ]
    assert files
    code, report = replay_json(capsys, *files, "--odd-chips", "first-left-of-button")
    assert code == 1
    assert report["summary"]["differing"] == len(files)
    for hand in hands(report):
        assert hand["outcome"] == "failed"
        assert any("differ only by odd chips" in note for note in hand["notes"]), hand


def manifest(corpus: Path) -> dict[str, list[str]]:
    data = json.loads((corpus / "generated" / "manifest.json").read_text())
    return {f"{h['file']}#{h['section']}": h["convention_flags"] for h in data["hands"]}


def test_every_generated_hand_replays_or_is_explained(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The 1,560 generated hands: each replays to its finishing stacks, or the manifest
    flags it, or the replay names a card dealt again after it left play."""
    code, report = replay_json(capsys, str(corpus / "generated"))
    flags = manifest(corpus)
    assert report["summary"]["hands"] == 1_560 == len(flags)
    unexplained = []
    for hand in hands(report):
        if hand["outcome"] == "passed":
            continue
        if flags[hand["name"]] or REDEALT in hand["message"]:
            continue
        unexplained.append((hand["name"], hand["message"], hand["differences"]))
    assert not unexplained
    assert report["summary"]["replayed"] >= 1_535, report["summary"]
    assert code == 2  # the hands no deck order can deal are reported as unreadable


def test_the_kernel_path_reports_as_the_reference_engine(corpus: Path) -> None:
    """The generated hands and 2,000 Pluribus hands replayed twice, with the compiled kernel
    for the hands it covers and with the reference engine alone: the same outcome, notes,
    differences and messages for every hand."""
    files, missing = find_files(
        [corpus / "generated", *sorted((corpus / "pluribus").rglob("*.phh"))[:2_000]]
    )
    assert not missing
    fast = replay_files(files, ReplayOptions(engine=Engine.AUTO))
    reference = replay_files(files, ReplayOptions(engine=Engine.REFERENCE))
    compared = 0
    for ours, theirs in zip(fast, reference, strict=True):
        assert (ours.path, ours.error) == (theirs.path, theirs.error)
        for a, b in zip(ours.results, theirs.results, strict=True):
            assert (a.name, a.outcome, a.notes, a.differences, a.message) == (
                b.name,
                b.outcome,
                b.notes,
                b.differences,
                b.message,
            )
            compared += 1
    assert compared == 1_560 + 2_000
    # ... and the kernel did play most of them: the comparison is not of one engine twice.
    covered = replay_covered([read_file(path) for path in files], ReplayOptions())
    assert len(covered) > 2_500
