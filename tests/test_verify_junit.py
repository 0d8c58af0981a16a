"""The JUnit report of `cardroom verify` validates against Jenkins' junit-10.xsd (vendored in
tests/schemas from the jenkinsci/xunit-plugin repository): one testsuite a file, one
testcase a scenario, exactly one <failure> for a failed scenario and one <error> for a
malformed one, times as plain decimals of at most three places."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import xmlschema

from service.cli import main
from service.junit import classname, junit_tree, seconds, write_junit
from simulations.phh.results import Difference, FileReport, Outcome, ScenarioResult

XSD = Path(__file__).resolve().parent / "schemas" / "junit-10.xsd"
TIME = re.compile(r"\d+(\.\d{1,3})?")

SCENARIOS = """
[defaults]
game = "NT"
starting_stacks = [100, 100, 100]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
seed = 1
actions = ["p3 f", "p1 f"]

[[scenario]]
name = "passes"
[scenario.expect]
stacks = [99, 101, 100]

[[scenario]]
name = "fails <twice> & \\"quoted\\""
[scenario.expect]
stacks = [100, 100, 100]
rake = 1

[[scenario]]
name = "malformed"
deck = "AsXx"
seed = 1
"""


@pytest.fixture(scope="module")
def schema() -> xmlschema.XMLSchema:
    return xmlschema.XMLSchema(str(XSD))


def test_the_vendored_schema_names_its_source() -> None:
    head = XSD.read_text()[:600]
    assert "jenkinsci/xunit-plugin" in head
    assert re.search(r"commit\s+[0-9a-f]{40}", head)


def test_a_run_with_every_outcome_validates(
    tmp_path: Path, schema: xmlschema.XMLSchema, capsys: pytest.CaptureFixture[str]
) -> None:
    """Passing, failing and malformed scenarios and an unreadable file, through the CLI."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.toml").write_text(SCENARIOS)
    (tmp_path / "rules" / "broken.toml").write_text("[[scenario]\n")
    report = tmp_path / "junit.xml"
    assert main(["verify", str(tmp_path / "rules"), "--junit", str(report)]) == 2
    capsys.readouterr()
    schema.validate(str(report))
    root = ET.parse(report).getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("4", "1", "2")
    broken, house = root.findall("testsuite")
    assert broken.get("name") == str(tmp_path / "rules" / "broken.toml")
    (unreadable,) = broken.findall("testcase")
    assert [child.tag for child in unreadable] == ["error"]
    error = unreadable.find("error")
    assert error is not None and "not valid TOML" in (error.get("message") or "")
    cases = house.findall("testcase")
    assert [case.get("name") for case in cases] == [
        "passes",
        'fails <twice> & "quoted"',
        "malformed",
    ]
    assert (house.get("tests"), house.get("failures"), house.get("errors")) == ("3", "1", "1")
    passed, failed, malformed = cases
    assert [child.tag for child in passed] == []
    assert [child.tag for child in failed] == ["failure"]
    assert [child.tag for child in malformed] == ["error"]
    failure = failed.find("failure")
    assert failure is not None
    assert failure.get("message") == "2 expectations did not hold: expect.stacks, expect.rake"
    assert "expected [100, 100, 100]" in (failure.text or "")
    assert "actual   0" in (failure.text or "")
    error = malformed.find("error")
    assert error is not None and ": deck: " in (error.get("message") or "")
    for case in root.iter("testcase"):
        assert case.get("classname", "").endswith("rules.house") or case.get("name") == "(file)"
    for element in [root, *root.iter("testsuite"), *root.iter("testcase")]:
        assert TIME.fullmatch(element.get("time", "")), element.get("time")


def test_times_are_plain_decimals_even_when_tiny_or_huge(
    tmp_path: Path, schema: xmlschema.XMLSchema
) -> None:
    """A time of 1e-7 seconds is '0.000', never '1e-07'; a long one keeps three places."""
    assert seconds(1e-7) == "0.000"
    assert seconds(123456.78951) == "123456.790"
    results = (
        ScenarioResult("a.toml", "tiny", Outcome.PASSED, 1e-7),
        ScenarioResult(
            "a.toml",
            "slow",
            Outcome.FAILED,
            12345.6789,
            differences=(Difference("expect.rake", "1", "0"),),
        ),
    )
    path = tmp_path / "j.xml"
    write_junit([FileReport("a.toml", results)], path)
    schema.validate(str(path))
    times = [case.get("time") for case in ET.parse(path).getroot().iter("testcase")]
    assert times == ["0.000", "12345.679"]


def test_text_xml_cannot_carry_is_dropped(schema: xmlschema.XMLSchema, tmp_path: Path) -> None:
    """A control character in a name or message would make the file unreadable."""
    result = ScenarioResult("a.toml", "bell\x07", Outcome.MALFORMED, 0.0, message="bad\x00")
    path = tmp_path / "j.xml"
    write_junit([FileReport("a.toml", (result,))], path)
    schema.validate(str(path))
    case = next(ET.parse(path).getroot().iter("testcase"))
    assert case.get("name") == "bell"


def test_classnames_are_the_files_path_as_dotted_words() -> None:
    assert (
        classname("tests/scenarios/betting-incomplete.toml") == "tests.scenarios.betting-incomplete"
    )
    assert classname("./house rules/odd.chips.toml") == "house_rules.odd_chips"
    assert classname("/abs/hand.phhs") == "abs.hand"


def test_an_empty_run_is_a_valid_report(schema: xmlschema.XMLSchema) -> None:
    tree = junit_tree([])
    schema.validate(ET.tostring(tree.getroot(), encoding="unicode"))
