"""The compiled reading of PHH files (simulations.phh.scan, count, quick) against the Python
reader and the reference engine: every file it settles must be reported exactly as the
reference engine reports it, and a file outside the plain form it reads, or a hand the
reference engine would not pass, must not be settled by it.

The oracle is ``replay_files`` with ``Engine.REFERENCE`` (the Python reader, then the
reference engine for every hand); the corpus is ``../shared/phh`` or ``$CARDROOM_PHH``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from simulations.phh.batch import replay_files
from simulations.phh.options import Engine, ReplayOptions
from simulations.phh.quick import replay_quick
from simulations.verify.results import FileReport, Outcome, ScenarioResult

REPOSITORY = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CARDROOM_PHH") or REPOSITORY.parent / "shared" / "phh")

HAND = """variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 6s8h', 'd dh p2 Ah8s', 'd dh p3 4h3d', 'p3 f', 'p1 cc', 'p2 cc', \
'd db JcQh3s', 'p1 cc', 'p2 cbr 300', 'p1 cc', 'd db 2d', 'p1 cc', 'p2 cc', 'd db Qs', \
'p1 cc', 'p2 cc', 'p1 sm 6s8h', 'p2 sm Ah8s']
hand = 7
players = ['Ann', 'Bob', 'Cy']
finishing_stacks = [9600, 10400, 10000]
"""


def _summary(reports: list[FileReport]) -> list[tuple[object, ...]]:
    return [
        (report.path, report.error, *(_result(r) for r in report.results)) for report in reports
    ]


def _result(r: ScenarioResult) -> tuple[object, ...]:
    return (r.name, r.outcome, r.notes, repr(r.differences), r.message)


def _files(folder: Path, text: str) -> list[Path]:
    """Three files of the same hand: the kernel takes a game's hands three at a time at
    least (a game laid out for fewer costs more than the reference engine)."""
    paths = [folder / f"{name}.phh" for name in "abc"]
    for path in paths:
        path.write_text(text)
    return paths


def _corpus() -> Path:
    if not (CORPUS / "pluribus").is_dir() or not (CORPUS / "generated").is_dir():
        missing = f"the PHH corpus is missing: expected {CORPUS}/generated and {CORPUS}/pluribus"
        if os.environ.get("CARDROOM_REQUIRE_PHH"):
            pytest.fail(missing)
        pytest.skip(missing)
    return CORPUS


def _both(paths: list[Path]) -> tuple[list[FileReport], list[FileReport]]:
    reference = replay_files(paths, ReplayOptions(engine=Engine.REFERENCE))
    return reference, replay_files(paths, ReplayOptions(engine=Engine.AUTO))


def _settled(paths: list[Path]) -> int:
    found = replay_quick(paths, ReplayOptions())
    return sum(1 for file in found.values() for r in file.results if r is not None)


def test_plain_hand_is_settled_and_reported_as_the_reference(tmp_path: Path) -> None:
    """A plain hold'em hand is read and replayed by the kernel, and reported as passed with
    the reference engine's report."""
    paths = _files(tmp_path, HAND)
    assert _settled(paths) == 3
    reference, auto = _both(paths)
    assert reference[0].results[0].outcome is Outcome.PASSED
    assert _summary(reference) == _summary(auto)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("[9600, 10400, 10000]", "[9500, 10500, 10000]"),  # other finishing stacks
        ("'d dh p3 4h3d'", "'d dh p3 4h8h'"),  # a card dealt twice
        ("'p2 sm Ah8s'", "'p2 sm Ah3d'"),  # a card shown that is not his
        ("'p3 f'", "'p4 f'"),  # no p4 at a table of three
        ("'p2 cbr 300'", "'p2 cbr 300.5'"),  # half a chip
        ("'p2 cbr 300'", "'p2 cbr 50'"),  # a raise below the bet
        ("'d db Qs'", "'d db Qs # river'"),  # a comment in a line
        ("'d db 2d'", "'d db ??'"),  # a hidden card
        ("hand = 7", "hand = 7\nevent = 'x'"),  # a field of the writer's own
        ("hand = 7", "hand = 07"),  # not TOML
        ("antes = [0, 0, 0]", "antes = [0, 0]"),  # too few antes
        ("min_bet = 100\n", ""),  # a stake missing
        ("players = ['Ann', 'Bob', 'Cy']", "players = ['Ann', 'Bob', 3]"),  # a name not text
        ("variant = 'NT'", "variant = 'XX'"),  # no such variant
        ("'p3 f', 'p1 cc'", "'p3 f', 'p3 cc', 'p1 cc'"),  # out of turn
        ("'p1 sm 6s8h', ", ""),  # one player shows, the other wins uncontested
    ],
)
def test_changed_hand_is_reported_as_the_reference(tmp_path: Path, old: str, new: str) -> None:
    """A hand outside the plain form, or one the reference engine does not pass, is reported
    exactly as the reference engine (and the Python reader) report it."""
    assert old in HAND
    paths = _files(tmp_path, HAND.replace(old, new, 1))
    reference, auto = _both(paths)
    assert _summary(reference) == _summary(auto)
    if reference[0].error or reference[0].results[0].outcome is not Outcome.PASSED:
        assert _settled(paths) == 0


def test_several_hands_partly_settled(tmp_path: Path) -> None:
    """A .phhs file of hands the kernel settles and hands it leaves to the reference engine
    gives every hand in its place, as the reference engine reports them."""
    broken = HAND.replace("[9600, 10400, 10000]", "[9500, 10500, 10000]")
    text = "".join(f"[{n}]\n{broken if n in (2, 4) else HAND}\n" for n in range(1, 6))
    path = tmp_path / "some.phhs"
    path.write_text(text)
    assert _settled([path]) == 3
    reference, auto = _both([path])
    outcomes = [r.outcome for r in reference[0].results]
    assert outcomes.count(Outcome.PASSED) == 3
    assert _summary(reference) == _summary(auto)


def test_several_hands_with_a_file_error(tmp_path: Path) -> None:
    """A .phhs file that is not TOML as a whole (a table named twice) is one error, as the
    Python reader reports it, even where the kernel could play its hands."""
    path = tmp_path / "twice.phhs"
    path.write_text(f"[1]\n{HAND}\n[1]\n{HAND}")
    reference, auto = _both([path])
    assert reference[0].error
    assert _summary(reference) == _summary(auto)


def test_pluribus_hands_as_the_reference() -> None:
    """The first 3,000 Pluribus hands: most settled by the kernel, every report as the
    reference engine's."""
    files = sorted((_corpus() / "pluribus").rglob("*.phh"))[:3000]
    reference, auto = _both(files)
    assert len(reference) == 3000
    assert _settled(files) > 2900
    assert _summary(reference) == _summary(auto)


@pytest.mark.parametrize("name", ["NT", "FT"])
def test_generated_hold_em_as_the_reference(name: str) -> None:
    """The generated no-limit and fixed-limit hold'em hands: some settled by the kernel,
    the others in their places, every report as the reference engine's."""
    files = [_corpus() / "generated" / f"{name}.phhs"]
    reference, auto = _both(files)
    assert _settled(files) > 50
    assert _summary(reference) == _summary(auto)
