"""The job manager: validates and stores jobs, runs their shards, and tells watchers.

Each job runs as one asyncio task that keeps at most the pool's in-flight bound of
shards submitted (so a job of a million shards holds a bounded amount of memory), saves
every finished shard's tally before merging it, and stores the result.  After a restart
:meth:`JobManager.resume` picks up queued and running jobs from their saved shards.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any

from service.jobfile import job_from_mapping
from service.metrics import ServiceMetrics
from service.store import JobRecord, JobState, JobStore
from simulations.spec import SpecError
from workers.job import Job
from workers.runner import ShardPool

log = logging.getLogger(__name__)


class JobNotFound(LookupError):
    pass


class JobFinished(RuntimeError):
    """The job has already ended; it cannot be cancelled."""


@dataclass
class _Live:
    """A running job's merged progress (lives in the event loop only)."""

    shards_done: int
    tally: Any


@dataclass(frozen=True)
class Snapshot:
    """A job as stored, with its progress and running estimate."""

    record: JobRecord
    shards_done: int
    trials_done: int
    estimate: dict[str, Any] | None


class JobManager:
    def __init__(
        self,
        store: JobStore,
        pool: ShardPool,
        metrics: ServiceMetrics,
        *,
        max_trials: int,
    ) -> None:
        self.store = store
        self.pool = pool
        self.metrics = metrics
        self.max_trials = max_trials
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._live: dict[str, _Live] = {}
        self._changed: dict[str, asyncio.Event] = {}
        self._cancelling: set[str] = set()

    # -- specification ---------------------------------------------------------------

    def validate(self, mapping: Mapping[str, Any]) -> Job:
        """The job a mapping describes; ``SpecError`` names the field that is wrong."""
        job = job_from_mapping(mapping)
        if job.trials > self.max_trials:
            raise SpecError(
                job.model.trials_field,
                f"must be at most {self.max_trials:,} on this server, got {job.trials:,}",
            )
        return job

    def submit(self, mapping: Mapping[str, Any]) -> JobRecord:
        job = self.validate(mapping)
        # Store the canonical form: the seed drawn (if none was given) and the shard size.
        canonical = {**mapping, "seed": job.seed, "shard_size": job.shard_size}
        record = self.store.create(job.kind, canonical, job.trials, job.plan.count)
        self._start(record.id, job)
        return record

    def resume(self) -> int:
        """Start every queued or running job found in the store; return how many."""
        unfinished = self.store.unfinished()
        for record in unfinished:
            self._start(record.id, job_from_mapping(record.spec))
        return len(unfinished)

    # -- reading -----------------------------------------------------------------------

    def get(self, job_id: str) -> JobRecord:
        record = self.store.get(job_id)
        if record is None:
            raise JobNotFound(job_id)
        return record

    def snapshot(self, record: JobRecord) -> Snapshot:
        job = job_from_mapping(record.spec)
        live = self._live.get(record.id)
        if live is None:
            stored = self.store.shards(record.id)
            tally = job.model.empty_tally()
            for data in stored.values():
                tally = tally.merge(job.tally_from_dict(data))
            live = _Live(len(stored), tally)
        estimate = job.report(live.tally) if live.tally.trials else None
        return Snapshot(record, live.shards_done, live.tally.trials, estimate)

    async def watch(self, job_id: str) -> AsyncIterator[Snapshot]:
        """The job now, then again after every change, until it has ended."""
        while True:
            # Take the event before reading, so a change between the two is not missed.
            changed = self._changed.setdefault(job_id, asyncio.Event())
            snapshot = self.snapshot(self.get(job_id))
            yield snapshot
            if snapshot.record.state.finished:
                return
            await changed.wait()

    # -- changing ----------------------------------------------------------------------

    def cancel(self, job_id: str) -> JobRecord:
        record = self.get(job_id)
        if record.state.finished:
            raise JobFinished(f"job {job_id} has already {record.state.value}")
        self.store.set_state(job_id, JobState.CANCELLED)
        task = self._tasks.get(job_id)
        if task is not None:
            self._cancelling.add(job_id)
            task.cancel()
        self._notify(job_id)
        return self.get(job_id)

    async def close(self) -> None:
        """Stop running jobs without changing their state: they resume on the next start."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _notify(self, job_id: str) -> None:
        event = self._changed.pop(job_id, None)
        if event is not None:
            event.set()

    def _start(self, job_id: str, job: Job) -> None:
        task = asyncio.get_running_loop().create_task(self._run(job_id, job))
        self._tasks[job_id] = task
        task.add_done_callback(lambda _: self._tasks.pop(job_id, None))

    async def _run(self, job_id: str, job: Job) -> None:
        stored = self.store.shards(job_id)
        tally = job.model.empty_tally()
        for data in stored.values():
            tally = tally.merge(job.tally_from_dict(data))
        live = self._live[job_id] = _Live(len(stored), tally)
        self.store.set_state(job_id, JobState.RUNNING)
        self._notify(job_id)
        try:
            await self._run_shards(job_id, job, set(stored), live)
        except asyncio.CancelledError:
            if job_id in self._cancelling:
                self._cancelling.discard(job_id)
                log.info("job %s cancelled after %d shards", job_id, live.shards_done)
                return  # CancelJob stored the state already
            raise  # the server is stopping: the job stays running and resumes later
        except Exception as err:
            log.exception("job %s failed", job_id)
            message = str(err).strip().splitlines()[-1] if str(err).strip() else repr(err)
            self.store.set_state(job_id, JobState.FAILED, error=message)
        else:
            self.store.set_state(job_id, JobState.SUCCEEDED, result=job.report(live.tally))
        finally:
            self._live.pop(job_id, None)
            self._notify(job_id)

    async def _run_shards(self, job_id: str, job: Job, done: set[int], live: _Live) -> None:
        job_ref = self.pool.put(job)
        slots = asyncio.Semaphore(self.pool.max_in_flight)
        running: set[asyncio.Task[None]] = set()
        failure: list[BaseException] = []

        async def one(index: int) -> None:
            try:
                tally, seconds = await self.pool.run(job_ref, index)
                self.store.save_shard(job_id, index, job.tally_to_dict(tally), seconds)
                self.metrics.shard_done(job.kind, tally.trials, seconds)
                live.tally = live.tally.merge(tally)
                live.shards_done += 1
                self._notify(job_id)
            except Exception as err:
                failure.append(err)
            finally:
                slots.release()

        try:
            for index in range(job.plan.count):
                if index in done:
                    continue
                await slots.acquire()
                if failure:
                    break
                task = asyncio.get_running_loop().create_task(one(index))
                running.add(task)
                task.add_done_callback(running.discard)
            while running:
                await asyncio.wait(set(running))
        finally:
            for task in list(running):
                task.cancel()
            if running:
                await asyncio.gather(*running, return_exceptions=True)
        if failure:
            raise failure[0]
