"""The README's benchmark figures are the committed report's: every table in its benchmark
sections is a block that ``bench/report.py readme`` writes from ``bench/results/report.json``,
and the block still reads as the report renders it.  Nothing is timed here."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
# bench/ is a folder of scripts that import each other by name (common, report_tables); it
# goes last on the path, so that its names never hide another module's.
sys.path.append(str(REPO / "bench"))

import report  # noqa: E402
import report_tables  # noqa: E402

# The README sections whose figures come from the benchmarks.
SECTIONS = ("## Benchmarks", "### Load", "### Scaling")
# A measured figure written in prose: a rate, a ratio, a time a call or a hand.
FIGURE = re.compile(r"(?<![≥<>] )\b\d[\d,.]*\s?(?:[Mk] )?(?:hands/s|deals/s|×|ms\b|µs)")


@pytest.fixture(scope="module")
def committed() -> dict[str, Any]:
    return json.loads(report.REPORT_JSON.read_text())  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def readme() -> str:
    return report.README.read_text()


def section_text(readme: str, heading: str) -> str:
    """A README section from its heading to the next heading of its level or above."""
    level = len(heading.split()[0])
    start = readme.index(f"\n{heading}\n") + 1
    body = start + len(heading)
    for m in re.finditer(r"^(#+) ", readme[body:], re.MULTILINE):
        if len(m[1]) <= level:
            return readme[start : body + m.start()]
    return readme[start:]


def outside_blocks(text: str) -> str:
    return report.BLOCK.sub("", text)


def test_every_readme_block_is_what_the_report_renders(
    committed: dict[str, Any], readme: str
) -> None:
    blocks = report.readme_blocks(readme)
    assert set(blocks) == set(report_tables.BLOCKS)
    for name, body in blocks.items():
        assert body == "\n".join(report.render_block(committed, name)) + "\n", name


def test_the_check_fails_when_a_readme_figure_is_edited(
    committed: dict[str, Any], readme: str
) -> None:
    assert report.rewrite_readme(readme, committed) == readme
    body = report.readme_blocks(readme)["evaluators"]
    digit = re.search(r"\| \d", body)
    assert digit is not None
    at = digit.end() - 1
    edited_body = body[:at] + str((int(body[at]) + 1) % 10) + body[at + 1 :]
    edited = readme.replace(body, edited_body)
    assert edited != readme
    assert report.rewrite_readme(edited, committed) != edited


def test_every_table_in_the_benchmark_sections_comes_from_the_report(readme: str) -> None:
    for heading in SECTIONS:
        text = outside_blocks(section_text(readme, heading))
        tables = [line for line in text.splitlines() if line.startswith("|")]
        assert tables == [], f"{heading}: a table not made from the report: {tables[:1]}"


def test_no_measured_figure_in_the_benchmark_prose(readme: str) -> None:
    for heading in SECTIONS:
        text = outside_blocks(section_text(readme, heading))
        found = [m[0] for m in FIGURE.finditer(text)]
        assert found == [], f"{heading}: figures in prose, not from the report: {found}"


def test_the_prose_check_sees_a_figure() -> None:
    assert FIGURE.search("the loop ran 1.21 M hands/s") is not None
    assert FIGURE.search("the target is ≥ 100× pokerkit") is None


def test_the_committed_report_is_the_rendering_of_its_json(committed: dict[str, Any]) -> None:
    assert report.REPORT_MD.read_text() == report.render_report(committed) + "\n"
    assert set(committed["sections"]) == {s.name for s in report.SECTIONS}
