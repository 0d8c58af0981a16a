"""Random play of every built-in game as a digest, run by the compiled engine in the test
process and by the plain sources in a subprocess (``python -m tests.pure_engine``), which
loads every module of :data:`~simulations.engine.compiled.COMPILED` from its ``.py`` file
even where a compiled one sits beside it."""

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

HANDS = 150  # a variant's hands: every phase, all-ins, reshuffles and split pots between them


class _Sources(importlib.abc.MetaPathFinder):
    """Finds the compiled engine's modules (``names`` in ``directory``) as their sources."""

    def __init__(self, names: Sequence[str], directory: Path) -> None:
        self.names = frozenset(names)
        self.directory = directory

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != "simulations.engine" or name not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, self.directory / f"{name}.py")


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


def main(codes: Sequence[str]) -> None:
    # compiled.py itself is never compiled, and imports no compiled module
    from simulations.engine import compiled

    sys.meta_path.insert(0, _Sources(compiled.COMPILED, compiled.ENGINE))
    found = digests(codes)
    print(json.dumps({"compiled": list(compiled.compiled_modules()), "digests": found}))


if __name__ == "__main__":
    main(sys.argv[1:])
