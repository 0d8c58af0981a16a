"""Job files: every key validated; each mistake gives exit code 2 and one line naming the field."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from service.cli import main
from service.jobfile import JobFileError, load_job, parse_job_text
from simulations.models import BadBeatModel

GOOD = """
kind = "bad_beat"
hands = 1000
seed = 7
[game]
variant = "holdem"
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
    "players one": (_replace("players = 9", "players = 1"), "game.players", "at least"),
    "players eleven": (_replace("players = 9", "players = 11"), "game.players", "at most"),
    "players a string": (_replace("players = 9", 'players = "nine"'), "game.players", "integer"),
    "variant unknown": (_replace('"holdem"', '"omaha"'), "game.variant", "one of"),
    "unknown game key": (
        _replace("players = 9", "players = 9\nplayer = 9"),
        "game.player",
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
    "game not a table": (
        _replace('[game]\nvariant = "holdem"\nplayers = 9\n', "").replace(
            "seed = 7", "seed = 7\ngame = 5"
        ),
        "game",
        "table",
    ),
    "bad toml syntax": (GOOD.replace("hands = 1000", "hands = = 1000"), None, "not valid TOML"),
}
MISTAKES["unknown top-level key"] = (
    GOOD.replace("seed = 7", "seed = 7\nplayers = 9"),
    "players",
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
    data = {"kind": "bad_beat", "hands": 500, "seed": 3, "game": {"players": 6}}
    job = parse_job_text(json.dumps(data), "json")
    assert job.trials == 500 and job.seed == 3
    assert isinstance(job.model, BadBeatModel) and job.model.players == 6


def test_defaults_are_documented_values(tmp_path: Path) -> None:
    path = tmp_path / "job.toml"
    path.write_text('kind = "bad_beat"\nhands = 10\nseed = 1\n')
    job = load_job(path)
    model = job.model
    assert isinstance(model, BadBeatModel)
    assert model.players == 9 and model.variant == "holdem"
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
    assert done.stderr.count("\n") == 1 and "game.players: must be at most 10" in done.stderr
