"""Running a job's shards and merging their tallies as they finish.

:class:`InlineRunner` runs shards one after another in this process (a library user's
default and the reference for determinism).  :class:`RayRunner` fans them out as Ray
tasks, on an embedded single-machine Ray by default or on an existing cluster by
address, keeping a bounded number in flight and merging in completion order; tallies
are integer counts, so the merge order never changes the result.  The service runs its
shards through :class:`workers.pool.ShardPool` instead, which keeps Ray in a process of
its own.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol, cast

from workers.job import Job
from workers.precision import LOOKAHEAD_PER_SLOT, PrefixStop

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
    job: Job,
    finished: Iterable[tuple[int, Any]],
    on_progress: ProgressCallback | None,
    stop: PrefixStop | None = None,
) -> Any:
    """Merge shard tallies as they arrive, reporting progress after each.

    A job with a precision target is merged by its :class:`PrefixStop` (``stop``, or a new
    one): in index order, progress reported as the prefix grows, and ``finished`` read only
    until the job is decided; its result is the decided prefix's tally.
    """
    if job.precision is not None:
        return _merge_prefix(job, finished, on_progress, stop or PrefixStop(job))
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


def _merge_prefix(
    job: Job,
    finished: Iterable[tuple[int, Any]],
    on_progress: ProgressCallback | None,
    stop: PrefixStop,
) -> Any:
    count = job.plan.count
    for index, tally in finished:
        before = stop.shards
        decided = stop.add(index, tally)
        if on_progress is not None and stop.shards > before:
            on_progress(Progress(stop.shards, count, stop.trials, stop.tally))
        if decided:
            return stop.tally
    # A runner bug, not a user error: the last shard always decides a job.
    raise RuntimeError(  # pragma: no cover
        f"the shards ran out before the job was decided ({stop.shards} of {count})"
    )


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
        if job.precision is None:
            return merge_in_order(job, self._completed(job), on_progress)
        stop = PrefixStop(job)
        completed = self._completed(job, stop)
        try:
            return merge_in_order(job, completed, on_progress, stop)
        finally:
            completed.close()  # cancels the shards still running past the decided prefix

    def _completed(
        self, job: Job, stop: PrefixStop | None = None
    ) -> Generator[tuple[int, Any], None, None]:
        """Finished shards in completion order.  With a ``stop``, shards start no further
        than a few slots past its prefix's end, so that a slow shard at the front does not
        leave the whole job finished and held behind it."""
        ray = self.cluster.ray
        job_ref = ray.put(job)
        count = job.plan.count
        lookahead = LOOKAHEAD_PER_SLOT * self.max_in_flight
        next_index = 0
        in_flight: list[Any] = []

        def start_more() -> None:
            nonlocal next_index
            while next_index < count and len(in_flight) < self.max_in_flight:
                if stop is not None and next_index >= stop.shards + lookahead:
                    break  # the prefix's end moves on as the shards before it arrive
                in_flight.append(self.cluster.task.remote(job_ref, next_index))
                next_index += 1

        try:
            start_more()
            while in_flight:
                ready, in_flight = ray.wait(in_flight, num_returns=1)
                start_more()
                index, tally, _seconds = ray.get(ready[0])
                yield index, tally
                start_more()  # the consumer has added the tally: the prefix may have grown
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
