"""The service's overhead, its scaling over local cores, and its memory over a long job.

Measured side by side in one run, on the same bad-beat job:

* the job through ``RayRunner`` in this process (the fan-out ``cardroom run`` uses), on
  an already started embedded Ray, against the same job submitted to an already running
  service and followed to its end — the ratio is what the service adds;
* the service with one worker CPU against two;
* the server's resident memory while a long job runs (``--memory-hands``), which must
  stay flat in the number of trials.

Each time is the median and range of ``--repeats`` runs (3 by default).

Run: ``python bench/bench_service.py [--hands N] [--repeats N] [--memory-hands N]
[--json PATH]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import grpc
from common import machine_facts, markdown_table, write_json

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from service.api.cardroom.v1 import job_service_pb2 as pb  # noqa: E402
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc  # noqa: E402
from service.jobfile import job_from_mapping  # noqa: E402
from service.local_server import LocalServer  # noqa: E402
from workers.runner import RayRunner  # noqa: E402

FINISHED = (pb.JOB_STATE_SUCCEEDED, pb.JOB_STATE_FAILED, pb.JOB_STATE_CANCELLED)


def job_mapping(hands: int, seed: int) -> dict[str, object]:
    return {
        "kind": "bad_beat",
        "hands": hands,
        "seed": seed,
        "table": {"players": 10},
        "jackpot": {"min_losing_hand": "AAATT", "quads_need_pocket_pair": True},
    }


def spec(hands: int, seed: int) -> pb.JobSpec:
    message = pb.JobSpec(trials=hands, seed=seed)
    message.bad_beat.table.players = 10
    message.bad_beat.jackpot.min_losing_hand = "AAATT"
    message.bad_beat.jackpot.quads_need_pocket_pair = True
    return message


class Service:
    def __init__(self, workers: int, root: Path) -> None:
        self.server = LocalServer(
            root / f"data-{workers}",
            root / f"ready-{workers}",
            workers=workers,
            metrics=False,
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        self.process = self.server.process
        self.address = self.server.wait_ready(timeout=float("inf"))["address"]
        self.channel = grpc.insecure_channel(self.address)
        self.stub = pb_grpc.JobServiceStub(self.channel)

    def run(self, job_spec: pb.JobSpec) -> tuple[float, pb.Job]:
        started = time.perf_counter()
        job = self.stub.SubmitJob(pb.SubmitJobRequest(spec=job_spec)).job
        for message in self.stub.WatchJob(pb.WatchJobRequest(id=job.id)):
            job = message.job
        return time.perf_counter() - started, job

    def rss_mib(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def close(self) -> None:
        self.channel.close()
        self.server.stop()


def spread(seconds: list[float]) -> str:
    """Median and range of repeated times, as the table shows them."""
    return f"{statistics.median(seconds):.2f} s ({min(seconds):.2f}–{max(seconds):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=100_000_000)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each measurement")
    parser.add_argument("--memory-hands", type=int, default=0, help="0 skips the memory run")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the numbers here")
    args = parser.parse_args()
    cpus = os.cpu_count() or 1
    facts = machine_facts(["ray", "grpcio"])
    rows: list[tuple[str, str, str]] = []
    memory: dict[str, object] = {}

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        warm = spec(2_000_000, 1)
        job = job_from_mapping(job_mapping(args.hands, 7))
        direct: list[float] = []
        with RayRunner(cpus) as runner:
            runner.run(job_from_mapping(job_mapping(2_000_000, 1)))
            for _ in range(args.repeats):
                started = time.perf_counter()
                direct_tally = runner.run(job)
                direct.append(time.perf_counter() - started)
        direct_report = job.report(direct_tally)

        times: dict[int, list[float]] = {}
        for workers in sorted({1, cpus}):
            service = Service(workers, root)
            try:
                service.run(warm)
                times[workers] = []
                for _ in range(args.repeats):
                    seconds, finished = service.run(spec(args.hands, 7))
                    times[workers].append(seconds)
                    assert finished.result.bad_beat.jackpot_hands == direct_report["jackpot_hands"]
                if workers == cpus and args.memory_hands:
                    rows.extend(memory_rows(service, args.memory_hands, memory))
            finally:
                service.close()

    direct_median = statistics.median(direct)
    rate = args.hands / direct_median
    rows.insert(0, ("RayRunner in process", spread(direct), f"{rate / 1e6:.2f} M hands/s"))
    through = statistics.median(times[cpus])
    rows.insert(
        1,
        (
            "through the service",
            spread(times[cpus]),
            f"{args.hands / through / 1e6:.2f} M hands/s; "
            f"overhead {100 * (through / direct_median - 1):+.1f} % (medians)",
        ),
    )
    if 1 in times and cpus > 1:
        one = statistics.median(times[1])
        rows.insert(
            2,
            (
                "service, 1 worker CPU",
                spread(times[1]),
                f"{cpus} CPUs run {one / through:.2f}x as fast as 1 (medians)",
            ),
        )
    print(f"\nbad-beat job, {args.hands:,} hands, 10 players; {cpus} CPUs; "
          f"median (range) of {args.repeats} runs\n")  # fmt: skip
    print("\n".join(markdown_table(("measurement", "time", "figure"), "lrl", rows)))
    if args.json is not None:
        facts["load_average_at_end"] = os.getloadavg()[0]
        payload = {
            "machine": facts,
            "config": {"hands": args.hands, "repeats": args.repeats, "cpus": cpus},
            "in_process": direct,
            "service": {str(workers): seconds for workers, seconds in times.items()},
            "memory": memory,
        }
        write_json(args.json, payload)


def memory_rows(
    service: Service, hands: int, kept: dict[str, object]
) -> list[tuple[str, str, str]]:
    """The server's RSS at the start, 10 %, 50 %, 90 % and the end of a long job; ``kept``
    is given the samples."""
    job = service.stub.SubmitJob(pb.SubmitJobRequest(spec=spec(hands, 9))).job
    samples: list[tuple[float, float]] = [(0.0, service.rss_mib())]
    marks = iter((0.1, 0.5, 0.9))
    mark = next(marks)
    started = time.perf_counter()
    while True:
        job = service.stub.GetJob(pb.GetJobRequest(id=job.id)).job
        done = job.progress.trials_done / hands
        if done >= mark:
            samples.append((done, service.rss_mib()))
            mark = next(marks, 2.0)
        if job.state in FINISHED:
            break
        time.sleep(0.5)
    samples.append((1.0, service.rss_mib()))
    seconds = time.perf_counter() - started
    kept.update(hands=hands, seconds=seconds, samples=samples)
    text = ", ".join(f"{100 * d:.0f} %: {m:.0f} MiB" for d, m in samples)
    return [(f"server RSS over a {hands:,}-hand job", f"{seconds:.0f} s", text)]


if __name__ == "__main__":
    main()
