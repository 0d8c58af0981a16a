"""The layers of docs/architecture.md, read from the imports: ``service`` -> ``workers`` ->
``simulations``, and inside ``simulations`` the top modules (cards, decks, the checked
reader), then ``evaluators``, ``rules``, ``engine``, then ``models`` and ``phh``, then
``verify``.  Every import between two of these points down the list, so no package reaches
itself through another (``phh`` once imported ``verify``'s results while ``verify`` imported
``phh``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Lowest first; packages on one rank import neither each other nor anything above them.
RANKS: dict[str, int] = {
    "simulations": 0,  # its top modules: cards, decks, dealing, stats, spec, checked
    "simulations.evaluators": 1,
    "simulations.rules": 2,
    "simulations.engine": 3,
    "simulations.models": 4,
    "simulations.phh": 4,
    "simulations.verify": 5,
    "workers": 6,
    "service": 7,
}


def layer(module: str) -> str:
    """The layer of a module by its full name."""
    parts = module.split(".")
    if parts[0] == "simulations" and len(parts) > 1 and (ROOT / "simulations" / parts[1]).is_dir():
        return f"simulations.{parts[1]}"
    return parts[0]


def imports() -> list[tuple[str, str, str]]:
    """(file, its layer, the layer it imports) for every import of the three packages'."""
    found = []
    for top in ("simulations", "workers", "service"):
        for path in sorted((ROOT / top).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    targets = [node.module]
                elif isinstance(node, ast.Import):
                    targets = [alias.name for alias in node.names]
                else:
                    continue
                for target in targets:
                    if target.split(".")[0] in ("simulations", "workers", "service"):
                        found.append((str(path.relative_to(ROOT)), layer(name), layer(target)))
    return found


def test_every_import_points_down_the_layers() -> None:
    found = imports()
    assert len(found) > 500  # the scan read the tree
    assert {source for _, source, _ in found} == set(RANKS)
    upward = [
        (path, source, target)
        for path, source, target in found
        if source != target and RANKS[target] >= RANKS[source]
    ]
    assert not upward, upward
