"""Running a job's shards and merging their tallies as they finish.

:class:`InlineRunner` runs shards one after another in this process (a library user's
default and the reference for determinism).  :class:`RayRunner` fans them out as Ray
tasks, on an embedded single-machine Ray by default or on an existing cluster by
address, keeping a bounded number in flight and merging in completion order; tallies
are integer counts, so the merge order never changes the result.  :class:`ShardPool`
is the asynchronous form the service uses: one awaitable shard at a time, with a bound
on tasks in flight shared by every job.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol, cast

from workers.job import Job

# Ray reads these when it is imported.  Loopback-only binding, no token auth for a
# private local cluster, no usage reporting, and workers at normal priority (Ray's
# default niceness of 15 makes the job's own workers yield to everything else on a
# shared machine); a deployment may set its own values.
RAY_LOCAL_ENVIRONMENT = {
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_AUTH_MODE": "disabled",
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_worker_niceness": "0",
    # A cancel that reaches a worker before the task it was pushed has started there (a
    # worker still starting, say) is tried again after this pause: Ray's default of
    # 2,000 ms would leave a cancelled shard computing for two seconds.
    "RAY_cancellation_retry_ms": "100",
}
TASK_RETRIES = 3  # a shard whose worker died is run again, and reproduces its tally


RAY_CONNECT_TIMEOUT = 10.0  # seconds for a cluster's GCS port to accept a connection


class RayUnreachable(ValueError):
    """Nothing answers at a Ray address given as HOST:PORT."""


def check_ray_reachable(address: str) -> None:
    """Refuse a HOST:PORT Ray address where nothing listens (:class:`RayUnreachable`):
    Ray itself retries for minutes, silently.  Other forms Ray accepts ('auto',
    'ray://...') are left to Ray."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or "/" in address or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=RAY_CONNECT_TIMEOUT).close()
    except OSError as err:
        reason = err.strerror or "no answer"
        raise RayUnreachable(f"--ray-address {address}: no Ray cluster there ({reason})") from None


@dataclass(frozen=True)
class Progress:
    shards_done: int
    shards_total: int
    trials_done: int
    tally: Any


ProgressCallback = Callable[[Progress], None]


class _LocalRayContext(Protocol):
    """What ``ray.init(address="local")`` returns (a ``RayContext``), as far as it is used.

    Ray annotates ``ray.init`` as returning its abstract ``BaseContext``, which has no
    ``address_info``; a local start always returns a ``RayContext`` whose ``address_info``
    names the new session's directory.
    """

    address_info: dict[str, str]


class InlineRunner:
    """Run every shard in this process, in order."""

    def run(self, job: Job, on_progress: ProgressCallback | None = None) -> Any:
        shards = ((i, job.run_shard(i)) for i in range(job.plan.count))
        return merge_in_order(job, shards, on_progress)

    def close(self) -> None:
        pass


def merge_in_order(
    job: Job, finished: Iterable[tuple[int, Any]], on_progress: ProgressCallback | None
) -> Any:
    """Merge shard tallies as they arrive, reporting progress after each."""
    total = job.model.empty_tally()
    done = 0
    count = job.plan.count
    for _index, tally in finished:
        total = total.merge(tally)
        done += 1
        if on_progress is not None:
            on_progress(Progress(done, count, total.trials, total))
    if done != count:  # pragma: no cover - a runner bug, not a user error
        raise RuntimeError(f"only {done} of {count} shards finished")
    return total


def timed_shard(job: Job, index: int) -> tuple[int, Any, float]:
    """Run one shard; return its index, tally and the seconds it took."""
    started = time.perf_counter()
    tally = job.run_shard(index)
    return index, tally, time.perf_counter() - started


class RayCluster:
    """A connection to Ray: an embedded local instance, or a cluster at ``address``."""

    def __init__(self, num_cpus: int | None = None, *, address: str | None = None) -> None:
        for key, value in RAY_LOCAL_ENVIRONMENT.items():
            # A cluster joined by address keeps the authentication it was set up with.
            if address is None or key != "RAY_AUTH_MODE":
                os.environ.setdefault(key, value)
        import ray

        from workers.ray_reaper import SessionReaper, supported

        self.ray = ray
        self._owns_ray = not ray.is_initialized()
        self._reaper: SessionReaper | None = None
        if self._owns_ray:
            if address is None:
                # "local" always starts a private instance: without an address ray.init()
                # joins the cluster RAY_ADDRESS names or `ray start` recorded in /tmp/ray,
                # and the reaper below may only ever act on a Ray this process started.
                context = cast(
                    _LocalRayContext,
                    ray.init(
                        address="local",
                        num_cpus=num_cpus or os.cpu_count() or 1,
                        include_dashboard=False,
                        log_to_driver=False,
                        object_store_memory=200 * 2**20,
                        configure_logging=False,
                    ),
                )
                if supported():
                    # Ray's own fate-sharing leaves the raylet's agents running for a
                    # minute after this process is killed; see workers/ray_reaper.py.
                    self._reaper = SessionReaper(
                        context.address_info["session_dir"],
                        os.path.dirname(os.path.abspath(ray.__file__)),
                    )
            else:
                check_ray_reachable(address)
                ray.init(address=address, log_to_driver=False, configure_logging=False)
        self.task = ray.remote(max_retries=TASK_RETRIES, retry_exceptions=False)(timed_shard)

    @property
    def cpus(self) -> int:
        # ray.cluster_resources() is unannotated; it maps resource names to amounts.
        cluster_resources = cast("Callable[[], dict[str, float]]", self.ray.cluster_resources)
        return int(cluster_resources().get("CPU", 1))

    def close(self) -> None:
        try:
            if self._owns_ray and self.ray.is_initialized():
                self.ray.shutdown()
        finally:
            if self._reaper is not None:
                self._reaper.close()  # ends whatever the shutdown left, normally nothing
                self._reaper = None


class RayRunner:
    """Run a job's shards as Ray tasks and merge them as they finish."""

    def __init__(
        self,
        num_cpus: int | None = None,
        *,
        address: str | None = None,
        max_in_flight: int | None = None,
    ) -> None:
        self.cluster = RayCluster(num_cpus, address=address)
        self.max_in_flight = max_in_flight or max(2, 3 * self.cluster.cpus)

    def run(self, job: Job, on_progress: ProgressCallback | None = None) -> Any:
        return merge_in_order(job, self._completed(job), on_progress)

    def _completed(self, job: Job) -> Iterable[tuple[int, Any]]:
        ray = self.cluster.ray
        job_ref = ray.put(job)
        pending = iter(range(job.plan.count))
        in_flight: list[Any] = []
        try:
            for index in pending:
                in_flight.append(self.cluster.task.remote(job_ref, index))
                if len(in_flight) >= self.max_in_flight:
                    break
            while in_flight:
                ready, in_flight = ray.wait(in_flight, num_returns=1)
                for index in pending:
                    in_flight.append(self.cluster.task.remote(job_ref, index))
                    break
                index, tally, _seconds = ray.get(ready[0])
                yield index, tally
        finally:
            for ref in in_flight:
                ray.cancel(ref)

    def close(self) -> None:
        self.cluster.close()

    def __enter__(self) -> RayRunner:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class ShardPool:
    """Awaitable shards on Ray, at most ``max_in_flight`` at once across all jobs.

    From the event loop: :meth:`acquire` a worker slot, then :meth:`run` one shard in it
    and :meth:`release` the slot when done with the result.  Cancelling the awaiting task
    cancels the Ray task, which stops between two of the shard's chunks (a few
    milliseconds each).
    """

    def __init__(self, cluster: RayCluster, max_in_flight: int | None = None) -> None:
        self.cluster = cluster
        self.max_in_flight = max_in_flight or max(2, 3 * cluster.cpus)
        self._slots = asyncio.Semaphore(self.max_in_flight)
        self.in_flight = 0

    def put(self, job: Job) -> Any:
        """Store the job once in Ray's object store; pass the reference to :meth:`run`."""
        return self.cluster.ray.put(job)

    async def acquire(self) -> None:
        """Wait for a free worker slot (waiters are served in the order they came)."""
        await self._slots.acquire()

    def release(self) -> None:
        self._slots.release()

    async def run(self, job_ref: Any, index: int) -> tuple[Any, float]:
        """Run shard ``index`` in a slot the caller holds; return its tally and seconds."""
        ref = self.cluster.task.remote(job_ref, index)
        self.in_flight += 1
        try:
            _index, tally, seconds = await asyncio.wrap_future(ref.future())
        except asyncio.CancelledError:
            self.cluster.ray.cancel(ref)
            raise
        finally:
            self.in_flight -= 1
        return tally, seconds
