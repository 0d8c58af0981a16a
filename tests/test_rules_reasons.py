"""The refusal messages, written once (simulations/rules/reasons.py): the reference engine
and the replay kernel's results both word a refused action from the one table, so that a
hand refused by either reads the same.  Rules 002_376df91f076a6501.txt, '= Check =': 'If
no one has yet opened the betting round, a player may check' (and so not when a bet
stands)."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import numpy as np
import pytest

from simulations.engine import hand as hand_module
from simulations.engine import posting, replay
from simulations.engine.hand import Action, Hand, IllegalAction
from simulations.engine.limits import Limit
from simulations.engine.replay import ActionCode, ReplayBatch, ReplayStatus
from simulations.rules import codes, reasons
from tests.factories import holdem

ROOT = Path(__file__).resolve().parent.parent
# Every refusal the kernel reports (every status but COMPLETED).
REFUSALS = [status for status in ReplayStatus if status is not ReplayStatus.COMPLETED]
NUMBERS = {
    "seat": 3,
    "a": 10,
    "b": 40,
    "total": 25,
    "word": "raise",
    "side": "left",
    "code": 9,
    "round": 2,
    "given": 3,
}


@pytest.mark.parametrize("status", REFUSALS, ids=lambda s: s.name)
def test_every_refusal_has_one_line(status: ReplayStatus) -> None:
    """Each refusal code has its message, with only the named numbers the callers give."""
    assert int(status) == getattr(codes, status.name)
    fields = {name for _, name, _, _ in string.Formatter().parse(reasons.REASONS[status]) if name}
    assert fields <= set(NUMBERS), fields - set(NUMBERS)
    text = reasons.reason(status, **NUMBERS)
    assert "\n" not in text and "{" not in text and text == text.strip()


def test_the_engine_and_the_kernel_word_a_refusal_from_the_one_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A check facing a bet, refused by the reference engine and by the replay kernel: both
    messages change when the table's one entry does, and agree."""
    monkeypatch.setitem(reasons.REASONS, codes.CHECK_FACING_BET, "CHECK REFUSED, {a} OWED")
    game = holdem(Limit.NO, blinds=(1, 2))
    played = Hand(game, [100, 100, 100], button=0, rng=np.random.default_rng(3))
    with pytest.raises(IllegalAction) as refused:
        played.act(Action.check())
    assert str(refused.value) == "CHECK REFUSED, 2 OWED"
    batch = ReplayBatch(
        seats=np.array([3]),
        buttons=np.array([0]),
        stacks=np.array([[100, 100, 100]]),
        decks=np.arange(52, dtype=np.int8)[None, :],
        action_offsets=np.array([0, 1]),
        action_kinds=np.array([ActionCode.CHECK]),
        action_totals=np.array([0]),
    )
    result = replay.replay(game, batch)
    assert result.status.tolist() == [ReplayStatus.CHECK_FACING_BET]
    assert result.reason(0) == "CHECK REFUSED, 2 OWED"


@pytest.mark.parametrize("module", [hand_module, posting, replay], ids=lambda m: m.__name__)
def test_no_caller_keeps_a_copy_of_the_words(module: object) -> None:
    """No string in the engine's hand, its posting or the kernel's results repeats a
    message's fixed words (the longest literal part of each template)."""
    parts = [
        max((literal for literal, *_ in string.Formatter().parse(text)), key=len)
        for text in reasons.REASONS.values()
    ]
    # The source by the module's name: a compiled module's __file__ is its extension.
    path = ROOT.joinpath(*getattr(module, "__name__", "").split(".")).with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    strings = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]
    copies = [(part, s) for part in parts for s in strings if len(part) >= 12 and part in s]
    assert parts and strings
    assert not copies, copies
