"""A deep snapshot of an object's state, compiled or not, for tests that check nothing
changed: a compiled class (simulations/engine/compiled.py) keeps its attributes in slots,
with no ``__dict__`` and no support for ``copy.deepcopy``."""

from __future__ import annotations

import copy
import dataclasses
from enum import Enum
from typing import Any


def _attributes(value: object) -> tuple[str, ...] | None:
    """The attribute names of a compiled (mypyc) object, None for any other."""
    names: list[str] = []
    for cls in type(value).__mro__:
        names += cls.__dict__.get("__mypyc_attrs__", ())
    return tuple(dict.fromkeys(names)) or None


def state_of(value: Any) -> Any:
    """``value`` as plain nested data: dataclasses by their compared fields, the engine's
    other objects by their attributes (compiled or not), containers item by item."""
    if isinstance(value, Enum | type):
        return value
    if dataclasses.is_dataclass(value):
        fields = [f.name for f in dataclasses.fields(value) if f.compare]
        return (type(value).__name__, {n: state_of(getattr(value, n)) for n in fields})
    names = _attributes(value)
    if names is not None:
        return (type(value).__name__, {n: state_of(getattr(value, n)) for n in names})
    if isinstance(value, list | tuple):
        return type(value)(state_of(v) for v in value)
    if isinstance(value, dict):
        return {k: state_of(v) for k, v in value.items()}
    if hasattr(value, "__dict__") and type(value).__module__.startswith("simulations."):
        return (type(value).__name__, {k: state_of(v) for k, v in vars(value).items()})
    return copy.deepcopy(value)
