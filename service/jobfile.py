"""Job files: TOML or JSON in, a validated :class:`~workers.job.Job` out.

Every key is read through :class:`simulations.spec.Fields`; a mistake raises
:class:`JobFileError` with one line naming the file and the field.

A job file is a few lines of settings, so anything far outside that shape — a file over
:data:`MAX_JOB_FILE_BYTES`, tables or arrays nested more than :data:`MAX_NESTING` deep, a
number of more than :data:`MAX_NUMBER_DIGITS` digits, a key given twice — is refused with
a message, before the parsers can recurse, run quadratic or fail without naming the field.
"""

from __future__ import annotations

import json
import re
import secrets
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from service.kinds import KINDS, JobKind
from simulations.spec import Fields, SpecError, digit_count, number, shown_key
from workers.job import DEFAULT_SHARD_SIZE, MAX_PRIORITY, MIN_PRIORITY, Job
from workers.plan import MAX_SHARDS

MAX_TRIALS = 10**13
MAX_SEED = 2**63 - 1
MAX_JOB_FILE_BYTES = 1 << 20
# Deeper than any job needs (a job is three levels), shallow enough that no parser recursion
# and no walk over the result comes near Python's recursion limit.
MAX_NESTING = 32
# Every numeric setting fits in 19 digits (MAX_SEED); a longer number is a mistake, and past
# sys.get_int_max_str_digits() Python cannot even convert it.
MAX_NUMBER_DIGITS = 30

_BOM = "\ufeff"


class JobFileError(ValueError):
    """A job file that cannot be read or is not a valid job."""


def job_from_mapping(
    data: Mapping[str, Any],
    *,
    max_trials: int = MAX_TRIALS,
    kinds: Mapping[str, JobKind] = KINDS,
) -> Job:
    """Validate a parsed job specification; raises ``SpecError`` naming the field.

    ``max_trials`` is a server's own bound on the trials field, below :data:`MAX_TRIALS`.
    ``kinds`` are the kinds offered (:data:`service.kinds.KINDS`); the kind's model reads
    its own settings.
    """
    if max_trials < 1:
        raise ValueError(f"max_trials must be positive, got {max_trials:,}")
    fields = Fields(data)
    kind = fields.string("kind", choices=tuple(kinds))
    reader = kinds[kind].model
    trials = _trials(fields, reader.trials_field, max_trials)
    seed = fields.optional_integer("seed", low=0, high=MAX_SEED)
    shard_size_given = fields.has("shard_size")
    # Without a shard size, the default grows with the job so that any job up to MAX_TRIALS
    # fits in MAX_SHARDS shards; only a size the user chose can be too small.
    default_shard_size = max(DEFAULT_SHARD_SIZE, -(-trials // MAX_SHARDS))
    shard_size = fields.integer("shard_size", default_shard_size, low=1, high=MAX_TRIALS)
    if shard_size_given and -(-trials // shard_size) > MAX_SHARDS:
        raise SpecError(
            "shard_size", f"too small: {trials:,} trials would need more than {MAX_SHARDS:,} shards"
        )
    precision = _precision(fields)
    priority = fields.integer("priority", 0, low=MIN_PRIORITY, high=MAX_PRIORITY)
    try:
        model = reader.from_fields(fields)
    except SpecError:
        raise
    except ValueError as err:  # a model's own consistency check
        raise SpecError(kind, str(err)) from None
    fields.finish()
    if precision is not None and not callable(getattr(model, "precise_enough", None)):
        raise SpecError("precision", f"a {kind} job names no main estimate to stop on")
    # No seed given: draw one, and report it so that the run can be repeated.
    return Job(
        model,
        trials,
        secrets.randbits(63) if seed is None else seed,
        shard_size,
        precision=precision,
        priority=priority,
    )


def _precision(fields: Fields) -> float | None:
    """``precision``: the main estimate's 95 % half-width as a fraction of it, 0 < p < 1."""
    precision = fields.optional_number("precision")  # refuses a string, a boolean and NaN
    if precision is not None and not 0.0 < precision < 1.0:
        raise SpecError(
            "precision",
            f"must lie strictly between 0 and 1 (0.01: within 1 % of the estimate), "
            f"got {precision:g}",
        )
    return precision


def _trials(fields: Fields, field: str, max_trials: int) -> int:
    if max_trials >= MAX_TRIALS:
        return fields.integer(field, low=1, high=MAX_TRIALS)
    # A server's bound below MAX_TRIALS is the one that applies, so the message names it.
    trials = fields.integer(field, low=1)
    if trials > max_trials:
        raise SpecError(
            field, f"must be at most {max_trials:,} on this server, got {number(trials)}"
        )
    return trials


def parse_job_text(text: str, fmt: str, source: str = "job") -> Job:
    """Parse ``text`` as ``fmt`` ('toml' or 'json') and validate it."""
    data = parse_job_mapping(text, fmt, source)
    try:
        return job_from_mapping(data)
    except SpecError as err:
        raise JobFileError(f"{source}: {err}") from None


def parse_job_mapping(text: str, fmt: str, source: str = "job") -> dict[str, Any]:
    """Parse ``text`` as ``fmt`` ('toml' or 'json') into a mapping, not yet validated.

    The mapping holds only dicts, lists and scalars, at most :data:`MAX_NESTING` deep, with
    no integer of more than :data:`MAX_NUMBER_DIGITS` digits.
    """
    # len(text) counts characters, each at least one byte: the cheap test first.
    if len(text) > MAX_JOB_FILE_BYTES or len(text.encode("utf-8")) > MAX_JOB_FILE_BYTES:
        raise JobFileError(_too_big(source))
    # Editors on Windows may start a UTF-8 file with a byte-order mark; neither parser wants it.
    text = text.removeprefix(_BOM)
    _check_nesting(text, fmt, source)
    try:
        data = _parse_json(text, source) if fmt == "json" else _parse_toml(text, source)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as err:
        raise JobFileError(f"{source}: not valid {fmt.upper()}: {err}") from None
    except RecursionError:
        # Only if the nesting scan above misjudged the text: same message, no traceback.
        raise JobFileError(f"{source}: nested too deeply") from None
    if not isinstance(data, dict):
        raise JobFileError(f"{source}: a job must be a table of settings")
    return data


def read_job_mapping(path: str | Path) -> dict[str, Any]:
    """Read a job file (JSON if it ends in .json, TOML otherwise) into a mapping."""
    file = Path(path)
    try:
        with file.open("rb") as stream:
            # One byte past the limit tells a too-big file without reading all of it (or
            # forever, from a device or a pipe).
            raw = stream.read(MAX_JOB_FILE_BYTES + 1)
    except OSError as err:
        raise JobFileError(f"{file}: cannot read: {err.strerror or err}") from None
    if len(raw) > MAX_JOB_FILE_BYTES:
        raise JobFileError(_too_big(str(file)))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise JobFileError(f"{file}: not UTF-8 text") from None
    return parse_job_mapping(text, "json" if file.suffix.lower() == ".json" else "toml", str(file))


def load_job(path: str | Path) -> Job:
    """Read and validate a job file."""
    mapping = read_job_mapping(path)
    try:
        return job_from_mapping(mapping)
    except SpecError as err:
        raise JobFileError(f"{path}: {err}") from None


def _too_big(source: str) -> str:
    return f"{source}: larger than {MAX_JOB_FILE_BYTES:,} bytes, too large for a job file"


# --- nesting: a scan of the text, before any parser recurses over it ----------------------

# Strings and comments are skipped whole, so brackets and dots inside them do not count.  A
# string left open runs to the end of its line (a multi-line one: of the text), where the
# parser reports it; matching it there rather than failing keeps the scan linear (a failed
# match would be retried from every later quote).
_TOML_SCAN = re.compile(
    "|".join(
        (
            r'"""(?:\\.|[^\\])*?(?:"""(?:"{1,2}(?!"))?|\Z)',  # multi-line basic string
            r"'''.*?(?:'''(?:'{1,2}(?!'))?|\Z)",  # multi-line literal string
            r'"(?:\\[^\n]|[^"\\\n])*"?',  # basic string
            r"'[^'\n]*'?",  # literal string
            r"\#[^\n]*",  # comment
            r"(?P<open>[\[{])",
            r"(?P<close>[\]}])",
            # A dotted key ends at '=' or ']' ('a.b = 1', '[a.b]'); a number's dot at ',',
            # a line end or a closing bracket.
            r"(?P<end>[=,\n])",
            r"(?P<dot>\.)",
            r"""[^"'\#\[\]{}=,\n.]+""",
            r".",
        )
    ),
    re.S,
)
_JSON_SCAN = re.compile(
    "|".join(
        (
            r'"(?:\\.|[^"\\])*"?',
            r"(?P<open>[\[{])",
            r"(?P<close>[\]}])",
            r'[^"\[\]{}]+',
            r".",
        )
    ),
    re.S,
)


def _check_nesting(text: str, fmt: str, source: str) -> None:
    """Refuse text whose brackets nest, or whose dotted keys run, past MAX_NESTING.

    The JSON decoder and tomllib recurse once per open bracket (100,000 of them raise
    RecursionError), and tomllib's work on a dotted key grows with the square of its parts.
    """
    depth = dots = 0
    for match in (_JSON_SCAN if fmt == "json" else _TOML_SCAN).finditer(text):
        kind = match.lastgroup
        if kind == "open":
            depth += 1
            dots = 0
            if depth > MAX_NESTING:
                raise JobFileError(
                    f"{source}: line {_line(text, match.start())}: nested too deeply "
                    f"(more than {MAX_NESTING} levels of tables and arrays)"
                )
        elif kind == "close":
            depth = max(0, depth - 1)
            dots = 0
        elif kind == "end":
            dots = 0
        elif kind == "dot":
            dots += 1
            if dots >= MAX_NESTING:
                raise JobFileError(
                    f"{source}: line {_line(text, match.start())}: nested too deeply "
                    f"(a dotted key of more than {MAX_NESTING} parts)"
                )


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


# --- parsing, and one walk over the result ------------------------------------------------


@dataclass(frozen=True)
class _Pairs:
    """A JSON object as its key-value pairs in order, so that a repeated key can be seen."""

    items: tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class _LongNumber:
    """An integer too long to convert, left as its digit count until the walk names its field."""

    digits: int


def _json_int(literal: str) -> int | _LongNumber:
    digits = len(literal.lstrip("-"))
    return _LongNumber(digits) if digits > MAX_NUMBER_DIGITS else int(literal)


def _parse_json(text: str, source: str) -> Any:
    pairs = json.loads(text, object_pairs_hook=_json_pairs, parse_int=_json_int)
    return _Walk(source).value(pairs, "", 0)


def _json_pairs(items: list[tuple[str, Any]]) -> _Pairs:
    return _Pairs(tuple(items))


# A TOML integer, outside strings and comments: not part of a bare key, a float or a date.
_TOML_INT = re.compile(
    r"(?<![\w.+-])[+-]?(?:0x[0-9A-Fa-f_]+|0o[0-7_]+|0b[01_]+|[0-9_]+)(?![\w.:+-])"
)


def _parse_toml(text: str, source: str) -> Any:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except ValueError:
        # tomllib converts integers with int(), which refuses more than
        # sys.get_int_max_str_digits() digits with a message naming neither line nor key.
        _locate_long_int(text, source)
    return _Walk(source).value(data, "", 0)


def _locate_long_int(text: str, source: str) -> NoReturn:
    """Name the field of an integer tomllib cannot convert: parse again with it as a marker.

    Each long integer becomes a string unique to this parse (padded to the integer's width,
    so that line and column numbers stand), and the walk reports the field holding it.
    """
    nonce = secrets.token_hex(8)
    markers: dict[str, _LongNumber] = {}
    lines: list[int] = []
    pieces: list[str] = []
    for start, end, outside in _toml_parts(text):
        if not outside:
            pieces.append(text[start:end])
            continue
        at = start
        for match in _TOML_INT.finditer(text, start, end):
            token = match.group()
            digits = _token_digits(token)
            if digits <= MAX_NUMBER_DIGITS:
                continue
            marker = f"{nonce}{len(markers)}"
            markers[marker] = _LongNumber(digits)
            lines.append(_line(text, match.start()))
            pieces.append(text[at : match.start()] + f'"{marker}"'.ljust(len(token)))
            at = match.end()
        pieces.append(text[at:end])
    try:
        data = tomllib.loads("".join(pieces))
    except ValueError:
        data = None
    if data is not None:
        _Walk(source, markers).value(data, "", 0)
    # No marker sat in a value (a syntax error after it, or a key of digits): name the line.
    where = f"line {lines[0]}: " if lines else ""
    raise JobFileError(
        f"{source}: {where}a number of more than {MAX_NUMBER_DIGITS} digits is too large"
    )


def _token_digits(token: str) -> int:
    """The decimal digits of a TOML integer token, as the walk counts an integer's."""
    bare = token.replace("_", "").lstrip("+-")
    if bare[:2] in ("0x", "0o", "0b"):
        # int() converts these bases at any length; only decimal ones are limited.
        return digit_count(int(bare, 0))
    return len(bare.lstrip("0")) or 1


def _toml_parts(text: str) -> list[tuple[int, int, bool]]:
    """The text as (start, end, outside strings and comments) spans, in order."""
    parts: list[tuple[int, int, bool]] = []
    for match in _TOML_SCAN.finditer(text):
        token = match.group()
        outside = not token.startswith(('"', "'", "#"))
        if parts and parts[-1][2] == outside:
            parts[-1] = (parts[-1][0], match.end(), outside)
        else:
            parts.append((match.start(), match.end(), outside))
    return parts


@dataclass(frozen=True)
class _Walk:
    """One pass over a parsed job: builds JSON's objects, checks depth, keys and numbers."""

    source: str
    markers: Mapping[str, _LongNumber] | None = None

    def fail(self, path: str, problem: str) -> JobFileError:
        return JobFileError(f"{self.source}: {path or 'job'}: {problem}")

    def value(self, value: Any, path: str, depth: int) -> Any:
        if depth > MAX_NESTING:
            raise self.fail(path, f"nested too deeply (more than {MAX_NESTING} levels)")
        if isinstance(value, _Pairs):
            return self.table(value.items, path, depth, check_repeats=True)
        if isinstance(value, dict):
            return self.table(tuple(value.items()), path, depth, check_repeats=False)
        if isinstance(value, list):
            return [self.value(item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value)]
        if self.markers is not None and isinstance(value, str) and value in self.markers:
            value = self.markers[value]
        if isinstance(value, _LongNumber):
            raise self.fail(path, f"a {value.digits:,}-digit number is too large")
        if isinstance(value, int) and not isinstance(value, bool):
            digits = digit_count(value)
            if digits > MAX_NUMBER_DIGITS:
                raise self.fail(path, f"a {digits:,}-digit number is too large")
        return value

    def table(
        self, items: tuple[tuple[str, Any], ...], path: str, depth: int, *, check_repeats: bool
    ) -> dict[str, Any]:
        table: dict[str, Any] = {}
        for key, item in items:
            shown = shown_key(key)
            where = f"{path}.{shown}" if path else shown
            if check_repeats and key in table:
                raise self.fail(where, "given twice")
            table[key] = self.value(item, where, depth + 1)
        return table
