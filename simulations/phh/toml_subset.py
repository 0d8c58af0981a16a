"""TOML as PHH files write it, read quickly; anything else read by :mod:`tomllib`.

PHH writers put every field on one line: ``key = value`` with a string, a whole number, a
decimal, a boolean or a one-line array of those, and a ``.phhs`` file's hands under table
headers ``[1]``, ``[2]``, ...  :func:`loads` reads exactly that subset with a few regular
expressions and gives the very values :func:`tomllib.loads` would; the first line outside it
(a multi-line array, an escape in a string, a date, a dotted key, a repeated key, ...) hands
the whole text to :mod:`tomllib`, which reads the rest of TOML and reports its errors.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

# A string without escapes, a boolean, or a number TOML writes without underscores.
_SCALAR = (
    r"'(?P<literal>[^'\x00-\x08\x0a-\x1f\x7f]*)'"
    r'|"(?P<basic>[^"\\\x00-\x08\x0a-\x1f\x7f]*)"'
    r"|(?P<bool>true|false)"
    r"|(?P<number>[+-]?(?:0|[1-9][0-9]*)(?P<fraction>\.[0-9]+)?(?P<exponent>[eE][+-]?[0-9]+)?)"
)
_VALUE = re.compile(rf"(?:{_SCALAR})[ \t]*")
_LINE = re.compile(
    r"[ \t]*(?:(?P<key>[A-Za-z0-9_-]+)[ \t]*=[ \t]*|\[[ \t]*(?P<table>[A-Za-z0-9_-]+)[ \t]*\])"
)
_END = re.compile(r"[ \t]*(?:#[^\x00-\x08\x0a-\x1f\x7f]*)?")
_ARRAY_START = re.compile(r"\[[ \t]*")
# The arrays PHH is made of, read at once: the action lines, and whole numbers.
_STRINGS = re.compile(
    r"\[[ \t]*(?:'[^'\x00-\x08\x0a-\x1f\x7f]*'[ \t]*,[ \t]*)*"
    r"(?:'[^'\x00-\x08\x0a-\x1f\x7f]*'[ \t]*,?[ \t]*)?\][ \t]*"
)
_STRING_ITEM = re.compile(r"'([^']*)'")
_INTEGER = r"[+-]?(?:0|[1-9][0-9]*)"
_INTEGERS = re.compile(
    rf"\[[ \t]*(?:{_INTEGER}[ \t]*,[ \t]*)*(?:{_INTEGER}[ \t]*,?[ \t]*)?\][ \t]*"
)
_INTEGER_ITEM = re.compile(r"[+-]?[0-9]+")
_ARRAY_NEXT = re.compile(r",[ \t]*")
_BLANK = re.compile(r"[ \t]*(?:#[^\x00-\x08\x0a-\x1f\x7f]*)?")


class _Outside(Exception):
    """A line outside the subset: tomllib reads the text."""


def loads(text: str) -> dict[str, Any]:
    """The TOML document ``text`` as :func:`tomllib.loads` gives it (its errors too)."""
    try:
        return _plain(text)
    except _Outside:
        pass
    try:
        return _subset(text)
    except _Outside:
        return tomllib.loads(text)


# The plainest form, as pokerkit writes it: ``key = value`` lines without comments, table
# headers and blank lines; every line read by one expression, then its value by string
# operations (no escapes, no control characters anywhere).
_PLAIN_LINE = re.compile(r"^(?:([A-Za-z0-9_-]+) = (.*)|\[([A-Za-z0-9_-]+)\]|)$", re.MULTILINE)
_PLAIN_INTEGERS = re.compile(r"\[(?:0|[1-9][0-9]*)(?:, (?:0|[1-9][0-9]*))*\]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\\\"]")


def _integer(text: str) -> int:
    digits = text[1:] if text[:1] in "+-" else text
    if not (digits.isascii() and digits.isdigit()) or (digits[0] == "0" and len(digits) > 1):
        raise _Outside
    return int(text)


def _plain(text: str) -> dict[str, Any]:
    if _CONTROL.search(text) is not None:
        raise _Outside  # control characters, escapes or basic strings: read with care
    lines = _PLAIN_LINE.findall(text)
    if len(lines) != text.count("\n") + 1:
        raise _Outside  # some line is not of the plainest form
    document: dict[str, Any] = {}
    table = document
    for key, value, name in lines:
        if name:
            if name in document:
                raise _Outside
            table = document[name] = {}
            continue
        if not key:
            continue
        if key in table:
            raise _Outside
        first = value[:1]
        if first == "'":
            inner = value[1:-1]
            if len(value) < 2 or value[-1] != "'" or "'" in inner:
                raise _Outside
            table[key] = inner
        elif first == "[":
            if value == "[]":
                table[key] = []
            elif value.startswith("['") and value.endswith("']"):
                inner = value[2:-2]
                if "'" in inner.replace("', '", ""):
                    raise _Outside
                table[key] = inner.split("', '")
            elif _PLAIN_INTEGERS.fullmatch(value) is not None:
                table[key] = list(map(int, value[1:-1].split(", ")))
            else:
                table[key] = _whole_value(value)
        elif value == "true" or value == "false":
            table[key] = value == "true"
        elif "." in value or "e" in value or "E" in value:
            table[key] = _whole_value(value)
        else:
            table[key] = _integer(value)
    return document


def _whole_value(text: str) -> Any:
    value, end = _value(text, 0)
    if end != len(text):
        raise _Outside
    return value


def _scalar(match: re.Match[str]) -> Any:
    groups = match.groupdict()
    if groups["literal"] is not None:
        return groups["literal"]
    if groups["basic"] is not None:
        return groups["basic"]
    if groups["bool"] is not None:
        return groups["bool"] == "true"
    number = groups["number"]
    if groups["fraction"] is not None or groups["exponent"] is not None:
        return float(number)
    return int(number)


def _value(line: str, at: int) -> tuple[Any, int]:
    """The value starting at ``at`` and where it ends (trailing blanks included)."""
    match = _VALUE.match(line, at)
    if match is not None:
        return _scalar(match), match.end()
    whole = _STRINGS.match(line, at)
    if whole is not None:
        return _STRING_ITEM.findall(line, at, whole.end()), whole.end()
    whole = _INTEGERS.match(line, at)
    if whole is not None:
        return [int(item) for item in _INTEGER_ITEM.findall(line, at, whole.end())], whole.end()
    start = _ARRAY_START.match(line, at)
    if start is None:
        raise _Outside
    items: list[Any] = []
    at = start.end()
    while not line.startswith("]", at):
        match = _VALUE.match(line, at)
        if match is None:
            raise _Outside
        items.append(_scalar(match))
        at = match.end()
        comma = _ARRAY_NEXT.match(line, at)
        if comma is None:
            if not line.startswith("]", at):
                raise _Outside
            break
        at = comma.end()
    at += 1
    while at < len(line) and line[at] in " \t":
        at += 1
    return items, at


def _subset(text: str) -> dict[str, Any]:
    document: dict[str, Any] = {}
    table = document
    for raw in text.split("\n"):
        line = raw[:-1] if raw.endswith("\r") else raw
        match = _LINE.match(line)
        if match is None:
            if _BLANK.fullmatch(line) is None:
                raise _Outside
            continue
        name = match.group("table")
        if name is not None:
            if name in document or _END.fullmatch(line, match.end()) is None:
                raise _Outside  # a repeated table, or more after the header
            table = document[name] = {}
            continue
        key = match.group("key")
        value, end = _value(line, match.end())
        if key in table or _END.fullmatch(line, end) is None:
            raise _Outside
        table[key] = value
    return document
