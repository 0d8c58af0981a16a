"""The service's Ray driver: a process of its own that holds the Ray connection and runs
shards for the service (:class:`workers.pool.ShardPool` starts it and talks to it).

Ray ends a driver process outright when its local raylet dies ("the local Raylet is
dead"), and a driver whose cluster went away (a killed head, a dropped Ray Client
connection) cannot be joined to a new one in the same process.  Kept in a process of its
own, a lost cluster ends only this process: the service notices its end, puts the shards
it had in flight back in their jobs' queues, and starts a new driver (a new embedded Ray,
or a new connection to the cluster's address) when Ray is back.

Run as ``python -m workers.driver FD CPUS ADDRESS``: FD is the service's end of a socket
pair, CPUS the embedded Ray's size (0: every CPU), ADDRESS a cluster to join or ``-`` for
an embedded Ray.  The messages (see workers/frames.py):

- service to driver: ``("job", key, job)``, ``("run", shard_key, key, index)``,
  ``("cancel", shard_key)``, ``("forget", key)``;
- driver to service: ``("ready", cpus)``, ``("done", shard_key, tally, seconds)``,
  ``("failed", shard_key, reason)`` when the shard's own code raised (the job's fault),
  ``("lost", shard_key, reason)`` when Ray lost it (the cluster's fault), and
  ``("gone", reason)`` just before the driver ends because its cluster is gone.

The driver ends when the service closes its end, and then stops the Ray it started.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading
import time
from concurrent.futures import Future
from typing import Any

from workers.frames import FramedSocket

CLUSTER_GONE_EXIT = 3  # the driver's exit status when it ends because Ray went away
WATCH_SECONDS = 0.25  # how often the embedded Ray's core processes are checked
# A Ray Client connection that drops is retried for this long before its calls fail
# (Ray's default is 30 s); the service retries on its own, with backoff, after that.
CLIENT_RECONNECT_GRACE = "10"


def one_line(err: BaseException) -> str:
    """An exception as one readable line: its type and the first line of its text that
    says something (Ray's reprs end in lines such as '>')."""
    lines = [line.strip() for line in str(err).splitlines()]
    words = [line for line in lines if any(ch.isalnum() for ch in line)]
    name = type(err).__name__
    return f"{name}: {words[0]}" if words else name


class Driver:
    def __init__(self, channel: FramedSocket, cpus: int | None, address: str | None) -> None:
        os.environ.setdefault("RAY_CLIENT_RECONNECT_GRACE_PERIOD", CLIENT_RECONNECT_GRACE)
        from workers.runner import RayCluster

        self.channel = channel
        self.cluster = RayCluster(cpus, address=address)
        self.ray = self.cluster.ray
        self.address = address
        self._jobs: dict[str, Any] = {}  # job key -> the job's reference in Ray's store
        self._refs: dict[str, Any] = {}  # shard key -> its task's reference
        self._lock = threading.Lock()

    # -- the cluster's health --------------------------------------------------------

    def _core_pids(self) -> list[int]:
        """The embedded Ray's GCS server and raylet: without either, it is gone."""
        node = getattr(self.ray._private.worker, "_global_node", None)
        processes = getattr(node, "all_processes", {}) or {}
        pids = []
        for kind in ("gcs_server", "raylet"):
            for info in processes.get(kind, ()):
                process = getattr(info, "process", None)
                if process is not None:
                    pids.append(int(process.pid))
        return pids

    def watch(self) -> None:
        """End this driver as soon as its cluster is gone (a thread)."""
        pids = self._core_pids() if self.address is None else []
        while True:
            time.sleep(WATCH_SECONDS)
            if pids:
                for pid in pids:
                    if not _alive(pid):
                        self.gone(f"the embedded Ray's {_name(pid)} (pid {pid}) ended")
            elif not self.ray.is_initialized():
                self.gone(f"the connection to the Ray cluster at {self.address} was lost")

    def gone(self, reason: str) -> None:
        with contextlib.suppress(OSError):
            self.channel.send("gone", reason)
        os._exit(CLUSTER_GONE_EXIT)

    # -- shards ------------------------------------------------------------------------

    def serve(self) -> None:
        self.channel.send("ready", self.cluster.cpus)
        threading.Thread(target=self.watch, name="ray-watch", daemon=True).start()
        while True:
            message = self.channel.receive()
            if message is None:
                return
            verb, *args = message
            if verb == "job":
                key, job = args
                self._jobs[key] = self.ray.put(job)
            elif verb == "run":
                self._run(*args)
            elif verb == "cancel":
                with self._lock:
                    ref = self._refs.pop(args[0], None)
                if ref is not None:
                    with contextlib.suppress(Exception):
                        self.ray.cancel(ref)
            elif verb == "forget":
                self._jobs.pop(args[0], None)

    def _run(self, shard_key: str, job_key: str, index: int) -> None:
        try:
            ref = self.cluster.task.remote(self._jobs[job_key], index)
            future = ref.future()
        except Exception as err:  # the cluster refused the task: it is the cluster's fault
            self.channel.send("lost", shard_key, one_line(err))
            self._check_connected()
            return
        with self._lock:
            self._refs[shard_key] = ref
        future.add_done_callback(lambda done: self._finished(shard_key, done))

    def _finished(self, shard_key: str, future: Future[Any]) -> None:
        with self._lock:
            if self._refs.pop(shard_key, None) is None:
                return  # cancelled by the service: it expects nothing more
        try:
            _index, tally, seconds = future.result()
        except BaseException as err:
            exceptions = self.ray.exceptions
            if isinstance(err, exceptions.TaskCancelledError):
                return
            if isinstance(err, exceptions.RayTaskError):  # the shard's own code raised
                cause = getattr(err, "cause", None)
                reason = one_line(cause if isinstance(cause, BaseException) else err)
                self.channel.send("failed", shard_key, reason)
                return
            self.channel.send("lost", shard_key, one_line(err))
            self._check_connected()
            return
        self.channel.send("done", shard_key, tally, seconds)

    def _check_connected(self) -> None:
        if not self.ray.is_initialized():
            self.gone("the Ray cluster is no longer connected")

    def close(self) -> None:
        self.cluster.close()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except (OSError, IndexError):
        return False


def _name(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8") as comm:
            return comm.read().strip() or "process"
    except OSError:
        return "core process"


def main(argv: list[str]) -> int:
    fd, cpus, address = int(argv[0]), int(argv[1]), argv[2]
    channel = FramedSocket(socket.socket(fileno=fd))
    try:
        driver = Driver(channel, cpus or None, None if address == "-" else address)
    except Exception as err:
        with contextlib.suppress(OSError):
            channel.send("error", one_line(err))
        return 1
    try:
        driver.serve()
    finally:
        driver.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
