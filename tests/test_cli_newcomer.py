"""The command line as a newcomer meets it: ``--version``, output cut short by a reader that
stops early (``cardroom games | head -1``), the wording of reports at their edges, argument
and field messages, the first compile, ``--help``, ``token --out``, ``--csv`` and the
progress line, each run as a real process (a real pipe, a real terminal)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

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


# --- report wording at the edges, argument and field messages -------------------------------


def _cardroom(
    *args: str, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CARDROOM, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def test_a_losing_hand_that_can_never_lose_is_refused(tmp_path: Path) -> None:
    """A royal flush is beaten by nothing: as the losing hand (by ``min_losing_hand`` or
    ``losing_hand.exactly``) it would give 0 hits silently; it is refused in one line that
    says why, naming the field.  A king-high straight flush, which can lose, runs."""
    for setting, field in (
        ('min_losing_hand = "royal flush"', "jackpot.min_losing_hand"),
        ('losing_hand = { exactly = "TJQKA flush" }', "jackpot.losing_hand.exactly"),
    ):
        job = tmp_path / "royal.toml"
        job.write_text(f'kind = "bad_beat"\nhands = 1000\nseed = 1\n[jackpot]\n{setting}\n')
        done = _cardroom("run", str(job), "--in-process")
        assert done.returncode == 2 and not done.stdout, done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert done.stderr.startswith(f"cardroom: {job}: {field}: ")
        assert "can never lose" in done.stderr
    job.write_text('kind = "bad_beat"\nhands = 1000\nseed = 1\n[jackpot]\nmin_losing_hand = '
                   '"9TJQK flush"\n')  # fmt: skip
    done = _cardroom("run", str(job), "--in-process")
    assert done.returncode == 0 and "King-high straight flush or better" in done.stdout


def test_a_policy_that_never_hit_reads_as_such(tmp_path: Path) -> None:
    """A jackpot policy over 2,000 hands, in which no jackpot hits: the policy lines say
    there was no hit and give the bounds the hands dealt allow, never 'never hands', 'mean
    never' or a '— of it' share."""
    job = tmp_path / "short.toml"
    job.write_text(
        'kind = "bad_beat"\nhands = 2000\nseed = 1\n[drop]\namount = 1\n[policy]\nseed = 5000\n'
    )
    done = _cardroom("run", str(job), "--in-process")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "  jackpot hands  0\n" in out, out  # the case under test
    lines = {line[:17].strip(): line[17:] for line in out.splitlines() if line[:2] == "  "}
    assert lines["between hits"].startswith("no hit in the hands dealt: at least "), out
    assert lines["at a hit"].startswith("no hit to measure; the jackpot would average at least")
    assert lines["drop"].endswith("none of it paid back yet: no hit in the hands dealt")
    assert "never" not in lines["between hits"] + lines["at a hit"]
    assert "—" not in lines["drop"]


def test_the_guts_equilibrium_line_reads_as_chips(tmp_path: Path) -> None:
    """Three-card guts without a cap (40 deals at most): the equilibrium's figures run to
    hundreds of billions of chips.  They read with separators and no decimals, and a line
    under them says the nets' tail leaves them unsettled."""
    import re

    job = tmp_path / "g3.toml"
    job.write_text(
        'kind = "guts"\nsessions = 1_000\nseed = 3\ngame = "G3"\n[table]\nplayers = 5\n'
        "max_deals = 40\n[equilibrium]\nsearch = true\nrounds = 2\nsessions = 1000\n"
    )
    done = _cardroom("run", str(job), "--in-process")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    line, note = next(
        (line, after)
        for line, after in itertools.pairwise(lines)
        if line.startswith("  equilibrium")
    )
    value = re.search(r"seat 0 nets ([+-][\d,.]+) a game", line)
    assert value is not None, line
    assert "," in value.group(1) and "." not in value.group(1), line
    assert not re.search(r"\d{4}", value.group(1)), line  # grouped by thousands
    assert "no finite mean" in note and "no interval" in note, note


def test_argument_mistakes_name_the_argument() -> None:
    """``deal NT --seed -1`` names --seed (not numpy's 'expected non-negative integer');
    ``games NT`` points to ``games show NT``; an unknown code says so."""
    done = _cardroom("deal", "NT", "--seed", "-1")
    assert done.returncode == 2 and "argument --seed: must be from 0" in done.stderr
    assert "non-negative" not in done.stderr
    done = _cardroom("games", "NT")
    assert done.returncode == 2
    assert done.stderr == "cardroom: games NT: did you mean `cardroom games show NT`?\n"
    done = _cardroom("games", "ZZ9")
    assert done.returncode == 2 and done.stderr.startswith("cardroom: unknown game code ZZ9;")
    assert "invalid choice" not in done.stderr
    assert _cardroom("games", "show", "NT").stdout.startswith("NT ")


def test_errors_name_the_field_that_is_wrong(tmp_path: Path) -> None:
    """A discard of five cards after two are dealt names the discard's count (not
    ``showdown.use`` with -3 cards); ``increment = 0`` beside a ``per_increment`` names
    the increment (not 'per_increment: needs an increment', though one was given)."""
    pineapple = (REPO / "simulations" / "games" / "10-pineapple-fixed-limit.toml").read_text()
    game = tmp_path / "discard.toml"
    game.write_text(
        pineapple.replace("down = 3", "down = 2").replace(
            '{ discard = "discard", count = 1 }', '{ discard = "discard", count = 5 }'
        )
    )
    done = _cardroom("games", "--file", str(game))
    assert done.returncode == 2, done.stdout
    assert done.stderr == (
        f"cardroom: {game}: phases[1].count: discards 5 cards, but each player holds only 2 then\n"
    )
    job = tmp_path / "rake.toml"
    job.write_text(
        'kind = "rake"\nhands = 1000\n[[policies]]\nname = "x"\nincrement = 0\nper_increment = 25\n'
    )
    done = _cardroom("run", str(job), "--in-process")
    assert done.returncode == 2
    assert done.stderr == (
        f"cardroom: {job}: policies[0].increment: must be at least 1 with a per_increment, got 0\n"
    )


@pytest.mark.slow
def test_the_first_compile_is_announced_once(tmp_path: Path) -> None:
    """With numba's cache empty (a cache folder of the test's own) the first run says it is
    compiling the kernels, on stderr, before the wait; the second run, cache warm, does not.
    The result is the same."""
    import os

    job = tmp_path / "small.toml"
    job.write_text('kind = "bad_beat"\nhands = 2000\nseed = 5\n')
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    cold = _cardroom("run", str(job), "--in-process", env=env, timeout=600)
    warm = _cardroom("run", str(job), "--in-process", env=env, timeout=600)
    assert cold.returncode == 0 and warm.returncode == 0, cold.stderr + warm.stderr
    note = "cardroom: compiling the kernels once, ~10–30 s"
    assert cold.stderr.count(note) == 1, cold.stderr
    assert note not in warm.stderr, warm.stderr
    assert cold.stdout == warm.stdout
    assert any((tmp_path / "numba").rglob("*.nbi"))


def test_serve_help_gives_the_defaults() -> None:
    done = _cardroom("serve", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())  # argparse wraps lines
    for default in (
        "(default: 127.0.0.1:50051)",
        "(default: 127.0.0.1:9464)",
        "(default: .cardroom)",
        "(default: 1,000,000,000,000)",
        "(default: all)",
    ):
        assert default in text, default


def test_a_token_written_with_out_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    """``token alice --file tokens --out alice.token``: the token in a 0600 file (a shell's
    ``>`` would leave it 0644 under the usual umask), nothing on stdout, the file of hashes
    0600 too; the token is the one the tokens file admits."""
    import os
    import stat

    from service.auth import parse_tokens

    out = tmp_path / "alice.token"
    out.write_text("old\n")
    os.chmod(out, 0o644)  # a file that was there is narrowed too
    done = _cardroom("token", "alice", "--file", str(tmp_path / "tokens"), "--out", str(out))
    assert done.returncode == 0 and done.stdout == "", done.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "tokens").stat().st_mode) == 0o600
    token = out.read_text().strip()
    assert token and token != "old"
    entries = parse_tokens((tmp_path / "tokens").read_text(), "tokens")
    assert any(entry.namespace == "alice" for entry in entries.values()), entries
    assert f"the token is in {out}" in done.stderr


def test_run_csv_is_one_header_and_one_row(tmp_path: Path) -> None:
    """``run --csv``: a header row and one row, read back by the csv module: the kind's
    plain result fields, in the order of its result message, with ``kind`` first and
    ``seed`` last; the values those of ``--json``."""
    import csv
    import io
    import json

    job = tmp_path / "small.toml"
    job.write_text('kind = "bad_beat"\nhands = 20_000\nseed = 5\n')
    as_csv = _cardroom("run", str(job), "--in-process", "--csv")
    as_json = _cardroom("run", str(job), "--in-process", "--json")
    assert as_csv.returncode == 0 and as_json.returncode == 0, as_csv.stderr
    rows = list(csv.reader(io.StringIO(as_csv.stdout)))
    assert len(rows) == 2 and len(rows[0]) == len(rows[1])
    header, row = rows
    assert header[0] == "kind" and header[-1] == "seed"
    assert header[1:4] == ["hands", "jackpot_hands", "frequency"]
    assert "hands_between_hits.mean" in header and "policy.jackpot_mean" in header
    assert not any(name in header for name in ("levels", "table", "policy"))  # no lists
    report = json.loads(as_json.stdout)
    cells = dict(zip(header, row, strict=True))
    assert cells["kind"] == "bad_beat" and cells["seed"] == "5"
    assert int(cells["hands"]) == report["hands"] == 20_000
    assert float(cells["frequency"]) == report["frequency"]
    assert cells["policy.jackpot_mean"] == ""  # no policy: an empty cell
    mean = report["hands_between_hits"]["mean"]
    assert cells["hands_between_hits.mean"] == ("" if mean is None else repr(mean))


def test_run_on_a_terminal_shows_the_time_left(tmp_path: Path) -> None:
    """On a terminal, ``cardroom run`` shows shards, trials of the total, the rate and an
    ETA while it runs (the line before the result)."""
    import os

    from tests.terminal import Terminal

    job = tmp_path / "job.toml"
    job.write_text('kind = "bad_beat"\nhands = 400_000\nshard_size = 50_000\nseed = 5\n')
    terminal = Terminal(
        [*CARDROOM, "run", str(job), "--in-process"],
        REPO,
        {**os.environ, "PYTHONPATH": str(REPO)},
    )
    code = terminal.finish(timeout=300)
    assert code == 0, terminal.text
    assert "of 400,000 trials" in terminal.text and "ETA " in terminal.text, terminal.text
    assert "shard 8/8" in terminal.text and "Bad-beat jackpot" in terminal.text
