"""The compiled engine: which modules are compiled, and a guard against a stale build.

The reference engine is plain, type-checked Python.  ``make`` also compiles the modules a
hand runs through on every action (:data:`COMPILED`) with mypyc, the compiler that comes
with mypy, into extension modules beside their sources (``setup.py``): the same code, with
its types checked at run time, several times faster.  Python imports an extension module
ahead of a source file of the same name, so a build older than its sources would run old
code: :func:`check_fresh`, called when :mod:`simulations.engine` is imported, refuses that.
Without a build (no C compiler, or ``make pure``) everything runs as plain Python.

This module imports nothing from the package: ``setup.py`` reads :data:`COMPILED` from it
before the package can be imported.
"""

from __future__ import annotations

import importlib.machinery
import sys
from pathlib import Path

# The modules of simulations.engine compiled together (one shared library, _native__mypyc):
# the hand's state machine and everything it calls on every action.
COMPILED: tuple[str, ...] = (
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
SHARED_LIBRARY = "_native__mypyc"
ENGINE = Path(__file__).resolve().parent


def extension_files(directory: Path = ENGINE) -> list[Path]:
    """The compiled modules (and their shared library) present in ``directory``."""
    names = (*COMPILED, SHARED_LIBRARY)
    return [
        directory / f"{name}{suffix}"
        for name in names
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if (directory / f"{name}{suffix}").exists()
    ]


def stale_sources(directory: Path = ENGINE) -> list[str]:
    """The sources of :data:`COMPILED` changed since the oldest compiled file in
    ``directory`` was built (none when nothing is compiled)."""
    built = extension_files(directory)
    if not built:
        return []
    oldest = min(path.stat().st_mtime for path in built)
    return [
        f"{name}.py"
        for name in COMPILED
        if (directory / f"{name}.py").exists()
        and (directory / f"{name}.py").stat().st_mtime > oldest
    ]


def check_fresh(directory: Path = ENGINE) -> None:
    """Refuse to run a compiled engine older than its sources (ImportError naming them)."""
    stale = stale_sources(directory)
    if stale:
        raise ImportError(
            f"the compiled engine in {directory} is older than {', '.join(stale)}: "
            "run `make compile` to rebuild it, or `make pure` to run the sources as they are"
        )


def compiled_modules() -> tuple[str, ...]:
    """The modules of :data:`COMPILED` that this process runs compiled (imported ones)."""
    found = []
    for name in COMPILED:
        module = sys.modules.get(f"{__package__}.{name}")
        path = getattr(module, "__file__", None) or ""
        if path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            found.append(name)
    return tuple(found)
