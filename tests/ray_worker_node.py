"""``ray start`` for a worker node that stays on loopback, run as a script by
tests/ray_nodes.py with Ray's own arguments.

Ray ties two things to one switch, ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER``: whether ``ray
start`` may join a worker node to a head, and whether it rewrites 127.0.0.1 to the
machine's network address (after which the node connects, and listens, there).  The tests
keep the switch off for every process of the cluster, so that each binds loopback, and
lift only the refusal in this one process: ``ray start`` sees clusters enabled, while the
address it resolves for "this machine" stays the loopback one.  The node's own processes
(raylet, workers, agents) inherit the switch off.
"""

from __future__ import annotations

import sys

from ray._private import ray_constants, services
from ray.scripts.scripts import main


def _loopback(address: str | None = None) -> str:
    return "127.0.0.1"  # the address every node of the tests' clusters is given


if __name__ == "__main__":
    ray_constants.ENABLE_RAY_CLUSTER = True
    services.get_node_ip_address = _loopback
    sys.exit(main())  # type: ignore[no-untyped-call]  # Ray's click entry point
