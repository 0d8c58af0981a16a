"""Job files: TOML or JSON in, a validated :class:`~workers.job.Job` out.

Every key is read through :class:`simulations.spec.Fields`; a mistake raises
:class:`JobFileError` with one line naming the file and the field.
"""

from __future__ import annotations

import json
import secrets
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from simulations.models import MODELS
from simulations.spec import Fields, SpecError
from workers.job import DEFAULT_SHARD_SIZE, Job
from workers.plan import MAX_SHARDS

MAX_TRIALS = 10**13
MAX_SEED = 2**63 - 1


class JobFileError(ValueError):
    """A job file that cannot be read or is not a valid job."""


def job_from_mapping(data: Mapping[str, Any]) -> Job:
    """Validate a parsed job specification; raises ``SpecError`` naming the field."""
    fields = Fields(data)
    kind = fields.string("kind", choices=tuple(MODELS))
    reader = MODELS[kind]
    trials = fields.integer(reader.trials_field, low=1, high=MAX_TRIALS)
    seed = fields.optional_integer("seed", low=0, high=MAX_SEED)
    shard_size = fields.integer("shard_size", DEFAULT_SHARD_SIZE, low=1, high=MAX_TRIALS)
    if -(-trials // shard_size) > MAX_SHARDS:
        raise SpecError(
            "shard_size", f"too small: {trials:,} trials would need more than {MAX_SHARDS:,} shards"
        )
    try:
        model = reader.from_fields(fields)
    except SpecError:
        raise
    except ValueError as err:  # a model's own consistency check
        raise SpecError(kind, str(err)) from None
    fields.finish()
    # No seed given: draw one, and report it so that the run can be repeated.
    return Job(model, trials, secrets.randbits(63) if seed is None else seed, shard_size)


def parse_job_text(text: str, fmt: str, source: str = "job") -> Job:
    """Parse ``text`` as ``fmt`` ('toml' or 'json') and validate it."""
    data = parse_job_mapping(text, fmt, source)
    try:
        return job_from_mapping(data)
    except SpecError as err:
        raise JobFileError(f"{source}: {err}") from None


def parse_job_mapping(text: str, fmt: str, source: str = "job") -> dict[str, Any]:
    """Parse ``text`` as ``fmt`` ('toml' or 'json') into a mapping, not yet validated."""
    try:
        data = json.loads(text) if fmt == "json" else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as err:
        raise JobFileError(f"{source}: not valid {fmt.upper()}: {err}") from None
    if not isinstance(data, dict):
        raise JobFileError(f"{source}: a job must be a table of settings")
    return data


def read_job_mapping(path: str | Path) -> dict[str, Any]:
    """Read a job file (JSON if it ends in .json, TOML otherwise) into a mapping."""
    file = Path(path)
    try:
        raw = file.read_bytes()
    except OSError as err:
        raise JobFileError(f"{file}: cannot read: {err.strerror or err}") from None
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
