"""Writing hands as PHH text: a ``.phh`` file of one hand, a ``.phhs`` file of several.

Each field goes on one line, ``key = value``, PHH's fields in the order the standard lists
them and the others after, as they were read (:meth:`PhhHand.fields`).  Strings are written
as literal strings where they can be (``'d dh p1 AsKs'``), else as basic strings with
escapes; a ``.phhs`` file numbers its hands ``[1]``, ``[2]``, ... unless they carry the
section they were read from.
"""

from __future__ import annotations

import datetime
import json
import math
import re
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from simulations.phh.model import PhhHand

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_LITERAL_OK = re.compile(r"[^'\x00-\x08\x0a-\x1f\x7f]*")


def toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else toml_value(key)


def toml_value(value: Any) -> str:
    """A TOML value as text (strings, numbers, booleans, dates and times, arrays, tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction):
        value = float(value) if value.denominator != 1 else value.numerator
        return toml_value(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        if _LITERAL_OK.fullmatch(value):
            return f"'{value}'"
        # JSON's escapes are TOML's but for DEL, which TOML wants escaped too.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{toml_key(str(k))} = {toml_value(v)}" for k, v in value.items())
        return "{" + inner + "}" if inner else "{}"
    raise TypeError(f"{value!r} has no TOML form")


def dumps(hand: PhhHand) -> str:
    """One hand as a ``.phh`` file's text."""
    return "".join(
        f"{toml_key(key)} = {toml_value(value)}\n" for key, value in hand.fields().items()
    )


def dumps_all(hands: Sequence[PhhHand]) -> str:
    """Several hands as a ``.phhs`` file's text: ``[1]``, ``[2]``, ... (or each hand's own
    section, when every hand has a distinct one)."""
    sections = [hand.section for hand in hands]
    keep = all(s is not None for s in sections) and len(set(sections)) == len(sections)
    parts = []
    for number, hand in enumerate(hands, start=1):
        section = hand.section if keep and hand.section is not None else str(number)
        parts.append(f"[{toml_key(section)}]\n{dumps(hand)}")
    return "\n".join(parts)


def dump(hand: PhhHand, path: str | Path) -> None:
    Path(path).write_text(dumps(hand), encoding="utf-8")


def dump_all(hands: Sequence[PhhHand], path: str | Path) -> None:
    Path(path).write_text(dumps_all(hands), encoding="utf-8")
