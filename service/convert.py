"""Between the API's messages and the job mappings that the validators read.

A job is stored as its canonical mapping — the same shape as a TOML job file, with the
seed and shard size filled in — so one validator serves files, the CLI and the API.

Nothing here knows a kind; the conversions follow the conventions of :mod:`service.kinds`:

* ``JobSpec.trials`` is the job file's trial count, under the kind's ``trials_field``;
  ``seed``, ``shard_size``, ``precision`` and ``priority`` are the same keys (the last two
  only where the message has them); ``JobSpec.<kind>`` holds the rest, its
  field names the job file's keys (nested tables as nested messages).  A field left unset
  is left out of the mapping, so the job file's default applies.
* ``JobResult.<kind>`` is the report of :meth:`workers.job.Job.report` without ``kind`` and
  ``seed``: its field names are the report's keys, in order; an absent optional field is
  None, a repeated field a list, a nested message a dict.  A job with a precision target
  has one more entry, ``precision`` (:func:`workers.precision.precision_report`), which no
  result message holds: every figure of it is read back from the job's spec and its
  result, so :func:`result_to_report` rebuilds it when given the spec.

Both go through ``google.protobuf.json_format``; its JSON forms that are not the Python
values the validators and reports use — 64-bit integers written as strings, non-finite
floats as ``"NaN"`` and ``"Infinity"`` — are converted by the field descriptors.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, cast

from google.protobuf import json_format, timestamp_pb2, unknown_fields
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.kinds import KINDS, JobKind
from simulations.spec import SpecError
from workers.precision import precision_report

Kinds = Mapping[str, JobKind]

# The JobSpec fields every kind shares, under the same names in a job file.
ENVELOPE = ("kind", "seed", "shard_size", "precision", "priority")
# Report entries that are the job's, not the kind's: no result message holds them.
JOB_ENTRIES = ("kind", "precision", "seed")
_INT64 = frozenset({FieldDescriptor.CPPTYPE_INT64, FieldDescriptor.CPPTYPE_UINT64})
_FLOATS = frozenset({FieldDescriptor.CPPTYPE_DOUBLE, FieldDescriptor.CPPTYPE_FLOAT})
_NON_FINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


class ConversionError(ValueError):
    """A mapping or report that the API's messages cannot hold (a stored job of a kind no
    longer registered, say, or a model and its messages that disagree)."""


def api_field(field: str, kind: str | None, kinds: Kinds = KINDS) -> str:
    """The JobSpec path of a job-file field, for an error over the API.

    ``hands`` (the kind's trials field) -> ``spec.trials``; ``seed`` -> ``spec.seed``;
    ``table.players`` -> ``spec.bad_beat.table.players``.
    """
    entry = kinds.get(kind) if kind is not None else None
    if entry is not None and field == entry.trials_field:
        return "spec.trials"
    head = re.split(r"[.\[]", field, maxsplit=1)[0]
    if kind is None or head in ENVELOPE or field == kind:
        return f"spec.{field}"
    return f"spec.{kind}.{field}"


# -- job specifications -----------------------------------------------------------------


def spec_to_mapping(spec: pb.JobSpec, kinds: Kinds = KINDS) -> dict[str, Any]:
    """A JobSpec as a job mapping; unset optional fields are left out (defaults apply)."""
    kind = spec.WhichOneof("kind")
    if kind is None:
        return {}  # the validator reports the missing kind
    entry = kinds.get(kind)
    mapping: dict[str, Any] = {"kind": kind}
    # A kind the server does not offer has no trials field: the validator refuses the kind.
    mapping[entry.trials_field if entry is not None else "trials"] = spec.trials
    if spec.HasField("seed"):
        mapping["seed"] = spec.seed
    if spec.shard_size:
        mapping["shard_size"] = spec.shard_size
    for key in ("precision", "priority"):
        if _has(spec, key):
            mapping[key] = getattr(spec, key)
    settings = getattr(spec, kind)
    _refuse_unknown_fields(settings, kind)
    mapping.update(message_to_mapping(settings))
    return mapping


# Field 1 of every kind's message was the game as a message (its variant or code and its
# seats); the number is reserved, and an older client that still sets it is told the new
# form instead of having its game silently replaced by the default.
_OLD_GAME_FIELD = 1


def _refuse_unknown_fields(settings: Message, kind: str) -> None:
    """A SpecError for a field of the kind's message that this version does not read (a
    field an older or newer API sets): the job would otherwise run without it."""
    unread = unknown_fields.UnknownFieldSet(settings)
    for index in range(len(unread)):
        number = int(unread[index].field_number)
        if number == _OLD_GAME_FIELD:
            raise SpecError(
                "game",
                "the game message (field 1) is no longer read: set game to the game's code "
                "(`cardroom games` lists them) and its seats and the rest in table",
            )
        raise SpecError(kind, f"field {number} is not one this version reads")


def _has(message: Message, field: str) -> bool:
    """An optional field that the message has and is set (another API's JobSpec, in
    tests, may have no such field)."""
    return field in _descriptor(message).fields_by_name and message.HasField(field)


def mapping_to_spec(
    mapping: Mapping[str, Any], kinds: Kinds = KINDS, spec: pb.JobSpec | None = None
) -> pb.JobSpec:
    """A validated job mapping as a JobSpec (the inverse of :func:`spec_to_mapping`).

    ``spec``, if given, is the (empty) message to fill in: another API's JobSpec, in tests.
    """
    kind = mapping.get("kind")
    entry = kinds.get(kind) if isinstance(kind, str) else None
    if entry is None or not isinstance(kind, str):
        raise ConversionError(f"kind: {kind!r} is not a kind this version offers")
    out = pb.JobSpec() if spec is None else spec
    if entry.trials_field not in mapping:
        raise ConversionError(f"{entry.trials_field}: is missing")
    settings = {
        key: value
        for key, value in mapping.items()
        if key not in ENVELOPE and key != entry.trials_field
    }
    try:
        out.trials = mapping[entry.trials_field]
        if mapping.get("seed") is not None:
            out.seed = mapping["seed"]
        out.shard_size = mapping.get("shard_size", 0)
        for key in ("precision", "priority"):
            if mapping.get(key) is not None:
                setattr(out, key, mapping[key])
        target = getattr(out, kind)
    except (TypeError, ValueError, AttributeError) as err:
        raise ConversionError(f"cannot express the job as a JobSpec: {err}") from None
    target.SetInParent()
    mapping_to_message(settings, target)
    return out


# -- results ----------------------------------------------------------------------------


def report_to_result(
    kind: str, report: Mapping[str, Any], result: pb.JobResult | None = None
) -> pb.JobResult:
    """A result report (``Job.report``) as a JobResult message."""
    out = pb.JobResult() if result is None else result
    if kind not in out.DESCRIPTOR.fields_by_name:
        raise ConversionError(f"kind: {kind!r} has no result message")
    target = getattr(out, kind)
    target.SetInParent()
    mapping_to_message({k: v for k, v in report.items() if k not in JOB_ENTRIES}, target)
    return out


def result_to_report(
    result: pb.JobResult,
    seed: int,
    *,
    spec: pb.JobSpec | None = None,
    kinds: Kinds = KINDS,
) -> dict[str, Any]:
    """A JobResult as the flat report that ``cardroom run --json`` prints, in the same order:
    kind, the result message's fields in their order (None for an absent optional one), seed.

    Given the job's ``spec``, a job with a precision target gets its ``precision`` entry
    before the seed, as :meth:`workers.job.Job.report` writes it: the target and the trial
    count from the spec, the trials run from the result's trial count."""
    kind = result.WhichOneof("kind")
    if kind is None:
        return {"kind": kind, "seed": seed}
    report = {"kind": kind, **message_to_mapping(getattr(result, kind), every_field=True)}
    entry = kinds.get(kind)
    if spec is not None and entry is not None and _has(spec, "precision"):
        trials = report.get(entry.trials_field)
        if isinstance(trials, int):
            report["precision"] = precision_report(spec.precision, trials, spec.trials)
    report["seed"] = seed
    return report


# -- any message ------------------------------------------------------------------------


def message_to_mapping(message: Message, *, every_field: bool = False) -> dict[str, Any]:
    """A message as plain Python data keyed by field name, in field order.

    By default only the fields that are set: an unset optional field, a scalar at its
    default and an empty nested message are left out (a job mapping: defaults apply).
    ``every_field``: every field, None for an unset optional field or message (a report).
    """
    raw = json_format.MessageToDict(
        message,
        preserving_proto_field_name=True,
        always_print_fields_with_no_presence=every_field,
    )
    return _from_json(_descriptor(message), raw, every_field)


def mapping_to_message(data: Mapping[str, Any], message: Message) -> None:
    """Set ``message``'s fields from ``data`` (keys are field names; None leaves a field
    unset); ``ConversionError`` names a key the message has no field for, or a bad value."""
    try:
        json_format.ParseDict(_to_json(_descriptor(message), data), message)
    except (json_format.ParseError, TypeError, ValueError, AttributeError) as err:
        raise ConversionError(str(err)) from None


def _from_json(descriptor: Descriptor, raw: Mapping[str, Any], every_field: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for field in descriptor.fields:
        if field.name not in raw:
            if every_field:
                out[field.name] = None  # only fields with presence are ever missing here
            continue
        value = _field_from_json(field, raw[field.name], every_field)
        if not every_field and value == {} and field.message_type is not None:
            continue  # an empty nested message: an empty table, which is no table
        out[field.name] = value
    return out


def _field_from_json(field: FieldDescriptor, value: Any, every_field: bool) -> Any:
    if _is_map(field):
        value_field = _message_type(field).fields_by_name["value"]
        return {k: _value_from_json(value_field, v, every_field) for k, v in value.items()}
    if field.is_repeated:
        return [_value_from_json(field, item, every_field) for item in value]
    return _value_from_json(field, value, every_field)


def _value_from_json(field: FieldDescriptor, value: Any, every_field: bool) -> Any:
    if field.cpp_type == FieldDescriptor.CPPTYPE_MESSAGE:
        return _from_json(_message_type(field), value, every_field)
    if field.cpp_type in _INT64:
        return int(value)
    if field.cpp_type in _FLOATS and isinstance(value, str):
        return _NON_FINITE[value]
    return value


def _to_json(descriptor: Descriptor, data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` as ParseDict takes it: None values dropped, non-finite floats as strings."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if value is None:
            continue
        field = descriptor.fields_by_name.get(key)
        out[key] = value if field is None else _field_to_json(field, value)
    return out


def _field_to_json(field: FieldDescriptor, value: Any) -> Any:
    if _is_map(field) and isinstance(value, Mapping):
        value_field = _message_type(field).fields_by_name["value"]
        return {k: _value_to_json(value_field, v) for k, v in value.items()}
    if field.is_repeated and isinstance(value, list | tuple):
        return [_value_to_json(field, item) for item in value]
    if field.is_repeated and field.message_type is None and not isinstance(value, Mapping):
        # A job-file key that takes a value or a list of them (`players = 8` or `[2, 8]`):
        # the value crosses as a list of one, which the kind reads as the value.
        return [_value_to_json(field, value)]
    return _value_to_json(field, value)


def _value_to_json(field: FieldDescriptor, value: Any) -> Any:
    if field.cpp_type == FieldDescriptor.CPPTYPE_MESSAGE and isinstance(value, Mapping):
        return _to_json(_message_type(field), value)
    if field.cpp_type in _FLOATS and isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return value


def _descriptor(message: Message) -> Descriptor:
    return cast(Descriptor, message.DESCRIPTOR)  # the stubs also allow upb's own class


def _message_type(field: FieldDescriptor) -> Descriptor:
    message = field.message_type
    if message is None:  # pragma: no cover - only message fields are asked
        raise ConversionError(f"{field.name}: is not a message field")
    return message


def _is_map(field: FieldDescriptor) -> bool:
    message = field.message_type
    return message is not None and bool(message.GetOptions().map_entry)


def timestamp(seconds: float) -> timestamp_pb2.Timestamp:
    stamp = timestamp_pb2.Timestamp()
    stamp.FromNanoseconds(int(seconds * 1e9))
    return stamp
