"""The JSON Schema (draft 2020-12) of the scenario format, shipped beside this module.

Editors and CI can check a scenario file's shape against it (a TOML file read as JSON:
dates and times as ISO text); the runner's own reader checks the same keys and more (the
game file's options, the cards, the players' turns) and names the field of any problem.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

SCHEMA_FILE = "scenario.schema.json"


def scenario_schema() -> dict[str, Any]:
    """The schema as a JSON document."""
    text = (files("simulations.verify") / SCHEMA_FILE).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
