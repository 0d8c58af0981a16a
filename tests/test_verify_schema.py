"""The scenario format's JSON Schema (draft 2020-12, simulations/verify/scenario.schema.json):
every scenario file of the corpus and the examples validates against it, deliberately broken
files do not, and the runner reports those same files malformed."""

from __future__ import annotations

import datetime
import tomllib
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from simulations.phh.results import Outcome
from simulations.verify.run import verify_text
from simulations.verify.schema import scenario_schema

REPO = Path(__file__).resolve().parent.parent
FOLDERS = (REPO / "tests" / "scenarios", REPO / "examples" / "scenarios")


def as_json(value: Any) -> Any:
    """A TOML document as JSON has it: dates and times as ISO text."""
    if isinstance(value, dict):
        return {key: as_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_json(item) for item in value]
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return value


def scenario_files() -> list[Path]:
    found = []
    for folder in FOLDERS:
        for path in sorted(folder.rglob("*.toml")):
            data = tomllib.loads(path.read_text())
            if "scenario" in data or "defaults" in data:
                found.append(path)
    return found


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = scenario_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_there_are_files_to_validate() -> None:
    """The examples at least: the test below runs over real files."""
    assert any(
        path.parent.name == "scenarios" and "examples" in path.parts for path in scenario_files()
    )


@pytest.mark.parametrize("path", scenario_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_scenario_files_validate(path: Path, validator: Draft202012Validator) -> None:
    document = as_json(tomllib.loads(path.read_text()))
    problems = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]
    assert not problems, problems


GOOD = """
[[scenario]]
name = "good"
game = "NT"
starting_stacks = [100, 100, 100]
seed = 1
actions = ["p3 f", "p1 f"]
[scenario.expect]
stacks = [99, 101, 100]
pots = [{ amount = 3, eligible = ["p2"], winners = "p2" }]
"""

BROKEN = {
    "unknown top-level key": "title = 'x'\n" + GOOD,
    "unknown scenario key": GOOD.replace("seed = 1", "seed = 1\nstack = 3"),
    "unknown expectation": GOOD.replace("stacks = [99, 101, 100]", "stack = [99, 101, 100]"),
    "unknown key of a pot": GOOD.replace("winners = ", "winner = "),
    "a stack of the wrong type": GOOD.replace("[100, 100, 100]", '["100", 100, 100]'),
    "a player that is not pN": GOOD.replace('eligible = ["p2"]', 'eligible = ["two"]'),
    "no name": GOOD.replace('name = "good"\n', ""),
    "a name in the defaults": '[defaults]\nname = "x"\n' + GOOD,
    "a legal check without its point": GOOD + '[[scenario.expect.legal]]\nactor = "p3"\n',
    "an action word that is not one": GOOD
    + '[[scenario.expect.legal]]\nafter = 0\nactions = ["shove"]\n',
    "a refusal without its action": GOOD + "[[scenario.expect.refused]]\nafter = 0\n",
    "a jackpot share over 100": GOOD + "[scenario.jackpot]\nshares = { loser = 150 }\n",
    "an unknown option table": GOOD + "[scenario.options]\nhouses = {}\n",
    "no scenario": '[defaults]\ngame = "NT"\n',
    "a button rule that is not one": GOOD.replace("seed = 1", 'seed = 1\nbutton_rule = "dead"'),
    "a last hand without its big blinds": GOOD.replace(
        "seed = 1",
        'seed = 1\nbutton_rule = "dead-button"\nseat_count = 3\nseats = [1, 2, 3]\n'
        "last_hand = { button = 3 }",
    ),
}


@pytest.mark.parametrize("text", BROKEN.values(), ids=BROKEN.keys())
def test_broken_files_do_not_validate_and_the_runner_agrees(
    text: str, validator: Draft202012Validator
) -> None:
    """The schema refuses the file, and the runner reports it (or a scenario) malformed."""
    assert validator.is_valid(as_json(tomllib.loads(GOOD)))
    assert not validator.is_valid(as_json(tomllib.loads(text)))
    report = verify_text(text, "broken.toml")
    assert report.malformed
    assert report.error or any(r.outcome is Outcome.MALFORMED for r in report.results)


def test_the_schema_ships_with_the_package() -> None:
    """The schema is read as package data (importlib.resources), so an installed cardroom
    carries it: pyproject's [tool.setuptools.package-data] must list it."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    data = project["tool"]["setuptools"]["package-data"]
    assert "*.schema.json" in data.get("simulations.verify", [])
