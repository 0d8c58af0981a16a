"""The service under load on loopback: requests per second and p99 latency of SubmitJob and
GetJob with 10,000 stored jobs, beside the same load on a store of 100, and the server's
resident memory over the rounds.

The load is tests/load.py's (what tests/test_load.py checks): ``--clients`` threads, each
with its own channel, each submitting ``--submits`` small bad-beat jobs a round (2,000
hands), following each to its end with WatchJob, with ``--reads`` GetJob calls on random
stored jobs after each submission.  The stores are filled directly before each server
starts (see tests/load.py: one job run and stored as the server stores it, its row copied
under new ids), not through the API.

Rates are calls completed per second of a round's wall time, within this mixed load (a
SubmitJob rate is bounded by the jobs it starts); after each mixed round the same clients
make ``--alone`` GetJob calls each with nothing else running ("GetJob alone").  p99 is a
round's 99th-percentile call latency.  Each figure is the median and range over
``--rounds`` rounds after one warm-up round, the two servers' rounds interleaved so that a
change of machine load touches both.  Pin it to one core for figures comparable across runs:
``taskset -c 1 python bench/bench_load.py`` (the servers and their Ray worker inherit the
pin).  The 1-minute load average is printed with the figures.

Run: ``python bench/bench_load.py [--stored N] [--rounds N] [--clients N] [--json PATH]``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from common import machine_facts, markdown_table, write_json

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from service.local_server import LocalServer  # noqa: E402
from tests.load import Calls, fill_store, rss_bytes, run_round, summary  # noqa: E402


@contextlib.contextmanager
def server(root: Path, name: str, stored: int) -> Iterator[tuple[LocalServer, str, list[str]]]:
    data = root / name
    data.mkdir()
    ids = fill_store(data, stored)
    local = LocalServer(data, root / f"{name}.ready", workers=1, metrics=False)
    try:
        address = local.wait_ready()["address"]
        yield local, address, ids
    finally:
        local.stop()


def spread(values: list[float], scale: float, unit: str, digits: int = 1) -> str:
    median, low, high = (v * scale for v in summary(values))
    return f"{median:.{digits}f} {unit} ({low:.{digits}f}–{high:.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stored", type=int, default=10_000)
    parser.add_argument("--baseline-stored", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--submits", type=int, default=5)
    parser.add_argument("--reads", type=int, default=20)
    parser.add_argument("--alone", type=int, default=200, help="GetJob calls a client, alone")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the numbers here")
    args = parser.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    facts = machine_facts(["grpcio", "ray"])
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        with (
            server(root, "baseline", args.baseline_stored) as (base, base_address, base_ids),
            server(root, "stored", args.stored) as (big, big_address, big_ids),
        ):
            runs: dict[str, list[Calls]] = {"baseline": [], "stored": []}
            alone: dict[str, list[Calls]] = {"baseline": [], "stored": []}
            rss: dict[str, list[int]] = {"baseline": [], "stored": []}
            targets = {
                "baseline": (base, base_address, base_ids),
                "stored": (big, big_address, big_ids),
            }
            for round_ in range(args.rounds + 1):  # round 0 warms both up
                for name, (local, address, ids) in targets.items():
                    calls = run_round(
                        address,
                        ids,
                        clients=args.clients,
                        submits=args.submits,
                        reads=args.reads,
                        seed=round_,
                    )
                    reads = run_round(
                        address, ids, clients=args.clients, submits=0, reads=args.alone, seed=round_
                    )
                    if calls.errors or reads.errors:
                        raise SystemExit(f"{name}: {(calls.errors + reads.errors)[:3]}")
                    rss[name].append(rss_bytes(local.process.pid))
                    if round_:
                        runs[name].append(calls)
                        alone[name].append(reads)
    load = os.getloadavg()[0]
    rows = []
    for name, stored in (("stored", args.stored), ("baseline", args.baseline_stored)):
        for method in ("SubmitJob", "GetJob"):
            rows.append(
                (
                    f"{method}, {stored:,} stored jobs",
                    spread([c.rate(method) for c in runs[name]], 1, "/s", 0),
                    spread([c.p99(method) for c in runs[name]], 1e3, "ms"),
                    spread([c.median(method) for c in runs[name]], 1e3, "ms"),
                )
            )
        rows.append(
            (
                f"GetJob alone, {stored:,} stored jobs",
                spread([c.rate("GetJob") for c in alone[name]], 1, "/s", 0),
                spread([c.p99("GetJob") for c in alone[name]], 1e3, "ms"),
                spread([c.median("GetJob") for c in alone[name]], 1e3, "ms"),
            )
        )
    print(
        f"\n{args.clients} clients, {args.submits} jobs each a round, {args.reads} reads a job, "
        f"then {args.alone} reads each alone; "
        f"median (range) of {args.rounds} rounds; CPUs {cpus}; 1-minute load {load:.2f}\n"
    )
    print("\n".join(markdown_table(("calls", "rate", "p99", "median"), "lrrr", rows)))
    for name in ("stored", "baseline"):
        mib = ", ".join(f"{value / 2**20:.0f}" for value in rss[name])
        print(f"\nserver RSS after each round ({name}, warm-up first): {mib} MiB")
    if args.json is not None:
        stored_counts = {"stored": args.stored, "baseline": args.baseline_stored}
        servers = {
            name: {
                "stored": stored_counts[name],
                "mixed": per_method(runs[name], ("SubmitJob", "GetJob")),
                "alone": per_method(alone[name], ("GetJob",)),
                "rss_bytes": rss[name],
            }
            for name in runs
        }
        facts["load_average_at_end"] = load
        facts["cpus"] = cpus
        write_json(args.json, {"machine": facts, "config": vars(args) | {"json": None},
                               "servers": servers})  # fmt: skip


def per_method(rounds: list[Calls], methods: tuple[str, ...]) -> dict[str, dict[str, list[float]]]:
    """Each method's rate (calls/s), p99 and median latency (s), one value a round."""
    return {
        method: {
            "rate": [c.rate(method) for c in rounds],
            "p99": [c.p99(method) for c in rounds],
            "median": [c.median(method) for c in rounds],
        }
        for method in methods
    }


if __name__ == "__main__":
    main()
