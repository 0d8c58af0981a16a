"""The guts, exhaustion, bad-beat (at a table, with a policy over time) and rake kinds of job
end to end: `cardroom run` in-process and on two Ray workers, and submitted to a real server
and followed with the CLI client, give byte-identical JSON; `--plot` draws each kind's
picture, locally and from the server's result; a bad setting is refused by `cardroom run`
with exit code 2 and one line naming the field (the server's INVALID_ARGUMENT for the same
settings: tests/test_service.py)."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from service.jobfile import job_from_mapping
from service.kinds import KINDS, check_drawable
from service.pictures import PictureError
from tests import dice_kind
from tests.harness import cardroom, running_server
from workers.runner import InlineRunner

JOBS = {
    "guts": """kind = "guts"
sessions = 30000
seed = 9
shard_size = 10000

game = "G3-CAP50"
[table]
players = 4

[policy]
top = 0.35
""",
    "exhaustion": """kind = "exhaustion"
hands = 40000
seed = 5
shard_size = 10000

game = "F7S"
[table]
players = [7, 8]

[policy]
fold_chance = 0.1
""",
    "bad_beat": """kind = "bad_beat"
hands = 40000
seed = 3
shard_size = 10000

game = "NO"
[table]
players = 6

[[players]]
name = "regular"
seats = 4
vpip = 0.3

[[players]]
name = "loose"
vpip = 0.6
chance = 0.4

[jackpot]
min_losing_hand = "AAAKK"
quads_need_pocket_pair = false

[room]
tables = 4
hands_per_hour = 30

[rake]
percent = 10
caps = [{players = 2, cap = 5}]

[drop]
amount = 1
threshold = 10

[policy]
seed = 500
reserve_share = 0.2

[policy.step_down]
every_hours = 2
steps = ["full house"]
""",
    "rake": """kind = "rake"
hands = 40000
seed = 8
shard_size = 10000

[[policies]]
name = "10 % capped at 5"
percent = 10
caps = [{players = 2, cap = 5}]

[[policies]]
name = "5 % half to even, capped at 3"
percent = 5
rounding = "half-even"
caps = [{players = 2, cap = 3}]
""",
}
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_each_kind_gives_the_same_bytes_however_it_runs(tmp_path: Path) -> None:
    files = {}
    outputs: dict[str, dict[str, str]] = {}
    for kind, text in JOBS.items():
        files[kind] = tmp_path / f"{kind}.toml"
        files[kind].write_text(text)
        outputs[kind] = {}
        for mode in (["--in-process"], ["--workers", "2"]):
            done = cardroom("run", str(files[kind]), "--json", *mode)
            assert done.returncode == 0, done.stderr
            outputs[kind][" ".join(mode)] = done.stdout
    with running_server(tmp_path / "data") as server:
        for kind, path in files.items():
            followed = server.cli("submit", str(path), "--follow", "--json")
            assert followed.returncode == 0, followed.stderr + server.log()
            outputs[kind]["service"] = followed.stdout
            job_id = server.cli("list", "--kind", kind).stdout.splitlines()[1].split()[0]
            picture = tmp_path / f"{kind}-served.png"
            drawn = server.cli("result", job_id, "--plot", str(picture))
            assert drawn.returncode == 0, drawn.stderr
            assert picture.read_bytes()[:8] == PNG
    for kind, seen in outputs.items():
        assert len(set(seen.values())) == 1, (kind, seen)
    guts = json.loads(outputs["guts"]["service"])
    assert guts["kind"] == "guts" and guts["sessions"] == 30_000
    assert sum(b["count"] for b in guts["deals"]["histogram"]) == 30_000
    assert guts["largest_pot"]["maximum"] <= 50 and guts["cap_hits"] > 0
    exhaustion = json.loads(outputs["exhaustion"]["service"])
    assert [row["players"] for row in exhaustion["table"]] == [7, 8]
    eight = {e["event"]: e["hands"] for e in exhaustion["table"][1]["events"]}
    assert 0 < eight["community_card"] < eight["burns_reused"] < 40_000
    jackpot = json.loads(outputs["bad_beat"]["service"])
    assert jackpot["hands"] == 40_000 and len(jackpot["levels"]) == 2
    assert jackpot["policy"]["jackpot_mean"] > 500 and len(jackpot["policy"]["kinds"]) == 2
    policies = json.loads(outputs["rake"]["service"])["policies"]
    assert policies[1]["difference"] < 0 < policies[0]["per_hand"]
    for kind, path in files.items():
        picture = tmp_path / f"{kind}.png"
        drawn = cardroom("run", str(path), "--in-process", "--plot", str(picture))
        assert drawn.returncode == 0, drawn.stderr
        assert picture.read_bytes()[:8] == PNG


def test_a_kind_without_a_picture_is_refused_before_it_runs() -> None:
    """`--plot` on a kind that draws nothing (the tests' dice kind): refused before any work."""
    job = job_from_mapping({"kind": "dice", "sessions": 10, "seed": 1}, kinds=dice_kind.KINDS)
    with pytest.raises(PictureError, match="--plot: a dice job has no picture"):
        check_drawable(job, kinds=dice_kind.KINDS)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("[policy]\nloser_share = 0.6\n[drop]\namount = 1\n", "policy.loser_share"),
        ("[drop]\namount = 5\nthreshold = 2\n", "drop.amount"),
        ('[[players]]\nvpip = 0.2\ncolour = "red"\n', "players[0].colour"),
        (
            '[drop]\namount = 1\n[policy.step_down]\nevery_hours = 1\nsteps = ["AAAA"]\n',
            "policy.step_down.steps[0]",
        ),
    ],
)
def test_bad_settings_exit_2_naming_the_field(tmp_path: Path, text: str, field: str) -> None:
    job = tmp_path / "job.toml"
    job.write_text(f'kind = "bad_beat"\nhands = 1000\nseed = 1\n{text}')
    done = cardroom("run", str(job), "--in-process")
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"cardroom: {job}: {field}: "), line


def test_every_kind_crosses_to_a_worker_after_it_has_run() -> None:
    """Ray pickles a job to its workers: each kind's job, once it has simulated (and built
    whatever it caches), still pickles and unpickles to an equal job — the compiled engine's
    game parts, which do not unpickle, are kept out of it."""
    for name, kind in KINDS.items():
        job = job_from_mapping({"kind": name, kind.trials_field: 200, "seed": 1})
        InlineRunner().run(job)
        assert pickle.loads(pickle.dumps(job)) == job, name
