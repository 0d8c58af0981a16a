"""A bounded loopback load on a real server: the driver tests/test_load.py checks and
bench/bench_load.py measures.

The store is filled **directly**, before the server starts: one small bad-beat job is run
in this process and stored through :class:`~service.store.JobStore` as the server stores a
finished job (its spec, progress and result), and its row is copied under new ids, in one
transaction, until the store holds the number of jobs asked for.  Submitting them through
the API instead would run every one of them on Ray, minutes of work that measures nothing
the load does not.

Then client threads, each with its own channel, run rounds: each submits small jobs,
follows each with WatchJob to its end, and reads stored jobs with GetJob in between.  Every
call has a deadline.  Each call's latency is recorded, and the server process's resident
memory (VmRSS from /proc) is read after every round.
"""

from __future__ import annotations

import contextlib
import random
import sqlite3
import statistics
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.jobfile import job_from_mapping
from service.store import JobState, JobStore, Progress
from workers.runner import InlineRunner

DEADLINE = 60.0  # seconds per call; WatchJob's for the whole stream
FINISHED = (pb.JOB_STATE_SUCCEEDED, pb.JOB_STATE_FAILED, pb.JOB_STATE_CANCELLED)
SMALL_HANDS = 2_000


def small_spec(seed: int) -> pb.JobSpec:
    spec = pb.JobSpec(trials=SMALL_HANDS, seed=seed)
    spec.bad_beat.table.players = 6
    return spec


def fill_store(data_dir: Path, jobs: int) -> list[str]:
    """``jobs`` finished jobs in the store of ``data_dir`` (see the module's text); their ids."""
    mapping = {"kind": "bad_beat", "hands": SMALL_HANDS, "seed": 1, "table": {"players": 6}}
    job = job_from_mapping(mapping)
    tally = InlineRunner().run(job)
    report = job.report(tally)
    path = data_dir / "jobs.sqlite3"
    store = JobStore(path)
    try:
        canonical = {**mapping, "shard_size": job.shard_size}
        record = store.create(job.kind, canonical, job.trials, job.plan.count)
        store.set_state(record.id, JobState.RUNNING)
        progress = Progress(job.plan.count, tally.trials, job.tally_to_dict(tally), report)
        store.set_progress(record.id, progress)
        store.set_state(record.id, JobState.SUCCEEDED, result=report)
        template = record.id
    finally:
        store.close()
    ids = [template] + [f"job-{i:012x}" for i in range(1, jobs)]
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(jobs)")]
        copied = [c for c in columns if c not in ("seq", "id")]
        names = ", ".join(copied)
        db.execute("BEGIN")
        db.executemany(
            f"INSERT INTO jobs (id, {names}) SELECT ?, {names} FROM jobs WHERE id = ?",
            ((job_id, template) for job_id in ids[1:]),
        )
        db.execute("COMMIT")
        (count,) = db.execute("SELECT COUNT(*) FROM jobs").fetchone()
    assert count == jobs, count
    return ids


def rss_bytes(pid: int) -> int:
    """The resident memory of process ``pid`` (VmRSS in /proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


@dataclass
class Calls:
    """One round's calls: each latency in seconds, by method, and the round's wall time."""

    latencies: dict[str, list[float]] = field(
        default_factory=lambda: {"SubmitJob": [], "GetJob": [], "WatchJob": []}
    )
    seconds: float = 0.0
    submitted: list[str] = field(default_factory=list)
    results: dict[str, pb.Job] = field(default_factory=dict)
    read: dict[str, pb.Job] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def rate(self, method: str) -> float:
        return len(self.latencies[method]) / self.seconds

    def p99(self, method: str) -> float:
        values = sorted(self.latencies[method])
        return values[min(len(values) - 1, int(0.99 * len(values)))]

    def median(self, method: str) -> float:
        return statistics.median(self.latencies[method])


@contextlib.contextmanager
def _timed(calls: Calls, method: str, lock: threading.Lock) -> Iterator[None]:
    start = time.perf_counter()
    yield
    elapsed = time.perf_counter() - start
    with lock:
        calls.latencies[method].append(elapsed)


def run_round(
    address: str,
    stored: list[str],
    *,
    clients: int,
    submits: int,
    reads: int,
    seed: int,
) -> Calls:
    """Each of ``clients`` threads submits ``submits`` small jobs, following each to its
    end, with ``reads`` GetJob calls on stored jobs after each submission; with no
    submissions, each makes ``reads`` GetJob calls alone."""
    calls = Calls()
    lock = threading.Lock()

    def client(index: int) -> None:
        chooser = random.Random(seed * 1_000 + index)
        with grpc.insecure_channel(address) as channel:
            stub = pb_grpc.JobServiceStub(channel)
            if not submits:  # reads alone
                try:
                    for _ in range(reads):
                        job_id = chooser.choice(stored)
                        with _timed(calls, "GetJob", lock):
                            got = stub.GetJob(pb.GetJobRequest(id=job_id), timeout=DEADLINE).job
                        with lock:
                            calls.read[job_id] = got
                except grpc.RpcError as err:
                    with lock:
                        calls.errors.append(f"client {index}: {err!r}")
                return
            for n in range(submits):
                try:
                    with _timed(calls, "SubmitJob", lock):
                        job = stub.SubmitJob(
                            pb.SubmitJobRequest(spec=small_spec(seed * 10_000 + index * 100 + n)),
                            timeout=DEADLINE,
                        ).job
                    with lock:
                        calls.submitted.append(job.id)
                    for _ in range(reads):
                        job_id = chooser.choice(stored)
                        with _timed(calls, "GetJob", lock):
                            got = stub.GetJob(pb.GetJobRequest(id=job_id), timeout=DEADLINE).job
                        with lock:
                            calls.read[job_id] = got
                    last: pb.Job | None = None
                    with _timed(calls, "WatchJob", lock):
                        for update in stub.WatchJob(
                            pb.WatchJobRequest(id=job.id), timeout=DEADLINE
                        ):
                            last = update.job
                    assert last is not None
                    with lock:
                        calls.results[job.id] = last
                except (grpc.RpcError, AssertionError) as err:
                    with lock:
                        calls.errors.append(f"client {index}: {err!r}")
                    return

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    calls.seconds = time.perf_counter() - start
    return calls


def all_job_ids(address: str) -> list[str]:
    """Every job id the server lists, paging through ListJobs."""
    ids: list[str] = []
    token = ""
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.JobServiceStub(channel)
        while True:
            page = stub.ListJobs(
                pb.ListJobsRequest(page_size=1_000, page_token=token), timeout=DEADLINE
            )
            ids += [job.id for job in page.jobs]
            token = page.next_page_token
            if not token:
                return ids


def summary(values: list[float]) -> tuple[float, float, float]:
    """Median, lowest and highest."""
    return statistics.median(values), min(values), max(values)


def describe(calls: Any) -> str:
    return ", ".join(
        f"{method} {calls.rate(method):.0f}/s p99 {calls.p99(method) * 1e3:.1f} ms"
        for method in ("SubmitJob", "GetJob")
    )
