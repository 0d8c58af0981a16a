"""The documentation site (mkdocs.yml, docs/): it builds strictly — any warning, a broken link
or a missing anchor fails the build —, the README stays the short way in and its links into
docs/ land on a page and a heading that exist, the generated pages are what their generators
write, and the engine page's examples run as written."""

from __future__ import annotations

import functools
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from service import games_page
from simulations.engine.hand import Hand

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCS = REPO / "docs"
# The README is a newcomer's page: what cardroom is, the Quickstart, an example of each kind
# of job, the service in brief, the links into docs/, and a line for each reading.
README_BUDGET = 400
NAV_PAGES = (
    "index", "jobs", "statistics", "service", "operations", "engine", "rule-functions", "games",
    "verification", "scenarios", "mutation", "testing", "benchmarks", "readings", "architecture",
)  # fmt: skip


class _Ids(HTMLParser):
    """Every element id of a page: the anchors a link may name."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.update(value for name, value in attrs if name == "id" and value)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as `mkdocs build --strict` makes it, in a scratch folder."""
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    warnings = [line for line in done.stderr.splitlines() if "WARNING" in line]
    assert done.returncode == 0 and not warnings, done.stderr[-3000:]
    return out


@functools.cache
def _ids(site: Path, page: str) -> frozenset[str]:
    parser = _Ids()
    html = site / ("index.html" if page == "index" else f"{page}/index.html")
    parser.feed(html.read_text(encoding="utf-8"))
    return frozenset(parser.ids)


def test_the_site_builds_strictly_with_every_page_in_the_nav(site: Path) -> None:
    for page in NAV_PAGES:
        assert (site / ("index.html" if page == "index" else f"{page}/index.html")).is_file(), page
    pages = {p.stem for p in DOCS.glob("*.md")}
    assert pages == set(NAV_PAGES)
    assert "cardroomapidown" in _ids(site, "operations")  # a runbook's anchor


def test_a_broken_link_or_anchor_fails_the_strict_build(tmp_path: Path) -> None:
    """The check can fail: a copy of the docs with a link to a heading that does not exist
    and one to a page that does not exist."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for page in DOCS.iterdir():
        (docs / page.name).write_bytes(page.read_bytes())
    jobs = docs / "jobs.md"
    jobs.write_text(
        jobs.read_text(encoding="utf-8")
        + "\nSee [nothing](#no-such-heading) and [no page](no-such-page.md).\n"
    )
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(config.replace("site_dir: build/site", "site_dir: site"))
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "no-such-heading" in done.stderr and "no-such-page.md" in done.stderr


def test_the_readme_keeps_to_its_budget() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert 100 < lines <= README_BUDGET, f"README.md has {lines} lines, the budget {README_BUDGET}"


def _github_anchors(page: Path) -> set[str]:
    """The anchors a repository browser gives the page's headings (lower case, punctuation
    dropped, each space a '-'), so that the README's links work there as on the site."""
    anchors, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        fenced ^= line.startswith("```")
        heading = None if fenced else re.match(r"^#{1,6} (.+)$", line)
        if heading:
            anchors.add(re.sub(r"[^\w\- ]", "", heading[1].strip().lower()).replace(" ", "-"))
    return anchors


def test_every_readme_link_into_docs_lands_on_a_page_and_heading(site: Path) -> None:
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[^)\s]+)\)", text)
    assert len(links) > 100  # the pages, the examples' sections and every reading
    for link in links:
        path, _, anchor = link.partition("#")
        target = REPO / path
        assert target.is_file(), link
        if anchor:
            assert target.suffix == ".md", link
            assert anchor in _ids(site, target.stem), f"README: {link}: no such heading"
            assert anchor in _github_anchors(target), f"README: {link}: not a browser's anchor"


def test_the_game_catalogue_is_current(capsys: pytest.CaptureFixture[str]) -> None:
    assert games_page.main(["--check"]) == 0, capsys.readouterr().err


def test_a_stale_catalogue_fails_the_check_and_says_how_to_regenerate(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale = tmp_path / "games.md"
    stale.write_text(
        (DOCS / "games.md").read_text(encoding="utf-8").replace("Fixed-limit razz", "Razz")
    )
    monkeypatch.setattr(games_page, "PAGE", stale)
    assert games_page.main(["--check"]) == 1
    assert "run `python -m service.games_page`" in capsys.readouterr().err


def test_the_benchmark_tables_are_current() -> None:
    """bench/report.py writes docs/benchmarks.md's and docs/operations.md's tables from the
    committed report (tests/test_bench_report.py checks each block)."""
    done = subprocess.run(
        [sys.executable, "bench/report.py", "check"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_the_engine_examples_run() -> None:
    """docs/engine.md from 'Playing a hand' on: every Python block runs, in order, in one
    namespace (the page's first block only shows a call)."""
    page = (DOCS / "engine.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page[page.index("## Playing a hand") :], re.S)
    assert len(blocks) >= 3  # playing a hand, games as data, replaying hands in bulk
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(DOCS / "engine.md"), "exec"), namespace)
    hand, stud = namespace["hand"], namespace["stud"]
    assert isinstance(hand, Hand) and hand.finished
    assert isinstance(stud, Hand) and stud.pot_total == 5 + 2  # five antes and the bring-in
    assert "result" in namespace  # the replay's block ran too
