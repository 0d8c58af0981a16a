"""Run one job through a local service, start to finish (what ``make run`` does).

Starts ``cardroom serve`` in the background with its embedded Ray on loopback ports the
OS picks, submits the job and follows it with a progress bar, prints the result, and
stops the server by its own process group.

The server and its data (``.cardroom/data``) are this command's alone, so a job it does
not finish is not kept waiting there: Ctrl-C cancels the job, stops the server and says
so in one line (exit code 130), and a job an earlier run left unfinished (one killed
outright) is cancelled when the next run starts, before its own job is submitted, so
that it never waits behind it.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from service import client
from service.lazy import lazy, quiet_grpc
from service.local_server import LocalServer, ServerNotReady

if TYPE_CHECKING:
    from service.api.cardroom.v1 import job_service_pb2 as pb
else:
    pb = lazy("service.api.cardroom.v1.job_service_pb2")

EXIT_INTERRUPTED = 130  # the shell's code for a command ended by Ctrl-C


def _cancel_leftovers(stub: client.JobServiceClient) -> None:
    """Cancel the jobs an earlier run of this command left queued or running."""
    page = stub.ListJobs(pb.ListJobsRequest(page_size=1000))
    for job in page.jobs:
        if job.state not in client.FINISHED:
            stub.CancelJob(pb.CancelJobRequest(id=job.id))
            print(
                f"cardroom: cancelled job {job.id}, left unfinished by an earlier run",
                file=sys.stderr,
            )


def _warm_kernels(path: str) -> None:
    """Compile the job's kernels here when numba's cache is cold (saying so), so that the
    server's workers load them from the cache instead of each compiling them again."""
    import numpy as np

    from service.jobfile import load_job
    from service.kernels import compiled, notice_compiles

    notice_compiles()
    job = load_job(path)
    if compiled():
        job.model.simulate(min(job.trials, 100), np.random.default_rng(0))


def _run(path: str, server: LocalServer, log: Path, submitted: list[str]) -> int:
    print("starting the cardroom service (embedded Ray) ...", file=sys.stderr)
    try:
        info = server.wait_ready()
    except ServerNotReady:
        print(f"the service did not start; see {log}", file=sys.stderr)
        return 1
    print(f"service on {info['address']}, metrics on {info['metrics']}", file=sys.stderr)
    spec = client.job_spec_from_file(path)
    _warm_kernels(path)
    with client.connect(client.Target(info["address"])) as stub:
        _cancel_leftovers(stub)
        job = client.submit(stub, spec, path)
        submitted.append(job.id)
        print(f"submitted {job.id}", file=sys.stderr)
        job = client.follow(stub, job, show_bar=True)
    client.print_report(job, as_json=False)
    return 0


def _cancel(address: str | None, job_id: str) -> bool:
    """Cancel the interrupted job while its server still runs; whether that worked."""
    if address is None:
        return False
    try:
        with client.connect(client.Target(address)) as stub:
            stub.CancelJob(pb.CancelJobRequest(id=job_id))
    except client.ClientError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m service.local_run JOB.toml", file=sys.stderr)
        return 2
    quiet_grpc()
    data_dir = Path(".cardroom")
    data_dir.mkdir(exist_ok=True)
    log = data_dir / "server.log"
    with log.open("ab") as log_file:
        server = LocalServer(data_dir / "data", data_dir / "server.ready", output=log_file)
    submitted: list[str] = []
    try:
        return _run(args[0], server, log, submitted)
    except (KeyboardInterrupt, client.Detached):
        # A second Ctrl-C must not cut the clean-up short (and print a traceback): the
        # job is cancelled and the server stopped, which takes a moment, then the line.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        address = server.address()
        if submitted and _cancel(address, submitted[0]):
            what = f"job {submitted[0]} cancelled"
        elif submitted:
            what = f"job {submitted[0]} left queued in {data_dir / 'data'}"
        else:
            what = "no job submitted"
        server.stop()
        print(f"\ncardroom: interrupted; {what} and the local service stopped", file=sys.stderr)
        return EXIT_INTERRUPTED
    except ValueError as err:  # the job file's one-line error
        print(f"cardroom: {err}", file=sys.stderr)
        return 2
    except client.ClientError as err:
        print(f"cardroom: {err} (the service's log: {log})", file=sys.stderr)
        return err.code
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
