"""Malformed inputs made from valid ones, for the fuzz tests (tests/test_fuzz_*.py).

A fuzz input starts as a valid document — an example job file, a built-in game file, one
scenario of the corpus with its file's defaults — read into plain data, and is mutated one
to three times: a value replaced by one of the wrong type, out of range, huge, a bad card
string or unicode; a key deleted or an unknown one added; a list element repeated (two
equal cards, an action twice) or dropped; a string edited a character at a time.  The
result is written back as TOML (so the inputs get past the TOML parser and reach the
validators), and a share of them is then damaged as text: truncated, a character inserted
or deleted, a line repeated.

Runs are bounded and derandomized: :data:`FUZZ` is a hypothesis profile with a fixed
number of examples, derandomized and without an example database (the inputs a test draws
may still differ with the tests run before it in the same process).
"""

from __future__ import annotations

import copy
import datetime
import json
import math
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parent.parent

# Fixed example counts, derandomized: the same inputs on every run and every machine.
FUZZ = settings(
    max_examples=100,
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=(HealthCheck.too_slow, HealthCheck.data_too_large),
)

# Inputs each fuzz test must feed; together they are the at least 10,000 the suite promises.
SHARES = {
    "job files": 3_300,
    "game files": 2_800,
    "scenario files": 2_400,
    "job specs over gRPC": 1_200,
    "game files over gRPC": 300,
}
assert sum(SHARES.values()) >= 10_000


@dataclass
class Fed:
    """How many inputs a fuzz test fed, how many of them were valid, and how many were
    refused naming a nested field ("game.players", "policies[1].caps[0].cap"): those got
    past the TOML parser and the top-level keys into the validation of their tables."""

    inputs: int = 0
    accepted: int = 0
    nested: int = 0

    def refused(self, field: str) -> None:
        self.nested += "." in field or "[" in field


Path_ = tuple[str | int, ...]


# -- a TOML writer: inline tables, so any document is one line a top-level key ----------

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_string(text: str) -> str:
    out = ['"']
    for char in text:
        code = ord(char)
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else toml_string(key)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Huge):
        return hex(2**value.bits - 1)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        items = (f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    raise TypeError(f"no TOML for {type(value).__name__}")


def dump_toml(document: dict[str, Any]) -> str:
    return "".join(f"{toml_key(k)} = {toml_value(v)}\n" for k, v in document.items())


# -- the valid documents mutated ---------------------------------------------------------


def load(path: Path) -> dict[str, Any]:
    with path.open("rb") as stream:
        return tomllib.load(stream)


def job_documents(trials: int = 500) -> list[dict[str, Any]]:
    """The example job files, each with a small trial count (a mutant still valid runs fast)."""
    documents = []
    for path in sorted((REPO / "examples").glob("*.toml")):
        data = load(path)
        for field in ("hands", "sessions", "trials", "deals"):
            if field in data:
                data[field] = trials
        documents.append(data)
    return documents


def game_documents() -> list[dict[str, Any]]:
    paths = sorted((REPO / "simulations" / "games").glob("*.toml"))
    return [load(path) for path in [*paths, *sorted((REPO / "examples/games").glob("*.toml"))]]


@dataclass(frozen=True)
class ScenarioDocument:
    """One scenario with its file's defaults, and the folder its file names paths from."""

    data: dict[str, Any]
    base: Path


def scenario_documents() -> list[ScenarioDocument]:
    documents = []
    paths = [*sorted((REPO / "tests/scenarios").glob("*.toml"))]
    paths += sorted((REPO / "examples/scenarios").glob("*.toml"))
    for path in paths:
        data = load(path)
        defaults = data.get("defaults")
        for scenario in data.get("scenario", []):
            one: dict[str, Any] = {} if defaults is None else {"defaults": defaults}
            one["scenario"] = [scenario]
            documents.append(ScenarioDocument(one, path.parent))
    return documents


# -- mutations ----------------------------------------------------------------------------

BAD_CARDS = (
    "As",
    "AsAs",
    "Xx",
    "1h",
    "10h",
    "ah",
    "A",
    "s",
    "AsK",
    "Ts9",
    "🂡",
    "Jk",
    "??",
    "As Ks",
    "AsKsQsJsTs9s8s7s6s5s4s3s2s",
    "AcAcAcAc",
    "2h2h",
)
BAD_WORDS = (
    "",
    " ",
    "none",
    "any",
    "NaN",
    "-1",
    "holdem ",
    "HOLDEM",
    "p0",
    "p99",
    "p-1",
    "cbr",
    "d dh",
    "d db",
    "sm",
    "\u0000",
    "\u202e",
    "ｆｕｌｌ",
    "Ω" * 3,
    "x" * 5000,
)
EDGE_INTEGERS = (
    0,
    -1,
    1,
    2,
    -(2**63),
    2**31,
    2**32,
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64,
    10**19,
    10**29,
    10**31,
)


@dataclass(frozen=True)
class Huge:
    """An integer too long for Python to print in decimal (hypothesis prints its examples):
    written as TOML hex, which tomllib reads back with no digit limit."""

    bits: int

    def __repr__(self) -> str:
        return f"Huge(2**{self.bits} - 1)"


EDGE_FLOATS = (-0.0, 0.5, 1.5, -1e-9, 1e308, -1e308, 5e-324, math.nan, math.inf, -math.inf)

# Hypothesis draws cheaply from a fixed pool; a recursive strategy of text and floats costs
# it tens of milliseconds an example, and the pool holds the values that matter: every
# wrong type TOML can write, the edges of every range, card strings and unicode.
_POOL: tuple[Any, ...] = (
    *EDGE_INTEGERS,
    Huge(200),
    Huge(20_000),
    *EDGE_FLOATS,
    True,
    False,
    *BAD_CARDS,
    *BAD_WORDS,
    datetime.date(2026, 2, 30 - 2),
    datetime.time(12, 0, 1, 5),
    datetime.datetime(1979, 5, 27, 7, 32),
    datetime.datetime(1979, 5, 27, 7, 32, tzinfo=datetime.UTC),
    [],
    {},
    [1, "a"],
    [[1, 2], [3]],
    [[[[[[[[[[1]]]]]]]]]],
    ["As", "As"],
    ["AsKs", "AsKs", "AsKs"],
    [{"x": 1}],
    {"": 0},
    {"x": {"y": {"z": []}}},
    list(range(60)),
    ["x"] * 200,
)
_keys = st.sampled_from(("x", "kind", "name", "", "é", "game", "seed", "a b", "\n", "K" * 60))
bad_values = st.sampled_from(_POOL).map(copy.deepcopy) | st.integers(
    min_value=-(2**70), max_value=2**70
)


def paths(value: Any, prefix: Path_ = ()) -> Iterator[Path_]:
    """Every node below the root, depth first."""
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, child in items:
        here = (*prefix, key)
        yield here
        yield from paths(child, here)


def _parent(document: Any, path: Path_) -> Any:
    node = document
    for step in path[:-1]:
        node = node[step]
    return node


@st.composite
def _edited_string(draw: st.DrawFn, text: str) -> str:
    how = draw(st.sampled_from(("double", "case", "drop", "insert", "reverse", "swap-card")))
    if how == "double":
        return text + text
    if how == "case":
        return text.swapcase()
    if how == "reverse":
        return text[::-1]
    if how == "swap-card":
        # Repeat one card of a card string (or a word of an action) in place of another.
        words = text.split()
        if words:
            i = draw(st.integers(0, len(words) - 1))
            j = draw(st.integers(0, len(words) - 1))
            words[i] = words[j][:2] * max(1, len(words[i]) // 2)
        return " ".join(words)
    at = draw(st.integers(0, len(text)))
    if how == "drop":
        return text[:at] + text[at + 1 :]
    return text[:at] + draw(st.sampled_from(list("AKQJT98765432shdcXx0 ,.-_é🂡"))) + text[at:]


@st.composite
def mutate_once(draw: st.DrawFn, document: dict[str, Any]) -> str:
    """Apply one mutation to ``document`` in place; returns what it did, for messages."""
    nodes = list(paths(document))
    if not nodes:
        document[draw(_keys)] = draw(bad_values)
        return "added a key to an empty document"
    # An index rather than sampled_from(nodes): a new strategy per draw costs more.
    path = nodes[draw(st.integers(0, len(nodes) - 1))]
    parent = _parent(document, path)
    key = path[-1]
    value = parent[key]
    ops = ["replace", "replace", "delete", "extra"]
    if isinstance(value, list):
        ops += ["repeat", "truncate"]
    if isinstance(value, str):
        ops += ["edit", "edit"]
    if isinstance(value, int | float) and not isinstance(value, bool):
        ops += ["edge", "edge"]
    op = ops[draw(st.integers(0, len(ops) - 1))]
    where = ".".join(str(step) for step in path)
    if op == "replace":
        parent[key] = draw(bad_values)
    elif op == "delete":
        del parent[key]
    elif op == "extra":
        target = value if isinstance(value, dict) else parent
        if isinstance(target, dict):
            target[draw(_keys)] = draw(bad_values)
        else:
            target.append(draw(bad_values))
    elif op == "repeat":
        if value:
            again = value[draw(st.integers(0, len(value) - 1))]
            value.extend(copy.deepcopy(again) for _ in range(draw(st.integers(1, 3))))
        else:
            value.append(draw(bad_values))
    elif op == "truncate":
        del value[draw(st.integers(0, len(value))) :]
    elif op == "edit":
        parent[key] = draw(_edited_string(value))
    else:  # edge
        if isinstance(value, int):
            parent[key] = draw(
                st.sampled_from(EDGE_INTEGERS) | st.sampled_from((value - 1, value + 1, -value))
            )
        else:
            parent[key] = draw(st.sampled_from(EDGE_FLOATS))
    return f"{op} {where}"


@dataclass(frozen=True)
class Mutant:
    """A mutated document's text, what was done to it, and whether the text was damaged
    after writing (then the TOML parser may be the one to refuse it)."""

    text: str
    steps: tuple[str, ...]
    damaged: bool
    source: int  # the index of the document it was made from


@st.composite
def _damaged(draw: st.DrawFn, text: str) -> str:
    how = draw(st.sampled_from(("truncate", "insert", "drop", "repeat-line")))
    at = draw(st.integers(0, max(0, len(text) - 1)))
    if how == "truncate":
        return text[:at]
    if how == "insert":
        return (
            text[:at] + draw(st.sampled_from([*list("[]{}=\"',.#\n\\"), "\ufeff", "é"])) + text[at:]
        )
    if how == "drop":
        return text[:at] + text[at + 1 :]
    lines = text.splitlines(keepends=True)
    if not lines:
        return text
    line = draw(st.integers(0, len(lines) - 1))
    return "".join([*lines[: line + 1], lines[line], *lines[line + 1 :]])


@st.composite
def mutants(draw: st.DrawFn, documents: list[dict[str, Any]]) -> Mutant:
    source = draw(st.integers(0, len(documents) - 1))
    document = copy.deepcopy(documents[source])
    steps = tuple(draw(mutate_once(document)) for _ in range(draw(st.integers(1, 3))))
    text = dump_toml(document)
    damaged = draw(st.integers(0, 3)) == 0
    if damaged:
        text = draw(_damaged(text))
    return Mutant(text, steps, damaged, source)


def one_line(message: str) -> bool:
    return bool(message.strip()) and "\n" not in message.strip() and "Traceback" not in message


def stored_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)
