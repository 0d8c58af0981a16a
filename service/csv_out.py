"""``--csv``: a result, or jobs, as comma-separated values for a spreadsheet or a script.

A result is one header row and one row.  Its columns are fixed by the job's kind, not by
what one run happened to produce: ``kind``; then every plain field (a number, a word, a
flag) of the kind's result message (``JobResult.<kind>`` in
``proto/cardroom/v1/job_service.proto``), in the message's order, with the fields of a
nested message (a distribution, the table, the policy) named by their path
(``hands_between_hits.mean``, ``policy.jackpot_mean``); then ``seed``.  Lists (the
qualifiers, the rake policies, histograms and quantiles) have no place in one row and
are left to ``--json``.  An absent value is an empty cell; a flag is ``true`` or
``false``; a number is written in full (Python's shortest exact form).

Jobs (``status``, ``list``) are a header row and a row per job, with the columns of
:data:`service.client.SUMMARY_COLUMNS`.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO, cast

if TYPE_CHECKING:
    from google.protobuf.descriptor import Descriptor


def _paths(message: Descriptor, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The plain fields of ``message`` and of its nested messages, as key paths."""
    found: list[tuple[str, ...]] = []
    for field in message.fields:
        if field.is_repeated:
            continue
        path = (*prefix, field.name)
        if field.message_type is not None:
            found.extend(_paths(field.message_type, path))
        else:
            found.append(path)
    return found


def result_columns(kind: str) -> list[tuple[str, ...]]:
    """A kind's result columns as key paths: ``kind``, the result message's plain fields,
    ``seed`` (see the module's text); only ``kind`` and ``seed`` for a kind without a
    result message."""
    from service.api.cardroom.v1 import job_service_pb2 as pb

    field = pb.JobResult.DESCRIPTOR.fields_by_name.get(kind)
    message = cast("Descriptor | None", field.message_type if field is not None else None)
    inner = _paths(message) if message is not None else []
    return [("kind",), *inner, ("seed",)]


def cell(value: Any) -> str:
    """A value as a CSV cell: empty for None, ``true``/``false``, numbers in full."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _lookup(report: Mapping[str, Any], path: Sequence[str]) -> Any:
    value: Any = report
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return None if isinstance(value, Mapping | list) else value


def write_report(report: Mapping[str, Any], out: TextIO) -> None:
    """A flat report (``run --json``'s) as a header row and one row."""
    columns = result_columns(str(report.get("kind")))
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(".".join(path) for path in columns)
    writer.writerow(cell(_lookup(report, path)) for path in columns)
    out.flush()


def write_rows(columns: Sequence[str], rows: Iterable[Mapping[str, Any]], out: TextIO) -> None:
    """A header row of ``columns``, then each row's values under them."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(cell(row.get(column)) for column in columns)
    out.flush()
