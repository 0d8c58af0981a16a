"""The compiled modules: which modules are compiled, and a guard against a stale build.

The reference engine is plain, type-checked Python.  ``make`` also compiles the modules a
hand runs through on every action, and those ``cardroom replay`` runs through for every hand
it reads and replays (:data:`COMPILED`), with mypyc, the compiler that comes with mypy, into
extension modules beside their sources (``setup.py``): the same code, with its types checked
at run time, several times faster.  Python imports an extension module ahead of a source file
of the same name, so a build older than its sources would run old code: :func:`check_fresh`,
called when :mod:`simulations.engine` or :mod:`simulations.phh` is imported (before any of
their modules), refuses that.  Without a build (no C compiler, or ``make pure``) everything runs as
plain Python.

This module imports nothing from the package: ``setup.py`` reads :data:`COMPILED` from it
before the package can be imported.
"""

from __future__ import annotations

import importlib.machinery
import sys
from pathlib import Path

# The hand's state machine and everything it calls on every action.
ENGINE_MODULES: tuple[str, ...] = (
    "actions",
    "card_phases",
    "centre_phases",
    "deal_end",
    "dealer",
    "decisions",
    "deck_order",
    "events",
    "forced",
    "game",
    "game_parts",
    "hand",
    "hand_showdown",
    "limits",
    "openers",
    "phases",
    "posting",
    "pots",
    "settle",
    "showdown",
    "split_hands",
    "wagers",
)
# Reading PHH files and replaying their hands (simulations.phh): the text, the fields, the
# action lines and deck orders, the stakes laid out, the reference engine's replay and the
# results of checking a hand or a scenario (one built for every hand replayed).  The numba
# modules (scan, count) are compiled by numba instead.
PHH_MODULES: tuple[str, ...] = (
    "batch",
    "fast",
    "fast_draw",
    "lines",
    "model",
    "options",
    "quick",
    "read",
    "replay",
    "results",
    "stakes",
    "toml_subset",
)
# Every compiled module by its full name, compiled together (one shared library).
COMPILED: tuple[str, ...] = (
    *(f"simulations.engine.{name}" for name in ENGINE_MODULES),
    *(f"simulations.phh.{name}" for name in PHH_MODULES),
)
SHARED_LIBRARY = "simulations.engine._native__mypyc"
ENGINE = Path(__file__).resolve().parent
ROOT = ENGINE.parent.parent  # the folder that holds the simulations package


def source(name: str, root: Path = ROOT) -> Path:
    """The source file of the module ``name`` (a full name) under ``root``."""
    return root.joinpath(*name.split(".")).with_suffix(".py")


def extension_files(root: Path = ROOT) -> list[Path]:
    """The compiled modules (and their shared library) present under ``root``."""
    return [
        path
        for name in (*COMPILED, SHARED_LIBRARY)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if (path := source(name, root).with_suffix(suffix)).exists()
    ]


def stale_sources(root: Path = ROOT) -> list[str]:
    """The sources of :data:`COMPILED` (paths from ``root``) changed since the oldest
    compiled file under ``root`` was built (none when nothing is compiled)."""
    built = extension_files(root)
    if not built:
        return []
    oldest = min(path.stat().st_mtime for path in built)
    return [
        source(name, root).relative_to(root).as_posix()
        for name in COMPILED
        if source(name, root).exists() and source(name, root).stat().st_mtime > oldest
    ]


def check_fresh(root: Path = ROOT) -> None:
    """Refuse to run a compiled build older than its sources (ImportError naming them)."""
    stale = stale_sources(root)
    if stale:
        raise ImportError(
            f"the compiled modules under {root} are older than {', '.join(stale)}: "
            "run `make compile` to rebuild them, or `make pure` to run the sources as they are"
        )


def compiled_modules() -> tuple[str, ...]:
    """The modules of :data:`COMPILED` that this process runs compiled (imported ones)."""
    found = []
    for name in COMPILED:
        path = getattr(sys.modules.get(name), "__file__", None) or ""
        if path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            found.append(name)
    return tuple(found)
