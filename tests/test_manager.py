"""The job manager over a worker pool whose slots the test controls: when a job is queued
and when running, resuming stored jobs (one that no longer validates among them), and a
store written by the first schema carrying on to the result of an uninterrupted run."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from prometheus_client import CollectorRegistry

from service.jobfile import job_from_mapping
from service.manager import JobManager
from service.metrics import ServiceMetrics
from service.store import JobState, JobStore, Progress
from service.stores import Store
from tests import dice_kind
from tests.test_store import write_schema_1_store
from workers.job import Job
from workers.runner import InlineRunner

T = TypeVar("T")
SPEC = {"kind": "bad_beat", "hands": 30, "seed": 5, "shard_size": 10, "table": {"players": 6}}


class GatedPool:
    """The ShardPool's interface with ``slots`` worker slots; shards wait for ``gate``."""

    def __init__(self, slots: int) -> None:
        self.max_in_flight = slots
        self.gate = asyncio.Event()
        self.started: list[tuple[int, int]] = []  # (job seed, shard index), in order
        self.in_flight = 0

    async def run(self, job_key: str, job: Job, index: int) -> tuple[Any, float]:
        self.started.append((job.seed, index))
        self.in_flight += 1
        try:
            await self.gate.wait()
        finally:
            self.in_flight -= 1
        return job.run_shard(index), 0.01

    def forget(self, job_key: str) -> None:
        pass


def run_manager(
    path: Path | Callable[[], Store],
    slots: int,
    body: Callable[[JobManager, GatedPool], Awaitable[T]],
) -> T:
    """``body`` run with a manager over the store at ``path`` (or the one ``path`` opens)."""

    async def main() -> T:
        store = JobStore(path) if isinstance(path, Path) else path()
        pool = GatedPool(slots)
        metrics = ServiceMetrics(CollectorRegistry(), store.counts)
        manager = JobManager(store, pool, metrics, max_trials=10**9)  # type: ignore[arg-type]
        try:
            return await body(manager, pool)
        finally:
            await manager.close()

    return asyncio.run(main())


async def settle() -> None:
    for _ in range(50):
        await asyncio.sleep(0.01)


async def finished(manager: JobManager, job_id: str) -> Any:
    async for record in manager.watch(job_id):
        if record.state.finished:
            return record
    raise AssertionError("watch ended before the job did")


def local_report(spec: dict[str, Any]) -> dict[str, Any]:
    """The report of the same job run start to finish in this process."""
    local = job_from_mapping(spec)
    return local.report(InlineRunner().run(local))


def test_a_job_is_queued_until_a_worker_slot_takes_its_first_shard(tmp_path: Path) -> None:
    """With 12 jobs submitted, 9 showed "running 0/20": a job waiting for a slot must say
    queued, and `list --state queued` must find it."""

    async def body(manager: JobManager, pool: GatedPool) -> None:
        ids = [(await manager.submit({**SPEC, "seed": seed})).id for seed in (1, 2, 3)]
        await settle()
        states = [(await manager.get(job_id)).state for job_id in ids]
        assert states == [JobState.RUNNING, JobState.QUEUED, JobState.QUEUED]
        assert pool.started == [(1, 0), (1, 1)]  # the first job holds both slots
        queued, _ = await manager.page(size=10, token="", state=JobState.QUEUED, kind="")
        assert sorted(r.id for r in queued) == sorted(ids[1:])
        # Cancelling a queued job: it never reaches a worker.
        assert (await manager.cancel(ids[2])).state is JobState.CANCELLED
        pool.gate.set()
        done = [await finished(manager, job_id) for job_id in ids]
        assert [r.state for r in done] == [
            JobState.SUCCEEDED,
            JobState.SUCCEEDED,
            JobState.CANCELLED,
        ]
        assert all(seed != 3 for seed, _ in pool.started)
        # Jobs took their turns in order: job 2's shards followed job 1's.
        assert [seed for seed, _ in pool.started] == [1, 1, 1, 2, 2, 2]
        assert done[0].result == local_report({**SPEC, "seed": 1})
        assert done[0].estimate == done[0].result and done[0].shards_done == 3

    run_manager(tmp_path / "jobs.sqlite3", 2, body)


def test_resume_fails_a_stored_job_that_no_longer_validates_and_runs_the_rest(
    tmp_path: Path,
) -> None:
    """One stored spec that no longer validated stopped the server from starting at all."""
    path = tmp_path / "jobs.sqlite3"
    store = JobStore(path)
    bad = store.create("bad_beat", {**SPEC, "table": {"players": 99}}, 30, 3)
    store.set_state(bad.id, JobState.RUNNING)
    good = store.create("bad_beat", SPEC, 30, 3)
    store.set_state(good.id, JobState.RUNNING)
    store.close()

    async def body(manager: JobManager, pool: GatedPool) -> None:
        assert await manager.resume() == (1, 1)
        failed = await manager.get(bad.id)
        assert failed.state is JobState.FAILED
        assert "stored specification is no longer valid: table.players" in failed.error
        # Interrupted while running, it waits for a slot again before it runs.
        pool.gate.set()
        record = await finished(manager, good.id)
        assert record.state is JobState.SUCCEEDED and record.result == local_report(SPEC)

    run_manager(path, 2, body)


def test_a_schema_1_store_resumes_to_the_result_of_an_uninterrupted_run(tmp_path: Path) -> None:
    path = tmp_path / "jobs.sqlite3"
    write_schema_1_store(path)
    job = job_from_mapping(SPEC)
    with sqlite3.connect(path) as db:  # the real tallies of shards 0 and 2
        for shard in (0, 2):
            tally = job.tally_to_dict(job.run_shard(shard))
            db.execute("UPDATE shards SET tally = ? WHERE shard = ?", (json.dumps(tally), shard))

    async def body(manager: JobManager, pool: GatedPool) -> None:
        assert await manager.resume() == (1, 0)
        record = await manager.get("job-00000000000a")
        assert (record.shards_done, record.trials_done) == (2, 20)
        pool.gate.set()
        record = await finished(manager, "job-00000000000a")
        assert pool.started == [(5, 1)]  # only the missing shard ran
        assert record.state is JobState.SUCCEEDED and record.result == local_report(SPEC)

    run_manager(path, 2, body)


def test_cancelling_a_running_job_frees_its_slots_for_the_next(tmp_path: Path) -> None:
    async def body(manager: JobManager, pool: GatedPool) -> None:
        first = await manager.submit({**SPEC, "seed": 1})
        second = await manager.submit({**SPEC, "seed": 2})
        await settle()
        assert pool.in_flight == 2 and (await manager.get(second.id)).state is JobState.QUEUED
        await manager.cancel(first.id)
        await settle()
        # The cancelled shards left their slots: the second job took both.
        assert pool.started[-2:] == [(2, 0), (2, 1)] and pool.in_flight == 2
        pool.gate.set()
        done = await finished(manager, second.id)
        assert done.state is JobState.SUCCEEDED and done.result == local_report(SPEC | {"seed": 2})
        cancelled = await manager.get(first.id)
        assert cancelled.state is JobState.CANCELLED and cancelled.shards_done == 0
        assert manager.store.shard_indices(first.id) == set()

    run_manager(tmp_path / "jobs.sqlite3", 2, body)


def test_a_stopped_server_leaves_its_running_job_to_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "jobs.sqlite3"

    async def first_start(manager: JobManager, pool: GatedPool) -> str:
        job = await manager.submit(SPEC)
        await settle()  # two shards in flight when the server stops
        assert pool.in_flight == 2
        return job.id

    job_id = run_manager(path, 2, first_start)
    store = JobStore(path)
    record = store.get(job_id)
    store.close()
    assert record is not None and record.state is JobState.RUNNING and record.shards_done == 0

    async def second_start(manager: JobManager, pool: GatedPool) -> None:
        assert await manager.resume() == (1, 0)
        pool.gate.set()
        done = await finished(manager, job_id)
        assert done.state is JobState.SUCCEEDED and done.result == local_report(SPEC)

    run_manager(path, 2, second_start)


def test_a_job_with_every_shard_stored_finishes_without_running_again(tmp_path: Path) -> None:
    """Killed after its last shard was stored and before its result was: the next start
    stores the result from the shards alone."""
    path = tmp_path / "jobs.sqlite3"
    job = job_from_mapping(SPEC)
    store = JobStore(path)
    record = store.create("bad_beat", SPEC, 30, 3)
    store.set_state(record.id, JobState.RUNNING)
    tally = job.model.empty_tally()
    for index in range(3):
        shard = job.run_shard(index)
        tally = tally.merge(shard)
        progress = Progress(index + 1, tally.trials, job.tally_to_dict(tally), job.report(tally))
        store.save_shard(record.id, index, job.tally_to_dict(shard), 0.1, progress)
    store.close()

    async def body(manager: JobManager, pool: GatedPool) -> None:
        assert await manager.resume() == (1, 0)
        done = await finished(manager, record.id)
        assert pool.started == []  # nothing ran again
        assert done.state is JobState.SUCCEEDED and done.result == local_report(SPEC)

    run_manager(path, 2, body)


def test_shards_stored_without_progress_are_summed_before_the_job_goes_on(
    tmp_path: Path,
) -> None:
    """A job row whose progress does not match its shard rows (written by an older version
    after an upgrade and a roll-back) is rebuilt from the shards, not trusted."""
    path = tmp_path / "jobs.sqlite3"
    job = job_from_mapping(SPEC)
    store = JobStore(path)
    record = store.create("bad_beat", SPEC, 30, 3)
    store.set_state(record.id, JobState.RUNNING)
    with store._transaction():
        store._db.execute(
            "INSERT INTO shards VALUES (?, 1, ?, 0.1)",
            (record.id, json.dumps(job.tally_to_dict(job.run_shard(1)))),
        )
    store.close()

    async def body(manager: JobManager, pool: GatedPool) -> None:
        await manager.resume()
        pool.gate.set()
        done = await finished(manager, record.id)
        assert sorted(pool.started) == [(5, 0), (5, 2)]
        assert done.result == local_report(SPEC) and done.shards_done == 3

    run_manager(path, 2, body)


def _insert_row(path: Path, job_id: str, kind: str, spec_text: str, version: int = 1) -> None:
    """A job row written straight into the store file, as another version might have."""
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO jobs (id, kind, state, spec, spec_version, trials, shards_total,"
            " created, updated) VALUES (?, ?, 'running', ?, ?, 30, 3, 1.0, 1.0)",
            (job_id, kind, spec_text, version),
        )


UNREADABLE = {
    # id: (kind, stored spec, spec version, the reason the job fails with)
    "job-00000000000b": ("bad_beat", json.dumps(SPEC), 2, "is of version 2; this server reads"),
    "job-00000000000c": ("bad_beat", '{"kind": "bad_beat", "han', 1, "is not JSON"),
    "job-00000000000d": (
        "sessions",
        json.dumps({"kind": "sessions", "sessions": 30}),
        1,
        "no longer valid: kind: must be one of 'bad_beat', ",
    ),
    "job-00000000000e": (
        "bad_beat",
        json.dumps({**SPEC, "table": {"seats": 6}}),
        1,
        "no longer valid: table.seats: is not a known setting",
    ),
}


def test_resume_fails_each_stored_job_it_cannot_read_and_runs_the_rest(tmp_path: Path) -> None:
    """A spec of an unknown version, text that is not JSON, a kind no longer offered and a
    setting no longer known: each of those jobs fails with its reason, the stored rows stay
    as they were, and the readable job runs to the result of an uninterrupted run."""
    from service.server import job_message

    path = tmp_path / "jobs.sqlite3"
    store = JobStore(path)
    good = store.create("bad_beat", SPEC, 30, 3)
    store.close()
    for job_id, (kind, text, version, _) in UNREADABLE.items():
        _insert_row(path, job_id, kind, text, version)

    async def body(manager: JobManager, pool: GatedPool) -> None:
        assert await manager.resume() == (1, len(UNREADABLE))
        for job_id, (kind, _, _, reason) in UNREADABLE.items():
            record = await manager.get(job_id)
            assert record.state is JobState.FAILED and reason in record.error, record.error
            message = job_message(record)  # still reads over the API, without its spec
            assert message.kind == kind and reason in message.error
            assert message.spec.WhichOneof("kind") is None
        pool.gate.set()
        done = await finished(manager, good.id)
        assert done.state is JobState.SUCCEEDED and done.result == local_report(SPEC)
        assert job_message(done).result.WhichOneof("kind") == "bad_beat"

    run_manager(path, 2, body)
    with sqlite3.connect(path) as db:
        kept = dict(db.execute("SELECT id, spec FROM jobs").fetchall())
    assert {job_id: kept[job_id] for job_id in UNREADABLE} == {
        job_id: text for job_id, (_, text, _, _) in UNREADABLE.items()
    }


DICE = {"kind": "dice", "sessions": 300, "seed": 8, "shard_size": 100, "table": {"dice": 3}}


def test_a_histogram_kind_resumes_from_its_stored_shards(tmp_path: Path) -> None:
    """A tally of Counts goes through the store as the generic codec writes it: shards 0
    and 2 stored before a restart, the next start runs shard 1 only, and the result is the
    one an uninterrupted run gives."""
    kinds = dice_kind.KINDS
    job = job_from_mapping(DICE, kinds=kinds)
    path = tmp_path / "jobs.sqlite3"
    store = JobStore(path)
    record = store.create("dice", DICE, 300, 3)
    store.set_state(record.id, JobState.RUNNING)
    tally = job.model.empty_tally()
    for done, index in enumerate((0, 2), start=1):
        shard = job.run_shard(index)
        tally = tally.merge(shard)
        progress = Progress(done, tally.trials, job.tally_to_dict(tally), job.report(tally))
        store.save_shard(record.id, index, job.tally_to_dict(shard), 0.1, progress)
    store.close()

    async def main() -> None:
        store = JobStore(path)
        pool = GatedPool(2)
        metrics = ServiceMetrics(CollectorRegistry(), store.counts)
        manager = JobManager(store, pool, metrics, max_trials=10**9, kinds=kinds)  # type: ignore[arg-type]
        try:
            assert await manager.resume() == (1, 0)
            pool.gate.set()
            done = await finished(manager, record.id)
        finally:
            await manager.close()
        assert pool.started == [(8, 1)]
        assert done.state is JobState.SUCCEEDED
        assert done.result == job.report(InlineRunner().run(job))
        assert done.tally == job.tally_to_dict(InlineRunner().run(job))

    asyncio.run(main())


PRECISE = {
    "kind": "bad_beat",
    "hands": 20_000,
    "shard_size": 1_000,
    "seed": 17,
    "precision": 0.5,
    "table": {"players": 6},
    "jackpot": {"min_losing_hand": "two pair"},
    "room": {"showdown_required": False},
}


def test_a_job_with_a_precision_target_stops_where_the_in_process_runner_does(
    tmp_path: Path,
) -> None:
    """The manager ends a job with `precision` at the first precise prefix of shards, in
    index order, whatever order its shards finish in: its stored result is the one the
    in-process runner gives, and it stopped before its trial count."""

    async def body(manager: JobManager, pool: GatedPool) -> None:
        pool.gate.set()
        record = await manager.submit(PRECISE)
        done = await finished(manager, record.id)
        assert done.state is JobState.SUCCEEDED, done.error
        expected = local_report(PRECISE)
        assert expected["precision"]["stopped_for_precision"] is True
        assert done.result == expected
        assert done.shards_done < 20  # the shards past the prefix were never all run

    run_manager(tmp_path / "jobs.sqlite3", 3, body)
