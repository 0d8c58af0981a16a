"""The README's engine examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

from simulations.engine.hand import Hand

README = Path(__file__).resolve().parent.parent / "README.md"


def _section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(title)
    end = text.find("\n## ", start)
    return text[start : end if end >= 0 else len(text)]


def test_playing_a_hand_examples_run() -> None:
    """README, 'Playing a hand' and 'Replaying hands in bulk': every Python block runs, in
    order, in one namespace."""
    blocks = re.findall(r"```python\n(.*?)```", _section("### Playing a hand"), re.S)
    assert len(blocks) >= 2
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)
    hand, stud = namespace["hand"], namespace["stud"]
    assert isinstance(hand, Hand) and hand.finished
    assert isinstance(stud, Hand) and stud.pot_total == 5 + 2  # five antes and the bring-in
