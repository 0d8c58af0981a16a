"""How cardroom installs: the package metadata in the form current build tools expect."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_the_license_is_an_spdx_expression_so_installs_print_no_deprecation_box() -> None:
    """Every install printed setuptools' deprecation box: the `license` key was a table
    (`{ text = ... }`), which setuptools 77 and later refuse to take quietly.  It is now an
    SPDX expression, which needs setuptools 77 at build time."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert project["project"]["license"] == "Apache-2.0"
    requires = project["build-system"]["requires"]
    setuptools = [r for r in requires if r.startswith("setuptools")]
    assert len(setuptools) == 1
    floor = re.fullmatch(r"setuptools>=(\d+)(\.\d+)*", setuptools[0])
    assert floor is not None and int(floor.group(1)) >= 77
