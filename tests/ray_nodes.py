"""Ray nodes of a test's own: ``ray start --block`` processes on 127.0.0.1, a head and
worker nodes joined to it, each stopped (or killed) by its own process id.

Each node is one ``ray start`` process and the Ray processes under it (its raylet, the
head's GCS, their agents and workers), so killing a node kills the tree recorded from that
process, which is what a machine of a real cluster dying looks like to the rest.  Every
node binds loopback only (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``) and keeps its session
in a private temporary folder, never /tmp/ray, where another test's ``ray.init()`` would
look for a cluster to join.  ``ray stop`` is never used: it stops every Ray on the machine.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from tests import ray_probe
from workers.runner import RAY_LOCAL_ENVIRONMENT

START_TIMEOUT = 60.0
# The GCS marks a node dead after this many missed health checks of this period: Ray's
# defaults take half a minute to notice a killed node, and until then it may still lease
# the node's (dead) workers to retried tasks.
FAST_FAILURE_DETECTION = {
    "RAY_health_check_initial_delay_ms": "1000",
    "RAY_health_check_period_ms": "500",
    "RAY_health_check_timeout_ms": "500",
    "RAY_health_check_failure_threshold": "4",
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class RayNode:
    """One ``ray start --block`` process: a head (``address`` None) or a worker node."""

    def __init__(self, *, cpus: int, address: str | None = None) -> None:
        # A short private folder: Ray's Unix socket paths under it must stay within the
        # 107 bytes the kernel allows.
        self.temp_dir = tempfile.mkdtemp(prefix="ray", dir="/tmp")
        # A worker node joins through tests/ray_worker_node.py, which lets `ray start`
        # join a node to a head without leaving loopback (see that file).
        launcher = (
            [str(Path(sys.executable).with_name("ray"))]
            if address is None
            else [sys.executable, str(Path(__file__).with_name("ray_worker_node.py"))]
        )
        command = [
            *launcher,
            "start",
            "--block",
            f"--num-cpus={cpus}",
            "--node-ip-address=127.0.0.1",
            f"--temp-dir={self.temp_dir}",
            f"--object-store-memory={100 * 2**20}",
        ]
        if address is None:
            self.port = free_port()
            command += ["--head", f"--port={self.port}", "--include-dashboard=false"]
            self.address = f"127.0.0.1:{self.port}"
        else:
            command += [f"--address={address}"]
            self.address = address
        self.log_path = Path(self.temp_dir) / "ray-start.log"
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command,
                env={**os.environ, **RAY_LOCAL_ENVIRONMENT, **FAST_FAILURE_DETECTION},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self._recorded: set[ray_probe.ProcessId] = set()

    def processes(self) -> list[ray_probe.ProcessId]:
        """The node's Ray processes now (and remembered, so that cleanup finds them)."""
        found = ray_probe.descendants(self.process.pid)
        self._recorded.update(found)
        return found

    def wait_started(self, timeout: float = START_TIMEOUT) -> None:
        """Until the node's raylet runs (and, for the head, its GCS port accepts)."""
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"ray start exited:\n{self.log()}")
            raylet = any("raylet" in process.command for process in self.processes())
            if raylet and self._gcs_answers():
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the Ray node did not start in {timeout} s:\n{self.log()}")
            time.sleep(0.2)

    def _gcs_answers(self) -> bool:
        host, _, port = self.address.rpartition(":")
        try:
            socket.create_connection((host, int(port)), timeout=1).close()
        except OSError:
            return False
        return True

    def node_id(self) -> str:
        """Ray's id of this node, as its raylet was started with."""
        for process in self.processes():
            for arg in process.argv:
                if "raylet" in process.title and arg.startswith("--node_id="):
                    return arg.removeprefix("--node_id=")
        raise RuntimeError(f"no raylet with a node id under pid {self.process.pid}")

    def busy_workers(self) -> list[int]:
        """Pids of this node's workers running a shard now."""
        return ray_probe.busy_ray_workers(self.process.pid)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:]

    def kill(self) -> None:
        """SIGKILL the node, every process of it at once, as a machine that dies."""
        recorded = [*self.processes(), *self._recorded]
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGKILL)
        ray_probe.kill_all(recorded)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        """SIGTERM (``ray start --block`` then stops its node), SIGKILL what is left."""
        self.processes()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)
        ray_probe.kill_all(ray_probe.survivors(self._recorded, 10))
        shutil.rmtree(self.temp_dir, ignore_errors=True)


STATE_PROBE = """
import json, sys
import ray
ray.init(address=sys.argv[1], log_to_driver=False, configure_logging=False)
print("NODES", json.dumps({node["NodeID"]: node["Alive"] for node in ray.nodes()}))
"""


def nodes_alive(address: str, timeout: float = 60.0) -> dict[str, bool]:
    """Ray's own view of the cluster, read by a driver of its own from the GCS: each node
    id ever joined, and whether the GCS counts it alive."""
    done = subprocess.run(
        [sys.executable, "-c", STATE_PROBE, address],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={**os.environ, **RAY_LOCAL_ENVIRONMENT},
    )
    if done.returncode != 0:
        raise RuntimeError(f"reading Ray's node table failed:\n{done.stderr[-2000:]}")
    # Ray writes its own warnings to stdout too (a node's heartbeats lagging, ...).
    table = [line for line in done.stdout.splitlines() if line.startswith("NODES ")]
    if not table:
        raise RuntimeError(f"no node table in the probe's output:\n{done.stdout[-2000:]}")
    alive: dict[str, bool] = json.loads(table[-1].removeprefix("NODES "))
    return alive


def listening_addresses(processes: list[ray_probe.ProcessId]) -> set[str]:
    """The local addresses (IP only) of every TCP socket these processes listen on, read
    from the kernel's socket tables: where a cluster can be reached from."""
    inodes: set[str] = set()
    for process in processes:
        with contextlib.suppress(OSError):
            for fd in (ray_probe.PROC / str(process.pid) / "fd").iterdir():
                with contextlib.suppress(OSError):
                    target = os.readlink(fd)
                    if target.startswith("socket:["):
                        inodes.add(target[len("socket:[") : -1])
    found: set[str] = set()
    for table in ("tcp", "tcp6"):
        with contextlib.suppress(OSError):
            for line in (ray_probe.PROC / "net" / table).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                    found.add(_ip(fields[1].split(":")[0]))
    return found


def _ip(hexadecimal: str) -> str:
    """An address as /proc/net/tcp writes it (each 32-bit word in host byte order)."""
    raw = bytes.fromhex(hexadecimal)
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
    address = ipaddress.ip_address(words)
    mapped = getattr(address, "ipv4_mapped", None)  # an IPv4 address on an IPv6 socket
    return str(mapped or address)


@contextlib.contextmanager
def ray_cluster(head_cpus: int, *worker_cpus: int) -> Iterator[list[RayNode]]:
    """A head and worker nodes, started; every node stopped on the way out."""
    nodes: list[RayNode] = []
    try:
        head = RayNode(cpus=head_cpus)
        nodes.append(head)
        head.wait_started()
        for cpus in worker_cpus:
            nodes.append(RayNode(cpus=cpus, address=head.address))
        for node in nodes[1:]:
            node.wait_started()
        yield nodes
    finally:
        for node in reversed(nodes):
            node.stop()
