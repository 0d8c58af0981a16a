"""A real `cardroom serve` with bearer tokens and mutual TLS on 127.0.0.1: who gets a
connection and a call, namespaces (another client's job is NOT_FOUND), the limits per
client and on messages, the CLI with a token and certificates, metrics that show no job's
contents, and the settings a server refuses to start with."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.api.cardroom.v1 import game_service_pb2 as game_pb
from service.api.cardroom.v1 import game_service_pb2_grpc as game_pb_grpc
from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.auth import mint
from service.security import TlsFiles
from service.server import ServerConfig, StartupError, serve
from tests.certs import Authority, Pair
from tests.harness import REPO, Server, cardroom, require_tool

pytestmark = pytest.mark.slow

SEED = 48_151_623  # a seed no metric could show by chance
LONG = pb.JobSpec(trials=1_000_000_000, seed=SEED, shard_size=2_000_000)
LONG.bad_beat.table.players = 6


@dataclass(frozen=True)
class Setup:
    server: Server
    ca: Pair
    client: Pair
    stranger: Pair  # a client certificate of another CA
    tokens: dict[str, str]  # namespace -> token
    key_ids: list[str]
    tokens_file: Path


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    root = tmp_path_factory.mktemp("auth")
    authority = Authority(root, "ca")
    server_pair = authority.issue("server", server=True)
    client = authority.issue("client", server=False)
    stranger = Authority(root, "other-ca").issue("stranger", server=False)
    tokens, lines, key_ids = {}, [], []
    for namespace, jobs in (("alice", 2), ("bob", None)):
        token, entry = mint(namespace, jobs)
        tokens[namespace] = token
        lines.append(entry.line())
        key_ids.append(entry.key_id)
    tokens_file = root / "tokens"
    tokens_file.write_text("\n".join(lines) + "\n")
    extra = (
        *("--tokens", str(tokens_file)),
        *("--tls-cert", str(server_pair.cert), "--tls-key", str(server_pair.key)),
        *("--tls-client-ca", str(authority.pair.cert)),
        *("--max-trials", "2000000000", "--max-watches", "2"),
        *("--max-message-bytes", "100000"),
    )
    server = Server(root / "data", workers=1, extra=extra)
    try:
        yield Setup(server, authority.pair, client, stranger, tokens, key_ids, tokens_file)
    finally:
        server.stop()


def _credentials(setup: Setup, pair: Pair | None) -> grpc.ChannelCredentials:
    return grpc.ssl_channel_credentials(
        setup.ca.cert.read_bytes(),
        None if pair is None else pair.key.read_bytes(),
        None if pair is None else pair.cert.read_bytes(),
    )


@pytest.fixture(scope="module")
def channel(setup: Setup) -> Iterator[grpc.Channel]:
    with grpc.secure_channel(setup.server.address, _credentials(setup, setup.client)) as opened:
        yield opened


@pytest.fixture(scope="module")
def stub(channel: grpc.Channel) -> pb_grpc.JobServiceStub:
    return pb_grpc.JobServiceStub(channel)


def _as(setup: Setup, namespace: str) -> tuple[tuple[str, str]]:
    return (("authorization", f"Bearer {setup.tokens[namespace]}"),)


def _refused(call: object, request: object, **kwargs: object) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call(request, timeout=60, **kwargs)  # type: ignore[operator]
    return caught.value


def test_only_clients_with_a_certificate_of_the_ca_connect(setup: Setup) -> None:
    for pair in (None, setup.stranger):
        credentials = _credentials(setup, pair)
        with (
            grpc.secure_channel(setup.server.address, credentials) as refused,
            pytest.raises(grpc.FutureTimeoutError),
        ):
            grpc.channel_ready_future(refused).result(timeout=2)
    with grpc.secure_channel(setup.server.address, _credentials(setup, setup.client)) as admitted:
        check = health_pb2_grpc.HealthStub(admitted).Check(health_pb2.HealthCheckRequest())
        assert check.status == health_pb2.HealthCheckResponse.SERVING  # no token needed


def test_every_other_call_needs_a_token(setup: Setup, channel: grpc.Channel) -> None:
    jobs = pb_grpc.JobServiceStub(channel)
    games = game_pb_grpc.GameServiceStub(channel)
    for call, request in (
        (jobs.ListJobs, pb.ListJobsRequest()),
        (jobs.GetJob, pb.GetJobRequest(id="job-ffffffffffff")),
        (jobs.SubmitJob, pb.SubmitJobRequest(spec=LONG)),
        (games.ListGames, game_pb.ListGamesRequest()),
    ):
        error = _refused(call, request)
        assert error.code() == grpc.StatusCode.UNAUTHENTICATED
        assert "authorization: this server needs a token" in (error.details() or "")
        fake = (("authorization", "Bearer cardroom.0123456789ab." + "A" * 43),)
        assert _refused(call, request, metadata=fake).code() == grpc.StatusCode.UNAUTHENTICATED
    assert games.ListGames(game_pb.ListGamesRequest(), metadata=_as(setup, "bob")).games


def test_a_client_sees_and_cancels_only_its_own_jobs(
    setup: Setup, stub: pb_grpc.JobServiceStub
) -> None:
    alice, bob = _as(setup, "alice"), _as(setup, "bob")
    job = stub.SubmitJob(pb.SubmitJobRequest(spec=LONG), metadata=alice).job
    try:
        for call, request in (
            (stub.GetJob, pb.GetJobRequest(id=job.id)),
            (stub.CancelJob, pb.CancelJobRequest(id=job.id)),
        ):
            error = _refused(call, request, metadata=bob)
            assert error.code() == grpc.StatusCode.NOT_FOUND
            assert error.details() == f"job '{job.id}' not found"  # as for an id never issued
        with pytest.raises(grpc.RpcError) as watched:
            next(iter(stub.WatchJob(pb.WatchJobRequest(id=job.id), metadata=bob, timeout=60)))
        assert watched.value.code() == grpc.StatusCode.NOT_FOUND
        listed = stub.ListJobs(pb.ListJobsRequest(page_size=1000), metadata=bob).jobs
        assert job.id not in {j.id for j in listed}
        mine = stub.ListJobs(pb.ListJobsRequest(page_size=1000), metadata=alice).jobs
        assert job.id in {j.id for j in mine}
        seen = stub.GetJob(pb.GetJobRequest(id=job.id), metadata=alice).job
        assert seen.state != pb.JOB_STATE_CANCELLED  # bob's cancel changed nothing
    finally:
        stub.CancelJob(pb.CancelJobRequest(id=job.id), metadata=alice)


def test_jobs_in_flight_are_limited_per_client(setup: Setup, stub: pb_grpc.JobServiceStub) -> None:
    """alice's token allows her two jobs queued or running (jobs=2); bob has the server's
    default; a cancelled job frees its place."""
    alice, bob = _as(setup, "alice"), _as(setup, "bob")
    submit = pb.SubmitJobRequest(spec=LONG)
    first = stub.SubmitJob(submit, metadata=alice).job
    second = stub.SubmitJob(submit, metadata=alice).job
    others = [stub.SubmitJob(submit, metadata=bob).job for _ in range(3)]
    try:
        error = _refused(stub.SubmitJob, submit, metadata=alice)
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert error.details() == (
            "jobs in flight: namespace alice has 2 jobs queued or running, the most this "
            "server allows one client (2); wait for one to end or cancel one"
        )
        stub.CancelJob(pb.CancelJobRequest(id=first.id), metadata=alice)
        third = stub.SubmitJob(submit, metadata=alice).job
        stub.CancelJob(pb.CancelJobRequest(id=third.id), metadata=alice)
    finally:
        stub.CancelJob(pb.CancelJobRequest(id=second.id), metadata=alice)
        for job in others:
            stub.CancelJob(pb.CancelJobRequest(id=job.id), metadata=bob)


def test_watches_and_message_sizes_are_limited(setup: Setup, channel: grpc.Channel) -> None:
    alice = _as(setup, "alice")
    stub = pb_grpc.JobServiceStub(channel)
    job = stub.SubmitJob(pb.SubmitJobRequest(spec=LONG), metadata=alice).job
    request = pb.WatchJobRequest(id=job.id)
    try:
        streams = [stub.WatchJob(request, metadata=alice, timeout=120) for _ in range(2)]
        for stream in streams:
            assert next(stream).job.id == job.id  # both open, held by the server
        with pytest.raises(grpc.RpcError) as third:
            next(stub.WatchJob(request, metadata=alice, timeout=60))
        assert third.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert (third.value.details() or "").startswith("watches: namespace alice has 2")
        other = stub.WatchJob(request, metadata=_as(setup, "bob"), timeout=60)
        with pytest.raises(grpc.RpcError) as not_hers:  # bob's own streams: his own count
            next(other)
        assert not_hers.value.code() == grpc.StatusCode.NOT_FOUND
        streams[0].cancel()
        deadline = time.monotonic() + 30
        while True:  # the server lets go of a cancelled stream soon after
            reopened = stub.WatchJob(request, metadata=alice, timeout=60)
            try:
                assert next(reopened).job.id == job.id
                reopened.cancel()
                break
            except grpc.RpcError as err:
                assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert time.monotonic() < deadline, "a cancelled watch still counts"
                time.sleep(0.2)
        streams[1].cancel()
    finally:
        stub.CancelJob(pb.CancelJobRequest(id=job.id), metadata=alice)
    games = game_pb_grpc.GameServiceStub(channel)
    too_big = game_pb.CheckGameRequest(text="#" * 150_000)
    error = _refused(games.CheckGame, too_big, metadata=alice)
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "larger than max" in (error.details() or "")


def test_the_cli_sends_the_token_and_the_certificates(setup: Setup, tmp_path: Path) -> None:
    tls = (
        *("--tls-ca", str(setup.ca.cert)),
        *("--tls-cert", str(setup.client.cert), "--tls-key", str(setup.client.key)),
    )
    address = setup.server.address
    token_file = tmp_path / "token"
    token_file.write_text(setup.tokens["bob"] + "\n")
    done = cardroom("list", "--address", address, *tls, "--token-file", str(token_file))
    assert done.returncode == 0 and done.stdout.startswith(("ID ", "no jobs")), done.stderr
    anonymous = cardroom("--address", address, *tls, "list")
    assert anonymous.returncode == 1 and "Traceback" not in anonymous.stderr
    assert anonymous.stderr.strip() == (
        "cardroom: UNAUTHENTICATED: authorization: this server needs a token: send "
        "'authorization: Bearer TOKEN' (the cardroom CLI sends $CARDROOM_TOKEN or --token-file)"
    )


def test_buf_curl_sends_the_token_over_mutual_tls(setup: Setup) -> None:
    """A client that is not cardroom's: buf curl, through server reflection, which needs
    the token too."""
    buf = require_tool("buf", "CARDROOM_BUF", REPO / ".tools" / "node_modules" / ".bin" / "buf")
    command = [
        buf, "curl", "--protocol", "grpc",
        "--cacert", str(setup.ca.cert),
        "--cert", str(setup.client.cert), "--key", str(setup.client.key),
        "-d", '{"pageSize": 5}',
        f"https://{setup.server.address}/cardroom.v1.JobService/ListJobs",
    ]  # fmt: skip
    token = ["-H", f"Authorization: Bearer {setup.tokens['bob']}"]
    reflect = ["--reflect", "--reflect-header", "*"]  # the token on reflection's calls too
    done = subprocess.run(
        [*command[:2], *token, *reflect, *command[2:]], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout or "{}").keys() <= {"jobs", "nextPageToken"}
    # Without a token (the schema from the proto files, as reflection needs one too):
    schema = ["--schema", str(REPO / "proto")]
    refused = subprocess.run(
        [*command[:2], *schema, *command[2:]], capture_output=True, text=True, timeout=60
    )
    assert refused.returncode != 0 and "unauthenticated" in refused.stderr, refused.stderr


def test_metrics_show_no_job_contents_nor_tokens(
    setup: Setup, stub: pb_grpc.JobServiceStub
) -> None:
    alice = _as(setup, "alice")
    job = stub.SubmitJob(pb.SubmitJobRequest(spec=LONG), metadata=alice).job
    stub.CancelJob(pb.CancelJobRequest(id=job.id), metadata=alice)
    url = f"http://{setup.server.metrics}/metrics"
    with urllib.request.urlopen(url, timeout=10) as response:
        text = response.read().decode()
    assert 'cardroom_grpc_requests_total{code="UNAUTHENTICATED",method="ListJobs"}' in text
    assert 'cardroom_grpc_requests_total{code="OK",method="SubmitJob"}' in text
    secrets = [job.id, job.id.removeprefix("job-"), str(SEED)]
    for secret in [*secrets, *setup.key_ids, *setup.tokens.values()]:
        assert secret not in text, secret
    # A namespace (the operator's name for a client, not a secret) shows only as the
    # namespace label of the queue's metrics, which the fair sharing is watched by.
    for line in text.splitlines():
        if "alice" in line or "bob" in line:
            assert line.startswith("cardroom_queue_"), line
            assert 'namespace="alice"' in line or 'namespace="bob"' in line, line


def _refusal(config: ServerConfig) -> str:
    with pytest.raises(StartupError) as refused:
        asyncio.run(serve(config))
    return str(refused.value)


def test_settings_that_would_expose_the_service_are_refused(tmp_path: Path) -> None:
    """Before anything starts (no data directory, no Ray): an address other hosts reach
    without tokens, a tokens file that does not read, TLS files that do not fit."""
    data = tmp_path / "data"
    message = _refusal(ServerConfig(listen="0.0.0.0:0", data_dir=data))
    assert message.startswith("--listen 0.0.0.0: not a loopback address, and without --tokens")
    bad = tmp_path / "tokens"
    bad.write_text("# one bad line\n0123456789ab alice md5:00\n")
    message = _refusal(ServerConfig(listen="127.0.0.1:0", data_dir=data, tokens=bad))
    assert message.startswith(f"--tokens {bad}: line 2: hash: must be sha256:SALT:DIGEST")
    absent = tmp_path / "absent"
    message = _refusal(ServerConfig(data_dir=data, tls=TlsFiles(absent, absent)))
    assert message == f"--tls-cert {absent}: cannot read it: No such file or directory"
    assert not data.exists()
    done = cardroom("serve", "--listen", "0.0.0.0:0", "--data-dir", str(data), timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .startswith("cardroom: cannot start the server: --listen 0.0.0.0: not a loopback address")
    )
