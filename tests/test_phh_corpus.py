"""The PHH corpus loader of ``bench/bench_phh.py`` on a handful of hands of every variant.

The benchmark times pokerkit against our engine on hands rebuilt from the PHH files; its
figures mean something only if both engines really play those hands.  Here the first hands of
each generated file and of the Pluribus hands go through the loader, and each is checked
apart from the loader's own filter: our engine deals every seat and the board exactly the
PHH's cards, and both engines end at the PHH's finishing stacks.

The corpus is part of the environment (``../shared/phh`` beside the repository): the test
fails, naming the path, if it is missing.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections import defaultdict
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pokerkit import HandHistory

from simulations.cards import format_card
from simulations.engine.events import BoardDealt, HoleDealt

BENCH = Path(__file__).resolve().parent.parent / "bench"
HANDS = 6  # the first hands of each generated file, and of the Pluribus hands


def _load_bench_module(name: str) -> ModuleType:
    """A module of ``bench/`` (a folder of scripts, not a package)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


pc = _load_bench_module("phh_corpus")


@pytest.fixture(scope="module")
def corpus() -> Path:
    try:
        root: Path = pc.corpus_root()
    except pc.CorpusMissing as missing:
        # A checkout with the corpus beside it (the development tree) always runs these; a
        # clone elsewhere runs them when CARDROOM_PHH points at the corpus, and must when
        # CARDROOM_REQUIRE_PHH is set.
        if os.environ.get("CARDROOM_REQUIRE_PHH"):
            pytest.fail(str(missing))
        pytest.skip(str(missing))
    return root


def histories(root: Path, code: str) -> dict[str, Any]:
    """The first PHH hands of a generated file (or of the Pluribus files), by the loader's name."""
    if code == pc.PLURIBUS:
        found = {}
        for path in pc.pluribus_files(HANDS):
            with path.open("rb") as stream:
                found[str(path.relative_to(root / pc.PLURIBUS))] = HandHistory.load(stream)
        return found
    file = pc.GENERATED_FILES[code]
    with (root / "generated" / file).open("rb") as stream:
        loaded = list(HandHistory.load_all(stream))[:HANDS]
    return {f"{file}#{history.hand}": history for history in loaded}


def phh_cards(history: Any) -> tuple[dict[int, set[str]], list[str]]:
    """Every card the PHH deals to each seat, and the board."""
    holes: dict[int, set[str]] = defaultdict(set)
    board: list[str] = []
    for line in pc.parse_lines(history):
        if line.kind == "dh":
            holes[line.seat].update(line.cards)
        elif line.kind == "db":
            board.extend(line.cards)
    return dict(holes), board


def our_cards(events: list[Any]) -> tuple[dict[int, set[str]], list[str]]:
    holes: dict[int, set[str]] = defaultdict(set)
    board: list[str] = []
    for event in events:
        if isinstance(event, HoleDealt):
            holes[event.seat].update(format_card(c) for c in event.cards)
        elif isinstance(event, BoardDealt):
            board.extend(format_card(c) for c in event.cards)
    return dict(holes), board


@pytest.mark.parametrize("code", [*pc.GENERATED_FILES, pc.PLURIBUS])
def test_both_engines_replay_the_phh_hands(corpus: Path, code: str) -> None:
    loaded = pc.load(code, HANDS)
    # Only hands the manifest flags (a house rule where engines may differ) may be left out.
    unflagged = [why for why in loaded.left_out if not why.endswith("]")]
    assert not unflagged, f"{code}: hands left out without a convention flag: {unflagged}"
    assert len(loaded.hands) >= HANDS - 1, f"{code}: {dict(loaded.left_out)}"
    phh = histories(corpus, code)
    # Pluribus records split pots to the half chip; both engines round the odd chip.
    tolerance = 1.0 if code == pc.PLURIBUS else 0.0
    with pc.pokerkit_quiet():
        for hand in loaded.hands:
            history = phh[hand.name]
            want = [float(s) for s in history.finishing_stacks]
            state = pc.play_pokerkit(hand)
            ours = pc.play_ours(hand)
            assert not state.status, f"{hand.name}: pokerkit does not finish"
            assert ours.finished, f"{hand.name}: ours does not finish"
            for engine, stacks in (("pokerkit", state.stacks), ("ours", ours.stacks)):
                off = max(abs(float(a) - b) for a, b in zip(stacks, want, strict=True))
                assert off <= tolerance, f"{hand.name}: {engine} ends at {stacks}, PHH {want}"
            assert our_cards(ours.events) == phh_cards(history), f"{hand.name}: other cards"
            assert len(hand.actions) > 0


def test_a_wrong_deck_is_caught(corpus: Path) -> None:
    """The checks above can fail: the same hand dealt from a deck in another order."""
    hand = pc.load("NT", 1).hands[0]
    deck = list(hand.deck)
    deck[0], deck[1] = deck[1], deck[0]  # the first two players' first hole cards swap
    hand.deck = tuple(deck)
    ours = pc.play_ours(hand)
    history = histories(corpus, "NT")[hand.name]
    assert our_cards(ours.events) != phh_cards(history)
