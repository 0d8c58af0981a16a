"""The benchmark report: every benchmark the documentation shows, run one after another,
assembled from their JSON into one Markdown report, and the documentation's tables made from it.

    python bench/report.py run [--quick] [--only NAME,...]   # what `make bench` runs
    python bench/report.py render                            # report.md again from report.json
    python bench/report.py docs                              # the docs' tables from report.json
    python bench/report.py check                             # exit 1 if a docs table differs

``run`` starts each benchmark script as its own process (pinned to CPU 1 with ``taskset``
where it measures on one core), with ``--json`` into a scratch folder, noting the 1-minute
load before and after it and how long it took; a script that stops (a check failed: two
contenders disagreed) stops the run, without a report.  The scripts' JSON, the machine and
the commit are kept in ``bench/results/report.json``; ``bench/results/report.md`` is made
from it alone, a section a benchmark, each table with its baselines.  With ``--only`` the
named sections are run again and the others kept from the last report.

The documentation's benchmark tables sit between ``<!-- bench:NAME -->`` and
``<!-- /bench:NAME -->`` markers in its pages (``PAGES``: ``docs/benchmarks.md``, and the load
and scaling figures in ``docs/operations.md``); ``docs`` rewrites each block as the report
renders it, and ``tests/test_bench_report.py`` checks that every block still equals it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import report_tables
from common import cpu_model, log, package_versions

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results"
REPORT_JSON = RESULTS / "report.json"
REPORT_MD = RESULTS / "report.md"
# The pages that hold benchmark tables: each block sits in one of them.
PAGES = (REPO / "docs" / "benchmarks.md", REPO / "docs" / "operations.md")
PACKAGES = ("numpy", "numba", "pokerkit", "ray", "eval7", "phevaluator", "treys", "grpcio")
BLOCK = re.compile(r"<!-- bench:(?P<name>[a-z0-9-]+) -->\n(?P<body>.*?)<!-- /bench:(?P=name) -->",
                   re.DOTALL)  # fmt: skip


@dataclass(frozen=True)
class Section:
    """One benchmark script: its arguments in a full and a quick run, and whether it is
    pinned to one CPU from outside (the others use both cores, or pin themselves)."""

    name: str
    title: str
    script: str
    full: tuple[str, ...] = ()
    quick: tuple[str, ...] = ("--quick",)
    pinned: bool = True


SECTIONS = (
    # It pins its evaluators to CPU 1 itself: the bad-beat kernel runs on one core and on two.
    Section("run", "High-hand evaluators and the bad-beat kernel, one core and two", "run.py",
            pinned=False),
    Section("rankings-low", "Other ranking systems against pokerkit", "bench_rankings_low.py"),
    Section("rankings-high", "Omaha high against pokerkit and phevaluator",
            "bench_rankings_high.py"),
    Section("engine", "Whole hands: pokerkit, the reference engine, the replay kernel",
            "bench_engine.py"),
    Section("guts", "Guts: the compiled loop against the reference session", "bench_guts.py"),
    Section("exhaustion", "Running out of cards: the compiled loop against the engine",
            "bench_exhaustion.py"),
    Section("economics", "Cardroom economics: the table loop against the engine",
            "bench_economics.py"),
    Section("phh", "PHH hand histories: pokerkit against the reference engine", "bench_phh.py"),
    # Its own --quick still replays every corpus: the quick run takes a few.
    Section("replay", "`cardroom replay` against pokerkit's own replay", "bench_replay.py",
            quick=("--quick", "--pluribus", "300", "--corpora", "NT,FT,F7S,N2L1D,pluribus")),
    Section("service", "The service: in process, through the server, one CPU and two",
            "bench_service.py", full=("--memory-hands", "1000000000"),
            quick=("--hands", "4000000", "--repeats", "2"), pinned=False),
    Section("store", "GetJob on a finished job of many shards", "bench_store.py",
            quick=("--shards", "5000", "--repeats", "200", "--baseline-repeats", "5")),
    Section("load", "The service under load: many stored jobs beside few", "bench_load.py",
            quick=("--stored", "1000", "--rounds", "2", "--clients", "4", "--submits", "2",
                   "--reads", "5", "--alone", "20")),
    Section("scaling", "A scaling model, checked on a two-node cluster", "bench_scaling.py",
            quick=("--hands", "2000000", "--shard-size", "250000", "--repeats", "2"),
            pinned=False),
)  # fmt: skip
BY_NAME = {s.name: s for s in SECTIONS}


def load_1min() -> float:
    return os.getloadavg()[0]


def git_commit() -> str:
    found = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=False
    )
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    commit = found.stdout.strip() or "unknown"
    return commit + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def machine() -> dict[str, Any]:
    import platform

    return {
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "versions": package_versions(PACKAGES),
        "commit": git_commit(),
    }


def run_section(section: Section, quick: bool, scratch: Path) -> dict[str, Any]:
    """Run one script and keep its JSON with the load around it and its wall time."""
    out = scratch / f"{section.name}.json"
    arguments = section.quick if quick else section.full
    command = [sys.executable, str(REPO / "bench" / section.script), *arguments]
    shown = ["python", f"bench/{section.script}", *arguments]
    if section.pinned and shutil.which("taskset"):
        command = ["taskset", "-c", "1", *command]
        shown = ["taskset", "-c", "1", *shown]
    command += ["--json", str(out)]
    log(f"== {section.name}: {' '.join(command)}")
    before = load_1min()
    started = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(command, cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - started
    if not out.exists():
        raise SystemExit(f"{section.name}: {section.script} stopped (exit {done.returncode})")
    return {
        "title": section.title,
        "script": f"bench/{section.script}",
        "command": " ".join(shown),
        "pinned": section.pinned,
        "exit_code": done.returncode,  # 1: a target not met (the figures stand)
        "load_before": before,
        "load_after": load_1min(),
        "seconds": seconds,
        "data": json.loads(out.read_text()),
    }


def run(quick: bool, only: Sequence[str]) -> dict[str, Any]:
    names = list(only) or [s.name for s in SECTIONS]
    kept: dict[str, Any] = {}
    if only and REPORT_JSON.exists():
        kept = json.loads(REPORT_JSON.read_text())["sections"]
    started = time.perf_counter()
    load_at_start = load_1min()
    facts = machine()  # the commit as the run starts, before anything could change the tree
    sections = dict(kept)
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            ran = run_section(BY_NAME[name], quick, Path(tmp))
            sections[name] = ran | {"quick": quick, "commit": facts["commit"]}
    return {
        "quick": any(s["quick"] for s in sections.values()),  # any section, with --only
        "finished": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": facts,
        "load_at_start": load_at_start,
        "load_at_end": load_1min(),
        "seconds": time.perf_counter() - started,
        "sections": {s.name: sections[s.name] for s in SECTIONS if s.name in sections},
    }


def render_report(report: dict[str, Any]) -> str:
    """The whole Markdown report, from the report's JSON alone."""
    m = report["machine"]
    v = m["versions"]
    sections = report["sections"].values()
    commits = ", ".join(dict.fromkeys(s.get("commit", m["commit"]) for s in sections))
    minutes = sum(s["seconds"] for s in sections) / 60
    kind = (
        "**QUICK RUN** (`make bench QUICK=1`: smoke sizes that check the harness; these "
        "figures mean little)"
        if report["quick"]
        else "full run (`make bench`)"
    )
    lines = [
        "# Benchmark report",
        "",
        f"- Run: {kind}, finished {report['finished']}, the benchmarks {minutes:.1f} minutes "
        "in all",
        f"- Commit: {commits}",
        f"- CPUs: {m['cpu_count']} ({m['cpu_model']}); 1-minute load {report['load_at_start']:.2f}"
        f" at the start, {report['load_at_end']:.2f} at the end (each section's below)",
        f"- {m['python']} on {m['platform']}; " + ", ".join(f"{k} {v[k]}" for k in PACKAGES),
        "- Every figure is the median of its repeats with the range (lowest–highest) in "
        "brackets, never the best run; each table shows its baselines, timed in the same "
        "process in the same rounds.",
        "",
        "Made by `python bench/report.py run` from the scripts' JSON (kept in "
        "`bench/results/report.json`); the documentation's tables (docs/benchmarks.md, "
        "docs/operations.md) are made from it by `python bench/report.py docs`.",
        "",
    ]
    for name, section in report["sections"].items():
        pin = "pinned to CPU 1 (`taskset -c 1`)" if section["pinned"] else "not pinned from outside"
        lines += [
            f"## {section['title']}",
            "",
            f"`{section['command']}`: {section['seconds']:.0f} s, {pin}; 1-minute load "
            f"{section['load_before']:.2f} before, {section['load_after']:.2f} after"
            + ("; **a target was not met** (exit 1)" if section["exit_code"] == 1 else "")
            + ".",
            "",
        ]
        for block in report_tables.BLOCKS_BY_SECTION.get(name, ()):
            lines += [*render_block(report, block), ""]
    return "\n".join(lines)


def render_block(report: dict[str, Any], block: str) -> list[str]:
    """One table as the report and the documentation show it, with where it comes from."""
    section_name, render = report_tables.BLOCKS[block]
    section = report["sections"][section_name]
    how = "QUICK RUN, smoke sizes" if section["quick"] else "full run"
    source = (
        f"*bench/results/report.md, `{section['script']}`: {how}, 1-minute load "
        f"{section['load_before']:.2f} before and {section['load_after']:.2f} after.*"
    )
    return [*render(section["data"]), "", source]


def page_blocks(text: str) -> dict[str, str]:
    """A page's benchmark blocks by name."""
    return {m["name"]: m["body"] for m in BLOCK.finditer(text)}


def rewrite_page(text: str, report: dict[str, Any], page: str = "the page") -> str:
    """The page with every benchmark block rendered again from the report."""

    def body(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in report_tables.BLOCKS:
            raise SystemExit(f"{page}: no benchmark table named {name!r}")
        rendered = "\n".join(render_block(report, name))
        return f"<!-- bench:{name} -->\n{rendered}\n<!-- /bench:{name} -->"

    return BLOCK.sub(body, text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    go = sub.add_parser("run", help="run the benchmarks, write report.json and report.md")
    go.add_argument("--quick", action="store_true", help="every script in its smoke mode")
    go.add_argument("--only", default="", help="comma-separated section names")
    sub.add_parser("render", help="write report.md again from report.json")
    sub.add_parser("docs", help="rewrite the docs pages' benchmark blocks from report.json")
    sub.add_parser("check", help="exit 1 if a docs benchmark block differs from the report")
    args = parser.parse_args(argv)
    if args.command == "run":
        only = [n for n in args.only.split(",") if n]
        unknown = [n for n in only if n not in BY_NAME]
        if unknown:
            parser.error(
                f"--only: no benchmark named {', '.join(unknown)} (of {', '.join(BY_NAME)})"
            )
        report = run(args.quick, only)
        RESULTS.mkdir(parents=True, exist_ok=True)
        REPORT_JSON.write_text(json.dumps(report, indent=1) + "\n")
    elif not REPORT_JSON.exists():
        raise SystemExit(f"{REPORT_JSON.relative_to(REPO)}: none yet; run `make bench` first")
    report = json.loads(REPORT_JSON.read_text())
    if args.command in ("run", "render"):
        REPORT_MD.write_text(render_report(report) + "\n")
        log(f"wrote {REPORT_MD.relative_to(REPO)} ({report['seconds'] / 60:.1f} minutes)")
    stale = []
    for path in PAGES:
        name = str(path.relative_to(REPO))
        text = path.read_text()
        rendered = rewrite_page(text, report, name)
        if args.command == "docs" and rendered != text:
            path.write_text(rendered)
        stale += [name] if rendered != text else []
    if args.command == "check" and stale:
        print(f"{', '.join(stale)}: benchmark tables differ from the report: "
              "run `python bench/report.py docs`", file=sys.stderr)  # fmt: skip
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
