"""The fair scheduler's turns, checked slot by slot: namespaces share the worker slots by
weight whatever the size of their jobs, a namespace's own jobs go by priority and then in
the order submitted, a namespace back from idle does not spend time it did not use, a
cancelled wait gives its slot back, and the queue depth and wait are exported."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import TypeVar

from prometheus_client import CollectorRegistry

from service.scheduler import FairScheduler, Flow, Grant

T = TypeVar("T")


def run(body: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(body())  # type: ignore[arg-type]


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


class Queue:
    """Jobs each asking for slots shard after shard, as the job manager does; the test
    finishes shards by hand and reads who got each slot."""

    def __init__(self, scheduler: FairScheduler) -> None:
        self.scheduler = scheduler
        self.granted: list[tuple[str, Grant]] = []
        self.tasks: list[asyncio.Task[None]] = []

    def job(self, name: str, namespace: str, shards: int, priority: int = 0) -> Flow:
        flow = self.scheduler.add(namespace, priority, shards)

        async def ask() -> None:
            for _ in range(shards):
                grant = await self.scheduler.acquire(flow)
                self.granted.append((name, grant))

        self.tasks.append(asyncio.get_running_loop().create_task(ask()))
        return flow

    def finish(self, name: str, seconds: float = 1.0) -> None:
        """Finish the oldest running shard of job ``name``."""
        for i, (who, grant) in enumerate(self.running):
            if who == name:
                self.scheduler.release(grant, seconds)
                del self.running[i]
                return
        raise AssertionError(f"{name} has no shard running")

    @property
    def running(self) -> list[tuple[str, Grant]]:
        if not hasattr(self, "_running"):
            self._running: list[tuple[str, Grant]] = []
        self._running.extend(self.granted)
        self.granted.clear()
        return self._running

    def names(self) -> list[str]:
        return [who for who, _ in self.running]

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def test_a_small_job_takes_the_first_free_slot_behind_a_huge_one() -> None:
    """Behind one namespace's job of a million shards holding every slot, another
    namespace's one-shard job takes the very next slot that comes free."""

    async def body() -> None:
        queue = Queue(FairScheduler(2))
        queue.job("huge", "alice", 1_000_000)
        await settle()
        for _ in range(10):  # alice has run alone for a while
            queue.finish("huge")
            await settle()
        assert queue.names() == ["huge", "huge"]
        queue.job("small", "bob", 1)
        await settle()
        assert queue.names() == ["huge", "huge"]  # no slot free yet
        queue.finish("huge")
        await settle()
        assert queue.names() == ["huge", "small"]
        await queue.close()

    run(body)


def test_namespaces_share_the_slots_by_weight() -> None:
    """Two namespaces busy at once, weights 2 and 1, shards of equal length: over 300
    turns they get 200 and 100, to within one turn."""

    async def body() -> None:
        weights = {"alice": 2, "bob": 1}
        queue = Queue(FairScheduler(1, weight_of=weights.__getitem__))
        queue.job("a", "alice", 10_000)
        queue.job("b", "bob", 10_000)
        await settle()
        turns: Counter[str] = Counter()
        for _ in range(300):
            (who,) = queue.names()
            turns[who] += 1
            queue.finish(who)
            await settle()
        assert abs(turns["a"] - 200) <= 1 and abs(turns["b"] - 100) <= 1, turns
        await queue.close()

    run(body)


def test_shares_follow_time_used_not_shards() -> None:
    """A namespace whose shards take four times as long gets a quarter of the turns: the
    workers' time is shared, not the count of shards."""

    async def body() -> None:
        queue = Queue(FairScheduler(1))
        queue.job("slow", "alice", 10_000)
        queue.job("fast", "bob", 10_000)
        await settle()
        turns: Counter[str] = Counter()
        for _ in range(500):
            (who,) = queue.names()
            turns[who] += 1
            queue.finish(who, 4.0 if who == "slow" else 1.0)
            await settle()
        assert abs(turns["fast"] - 4 * turns["slow"]) <= 5, turns
        await queue.close()

    run(body)


def test_within_a_namespace_priority_then_submission_order() -> None:
    """One namespace's jobs: the higher priority first, equal priorities in the order they
    were submitted — each job's shards all before the next job's."""

    async def body() -> None:
        queue = Queue(FairScheduler(1))
        queue.job("first", "alice", 2)
        queue.job("second", "alice", 2)
        queue.job("urgent", "alice", 2, priority=5)
        await settle()
        order = []
        for _ in range(6):
            (who,) = queue.names()
            order.append(who)
            queue.finish(who)
            await settle()
        # "first" had taken the slot before "urgent" came; from then on priority rules.
        assert order == ["first", "urgent", "urgent", "first", "second", "second"]
        await queue.close()

    run(body)


def test_a_namespace_back_from_idle_starts_level() -> None:
    """Bob ran nothing while alice ran 100 shards alone; when bob comes, the two alternate
    rather than bob taking 100 turns in a row on the time he did not use."""

    async def body() -> None:
        queue = Queue(FairScheduler(1))
        queue.job("a", "alice", 10_000)
        await settle()
        for _ in range(100):
            queue.finish("a")
            await settle()
        queue.job("b", "bob", 10_000)
        await settle()
        order = []
        for _ in range(10):
            (who,) = queue.names()
            order.append(who)
            queue.finish(who)
            await settle()
        assert order.count("b") in (5, 6), order
        await queue.close()

    run(body)


def test_a_cancelled_wait_gives_nothing_away() -> None:
    """A job cancelled while it waits leaves the slots as they were: the next job in line
    gets the slot that comes free."""

    async def body() -> None:
        queue = Queue(FairScheduler(1))
        queue.job("a", "alice", 5)
        queue.job("b", "bob", 5)
        await settle()
        waiting = queue.tasks[1] if queue.names() == ["a"] else queue.tasks[0]
        waiting.cancel()
        await settle()
        (holder,) = queue.names()
        queue.finish(holder)
        await settle()
        assert queue.names() == [holder]  # the cancelled job took nothing
        assert queue.scheduler.busy == 1
        await queue.close()

    run(body)


def test_queue_depth_and_wait_are_exported_by_namespace() -> None:
    """`cardroom_queue_depth_shards{namespace}` counts shards not started, and
    `cardroom_queue_wait_seconds{namespace}` observes each job's wait for its first slot."""

    async def body() -> None:
        registry = CollectorRegistry()
        queue = Queue(FairScheduler(1, registry=registry))
        queue.job("a", "alice", 3)
        queue.job("b", "bob", 4)
        await settle()
        depth = {
            ns: registry.get_sample_value("cardroom_queue_depth_shards", {"namespace": ns})
            for ns in ("alice", "bob")
        }
        assert depth == {"alice": 2.0, "bob": 4.0}
        count = registry.get_sample_value("cardroom_queue_wait_seconds_count", {"namespace": "bob"})
        assert count is None or count == 0.0  # bob has not started
        queue.finish("a")
        await settle()
        count = registry.get_sample_value("cardroom_queue_wait_seconds_count", {"namespace": "bob"})
        assert count == 1.0
        await queue.close()

    run(body)
