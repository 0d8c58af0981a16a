"""The guts and exhaustion kinds of job end to end: `cardroom run` in-process and on two Ray
workers, and submitted to a real server and followed with the CLI client, give byte-identical
JSON; `--plot` draws each kind's picture, locally and from the server's result."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from service.jobfile import job_from_mapping
from service.kinds import KINDS
from tests.harness import cardroom, running_server
from workers.runner import InlineRunner

JOBS = {
    "guts": """kind = "guts"
sessions = 30000
seed = 9
shard_size = 10000

[game]
code = "G3-CAP50"
players = 4

[policy]
top = 0.35
""",
    "exhaustion": """kind = "exhaustion"
hands = 40000
seed = 5
shard_size = 10000

[game]
code = "F7S"
players = [7, 8]

[policy]
fold_chance = 0.1
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
    assert sum(b["count"] for b in guts["deals_histogram"]) == 30_000
    assert guts["largest_pot"] <= 50 and guts["cap_hits"] > 0
    exhaustion = json.loads(outputs["exhaustion"]["service"])
    assert [row["players"] for row in exhaustion["table"]] == [7, 8]
    eight = {e["event"]: e["hands"] for e in exhaustion["table"][1]["events"]}
    assert 0 < eight["community_card"] < eight["burns_reused"] < 40_000
    for kind, path in files.items():
        picture = tmp_path / f"{kind}.png"
        drawn = cardroom("run", str(path), "--in-process", "--plot", str(picture))
        assert drawn.returncode == 0, drawn.stderr
        assert picture.read_bytes()[:8] == PNG


def test_a_kind_without_a_picture_is_refused_before_it_runs(tmp_path: Path) -> None:
    """`--plot` on a bad-beat job: exit 2 naming the option, before any work."""
    job = tmp_path / "bad_beat.toml"
    job.write_text('kind = "bad_beat"\nhands = 10000000000\nseed = 1\n')
    done = cardroom("run", str(job), "--in-process", "--plot", str(tmp_path / "x.png"))
    assert done.returncode == 2 and "--plot: a bad_beat job has no picture" in done.stderr
    assert not (tmp_path / "x.png").exists()


def test_every_kind_crosses_to_a_worker_after_it_has_run() -> None:
    """Ray pickles a job to its workers: each kind's job, once it has simulated (and built
    whatever it caches), still pickles and unpickles to an equal job — the compiled engine's
    game parts, which do not unpickle, are kept out of it."""
    for name, kind in KINDS.items():
        job = job_from_mapping({"kind": name, kind.trials_field: 200, "seed": 1})
        InlineRunner().run(job)
        assert pickle.loads(pickle.dumps(job)) == job, name
