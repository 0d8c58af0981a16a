"""Worker slots shared fairly between namespaces.

Every job's next shard waits here for a worker slot.  Between namespaces the slots go by
weighted fair queuing on the worker time each namespace has had: the namespace waiting
with the least time used per unit of weight takes the next free slot, so two namespaces
with jobs waiting share the workers in proportion to their weights (``weight=N`` in the
tokens file, 1 by default) whatever the size of their jobs.  A namespace that comes back
after a pause starts level with the namespaces still waiting, never ahead on the time it
did not use.  Within a namespace its jobs go by priority (higher first), then in the
order they were submitted, each job's shards in index order.

A shard is charged the seconds its job's shards have taken on average when it starts
(one second before any has finished), and the charge is set right when it ends.  A small
job behind another namespace's huge one therefore waits only for the first slot to come
free, and then for nothing.

The queue depth (shards not yet started) and the time each job waited for its first
shard are exported per namespace (``cardroom_queue_depth_shards``,
``cardroom_queue_wait_seconds``).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

FIRST_SHARD_SECONDS = 1.0  # a shard's charge before any of its job's shards has finished
WAIT_BUCKETS = (0.1, 0.5, 1, 2.5, 5, 15, 30, 60, 300, 900, 1800, 3600, 4 * 3600, 12 * 3600)


@dataclass
class Flow:
    """One job's place in the queue: its namespace, order and what it has used."""

    namespace: str
    priority: int
    order: int
    remaining: int  # shards not started yet
    queued_at: float = field(default_factory=time.monotonic)
    started: bool = False
    seconds: float = 0.0  # worker seconds of its finished shards
    finished: int = 0

    @property
    def shard_cost(self) -> float:
        return self.seconds / self.finished if self.finished else FIRST_SHARD_SECONDS


@dataclass
class Grant:
    """A worker slot held by one shard; give it back with :meth:`FairScheduler.release`."""

    flow: Flow
    charged: float


@dataclass(order=True)
class _Waiter:
    key: tuple[int, int, int]  # (-priority, job order, arrival)
    flow: Flow = field(compare=False)
    future: asyncio.Future[None] = field(compare=False)


class FairScheduler:
    def __init__(
        self,
        slots: int,
        weight_of: Callable[[str], int] = lambda _namespace: 1,
        registry: CollectorRegistry | None = None,
    ) -> None:
        self.slots = slots
        self.weight_of = weight_of
        self.busy = 0
        self._used: dict[str, float] = {}  # worker seconds per weight, by namespace
        self._waiting: dict[str, list[_Waiter]] = {}
        self._running: dict[str, int] = {}
        self._flows: set[int] = set()
        self._all: dict[int, Flow] = {}
        self._arrivals = itertools.count()
        self._turns = itertools.count()
        self._last_turn: dict[str, int] = {}  # when each namespace last took a slot
        self._orders = itertools.count()
        self.wait_seconds: Histogram | None = None
        if registry is not None:
            registry.register(_QueueDepth(self))
            self.wait_seconds = Histogram(
                "cardroom_queue_wait_seconds",
                "Time a job waited from being queued to its first shard starting.",
                ["namespace"],
                buckets=WAIT_BUCKETS,
                registry=registry,
            )

    # -- jobs --------------------------------------------------------------------------

    def add(self, namespace: str, priority: int, shards: int) -> Flow:
        """A job joins the queue with ``shards`` shards to run."""
        flow = Flow(namespace, priority, next(self._orders), shards)
        self._all[id(flow)] = flow
        return flow

    def remove(self, flow: Flow) -> None:
        """The job has ended (or stopped): it no longer counts in the queue."""
        self._all.pop(id(flow), None)

    def requeue(self, flow: Flow) -> None:
        """One of the job's shards is back in its queue (Ray lost it)."""
        flow.remaining += 1

    def flows(self) -> Iterator[Flow]:
        return iter(list(self._all.values()))

    # -- slots -------------------------------------------------------------------------

    async def acquire(self, flow: Flow) -> Grant:
        """Wait for the job's turn and a free slot; the slot is held until released."""
        if not self._waiting.get(flow.namespace) and not self._running.get(flow.namespace):
            self._level(flow.namespace)
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiter = _Waiter((-flow.priority, flow.order, next(self._arrivals)), flow, future)
        heapq.heappush(self._waiting.setdefault(flow.namespace, []), waiter)
        self._dispatch()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._give_back(flow.namespace)  # granted as it was cancelled
            else:
                self._forget(waiter)
            raise
        charged = flow.shard_cost / self._weight(flow.namespace)
        self._used[flow.namespace] = self._used.get(flow.namespace, 0.0) + charged
        flow.remaining = max(0, flow.remaining - 1)
        if not flow.started:
            flow.started = True
            if self.wait_seconds is not None:
                waited = time.monotonic() - flow.queued_at
                self.wait_seconds.labels(flow.namespace).observe(waited)
        return Grant(flow, charged)

    def release(self, grant: Grant, seconds: float | None) -> None:
        """Give the slot back; ``seconds`` the shard took (None: it did not finish)."""
        namespace = grant.flow.namespace
        if seconds is not None:
            grant.flow.seconds += seconds
            grant.flow.finished += 1
            actual = seconds / self._weight(namespace)
            self._used[namespace] = self._used.get(namespace, 0.0) + actual - grant.charged
        self._give_back(namespace)

    def _give_back(self, namespace: str) -> None:
        self.busy -= 1
        self._running[namespace] -= 1
        if not self._running[namespace]:
            del self._running[namespace]
        self._dispatch()

    def _weight(self, namespace: str) -> int:
        return max(1, self.weight_of(namespace))

    def _level(self, namespace: str) -> None:
        """A namespace coming back from idle starts level with the busiest laggard, so
        it cannot spend time saved while it had nothing to run."""
        active = [self._used.get(ns, 0.0) for ns in set(self._waiting) | set(self._running)]
        floor = min(active) if active else max(self._used.values(), default=0.0)
        self._used[namespace] = max(self._used.get(namespace, 0.0), floor)

    def _forget(self, waiter: _Waiter) -> None:
        heap = self._waiting.get(waiter.flow.namespace)
        if heap and waiter in heap:
            heap.remove(waiter)
            heapq.heapify(heap)
            if not heap:
                del self._waiting[waiter.flow.namespace]

    def _dispatch(self) -> None:
        while self.busy < self.slots and self._waiting:
            # Least time used per weight first; on a tie, the namespace served longest ago.
            namespace = min(
                self._waiting,
                key=lambda ns: (self._used.get(ns, 0.0), self._last_turn.get(ns, -1), ns),
            )
            heap = self._waiting[namespace]
            waiter = heapq.heappop(heap)
            if not heap:
                del self._waiting[namespace]
            if waiter.future.done():  # cancelled while waiting
                continue
            self.busy += 1
            self._last_turn[namespace] = next(self._turns)
            self._running[namespace] = self._running.get(namespace, 0) + 1
            waiter.future.set_result(None)

    def depth(self) -> dict[str, int]:
        """Shards not yet started, by namespace."""
        depth: dict[str, int] = {}
        for flow in self._all.values():
            depth[flow.namespace] = depth.get(flow.namespace, 0) + flow.remaining
        return depth


class _QueueDepth(Collector):
    def __init__(self, scheduler: FairScheduler) -> None:
        self._scheduler = scheduler

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "cardroom_queue_depth_shards",
            "Shards of queued and running jobs not yet started, by namespace.",
            labels=["namespace"],
        )
        for namespace, shards in sorted(self._scheduler.depth().items()):
            family.add_metric([namespace], shards)
        yield family
