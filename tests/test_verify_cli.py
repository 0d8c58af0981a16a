"""`cardroom verify`: one line a scenario, expected against actual under a failure, the
summary, the exit status (0 passed, 1 failed, 2 malformed), --json and --junit, and PHH
files checked through the PHH replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import main

PASSING = """
[[scenario]]
name = "p2 wins the blinds"
covers = ["002_376df91f076a6501.txt: Procedure"]
game = "NT"
starting_stacks = [100, 100, 100]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
seed = 1
actions = ["p3 f", "p1 f"]
[scenario.expect]
stacks = [99, 101, 100]
"""
FAILING = PASSING.replace("p2 wins the blinds", "wrong stacks").replace(
    "[99, 101, 100]", "[100, 100, 100]"
)
MALFORMED = PASSING.replace("p2 wins the blinds", "bad deck").replace("seed = 1", 'deck = "AsXx"')
# One hand of PHH: p3 and p1 fold to the big blind, who gets his 2 back and wins the 1.
PHH = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 QdQc', 'd dh p3 7h7d', 'p3 f', 'p1 f']
finishing_stacks = [99, 101, 100]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def test_every_scenario_passing_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One PASS line a scenario and the summary."""
    path = write(tmp_path, "a.toml", PASSING)
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"PASS {path}: p2 wins the blinds",
        "1 scenario: 1 passed, 0 failed, 0 malformed (1 file)",
    ]


def test_a_failed_expectation_exits_1_showing_expected_and_actual(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "a.toml", PASSING + FAILING)
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"PASS {path}: p2 wins the blinds",
        f"FAIL {path}: wrong stacks",
        "    expect.stacks:",
        "        expected [100, 100, 100]",
        "        actual   [99, 101, 100] (p1, p2 differ)",
        "2 scenarios: 1 passed, 1 failed, 0 malformed (1 file)",
    ]


def test_a_malformed_scenario_exits_2_and_outranks_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The malformed scenario's line is followed by its message naming the file, the
    scenario and the field; the other file is still checked."""
    bad = write(tmp_path, "a.toml", MALFORMED)
    failing = write(tmp_path, "b.toml", FAILING)
    assert main(["verify", str(tmp_path)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"MALFORMED {bad}: bad deck"
    assert out[1].startswith(f'    {bad}: scenario "bad deck": deck: ')
    assert out[2] == f"FAIL {failing}: wrong stacks"
    assert out[-1] == "2 scenarios: 0 passed, 1 failed, 1 malformed (2 files)"


def test_an_unreadable_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "a.toml", "[[scenario]\n")
    assert main(["verify", str(path)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"MALFORMED {path}"
    assert "not valid TOML" in out[1]
    assert out[-1] == "0 scenarios: 0 passed, 0 failed, 0 malformed (1 file, 1 unreadable)"


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints one document and nothing else: every result with its outcome and
    differences, and the counts with the exit status."""
    path = write(tmp_path, "a.toml", PASSING + FAILING + MALFORMED)
    assert main(["verify", "--json", str(path)]) == 2
    document = json.loads(capsys.readouterr().out)
    (file,) = document["files"]
    assert file["path"] == str(path) and file["error"] == ""
    passed, failed, malformed = file["results"]
    assert passed["outcome"] == "passed" and passed["differences"] == []
    assert passed["covers"] == ["002_376df91f076a6501.txt: Procedure"]
    assert failed["outcome"] == "failed"
    assert failed["differences"] == [
        {
            "field": "expect.stacks",
            "expected": "[100, 100, 100]",
            "actual": "[99, 101, 100] (p1, p2 differ)",
        }
    ]
    assert malformed["outcome"] == "malformed" and ": deck: " in malformed["message"]
    assert all(isinstance(r["seconds"], float) and r["seconds"] >= 0 for r in file["results"])
    assert document["summary"] == {
        "scenarios": 3,
        "passed": 1,
        "failed": 1,
        "malformed": 1,
        "files": 1,
        "malformed_files": 0,
        "exit_code": 2,
    }


def test_junit_file_is_written_beside_the_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "a.toml", PASSING)
    report = tmp_path / "out" / "junit.xml"
    assert main(["verify", str(path), "--junit", str(report)]) == 0
    assert capsys.readouterr().out.startswith("PASS ")
    text = report.read_text()
    assert text.startswith("<?xml")
    assert 'name="p2 wins the blinds"' in text


def test_phh_files_under_a_path_are_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A .phh file in the folder is checked by the PHH replay to its finishing_stacks; a
    README and a game file beside it are passed over."""
    write(tmp_path, "hand.phh", PHH)
    write(tmp_path, "README.md", "# hands\n")
    write(tmp_path, "game.toml", 'code = "X"\n')
    assert main(["verify", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and out[0].startswith("PASS ") and "hand.phh" in out[0]
    write(tmp_path, "hand.phh", PHH.replace("[99, 101, 100]", "[100, 100, 100]"))
    assert main(["verify", str(tmp_path)]) == 1
    assert capsys.readouterr().out.startswith("FAIL ")
