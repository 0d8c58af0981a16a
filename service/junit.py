"""The JUnit XML report of ``cardroom verify``, as CI servers read it (Jenkins' junit-10.xsd).

One ``<testsuite>`` a file, one ``<testcase>`` a scenario: its ``classname`` is the file's
path as dotted words (``tests.scenarios.odd_chips``), so CI pages group the scenarios by
file, and its ``name`` the scenario's.  A failed scenario holds one ``<failure>`` listing
every expectation that did not hold; a malformed one one ``<error>``; a file that could not
be read is a test case of its own holding an ``<error>``.  Times are seconds as plain
decimals with three places.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from simulations.phh.results import FileReport, Outcome, ScenarioResult

# Characters XML 1.0 cannot carry, even escaped: dropped from any text written.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_UNREADABLE = "(file)"


def seconds(value: float) -> str:
    """A time as JUnit readers parse it: a plain decimal, three places, never exponential."""
    return f"{max(value, 0.0):.3f}"


def classname(path: str) -> str:
    """The file's path as dotted words, without its suffix: ``tests.scenarios.odd_chips``."""
    stem = str(Path(path).with_suffix("")) if Path(path).suffix else path
    words = [w for w in re.split(r"[\\/]+", stem) if w and w not in (".", "..")]
    return ".".join(re.sub(r"[^A-Za-z0-9_-]+", "_", w) for w in words) or "scenarios"


def _text(value: str) -> str:
    return _NOT_XML.sub("", value)


def _case(suite: ET.Element, result: ScenarioResult, group: str) -> None:
    case = ET.SubElement(
        suite,
        "testcase",
        {
            "classname": group,
            "name": _text(result.name),
            "time": seconds(result.seconds),
            "file": _text(result.file),
        },
    )
    if result.outcome is Outcome.FAILED:
        count = len(result.differences)
        failure = ET.SubElement(
            case,
            "failure",
            {
                "type": "expectation",
                "message": _text(
                    f"{count} expectation{'s' * (count != 1)} did not hold: "
                    + ", ".join(d.field for d in result.differences)
                ),
            },
        )
        failure.text = _text(
            "\n".join(
                f"{d.field}:\n    expected {d.expected}\n    actual   {d.actual}"
                for d in result.differences
            )
        )
    elif result.outcome is Outcome.MALFORMED:
        error = ET.SubElement(
            case, "error", {"type": "malformed", "message": _text(result.message)}
        )
        error.text = _text(result.message)
    if result.notes:
        out = ET.SubElement(case, "system-out")
        out.text = _text("\n".join(result.notes))


def junit_tree(reports: Sequence[FileReport]) -> ET.ElementTree[ET.Element]:
    """The report as an XML tree."""
    root = ET.Element("testsuites", {"name": "cardroom verify"})
    total = failures = errors = 0
    elapsed = 0.0
    for report in reports:
        group = classname(report.path)
        results = list(report.results)
        suite_failures = sum(r.outcome is Outcome.FAILED for r in results)
        suite_errors = sum(r.outcome is Outcome.MALFORMED for r in results) + bool(report.error)
        tests = len(results) + bool(report.error)
        suite_time = sum(r.seconds for r in results)
        suite = ET.SubElement(
            root,
            "testsuite",
            {
                "name": _text(report.path),
                "tests": str(tests),
                "failures": str(suite_failures),
                "errors": str(suite_errors),
                "skipped": "0",
                "time": seconds(suite_time),
                "file": _text(report.path),
            },
        )
        if report.error:
            case = ET.SubElement(
                suite,
                "testcase",
                {"classname": group, "name": _UNREADABLE, "time": seconds(0.0)},
            )
            error = ET.SubElement(
                case, "error", {"type": "malformed", "message": _text(report.error)}
            )
            error.text = _text(report.error)
        for result in results:
            _case(suite, result, group)
        total += tests
        failures += suite_failures
        errors += suite_errors
        elapsed += suite_time
    root.set("tests", str(total))
    root.set("failures", str(failures))
    root.set("errors", str(errors))
    root.set("time", seconds(elapsed))
    return ET.ElementTree(root)


def write_junit(reports: Sequence[FileReport], path: Path) -> None:
    """Write the JUnit report of ``reports`` to ``path`` (UTF-8, with its declaration)."""
    tree = junit_tree(reports)
    ET.indent(tree)
    path.parent.mkdir(parents=True, exist_ok=True)
    tree.write(path, encoding="utf-8", xml_declaration=True)
