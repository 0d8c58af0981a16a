"""The documentation's benchmark figures are the committed report's: every table in its
benchmark sections (docs/benchmarks.md; Load and Scaling in docs/operations.md) is a block that
``bench/report.py docs`` writes from ``bench/results/report.json``, and the block still reads
as the report renders it.  Nothing is timed here."""

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

# The pages' sections whose figures come from the benchmarks: the page, and a heading in it
# (None: the whole page).
SECTIONS = (
    ("docs/benchmarks.md", None),
    ("docs/operations.md", "## Load"),
    ("docs/operations.md", "## Scaling"),
)
# A measured figure written in prose: a rate, a ratio, a time a call or a hand.
FIGURE = re.compile(r"(?<![≥<>] )\b\d[\d,.]*\s?(?:[Mk] )?(?:hands/s|deals/s|×|ms\b|µs)")


@pytest.fixture(scope="module")
def committed() -> dict[str, Any]:
    return json.loads(report.REPORT_JSON.read_text())  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return {str(path.relative_to(REPO)): path.read_text() for path in report.PAGES}


def section_text(text: str, heading: str | None) -> str:
    """A page's section from its heading to the next heading of its level or above (the
    whole page for None)."""
    if heading is None:
        return text
    level = len(heading.split()[0])
    start = text.index(f"\n{heading}\n") + 1
    body = start + len(heading)
    for m in re.finditer(r"^(#+) ", text[body:], re.MULTILINE):
        if len(m[1]) <= level:
            return text[start : body + m.start()]
    return text[start:]


def outside_blocks(text: str) -> str:
    return report.BLOCK.sub("", text)


def test_every_block_is_what_the_report_renders_each_in_one_page(
    committed: dict[str, Any], pages: dict[str, str]
) -> None:
    found: dict[str, str] = {}
    for page, text in pages.items():
        for name, body in report.page_blocks(text).items():
            assert name not in found, f"{name}: in {found.get(name)} and {page}"
            found[name] = page
            assert body == "\n".join(report.render_block(committed, name)) + "\n", name
    assert set(found) == set(report_tables.BLOCKS)
    assert found["evaluators"] == "docs/benchmarks.md"
    assert {found["load"], found["scaling-costs"]} == {"docs/operations.md"}


def test_the_check_fails_when_a_figure_is_edited(
    committed: dict[str, Any], pages: dict[str, str]
) -> None:
    text = pages["docs/benchmarks.md"]
    assert report.rewrite_page(text, committed) == text
    body = report.page_blocks(text)["evaluators"]
    digit = re.search(r"\| \d", body)
    assert digit is not None
    at = digit.end() - 1
    edited_body = body[:at] + str((int(body[at]) + 1) % 10) + body[at + 1 :]
    edited = text.replace(body, edited_body)
    assert edited != text
    assert report.rewrite_page(edited, committed) != edited


def test_the_command_check_passes_on_the_committed_pages() -> None:
    assert report.main(["check"]) == 0


def test_every_table_in_the_benchmark_sections_comes_from_the_report(
    pages: dict[str, str],
) -> None:
    for page, heading in SECTIONS:
        text = outside_blocks(section_text(pages[page], heading))
        tables = [line for line in text.splitlines() if line.startswith("|")]
        assert tables == [], f"{page} {heading}: a table not made from the report: {tables[:1]}"


def test_no_measured_figure_in_the_benchmark_prose(pages: dict[str, str]) -> None:
    for page, heading in SECTIONS:
        text = outside_blocks(section_text(pages[page], heading))
        found = [m[0] for m in FIGURE.finditer(text)]
        assert found == [], f"{page} {heading}: figures in prose, not from the report: {found}"


def test_the_prose_check_sees_a_figure() -> None:
    assert FIGURE.search("the loop ran 1.21 M hands/s") is not None
    assert FIGURE.search("the target is ≥ 100× pokerkit") is None


def test_the_committed_report_is_the_rendering_of_its_json(committed: dict[str, Any]) -> None:
    assert report.REPORT_MD.read_text() == report.render_report(committed) + "\n"
    assert set(committed["sections"]) == {s.name for s in report.SECTIONS}
