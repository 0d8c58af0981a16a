"""Packaging (the metadata is in pyproject.toml), and the compiled engine.

The package installs as plain Python.  ``make compile`` runs

    CARDROOM_COMPILE=1 python setup.py build_ext --inplace --force

which compiles the engine's hot modules and the PHH replay's (simulations/engine/compiled.py
lists them) with mypyc into extension modules beside their sources; ``make pure`` removes
them again.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from setuptools import setup


def _compiled_modules() -> list[str]:
    # Read from the file itself: the package cannot be imported while a build is stale.
    path = Path(__file__).parent / "simulations" / "engine" / "compiled.py"
    spec = importlib.util.spec_from_file_location("_cardroom_compiled", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    names: tuple[str, ...] = module.COMPILED
    return [f"{name.replace('.', '/')}.py" for name in names]


if os.environ.get("CARDROOM_COMPILE") == "1":
    from mypyc.build import mypycify

    setup(
        ext_modules=mypycify(
            _compiled_modules(),
            opt_level="3",
            # the shared library goes inside the package, not beside it at the top level
            group_name="simulations.engine._native",
        )
    )
else:
    setup()
