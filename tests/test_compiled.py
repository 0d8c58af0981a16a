"""The compiled engine (simulations/engine/compiled.py): built and in use under ``make test``,
refused when older than its sources, and playing every game exactly as the plain sources."""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulations.engine import compiled
from simulations.engine.compiled import COMPILED, check_fresh, stale_sources
from simulations.engine.variants import POKER_VARIANTS
from tests.pure_engine import digests

ROOT = Path(__file__).resolve().parent.parent
# `make pure` then `pytest` runs the sources alone: say so, and the check is skipped.
PURE = os.environ.get("CARDROOM_PURE") == "1"


@pytest.mark.skipif(PURE, reason="CARDROOM_PURE=1: the engine runs as plain Python")
def test_the_engine_runs_compiled() -> None:
    """`make test` compiles first: every hot module is an extension module here."""
    for name in COMPILED:
        importlib.import_module(f"simulations.engine.{name}")
    assert compiled.compiled_modules() == COMPILED, "run `make compile` (or CARDROOM_PURE=1)"


def test_a_build_older_than_its_sources_is_refused(tmp_path: Path) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in ("hand", "dealer"):
        (tmp_path / f"{name}.py").write_text("")
    (tmp_path / f"hand{suffix}").write_bytes(b"")
    os.utime(tmp_path / "hand.py", (1_000, 1_000))
    os.utime(tmp_path / "dealer.py", (1_000, 1_000))
    os.utime(tmp_path / f"hand{suffix}", (2_000, 2_000))
    assert stale_sources(tmp_path) == []
    check_fresh(tmp_path)
    os.utime(tmp_path / "dealer.py", (3_000, 3_000))  # edited after the build
    assert stale_sources(tmp_path) == ["dealer.py"]
    with pytest.raises(ImportError, match=r"older than dealer\.py: run `make compile`"):
        check_fresh(tmp_path)
    (tmp_path / f"hand{suffix}").unlink()  # nothing compiled: the sources run
    assert stale_sources(tmp_path) == []


GROUPS = 3  # the games in three cases, so that they can run side by side


@pytest.mark.parametrize("group", range(GROUPS))
def test_the_compiled_engine_plays_every_game_as_the_sources(group: int) -> None:
    """Random play of every built-in game (every third, by group), event for event and chip
    for chip, by this process's engine and by the plain sources in a subprocess that never
    loads a compiled module (it reports which ones it ran compiled: none)."""
    codes = list(POKER_VARIANTS)[group::GROUPS]
    run = subprocess.run(
        [sys.executable, "-m", "tests.pure_engine", *codes],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    pure = json.loads(run.stdout)
    assert pure["compiled"] == []
    ours = digests(codes)
    assert len(ours) == len(codes) and len(POKER_VARIANTS) > 30
    assert {c: d for c, d in ours.items() if pure["digests"][c] != d} == {}
