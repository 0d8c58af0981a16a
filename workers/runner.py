"""Running a job's shards and merging their tallies as they finish.

:class:`InlineRunner` runs shards one after another in this process (a library user's
default and the reference for determinism).  :class:`RayRunner` fans them out as Ray
tasks, on an embedded single-machine Ray by default or on an existing cluster by
address, keeping a bounded number in flight and merging in completion order; tallies
are integer counts, so the merge order never changes the result.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from workers.job import Job

# Ray reads these when it is imported.  Loopback-only binding, no token auth for a
# private local cluster, and no usage reporting; a deployment may set its own values.
RAY_LOCAL_ENVIRONMENT = {
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_AUTH_MODE": "disabled",
    "RAY_USAGE_STATS_ENABLED": "0",
}


@dataclass(frozen=True)
class Progress:
    shards_done: int
    shards_total: int
    trials_done: int
    tally: Any


ProgressCallback = Callable[[Progress], None]


class InlineRunner:
    """Run every shard in this process, in order."""

    def run(self, job: Job, on_progress: ProgressCallback | None = None) -> Any:
        return merge_in_order(
            job, ((i, job.run_shard(i)) for i in range(job.plan.count)), on_progress
        )

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


def _run_shard(job: Job, index: int) -> tuple[int, Any]:
    return index, job.run_shard(index)


class RayRunner:
    """Run shards as Ray tasks: an embedded local Ray, or a cluster at ``address``."""

    def __init__(
        self,
        num_cpus: int | None = None,
        *,
        address: str | None = None,
        max_in_flight: int | None = None,
    ) -> None:
        for key, value in RAY_LOCAL_ENVIRONMENT.items():
            if address is None or key != "RAY_AUTH_MODE":
                os.environ.setdefault(key, value)
        import ray

        self._ray = ray
        self._owns_ray = not ray.is_initialized()
        if self._owns_ray:
            if address is None:
                ray.init(
                    num_cpus=num_cpus or os.cpu_count() or 1,
                    include_dashboard=False,
                    log_to_driver=False,
                    object_store_memory=200 * 2**20,
                    configure_logging=False,
                )
            else:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.max_in_flight = max_in_flight or max(2, 3 * cpus)
        self._task = ray.remote(max_retries=3, retry_exceptions=False)(_run_shard)

    def run(self, job: Job, on_progress: ProgressCallback | None = None) -> Any:
        return merge_in_order(job, self._completed(job), on_progress)

    def _completed(self, job: Job) -> Iterable[tuple[int, Any]]:
        ray = self._ray
        job_ref = ray.put(job)
        pending = iter(range(job.plan.count))
        in_flight: list[Any] = []
        try:
            for index in pending:
                in_flight.append(self._task.remote(job_ref, index))
                if len(in_flight) >= self.max_in_flight:
                    break
            while in_flight:
                ready, in_flight = ray.wait(in_flight, num_returns=1)
                for index in pending:
                    in_flight.append(self._task.remote(job_ref, index))
                    break
                yield ray.get(ready[0])
        finally:
            for ref in in_flight:
                ray.cancel(ref, force=True)

    def close(self) -> None:
        if self._owns_ray and self._ray.is_initialized():
            self._ray.shutdown()

    def __enter__(self) -> RayRunner:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
