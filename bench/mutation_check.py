"""Surviving mutants tried against scenario files written after a mutation run
(``python bench/mutation.py check NAME… --scenarios FILE…``).

A named ``mutmut run`` tries survivors again with the whole corpus, but it first traces the
whole corpus once more, which on a loaded machine can take longer than the mutants
themselves.  This command runs only the given scenario files, through ``cardroom verify``,
in the run's own mutant tree (``build/mutation/mutants``) with each mutant made active the
way mutmut makes it active (the ``MUTANT_UNDER_TEST`` variable its trampolines read): the
same mutants, numbered as the run numbered them, the same engine.  A mutant is killed when
some scenario fails or is refused on it; the files must pass with no mutant active first.
The result is added to ``mutation-runs.json`` as a step of its own (``kind = "checked"``),
which ``doc`` reports beside the run's own verdicts.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_VERIFY = "import sys\nfrom service.cli import main\nsys.exit(main(['verify', *sys.argv[1:]]))\n"


def verify_exit(mutants: Path, name: str, files: Sequence[Path]) -> int:
    """``cardroom verify`` of ``files`` in the mutant tree with ``name`` active ("" for
    none): 0 when every scenario passes."""
    environment = dict(os.environ, MUTANT_UNDER_TEST=name, PYTHONPATH=".")
    completed = subprocess.run(
        [sys.executable, "-c", _VERIFY, *(str(path) for path in files)],
        cwd=mutants,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    return completed.returncode


def check(work: Path, names: Sequence[str], files: Sequence[Path], commit: str) -> dict[str, Any]:
    """Try each mutant of ``names`` against ``files``; returns the step's record (written to
    ``mutation-runs.json`` too)."""
    mutants = work / "mutants"
    if not mutants.is_dir():
        raise SystemExit(f"{mutants} is missing: run `python bench/mutation.py run` first")
    if not names or not files:
        raise SystemExit("check needs mutant names and --scenarios files")
    paths = [path.resolve() for path in files]
    started = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    load_start = round(os.getloadavg()[0], 2)
    begin = time.monotonic()
    if verify_exit(mutants, "", paths) != 0:
        raise SystemExit("the scenario files do not pass with no mutant active")
    killed = []
    for name in names:
        code = verify_exit(mutants, name, paths)
        print(f"{'killed' if code else 'survived'}\t{name}", flush=True)
        if code:
            killed.append(name)
    record = {
        "kind": "checked",
        "names": list(names),
        "scenario_files": [path.name for path in paths],
        "started": started,
        "load_start": load_start,
        "load_end": round(os.getloadavg()[0], 2),
        "cores": os.cpu_count(),
        "commit": commit,
        "wall_seconds": round(time.monotonic() - begin, 1),
        "tried": len(names),
        "killed": len(killed),
        "killed_names": killed,
    }
    target = work / "mutation-runs.json"
    runs = json.loads(target.read_text(encoding="utf-8")) if target.exists() else []
    runs.append(record)
    target.write_text(json.dumps(runs, indent=2) + "\n", encoding="utf-8")
    print(f"{len(killed)} of {len(names)} killed")
    return record
