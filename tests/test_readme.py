"""The README is the way in: its two commands, one example of each kind of job as the Jobs page
shows it, and one line for each reading of docs/readings.md, in order."""

from __future__ import annotations

import re
from pathlib import Path

from markdown.extensions.toc import slugify

from service.kinds import KINDS

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCS = REPO / "docs"


def _readme() -> str:
    return README.read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    start = text.index(f"\n{heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def _output_blocks(text: str) -> list[str]:
    """The plain fenced blocks (no language): what a command prints."""
    blocks: list[str] = []
    body: list[str] | None = None
    language = ""
    for line in text.splitlines(keepends=True):
        if line.startswith("```") and body is None:
            body, language = [], line[3:].strip()
        elif line.startswith("```") and body is not None:
            if not language:
                blocks.append("".join(body))
            body = None
        elif body is not None:
            body.append(line)
    return blocks


def test_the_quickstart_gives_the_two_commands_and_the_makefile_has_them() -> None:
    quick = _section(_readme(), "## Quickstart")
    assert "make run " in quick and "make test " in quick
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^run: ", makefile, re.M) and re.search(r"^test: ", makefile, re.M)
    # make run runs the example the README shows the result of.
    assert "JOB ?= examples/bad_beat.toml" in makefile
    assert "Bad-beat jackpot — Texas hold'em, 9 players, every hand to the river" in quick


def test_every_kind_has_its_example_and_each_is_the_docs_own() -> None:
    """Each registered kind is named in the README's Jobs with a link to its section, and every
    output the README shows is word for word an output the documentation shows (where the
    Jobs page's examples are held to the jobs' real output)."""
    readme = _readme()
    jobs = _section(readme, "## Jobs")
    for kind in KINDS:
        assert f"**`{kind}`**" in jobs, kind
    docs = "".join(page.read_text(encoding="utf-8") for page in sorted(DOCS.glob("*.md")))
    blocks = _output_blocks(readme)
    assert len(blocks) >= len(KINDS)  # the Quickstart's bad_beat, then one of each other kind
    for block in blocks:
        assert f"```\n{block}```" in docs, block.splitlines()[0]


def test_the_readings_list_every_reading_once_in_order() -> None:
    """The developers' guide: the README's Readings lists each reading; here one line each,
    linking to its section of docs/readings.md, in the page's order."""
    page = (DOCS / "readings.md").read_text(encoding="utf-8")
    readings = re.findall(r"^### (.+)$", page, re.M)  # each under its subject's heading
    assert len(readings) > 100
    section = _section(_readme(), "## Readings")
    lines = [line for line in section.splitlines() if line.startswith("- ")]
    entry = re.compile(r"- \[(.+?)\]\(docs/readings\.md#([\w-]+)\)(?:: .+)?")
    linked = [entry.fullmatch(line) for line in lines]
    assert all(linked), [line for line, m in zip(lines, linked, strict=True) if not m][:1]
    assert [m[1] for m in linked if m] == readings
    assert [m[2] for m in linked if m] == [slugify(r.replace("`", ""), "-") for r in readings]
