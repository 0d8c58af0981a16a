"""Run one job through a local service, start to finish (what ``make run`` does).

Starts ``cardroom serve`` in the background with its embedded Ray on loopback ports the
OS picks, submits the job and follows it with a progress bar, prints the result, and
stops the server by its own process group.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from service.local_server import LocalServer, ServerNotReady


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m service.local_run JOB.toml", file=sys.stderr)
        return 2
    data_dir = Path(".cardroom")
    data_dir.mkdir(exist_ok=True)
    log = data_dir / "server.log"
    with log.open("ab") as log_file:
        server = LocalServer(data_dir / "data", data_dir / "server.ready", output=log_file)
    try:
        print("starting the cardroom service (embedded Ray) ...", file=sys.stderr)
        try:
            info = server.wait_ready()
        except ServerNotReady:
            print(f"the service did not start; see {log}", file=sys.stderr)
            return 1
        print(f"service on {info['address']}, metrics on {info['metrics']}", file=sys.stderr)
        env = {**os.environ, "CARDROOM_ADDRESS": info["address"]}
        submit = [sys.executable, "-m", "service.cli", "submit", args[0], "--follow"]
        return subprocess.run(submit, env=env).returncode
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
