"""A revoked token ends its open streams: its line removed from the tokens file on disk,
a stream of that token ends UNAUTHENTICATED within seconds — one waiting silently for its
next message too — while the streams of the tokens still in the file go on; and over a
real server, a WatchJob of a running job."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
from prometheus_client import CollectorRegistry

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.api.cardroom.v1 import job_service_pb2_grpc as pb_grpc
from service.auth import TokensFile, mint
from service.interceptors import REVOKED, caller, server_interceptors
from service.metrics import ServiceMetrics
from tests.harness import Server

# The bound the tests allow for a revocation to end a stream: the file is looked at every
# two seconds and a waiting stream checks every second; generous for a loaded machine.
WITHIN = 15.0


def _write_tokens(path: Path, *lines: str) -> None:
    # Another size each time, so the change is seen whatever the file system's time stamps.
    path.write_text("".join(f"{line}\n" for line in lines))


def test_a_silent_stream_of_a_revoked_token_ends_and_others_go_on(tmp_path: Path) -> None:
    alice, alice_entry = mint("alice")
    bob, bob_entry = mint("bob")
    path = tmp_path / "tokens.txt"
    _write_tokens(path, alice_entry.line(), bob_entry.line())
    cleaned: list[str] = []

    async def quiet(request: bytes, context: Any) -> AsyncIterator[bytes]:
        """One message, then nothing for an hour, as a WatchJob of a slow job."""
        namespace = caller(context).namespace
        try:
            yield namespace.encode()
            await asyncio.sleep(3600)
        finally:
            cleaned.append(namespace)  # the handler's own clean-up runs (a watch slot freed)

    async def main() -> None:
        metrics = ServiceMetrics(CollectorRegistry(), list)
        server = grpc.aio.server(interceptors=server_interceptors(metrics, TokensFile(path), 60))
        handlers: dict[str, Any] = {"Quiet": grpc.unary_stream_rpc_method_handler(quiet)}
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler("test.Probe", handlers),)
        )
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                method: Any = channel.unary_stream("/test.Probe/Quiet")
                streams = {
                    who: method(b"", metadata=(("authorization", f"Bearer {token}"),))
                    for who, token in (("alice", alice), ("bob", bob))
                }
                for who, stream in streams.items():
                    assert await stream.read() == who.encode()
                _write_tokens(path, alice_entry.line())  # bob revoked
                revoked = time.monotonic()
                try:
                    ended = await asyncio.wait_for(streams["bob"].read(), WITHIN)
                except grpc.aio.AioRpcError as err:
                    assert err.code() == grpc.StatusCode.UNAUTHENTICATED
                    assert err.details() == REVOKED
                else:
                    raise AssertionError(f"bob's stream gave {ended!r}, not UNAUTHENTICATED")
                took = time.monotonic() - revoked
                # Alice's stream, checked as often, is still open a while later.
                await asyncio.sleep(3)
                assert not streams["alice"].done()
                assert cleaned == ["bob"], cleaned
                streams["alice"].cancel()
                # A new call of the revoked token is refused as any unknown one.
                again = method(b"", metadata=(("authorization", f"Bearer {bob}"),))
                assert await again.code() == grpc.StatusCode.UNAUTHENTICATED
                print(f"revoked stream ended after {took:.1f} s")
        finally:
            await server.stop(None)

    asyncio.run(main())


def test_revoking_a_token_ends_its_open_watch_on_a_real_server(tmp_path: Path) -> None:
    alice, alice_entry = mint("alice")
    bob, bob_entry = mint("bob")
    path = tmp_path / "tokens.txt"
    _write_tokens(path, alice_entry.line(), bob_entry.line())
    server = Server(tmp_path / "data", workers=1, extra=("--tokens", str(path)))
    try:
        as_bob = (("authorization", f"Bearer {bob}"),)
        with grpc.insecure_channel(server.address) as channel:
            stub = pb_grpc.JobServiceStub(channel)
            spec = pb.JobSpec(trials=10**10, seed=4, shard_size=100_000)
            spec.bad_beat.table.players = 6
            job = stub.SubmitJob(pb.SubmitJobRequest(spec=spec), metadata=as_bob, timeout=60).job
            stream = stub.WatchJob(pb.WatchJobRequest(id=job.id), metadata=as_bob)
            received: list[pb.WatchJobResponse] = []
            ended: list[grpc.RpcError] = []
            first = threading.Event()

            def follow() -> None:
                try:
                    for message in stream:
                        received.append(message)
                        first.set()
                except grpc.RpcError as err:
                    ended.append(err)
                first.set()

            reader = threading.Thread(target=follow, daemon=True)
            reader.start()
            assert first.wait(60) and received, server.log()
            _write_tokens(path, alice_entry.line())  # bob revoked
            reader.join(WITHIN)
            assert not reader.is_alive(), "the revoked token's watch is still open"
            assert [e.code() for e in ended] == [grpc.StatusCode.UNAUTHENTICATED]
            assert ended[0].details() == REVOKED
            # The job itself runs on (a revoked client's jobs are not cancelled).
            as_admin = (("authorization", f"Bearer {alice}"),)
            listed = stub.ListJobs(pb.ListJobsRequest(), metadata=as_admin, timeout=60)
            assert list(listed.jobs) == []  # alice sees none of bob's
    finally:
        server.stop()
