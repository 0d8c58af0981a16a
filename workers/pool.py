"""Shards on Ray for the service, through a driver process it restarts when Ray is lost.

:class:`ShardPool` starts :mod:`workers.driver` (which holds the Ray connection: an
embedded Ray, or a cluster by address), sends it jobs and shards, and awaits their
tallies.  When the driver ends — its raylet or GCS killed, the head of a remote cluster
gone, the Ray Client connection dropped — every shard it had in flight ends with
:class:`ShardLost`, which the caller puts back in the job's queue; the pool then starts a
new driver, waiting 1, 2, 4 … up to :data:`MAX_BACKOFF` seconds between tries, and reports
each change of connection to its ``on_connection`` callback (the server's health status).
Shards wait, without a worker slot's work being lost, while no cluster is connected.

A shard whose own code raised ends with :class:`ShardFailed`: that is the job's fault,
and fails it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

from workers.frames import FramedSocket
from workers.job import Job

log = logging.getLogger(__name__)

FIRST_BACKOFF = 1.0
MAX_BACKOFF = 30.0
READY_TIMEOUT = 180.0  # seconds a new driver may take to start Ray or join the cluster


class ShardLost(RuntimeError):
    """Ray lost the shard (a worker, raylet, node or the whole cluster went away): run it
    again; its seed makes the rerun give the same tally.  ``cluster_lost`` tells a shard
    lost with the whole cluster from one whose worker died while the cluster stayed up."""

    def __init__(self, reason: str, *, cluster_lost: bool) -> None:
        super().__init__(reason)
        self.cluster_lost = cluster_lost


class ShardFailed(RuntimeError):
    """The shard's own code raised: the job cannot finish."""


class DriverError(RuntimeError):
    """A driver that did not start (Ray did not start, the cluster refused us)."""


class _Driver:
    """One driver process and its end of the socket; its messages reach the event loop."""

    def __init__(
        self,
        cpus: int | None,
        address: str | None,
        loop: asyncio.AbstractEventLoop,
        deliver: Callable[[_Driver, tuple[Any, ...] | None], None],
    ) -> None:
        ours, theirs = socket.socketpair()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "workers.driver",
                str(theirs.fileno()),
                str(cpus or 0),
                address or "-",
            ],
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
            # Ray's own start-up noise stays out of the server's output; the driver's
            # errors come back as messages.
            stdout=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": _import_path()},
        )
        theirs.close()
        self.channel = FramedSocket(ours)
        self.ready: asyncio.Future[int] = loop.create_future()
        self.sent_jobs: set[str] = set()
        self._loop = loop
        self._deliver = deliver
        self._reader = threading.Thread(target=self._read, name="ray-driver-reader", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            message = self.channel.receive()
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody listens
                self._loop.call_soon_threadsafe(self._deliver, self, message)
            if message is None:
                return

    def send(self, *message: Any) -> bool:
        try:
            self.channel.send(*message)
        except OSError:
            return False
        return True

    def stop(self, timeout: float = 30) -> None:
        """End the driver: closing its socket makes it stop its Ray and exit."""
        self.channel.close()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _import_path() -> str:
    """The driver imports this package as the server does, wherever it was started."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    paths = [root, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return os.pathsep.join(dict.fromkeys(paths))


class ShardPool:
    """Run shards on Ray; ride out the loss of Ray by re-queueing and reconnecting."""

    def __init__(
        self,
        cpus: int | None = None,
        *,
        address: str | None = None,
        max_in_flight: int | None = None,
        on_connection: Callable[[bool], None] | None = None,
    ) -> None:
        self.cpus_wanted = cpus
        self.address = address
        self.max_in_flight_wanted = max_in_flight
        self.max_in_flight = max_in_flight or 1
        self.cpus = 0
        self.in_flight = 0
        self.restarts = 0
        self.on_connection = on_connection
        self._driver: _Driver | None = None
        self._connected = asyncio.Event()
        self._pending: dict[str, asyncio.Future[tuple[Any, float]]] = {}
        self._keys = itertools.count()
        self._supervisor: asyncio.Task[None] | None = None
        self._closing = False

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    async def start(self) -> None:
        """Start the first driver; :class:`DriverError` says why Ray did not start."""
        await self._start_driver()
        self._supervisor = asyncio.get_running_loop().create_task(self._supervise())

    async def _start_driver(self) -> None:
        loop = asyncio.get_running_loop()
        driver = _Driver(self.cpus_wanted, self.address, loop, self._deliver)
        try:
            cpus = await asyncio.wait_for(asyncio.shield(driver.ready), READY_TIMEOUT)
        except TimeoutError:
            await asyncio.to_thread(driver.stop, 5)
            raise DriverError(f"Ray did not start within {READY_TIMEOUT:.0f} s") from None
        except DriverError:
            await asyncio.to_thread(driver.stop, 5)
            raise
        self._driver = driver
        self.cpus = cpus
        # One task per CPU: a shard waiting in Ray's own queue would wait behind another
        # job's shards, out of reach of the service's fair sharing.
        self.max_in_flight = self.max_in_flight_wanted or max(1, cpus)
        self._connected.set()
        if self.on_connection is not None:
            self.on_connection(True)

    async def _supervise(self) -> None:
        """Start a new driver whenever the current one ends, with backoff."""
        while not self._closing:
            driver = self._driver
            if driver is not None:
                await asyncio.to_thread(driver.process.wait)
            if self._closing:
                return
            backoff = FIRST_BACKOFF
            while not self._closing:
                await asyncio.sleep(backoff)
                try:
                    await self._start_driver()
                except DriverError as err:
                    log.error(
                        "Ray is still unavailable (%s); trying again in %.0f s",
                        err,
                        min(2 * backoff, MAX_BACKOFF),
                    )
                    backoff = min(2 * backoff, MAX_BACKOFF)
                    continue
                self.restarts += 1
                log.warning("Ray is back (%d CPUs); lost shards run again", self.cpus)
                break

    def _deliver(self, driver: _Driver, message: tuple[Any, ...] | None) -> None:
        """A message from a driver (None: it ended), handled in the event loop."""
        if message is None:
            self._ended(driver, "the Ray driver ended")
            return
        verb, *args = message
        if verb == "ready":
            if not driver.ready.done():
                driver.ready.set_result(int(args[0]))
        elif verb == "error":
            if not driver.ready.done():
                driver.ready.set_exception(DriverError(str(args[0])))
        elif verb == "gone":
            self._ended(driver, str(args[0]))
        elif verb in ("done", "failed", "lost"):
            future = self._pending.pop(args[0], None)
            if future is None or future.done():
                return
            if verb == "done":
                future.set_result((args[1], float(args[2])))
            elif verb == "failed":
                future.set_exception(ShardFailed(str(args[1])))
            else:
                future.set_exception(ShardLost(str(args[1]), cluster_lost=False))

    def _ended(self, driver: _Driver, reason: str) -> None:
        if not driver.ready.done():
            driver.ready.set_exception(DriverError(reason))
        if driver is not self._driver:
            return
        self._driver = None
        self._connected.clear()
        if self._closing:
            return
        log.error(
            "Ray was lost: %s; %d shards go back to their jobs' queues", reason, len(self._pending)
        )
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ShardLost(reason, cluster_lost=True))
        self._pending.clear()
        if self.on_connection is not None:
            self.on_connection(False)

    async def run(self, job_key: str, job: Job, index: int) -> tuple[Any, float]:
        """Run shard ``index`` of ``job`` (named ``job_key``); its tally and seconds.

        Waits while no cluster is connected.  Raises :class:`ShardLost` when Ray loses it,
        :class:`ShardFailed` when its code raised.  Cancelling the call cancels the task.
        """
        while True:
            await self._connected.wait()
            driver = self._driver
            if driver is not None:
                break
        shard_key = f"s{next(self._keys)}"
        future: asyncio.Future[tuple[Any, float]] = asyncio.get_running_loop().create_future()
        self._pending[shard_key] = future
        if job_key not in driver.sent_jobs:
            driver.sent_jobs.add(job_key)
            driver.send("job", job_key, job)
        if not driver.send("run", shard_key, job_key, index):
            self._pending.pop(shard_key, None)
            raise ShardLost("the Ray driver stopped taking shards", cluster_lost=True)
        self.in_flight += 1
        try:
            return await future
        except asyncio.CancelledError:
            if self._pending.pop(shard_key, None) is not None:
                driver.send("cancel", shard_key)
            raise
        finally:
            self.in_flight -= 1

    def forget(self, job_key: str) -> None:
        """The job has ended: its copy in Ray's store may go."""
        driver = self._driver
        if driver is not None and job_key in driver.sent_jobs:
            driver.sent_jobs.discard(job_key)
            driver.send("forget", job_key)

    async def close(self) -> None:
        self._closing = True
        if self._supervisor is not None:
            self._supervisor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._supervisor
        driver, self._driver = self._driver, None
        self._connected.clear()
        if driver is not None:
            await asyncio.to_thread(driver.stop)
