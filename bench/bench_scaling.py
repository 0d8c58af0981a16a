"""A scaling model for the service, from three measured costs, checked on a real two-node
Ray cluster on this machine.

Measured on one pinned core (``taskset -c 1``), each the median and range of ``--repeats``:

* ``c``, the compute of one shard: ``Job.run_shard`` in this process (no Ray);
* ``o``, Ray's cost per task: a job of :data:`TINY_SHARDS` shards of :data:`TINY_SIZE`
  trials each, as Ray tasks on an embedded one-CPU Ray with :data:`IN_FLIGHT` tasks in
  flight, as the server keeps many (the job put once, each task's
  arguments, scheduling, the tally sent back) against the same shards in this process,
  the difference over the shards — tiny shards, so that it is not lost in the noise of
  the compute;
* ``d``, the API server's serial cost per shard: what the job manager does with each result
  on its one event loop and store thread — merge the tally, build the progress (the tally
  as JSON and the estimate) and store the shard with it (SQLite, ``synchronous=FULL``).

The model: ``n`` worker cores run ``n / (c + o)`` shards a second, and the one server
takes at most ``1 / (d + o)`` of them (Ray's cost counted whole on the server too, as the
driver submits and collects every task: a bound on the safe side), so a job runs
``min(n / (c + o), 1 / (d + o)) × S`` trials a second for shards of ``S`` trials; past
``n* = (c + o) / (d + o)`` cores the server is the bound, and a larger shard size moves it
(``c`` grows with ``S``, ``d`` and ``o`` do not).  It is predicted at 10, 100 and 1,000
cores.

The check: a head and a worker node of one CPU each (tests/ray_nodes.py: ``ray start``
processes on 127.0.0.1), ``cardroom serve --ray-address`` joined to them, and the same job
submitted ``--repeats`` times.  On this machine the server shares the two cores with the
workers, so the prediction it is checked against charges ``d`` to them too:
``2 / (c + o + d) × S``.  The figure is the job's trials over the time from its first
shard's start to its end, as the server's own timestamps give it.

Run: ``python bench/bench_scaling.py [--hands N] [--shard-size N] [--repeats N]
[--report PATH] [--json PATH]`` (prints Markdown, and with ``--report`` writes it there;
``--json`` writes the measured times; ``make bench`` puts both in bench/results/report.md).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import cpu_model, log, machine_facts, markdown_table, write_json

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from workers.runner import RAY_LOCAL_ENVIRONMENT  # noqa: E402

for _key, _value in RAY_LOCAL_ENVIRONMENT.items():
    os.environ.setdefault(_key, _value)

import grpc  # noqa: E402

from service.api.cardroom.v1 import job_service_pb2 as pb  # noqa: E402
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc  # noqa: E402
from service.convert import mapping_to_spec  # noqa: E402
from service.jobfile import job_from_mapping  # noqa: E402
from service.local_server import LocalServer  # noqa: E402
from service.manager import _progress  # noqa: E402
from service.store import JobState, JobStore  # noqa: E402
from workers.job import Job  # noqa: E402
from workers.runner import RayRunner  # noqa: E402

CORES = (10, 100, 1000)
TINY_SHARDS = 1000
TINY_SIZE = 100
IN_FLIGHT = 16
FINISHED = (pb.JOB_STATE_SUCCEEDED, pb.JOB_STATE_FAILED, pb.JOB_STATE_CANCELLED)


def job_mapping(hands: int, shard_size: int) -> dict[str, Any]:
    return {
        "kind": "bad_beat",
        "hands": hands,
        "seed": 2024,
        "shard_size": shard_size,
        "table": {"players": 9},
    }


def spread(values: list[float], scale: float = 1.0, unit: str = "ms") -> str:
    shown = [v * scale for v in values]
    return f"{statistics.median(shown):.2f} {unit} ({min(shown):.2f}–{max(shown):.2f})"


def per_shard_costs(job: Job, repeats: int) -> tuple[list[float], list[float], list[float]]:
    """``c``, ``o`` and ``d`` per shard, ``repeats`` of each, measured in rounds."""
    shards = job.plan.count
    tiny = Job(job.model, TINY_SHARDS * TINY_SIZE, job.seed, TINY_SIZE)
    compute: list[float] = []
    overhead: list[float] = []
    serial: list[float] = []
    # Many tasks in flight, as the server keeps them: the cost of each, not a round trip's.
    with RayRunner(1, max_in_flight=IN_FLIGHT) as runner, tempfile.TemporaryDirectory() as tmp:
        runner.run(tiny)  # workers started and the kernels compiled before timing
        store = JobStore(Path(tmp) / "jobs.sqlite3")
        for _ in range(repeats):
            started = time.perf_counter()
            tallies = [job.run_shard(i) for i in range(shards)]
            c = (time.perf_counter() - started) / shards
            started = time.perf_counter()
            for i in range(TINY_SHARDS):
                tiny.run_shard(i)
            inline = time.perf_counter() - started
            started = time.perf_counter()
            runner.run(tiny)
            o = (time.perf_counter() - started - inline) / TINY_SHARDS
            record = store.create(job.kind, {"kind": job.kind}, job.trials, shards)
            store.set_state(record.id, JobState.RUNNING)
            started = time.perf_counter()
            total = job.model.empty_tally()
            for index, tally in enumerate(tallies):
                total = total.merge(tally)
                progress = _progress(job, index + 1, total)
                store.save_shard(record.id, index, job.tally_to_dict(tally), c, progress)
            d = (time.perf_counter() - started) / shards
            compute.append(c)
            overhead.append(o)
            serial.append(d)
            log(f"c {c * 1e3:.1f} ms, o {o * 1e3:.2f} ms, d {d * 1e3:.2f} ms")
        store.close()
    return compute, overhead, serial


def two_node_runs(mapping: dict[str, Any], repeats: int, root: Path) -> list[float]:
    """Trials a second of the job on a head and a worker node of one CPU each."""
    from tests.ray_nodes import ray_cluster

    rates: list[float] = []
    spec = pb.SubmitJobRequest(spec=mapping_to_spec(mapping))
    with ray_cluster(1, 1) as nodes:
        server = LocalServer(
            root / "data",
            root / "ready",
            metrics=False,
            extra=("--ray-address", nodes[0].address),
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        try:
            address = server.wait_ready()["address"]
            with grpc.insecure_channel(address) as channel:
                stub = pb_grpc.JobServiceStub(channel)
                for attempt in range(repeats + 1):  # the first warms both nodes' workers
                    job = stub.SubmitJob(spec).job
                    started = None
                    while job.state not in FINISHED:
                        if started is None and job.state == pb.JOB_STATE_RUNNING:
                            started = time.monotonic()
                        time.sleep(0.01)
                        job = stub.GetJob(pb.GetJobRequest(id=job.id)).job
                    assert job.state == pb.JOB_STATE_SUCCEEDED, job.error
                    ended = time.monotonic()
                    if attempt and started is not None:
                        rates.append(job.progress.trials_total / (ended - started))
                        log(f"two nodes: {rates[-1] / 1e6:.2f} M hands/s")
        finally:
            server.stop()
    return rates


def pin_to_cpu_1() -> int:
    """This process (and the Ray it starts) on CPU 1, as ``taskset -c 1`` would."""
    cpu = 1 if 1 in os.sched_getaffinity(0) else min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=12_000_000)
    parser.add_argument("--shard-size", type=int, default=500_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--report", type=Path, metavar="PATH", help="also write the Markdown here")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the numbers here")
    args = parser.parse_args()
    facts = machine_facts(["ray"])
    mapping = job_mapping(args.hands, args.shard_size)
    job = job_from_mapping(mapping)
    load_before = os.getloadavg()[0]

    with tempfile.TemporaryDirectory() as tmp:
        rates = two_node_runs(mapping, args.repeats, Path(tmp))
    pinned = pin_to_cpu_1()
    compute, overhead, serial = per_shard_costs(job, args.repeats)
    load_after = os.getloadavg()[0]

    c = statistics.median(compute)
    o = statistics.median(overhead)
    d = statistics.median(serial)
    size = job.shard_size
    rows = [
        ("c: one shard's compute", spread(compute, 1e3)),
        (f"o: Ray's cost per task ({TINY_SHARDS:,} tasks)", spread(overhead, 1e3)),
        ("d: the server's serial cost per shard", spread(serial, 1e3)),
    ]
    saturation = (c + o) / (d + o)
    predictions = [
        (
            f"{n:,}",
            f"{min(n / (c + o), 1 / (d + o)) * size / 1e6:,.1f} M hands/s",
            "server-bound" if n > saturation else "worker-bound",
        )
        for n in CORES
    ]
    predicted_here = 2 / (c + o + d) * size
    measured = statistics.median(rates)
    lines = [
        "# Scaling model",
        "",
        f"Machine: {cpu_model()}, {os.cpu_count()} cores; costs pinned to CPU {pinned}; "
        f"1-minute load {load_before:.2f} before, {load_after:.2f} after.",
        f"Job: bad beat, 9 players, {args.hands:,} hands in shards of {size:,} "
        f"({job.plan.count} shards); medians (range) of {args.repeats} runs.",
        "",
        *markdown_table(("per shard", "cost"), "lr", rows),
        "",
        f"Model: min(n / (c + o), 1 / (d + o)) × {size:,} hands a second on n worker cores; "
        f"the server bounds it past n* = (c + o) / (d + o) = {saturation:,.0f} cores.",
        "",
        *markdown_table(("worker cores", "predicted", "bound"), "rrl", predictions),
        "",
        "Check on a real two-node cluster (a head and a worker node of one CPU each, on this "
        "machine, the server sharing its two cores): predicted 2 / (c + o + d) × S = "
        f"{predicted_here / 1e6:.2f} M hands/s; measured {spread(rates, 1e-6, 'M hands/s')}, "
        f"{measured / predicted_here:.2f} of the prediction.",
        "",
    ]
    report = "\n".join(lines)
    print(report)
    if args.report is not None:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(report)
    if args.json is not None:
        facts |= {"load_average_at_end": load_after, "pinned_cpu": pinned}
        config = {"hands": args.hands, "shard_size": size, "shards": job.plan.count,
                  "repeats": args.repeats, "cores": CORES, "tiny_shards": TINY_SHARDS,
                  "in_flight": IN_FLIGHT}  # fmt: skip
        times = {"compute": compute, "overhead": overhead, "serial": serial, "rates": rates}
        write_json(args.json, {"machine": facts, "config": config, **times})


if __name__ == "__main__":
    main()
