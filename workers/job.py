"""A simulation job: a model, how many trials, the seed, and the shard size.

Tallies travel as JSON (each finished shard's tally and a job's merged tally are stored),
written and read by one generic codec, :func:`tally_to_dict` and :func:`tally_from_dict`:
it walks a tally's dataclass fields by their type hints, so a model needs no code of its
own to store its tally.  A field may be an ``int``, ``float``, ``bool`` or ``str``, a tuple
of them (``tuple[int, ...]``, or fixed like ``tuple[int, int]``), a nested frozen dataclass
(such as :class:`simulations.models.tally.Counts`), a tuple of nested dataclasses, or any of
these or ``None`` (``X | None``).
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

import numpy as np

from simulations.models import Model, Tally
from workers.plan import ShardPlan, shard_rng
from workers.precision import precision_report

DEFAULT_SHARD_SIZE = 1_000_000
MIN_PRIORITY, MAX_PRIORITY = -1000, 1000
T = TypeVar("T")


@dataclass(frozen=True)
class Job:
    """A model run for ``trials`` trials from ``seed`` in shards of ``shard_size``.

    ``precision``: stop once the model's main estimate has a 95 % half-width within this
    fraction of its value (0.01: within 1 %), decided on prefixes of the shards in index
    order (:mod:`workers.precision`); ``trials`` is then the most the job runs.  None: run
    every trial.  ``priority``: the job's place among its namespace's jobs, higher first;
    it never changes the result.
    """

    model: Model
    trials: int
    seed: int
    shard_size: int = DEFAULT_SHARD_SIZE
    precision: float | None = None
    priority: int = 0

    def __post_init__(self) -> None:
        # The job file names the key in its own message; this guards jobs built in code.
        if self.precision is not None and not 0.0 < self.precision < 1.0:
            raise ValueError(f"precision must lie strictly between 0 and 1, got {self.precision}")
        if not MIN_PRIORITY <= self.priority <= MAX_PRIORITY:
            raise ValueError(
                f"priority must lie in {MIN_PRIORITY}..{MAX_PRIORITY}, got {self.priority}"
            )

    @property
    def kind(self) -> str:
        return self.model.kind

    @property
    def plan(self) -> ShardPlan:
        return ShardPlan(self.trials, self.shard_size)

    def run_shard(self, index: int) -> Tally:
        """Simulate shard ``index``; the same index always gives the same tally."""
        shard = self.plan.shard(index)
        tally: Tally = self.model.simulate(shard.trials, shard_rng(self.seed, index))
        return tally

    def report(self, tally: Tally) -> dict[str, Any]:
        """The result as flat JSON-ready fields: kind first, seed last; a job with a
        precision target has a ``precision`` entry before the seed
        (:func:`workers.precision.precision_report`)."""
        report = {"kind": self.kind, **self.model.report(tally)}
        if self.precision is not None:
            report["precision"] = precision_report(self.precision, tally.trials, self.trials)
        report["seed"] = self.seed
        return report

    def tally_from_dict(self, data: Mapping[str, Any]) -> Tally:
        """Rebuild a stored tally of this job's model (see :func:`tally_from_dict`)."""
        tally: Tally = tally_from_dict(type(self.model.empty_tally()), data)
        return tally

    @staticmethod
    def tally_to_dict(tally: Tally) -> dict[str, Any]:
        return tally_to_dict(tally)


class TallyCodecError(ValueError):
    """A tally that cannot be stored, or stored data that is not a tally of this type."""


def tally_to_dict(tally: object) -> dict[str, Any]:
    """A tally (a dataclass instance) as JSON-ready data: nested dataclasses become
    objects, tuples lists; numpy integers and floats become Python's."""
    cls = type(tally)
    if not dataclasses.is_dataclass(cls):
        raise TallyCodecError(f"a tally must be a dataclass, got {cls.__name__}")
    data: dict[str, Any] = _encode(cls, tally, cls.__name__)
    return data


def tally_from_dict(cls: type[T], data: Mapping[str, Any]) -> T:
    """The tally of type ``cls`` that :func:`tally_to_dict` wrote as ``data``.

    A field missing from ``data`` takes its default (a field added to a tally after the data
    was stored); an unknown key, a missing field without a default or a value of the wrong
    type raises :class:`TallyCodecError` naming the field.
    """
    if not dataclasses.is_dataclass(cls):
        raise TallyCodecError(f"a tally must be a dataclass, got {cls.__name__}")
    tally: T = _decode(cls, data, cls.__name__)
    return tally


@functools.cache
def _field_hints(cls: type) -> tuple[tuple[str, Any, bool], ...]:
    """(name, resolved type hint, has a default) for each init field of a dataclass."""
    hints = typing.get_type_hints(cls)
    return tuple(
        (
            field.name,
            hints[field.name],
            field.default is not dataclasses.MISSING
            or field.default_factory is not dataclasses.MISSING,
        )
        for field in dataclasses.fields(cls)
        if field.init
    )


def _optional_of(hint: Any) -> Any | None:
    """``X`` for a hint ``X | None`` (or ``Optional[X]``), else None."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(hint)) == 2:
            return args[0]
    return None


def _tuple_items(hint: Any, length: int, path: str) -> list[Any]:
    """The hint of each item of a tuple of ``length`` items typed ``hint``."""
    args = typing.get_args(hint)
    if len(args) == 2 and args[1] is Ellipsis:
        return [args[0]] * length
    if args == ((),):  # tuple[()]
        args = ()
    if len(args) != length:
        raise TallyCodecError(f"{path}: must hold {len(args)} items, got {length}")
    return list(args)


def _encode(hint: Any, value: Any, path: str) -> Any:
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, hint):
            raise TallyCodecError(f"{path}: must be a {hint.__name__}, got {type(value).__name__}")
        return {
            name: _encode(field_hint, getattr(value, name), f"{path}.{name}")
            for name, field_hint, _ in _field_hints(hint)
        }
    inner = _optional_of(hint)
    if inner is not None:
        return None if value is None else _encode(inner, value, path)
    if typing.get_origin(hint) is tuple:
        if not isinstance(value, tuple):
            raise TallyCodecError(f"{path}: must be a tuple, got {type(value).__name__}")
        items = _tuple_items(hint, len(value), path)
        return [
            _encode(h, v, f"{path}[{i}]") for i, (h, v) in enumerate(zip(items, value, strict=True))
        ]
    if hint is int and isinstance(value, int | np.integer) and not isinstance(value, bool):
        return int(value)  # a numpy integer too
    numeric = int | float | np.integer | np.floating
    if hint is float and isinstance(value, numeric) and not isinstance(value, bool):
        return float(value)
    if hint is bool and isinstance(value, bool | np.bool_):
        return bool(value)
    if hint is str and isinstance(value, str):
        return value
    return _wrong(hint, value, path)


def _decode(hint: Any, data: Any, path: str) -> Any:
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(data, Mapping):
            raise TallyCodecError(f"{path}: must be an object, got {type(data).__name__}")
        fields = _field_hints(hint)
        known = {name for name, _, _ in fields}
        for key in data:
            if key not in known:
                raise TallyCodecError(f"{path}.{key}: is not a field of {hint.__name__}")
        values: dict[str, Any] = {}
        for name, field_hint, has_default in fields:
            if name in data:
                values[name] = _decode(field_hint, data[name], f"{path}.{name}")
            elif not has_default:
                raise TallyCodecError(f"{path}.{name}: is missing")
        try:
            return hint(**values)
        except (TypeError, ValueError) as err:  # the dataclass's own checks
            raise TallyCodecError(f"{path}: {err}") from None
    inner = _optional_of(hint)
    if inner is not None:
        return None if data is None else _decode(inner, data, path)
    if typing.get_origin(hint) is tuple:
        if not isinstance(data, list | tuple):
            raise TallyCodecError(f"{path}: must be a list, got {type(data).__name__}")
        items = _tuple_items(hint, len(data), path)
        return tuple(
            _decode(h, v, f"{path}[{i}]") for i, (h, v) in enumerate(zip(items, data, strict=True))
        )
    if hint is int and isinstance(data, int) and not isinstance(data, bool):
        return data
    if hint is float and isinstance(data, int | float) and not isinstance(data, bool):
        return float(data)
    if hint in (bool, str) and isinstance(data, hint):
        return data
    return _wrong(hint, data, path)


def _wrong(hint: Any, value: Any, path: str) -> NoReturn:
    if hint in (int, float, bool, str):
        raise TallyCodecError(f"{path}: must be {hint.__name__}, got {type(value).__name__}")
    raise TallyCodecError(f"{path}: a tally field cannot be a {hint!r}")
