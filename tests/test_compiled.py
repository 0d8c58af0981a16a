"""The compiled build (simulations/engine/compiled.py): built and in use under ``make test``,
refused when older than its sources, playing every game exactly as the plain sources, and
replaying PHH files to the very reports the plain sources give."""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from simulations.engine import compiled
from simulations.engine.compiled import COMPILED, check_fresh, stale_sources
from simulations.engine.hand import Hand
from simulations.engine.variants import POKER_VARIANTS
from simulations.phh.model import PhhHand
from simulations.phh.record import hand_history
from simulations.phh.write import dumps, dumps_all
from tests.pure_engine import digests, replays
from tests.random_play import random_action

ROOT = Path(__file__).resolve().parent.parent
# `make pure` then `pytest` runs the sources alone: say so, and the check is skipped.
PURE = os.environ.get("CARDROOM_PURE") == "1"


def _pure(*arguments: str) -> dict[str, Any]:
    """What ``tests.pure_engine`` finds with the plain sources, in a subprocess that never
    loads a compiled module (it reports which ones it ran compiled: none)."""
    run = subprocess.run(
        [sys.executable, "-m", "tests.pure_engine", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    found: dict[str, Any] = json.loads(run.stdout)
    assert found["compiled"] == []
    return found


@pytest.mark.skipif(PURE, reason="CARDROOM_PURE=1: the engine runs as plain Python")
def test_the_engine_and_the_phh_replay_run_compiled() -> None:
    """`make test` compiles first: every hot module is an extension module here."""
    for name in COMPILED:
        importlib.import_module(name)
    assert compiled.compiled_modules() == COMPILED, "run `make compile` (or CARDROOM_PURE=1)"
    assert any(name.startswith("simulations.phh.") for name in COMPILED)


def test_a_build_older_than_its_sources_is_refused(tmp_path: Path) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    engine = tmp_path / "simulations" / "engine"
    phh = tmp_path / "simulations" / "phh"
    engine.mkdir(parents=True)
    phh.mkdir()
    sources = [engine / "hand.py", engine / "dealer.py", phh / "read.py"]
    for path in sources:
        path.write_text("")
        os.utime(path, (1_000, 1_000))
    (engine / f"hand{suffix}").write_bytes(b"")
    (phh / f"read{suffix}").write_bytes(b"")
    os.utime(engine / f"hand{suffix}", (2_000, 2_000))
    os.utime(phh / f"read{suffix}", (2_000, 2_000))
    assert stale_sources(tmp_path) == []
    check_fresh(tmp_path)
    os.utime(engine / "dealer.py", (3_000, 3_000))  # edited after the build
    assert stale_sources(tmp_path) == ["simulations/engine/dealer.py"]
    with pytest.raises(ImportError, match=r"older than simulations/engine/dealer\.py: run `make"):
        check_fresh(tmp_path)
    os.utime(engine / "dealer.py", (1_000, 1_000))
    os.utime(phh / "read.py", (3_000, 3_000))  # a PHH source edited after the build
    assert stale_sources(tmp_path) == ["simulations/phh/read.py"]
    (engine / f"hand{suffix}").unlink()
    (phh / f"read{suffix}").unlink()  # nothing compiled: the sources run
    assert stale_sources(tmp_path) == []


GROUPS = 3  # the games in three cases, so that they can run side by side


@pytest.mark.parametrize("group", range(GROUPS))
def test_the_compiled_engine_plays_every_game_as_the_sources(group: int) -> None:
    """Random play of every built-in game (every third, by group), event for event and chip
    for chip, by this process's engine and by the plain sources."""
    codes = list(POKER_VARIANTS)[group::GROUPS]
    pure = _pure(*codes)
    ours = digests(codes)
    assert len(ours) == len(codes) and len(POKER_VARIANTS) > 30
    assert {c: d for c, d in ours.items() if pure["digests"][c] != d} == {}


# A hold'em hand the kernel plays, and ways of breaking it the reader or the engine names.
_HAND = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 6s8h', 'd dh p2 Ah8s', 'd dh p3 4h3d', 'p3 f', 'p1 cc', 'p2 cc', \
'd db JcQh3s', 'p1 cc', 'p2 cbr 300', 'p1 cc', 'd db 2d', 'p1 cc', 'p2 cc', 'd db Qs', \
'p1 cc', 'p2 cc', 'p1 sm 6s8h', 'p2 sm Ah8s']
finishing_stacks = [9600, 10400, 10000]
"""
_BROKEN = (
    ("min_bet = 100\n", ""),
    ("'p3 f', 'p1 cc'", "'p3 f', 'p3 cc', 'p1 cc'"),
    ("'d dh p3 4h3d'", "'d dh p3 4h8h'"),
    ("'p2 cbr 300'", "'p2 cbr 30x'"),
    ("[9600, 10400, 10000]", "[9500, 10500, 10000]"),
    ("antes = [0, 0, 0]", "antes = [0, 5, 0]"),
)


def _played(code: str, seed: int, big_blind: int) -> Hand:
    """A random hand of ``code``, its blinds (where it has two) scaled to ``big_blind``."""
    game = POKER_VARIANTS[code].game()
    if len(game.forced.blinds) == 2:
        game = replace(
            game,
            forced=replace(game.forced, blinds=(big_blind // 2, big_blind)),
            stakes=replace(
                game.stakes, small_bet=big_blind, big_bet=game.stakes.big_bet and 2 * big_blind
            ),
        )
    chooser = random.Random(seed)
    n = chooser.randint(game.min_players, min(game.max_players, 6))
    stacks = [
        chooser.choice([chooser.randint(5, 40) * big_blind, 100 * big_blind]) for _ in range(n)
    ]
    hand = Hand(game, stacks, n - 1, rng=np.random.default_rng(seed))
    while not hand.finished:
        hand.act(random_action(hand, chooser))
    return hand


def _phh_files(folder: Path) -> list[str]:
    """Hands of every PHH variant of the registry as ``.phhs`` files (hold'em at many
    stakes), one-hand files, and files the reader or the engine refuses."""
    paths = []
    for code in ("NT", "FT", "PO", "FO/8", "F7S", "FR", "N2L1D", "F2L3D", "FB"):
        hands: list[PhhHand] = []
        for seed in range(40):
            try:
                hands.append(hand_history(_played(code, seed, 2 * (1 + seed % 5)), code))
            except ValueError:
                continue  # a deck run out: PHH cannot write it
            if len(hands) == 12:
                break
        path = folder / f"{code.replace('/', '')}.phhs"
        path.write_text(dumps_all(hands))
        paths.append(path)
        single = folder / f"{code.replace('/', '')}.phh"
        single.write_text(dumps(hands[0]))
        paths.append(single)
    for number, (old, new) in enumerate(_BROKEN):
        assert old in _HAND
        path = folder / f"broken{number}.phh"
        path.write_text(_HAND.replace(old, new, 1))
        paths.append(path)
    several = folder / "several.phhs"
    several.write_text("".join(f"[{n}]\n{_HAND}\n" for n in range(1, 5)) + "[5]\nvariant = 3\n")
    paths += [several, folder / "missing.phh"]
    return [str(path) for path in paths]


def test_the_compiled_phh_replay_reports_as_the_sources(tmp_path: Path) -> None:
    """PHH files of every variant, at many stakes, and files the reader or the engine
    refuses: every file's and every hand's report, by each engine choice, the same in this
    process as with the plain sources."""
    paths = _phh_files(tmp_path)
    pure = _pure("--phh", *paths)
    ours = json.loads(json.dumps(replays(paths)))
    assert ours == pure["digests"]
    outcomes = {hand[1] for report in ours["auto"] for hand in report[2]}
    assert outcomes >= {"passed", "failed", "malformed"}
