"""Job kinds: each registered once (service/kinds.py) and held to the conventions the generic
plumbing relies on; the API converter, the CLI's rendering and the tally codec working for a
second kind (tests/dice_kind.py: trials are sessions, the tally holds histograms) with no
code of its own; no kind named anywhere else in service/; and the proto kept compatible."""

from __future__ import annotations

import io
import json
import math
import re
import shutil
import subprocess
import tokenize
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from google.protobuf.descriptor import Descriptor

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.convert import (
    ConversionError,
    api_field,
    mapping_to_spec,
    report_to_result,
    result_to_report,
    spec_to_mapping,
)
from service.jobfile import job_from_mapping, read_job_mapping
from service.kinds import KINDS, JobKind, registry, render
from simulations.models import MODELS
from simulations.spec import SpecError
from tests import dice_kind
from tests.harness import REPO, require_tool
from workers.runner import InlineRunner

ENVELOPE = {"kind", "seed", "shard_size", "precision", "priority"}
PROBE = "__probe__"


def _known_keys(kind: JobKind, kinds: Mapping[str, JobKind], path: tuple[str, ...]) -> set[str]:
    """The keys the kind's model reads in the job file's table at ``path``: an unknown key
    put there is refused with the list of the keys read (simulations/spec.py)."""
    mapping: dict[str, Any] = {"kind": kind.name, kind.trials_field: 10}
    table = mapping
    for name in path:
        table = table.setdefault(name, {})
    table[PROBE] = 1
    with pytest.raises(SpecError) as refused:
        job_from_mapping(mapping, kinds=kinds)
    assert refused.value.field == ".".join((*path, PROBE)), refused.value
    found = re.search(r"\(known: (.*)\)$", refused.value.problem)
    return set(found.group(1).split(", ")) if found else set()


def _tables(
    descriptor: Descriptor, path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], Descriptor]]:
    """Every message within a spec message, with the job-file table path it stands for."""
    found = [(path, descriptor)]
    for field in descriptor.fields:
        if field.message_type is not None and not field.is_repeated:
            found += _tables(field.message_type, (*path, field.name))
    return found


def check_kind(
    kind: JobKind, kinds: Mapping[str, JobKind], spec_type: Any, result_type: Any
) -> None:
    """Every convention a registered kind must keep; raises AssertionError naming the broken one."""
    name = kind.name
    spec_oneof = spec_type.DESCRIPTOR.oneofs_by_name["kind"]
    result_oneof = result_type.DESCRIPTOR.oneofs_by_name["kind"]
    assert name in {f.name for f in spec_oneof.fields}, f"JobSpec has no {name} in its kind oneof"
    assert name in {f.name for f in result_oneof.fields}, f"JobResult has no {name} field"
    assert callable(kind.render), f"{name}: no renderer"
    spec_message = spec_type.DESCRIPTOR.fields_by_name[name].message_type
    result_message = result_type.DESCRIPTOR.fields_by_name[name].message_type
    taken = ENVELOPE | {kind.trials_field}
    assert not taken & set(spec_message.fields_by_name), f"{name}: a spec field named {taken}"
    assert not {"kind", "seed"} & set(result_message.fields_by_name), f"{name}: result fields"
    # The spec message's fields are the job file's keys, table by table.
    for path, message in _tables(spec_message):
        read = _known_keys(kind, kinds, path)
        if not path:
            read -= taken
        assert read == set(message.fields_by_name), (
            f"{name}: job-file keys {sorted(read)} at {'.'.join(path) or 'the top'} are not "
            f"the fields of {message.full_name}: {sorted(message.fields_by_name)}"
        )
    # The report crosses the API unchanged: the same keys in the same order, the same JSON.
    job = job_from_mapping({"kind": name, kind.trials_field: 200, "seed": 1}, kinds=kinds)
    report = job.report(InlineRunner().run(job))
    assert list(report)[1:-1] == [f.name for f in result_message.fields], (
        f"{name}: report keys {list(report)} are not kind, the fields of "
        f"{result_message.full_name} in order, and seed"
    )
    result = report_to_result(name, report, result_type())
    assert json.dumps(result_to_report(result, job.seed)) == json.dumps(report)
    assert render(job, report, kinds).strip()
    # The kind's example job file, if it has one, crosses the API setting for setting.
    example = REPO / "examples" / f"{name}.toml"
    if example.exists():
        mapping = read_job_mapping(example)
        spec = mapping_to_spec(mapping, kinds, spec_type())
        assert spec_to_mapping(spec, kinds) == mapping, f"{example} changes over the API"


def test_every_registered_kind_keeps_the_conventions() -> None:
    assert set(KINDS) == set(MODELS), "service/kinds.py and simulations.models.MODELS differ"
    for name, kind in KINDS.items():
        assert MODELS[name] is kind.model and kind.name == name
        check_kind(kind, KINDS, pb.JobSpec, pb.JobResult)
    # Every kind the API offers is registered: no oneof field without a kind behind it.
    for message in (pb.JobSpec, pb.JobResult):
        offered = {f.name for f in message.DESCRIPTOR.oneofs_by_name["kind"].fields}
        assert offered == set(KINDS), f"{message.DESCRIPTOR.name} offers {offered}"


@pytest.fixture(scope="module")
def demo() -> ModuleType:
    return dice_kind.messages()


def test_a_second_kind_keeps_the_conventions(demo: ModuleType) -> None:
    check_kind(dice_kind.DICE, dice_kind.KINDS, demo.JobSpec, demo.JobResult)


def test_the_convention_check_catches_a_kind_that_breaks_it(demo: ModuleType) -> None:
    """check_kind fails for a report whose keys are not the result message's, and for a job
    file key the spec message lacks."""

    class Renamed(dice_kind.DiceModel):
        def report(self, tally: dice_kind.DiceTally) -> dict[str, Any]:
            report = super().report(tally)
            report["mean"] = report.pop("mean_hits")
            return report

    renamed = JobKind(Renamed, dice_kind.render_dice)
    with pytest.raises((AssertionError, ConversionError), match="mean"):
        check_kind(renamed, registry(renamed), demo.JobSpec, demo.JobResult)

    class ExtraKey(dice_kind.DiceModel):
        @classmethod
        def from_fields(cls, job: Any) -> dice_kind.DiceModel:
            job.optional_integer("limit")
            return super().from_fields(job)

    extra = JobKind(ExtraKey, dice_kind.render_dice)
    with pytest.raises(AssertionError, match="limit"):
        check_kind(extra, registry(extra), demo.JobSpec, demo.JobResult)


def test_a_second_kind_crosses_the_api_and_back(demo: ModuleType) -> None:
    """Trials under the kind's own name (sessions), nested tables, unset optional fields."""
    mapping = {
        "kind": "dice",
        "sessions": 3_000,
        "seed": 2**63 - 1,
        "shard_size": 400,
        "table": {"dice": 3},
        "session": {"target": 10, "count_doubles": True},
    }
    spec = mapping_to_spec(mapping, dice_kind.KINDS, demo.JobSpec())
    assert spec.trials == 3_000 and spec.seed == 2**63 - 1 and spec.dice.table.dice == 3
    assert not spec.dice.table.HasField("sides")  # unset: the job file's default applies
    assert spec_to_mapping(spec, dice_kind.KINDS) == mapping
    job = job_from_mapping(spec_to_mapping(spec, dice_kind.KINDS), kinds=dice_kind.KINDS)
    assert (job.trials, job.model.sides, job.model.count_doubles) == (3_000, 6, True)
    # A 64-bit integer comes back as an integer, not MessageToDict's string.
    assert type(spec_to_mapping(spec, dice_kind.KINDS)["seed"]) is int
    # Nothing set in the kind's message: the defaults, no empty tables.
    bare = demo.JobSpec(trials=5)
    bare.dice.table.SetInParent()
    assert spec_to_mapping(bare, dice_kind.KINDS) == {"kind": "dice", "sessions": 5}
    assert spec_to_mapping(demo.JobSpec(trials=5), dice_kind.KINDS) == {}


def test_a_histogram_report_crosses_the_api_unchanged(demo: ModuleType) -> None:
    """Lists of nested messages, nested messages, repeated 64-bit integers beyond 2**53,
    None for an absent optional field, NaN: the client's report is the local one."""
    job = job_from_mapping(
        {"kind": "dice", "sessions": 2_000, "seed": 5, "session": {"target": 1}},
        kinds=dice_kind.KINDS,
    )
    report = job.report(InlineRunner().run(job))
    assert report["sessions_per_miss"] == 1.0 and math.isnan(report["spread"])  # never hit
    huge = {**report, "face_totals": [2**62 + 1, 3], "sessions_per_miss": None}
    for original in (report, huge):
        result = report_to_result("dice", original, demo.JobResult())
        back = result_to_report(result, job.seed)
        assert json.dumps(back) == json.dumps(original)
        assert back["hit_quantiles"] == original["hit_quantiles"]
    assert result.dice.face_totals[0] == 2**62 + 1 and not result.dice.HasField("sessions_per_miss")
    with pytest.raises(ConversionError, match="mean"):
        report_to_result("dice", {**report, "mean": 1.0}, demo.JobResult())


def test_api_error_paths_are_generic() -> None:
    kinds = dice_kind.KINDS
    assert api_field("sessions", "dice", kinds) == "spec.trials"
    assert api_field("seed", "dice", kinds) == "spec.seed"
    assert api_field("shard_size", "dice", kinds) == "spec.shard_size"
    assert api_field("kind", None, kinds) == "spec.kind"
    assert api_field("session.target", "dice", kinds) == "spec.dice.session.target"
    assert api_field("dice", "dice", kinds) == "spec.dice"  # the model's own consistency check
    for name, kind in KINDS.items():
        assert api_field(kind.trials_field, name) == "spec.trials"
        assert api_field("a.b", name) == f"spec.{name}.a.b"


def test_the_result_renders_with_its_plot() -> None:
    job = job_from_mapping({"kind": "dice", "sessions": 500, "seed": 1}, kinds=dice_kind.KINDS)
    text = render(job, job.report(InlineRunner().run(job)), dice_kind.KINDS)
    assert text.startswith("Dice sessions — 2d6") and "hits per session" in text and "█" in text


def test_a_kind_is_registered_once() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        registry(dice_kind.DICE, dice_kind.DICE)


def _named_in(source: str, names: set[str]) -> list[int]:
    """The lines where ``source`` names one of ``names`` in code: a string literal equal to
    it, or an identifier (an attribute such as ``result.bad_beat``).  Prose is allowed."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        text = token.string
        if token.type == tokenize.STRING:
            text = text.lstrip("rRbBuU")
            text = text[3:-3] if text[:3] in ('"""', "'''") else text[1:-1]
        if token.type in (tokenize.STRING, tokenize.NAME) and text in names:
            found.append(token.start[0])
    return found


# Words of a file's own that a kind's name happens to equal: the game service's
# ``GameDefinition.exhaustion`` and ``Game.exhaustion`` are a game's rule for running out of
# cards, not the exhaustion kind of job; ``guts`` in the game service and in `cardroom deal`
# is the guts *game* (a game file of kind = "guts"), not the guts kind of job.
OWN_WORDS = {"service/games.py": {"exhaustion", "guts"}, "service/cli.py": {"guts"}}


def test_no_kind_is_named_in_the_service_code() -> None:
    """A kind is registered in one place: service/ works from the registry alone (the
    generated API modules under service/api/ aside)."""
    sources = [p for p in (REPO / "service").rglob("*.py") if "api" not in p.parts]
    assert len(sources) > 10
    names = set(KINDS) | set(dice_kind.KINDS)
    named = {
        f"{path.relative_to(REPO)}:{line}": path.read_text().splitlines()[line - 1].strip()
        for path in sources
        for line in _named_in(
            path.read_text(), names - OWN_WORDS.get(str(path.relative_to(REPO)), set())
        )
    }
    assert not named, named
    # The check can fail: it finds the kind as the code before the registry named it.
    old = 'if kind == "bad_beat":\n    x = result.bad_beat.one_in\n"""bad_beat jobs"""\n'
    assert _named_in(old, {"bad_beat"}) == [1, 2]


def test_the_proto_stays_compatible_with_the_last_commit(tmp_path: Path) -> None:
    """`buf breaking` against the proto of HEAD: no field renumbered, renamed or removed.
    The same check refuses a renumbered field (so it can fail)."""
    buf = require_tool("buf", "CARDROOM_BUF", REPO / ".tools" / "node_modules" / ".bin" / "buf")
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: no HEAD to compare with")
    against = f"{REPO / '.git'}#ref=HEAD,subdir=proto"

    def breaking(module: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [buf, "breaking", str(module), "--against", against],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    done = breaking(REPO / "proto")
    assert done.returncode == 0, done.stdout + done.stderr
    changed = tmp_path / "proto"
    shutil.copytree(REPO / "proto", changed)
    job_proto = changed / "cardroom" / "v1" / "job_service.proto"
    text = job_proto.read_text()
    assert "uint64 shard_size = 3;" in text
    job_proto.write_text(text.replace("uint64 shard_size = 3;", "uint64 shard_size = 99;"))
    refused = breaking(changed)
    assert refused.returncode != 0 and "shard_size" in refused.stdout + refused.stderr
