"""The generated part of docs/mutation.md (``bench/mutation_doc.py``): survivors matched to
the classification by number or pattern, the unexamined ones listed, the score after a
check of later scenarios, and the committed classification file readable."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load_bench_module(name: str) -> ModuleType:
    """A module of ``bench/`` (a folder of scripts, not a package)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


md = _load_bench_module("mutation_doc")

CLASSES = """
[classes.A]
title = "Equivalent"
text = "Same result."

[classes.H]
title = "Open"
text = "A scenario to write."
open = true

[[mutants]]
class = "A"
function = "simulations.engine.pots.x_side_pots"
numbers = "2, 4–5"
reason = "the floor is beaten anyway"

[[mutants]]
class = "H"
pattern = "simulations.engine.dealer.xǁDealerǁdeal__mutmut_6*"
reason = "no Draft scenario"
"""

SURVIVORS = [
    "simulations.engine.pots.x_side_pots__mutmut_2",
    "simulations.engine.pots.x_side_pots__mutmut_5",
    "simulations.engine.pots.x_side_pots__mutmut_7",
    "simulations.engine.dealer.xǁDealerǁdeal__mutmut_66",
    "simulations.engine.settle.x_settle__mutmut_35",
]


def _classification(tmp_path: Path, text: str = CLASSES) -> object:
    path = tmp_path / "classes.toml"
    path.write_text(text, encoding="utf-8")
    return md.load_classification(path)


def test_numbers_and_ranges() -> None:
    assert md.parse_numbers("1, 4-6, 9–10", "x") == frozenset({1, 4, 5, 6, 9, 10})
    assert md.number_ranges([9, 1, 2, 3, 5]) == "1–3, 5, 9"
    with pytest.raises(ValueError, match="runs backwards"):
        md.parse_numbers("6-4", "x")
    with pytest.raises(ValueError, match="'a' is not a number"):
        md.parse_numbers("1, a", "x")


def test_survivors_are_matched_by_number_and_pattern(tmp_path: Path) -> None:
    classification = _classification(tmp_path)
    found, unexamined = md.classify(SURVIVORS, classification)
    assert {name: entry.letter for name, entry in found.items()} == {
        SURVIVORS[0]: "A",
        SURVIVORS[1]: "A",
        SURVIVORS[3]: "H",
    }
    assert unexamined == [SURVIVORS[2], SURVIVORS[4]]
    # mutant 4 of side_pots is named but did not survive
    assert md.stale_entries(SURVIVORS, classification) == [
        "simulations.engine.pots.x_side_pots__mutmut_4"
    ]
    assert md.shown_function("simulations.engine.dealer.xǁDealerǁdeal") == "dealer.Dealer.deal"
    assert md.shown_function("simulations.engine.pots.x_side_pots") == "pots.side_pots"


def test_a_bad_entry_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"mutants\[0\]: class: 'Z'"):
        _classification(tmp_path, CLASSES.replace('class = "A"', 'class = "Z"', 1))
    with pytest.raises(ValueError, match=r"mutants\[0\]: reason"):
        _classification(tmp_path, CLASSES.replace('"the floor is beaten anyway"', '""'))


def test_render_counts_the_run_and_the_later_check(tmp_path: Path) -> None:
    summary = {
        "modules": {
            "simulations/engine/pots.py": {
                "possible": 30, "unreached": 5, "mutants": 25, "killed": 20, "timeout": 0,
                "survived": 5, "no tests": 0, "skipped": 0, "not run": 0, "other": 0,
            },
        },
        "survivors": [{"mutant": name, "verdict": "survived"} for name in SURVIVORS],
    }  # fmt: skip
    runs = [
        {
            "kind": "checked", "started": "2026-12-02T01:00:00+00:00", "names": SURVIVORS[2:3],
            "scenario_files": ["new.toml"], "tried": 1, "killed": 1,
            "killed_names": [SURVIVORS[2]], "load_start": 3.0, "load_end": 3.5, "cores": 2,
            "commit": "abc", "wall_seconds": 30.0,
        },
        {
            "kind": "full", "started": "2026-12-01T23:41:11+00:00", "names": [], "score": 80.0,
            "load_start": 4.2, "load_end": 6.0, "cores": 2, "commit": "abc",
            "wall_seconds": 3600.0, "scenarios": 351,
        },
    ]  # fmt: skip
    text = md.render(summary, runs, _classification(tmp_path))
    # the full run first, then the check; 20 of 25 killed, 21 after the check
    assert text.index("a fresh full run") < text.index("bench/mutation.py check")
    assert "**score 80.0 %**" in text and "score **84.0 %** after it" in text
    assert "1 of its survivors killed afterwards" in text
    # 4 left alive: 2 equivalent (A), 1 open (H), 1 not yet examined (settle 35)
    assert "2 are explained as equivalent (classes below), 1 are gaps" in text
    assert "### Not yet examined (1)" in text and "`settle.settle` | 35" in text
    assert "| `pots.side_pots` | 2, 5 | the floor is beaten anyway |" in text


def test_the_survivors_table_counts_the_survivors_by_class(tmp_path: Path) -> None:
    """docs/verification.md's table: the survivors of the run by class, the open class marked
    as gaps, the unexamined ones counted, and the later check's kill left out; written between
    the page's markers, the text around them untouched."""
    summary = {"survivors": [{"mutant": name, "verdict": "survived"} for name in SURVIVORS]}
    runs = [{"kind": "checked", "killed_names": [SURVIVORS[2]], "started": "x"}]
    table = md.render_survivors(summary, runs, _classification(tmp_path))
    assert table.splitlines()[2:] == [
        "| A | Equivalent | 2 |",
        "| H | open: a gap, not equivalent | 1 |",
        "| — | not yet examined | 1 |",
        "| | **all left alive** | **4** |",
    ]
    page = tmp_path / "verification.md"
    page.write_text(f"before\n{md.SURVIVORS_START}\nold\n{md.SURVIVORS_END}\nafter\n")
    md.write_survivors(page, table)
    assert page.read_text() == f"before\n{md.SURVIVORS_START}\n{table}{md.SURVIVORS_END}\nafter\n"
    page.write_text("no markers\n")
    with pytest.raises(ValueError, match="markers"):
        md.write_survivors(page, table)


def test_the_committed_classification_reads() -> None:
    classification = md.load_classification(BENCH / "mutation_classes.toml")
    assert len(classification.entries) > 50
    assert set("ABCDEFG") <= set(classification.classes)
