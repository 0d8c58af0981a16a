"""A bounded load on a real server on loopback with 10,000 stored jobs (tests/load.py):
many client threads submitting small jobs, following them and reading stored ones.

Asserted: every call answered, every submitted job succeeded with its result, every read
gave the job asked for, the store then holds exactly the jobs before plus those submitted,
and the server's resident memory stays flat over the rounds.  Speed is not asserted
(bench/bench_load.py measures it).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.api.cardroom.v1 import job_service_pb2 as pb
from tests.harness import Server, running_server
from tests.load import Calls, all_job_ids, fill_store, rss_bytes, run_round

pytestmark = pytest.mark.slow

STORED = 10_000
CLIENTS = 8
ROUNDS = 4  # the first warms up: memory is measured from its end
SUBMITS = 3  # per client per round
READS = 10  # GetJob calls per submission
# The server's growth over the measured rounds: allocator noise and caches filling are a
# few MiB; a leak of even 1 KiB a call would pass this after ~60,000 calls, so the test
# also requires the last round not to grow more than the one before it by much.
GROWTH_BOUND = 48 * 2**20


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, list[str]]]:
    data = tmp_path_factory.mktemp("load") / "data"
    data.mkdir()
    stored = fill_store(data, STORED)
    with running_server(data, workers=1) as server:
        yield server, stored


def test_many_clients_with_10000_stored_jobs_get_correct_answers_in_flat_memory(
    loaded: tuple[Server, list[str]],
) -> None:
    server, stored = loaded
    assert len(set(all_job_ids(server.address))) == STORED
    rss: list[int] = []
    rounds: list[Calls] = []
    for round_ in range(ROUNDS):
        calls = run_round(
            server.address, stored, clients=CLIENTS, submits=SUBMITS, reads=READS, seed=round_
        )
        assert not calls.errors, calls.errors
        rounds.append(calls)
        rss.append(rss_bytes(server.process.pid))

    submitted = [job_id for calls in rounds for job_id in calls.submitted]
    assert len(set(submitted)) == ROUNDS * CLIENTS * SUBMITS
    for calls in rounds:
        assert len(calls.latencies["GetJob"]) == CLIENTS * SUBMITS * READS
        for job_id, job in calls.results.items():
            assert job.state == pb.JOB_STATE_SUCCEEDED, (job_id, job.error)
            assert job.result.bad_beat.hands == 2_000, job_id
        assert set(calls.results) == set(calls.submitted)
        for job_id, job in calls.read.items():
            assert job.id == job_id and job.state == pb.JOB_STATE_SUCCEEDED
            assert job.result.bad_beat.hands == 2_000
    assert set(all_job_ids(server.address)) == set(stored) | set(submitted)

    warm, *measured = rss
    assert max(measured) - warm < GROWTH_BOUND, [r // 2**20 for r in rss]
    steps = [b - a for a, b in itertools.pairwise(rss[1:])]
    assert steps[-1] < GROWTH_BOUND // 4, [r // 2**20 for r in rss]
    assert "Traceback" not in server.log()


def test_the_store_was_filled_with_finished_jobs_the_server_reads(
    loaded: tuple[Server, list[str]], tmp_path: Path
) -> None:
    """The direct fill gives jobs the server serves as its own: a copy reads the same."""
    import grpc

    from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc

    server, stored = loaded
    with grpc.insecure_channel(server.address) as channel:
        stub = pb_grpc.JobServiceStub(channel)
        first = stub.GetJob(pb.GetJobRequest(id=stored[0]), timeout=30).job
        last = stub.GetJob(pb.GetJobRequest(id=stored[-1]), timeout=30).job
    assert first.state == last.state == pb.JOB_STATE_SUCCEEDED
    assert first.spec == last.spec and first.result == last.result
    assert first.result.bad_beat.hands == 2_000
