"""Between the API's messages and the job mappings that the validators read.

A job is stored as its canonical mapping — the same shape as a TOML job file, with the
seed and shard size filled in — so one validator serves files, the CLI and the API.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import timestamp_pb2

from service.api.cardroom.v1 import job_service_pb2 as pb

_GAME_FIELDS = ("variant", "players")
_JACKPOT_FIELDS = (
    "min_losing_hand",
    "min_winning_hand",
    "hole_cards_play",
    "quads_need_pocket_pair",
    "board_trips_full_house",
)
# Where a job-file field lives in a JobSpec message, for error messages over the API.
_API_PATHS = {"kind": "spec.kind", "hands": "spec.trials", "trials": "spec.trials"}


def api_field(field: str) -> str:
    """The JobSpec path of a job-file field ('game.players' -> 'spec.bad_beat.game.players')."""
    if field in _API_PATHS:
        return _API_PATHS[field]
    if field.split(".")[0] in {"game", "jackpot"}:
        return f"spec.bad_beat.{field}"
    return f"spec.{field}"


def _set_fields(message: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(message, name) for name in names if message.HasField(name)}


def spec_to_mapping(spec: pb.JobSpec) -> dict[str, Any]:
    """A JobSpec as a job mapping; unset optional fields are left out (defaults apply)."""
    kind = spec.WhichOneof("kind")
    if kind is None:
        return {"hands": spec.trials}  # the validator reports the missing kind
    mapping: dict[str, Any] = {"kind": kind, "hands": spec.trials}
    if spec.HasField("seed"):
        mapping["seed"] = spec.seed
    if spec.shard_size:
        mapping["shard_size"] = spec.shard_size
    if kind == "bad_beat":
        game = _set_fields(spec.bad_beat.game, _GAME_FIELDS)
        jackpot = _set_fields(spec.bad_beat.jackpot, _JACKPOT_FIELDS)
        if game:
            mapping["game"] = game
        if jackpot:
            mapping["jackpot"] = jackpot
    return mapping


def mapping_to_spec(mapping: dict[str, Any]) -> pb.JobSpec:
    """A validated job mapping as a JobSpec (the inverse of :func:`spec_to_mapping`)."""
    kind = mapping["kind"]
    spec = pb.JobSpec(trials=mapping["hands"], shard_size=mapping.get("shard_size", 0))
    if "seed" in mapping:
        spec.seed = mapping["seed"]
    if kind == "bad_beat":
        spec.bad_beat.SetInParent()
        for name, value in mapping.get("game", {}).items():
            setattr(spec.bad_beat.game, name, value)
        for name, value in mapping.get("jackpot", {}).items():
            setattr(spec.bad_beat.jackpot, name, value)
    return spec


def report_to_result(kind: str, report: dict[str, Any]) -> pb.JobResult:
    """A result report (``Job.report``) as a JobResult message."""
    result = pb.JobResult()
    if kind == "bad_beat":
        fields = {k: v for k, v in report.items() if k not in {"kind", "seed"} and v is not None}
        result.bad_beat.CopyFrom(pb.BadBeatResult(**fields))
    return result


def result_to_report(result: pb.JobResult, seed: int) -> dict[str, Any]:
    """A JobResult as the flat report that ``cardroom run --json`` prints, in the same order."""
    kind = result.WhichOneof("kind")
    if kind == "bad_beat":
        r = result.bad_beat
        return {
            "kind": kind,
            "hands": r.hands,
            "jackpot_hands": r.jackpot_hands,
            "frequency": r.frequency,
            "ci95_low": r.ci95_low,
            "ci95_high": r.ci95_high,
            "one_in": r.one_in if r.HasField("one_in") else None,
            "seed": seed,
        }
    return {"kind": kind, "seed": seed}


def timestamp(seconds: float) -> timestamp_pb2.Timestamp:
    stamp = timestamp_pb2.Timestamp()
    stamp.FromNanoseconds(int(seconds * 1e9))
    return stamp
