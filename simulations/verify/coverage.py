"""Which rule paragraphs a folder of scenarios covers: the table its README carries.

Each scenario names the paragraphs it checks in ``covers``, as ``"<rules file>: <phrase>"``
(the phrase found in that rules text).  :func:`coverage_table` turns a folder's scenarios
into a Markdown table, one row a paragraph with the scenarios covering it, and
:func:`with_table` puts it between the README's two marker comments, so that the README can
be checked against the scenarios and cannot go stale::

    python -m simulations.verify.coverage tests/scenarios            # print the table
    python -m simulations.verify.coverage tests/scenarios --write    # update README.md
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from simulations.verify.files import FileError, holds_scenarios, load_toml, read_scenario_file

RULES_FILES = (
    "000_1a86611de8d3f5f7.txt",
    "001_af8fb40237a5ae1f.txt",
    "002_376df91f076a6501.txt",
    "003_6e018542f14946f8.txt",
    "004_53770b236994c31b.txt",
)
COVER = re.compile(r"(?P<file>[^:]+\.txt): (?P<phrase>\S.*)", re.S)
BEGIN = "<!-- coverage table: begin (written by simulations/verify/coverage.py) -->"
END = "<!-- coverage table: end -->"


@dataclass(frozen=True)
class Covered:
    """One scenario of a folder and the rule paragraphs it names."""

    file: str  # relative to the folder
    name: str
    covers: tuple[str, ...]


def folder_scenarios(folder: Path) -> list[Covered]:
    """Every scenario of the scenario files under ``folder`` (files that cannot be read are
    left out: ``cardroom verify`` reports them)."""
    found: list[Covered] = []
    for path in sorted(folder.rglob("*.toml")):
        try:
            data = load_toml(path)
            if not holds_scenarios(data):
                continue
            entries = read_scenario_file(data, path.parent)
        except FileError:
            continue
        shown = path.relative_to(folder).as_posix()
        found.extend(Covered(shown, entry.name, entry.covers) for entry in entries)
    return found


def split_cover(cover: str) -> tuple[str, str] | None:
    """(rules file, phrase) of a ``covers`` entry naming one of the rule texts, else None."""
    match = COVER.fullmatch(cover)
    if match is None or match.group("file") not in RULES_FILES:
        return None
    return match.group("file"), match.group("phrase").strip()


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def coverage_table(scenarios: Sequence[Covered]) -> str:
    """The Markdown table: a row a rule paragraph (by file, then phrase), with the scenarios
    naming it (``file: name``), and a last row for entries that name no rules file."""
    rows: dict[tuple[str, str], list[str]] = defaultdict(list)
    for scenario in scenarios:
        where = f"{scenario.file}: {scenario.name}"
        for cover in scenario.covers:
            parts = split_cover(cover)
            key = parts if parts is not None else ("(not a rules file)", cover)
            if where not in rows[key]:
                rows[key].append(where)
    lines = ["| rules file | paragraph | scenarios |", "| --- | --- | --- |"]
    for (file, phrase), names in sorted(rows.items(), key=lambda r: (r[0][0], r[0][1].lower())):
        cells = "<br>".join(_cell(name) for name in names)
        lines.append(f"| {file} | {_cell(phrase)} | {cells} |")
    return "\n".join(lines) + "\n"


def table_in(readme: str) -> str | None:
    """The text between the README's markers (None without both)."""
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start:
        return None
    return readme[start + len(BEGIN) : end].strip("\n") + "\n"


def with_table(readme: str, table: str) -> str:
    """The README with ``table`` between its markers (ValueError without them)."""
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start:
        raise ValueError(f"the README has no coverage markers: {BEGIN} ... {END}")
    return f"{readme[: start + len(BEGIN)]}\n{table}{readme[end:]}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m simulations.verify.coverage",
        description="the rule paragraphs a folder of scenarios covers, as a Markdown table",
    )
    parser.add_argument("folder", type=Path)
    parser.add_argument(
        "--write", action="store_true", help="put the table in the folder's README.md"
    )
    args = parser.parse_args(argv)
    table = coverage_table(folder_scenarios(args.folder))
    if not args.write:
        sys.stdout.write(table)
        return 0
    readme = args.folder / "README.md"
    try:
        readme.write_text(with_table(readme.read_text(encoding="utf-8"), table), "utf-8")
    except (OSError, ValueError) as error:
        print(f"coverage: {readme}: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
