"""Reading a scenario file: its ``[defaults]`` and ``[[scenario]]`` tables, each scenario's
table with the defaults (and any PHH hand it starts from) merged under it.

Merging is deep: tables merge key by key, and any other value — a list, a number — is the
upper layer's.  The layers, lowest first: the file's defaults, the PHH hand named by
``phh``, the scenario's own keys.  Where an upper layer names the game (``game`` or
``game_file``) the lower layers' game keys give way (``variant`` too), and where it names
``deck`` or ``seed`` the lower layers' deck and seed give way, so that a scenario can
deal otherwise than its defaults without repeating them.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulations.phh.read import ReadFile
from simulations.spec import echo, type_name
from simulations.verify.fields import ScenarioError
from simulations.verify.phh_seed import phh_fields

MAX_SCENARIO_FILE_BYTES = 4 * 1024 * 1024
TOP_KEYS = ("defaults", "scenario")
_GAME_KEYS = ("game", "game_file", "variant")
_CARD_KEYS = ("deck", "seed")


class FileError(ValueError):
    """A file that cannot be read as scenarios at all (the message says why)."""


@dataclass(frozen=True)
class Entry:
    """One ``[[scenario]]`` table: its name (``scenario[i]`` when it has none), the rule
    paragraphs it covers, and either its merged table or why it could not be read."""

    index: int
    name: str
    covers: tuple[str, ...] = ()
    data: Mapping[str, Any] | None = None
    error: ScenarioError | None = None


def resolve(base: Path | None, name: str, key: str) -> Path:
    """A path a scenario names, relative to its file's folder."""
    if base is None:
        raise ScenarioError(
            key, f"names the file {echo(name)}, and a scenario sent as text names no files"
        )
    return base / name


def load_toml(path: Path) -> dict[str, Any]:
    """A TOML file's tables (:class:`FileError` if it cannot be read)."""
    try:
        with path.open("rb") as stream:
            raw = stream.read(MAX_SCENARIO_FILE_BYTES + 1)
    except OSError as error:
        raise FileError(f"cannot read: {error.strerror or error}") from None
    if len(raw) > MAX_SCENARIO_FILE_BYTES:
        raise FileError(f"larger than {MAX_SCENARIO_FILE_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise FileError("not UTF-8 text") from None
    return parse_toml(text)


def parse_toml(text: str) -> dict[str, Any]:
    """TOML text's tables (:class:`FileError` if it is not TOML)."""
    if len(text) > MAX_SCENARIO_FILE_BYTES:
        raise FileError(f"larger than {MAX_SCENARIO_FILE_BYTES:,} characters")
    try:
        return tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as error:
        raise FileError(f"not valid TOML: {error}") from None
    except (ValueError, RecursionError):
        raise FileError("not valid TOML: a number or nesting too large") from None


def deep_merge(lower: Mapping[str, Any], upper: Mapping[str, Any]) -> dict[str, Any]:
    """``upper`` over ``lower``: tables merge key by key, anything else ``upper`` replaces."""
    merged = dict(lower)
    for key, value in upper.items():
        below = merged.get(key)
        if isinstance(value, Mapping) and isinstance(below, Mapping):
            merged[key] = deep_merge(below, value)
        else:
            merged[key] = value
    return merged


def holds_scenarios(data: Mapping[str, Any]) -> bool:
    """Whether a TOML file's tables are a scenario file's (others, such as game files a
    scenario names, sit beside them)."""
    return "scenario" in data or "defaults" in data


def layer(lower: Mapping[str, Any], upper: Mapping[str, Any]) -> dict[str, Any]:
    """``upper`` merged over ``lower``, the lower game or card keys giving way (above)."""
    below = dict(lower)
    if any(key in upper for key in ("game", "game_file")):
        for key in _GAME_KEYS:
            below.pop(key, None)
    if any(key in upper for key in _CARD_KEYS):
        for key in _CARD_KEYS:
            below.pop(key, None)
    return deep_merge(below, upper)


def read_scenario_file(data: Mapping[str, Any], base: Path | None) -> tuple[Entry, ...]:
    """The scenarios of ``data`` (a scenario file's tables); :class:`FileError` when the file
    as a whole is wrong, each scenario's own problem kept in its entry.  ``base`` is the
    folder the file's paths (``phh``, ``game_file``) are relative to; None for a file that
    is not on disk (sent as text), whose scenarios may name no files."""
    for key in data:
        if key not in TOP_KEYS:
            raise FileError(
                f"{echo(key)}: unknown key (a scenario file holds [defaults] and [[scenario]])"
            )
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        raise FileError(f"defaults: must be a table, not {type_name(defaults)}")
    if "name" in defaults:
        raise FileError("defaults.name: each scenario names itself")
    tables = data.get("scenario")
    if not isinstance(tables, list) or not tables:
        raise FileError("no [[scenario]] tables")
    entries = []
    seen: dict[str, int] = {}
    histories: dict[Path, ReadFile] = {}  # PHH files read, by path
    for index, table in enumerate(tables):
        entries.append(_entry(base, index, table, defaults, seen, histories))
    return tuple(entries)


def _entry(
    base: Path | None,
    index: int,
    table: object,
    defaults: Mapping[str, Any],
    seen: dict[str, int],
    histories: dict[Path, ReadFile],
) -> Entry:
    fallback = f"scenario[{index}]"
    if not isinstance(table, dict):
        return Entry(index, fallback, error=ScenarioError(fallback, "must be a table"))
    name = table.get("name")
    if not isinstance(name, str) or not name.strip():
        problem = "is required" if name is None else f"must be a non-empty string, not {echo(name)}"
        return Entry(index, fallback, error=ScenarioError("name", problem))
    if name in seen:
        earlier = f"scenario[{seen[name]}]"
        return Entry(index, name, error=ScenarioError("name", f"{earlier} has this name too"))
    seen[name] = index
    merged = layer(defaults, table)
    covers = merged.get("covers", ())
    known = tuple(c for c in covers if isinstance(c, str)) if isinstance(covers, list) else ()
    try:
        return Entry(index, name, known, _with_phh(base, merged, defaults, table, histories))
    except ScenarioError as error:
        return Entry(index, name, known, error=error)


def _with_phh(
    base: Path | None,
    merged: Mapping[str, Any],
    defaults: Mapping[str, Any],
    own: Mapping[str, Any],
    histories: dict[Path, ReadFile],
) -> Mapping[str, Any]:
    """The layers again with the PHH hand between the defaults and the scenario's keys."""
    source = merged.get("phh")
    if source is None:
        return merged
    if not isinstance(source, str):
        raise ScenarioError("phh", f"must be a path, not {type_name(source)}")
    hand = merged.get("hand")
    if hand is not None and (isinstance(hand, bool) or not isinstance(hand, int)):
        raise ScenarioError("hand", f"must be a hand's number, not {type_name(hand)}")
    fields = phh_fields(resolve(base, source, "phh"), hand, histories)
    result = layer(layer(defaults, fields), own)
    result.pop("phh", None)
    result.pop("hand", None)
    return result
