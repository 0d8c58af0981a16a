"""Job files: every key validated; each mistake gives exit code 2 and one line naming the field."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service.cli import build_parser, main, placement
from service.jobfile import (
    MAX_JOB_FILE_BYTES,
    MAX_NESTING,
    MAX_NUMBER_DIGITS,
    MAX_TRIALS,
    JobFileError,
    job_from_mapping,
    load_job,
    parse_job_mapping,
    parse_job_text,
)
from simulations.models import BadBeatModel
from simulations.spec import SpecError
from workers.job import DEFAULT_SHARD_SIZE
from workers.plan import MAX_SHARDS

GOOD = """
kind = "bad_beat"
hands = 1000
seed = 7
game = "NT"
[table]
players = 9
[jackpot]
min_losing_hand = "AAATT"
hole_cards_play = 2
quads_need_pocket_pair = true
"""


def _replace(line_from: str, line_to: str) -> str:
    assert line_from in GOOD
    return GOOD.replace(line_from, line_to)


# (job text, the field the message must name, a word the message must contain)
MISTAKES = {
    "unknown top-level key": (GOOD + "\n", None, None),
    "kind missing": (_replace('kind = "bad_beat"', ""), "kind", "required"),
    "kind unknown": (_replace('"bad_beat"', '"bad_bet"'), "kind", "one of"),
    "hands missing": (_replace("hands = 1000", ""), "hands", "required"),
    "hands zero": (_replace("hands = 1000", "hands = 0"), "hands", "at least"),
    "hands negative": (_replace("hands = 1000", "hands = -5"), "hands", "at least"),
    "hands a string": (_replace("hands = 1000", 'hands = "many"'), "hands", "integer"),
    "hands a float": (_replace("hands = 1000", "hands = 1e6"), "hands", "integer"),
    "hands a boolean": (_replace("hands = 1000", "hands = true"), "hands", "integer"),
    "seed negative": (_replace("seed = 7", "seed = -1"), "seed", "at least"),
    "seed a string": (_replace("seed = 7", 'seed = "abc"'), "seed", "integer"),
    "shard size zero": (
        GOOD.replace("seed = 7", "seed = 7\nshard_size = 0"),
        "shard_size",
        "least",
    ),
    "players one": (_replace("players = 9", "players = 1"), "table.players", "at least"),
    "players eleven": (_replace("players = 9", "players = 11"), "table.players", "at most"),
    "players a string": (_replace("players = 9", 'players = "nine"'), "table.players", "integer"),
    "game unknown": (_replace('"NT"', '"stud"'), "game", "not a game code"),
    "unknown game key": (
        _replace("players = 9", "players = 9\nplayer = 9"),
        "table.player",
        "known",
    ),
    "unknown jackpot key": (
        _replace("hole_cards_play = 2", "hole_cards_play = 2\nhole_cards = 2"),
        "jackpot.hole_cards",
        "known",
    ),
    "losing hand bad rank": (_replace('"AAATT"', '"AAAZT"'), "jackpot.min_losing_hand", "'Z'"),
    "losing hand impossible": (
        _replace('"AAATT"', '"AAAAA"'),
        "jackpot.min_losing_hand",
        "not a poker hand",
    ),
    "losing hand a number": (
        _replace('"AAATT"', "44"),
        "jackpot.min_losing_hand",
        "string",
    ),
    "winning hand nonsense": (
        _replace(
            'min_losing_hand = "AAATT"', 'min_losing_hand = "AAATT"\nmin_winning_hand = "big"'
        ),
        "jackpot.min_winning_hand",
        "not a hand",
    ),
    "hole cards three": (
        _replace("hole_cards_play = 2", "hole_cards_play = 3"),
        "jackpot.hole_cards_play",
        "at most",
    ),
    "flag not boolean": (
        _replace("quads_need_pocket_pair = true", "quads_need_pocket_pair = 1"),
        "jackpot.quads_need_pocket_pair",
        "true or false",
    ),
    "game not a code": (_replace('game = "NT"', "game = 5"), "game", "string"),
    "table not a table": (
        _replace('game = "NT"\n[table]\nplayers = 9\n', "").replace(
            "seed = 7", "seed = 7\ntable = 5"
        ),
        "table",
        "table",
    ),
    "bad toml syntax": (GOOD.replace("hands = 1000", "hands = = 1000"), None, "not valid TOML"),
}
MISTAKES["unknown top-level key"] = (
    GOOD.replace("seed = 7", "seed = 7\nplayer = 9"),
    "player",
    "not a known setting",
)


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_malformed_job_exits_2_with_one_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, field, word = MISTAKES[name]
    path = tmp_path / "job.toml"
    path.write_text(text)
    assert main(["run", str(path), "--in-process"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    message = lines[0]
    assert str(path) in message
    if field is not None:
        assert f"{field}:" in message, message
    if word is not None:
        assert word in message, message
    assert "Traceback" not in captured.err


def test_missing_file_and_bad_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(tmp_path / "absent.toml")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "job.json"
    bad.write_text('{"kind": "bad_beat", "hands": }')
    assert main(["run", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "not valid JSON" in err and len(err.strip().splitlines()) == 1


def test_json_job_is_read_like_toml() -> None:
    data = {"kind": "bad_beat", "hands": 500, "seed": 3, "table": {"players": 6}}
    job = parse_job_text(json.dumps(data), "json")
    assert job.trials == 500 and job.seed == 3
    assert isinstance(job.model, BadBeatModel) and job.model.players == 6


def test_defaults_are_documented_values(tmp_path: Path) -> None:
    path = tmp_path / "job.toml"
    path.write_text('kind = "bad_beat"\nhands = 10\nseed = 1\n')
    job = load_job(path)
    model = job.model
    assert isinstance(model, BadBeatModel)
    assert model.players == 9 and model.game == "NT"
    rules = model.rules
    assert rules.min_losing_hand == "AAATT" and rules.min_winning_hand is None
    assert rules.hole_cards_play == 2
    assert rules.quads_need_pocket_pair is False and rules.board_trips_full_house is True


def test_missing_seed_is_drawn_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "job.toml"
    path.write_text('kind = "bad_beat"\nhands = 10\n')
    seeds = {load_job(path).seed for _ in range(3)}
    assert len(seeds) == 3  # drawn fresh each time, and carried in the result


def test_job_file_error_is_a_value_error() -> None:
    with pytest.raises(JobFileError, match="hands: must be at least 1"):
        parse_job_text('kind = "bad_beat"\nhands = 0\n', "toml", "x")


def test_real_process_exit_code(tmp_path: Path) -> None:
    path = tmp_path / "job.toml"
    path.write_text(GOOD.replace("players = 9", "players = 12"))
    done = subprocess.run(
        [sys.executable, "-m", "service.cli", "run", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "table.players: must be at most 10" in done.stderr


# Job files far outside the shape of a job: each once gave a traceback (RecursionError, the
# int-conversion ValueError) or was silently accepted.  (file name, content, words the one
# line must hold after the file name.)
HOSTILE = {
    "json objects 100,000 deep": (
        "job.json",
        '{"a":' * 100_000 + "1" + "}" * 100_000,
        ["nested too deeply"],
    ),
    "json arrays 100,000 deep": ("job.json", "[" * 100_000, ["nested too deeply"]),
    "toml arrays 100,000 deep": ("job.toml", "a = " + "[" * 100_000, ["nested too deeply"]),
    "toml inline tables 100,000 deep": (
        "job.toml",
        "a = " + "{b = " * 100_000,
        ["nested too deeply"],
    ),
    "toml dotted key of 100,000 parts": (
        "job.toml",
        "a." * 100_000 + "a = 1",
        ["nested too deeply"],
    ),
    "toml table header of 100,000 parts": (
        "job.toml",
        "[" + "a." * 100_000 + "a]",
        ["nested too deeply"],
    ),
    "toml header and arrays deep together": (
        "job.toml",
        "[" + ".".join(["a"] * 30) + "]\nx = " + "[" * 30 + "]" * 30,
        ["nested too deeply"],
    ),
    "json 5,000-digit integer": (
        "job.json",
        '{"kind": "bad_beat", "hands": ' + "7" * 5000 + "}",
        ["hands: a 5,000-digit number is too large"],
    ),
    "json 5,000-digit negative integer": (
        "job.json",
        '{"kind": "bad_beat", "hands": 1, "table": {"players": -' + "7" * 5000 + "}}",
        ["table.players: a 5,000-digit number is too large"],
    ),
    "toml 5,000-digit integer": (
        "job.toml",
        'kind = "bad_beat"\nhands = ' + "7" * 5000 + "\n",
        ["hands: a 5,000-digit number is too large"],
    ),
    "toml 5,000-digit hex integer in an array": (
        "job.toml",
        'kind = "bad_beat"\nhands = 1\n[table]\nplayers = [2, 0x' + "f" * 5000 + "]\n",
        ["table.players[1]: a 6,021-digit number is too large"],  # 16**5000 - 1
    ),
    "toml 4,000-digit integer (one tomllib converts)": (
        "job.toml",
        'kind = "bad_beat"\nhands = ' + "7" * 4000 + "\n",
        ["hands: a 4,000-digit number is too large"],
    ),
    "toml long integer, then a syntax error on its line": (
        "job.toml",
        'kind = "bad_beat"\nhands = ' + "7" * 5000 + " oops\n",
        ["line 2: a number of more than 30 digits is too large"],
    ),
    "json key given twice": (
        "job.json",
        '{"kind": "bad_beat", "hands": 10, "table": {"players": 3, "players": 4}}',
        ["table.players: given twice"],
    ),
    "json top-level key given twice": (
        "job.json",
        '{"kind": "bad_beat", "hands": 10, "hands": 20}',
        ["hands: given twice"],
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_job_file_exits_2_with_one_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    filename, text, words = HOSTILE[name]
    path = tmp_path / filename
    path.write_text(text)
    assert main(["run", str(path), "--in-process"]) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err[:500]
    assert f"{path}: " in lines[0]
    for word in words:
        assert word in lines[0], lines[0]
    assert len(lines[0]) < 300, lines[0][:500]


def test_job_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "job.toml"
    padding = "# padding\n" * (MAX_JOB_FILE_BYTES // 10)
    path.write_text('kind = "bad_beat"\nhands = 10\nseed = 1\n' + padding)
    assert path.stat().st_size > MAX_JOB_FILE_BYTES
    with pytest.raises(JobFileError, match=r"job\.toml: larger than 1,048,576 bytes"):
        load_job(path)
    with pytest.raises(JobFileError, match=r"^x: larger than 1,048,576 bytes"):
        parse_job_text(path.read_text(), "toml", "x")
    # Right at the limit the same settings are read.
    path.write_bytes(path.read_bytes()[:MAX_JOB_FILE_BYTES])
    assert load_job(path).trials == 10


def test_nesting_inside_strings_and_comments_does_not_count() -> None:
    brackets = "[{" * (MAX_NESTING + 5)
    dots = "." * (MAX_NESTING + 5)
    text = (
        f"# {brackets} {dots}\n"
        f'kind = "bad_beat" # {brackets}\n'
        "hands = 10\nseed = 1\n[jackpot]\n"
        f"min_losing_hand = '{brackets}'\n"
        f'min_winning_hand = """{dots}\n{brackets}"""\n'
    )
    # The strings are read (and refused by the hand parser, not by the nesting scan).
    with pytest.raises(JobFileError, match=r"jackpot\.min_losing_hand: .* is not a hand"):
        parse_job_text(text, "toml", "job.toml")
    as_json = json.dumps({"kind": "bad_beat", "hands": 10, "seed": 1, "x": brackets})
    with pytest.raises(JobFileError, match="x: is not a known setting"):
        parse_job_text(as_json, "json", "job.json")


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        ("json", '"\\' * (MAX_JOB_FILE_BYTES // 2)),  # every quote opens a string left open
        ("toml", '"""\\' * (MAX_JOB_FILE_BYTES // 4)),
        ("toml", "'''" + "x" * (MAX_JOB_FILE_BYTES - 3)),
    ],
)
def test_strings_left_open_are_scanned_once(fmt: str, text: str) -> None:
    """The nesting scan reads a file of a megabyte of open strings in linear time."""
    started = time.monotonic()
    with pytest.raises(JobFileError, match=f"^job: not valid {fmt.upper()}: "):
        parse_job_mapping(text, fmt)
    assert time.monotonic() - started < 20  # quadratic, this took many minutes


def _deep_list(depth: int) -> list[object]:
    value: list[object] = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_nesting_up_to_the_limit_parses() -> None:
    depth = MAX_NESTING - 1  # inside the job's own table: MAX_NESTING levels in all
    inner = "[" * depth + "]" * depth
    assert parse_job_mapping(f"a = {inner}", "toml")["a"] == _deep_list(depth)
    assert parse_job_mapping(f'{{"a": {inner}}}', "json")["a"] == _deep_list(depth)
    with pytest.raises(JobFileError, match=r"^job: line 1: nested too deeply"):
        parse_job_mapping(f'{{"a": [{inner}]}}', "json")
    dotted = ".".join(["k"] * (MAX_NESTING - 2))
    assert parse_job_mapping(f"{dotted} = 1", "toml")["k"]["k"]
    # Dots of numbers are not parts of a key, however many share a line.
    numbers = f"a = [1.5, 2.5, {'1.0, ' * (2 * MAX_NESTING)}3]"
    assert len(parse_job_mapping(numbers, "toml")["a"]) == 2 * MAX_NESTING + 3


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_byte_order_mark_is_accepted(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / f"job.{fmt}"
    text = (
        'kind = "bad_beat"\nhands = 10\nseed = 1\n'
        if fmt == "toml"
        else '{"kind": "bad_beat", "hands": 10, "seed": 1}'
    )
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    job = load_job(path)
    assert job.trials == 10 and job.seed == 1


def test_numbers_at_the_digit_limit_are_read() -> None:
    big = "9" * MAX_NUMBER_DIGITS
    for fmt, text in [
        ("toml", f'kind = "bad_beat"\nhands = {big}\n'),
        ("json", f'{{"kind": "bad_beat", "hands": {big}}}'),
    ]:
        # Read as a number, then refused by the range check that names the bound.
        with pytest.raises(JobFileError, match="hands: must be at most 10,000,000,000,000, got 9"):
            parse_job_text(text, fmt, "job")


def test_default_shard_size_grows_to_fit_the_largest_job() -> None:
    """hands = MAX_TRIALS (the documented maximum) was refused as 'shard_size: too small'."""
    job = parse_job_text(f'kind = "bad_beat"\nhands = {MAX_TRIALS}\nseed = 1\n', "toml")
    assert job.shard_size == MAX_TRIALS // MAX_SHARDS
    assert job.plan.count == MAX_SHARDS
    odd = parse_job_text(f'kind = "bad_beat"\nhands = {MAX_TRIALS - 1}\nseed = 1\n', "toml")
    assert odd.plan.count <= MAX_SHARDS
    small = parse_job_text('kind = "bad_beat"\nhands = 5000000\nseed = 1\n', "toml")
    assert small.shard_size == DEFAULT_SHARD_SIZE


def test_a_chosen_shard_size_can_still_be_too_small() -> None:
    text = f'kind = "bad_beat"\nhands = {MAX_TRIALS}\nseed = 1\nshard_size = 1000\n'
    with pytest.raises(JobFileError, match="shard_size: too small"):
        parse_job_text(text, "toml", "job")


def test_max_trials_bounds_trials_before_the_shard_count() -> None:
    mapping = {"kind": "bad_beat", "hands": 3_000_000_000, "seed": 1, "shard_size": 1}
    with pytest.raises(SpecError) as caught:
        job_from_mapping(mapping, max_trials=2_000_000_000)
    assert str(caught.value) == (
        "hands: must be at most 2,000,000,000 on this server, got 3,000,000,000"
    )
    # Past MAX_TRIALS too, the server's own bound is the one named.
    with pytest.raises(SpecError, match="at most 2,000,000,000 on this server, got 10"):
        job_from_mapping({**mapping, "hands": MAX_TRIALS * 10}, max_trials=2_000_000_000)
    within = {"kind": "bad_beat", "hands": 2_000_000_000, "seed": 1}
    assert job_from_mapping(within, max_trials=2_000_000_000).trials == 2_000_000_000
    # Without max_trials, the job file's own bound applies.
    with pytest.raises(SpecError, match=r"^hands: must be at most 10,000,000,000,000, got"):
        job_from_mapping({**within, "hands": MAX_TRIALS + 1})


def test_long_values_are_echoed_short(tmp_path: Path) -> None:
    """A 100 kB value or key was quoted whole in the error; now a 40-character prefix."""
    long_text = "x" * 100_000
    path = tmp_path / "job.toml"
    for text, field in [
        (_replace('"NT"', f'"{long_text}"'), "game: "),
        (_replace('"AAATT"', f'"{long_text}"'), "jackpot.min_losing_hand: "),
        (_replace("players = 9", f"players = 9\nplayer{long_text} = 1"), "table.'playerxxx"),
    ]:
        path.write_text(text)
        with pytest.raises(JobFileError) as caught:
            load_job(path)
        message = str(caught.value)
        assert field in message, message[:500]
        assert "x" * 41 not in message and "…' (100,0" in message, message[:500]
        assert len(message) < len(str(path)) + 400, message[:500]  # not 100,000


def test_a_one_shard_job_runs_without_starting_ray(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Small jobs spent most of their time starting Ray, and nothing told the user: a job of
    one shard now runs in the process and says so."""
    path = tmp_path / "job.toml"
    path.write_text('kind = "bad_beat"\nhands = 2_000\nseed = 3\n')
    assert main(["run", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    assert "one shard: running it in this process (no Ray)" in captured.err
    assert json.loads(captured.out)["hands"] == 2_000
    assert "ray" not in sys.modules or not sys.modules["ray"].is_initialized()


def test_a_small_job_says_that_in_process_skips_starting_ray(tmp_path: Path) -> None:
    """Small jobs spent most of their time starting Ray: a job of fewer shards than twice the
    cores is told about --in-process; a large one is not."""
    args = build_parser().parse_args(["run", "job.toml"])
    small = job_from_mapping({"kind": "bad_beat", "hands": 20, "shard_size": 10})
    assert placement(args, small) == (
        False,
        "2 shards; starting Ray takes a few seconds (--in-process skips it)",
    )
    large = job_from_mapping({"kind": "bad_beat", "hands": 10**5, "shard_size": 10})
    assert placement(args, large) == (False, None)
