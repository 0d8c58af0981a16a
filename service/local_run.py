"""Run one job through a local service, start to finish (what ``make run`` does).

Starts ``cardroom serve`` in the background with its embedded Ray on loopback ports the
OS picks, submits the job and follows it with a progress bar, prints the result, and
stops the server by its own process group.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

START_TIMEOUT = 180.0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m service.local_run JOB.toml", file=sys.stderr)
        return 2
    data_dir = Path(".cardroom")
    data_dir.mkdir(exist_ok=True)
    ready = data_dir / "server.ready"
    ready.unlink(missing_ok=True)
    log = data_dir / "server.log"
    cardroom = [sys.executable, "-m", "service.cli"]
    with log.open("ab") as log_file:
        server = subprocess.Popen(
            [
                *cardroom,
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--metrics-listen",
                "127.0.0.1:0",
                "--data-dir",
                str(data_dir / "data"),
                "--ready-file",
                str(ready),
            ],
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        print("starting the cardroom service (embedded Ray) ...", file=sys.stderr)
        deadline = time.monotonic() + START_TIMEOUT
        while not ready.exists():
            if server.poll() is not None or time.monotonic() > deadline:
                print(f"the service did not start; see {log}", file=sys.stderr)
                return 1
            time.sleep(0.2)
        info = json.loads(ready.read_text())
        print(f"service on {info['address']}, metrics on {info['metrics']}", file=sys.stderr)
        env = {**os.environ, "CARDROOM_ADDRESS": info["address"]}
        return subprocess.run([*cardroom, "submit", args[0], "--follow"], env=env).returncode
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(timeout=60)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
