"""Ctrl-C and clean-up, as a user at a terminal meets them, on real processes: ``make run``
(``python -m service.local_run``, which starts a server of its own) interrupted while it
follows its job; ``cardroom run`` on an embedded Ray interrupted at many moments, Ray's
start and stop among them; and the Ray session folder each embedded run leaves."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service.local_server import LocalServer
from tests.harness import REPO, cardroom, env
from tests.terminal import Terminal

pytestmark = pytest.mark.slow

BIG = 'kind = "bad_beat"\nhands = 600_000_000\nseed = 9\n'
SMALL = 'kind = "bad_beat"\nhands = 200_000\nseed = 4\n'


def test_ctrl_c_during_make_run_cancels_the_job_and_stops_the_service(tmp_path: Path) -> None:
    """``make run JOB=big.toml``, Ctrl-C while the job runs: one line saying the job was
    cancelled and the service stopped (no advice to follow a job on a server that is gone,
    no traceback), exit 130, no server left.  The next run in the same folder runs its own
    job at once: the interrupted one is cancelled in the store, not waiting to resume."""
    big = tmp_path / "big.toml"
    big.write_text(BIG)
    terminal = Terminal([sys.executable, "-m", "service.local_run", str(big)], tmp_path, env())
    try:
        terminal.wait_for("submitted job-", timeout=300)
        terminal.wait_for("hand/s", timeout=120)  # following it, the bar drawn
        terminal.press_ctrl_c()
        code = terminal.finish(timeout=180)
    finally:
        terminal.kill()
    text = terminal.text.replace("\r", "\n")
    job_id = re.search(r"submitted (job-[0-9a-f]{12})", text)
    assert job_id is not None, text
    lines = [line for line in text.splitlines() if line.strip() and line.strip() != "^C"]
    assert code == 130, text
    assert lines[-1] == (
        f"cardroom: interrupted; job {job_id.group(1)} cancelled and the local service stopped"
    ), text
    assert "Traceback" not in text and "cardroom watch" not in text, text
    address = re.search(r"service on (127\.0\.0\.1:\d+)", text)
    assert address is not None
    listing = cardroom("list", address=address.group(1), timeout=60)
    assert "nothing is listening" in listing.stderr, listing  # the server is gone
    # The store holds the job as cancelled: a server started on it has nothing to resume.
    data = tmp_path / ".cardroom" / "data"
    server = LocalServer(data, tmp_path / "check.ready", workers=1, cwd=REPO, env=env())
    try:
        ready = server.wait_ready()
        state = cardroom("status", job_id.group(1), "--json", address=ready["address"])
    finally:
        server.stop()
    assert '"state": "cancelled"' in state.stdout, state.stdout + state.stderr
    # The next run: its own job, nothing in front of it.
    small = tmp_path / "small.toml"
    small.write_text(SMALL)
    again = subprocess.run(
        [sys.executable, "-m", "service.local_run", str(small)],
        cwd=tmp_path,
        env=env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert again.returncode == 0, again.stderr
    assert "hands dealt    200,000" in again.stdout
    assert "cancelled job" not in again.stderr  # nothing was left to cancel


def _ray_session_dirs(pid: int) -> list[Path]:
    """The Ray session folders the process ``pid`` started (Ray names each after its
    driver's pid)."""
    return sorted(Path("/tmp/ray").glob(f"session_*_{pid}"))


def _interrupted_run(job: Path, after: float) -> tuple[int, str, int]:
    """``cardroom run job`` (embedded Ray, two CPUs), in a process group of its own,
    given SIGINT — as a terminal gives it, to the whole group — ``after`` seconds in;
    its exit code, its stderr and its pid."""
    run = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "run", str(job), "--workers", "2"],
        cwd=REPO,
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        time.sleep(after)
        os.killpg(run.pid, signal.SIGINT)
        _, err = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait(timeout=30)
    return run.returncode, err, run.pid


def test_ctrl_c_during_an_embedded_ray_run_is_one_line_at_any_moment(tmp_path: Path) -> None:
    """SIGINT to ``cardroom run``'s process group at nine moments from 0.5 s to 12 s:
    loading the job, importing Ray, starting it, running shards.  Every time: exit 130, the
    one line, no Ray C++ backtrace, no segmentation fault (exit 139 / -11, or 1 after an
    abort); and no Ray session folder of the run is left behind."""
    job = tmp_path / "big.toml"
    job.write_text(BIG)
    seen = []
    for after in (0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 7.0, 9.0, 12.0):
        code, err, pid = _interrupted_run(job, after)
        seen.append((after, code))
        assert code == 130, (after, err)
        assert err.strip() == "cardroom: interrupted; the run stopped and nothing was saved", (
            after,
            err,
        )
        # The session's watchdog, which outlives the driver, removes its folder.
        deadline = time.monotonic() + 60
        while _ray_session_dirs(pid):
            assert time.monotonic() < deadline, (after, _ray_session_dirs(pid))
            time.sleep(0.2)
    assert len(seen) == 9


def test_an_embedded_ray_run_removes_its_session_folder(tmp_path: Path) -> None:
    """Ray writes a session folder (/tmp/ray/session_*) for each embedded start; the run
    removes its own at its end (seen while it runs, gone after), and touches no other."""
    job = tmp_path / "small.toml"
    job.write_text(SMALL.replace("200_000", "4_000_000") + "shard_size = 500_000\n")
    other = Path("/tmp/ray") / "session_2000-01-01_00-00-00_000000_1"
    other.mkdir(parents=True, exist_ok=True)  # another session's: must stay
    try:
        run = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "run", str(job), "--workers", "2", "--json"],
            cwd=REPO,
            env=env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 120
        while not _ray_session_dirs(run.pid) and run.poll() is None:
            assert time.monotonic() < deadline, "no session folder appeared"
            time.sleep(0.05)
        seen = _ray_session_dirs(run.pid)
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, err
        assert '"hands": 4000000' in out
        assert seen, "the run's session folder was never seen"
        assert _ray_session_dirs(run.pid) == []
        assert other.is_dir()
    finally:
        other.rmdir()
