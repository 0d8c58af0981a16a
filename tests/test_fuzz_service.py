"""Malformed job specifications and game files at scale, through the gRPC API of a real
server on loopback, started here.

Each job spec is an example job's JobSpec mutated at the message level — a number at the
edge of its type (0, 2**63, 2**64 - 1), NaN and infinities, bad card strings and unicode,
a repeated field emptied, repeated or grown, a nested message cleared, the kind switched or
removed — or its bytes damaged on the wire.  Every call has a deadline (a hang fails it),
and every answer must be OK (a job, stored) or INVALID_ARGUMENT naming the field
(RESOURCE_EXHAUSTED only for the jobs-in-flight limit).  Afterwards the store holds exactly
the jobs it held before plus those accepted, the ones before unchanged, and the server has
logged no traceback.
"""

from __future__ import annotations

import contextlib
import copy
import math
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from hypothesis import given, settings
from hypothesis import strategies as st

from service.api.cardroom.v1 import game_service_pb2 as game_pb
from service.api.cardroom.v1 import game_service_pb2_grpc as game_pb_grpc
from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.convert import mapping_to_spec
from tests.fuzzing import (
    BAD_CARDS,
    BAD_WORDS,
    FUZZ,
    SHARES,
    Fed,
    Mutant,
    game_documents,
    job_documents,
    mutants,
)
from tests.harness import Server, running_server

pytestmark = pytest.mark.slow

DEADLINE = 30.0  # seconds per call: far above any answer, so only a hang reaches it
MAX_TRIALS = 20_000  # the server's bound: a mutant still valid is a small job
BASES = [mapping_to_spec(document) for document in job_documents()]
GAMES = game_documents()

# INVALID_ARGUMENT's message starts with the field: "spec.bad_beat.table.players: ...",
# "spec.rake.policies[2].caps[0].cap: ...", "spec: is required", "request: the bytes ...".
_NAMES_FIELD = re.compile(r"^(spec|request)(\.[\w\[\]'\"]+)*: \S")
_T = FieldDescriptor


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("fuzz")
    # Two jobs in flight at most: a valid mutant beyond them is refused at that limit, after
    # its validation, so the fuzz checks every spec without running hundreds of jobs.
    extra = ("--max-trials", str(MAX_TRIALS), "--max-jobs-in-flight", "2")
    with running_server(root / "data", workers=1, extra=extra) as s:
        yield s


@pytest.fixture(scope="module")
def channel(server: Server) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(server.address) as opened:
        yield opened


def stored_jobs(stub: pb_grpc.JobServiceStub) -> dict[str, bytes]:
    """Every job the server lists, by id: its spec as stored (serialized deterministically)."""
    jobs: dict[str, bytes] = {}
    token = ""
    while True:
        page = stub.ListJobs(pb.ListJobsRequest(page_size=100, page_token=token), timeout=DEADLINE)
        for job in page.jobs:
            jobs[job.id] = job.spec.SerializeToString(deterministic=True)
        token = page.next_page_token
        if not token:
            return jobs


# -- mutations of a JobSpec -------------------------------------------------------------

_EDGES = {
    _T.CPPTYPE_UINT64: (0, 1, 2**31, 2**32 - 1, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1),
    _T.CPPTYPE_INT64: (0, -1, 1, -(2**63), 2**63 - 1),
    _T.CPPTYPE_UINT32: (0, 1, 11, 255, 2**16, 2**31, 2**32 - 1),
    _T.CPPTYPE_INT32: (0, -1, 1, -(2**31), 2**31 - 1),
    _T.CPPTYPE_DOUBLE: (
        -0.0,
        -1.0,
        0.5,
        1.0000001,
        2.0,
        1e308,
        5e-324,
        math.nan,
        math.inf,
        -math.inf,
    ),
    _T.CPPTYPE_FLOAT: (-1.0, 0.5, 2.0, math.nan, math.inf),
    _T.CPPTYPE_BOOL: (True, False),
    _T.CPPTYPE_STRING: (*BAD_CARDS, *BAD_WORDS, "AAATT", "AAAKK", "KKK22", "pair", "holdem"),
}


def _fields(
    message: Message, prefix: tuple[str, ...] = ()
) -> Iterator[tuple[Message, FieldDescriptor, tuple[str, ...]]]:
    """Every field of the message and of its set nested messages, set or not."""
    for field in message.DESCRIPTOR.fields:
        yield message, field, (*prefix, field.name)
        if field.cpp_type != _T.CPPTYPE_MESSAGE:
            continue
        if field.is_repeated:
            for i, item in enumerate(getattr(message, field.name)):
                yield from _fields(item, (*prefix, f"{field.name}[{i}]"))
        elif message.HasField(field.name):
            yield from _fields(getattr(message, field.name), (*prefix, field.name))


@st.composite
def _mutate_spec(draw: st.DrawFn, spec: pb.JobSpec) -> str:
    fields = list(_fields(spec))
    owner, field, path = fields[draw(st.integers(0, len(fields) - 1))]
    name = field.name
    where = ".".join(path)
    if field.cpp_type == _T.CPPTYPE_MESSAGE:
        if field.is_repeated:
            items = getattr(owner, name)
            how = draw(st.sampled_from(("clear", "repeat", "add-empty")))
            if how == "clear":
                owner.ClearField(name)
            elif how == "repeat" and len(items):
                again = items[draw(st.integers(0, len(items) - 1))]
                for _ in range(draw(st.integers(1, 12))):
                    items.add().CopyFrom(again)
            else:
                items.add()
        elif draw(st.booleans()):
            owner.ClearField(name)  # a kind's message cleared removes the kind
        else:
            getattr(owner, name).SetInParent()  # set, empty: the kind switched
        return f"{where} (message)"
    edges = _EDGES[field.cpp_type]
    if field.is_repeated:
        items = getattr(owner, name)
        how = draw(st.sampled_from(("clear", "append", "repeat", "grow")))
        if how == "clear":
            owner.ClearField(name)
        elif how == "repeat" and len(items):
            items.append(items[draw(st.integers(0, len(items) - 1))])
        elif how == "grow":
            items.extend([edges[draw(st.integers(0, len(edges) - 1))]] * 300)
        else:
            items.append(edges[draw(st.integers(0, len(edges) - 1))])
        return f"{where} ({how})"
    if field.has_presence and draw(st.integers(0, 4)) == 0:
        owner.ClearField(name)
        return f"{where} (cleared)"
    value = edges[draw(st.integers(0, len(edges) - 1))]
    setattr(owner, name, value)
    return f"{where} = {value!r}"


@st.composite
def spec_mutants(draw: st.DrawFn) -> tuple[bytes, tuple[str, ...]]:
    """A SubmitJobRequest's bytes, and what was done to the spec in it."""
    spec = copy.deepcopy(BASES[draw(st.integers(0, len(BASES) - 1))])
    steps = tuple(draw(_mutate_spec(spec)) for _ in range(draw(st.integers(1, 3))))
    data = pb.SubmitJobRequest(spec=spec).SerializeToString()
    if draw(st.integers(0, 7)) == 0:  # damaged on the wire
        at = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(("truncate", "flip", "insert")))
        if how == "truncate":
            data = data[:at]
        elif how == "flip" and at < len(data):
            data = data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1 :]
        else:
            data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
        steps += (f"bytes {how} at {at}",)
    return data, steps


# -- the test -----------------------------------------------------------------------------


def test_malformed_job_specs_get_invalid_argument_and_leave_the_store_unchanged(
    server: Server, channel: grpc.Channel
) -> None:
    stub = pb_grpc.JobServiceStub(channel)
    # Jobs stored before the fuzz, which it must leave as they are.
    for base in BASES[:2]:
        stub.SubmitJob(pb.SubmitJobRequest(spec=base), timeout=DEADLINE)
    before = stored_jobs(stub)
    assert len(before) == 2
    submit = channel.unary_unary(
        "/cardroom.v1.JobService/SubmitJob",
        request_serializer=None,  # the bytes as given, damaged or not
        response_deserializer=pb.SubmitJobResponse.FromString,
    )
    fed = Fed()
    accepted: set[str] = set()
    codes: dict[str, int] = {}

    @settings(FUZZ, max_examples=SHARES["job specs over gRPC"])
    @given(spec_mutants())
    def submit_one(mutant: tuple[bytes, tuple[str, ...]]) -> None:
        data, steps = mutant
        fed.inputs += 1
        try:
            response = submit(data, timeout=DEADLINE)
        except grpc.RpcError as err:
            code = err.code()
            codes[code.name] = codes.get(code.name, 0) + 1
            details = err.details() or ""
            assert "\n" not in details and "Traceback" not in details, (details, steps)
            if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
                assert details.startswith("jobs in flight: "), (details, steps)
                return
            assert code == grpc.StatusCode.INVALID_ARGUMENT, (code, details, steps)
            assert _NAMES_FIELD.match(details), (details, steps)
            return
        codes["OK"] = codes.get("OK", 0) + 1
        assert response.job.id.startswith("job-"), steps
        accepted.add(response.job.id)
        fed.accepted += 1

    import time

    t0 = time.perf_counter()
    submit_one()
    print("\nCODES", codes, time.perf_counter() - t0)
    assert fed.inputs >= SHARES["job specs over gRPC"]
    # Most mutants are wrong; some (an optional field cleared, a legal edge) are still jobs.
    assert codes.get("INVALID_ARGUMENT", 0) > fed.inputs // 2, codes
    after = stored_jobs(stub)
    assert set(after) == set(before) | accepted, codes
    assert {job_id: after[job_id] for job_id in before} == before
    # What validation accepted must run: a job that fails is a spec it should have refused.
    ended = {job_id: finished(stub, job_id) for job_id in accepted}
    failed = {i: job.error for i, job in ended.items() if job.state != pb.JOB_STATE_SUCCEEDED}
    assert not failed, failed
    assert "Traceback" not in server.log()


def finished(stub: pb_grpc.JobServiceStub, job_id: str) -> pb.Job:
    """The job once it has ended, followed through WatchJob (with a deadline)."""
    job = stub.GetJob(pb.GetJobRequest(id=job_id), timeout=DEADLINE).job
    for update in stub.WatchJob(pb.WatchJobRequest(id=job_id), timeout=120):
        job = update.job
    return job


def test_malformed_game_files_through_check_game_get_invalid_argument(
    server: Server, channel: grpc.Channel
) -> None:
    stub = game_pb_grpc.GameServiceStub(channel)
    fed = Fed()

    @settings(FUZZ, max_examples=SHARES["game files over gRPC"])
    @given(mutants(GAMES))
    def check_one(mutant: Mutant) -> None:
        fed.inputs += 1
        try:
            stub.CheckGame(game_pb.CheckGameRequest(text=mutant.text), timeout=DEADLINE)
        except grpc.RpcError as err:
            details = err.details() or ""
            assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (err.code(), details, mutant)
            assert details.startswith("text: ") and "\n" not in details, (details, mutant)
            return
        fed.accepted += 1

    check_one()
    assert fed.inputs >= SHARES["game files over gRPC"]
    assert fed.accepted < fed.inputs // 2
    assert "Traceback" not in server.log()


def test_the_store_file_holds_what_the_api_lists(server: Server, channel: grpc.Channel) -> None:
    """The comparison above reads the store through ListJobs; the file itself, read
    without the server's code, agrees."""
    listed = stored_jobs(pb_grpc.JobServiceStub(channel))
    uri = f"file:{Path(server.data_dir) / 'jobs.sqlite3'}?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
        rows = {row[0] for row in db.execute("SELECT id FROM jobs")}
    assert rows == set(listed)
