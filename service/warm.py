"""Fill numba's cache: run a small job of every kind once, in this process.

``python -m service.warm [JOB_FILE ...]`` reads each job file (by default the job files
in ``examples/``), cuts its trials down to :data:`WARM_TRIALS` in two shards, runs it with
:class:`workers.runner.InlineRunner` and makes its report, so that numba compiles every
kernel the job calls and, with ``NUMBA_CACHE_DIR`` set, writes each to its cache.  The
image build runs it (Dockerfile), so that a new pod loads the kernels instead of compiling
them on its first shard of each kind.  It exits 1 when a kind of :data:`service.kinds.KINDS`
had no job among the files, or when ``NUMBA_CACHE_DIR`` is set and holds no cached kernel
afterwards.

numba keys each cached kernel by the CPU it was compiled for (name and features): a cache
built on one machine is used where ``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES`` give the
same target, which the image fixes for every node.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from service.jobfile import JobFileError, job_from_mapping, read_job_mapping
from service.kinds import KINDS
from simulations.spec import SpecError
from workers.runner import InlineRunner

WARM_TRIALS = 2_000
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def small(data: dict[str, object]) -> dict[str, object]:
    """The job ``data`` describes, cut to :data:`WARM_TRIALS` trials in two shards."""
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise SpecError("kind", f"not a kind of job offered here: {kind!r}")
    return {
        **data,
        KINDS[kind].trials_field: WARM_TRIALS,
        "shard_size": WARM_TRIALS // 2,
        "seed": 1,
    }


def warm(path: Path) -> tuple[str, float]:
    """Run ``path``'s job, cut small, and make its report; its kind and the seconds taken."""
    started = time.perf_counter()
    try:
        job = job_from_mapping(small(read_job_mapping(path)))
    except SpecError as err:
        raise JobFileError(f"{path}: {err}") from None
    job.report(InlineRunner().run(job))
    return job.kind, time.perf_counter() - started


def cached_kernels(cache_dir: Path) -> int:
    """The kernels numba has cached under ``cache_dir`` (its index files)."""
    return sum(1 for _ in cache_dir.rglob("*.nbi")) if cache_dir.is_dir() else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m service.warm",
        description="Run a small job of every kind once, so that numba caches its kernels.",
    )
    parser.add_argument(
        "jobs",
        nargs="*",
        type=Path,
        help=f"job files (default: {EXAMPLES}/*.toml)",
    )
    args = parser.parse_args(argv)
    paths: list[Path] = args.jobs or sorted(EXAMPLES.glob("*.toml"))
    warmed: set[str] = set()
    for path in paths:
        try:
            kind, seconds = warm(path)
        except JobFileError as err:
            print(f"warm: {err}", file=sys.stderr)
            return 1
        warmed.add(kind)
        print(f"warm: {path.name}: {kind}, {WARM_TRIALS:,} trials in {seconds:.1f} s")
    missing = sorted(set(KINDS) - warmed)
    if missing:
        print(f"warm: no job of kind {', '.join(missing)} among the files", file=sys.stderr)
        return 1
    cache = os.environ.get("NUMBA_CACHE_DIR")
    if cache:
        count = cached_kernels(Path(cache))
        if count == 0:
            print(f"warm: NUMBA_CACHE_DIR={cache} holds no cached kernel", file=sys.stderr)
            return 1
        print(f"warm: {count} kernels cached in {cache}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
