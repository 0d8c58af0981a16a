"""The client commands against real servers, each started here on 127.0.0.1 and stopped by
its own process group: what a script reads from ``submit`` and ``--csv``, several files
submitted at once, a refusal in the job file's words, the progress display of a job that
is partly done or queued and the running estimate, a server that goes away while a job is
followed, and connection failures told for what they are (nothing listening, a client
certificate missing or not trusted, TLS on one side only)."""

from __future__ import annotations

import csv
import io
import json
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.certs import Authority
from tests.harness import REPO, Server, cardroom, env

pytestmark = pytest.mark.slow

MAX_TRIALS = 1_000_000_000
# 40 shards of ten million hands: a minute or more on one worker, long enough to be seen
# running, partly done, and to keep a second job queued behind it (each is cancelled).
LONG = 'kind = "bad_beat"\nhands = 400_000_000\nshard_size = 10_000_000\nseed = {seed}\n'
TOTAL = "400M"  # the total as the progress bar writes it
SHORT = 'kind = "bad_beat"\nhands = 200_000\nseed = {seed}\n'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("cli")
    started = Server(root / "data", workers=1, extra=("--max-trials", str(MAX_TRIALS)))
    try:
        yield started
    finally:
        started.stop()


def _job(server: Server, job_id: str) -> dict[str, Any]:
    done = server.cli("status", job_id, "--json")
    assert done.returncode == 0, done.stderr
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


def _wait(
    server: Server, job_id: str, until: Callable[[dict[str, Any]], bool], timeout: float = 300
) -> dict[str, Any]:
    """The job's ``status --json`` once ``until`` holds for it."""
    deadline = time.monotonic() + timeout
    while True:
        summary = _job(server, job_id)
        if until(summary):
            return summary
        assert time.monotonic() < deadline, (summary, server.log())
        time.sleep(0.3)


def _succeeded(summary: dict[str, Any]) -> bool:
    return bool(summary["state"] == "succeeded")


def _interruptible() -> None:
    """In the child: SIGINT as a shell delivers it, whatever the test runner's own handler
    or mask (inherited across exec when ignored or blocked)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_nothing_listening_is_told_at_once() -> None:
    """No server at the address: one line naming it, exit 1, from a plain connection
    attempt (grpc is not waited on)."""
    address = f"127.0.0.1:{_free_port()}"
    for command in (("list",), ("status", "job-000000000000")):
        done = cardroom(*command, address=address, timeout=60)
        assert done.returncode == 1, done.stderr
        assert done.stderr == (
            f"cardroom: cannot reach a cardroom server: nothing is listening at {address} "
            "(`cardroom serve` starts one; --address or $CARDROOM_ADDRESS names another)\n"
        )


def test_submit_prints_the_id_alone_and_checks_every_file(server: Server, tmp_path: Path) -> None:
    """``submit a b c d``: the good files are submitted, each id alone on a line of stdout
    (what ``ID=$(cardroom submit ...)`` takes); a bad file and one over the server's
    ``--max-trials`` each get one line in the job file's words (``hands``, not
    ``spec.trials``); exit code 2."""
    files = []
    for name, text in (
        ("a.toml", SHORT.format(seed=1)),
        ("bad.toml", 'kind = "bad_beat"\nhands = 0\n'),
        ("big.toml", SHORT.format(seed=2).replace("200_000", "2_000_000_000")),
        ("b.toml", SHORT.format(seed=3)),
    ):
        path = tmp_path / name
        path.write_text(text)
        files.append(str(path))
    done = server.cli("submit", *files)
    assert done.returncode == 2, done.stderr
    ids = done.stdout.splitlines()
    assert len(ids) == 2 and all(re.fullmatch(r"job-[0-9a-f]{12}", i) for i in ids), ids
    assert sorted(done.stderr.splitlines()) == sorted(
        [
            f"cardroom: {files[1]}: hands: must be at least 1, got 0",
            f"cardroom: {files[2]}: hands: must be at most 1,000,000,000 on this server, got "
            "2,000,000,000",
        ]
    ), done.stderr
    assert "spec." not in done.stderr and "INVALID_ARGUMENT" not in done.stderr
    for job_id, seed in zip(ids, (1, 3), strict=True):
        assert _wait(server, job_id, _succeeded)["seed"] == seed
    # One good file: exit 0, and the id is the whole of stdout.
    alone = server.cli("submit", files[0])
    assert alone.returncode == 0 and re.fullmatch(r"job-[0-9a-f]{12}\n", alone.stdout)


def test_submit_follow_follows_every_file(server: Server, tmp_path: Path) -> None:
    """``submit a b --follow --json``: both jobs followed to their ends, one after
    another, each result printed as `result --json` prints it."""
    paths = []
    for seed in (11, 12):
        path = tmp_path / f"j{seed}.toml"
        path.write_text(SHORT.format(seed=seed))
        paths.append(str(path))
    done = server.cli("submit", *paths, "--follow", "--json")
    assert done.returncode == 0, done.stderr
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["seed"] for r in reports] == [11, 12]
    assert all(r["hands"] == 200_000 for r in reports)


def test_csv_of_status_list_and_result(server: Server, tmp_path: Path) -> None:
    """``status --csv`` and ``list --csv``: a header and a row a job, the same columns;
    ``result --csv``: the result's header and one row, equal to ``result --json``."""
    path = tmp_path / "c.toml"
    path.write_text(SHORT.format(seed=21))
    job_id = server.cli("submit", str(path)).stdout.strip()
    _wait(server, job_id, _succeeded)
    status = list(csv.DictReader(io.StringIO(server.cli("status", job_id, "--csv").stdout)))
    listed = list(csv.DictReader(io.StringIO(server.cli("list", "--csv").stdout)))
    assert len(status) == 1 and status[0] in listed
    row = status[0]
    assert list(row) == [
        "id", "kind", "state", "seed", "shards_done", "shards_total", "trials_done",
        "trials_total", "created", "updated", "error",
    ]  # fmt: skip
    assert (row["id"], row["state"], row["seed"], row["error"]) == (
        job_id,
        "succeeded",
        "21",
        "",
    )
    assert row["trials_done"] == row["trials_total"] == "200000"
    assert all(r["id"].startswith("job-") for r in listed) and len(listed) >= 1
    result = server.cli("result", job_id, "--csv")
    report = json.loads(server.cli("result", job_id, "--json").stdout)
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert len(rows) == 2
    cells = dict(zip(*rows, strict=True))
    assert cells["kind"] == report["kind"] and int(cells["hands"]) == report["hands"]
    assert int(cells["jackpot_hands"]) == report["jackpot_hands"]
    assert cells["seed"] == "21"
    # No job matches: the header alone (a script reads no rows, not "no jobs").
    nothing = server.cli("list", "--csv", "--state", "cancelled", "--kind", "guts")
    assert nothing.returncode == 0 and nothing.stdout.count("\n") == 1


def _first_bar(process: subprocess.Popen[str], pattern: str, timeout: float = 120) -> str:
    """Read the command's stderr (tqdm's bar, redrawn with carriage returns) until a bar
    drawing matches ``pattern``; that drawing."""
    assert process.stderr is not None
    seen = ""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        char = process.stderr.read(1)
        if not char:
            break
        seen += char
        found = re.search(pattern, seen.replace("\r", "\n"))
        if found:
            return found.group(0)
    raise AssertionError(f"{pattern!r} not drawn:\n{seen}")


def test_progress_of_a_job_partly_done_and_of_one_queued(server: Server, tmp_path: Path) -> None:
    """A job followed again starts its bar at the trials already done (not at 0); a job
    that waits behind it says "queued" on its bar and in ``status``; ``status`` of the
    running job shows its running estimate."""
    first, second = tmp_path / "first.toml", tmp_path / "second.toml"
    first.write_text(LONG.format(seed=31))
    second.write_text(LONG.format(seed=32))
    running_id, queued_id = server.cli("submit", str(first), str(second)).stdout.split()
    try:
        summary = _wait(server, running_id, lambda job: job["trials_done"] >= 20_000_000)
        assert _job(server, queued_id)["state"] == "queued"
        # status: the queued job says so; the running one shows its estimate so far.
        queued_text = server.cli("status", queued_id).stdout
        assert "queued: waiting for the jobs before it" in queued_text, queued_text
        running_text = server.cli("status", running_id).stdout
        assert "running estimate, from " in running_text, running_text
        assert "Bad-beat jackpot" in running_text and "hands dealt" in running_text
        # watch: the bar starts where the job is.
        done_before = summary["trials_done"]
        watching = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "--address", server.address,
             "watch", running_id],
            cwd=REPO, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=_interruptible,
        )  # fmt: skip
        try:
            bar = _first_bar(watching, rf"(\d[\d.]*)([kMG]?)/{TOTAL}")  # its first drawing
        finally:
            watching.send_signal(signal.SIGINT)
            watching.communicate(timeout=60)
        count, scale = re.fullmatch(rf"(\d[\d.]*)([kMG]?)/{TOTAL}", bar).groups()  # type: ignore[union-attr]
        shown = float(count) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}[scale]
        assert shown >= done_before, (bar, done_before)
        # The queued job's bar says it is queued.
        waiting = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "--address", server.address,
             "watch", queued_id],
            cwd=REPO, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=_interruptible,
        )  # fmt: skip
        try:
            assert _first_bar(waiting, rf"queued[^\n]*/{TOTAL}")
        finally:
            waiting.send_signal(signal.SIGINT)
            _, err = waiting.communicate(timeout=60)
        assert waiting.returncode == 130 and f"cardroom watch {queued_id}" in err
    finally:
        for job_id in (running_id, queued_id):
            server.cli("cancel", job_id)


def test_a_server_that_dies_while_followed_is_one_line(tmp_path: Path) -> None:
    """``submit --follow``, then the server is killed (SIGKILL to its process group): one
    line saying the job resumes when the server starts again and how to follow it, exit
    1, no grpc status text or traceback."""
    doomed = Server(tmp_path / "doomed", workers=1)
    try:
        job = tmp_path / "long.toml"
        job.write_text(LONG.format(seed=41))
        following = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "--address", doomed.address,
             "submit", str(job), "--follow"],
            cwd=REPO, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=_interruptible,
        )  # fmt: skip
        _first_bar(following, rf"[1-9][\d.]*M/{TOTAL}")  # under way
        doomed.kill()
        out, err = following.communicate(timeout=120)
    finally:
        doomed.kill()
    last = err.replace("\r", "\n").strip().splitlines()[-1]
    assert following.returncode == 1, err
    job_id = re.search(r"following job (job-[0-9a-f]{12});", last)
    assert job_id is not None, err
    assert last == (
        f"cardroom: lost the server while following job {job_id.group(1)}; the job resumes "
        f"when the server starts again, and `cardroom watch {job_id.group(1)} --address "
        f"{doomed.address}` follows it again."
    ), err
    assert "UNAVAILABLE" not in err and "Traceback" not in err and out == ""


@pytest.fixture(scope="module")
def mutual_tls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    """A server with TLS that admits only clients whose certificate its CA signed; the
    folder of the certificates (ca, client, stranger of another CA, other-ca)."""
    root = tmp_path_factory.mktemp("mtls")
    authority = Authority(root, "ca")
    pair = authority.issue("server", server=True)
    authority.issue("client", server=False)
    other = Authority(root, "other-ca")
    other.issue("stranger", server=False)
    extra = (
        *("--tls-cert", str(pair.cert), "--tls-key", str(pair.key)),
        *("--tls-client-ca", str(authority.pair.cert)),
    )
    started = Server(root / "data", workers=1, extra=extra)
    try:
        yield started, root
    finally:
        started.stop()


def test_connection_failures_name_their_cause(
    mutual_tls: tuple[Server, Path], server: Server
) -> None:
    """Against a mutual-TLS server: no client certificate, one of another CA, a server
    certificate the given CA did not sign, and no TLS at all; a TLS client against a
    plaintext server.  Each is one line naming what is wrong, exit 1, and none of grpc's
    C-core lines ("Handshake failed") on the terminal; the right certificates connect."""
    tls_server, certs = mutual_tls
    ca = ("--tls-ca", str(certs / "ca.crt"))
    mine = ("--tls-cert", str(certs / "client.crt"), "--tls-key", str(certs / "client.key"))
    theirs = ("--tls-cert", str(certs / "stranger.crt"), "--tls-key", str(certs / "stranger.key"))
    at = tls_server.address
    cases = [
        ((*ca, "list"), at, f"the server at {at} asks for a client certificate (mutual TLS)"),
        (
            (*ca, *theirs, "list"),
            at,
            f"the server at {at} refuses the client certificate --tls-cert "
            f"{certs / 'stranger.crt'}",
        ),
        (
            ("--tls-ca", str(certs / "other-ca.crt"), *mine, "list"),
            at,
            f"the server at {at} has a certificate that --tls-ca {certs / 'other-ca.crt'} "
            "did not sign",
        ),
        (("list",), at, f"the server at {at} serves TLS: connect with --tls-ca"),
        (
            (*ca, "list"),
            server.address,
            f"the server at {server.address} does not serve TLS",
        ),
    ]
    for args, address, words in cases:
        done = cardroom("--address", address, *args, timeout=60)
        assert done.returncode == 1, (args, done.stderr)
        assert done.stderr.startswith(f"cardroom: {words}"), (args, done.stderr)
        assert done.stderr.count("\n") == 1, (args, done.stderr)
        assert "Handshake" not in done.stderr and "cannot reach" not in done.stderr
    good = cardroom("--address", at, *ca, *mine, "list", timeout=60)
    assert good.returncode == 0 and good.stdout.startswith(("ID", "no jobs")), good.stderr
