"""Per-namespace limits and weights of the tokens file: ``trials=N`` and ``weight=N`` read
strictly and written by `cardroom token`; a namespace's weight as the largest of its
lines'; the trials of unfinished jobs counted and refused in the store's transaction
(both stores); and over a real server, a token's ``trials=`` and the server's
``--max-trials-in-flight`` answering RESOURCE_EXHAUSTED with the limit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.auth import Principal, TokensError, TokensFile, check, mint, parse_tokens
from service.store import JobState, JobStore, TooManyJobs, TooManyTrials
from service.store_postgres import PostgresJobStore
from service.stores import Store
from tests.harness import Server
from tests.postgres import postgres  # noqa: F401  (the fixture)

SPEC = {"kind": "bad_beat", "hands": 30, "seed": 5, "shard_size": 10, "table": {"players": 6}}


def test_trials_and_weight_options_are_read_strictly(tmp_path: Path) -> None:
    token, entry = mint("alice", 3, 5_000_000, 7)
    line = entry.line()
    assert line.endswith(" jobs=3 trials=5000000 weight=7")
    assert parse_tokens(line, "t")[entry.key_id] == entry
    assert check({entry.key_id: entry}, token) == Principal(
        "alice", entry.key_id, 3, max_trials=5_000_000, weight=7
    )
    plain_token, plain = mint("bob")
    assert plain.line().count("=") == 0
    assert check({plain.key_id: plain}, plain_token) == Principal("bob", plain.key_id)
    assert Principal("bob").weight == 1 and Principal("bob").max_trials is None
    base = plain.line()
    bad = {
        f"{base} weight=0": "t: line 1: weight: must be a whole number in 1..1,000, got '0'",
        f"{base} weight=1001": "t: line 1: weight: must be a whole number in 1..1,000",
        f"{base} trials=-5": "t: line 1: trials: must be a whole number in 1..",
        f"{base} trials=" + "9" * 40: "t: line 1: trials: must be a whole number in 1..",
        f"{base} weight=2 weight=3": "t: line 1: weight: given twice",
        f"{base} share=2": "t: line 1: 'share=2': the only options are jobs=N, trials=N and",
    }
    for text, message in bad.items():
        with pytest.raises(TokensError) as refused:
            parse_tokens(text, "t")
        assert str(refused.value).startswith(message), (text, str(refused.value))
    for given in ({"weight": 0}, {"weight": 1001}, {"max_trials": 0}):
        with pytest.raises(TokensError):
            mint("carol", **given)


def test_a_namespaces_weight_is_the_largest_of_its_lines_read_again_when_changed(
    tmp_path: Path,
) -> None:
    _, light = mint("alice", weight=2)
    _, heavy = mint("alice", weight=5)
    _, none = mint("alice")
    _, bob = mint("bob")
    path = tmp_path / "tokens.txt"
    path.write_text(f"{light.line()}\n{heavy.line()}\n{none.line()}\n{bob.line()}\n")
    tokens = TokensFile(path)
    assert (tokens.weight("alice"), tokens.weight("bob"), tokens.weight("nobody")) == (5, 1, 1)
    path.write_text(f"{light.line()}\n{bob.line()}\n")
    tokens._checked -= 10  # as if two seconds had passed: the file is looked at again
    assert tokens.weight("alice") == 2


def test_cardroom_token_writes_the_trials_and_the_weight(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from service.cli import main

    path = tmp_path / "tokens.txt"
    args = ["token", "alice", "--jobs", "4", "--trials", "1_000_000", "--weight", "3"]
    assert main([*args, "--file", str(path)]) == 0
    token = capsys.readouterr().out.strip()
    principal = check(parse_tokens(path.read_text(), "t"), token)
    assert principal == Principal("alice", token.split(".")[1], 4, max_trials=1_000_000, weight=3)
    assert main(["token", "bob", "--weight", "2000"]) == 2
    assert capsys.readouterr().err.strip() == "cardroom: weight: must lie in 1..1,000, got 2000"


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        opened: Store = JobStore(tmp_path / "jobs.sqlite3")
    else:
        opened = PostgresJobStore(request.getfixturevalue("postgres").fresh_url())
    try:
        yield opened
    finally:
        opened.close()


def test_a_namespace_holds_at_most_its_trials_in_flight(store: Store) -> None:
    def create(trials: int, namespace: str = "alice") -> str:
        job = store.create(
            "bad_beat", SPEC, trials, 1, namespace=namespace, max_unfinished_trials=100
        )
        return job.id

    first = create(60)
    create(40)  # exactly at the limit
    with pytest.raises(TooManyTrials) as refused:
        create(1)
    assert str(refused.value) == (
        "trials in flight: namespace alice has 100 trials in jobs queued or running, and this "
        "job's 1 would pass the most this server allows one client (100); wait for one to "
        "end, cancel one, or submit fewer trials"
    )
    with pytest.raises(TooManyTrials):
        create(101, "bob")  # a job larger than the limit by itself
    create(100, "bob")  # each namespace its own count
    store.set_state(first, JobState.CANCELLED)  # finished jobs do not count
    create(60)
    assert len(store.page(size=10, namespace="alice")[0]) == 3
    # Both limits together: the count of jobs is checked first.
    with pytest.raises(TooManyJobs):
        store.create(
            "bad_beat", SPEC, 1, 1, namespace="carol", max_unfinished=0, max_unfinished_trials=9
        )


def test_trials_in_flight_are_limited_over_a_real_server(tmp_path: Path) -> None:
    """carol's token says trials=2,000,000,000; bob has none, so the server's
    --max-trials-in-flight 1,500,000,000 is his.  Jobs of 10^9 hands stay running."""
    carol, carol_entry = mint("carol", max_trials=2 * 10**9)
    bob, bob_entry = mint("bob")
    path = tmp_path / "tokens.txt"
    path.write_text(f"{carol_entry.line()}\n{bob_entry.line()}\n")
    extra = ("--tokens", str(path), "--max-trials-in-flight", "1500000000")
    server = Server(tmp_path / "data", workers=1, extra=extra)
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = pb_grpc.JobServiceStub(channel)
            spec = pb.JobSpec(trials=10**9, seed=1)
            spec.bad_beat.table.players = 6
            request = pb.SubmitJobRequest(spec=spec)

            def submit(token: str) -> pb.Job:
                auth = (("authorization", f"Bearer {token}"),)
                job: pb.Job = stub.SubmitJob(request, metadata=auth, timeout=60).job
                return job

            accepted = [submit(carol), submit(carol), submit(bob)]
            for token, count, limit in ((carol, 2 * 10**9, 2 * 10**9), (bob, 10**9, 1.5e9)):
                with pytest.raises(grpc.RpcError) as refused:
                    submit(token)
                assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                details = refused.value.details() or ""
                assert details.startswith("trials in flight: namespace "), details
                assert f"has {count:,} trials" in details and f"({int(limit):,})" in details
            for job, owner in zip(accepted, (carol, carol, bob), strict=True):
                auth = (("authorization", f"Bearer {owner}"),)
                stub.CancelJob(pb.CancelJobRequest(id=job.id), metadata=auth, timeout=60)
            again = submit(bob)  # the cancelled jobs no longer count
            auth = (("authorization", f"Bearer {bob}"),)
            stub.CancelJob(pb.CancelJobRequest(id=again.id), metadata=auth, timeout=60)
    finally:
        server.stop()
