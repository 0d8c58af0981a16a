"""Prometheus metrics for the service, on a registry of its own.

Label values stay bounded: job kinds, job states, RPC method names and status codes,
versions; never job ids.  Job counts by state are read from the store at scrape time, so
they are exact after a restart; a store that cannot be read then (a database away) leaves
the counts last read in place and ``cardroom_store_up`` at 0, so the endpoint itself keeps
answering and every other metric stays visible.

Every counter is exported from the first scrape, at zero for each kind and each method
(with code OK): a rate over a series that does not exist yet is an empty vector, not 0,
and an alert on "no progress" could never fire after a restart.
"""

from __future__ import annotations

import logging
import platform
import threading
from collections.abc import Callable, Iterable, Iterator
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from service.kinds import KINDS
from service.store import JobState

log = logging.getLogger(__name__)

SHARD_SECONDS_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300)
# A unary call's time: milliseconds for reads, up to the default --call-timeout (60 s).
REQUEST_SECONDS_BUCKETS = (
    *(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5),
    *(1, 2.5, 5, 10, 30, 60),
)


def _version_of(distribution: str) -> str:
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "unknown"


class _JobsByState(Collector):
    """``cardroom_jobs`` from the store at scrape time, and ``cardroom_store_up``: whether
    that read worked.  A failed read never fails the scrape (an HTTP 500 would hide every
    metric, and look like the service down): the counts last read stand in, or none."""

    def __init__(self, counts: Callable[[], Iterable[tuple[str, str, int]]]) -> None:
        self._counts = counts
        self._last: dict[tuple[str, str], int] | None = None
        self._up = True
        self._lock = threading.Lock()  # scrapes may come on several threads at once

    def collect(self) -> Iterator[GaugeMetricFamily]:
        with self._lock:
            try:
                self._last = {(kind, state): n for kind, state, n in self._counts()}
                if not self._up:
                    log.warning("the job store is readable again")
                up = True
            except Exception as err:  # any failure: the endpoint must still answer
                if self._up:
                    log.error("the job store cannot be read for metrics: %s", err)
                up = False
            self._up = up
            seen = self._last
        store_up = GaugeMetricFamily(
            "cardroom_store_up", "1 while the job store can be read, 0 while it cannot."
        )
        store_up.add_metric([], 1 if up else 0)
        yield store_up
        if seen is None:
            return  # never read: no counts rather than made-up zeros
        family = GaugeMetricFamily(
            "cardroom_jobs",
            "Jobs in the store by kind and state (the last counts read while the store "
            "cannot be read).",
            labels=["kind", "state"],
        )
        # Every kind offered, at zero until it has jobs, and any other kind the store holds.
        for kind in sorted({kind for kind, _ in seen} | set(KINDS)):
            for state in JobState:
                family.add_metric([kind, state.value], seen.get((kind, state.value), 0))
        yield family


class _CertificateExpiry(Collector):
    """``cardroom_tls_certificate_expiry_timestamp_seconds``: when the server's TLS
    certificate expires; the family without a sample for a server without TLS."""

    def __init__(self) -> None:
        self.expires: float | None = None

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "cardroom_tls_certificate_expiry_timestamp_seconds",
            "When the server's TLS certificate (--tls-cert) expires, in seconds since the epoch.",
        )
        if self.expires is not None:
            family.add_metric([], self.expires)
        yield family


class ServiceMetrics:
    """Every metric the service exports, registered on ``registry``."""

    def __init__(
        self,
        registry: CollectorRegistry,
        job_counts: Callable[[], Iterable[tuple[str, str, int]]],
        *,
        kinds: Iterable[str] = KINDS,
    ) -> None:
        self.registry = registry
        registry.register(_JobsByState(job_counts))
        self._certificate = _CertificateExpiry()
        registry.register(self._certificate)
        # Memory, CPU, open files and start time of this process (process_*).
        ProcessCollector(registry=registry)
        self.build_info = Gauge(
            "cardroom_build_info",
            "Always 1: the versions this server runs, in its labels.",
            ["version", "python", "ray"],
            registry=registry,
        )
        self.build_info.labels(
            _version_of("cardroom"), platform.python_version(), _version_of("ray")
        ).set(1)
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
        for kind in kinds:
            self.trials.labels(kind)
            self.shard_seconds.labels(kind)
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
        self.request_seconds = Histogram(
            "cardroom_grpc_request_duration_seconds",
            "Time to answer a unary gRPC call, by method (streams are not timed).",
            ["method"],
            buckets=REQUEST_SECONDS_BUCKETS,
            registry=registry,
        )

    def known_methods(self, unary: Iterable[str], streaming: Iterable[str] = ()) -> None:
        """Export each method the server has from the first scrape: its calls with code OK
        at 0, and for a unary method its time histogram."""
        for method in unary:
            self.requests.labels(method, "OK")
            self.request_seconds.labels(method)
        for method in streaming:
            self.requests.labels(method, "OK")

    def certificate_expires(self, timestamp: float) -> None:
        self._certificate.expires = timestamp

    def shard_done(self, kind: str, trials: int, seconds: float) -> None:
        self.trials.labels(kind).inc(trials)
        self.shard_seconds.labels(kind).observe(seconds)

    def request(self, method: str, code: Any) -> None:
        name = getattr(code, "name", str(code))
        self.requests.labels(method, name).inc()

    def request_time(self, method: str, seconds: float) -> None:
        self.request_seconds.labels(method).observe(seconds)
