"""Modules the command line imports on first use.

Most ``cardroom`` commands need only a part of what the package can load: ``--help`` and
``token`` need neither grpc nor the engine, ``list`` needs grpc but no numba kernel.
Importing everything up front cost every call more than a second, so the CLI's modules
name their heavy imports through :func:`lazy`: a stand-in whose first attribute read
imports the module and forwards to it.  Type checkers see the real module (the callers
import it under ``TYPE_CHECKING``); the stand-in exists only at run time.
"""

from __future__ import annotations

import os
from importlib import import_module
from types import ModuleType
from typing import Any


class LazyModule:
    """A module by name, imported when one of its attributes is first read."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        module = self._module
        if module is None:
            if self._name == "grpc" or self._name.startswith("grpc."):
                quiet_grpc()
            module = self._module = import_module(self._name)
        return getattr(module, attribute)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


def lazy(name: str) -> Any:
    """A stand-in for the module ``name`` (see the module's text)."""
    return LazyModule(name)


def quiet_grpc() -> None:
    """Keep grpc's C core to errors: its INFO lines ('Handshake failed ...') repeat on the
    terminal what the command says in one line of its own.  Read when grpc is first
    imported; a value the user set is kept."""
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
