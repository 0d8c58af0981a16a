"""Random play of every built-in game, and PHH files replayed, as digests, run by the compiled
build in the test process and by the plain sources in a subprocess (``python -m
tests.pure_engine CODE...`` or ``python -m tests.pure_engine --phh FILE...``), which loads
every module of :data:`~simulations.engine.compiled.COMPILED` from its ``.py`` file even where
a compiled one sits beside it."""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

HANDS = 150  # a variant's hands: every phase, all-ins, reshuffles and split pots between them


class _Sources(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (``names``, full names, under ``root``) as their sources."""

    def __init__(self, names: Sequence[str], root: Path) -> None:
        self.names = frozenset(names)
        self.root = root

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        from simulations.engine.compiled import source

        return importlib.util.spec_from_file_location(fullname, source(fullname, self.root))


def digests(codes: Sequence[str], hands: int = HANDS) -> dict[str, str]:
    """Each variant's ``hands`` random hands (seeded), as a digest of every event and the
    final stacks."""
    import numpy as np

    from simulations.engine.hand import Hand
    from simulations.engine.variants import VARIANTS
    from tests.random_play import random_action

    found = {}
    for code in codes:
        game = VARIANTS[code].game()
        log = hashlib.sha256()
        for seed in range(hands):
            chooser = random.Random(seed)
            n = chooser.randint(game.min_players, game.max_players)
            stacks = [chooser.choice([chooser.randint(5, 40), 400]) for _ in range(n)]
            hand = Hand(game, stacks, chooser.randrange(n), rng=np.random.default_rng(seed))
            while not hand.finished:
                hand.act(random_action(hand, chooser))
            log.update(repr((hand.events, hand.stacks, hand.carried)).encode())
        found[code] = log.hexdigest()
    return found


def replays(paths: Sequence[str]) -> dict[str, list[Any]]:
    """``cardroom replay``'s reports of ``paths``, by each engine choice: every file's error
    and every hand's name, outcome, notes, differences and message (not its seconds)."""
    from simulations.phh.batch import replay_files
    from simulations.phh.options import Engine, ReplayOptions

    found: dict[str, list[Any]] = {}
    for engine in Engine:
        reports = replay_files(paths, ReplayOptions(engine=engine))
        found[engine.value] = [
            [
                report.path,
                report.error,
                [
                    [r.name, r.outcome.value, list(r.notes), repr(r.differences), r.message]
                    for r in report.results
                ],
            ]
            for report in reports
        ]
    return found


def main(arguments: Sequence[str]) -> None:
    # compiled.py itself is never compiled, and imports no compiled module
    from simulations.engine import compiled

    sys.meta_path.insert(0, _Sources(compiled.COMPILED, compiled.ROOT))
    if arguments[:1] == ["--phh"]:
        found: dict[str, Any] = replays(arguments[1:])
    else:
        found = digests(arguments)
    print(json.dumps({"compiled": list(compiled.compiled_modules()), "digests": found}))


if __name__ == "__main__":
    main(sys.argv[1:])
