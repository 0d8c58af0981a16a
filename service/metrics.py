"""Prometheus metrics for the service, on a registry of its own.

Label values stay bounded: job kinds, job states, RPC method names and status codes;
never job ids.  Job counts by state are read from the store at scrape time, so they
are exact after a restart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from service.kinds import KINDS
from service.store import JobState

SHARD_SECONDS_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300)


class _JobsByState(Collector):
    def __init__(self, counts: Callable[[], Iterable[tuple[str, str, int]]]) -> None:
        self._counts = counts

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "cardroom_jobs", "Jobs in the store by kind and state.", labels=["kind", "state"]
        )
        seen = {(kind, state): n for kind, state, n in self._counts()}
        # Every kind offered, at zero until it has jobs, and any other kind the store holds.
        for kind in sorted({kind for kind, _ in seen} | set(KINDS)):
            for state in JobState:
                family.add_metric([kind, state.value], seen.get((kind, state.value), 0))
        yield family


class ServiceMetrics:
    """Every metric the service exports, registered on ``registry``."""

    def __init__(
        self,
        registry: CollectorRegistry,
        job_counts: Callable[[], Iterable[tuple[str, str, int]]],
    ) -> None:
        self.registry = registry
        registry.register(_JobsByState(job_counts))
        self.trials = Counter(
            "cardroom_trials_simulated",
            "Trials simulated in finished shards.",
            ["kind"],
            registry=registry,
        )
        self.shard_seconds = Histogram(
            "cardroom_shard_duration_seconds",
            "Time a worker spent on one shard.",
            ["kind"],
            buckets=SHARD_SECONDS_BUCKETS,
            registry=registry,
        )
        self.shards_in_flight = Gauge(
            "cardroom_shards_in_flight",
            "Shards submitted to workers and not yet finished.",
            registry=registry,
        )
        self.requests = Counter(
            "cardroom_grpc_requests",
            "gRPC requests handled, by method and status code.",
            ["method", "code"],
            registry=registry,
        )

    def shard_done(self, kind: str, trials: int, seconds: float) -> None:
        self.trials.labels(kind).inc(trials)
        self.shard_seconds.labels(kind).observe(seconds)

    def request(self, method: str, code: Any) -> None:
        name = getattr(code, "name", str(code))
        self.requests.labels(method, name).inc()
