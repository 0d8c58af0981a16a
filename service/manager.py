"""The job manager: validates and stores jobs, runs their shards, and tells watchers.

Each job's shards wait for worker slots in the fair scheduler (service/scheduler.py):
namespaces share the slots by weight, and a namespace's own jobs go by priority, then in
the order they were submitted.  A job is *queued* until its first shard holds a worker
slot, then *running*.  A job holds at most one waiting shard and the slots it was given
(a job of a million shards holds a bounded amount of memory), saves every finished shard
with the job's merged progress, and stores the result.

A shard that Ray loses (a worker, the raylet or the head gone, the connection dropped:
``ShardLost``) goes back to its job's queue and runs again, with the same seed and so the
same tally, once Ray is back; only a shard whose own code raised (``ShardFailed``), or one
that crashed its worker again and again while the cluster stayed up, fails its job.

After a restart :meth:`JobManager.resume` queues the unfinished jobs again; they carry on
from their saved shards.  A stored job this version cannot run — its specification of an
unknown version or unreadable, of a kind no longer offered, or with a setting no longer
valid — fails with the reason, and the others resume.

Every store call runs on one worker thread, never on the event loop: SQLite's writes wait
for the disk, and the loop also answers health checks and streams progress.

A running job's writes that the store refuses (a full disk, a database away: the store's
``StoreUnavailable``) pause the job rather than fail it: each is made again every
:data:`STORE_RETRY_PAUSE` seconds, in the order the shards finished, until the store takes
it; the finished shards wait in memory meanwhile, and reads go on being answered.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from service.auth import DEFAULT_NAMESPACE
from service.jobfile import MAX_TRIALS, job_from_mapping
from service.kinds import KINDS, JobKind
from service.metrics import ServiceMetrics
from service.scheduler import FairScheduler, Flow, Grant
from service.store import JobRecord, JobState, Progress, StateConflict, StoreUnavailable
from service.stores import Store
from simulations.spec import echo
from workers.driver import one_line
from workers.job import Job
from workers.pool import ShardFailed, ShardLost, ShardPool
from workers.precision import PrefixStop

log = logging.getLogger(__name__)
T = TypeVar("T")
STORE_RETRY_PAUSE = 1.0  # seconds between two attempts at a write the store refused
# A shard lost this many times while the cluster stayed up (its worker crashing each
# time, after Ray's own retries) fails its job: the shard itself is the cause.
MAX_SHARD_CRASHES = 3


class JobNotFound(LookupError):
    def __init__(self, job_id: str) -> None:
        super().__init__(f"job {echo(job_id)} not found")


class JobFinished(RuntimeError):
    """The job has already ended; it cannot be cancelled."""


class UnreadableJob(ValueError):
    """A stored job this version cannot run; the message is the reason, one line."""


@dataclass
class _Live:
    """A running job's merged progress (lives in the event loop only)."""

    shards_done: int
    tally: Any
    result: Any = None  # a job stopped at its precision: its prefix's tally


class JobManager:
    def __init__(
        self,
        store: Store,
        pool: ShardPool,
        metrics: ServiceMetrics,
        *,
        max_trials: int,
        kinds: Mapping[str, JobKind] = KINDS,
        scheduler: FairScheduler | None = None,
    ) -> None:
        self.store = store
        self.pool = pool
        self.metrics = metrics
        self.max_trials = max_trials
        self.kinds = kinds
        self.scheduler = scheduler or FairScheduler(pool.max_in_flight)
        self._io_thread = ThreadPoolExecutor(1, thread_name_prefix="job-store")
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._changed: dict[str, asyncio.Event] = {}
        self._cancelling: set[str] = set()

    async def io(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call on the store's thread (calls run one at a time, in order)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._io_thread, functools.partial(call, *args, **kwargs))

    # -- specification ---------------------------------------------------------------

    def validate(self, mapping: Mapping[str, Any]) -> Job:
        """The job a mapping describes; ``SpecError`` names the field that is wrong."""
        return job_from_mapping(mapping, max_trials=self.max_trials, kinds=self.kinds)

    def stored_job(self, record: JobRecord) -> Job:
        """The job a stored record describes; ``UnreadableJob`` says why there is none."""
        if record.spec is None:
            raise UnreadableJob(record.spec_problem or "the stored specification is unreadable")
        try:
            # Stored jobs were within the bound of the server that took them.
            return job_from_mapping(record.spec, max_trials=MAX_TRIALS, kinds=self.kinds)
        except Exception as err:  # SpecError, or a spec this version cannot even read
            raise UnreadableJob(
                f"the stored specification is no longer valid: {_one_line(err)}"
            ) from None

    async def submit(
        self,
        mapping: Mapping[str, Any],
        *,
        namespace: str = DEFAULT_NAMESPACE,
        max_unfinished: int | None = None,
        max_unfinished_trials: int | None = None,
    ) -> JobRecord:
        """Validate and store a job in ``namespace``, and start it; ``SpecError`` names a
        wrong field, ``TooManyJobs`` says the namespace has its limit of jobs in flight,
        ``TooManyTrials`` its limit of trials in them."""
        job = self.validate(mapping)
        # Store the canonical form: the seed drawn (if none was given) and the shard size.
        canonical = {**mapping, "seed": job.seed, "shard_size": job.shard_size}
        record = await self.io(
            self.store.create,
            job.kind,
            canonical,
            job.trials,
            job.plan.count,
            namespace=namespace,
            max_unfinished=max_unfinished,
            max_unfinished_trials=max_unfinished_trials,
        )
        self._start(record.id, job, namespace)
        return record

    async def resume(self) -> tuple[int, int]:
        """Queue every unfinished job found in the store; return (resumed, failed).

        A stored job this version cannot run (see :meth:`stored_job`: a specification of
        another version or not JSON, a kind no longer offered, a setting this version
        dropped) fails with the reason; it does not keep the others from resuming.
        """
        await self._fill_in_progress()
        resumed = failed = 0
        for record in await self.io(self.store.unfinished):
            try:
                job = self.stored_job(record)
            except UnreadableJob as err:
                reason = str(err)
                log.error("job %s failed on resuming: %s", record.id, reason)
                await self.io(self.store.set_state, record.id, JobState.FAILED, error=reason)
                failed += 1
                continue
            if record.state is JobState.RUNNING:  # until a worker slot takes a shard again
                await self.io(self.store.set_state, record.id, JobState.QUEUED)
            self._start(record.id, job, record.namespace)
            resumed += 1
        return resumed, failed

    async def _fill_in_progress(self) -> None:
        """Give jobs stored by schema 1 their progress, rebuilt once from their shards."""
        for record in await self.io(self.store.without_progress):
            try:
                job = self.stored_job(record)
                progress = await self._progress_from_shards(record.id, job)
            except Exception as err:  # resume() fails it with the reason if it is unfinished
                log.error("job %s: cannot rebuild its progress: %s", record.id, _one_line(err))
                continue
            await self.io(self.store.set_progress, record.id, progress)

    async def _progress_from_shards(self, job_id: str, job: Job) -> Progress:
        """A job's progress summed from its stored shard rows (read once, not per request)."""
        tally = job.model.empty_tally()
        stored = await self.io(self.store.shard_tallies, job_id)
        for data in stored.values():
            tally = tally.merge(job.tally_from_dict(data))
        return _progress(job, len(stored), tally)

    # -- reading -----------------------------------------------------------------------

    async def get(self, job_id: str, namespace: str | None = None) -> JobRecord:
        """A job (of ``namespace`` only, if given: another's is ``JobNotFound`` too)."""
        record = await self.io(self.store.get, job_id, namespace)
        if record is None:
            raise JobNotFound(job_id)
        return record

    async def page(
        self,
        *,
        size: int,
        token: str,
        state: JobState | None,
        kind: str,
        namespace: str | None = None,
    ) -> tuple[list[JobRecord], str]:
        return await self.io(
            self.store.page, size=size, token=token, state=state, kind=kind, namespace=namespace
        )

    async def watch(self, job_id: str, namespace: str | None = None) -> AsyncIterator[JobRecord]:
        """The job now, then again after every change, until it has ended."""
        while True:
            # Take the event before reading, so a change between the two is not missed.
            changed = self._changed.setdefault(job_id, asyncio.Event())
            try:
                record = await self.get(job_id, namespace)
            except JobNotFound:
                self._notify(job_id)  # drop the event: nothing will ever set it
                raise
            if record.state.finished:
                self._notify(job_id)  # no change is to come: wake and drop, keep nothing
                yield record
                return
            yield record
            await changed.wait()

    # -- changing ----------------------------------------------------------------------

    async def cancel(self, job_id: str, namespace: str | None = None) -> JobRecord:
        """Cancel a queued or running job (of ``namespace`` only, if given)."""
        try:
            record = await self.io(
                self.store.set_state, job_id, JobState.CANCELLED, namespace=namespace
            )
        except StateConflict as conflict:
            if conflict.current is None:
                raise JobNotFound(job_id) from None
            raise JobFinished(f"job {job_id} has already {conflict.current.value}") from None
        task = self._tasks.get(job_id)
        if task is not None and not task.done():
            self._cancelling.add(job_id)
            task.cancel()
        self._notify(job_id)
        return record

    async def close(self) -> None:
        """Stop running jobs without changing their state: they resume on the next start."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for outcome in await asyncio.gather(*tasks, return_exceptions=True):
            if isinstance(outcome, Exception):
                log.error("a job's task ended with an error while stopping: %r", outcome)
        await self.io(self.store.close)
        self._io_thread.shutdown(wait=True)

    def _notify(self, job_id: str) -> None:
        event = self._changed.pop(job_id, None)
        if event is not None:
            event.set()

    def _start(self, job_id: str, job: Job, namespace: str) -> None:
        task = asyncio.get_running_loop().create_task(self._run(job_id, job, namespace))
        self._tasks[job_id] = task
        task.add_done_callback(lambda _: self._tasks.pop(job_id, None))

    async def _set_state(self, job_id: str, state: JobState, **fields: Any) -> None:
        await self._write(job_id, self.store.set_state, job_id, state, **fields)
        self._notify(job_id)

    async def _write(self, job_id: str, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A running job's store write, made again until the store takes it (see the
        module's text); cancelling the job ends the wait."""
        while True:
            try:
                return await self.io(call, *args, **kwargs)
            except StoreUnavailable as err:
                log.error(
                    "job %s paused: %s; trying again in %.0f s", job_id, err, STORE_RETRY_PAUSE
                )
                await asyncio.sleep(STORE_RETRY_PAUSE)

    async def _run(self, job_id: str, job: Job, namespace: str) -> None:
        live = _Live(0, job.model.empty_tally())
        try:
            await self._run_shards(job_id, job, live, namespace)
        except asyncio.CancelledError:
            if job_id in self._cancelling:
                self._cancelling.discard(job_id)
                log.info("job %s cancelled after %d shards", job_id, live.shards_done)
                return  # CancelJob stored the state already
            raise  # the server is stopping: the job resumes on the next start
        except StateConflict as conflict:  # cancelled between two of our own steps
            log.info("job %s: %s", job_id, conflict)
        except Exception as err:
            log.exception("job %s failed", job_id)
            await self._finish(job_id, JobState.FAILED, error=_one_line(err))
        else:
            await self._finish(
                job_id, JobState.SUCCEEDED, result=job.report(live.result or live.tally)
            )
        finally:
            self._cancelling.discard(job_id)
            self._notify(job_id)

    async def _finish(self, job_id: str, state: JobState, **fields: Any) -> None:
        """Store a job's final state; an error storing it is logged, not raised: the job
        then stays as stored, and resumes on the next start."""
        try:
            await self._set_state(job_id, state, **fields)
        except StateConflict:
            pass  # cancelled meanwhile: the stored state stands
        except Exception:
            log.exception("job %s: cannot store its end (%s)", job_id, state.value)

    async def _acquire_unless(self, flow: Flow, decided: asyncio.Event) -> Grant | None:
        """A worker slot for the job's next shard, or None once the job is decided (its
        precision reached by shards still running) before a slot came free."""
        acquiring = asyncio.ensure_future(self.scheduler.acquire(flow))
        waking = asyncio.ensure_future(decided.wait())
        try:
            await asyncio.wait({acquiring, waking}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waking.cancel()
            if not acquiring.done():
                acquiring.cancel()
            await asyncio.gather(acquiring, waking, return_exceptions=True)
        if acquiring.cancelled():
            return None
        return acquiring.result()

    async def _run_shards(self, job_id: str, job: Job, live: _Live, namespace: str) -> None:
        running: set[asyncio.Task[None]] = set()
        failure: list[BaseException] = []
        retry: deque[int] = deque()  # shards Ray lost, to run again first
        crashes: Counter[int] = Counter()
        # Shards are saved in the order they were merged, each with the progress up to it:
        # asyncio's lock serves its waiters first come, first served, and a save the store
        # refuses holds it while it waits to be made again.
        in_order = asyncio.Lock()
        # A job with a precision target stops at the first prefix of shards, in index
        # order, precise enough (workers/precision.py): the same result on any cluster.
        stop = PrefixStop(job) if job.precision is not None else None
        decided = asyncio.Event()

        async def one(flow: Flow, grant: Grant, index: int, marked: asyncio.Task[None]) -> None:
            seconds: float | None = None
            try:
                try:
                    await marked  # the job is stored as running before any shard of it runs
                    tally, seconds = await self.pool.run(job_id, job, index)
                finally:
                    self.scheduler.release(grant, seconds)
            except ShardLost as err:
                if not err.cluster_lost:
                    crashes[index] += 1
                    if crashes[index] >= MAX_SHARD_CRASHES:
                        failure.append(
                            ShardFailed(f"shard {index} was lost {crashes[index]} times ({err})")
                        )
                        return
                log.warning("job %s: shard %d lost (%s); it runs again", job_id, index, err)
                self.scheduler.requeue(flow)
                retry.append(index)
                return
            except Exception as err:
                failure.append(err)
                return
            try:
                # Merge before saving: saves run in order on the store's thread, each
                # carrying the progress up to its own shard.
                live.tally = live.tally.merge(tally)
                live.shards_done += 1
                progress = _progress(job, live.shards_done, live.tally)
                shard = job.tally_to_dict(tally)
                async with in_order:
                    saved = await self._write(
                        job_id, self.store.save_shard, job_id, index, shard, seconds, progress
                    )
                if saved:
                    self.metrics.shard_done(job.kind, tally.trials, seconds)
                if stop is not None and stop.add(index, tally):
                    live.result = stop.tally
                    decided.set()
                self._notify(job_id)
            except Exception as err:
                failure.append(err)

        record = await self.get(job_id)
        done = await self.io(self.store.shard_indices, job_id)
        if record.tally is not None and record.shards_done == len(done):
            live.tally = job.tally_from_dict(record.tally)
            live.shards_done = record.shards_done
        elif done:  # shards stored without their progress (by an older version)
            progress = await self._progress_from_shards(job_id, job)
            await self.io(self.store.set_progress, job_id, progress)
            live.tally = job.tally_from_dict(progress.tally)
            live.shards_done = progress.shards_done
        if stop is not None and done:  # the shards stored before a restart, in order
            stored = await self.io(self.store.shard_tallies, job_id)
            for at in sorted(stored):
                if stop.add(at, job.tally_from_dict(stored[at])):
                    live.result = stop.tally
                    decided.set()
                    break
        if len(done) == job.plan.count or decided.is_set():  # nothing left to run
            await self._set_state(job_id, JobState.RUNNING)
        remaining = job.plan.count - len(done)
        flow = self.scheduler.add(namespace, job.priority, remaining)
        indices = (index for index in range(job.plan.count) if index not in done)
        marking: asyncio.Task[None] | None = None
        try:
            while not failure and not decided.is_set():
                index = retry.popleft() if retry else next(indices, None)
                if index is None:
                    if not running:
                        break
                    await asyncio.wait(set(running), return_when=asyncio.FIRST_COMPLETED)
                    continue
                if stop is not None and not stop.wanted(index):
                    continue
                if stop is None:
                    grant = await self.scheduler.acquire(flow)
                else:
                    granted = await self._acquire_unless(flow, decided)
                    if granted is None:  # decided while waiting for a slot
                        break
                    grant = granted
                if marking is None:  # the first shard to hold a worker slot
                    # Stored from a task of its own: awaiting the store here would let
                    # another job take the next slot while this one waits.
                    marking = asyncio.ensure_future(self._set_state(job_id, JobState.RUNNING))
                task = asyncio.get_running_loop().create_task(one(flow, grant, index, marking))
                running.add(task)
                task.add_done_callback(running.discard)
        finally:
            for task in list(running):
                task.cancel()
            if running:
                await asyncio.gather(*running, return_exceptions=True)
            if marking is not None:
                await asyncio.gather(marking, return_exceptions=True)
            self.scheduler.remove(flow)
            self.pool.forget(job_id)
        if failure:
            raise failure[0]

    # -- deleting ----------------------------------------------------------------------

    async def delete(self, job_id: str, namespace: str | None = None) -> JobRecord:
        """Delete a finished job and its shards (of ``namespace`` only, if given); returns
        it as it was.  ``JobNotFound`` for no such job, the store's ``JobUnfinished`` for
        one queued or running (cancel it first)."""
        record = await self.io(self.store.delete, job_id, namespace)
        if record is None:
            raise JobNotFound(job_id)
        log.info("job %s deleted (%s)", job_id, record.state.value)
        return record

    async def expire(self, before: float) -> int:
        """Delete every finished job that ended before ``before`` (a time.time()), with
        its shards; returns how many (the server's --retention)."""
        return await self.io(self.store.expire, before)


def _one_line(err: BaseException) -> str:
    """An error as one readable line for a job's stored reason."""
    lines = [line.strip() for line in str(err).splitlines()]
    words = [line for line in lines if any(ch.isalnum() for ch in line)]
    return words[0] if words else one_line(err)


def _progress(job: Job, shards_done: int, tally: Any) -> Progress:
    return Progress(
        shards_done=shards_done,
        trials_done=tally.trials,
        tally=job.tally_to_dict(tally),
        estimate=job.report(tally) if tally.trials else None,
    )
