"""Shard planning, seeding and merging: a job's result depends on its specification only."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulations.models import BadBeatModel
from simulations.rules.jackpot import BadBeatRules
from workers.job import Job
from workers.plan import MAX_SHARDS, ShardPlan, shard_rng
from workers.runner import InlineRunner, Progress, merge_in_order

REPO = Path(__file__).resolve().parent.parent


@given(st.integers(1, 10**9), st.integers(1, 10**7))
def test_plan_covers_every_trial_once(trials: int, shard_size: int) -> None:
    if -(-trials // shard_size) > MAX_SHARDS:
        with pytest.raises(ValueError, match="shards"):
            ShardPlan(trials, shard_size)
        return
    plan = ShardPlan(trials, shard_size)
    sizes = [plan.shard(i).trials for i in (0, plan.count - 1)]
    assert plan.count == -(-trials // shard_size)
    assert sizes[0] == min(trials, shard_size)
    assert sizes[1] == trials - (plan.count - 1) * shard_size
    assert all(0 < s <= shard_size for s in sizes)


def test_plan_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        ShardPlan(0, 10)
    with pytest.raises(ValueError):
        ShardPlan(10, 0)
    with pytest.raises(IndexError):
        ShardPlan(10, 5).shard(2)


def test_shard_seeds_are_the_spawned_children() -> None:
    """Shard i draws from SeedSequence(seed).spawn(n)[i]."""
    children = np.random.SeedSequence(42).spawn(6)
    for index, child in enumerate(children):
        expected = np.random.Generator(np.random.PCG64(child)).random(4)
        assert np.array_equal(shard_rng(42, index).random(4), expected)
    assert not np.array_equal(shard_rng(42, 0).random(4), shard_rng(42, 1).random(4))


def _job(trials: int = 50_000, shard_size: int = 7_000, seed: int = 5) -> Job:
    model = BadBeatModel(players=8, rules=BadBeatRules("full house", hole_cards_play=1))
    return Job(model, trials, seed, shard_size)


@settings(max_examples=10, deadline=None)
@given(st.randoms(use_true_random=False))
def test_merge_order_does_not_change_the_result(shuffler: random.Random) -> None:
    job = _job()
    shards = [(i, job.run_shard(i)) for i in range(job.plan.count)]
    expected = InlineRunner().run(job)
    shuffler.shuffle(shards)
    assert merge_in_order(job, shards, None) == expected


def test_progress_is_reported_after_every_shard() -> None:
    job = _job()
    seen: list[Progress] = []
    total = InlineRunner().run(job, seen.append)
    assert [p.shards_done for p in seen] == list(range(1, job.plan.count + 1))
    assert seen[-1].trials_done == job.trials == total.hands
    assert all(p.shards_total == job.plan.count for p in seen)


def test_a_shard_reproduces_itself() -> None:
    job = _job()
    assert job.run_shard(3) == job.run_shard(3)
    assert job.run_shard(3) != job.run_shard(4)


def _cardroom(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=REPO,
        env=env,
    )


@pytest.mark.slow
def test_one_and_two_workers_give_byte_identical_json(tmp_path: Path) -> None:
    """The same job on the embedded Ray with 1 and with 2 CPUs, and in-process: same bytes."""
    job = tmp_path / "job.toml"
    job.write_text(
        'kind = "bad_beat"\nhands = 600_000\nseed = 11\nshard_size = 50_000\n'
        '[table]\nplayers = 10\n[jackpot]\nmin_losing_hand = "full house"\n'
    )
    outputs = {}
    for mode in (["--workers", "1"], ["--workers", "2"], ["--in-process"]):
        done = _cardroom("run", str(job), "--json", *mode)
        assert done.returncode == 0, done.stderr
        outputs[" ".join(mode)] = done.stdout
    assert len(set(outputs.values())) == 1, outputs
    result = json.loads(outputs["--in-process"])
    assert list(result) == [
        "kind",
        "hands",
        "jackpot_hands",
        "frequency",
        "ci95_low",
        "ci95_high",
        "one_in",
        "qualifying_hands",
        "qualifying_frequency",
        "qualifying_ci95_low",
        "qualifying_ci95_high",
        "hands_between_hits",
        "levels",
        "table",
        "policy",
        "seed",
    ]
    assert result["kind"] == "bad_beat" and result["hands"] == 600_000 and result["seed"] == 11
    assert 0 < result["jackpot_hands"] < 600_000
    assert result["ci95_low"] < result["frequency"] < result["ci95_high"]


def test_readable_output_names_the_numbers(tmp_path: Path) -> None:
    job = tmp_path / "job.toml"
    job.write_text(
        'kind = "bad_beat"\nhands = 20_000\nseed = 3\n[jackpot]\nmin_losing_hand = "flush"\n'
    )
    done = _cardroom("run", str(job), "--in-process")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    for label in ("hands dealt", "jackpot hands", "frequency", "95 % CI", "one in", "seed"):
        assert label in text, text
    assert "20,000" in text and "any flush or better" in text
