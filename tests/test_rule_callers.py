"""The generated list of rule functions and their callers (bench/rule_callers.py,
docs/rule-functions.md): current with the source, and a new rules module picked up by being
there."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "rule_callers", ROOT / "bench" / "rule_callers.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rule_callers"] = module
    spec.loader.exec_module(module)
    return module


def test_the_list_is_current() -> None:
    """Fails when a rule or a caller changed since docs/rule-functions.md was written: run
    ``python bench/rule_callers.py``."""
    assert generator().main(["--check"]) == 0


def test_the_settlement_rules_are_listed_with_every_tier() -> None:
    text = (ROOT / "docs" / "rule-functions.md").read_text(encoding="utf-8")
    section = text.split("## `simulations.rules.settle`", 1)[1].split("\n## ", 1)[0]
    row = next(line for line in section.splitlines() if line.startswith("| `award_clockwise`"))
    for caller in ("engine.pots", "engine.replay_kernel", "table_kernel", "guts_kernel"):
        assert f"simulations.{caller}`" in row.replace("models.", ""), caller
    row = next(line for line in section.splitlines() if line.startswith("| `uncalled_bet`"))
    for caller in ("engine.pots", "engine.replay_kernel", "models.table_kernel", "phh.count"):
        assert f"`simulations.{caller}`" in row, caller


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_new_rules_module_and_its_callers_are_picked_up(tmp_path: Path) -> None:
    """A module added to simulations/rules/ (as rules/jackpot.py or rules/betting.py will be)
    is listed with its public functions and the product modules that use them, by a
    from-import, through the module, or as a kernel's global; a test is no caller, nor a
    module that imports the function and never uses it."""
    rules = tmp_path / "simulations" / "rules"
    write(rules / "__init__.py", '"""Rules."""\n')
    write(
        rules / "jackpot.py",
        '"""The jackpot qualifier.  More."""\n\n'
        "def qualifies(value: int) -> bool:\n"
        '    """Whether ``value`` qualifies.  Details."""\n'
        "    return floor(value) > 0\n\n"
        "def floor(value: int) -> int:\n"
        '    """The floor."""\n'
        "    return value\n\n"
        "def _private() -> None:\n"
        "    pass\n",
    )
    models = tmp_path / "simulations" / "models"
    write(models / "a.py", "from simulations.rules.jackpot import qualifies\nx = qualifies(3)\n")
    write(models / "b.py", "from simulations.rules import jackpot\ny = jackpot.floor(2)\n")
    write(models / "c.py", "import simulations.rules.jackpot as j\nz = j.qualifies\n")
    write(models / "unused.py", "from simulations.rules.jackpot import floor  # noqa\n")
    write(
        tmp_path / "tests" / "test_x.py", "from simulations.rules.jackpot import floor\nfloor(1)\n"
    )
    write(tmp_path / "service" / "s.py", "")
    write(tmp_path / "workers" / "w.py", "")
    tool = generator()
    text = tool.render(tmp_path)
    assert "## `simulations.rules.jackpot`\n\nThe jackpot qualifier." in text
    assert (
        "| `qualifies` | Whether ``value`` qualifies. | "
        "`simulations.models.a`<br>`simulations.models.c` |"
    ) in text
    assert (
        "| `floor` | The floor. | `simulations.models.b`<br>`simulations.rules.jackpot` |" in text
    )
    assert "_private" not in text and "tests" not in text.split("## ", 1)[1]
    # --check: stale until written, current after.
    assert tool.main(["--check", "--root", str(tmp_path)]) == 1
    (tmp_path / "docs").mkdir()
    assert tool.main(["--root", str(tmp_path)]) == 0
    assert tool.main(["--check", "--root", str(tmp_path)]) == 0
