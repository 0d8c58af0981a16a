"""GetJob on a finished job with many stored shards: the server's work per call.

A job store holds one finished bad-beat job of ``--shards`` shards (100,000 by default),
written in bulk, with its progress row as the server keeps it.  Side by side in one
process, each call timed alone:

* **GetJob now**: the service's GetJob handler — the job's row read on the store's thread,
  the API message built from it and serialized (what the server does per request, less
  the transport);
* **the previous read**: what GetJob did before progress lived in the job's row — every
  shard row read and decoded, the tallies merged and reported, the message built and
  serialized.

Figures are the median and the range (fastest to slowest) over the repeats.

Run: ``python bench/bench_store.py [--shards N] [--repeats N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import machine_facts, markdown_table, write_json
from prometheus_client import CollectorRegistry

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from service.api.cardroom.v1 import job_service_pb2 as pb  # noqa: E402
from service.auth import OPEN  # noqa: E402
from service.interceptors import CallerContext  # noqa: E402
from service.jobfile import job_from_mapping  # noqa: E402
from service.manager import JobManager  # noqa: E402
from service.metrics import ServiceMetrics  # noqa: E402
from service.scheduler import FairScheduler  # noqa: E402
from service.server import JobService, job_message  # noqa: E402
from service.store import JobRecord, JobState, JobStore, Progress  # noqa: E402

SHARD_SIZE = 1_000


class Context:
    """The little of grpc's ServicerContext that a successful GetJob touches."""

    def code(self) -> None:
        return None

    async def abort(self, code: Any, details: str) -> None:
        raise RuntimeError(f"{code}: {details}")


def fill(store: JobStore, shards: int) -> tuple[str, dict[str, Any]]:
    """One finished job of ``shards`` shards, stored as a server would have left it."""
    spec = {
        "kind": "bad_beat",
        "hands": shards * SHARD_SIZE,
        "seed": 7,
        "shard_size": SHARD_SIZE,
        "table": {"players": 9},
    }
    job = job_from_mapping(spec)
    record = store.create(job.kind, spec, job.trials, job.plan.count)
    store.set_state(record.id, JobState.RUNNING)
    tallies = [{"hands": SHARD_SIZE, "jackpot_hands": int(i % 3 == 0)} for i in range(shards)]
    tally = job.model.empty_tally()
    for data in tallies:
        tally = tally.merge(job.tally_from_dict(data))
    db = store._db  # a bulk insert: one transaction instead of one per shard
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO shards (job_id, shard, tally, seconds) VALUES (?, ?, ?, 0.2)",
        ((record.id, i, json.dumps(data)) for i, data in enumerate(tallies)),
    )
    db.execute("COMMIT")
    report = job.report(tally)
    store.set_progress(record.id, Progress(shards, tally.trials, job.tally_to_dict(tally), report))
    store.set_state(record.id, JobState.SUCCEEDED, result=report)
    return record.id, spec


def previous_read(store: JobStore, job_id: str) -> bytes:
    """GetJob as it was: the job rebuilt from every one of its shard rows."""
    record = store.get(job_id)
    assert record is not None
    job = job_from_mapping(record.spec)
    tally = job.model.empty_tally()
    for data in store.shard_tallies(job_id).values():
        tally = tally.merge(job.tally_from_dict(data))
    rebuilt = JobRecord(
        **{
            **record.__dict__,
            "shards_done": len(store.shard_indices(job_id)),
            "trials_done": tally.trials,
            "estimate": job.report(tally),
        }
    )
    return job_message(rebuilt).SerializeToString()  # type: ignore[no-any-return]


def summary(seconds: list[float]) -> tuple[float, float, float]:
    return statistics.median(seconds), min(seconds), max(seconds)


def ms(value: float) -> str:
    return f"{value * 1e3:.3f} ms"


async def measure(store: JobStore, job_id: str, repeats: int, baseline_repeats: int) -> list[Any]:
    metrics = ServiceMetrics(CollectorRegistry(), store.counts)
    # No shard runs here: no worker pool, so the scheduler is given (one slot) rather
    # than sized from the pool's tasks in flight.
    no_pool: Any = None
    manager = JobManager(store, no_pool, metrics, max_trials=10**13, scheduler=FairScheduler(1))
    service = JobService(manager)
    request = pb.GetJobRequest(id=job_id)
    context = CallerContext(Context(), OPEN)  # type: ignore[arg-type]  # as the interceptor does

    async def get_job() -> bytes:
        response = await service.GetJob(request, context)  # type: ignore[arg-type]
        return response.SerializeToString()  # type: ignore[no-any-return]

    now_answer = await get_job()  # warm: the store's thread started, pages cached
    before_answer = previous_read(store, job_id)
    if pb.GetJobResponse.FromString(now_answer).job != pb.Job.FromString(before_answer):
        raise SystemExit("the two reads give different jobs")
    now: list[float] = []
    before: list[float] = []
    for round_ in range(repeats):  # interleaved, so that both meet the same load
        start = time.perf_counter()
        await get_job()
        now.append(time.perf_counter() - start)
        if round_ < baseline_repeats:
            start = time.perf_counter()
            previous_read(store, job_id)
            before.append(time.perf_counter() - start)
    await manager.close()
    return [now, before]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shards", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=1_000)
    parser.add_argument("--baseline-repeats", type=int, default=15)
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the times here")
    args = parser.parse_args(argv)
    facts = machine_facts(["grpcio", "protobuf"])
    with tempfile.TemporaryDirectory() as root:
        store = JobStore(Path(root) / "jobs.sqlite3")
        started = time.perf_counter()
        job_id, _ = fill(store, args.shards)
        print(f"filled {args.shards:,} shards in {time.perf_counter() - started:.1f} s",
              file=sys.stderr)  # fmt: skip
        now, before = asyncio.run(measure(store, job_id, args.repeats, args.baseline_repeats))
    now_median, now_low, now_high = summary(now)
    before_median, before_low, before_high = summary(before)
    print(f"GetJob on a finished job of {args.shards:,} stored shards — server work per call")
    load = facts["load_average_at_start"]
    print(f"({facts['cpu_model']}, {facts['cpu_count']} CPUs, load {load:.2f})")
    print()
    rows = [
        ("GetJob now (one row)", len(now), ms(now_median), f"{ms(now_low)} – {ms(now_high)}"),
        ("the previous read (every shard row)", len(before), ms(before_median),
         f"{ms(before_low)} – {ms(before_high)}"),
    ]  # fmt: skip
    for line in markdown_table(("read", "calls", "median", "range"), "lrrr", rows):
        print(line)
    print()
    print(f"the previous read takes {before_median / now_median:,.0f}× as long (medians)")
    target = now_median < 1e-3
    print(f"target: under 1 ms of server work per GetJob — {'met' if target else 'NOT met'}")
    if args.json is not None:
        facts["load_average_at_end"] = os.getloadavg()[0]
        config = {"shards": args.shards, "repeats": args.repeats}
        write_json(args.json, {"machine": facts, "config": config, "now": now, "before": before})
    return 0 if target else 1


if __name__ == "__main__":
    sys.exit(main())
