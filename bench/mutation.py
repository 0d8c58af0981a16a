"""Mutation testing of the rules engine against the scenario corpus (``make mutate``).

The strength of the rules-verification corpus (``tests/scenarios``, run by
``tests/test_scenarios.py``) is measured by mutating the engine's betting, pots, settlement,
dealing and showdown modules with mutmut and counting the mutants the scenarios kill.  The
modules and the test command are the ``[tool.mutmut]`` section of ``pyproject.toml``;
``docs/mutation.md`` says what is mutated and why, and explains every surviving mutant.

The engine is compiled with mypyc into extension modules beside its sources, and Python
imports an extension module ahead of a source file of the same name: a mutant of a compiled
module would never run.  So the run never touches the working tree: it copies the sources
(without any extension module, cache or virtual environment) into a work folder
(``build/mutation`` by default) and runs mutmut there, on plain Python.  In the copy, the
``@nb.njit`` decorator of a mutated module's functions is turned into a comment (same line
numbers): mutmut leaves decorated functions alone, and the plain-Python body is what numba
compiles, so the rule arithmetic shared with the simulation kernels is mutated too.

    python bench/mutation.py run              # copy, run every mutant, print the scores
    python bench/mutation.py run --keep       # keep earlier verdicts of unchanged functions
    python bench/mutation.py run --skip-failing   # leave out scenarios failing unmutated
    python bench/mutation.py report           # the scores of the last run again
    python bench/mutation.py survivors        # the diff of every mutant the corpus missed
    python bench/mutation.py doc              # docs/mutation.md's score and survivors again
    python bench/mutation.py check NAME… --scenarios FILE…   # survivors against new scenarios

mutmut mutates only the lines the corpus runs (``mutate_only_covered_lines``); the report
also counts the mutants of the other lines ("unreached").  A mutant is killed when a
scenario fails on it, or when it runs out of time (it loops).  The score is the share of
the mutants made that were killed; "of all" counts the unreached ones as not killed too.

Every run is recorded in ``mutation-runs.json`` of the work folder (a fresh full run starts
the list, a named run adds to it): when, the machine load, the commit and the scenario count,
the wall time and the score after it.  ``doc`` writes the score section and the survivors of
``docs/mutation.md`` from these and the classification of ``bench/mutation_classes.toml``
(``bench/mutation_doc.py``).
"""

from __future__ import annotations

import argparse
import ast
import datetime
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_WORK = ROOT / "build" / "mutation"
CLASSES = ROOT / "bench" / "mutation_classes.toml"
DOC = ROOT / "docs" / "mutation.md"
SURVIVORS = ROOT / "docs" / "verification.md"  # the survivors' table, by class

# Never copied into the work folder: the compiled engine (its extension modules and build
# stamp), numba's caches, virtual environments, tool caches and earlier outputs.
EXCLUDED_NAMES = frozenset(
    {
        ".git",
        ".venv",
        ".tools",
        ".cardroom",
        "build",
        "dist",
        "mutants",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".hypothesis",
        ".compiled",
    }
)
EXCLUDED_SUFFIXES = (".so", ".pyd", ".nbi", ".nbc", ".pyc")

# numba's decorator on a line of its own; mutmut skips decorated functions.
NJIT_LINE = re.compile(r"^(\s*)(@nb\.njit\b.*)$", re.MULTILINE)
# The rules core's modules call each other compiled (a side pot's award calls the odd-chip
# rule): one of them mutated as plain Python could not be called from another still
# compiled, so in the mutation run the whole core runs as plain Python.
RULES_CORE = "simulations/rules/"

# mutmut's exit codes as the verdicts reported here (mutmut.stats.status_by_exit_code).
KILLED = "killed"
TIMEOUT = "timeout"
SURVIVED = "survived"
NO_TESTS = "no tests"
SKIPPED = "skipped"
NOT_RUN = "not run"
OTHER = "other"
VERDICTS = (KILLED, TIMEOUT, SURVIVED, NO_TESTS, SKIPPED, NOT_RUN, OTHER)


@dataclass(frozen=True)
class Settings:
    """The ``[tool.mutmut]`` keys this script reads."""

    source_paths: tuple[str, ...]
    only_mutate: tuple[str, ...]
    selection: tuple[str, ...]  # pytest_add_cli_args_test_selection


@dataclass(frozen=True)
class ModuleScore:
    """The verdicts of one module's mutants."""

    path: str
    counts: dict[str, int]
    seconds: float
    tested: int  # mutants whose tests ran (the others have no test or were skipped)
    possible: int  # the mutants of the whole module, the lines no scenario runs included

    @property
    def total(self) -> int:
        """The mutants made (on the lines the corpus runs)."""
        return sum(self.counts.values())

    @property
    def unreached(self) -> int:
        """Mutants of lines no scenario runs: not made, counted as not killed."""
        return self.possible - self.total

    @property
    def scored(self) -> int:
        """Mutants that count towards the score: all but the skipped ones and, after a run of
        some mutants only, those not run."""
        return self.total - self.counts[SKIPPED] - self.counts[NOT_RUN]

    @property
    def caught(self) -> int:
        return self.counts[KILLED] + self.counts[TIMEOUT]


def read_settings(root: Path) -> Settings:
    with (root / "pyproject.toml").open("rb") as file:
        section = tomllib.load(file).get("tool", {}).get("mutmut", {})
    if not section.get("source_paths") or not section.get("only_mutate"):
        raise SystemExit(
            f"{root / 'pyproject.toml'}: [tool.mutmut] needs source_paths and only_mutate"
        )
    return Settings(
        tuple(section["source_paths"]),
        tuple(section["only_mutate"]),
        tuple(section.get("pytest_add_cli_args_test_selection", ())),
    )


def _excluded(path: Path) -> bool:
    return (
        path.name in EXCLUDED_NAMES
        or path.name.endswith(".egg-info")
        or (path.is_file() and path.name.endswith(EXCLUDED_SUFFIXES))
    )


def _source_files(root: Path, skip: Path) -> Iterator[Path]:
    """Every file of the tree at ``root`` that the run needs, as paths relative to it."""
    stack = [root]
    while stack:
        folder = stack.pop()
        for entry in sorted(folder.iterdir()):
            if _excluded(entry) or entry.resolve() == skip:
                continue
            if entry.is_dir() and not entry.is_symlink():
                stack.append(entry)
            elif entry.is_file():
                yield entry.relative_to(root)


def plain_python(source: str) -> str:
    """``source`` with its numba decorators commented out, line numbers kept."""
    return NJIT_LINE.sub(r"\1# \2  (plain Python for the mutation run)", source)


def sync_tree(source: Path, work: Path, mutated: frozenset[str]) -> int:
    """Make ``work`` a copy of ``source`` (less the excluded files); the files of
    ``mutated`` as plain Python.  Unchanged files keep their time stamps, so that mutmut
    can tell a changed source from an unchanged one.  Returns the number of files written."""
    work.mkdir(parents=True, exist_ok=True)
    wanted = set()
    written = 0
    for relative in _source_files(source, work.resolve()):
        wanted.add(relative)
        origin, copy = source / relative, work / relative
        stat = origin.stat()
        if relative.as_posix() in mutated or relative.as_posix().startswith(RULES_CORE):
            text = plain_python(origin.read_text(encoding="utf-8"))
            if not copy.exists() or copy.read_text(encoding="utf-8") != text:
                copy.parent.mkdir(parents=True, exist_ok=True)
                copy.write_text(text, encoding="utf-8")
                os.utime(copy, ns=(stat.st_atime_ns, stat.st_mtime_ns))
                written += 1
            continue
        if copy.exists():
            mine = copy.stat()
            if mine.st_size == stat.st_size and mine.st_mtime_ns == stat.st_mtime_ns:
                continue
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(origin, copy)
        written += 1
    for relative in list(_source_files(work, (work / "mutants").resolve())):
        if relative not in wanted:
            (work / relative).unlink()
    return written


def drop_stale_copies(work: Path, settings: Settings) -> None:
    """mutmut copies the data files of its source paths into ``mutants/`` once and never
    again: remove the copies whose original changed, so that it copies them anew."""
    for top in settings.source_paths:
        for relative in _source_files(work / top, (work / "mutants").resolve()):
            original = work / top / relative
            copy = work / "mutants" / top / relative
            if original.suffix == ".py" or not copy.exists():
                continue
            if copy.stat().st_size != original.stat().st_size or copy.read_bytes() != (
                original.read_bytes()
            ):
                copy.unlink()


# Runs the corpus once in the work folder (whose packages come first on sys.path) and
# prints the node id of every failed test.
_PREFLIGHT = """
import sys
import pytest

class Failures:
    def __init__(self):
        self.ids = []

    def pytest_runtest_logreport(self, report):
        if report.failed and report.nodeid not in self.ids:
            self.ids.append(report.nodeid)

failures = Failures()
pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]], plugins=[failures])
for nodeid in failures.ids:
    print("FAILED", nodeid, sep="\\t")
"""


def failing_tests(work: Path, selection: Sequence[str]) -> list[str]:
    """The tests of ``selection`` that fail on the unmutated copy: mutmut needs a corpus
    that passes, or it cannot tell a mutant's failure from the corpus's own."""
    completed = subprocess.run(
        [sys.executable, "-c", _PREFLIGHT, *selection],
        cwd=work,
        env=_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode not in (0, 1):  # 1: some test failed; else pytest itself did
        tail = (completed.stdout + completed.stderr)[-3000:]
        raise SystemExit(f"the corpus does not run (pytest exit {completed.returncode}):\n{tail}")
    return [
        line.split("\t", 1)[1]
        for line in completed.stdout.splitlines()
        if line.startswith("FAILED\t")
    ]


def deselect(work: Path, nodeids: Sequence[str]) -> None:
    """Leave ``nodeids`` out of the run: ``--deselect`` options added to the work folder's
    ``pytest_add_cli_args`` (its pyproject.toml is a copy, rewritten at every run)."""
    pyproject = work / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    with pyproject.open("rb") as file:
        arguments = list(tomllib.load(file)["tool"]["mutmut"].get("pytest_add_cli_args", []))
    for nodeid in nodeids:
        arguments += ["--deselect", nodeid]
    line = "pytest_add_cli_args = [" + ", ".join(json.dumps(a) for a in arguments) + "]"
    pattern = re.compile(r"^pytest_add_cli_args\s*=.*$", re.MULTILINE)
    if pattern.search(text):
        text = pattern.sub(lambda _: line, text, count=1)
    else:
        text = text.replace("[tool.mutmut]\n", f"[tool.mutmut]\n{line}\n", 1)
    pyproject.write_text(text, encoding="utf-8")


def _environment() -> dict[str, str]:
    environment = dict(os.environ)
    environment.pop("PYTHONPATH", None)  # the copy alone must provide the sources
    return environment


def run_mutmut(work: Path, max_children: int, names: Sequence[str]) -> float:
    """Run ``mutmut run`` in ``work``; returns the wall time in seconds."""
    mutmut = Path(sys.executable).with_name("mutmut")
    if not mutmut.exists():
        raise SystemExit(f"{mutmut} is missing: pip install -e '.[test,mutate]'")
    command = [str(mutmut), "run", "--max-children", str(max_children), *names]
    start = time.monotonic()
    completed = subprocess.run(command, cwd=work, env=_environment(), check=False)
    seconds = time.monotonic() - start
    if completed.returncode != 0:
        raise SystemExit(f"mutmut run failed (exit status {completed.returncode}) in {work}")
    return seconds


def verdict(exit_code: int | None) -> str:
    from mutmut.stats import status_by_exit_code

    if exit_code is None:
        return NOT_RUN
    status = status_by_exit_code[exit_code]
    if status in (KILLED, TIMEOUT, SURVIVED, NO_TESTS):
        return str(status)
    if status in ("skipped", "caught by type check"):
        return SKIPPED
    return OTHER


def _meta(work: Path, path: str) -> dict[str, Any]:
    meta = work / "mutants" / f"{path}.meta"
    if not meta.exists():
        raise SystemExit(f"{meta} is missing: run `python bench/mutation.py run` first")
    data: dict[str, Any] = json.loads(meta.read_text(encoding="utf-8"))
    return data


def possible_mutants(work: Path, path: str) -> int:
    """How many mutants mutmut makes of the whole of ``path`` (in the work folder's plain
    Python copy), whatever lines the corpus runs."""
    from mutmut.mutation.file_mutation import mutate_file_contents

    here = Path.cwd()
    os.chdir(work)  # mutmut reads its configuration from the current folder
    try:
        source = Path(path).read_text(encoding="utf-8")
        return len(mutate_file_contents(path, source).mutant_names)
    finally:
        os.chdir(here)


def scores(work: Path, settings: Settings) -> list[ModuleScore]:
    result = []
    for path in settings.only_mutate:
        meta = _meta(work, path)
        counts = Counter({name: 0 for name in VERDICTS})
        counts.update(verdict(code) for code in meta["exit_code_by_key"].values())
        durations = [float(value) for value in meta["durations_by_key"].values()]
        possible = possible_mutants(work, path)
        result.append(ModuleScore(path, dict(counts), sum(durations), len(durations), possible))
    return result


def survivors(work: Path, settings: Settings) -> list[tuple[str, str]]:
    """Every mutant the corpus did not kill, with its verdict."""
    found = []
    for path in settings.only_mutate:
        for name, code in _meta(work, path)["exit_code_by_key"].items():
            status = verdict(code)
            if status not in (KILLED, TIMEOUT, SKIPPED):
                found.append((name, status))
    return found


def unmutated_functions(root: Path, path: str) -> list[str]:
    """The functions of ``path`` that mutmut leaves alone: decorated ones (other than
    ``staticmethod``, ``classmethod`` and the numba decorator dropped in the copy)."""
    tree = ast.parse((root / path).read_text(encoding="utf-8"))
    found = []

    def decorator_name(node: ast.expr) -> str:
        return ast.unparse(node.func if isinstance(node, ast.Call) else node)

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names = [decorator_name(item) for item in node.decorator_list]
                kept = [name for name in names if name != "nb.njit"]
                if kept and kept not in (["staticmethod"], ["classmethod"]):
                    found.append(f"{prefix}{node.name} (@{', @'.join(kept)})")

    visit(tree.body, "")
    return found


def _percent(part: int, whole: int) -> float:
    return 100 * part / whole if whole else 0.0


def print_scores(rows: Sequence[ModuleScore], seconds: float | None) -> tuple[float, float]:
    """The table of verdicts; returns the score of the mutants made and that of every
    possible mutant (the ones of lines no scenario runs counted as not killed)."""
    header = ("module", "possible", "unreached", "mutants", *VERDICTS, "score", "of all")
    print(f"{header[0]:38}" + "".join(f"{name:>10}" for name in header[1:]))

    def line(name: str, cells: Sequence[int], caught: int, scored: int, possible: int) -> None:
        score, overall = _percent(caught, scored), _percent(caught, possible)
        print(
            f"{name:38}"
            + "".join(f"{cell:>10}" for cell in cells)
            + f"{score:>9.1f}%{overall:>9.1f}%"
        )

    for row in rows:
        cells = [row.possible, row.unreached, row.total, *(row.counts[v] for v in VERDICTS)]
        line(row.path, cells, row.caught, row.scored, row.possible)
    sums = [
        sum(row.possible for row in rows),
        sum(row.unreached for row in rows),
        sum(row.total for row in rows),
        *(sum(row.counts[v] for row in rows) for v in VERDICTS),
    ]
    caught = sum(row.caught for row in rows)
    scored = sum(row.scored for row in rows)
    possible = sum(row.possible for row in rows)
    line("all", sums, caught, scored, possible)
    tested = sum(row.tested for row in rows)
    per_mutant = sum(row.seconds for row in rows) / tested if tested else 0.0
    print(f"test time per mutant run {per_mutant:.2f} s (one worker)", end="")
    print(f"; wall time of the run {seconds / 60:.1f} min" if seconds is not None else "")
    return _percent(caught, scored), _percent(caught, possible)


def write_summary(
    work: Path, root: Path, settings: Settings, rows: Sequence[ModuleScore], seconds: float | None
) -> Path:
    caught = sum(row.caught for row in rows)
    summary = {
        "score": round(_percent(caught, sum(row.scored for row in rows)), 2),
        "score_of_all": round(_percent(caught, sum(row.possible for row in rows)), 2),
        "wall_seconds": None if seconds is None else round(seconds, 1),
        "modules": {
            row.path: {
                "possible": row.possible,
                "unreached": row.unreached,
                "mutants": row.total,
                **row.counts,
                "test_seconds": round(row.seconds, 1),
            }
            for row in rows
        },
        "survivors": [
            {"mutant": name, "verdict": status} for name, status in survivors(work, settings)
        ],
        "not_mutated": {path: unmutated_functions(root, path) for path in settings.only_mutate},
    }
    target = work / "mutation-summary.json"
    target.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return target


def print_survivors(work: Path, settings: Settings, names: Sequence[str]) -> None:
    """The diff of every surviving mutant (or of the named ones)."""
    os.chdir(work)  # mutmut reads its configuration and mutants from the current folder
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    wanted = list(names) or [name for name, _ in survivors(work, settings)]
    for name in wanted:
        path = next(p for p in settings.only_mutate if name.startswith(_module_of(p) + "."))
        print(get_diff_for_mutant(name, path=path))


def _module_of(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def _commit(source: Path) -> str:
    """The source tree's commit, marked ``+changes`` when its mutated modules differ from it."""

    def git(*arguments: str) -> str:
        completed = subprocess.run(
            ["git", *arguments], cwd=source, capture_output=True, text=True, check=False
        )
        return completed.stdout.strip() if completed.returncode == 0 else ""

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    return commit + ("+changes" if git("status", "--porcelain", "simulations") else "")


def _scenario_count(work: Path) -> int:
    """The scenarios of the corpus copied into ``work`` (its ``[[scenario]]`` tables)."""
    pattern = re.compile(r"^\[\[scenario\]\]", re.MULTILINE)
    return sum(
        len(pattern.findall(path.read_text(encoding="utf-8")))
        for path in (work / "tests" / "scenarios").rglob("*.toml")
    )


def _all_mutants(work: Path, settings: Settings) -> dict[str, str]:
    """Every mutant made, with its verdict (none before the first run)."""
    found: dict[str, str] = {}
    for path in settings.only_mutate:
        meta = work / "mutants" / f"{path}.meta"
        if meta.exists():
            for name, code in _meta(work, path)["exit_code_by_key"].items():
                found[name] = verdict(code)
    return found


def record_run(
    work: Path, record: dict[str, Any], before: dict[str, str], after: dict[str, str]
) -> None:
    """Add the run to ``mutation-runs.json``: a fresh full run starts the list anew."""
    if record["kind"] == "named":
        tried = [
            name for name in after if any(fnmatch.fnmatchcase(name, n) for n in record["names"])
        ]
        record["tried"] = len(tried)
        record["killed"] = sum(
            1
            for name in tried
            if before.get(name) not in (KILLED, TIMEOUT) and after[name] in (KILLED, TIMEOUT)
        )
    target = work / "mutation-runs.json"
    runs = []
    if record["kind"] != "full" and target.exists():
        runs = json.loads(target.read_text(encoding="utf-8"))
    runs.append(record)
    target.write_text(json.dumps(runs, indent=2) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("run", "report", "survivors", "doc", "check"))
    parser.add_argument("names", nargs="*", help="mutants to run or show (default: all)")
    parser.add_argument("--source", type=Path, default=ROOT, help="the tree to copy")
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK, help="the work folder")
    parser.add_argument("--keep", action="store_true", help="reuse earlier verdicts")
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--skip-failing",
        action="store_true",
        help="leave out the tests that fail unmutated (listed) instead of stopping",
    )
    parser.add_argument(
        "--scenarios", type=Path, nargs="+", default=[], help="check: the scenario files"
    )
    parser.add_argument("--fail-under", type=float, help="exit 1 below this score (per cent)")
    options = parser.parse_intermixed_args(argv)
    source, work = options.source.resolve(), options.work.resolve()
    settings = read_settings(source)
    seconds = None
    record: dict[str, Any] | None = None
    if options.command == "check":
        from mutation_check import check  # beside this script

        check(work, options.names, options.scenarios, _commit(source))
        return 0
    if options.command == "doc":
        from mutation_doc import generate  # beside this script

        for note in generate(work, CLASSES, DOC, SURVIVORS):
            print(note)
        print(f"written: {DOC}, and the survivors' table of {SURVIVORS}")
        return 0
    if options.command == "run":
        record = {
            "kind": "named" if options.names else ("kept" if options.keep else "full"),
            "names": list(options.names),
            "started": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "load_start": round(os.getloadavg()[0], 2),
            "cores": os.cpu_count(),
            "commit": _commit(source),
        }
        if not options.keep and not options.names and (work / "mutants").exists():
            shutil.rmtree(work / "mutants")
        written = sync_tree(source, work, frozenset(settings.only_mutate))
        drop_stale_copies(work, settings)
        print(f"{work}: {written} files copied from {source}", flush=True)
        failing = failing_tests(work, settings.selection)
        if failing and not options.skip_failing:
            listed = "\n  ".join(failing)
            raise SystemExit(f"the corpus does not pass unmutated:\n  {listed}")
        if failing:
            print(f"left out, failing unmutated: {len(failing)} tests", flush=True)
            for nodeid in failing:
                print(f"  {nodeid}")
            deselect(work, failing)
        record["scenarios"] = _scenario_count(work)
        before = _all_mutants(work, settings)
        seconds = run_mutmut(work, options.max_children, options.names)
    elif options.command == "survivors":
        print_survivors(work, settings, options.names)
        return 0
    rows = scores(work, settings)
    print()
    score, _ = print_scores(rows, seconds)
    if record is not None and seconds is not None:
        record.update(
            wall_seconds=round(seconds, 1), load_end=round(os.getloadavg()[0], 2), score=score
        )
        record_run(work, record, before, _all_mutants(work, settings))
    print(f"summary: {write_summary(work, source, settings, rows, seconds)}")
    if options.fail_under is not None and score < options.fail_under:
        print(f"mutation score {score:.1f}% is below {options.fail_under:.1f}%")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
