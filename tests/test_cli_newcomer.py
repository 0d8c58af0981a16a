"""The command line as a newcomer meets it: ``--version``, and output cut short by a reader
that stops early (``cardroom games | head -1``), run as real processes through a real pipe."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CARDROOM = [sys.executable, "-m", "service.cli"]


def test_version_names_the_installed_release() -> None:
    """``cardroom --version`` prints the distribution's version and exits 0."""
    from importlib.metadata import version

    done = subprocess.run(
        [*CARDROOM, "--version"], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"cardroom {version('cardroom')}"


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    """``cardroom games`` into a pipe whose reader takes one line and closes it: the first
    line arrives, nothing is written to stderr (no BrokenPipeError traceback), and the exit
    status is a shell's for a broken pipe (141) or 0 where the output fitted the pipe."""
    reader = subprocess.Popen(
        [*CARDROOM, "games"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert reader.stdout is not None and reader.stderr is not None
    first = reader.stdout.readline()
    reader.stdout.close()  # the reader stops: the rest of the table meets a closed pipe
    stderr = reader.stderr.read().decode()
    code = reader.wait(timeout=120)
    assert first.startswith(b"CODE"), first
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr
    assert code in (0, 141), (code, stderr)


def test_a_plot_that_cannot_be_drawn_is_refused_before_the_job_runs(tmp_path: Path) -> None:
    """``--plot`` into a folder that is not there, or to a format matplotlib does not
    write: one line naming the file, exit 2, before a 10^12-hand job has dealt a hand (it
    would take hours; the command returns in seconds)."""
    job = tmp_path / "huge.toml"
    job.write_text('kind = "bad_beat"\nhands = 1_000_000_000_000\nseed = 1\n')
    for target, words in (
        (tmp_path / "nowhere" / "x.png", "no folder"),
        (tmp_path / "out.txt", "not .txt"),
    ):
        done = subprocess.run(
            [*CARDROOM, "run", str(job), "--in-process", "--plot", str(target)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 2, (done.stdout, done.stderr)
        assert done.stderr.startswith(f"cardroom: --plot: {target}: ") and words in done.stderr
        assert "Traceback" not in done.stderr and not done.stdout


def test_a_ray_address_where_nothing_listens_is_one_line_not_a_hang() -> None:
    """``cardroom run --ray-address 127.0.0.1:1`` (nothing listens on port 1): one line
    naming the address, exit 2, in seconds — as ``serve`` does — where Ray by itself would
    retry silently for minutes."""
    done = subprocess.run(
        [*CARDROOM, "run", "examples/bad_beat.toml", "--ray-address", "127.0.0.1:1"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.strip() == (
        "cardroom: --ray-address 127.0.0.1:1: no Ray cluster there (Connection refused)"
    )
