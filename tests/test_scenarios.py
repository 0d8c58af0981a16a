"""The scenario corpus (tests/scenarios): every scenario passes, one test each
(``test_scenario[FILE::NAME]``, so that a mutation run or ``-k`` can run one alone); the
folder verifies through ``cardroom verify`` with a valid JUnit report; every scenario names
the rule paragraphs it checks, each found in its rules text; and the folder's README carries
the current coverage table."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import xmlschema

from service.cli import main
from simulations.phh.results import Outcome, ScenarioResult
from simulations.verify.coverage import (
    RULES_FILES,
    coverage_table,
    folder_scenarios,
    split_cover,
    table_in,
)
from simulations.verify.files import (
    Entry,
    FileError,
    holds_scenarios,
    load_toml,
    read_scenario_file,
)
from simulations.verify.run import run_entry

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "scenarios"
XSD = REPO / "tests" / "schemas" / "junit-10.xsd"
# The rule texts, beside the repository (or where CARDROOM_RULES points).
RULES = Path(os.environ.get("CARDROOM_RULES") or REPO.parent / "shared" / "rules")


def corpus() -> list[tuple[str, Path, Entry | str]]:
    """(``file::name``, the file, its scenario's entry — or why the file cannot be read)."""
    cases: list[tuple[str, Path, Entry | str]] = []
    for path in sorted(CORPUS.rglob("*.toml")):
        shown = path.relative_to(CORPUS).as_posix()
        try:
            data = load_toml(path)
            if not holds_scenarios(data):
                continue
            entries = read_scenario_file(data, path.parent)
        except FileError as error:
            cases.append((f"{shown}::(file)", path, str(error)))
            continue
        cases.extend((f"{shown}::{entry.name}", path, entry) for entry in entries)
    return cases


CASES = corpus()


def explain(result: ScenarioResult) -> str:
    if result.outcome is Outcome.MALFORMED:
        return result.message
    return "\n".join(
        f"{d.field}: expected {d.expected}, actual {d.actual}" for d in result.differences
    )


@pytest.mark.parametrize(("case", "path", "entry"), CASES, ids=[case for case, _, _ in CASES])
def test_scenario(case: str, path: Path, entry: Entry | str) -> None:
    """One scenario of the corpus, set up, played and checked against its expectations."""
    assert not isinstance(entry, str), f"{case}: {entry}"
    result = run_entry(path.parent, str(path.relative_to(REPO)), entry)
    assert result.outcome is Outcome.PASSED, f"{case}\n{explain(result)}"


def test_the_corpus_verifies_with_a_valid_junit_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`cardroom verify tests/scenarios --junit FILE` exits 0, and its report validates
    against junit-10.xsd with one test case a scenario."""
    report = tmp_path / "junit.xml"
    code = main(["verify", str(CORPUS), "--junit", str(report)])
    out = capsys.readouterr().out
    assert code == 0, out[-4000:]
    xmlschema.XMLSchema(str(XSD)).validate(str(report))
    cases = re.findall(r"<testcase ", report.read_text())
    assert len(cases) == len(CASES) > 0


@pytest.mark.parametrize(("case", "path", "entry"), CASES, ids=[case for case, _, _ in CASES])
def test_every_scenario_covers_a_rule_paragraph(case: str, path: Path, entry: Entry | str) -> None:
    """`covers` names at least one paragraph as "<rules file>: <phrase>", the file one of
    000_1a86611de8d3f5f7.txt ... 004_53770b236994c31b.txt."""
    assert not isinstance(entry, str), f"{case}: {entry}"
    named = [split_cover(cover) for cover in entry.covers]
    assert any(named), f"{case}: covers {list(entry.covers)} names none of {RULES_FILES}"


def _plain(text: str) -> str:
    """Text compared as a reader would: typographic quotes and dashes as plain ones, runs of
    white space as one space, any case."""
    for fancy, plain in (("\u2018", "'"), ("\u2019", "'"), ("\u201c", '"'), ("\u201d", '"')):
        text = text.replace(fancy, plain)
    text = text.replace("\u2013", "-").replace("\u2014", "-")
    return " ".join(text.split()).lower()


def test_every_phrase_covered_is_in_its_rules_text() -> None:
    """Each covered phrase is found in the rules file it names (the texts are read-only,
    beside the repository; skipped where they are not, and failed instead when
    CARDROOM_REQUIRE_RULES is set, as CI sets it)."""
    if not all((RULES / name).is_file() for name in RULES_FILES):
        where = f"the rule texts are not at {RULES} (set CARDROOM_RULES)"
        if os.environ.get("CARDROOM_REQUIRE_RULES"):
            pytest.fail(where)
        pytest.skip(where)
    texts = {name: _plain((RULES / name).read_text(encoding="utf-8")) for name in RULES_FILES}
    checked, missing = 0, []
    for scenario in folder_scenarios(CORPUS):
        for cover in scenario.covers:
            parts = split_cover(cover)
            if parts is None:
                continue
            checked += 1
            if _plain(parts[1]) not in texts[parts[0]]:
                missing.append(f"{scenario.file}: {scenario.name}: {cover}")
    assert checked > 0
    assert not missing, "\n".join(missing)


def test_the_readme_carries_the_current_coverage_table() -> None:
    """tests/scenarios/README.md holds, between its two marker comments, exactly the table
    coverage_table() makes of the corpus (python -m simulations.verify.coverage
    tests/scenarios --write brings it up to date)."""
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    table = coverage_table(folder_scenarios(CORPUS))
    assert table.count("\n") > 2  # rows, not just the header
    assert table_in(readme) == table
