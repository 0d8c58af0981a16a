"""The server's interceptors and TLS over real gRPC on 127.0.0.1, with servers started in
this process: bearer tokens (and the health service without one), a tokens file read again
when it changes, the time limit of a call, the request metrics, and TLS credentials."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from prometheus_client import CollectorRegistry

from service import auth
from service.api.cardroom.v1 import game_service_pb2 as game_pb
from service.api.cardroom.v1 import game_service_pb2_grpc as game_pb_grpc
from service.auth import TokensError, TokensFile, mint, parse_tokens
from service.interceptors import caller, server_interceptors
from service.metrics import ServiceMetrics
from service.security import (
    SecurityError,
    TlsFiles,
    check_exposure,
    is_loopback,
    server_credentials,
)
from service.server import GameService
from tests.certs import Authority

WHO = "/test.Probe/Who"
SLOW = "/test.Probe/Slow"
TICKS = "/test.Probe/Ticks"


async def _who(request: bytes, context: Any) -> bytes:
    return caller(context).namespace.encode()


async def _slow(request: bytes, context: Any) -> bytes:
    await asyncio.sleep(30)
    return b"late"


async def _ticks(request: bytes, context: Any) -> AsyncIterator[bytes]:
    for tick in range(3):
        await asyncio.sleep(0.4)
        yield f"{caller(context).namespace}:{tick}".encode()


def _probe_handlers() -> grpc.GenericRpcHandler:
    return grpc.method_handlers_generic_handler(
        "test.Probe",
        {
            "Who": grpc.unary_unary_rpc_method_handler(_who),
            "Slow": grpc.unary_unary_rpc_method_handler(_slow),
            "Ticks": grpc.unary_stream_rpc_method_handler(_ticks),
        },
    )


@contextlib.asynccontextmanager
async def serving(
    tokens: TokensFile | None,
    *,
    call_timeout: float = 60.0,
    credentials: grpc.ServerCredentials | None = None,
    registry: CollectorRegistry | None = None,
) -> AsyncIterator[str]:
    """A grpc.aio server on 127.0.0.1 with the service's interceptors, the probe methods,
    GameService and health; stopped on the way out."""
    metrics = ServiceMetrics(registry or CollectorRegistry(), list)
    server = grpc.aio.server(interceptors=server_interceptors(metrics, tokens, call_timeout))
    server.add_generic_rpc_handlers((_probe_handlers(),))
    game_pb_grpc.add_GameServiceServicer_to_server(GameService(), server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    if credentials is None:
        port = server.add_insecure_port("127.0.0.1:0")
    else:
        port = server.add_secure_port("127.0.0.1:0", credentials)
    await server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        await server.stop(None)


def _metadata(token: str | None) -> Sequence[tuple[str, str]] | None:
    return None if token is None else (("authorization", f"Bearer {token}"),)


async def _call(
    channel: grpc.aio.Channel, method: str, token: str | None, timeout: float = 30
) -> tuple[grpc.StatusCode, str]:
    """The code and the details (or the response, for OK) of a unary call."""
    try:
        response = await channel.unary_unary(method)(
            b"", metadata=_metadata(token), timeout=timeout
        )
    except grpc.aio.AioRpcError as err:
        return err.code(), err.details() or ""
    return grpc.StatusCode.OK, response.decode()


def _tokens_file(tmp_path: Path, *namespaces: str) -> tuple[Path, list[str]]:
    tokens, lines = [], []
    for namespace in namespaces:
        token, entry = mint(namespace)
        tokens.append(token)
        lines.append(entry.line())
    path = tmp_path / "tokens"
    path.write_text("# the test's tokens\n" + "\n".join(lines) + "\n")
    return path, tokens


def test_calls_need_a_token_of_the_file_and_see_its_namespace(tmp_path: Path) -> None:
    path, (alice, bob) = _tokens_file(tmp_path, "alice", "bob")
    forged = alice[:-4] + ("AAAA" if not alice.endswith("AAAA") else "BBBB")
    registry = CollectorRegistry()

    async def main() -> None:
        async with (
            serving(TokensFile(path), registry=registry) as address,
            grpc.aio.insecure_channel(address) as channel,
        ):
            assert await _call(channel, WHO, alice) == (grpc.StatusCode.OK, "alice")
            assert await _call(channel, WHO, bob) == (grpc.StatusCode.OK, "bob")
            code, details = await _call(channel, WHO, None)
            assert code == grpc.StatusCode.UNAUTHENTICATED
            assert details.startswith("authorization: this server needs a token")
            for bad in (forged, "cardroom.nothex.x", "x" * 4_000, alice.upper()):
                code, details = await _call(channel, WHO, bad)
                assert code == grpc.StatusCode.UNAUTHENTICATED
                assert details == "authorization: the token is not valid on this server"
                assert bad not in details
            # Headers past grpc's limit on metadata are refused before any interceptor.
            code, _ = await _call(channel, WHO, "x" * 100_000)
            assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
            # Another scheme, or the token without one, is no bearer token.
            for value in (f"Basic {alice}", alice):
                try:
                    await channel.unary_unary(WHO)(b"", metadata=(("authorization", value),))
                except grpc.aio.AioRpcError as err:
                    assert err.code() == grpc.StatusCode.UNAUTHENTICATED
                else:
                    raise AssertionError(f"{value[:12]}… was admitted")
            # A streaming call is refused the same way, and admitted the same way.
            stream = channel.unary_stream(TICKS)(b"", metadata=_metadata(None))
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                async for _ in stream:
                    pass
            assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
            ticks = channel.unary_stream(TICKS)(b"", metadata=_metadata(bob))
            assert [t async for t in ticks] == [b"bob:0", b"bob:1", b"bob:2"]
            # The generated services too; health needs no token (probes carry none).
            games = game_pb_grpc.GameServiceStub(channel)
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await games.ListGames(game_pb.ListGamesRequest())
            assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
            listed = await games.ListGames(game_pb.ListGamesRequest(), metadata=_metadata(bob))
            assert len(listed.games) > 10
            check = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
            assert check.status == health_pb2.HealthCheckResponse.SERVING
            # Bytes that are no request message are never read without a token.
            raw = channel.unary_unary("/cardroom.v1.GameService/GetGame")
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await raw(b"\xff\xff\xff")
            assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
            with pytest.raises(grpc.aio.AioRpcError) as malformed:
                await raw(b"\xff\xff\xff", metadata=_metadata(alice))
            assert malformed.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            # A method the server lacks is not counted: its name is the caller's.
            assert (await _call(channel, "/x.Y/Z123", alice))[0] == (grpc.StatusCode.UNIMPLEMENTED)

    asyncio.run(main())
    sample = registry.get_sample_value
    assert sample("cardroom_grpc_requests_total", {"method": "Who", "code": "OK"}) == 2
    refused = sample("cardroom_grpc_requests_total", {"method": "Who", "code": "UNAUTHENTICATED"})
    assert refused == 7
    assert sample("cardroom_grpc_requests_total", {"method": "Ticks", "code": "OK"}) == 1
    assert sample("cardroom_grpc_requests_total", {"method": "GetGame", "code": "INVALID_ARGUMENT"})
    names = {s.labels.get("method") for m in registry.collect() for s in m.samples}
    assert "Z123" not in names


def test_a_server_without_tokens_serves_one_open_namespace(tmp_path: Path) -> None:
    async def main() -> None:
        async with serving(None) as address, grpc.aio.insecure_channel(address) as channel:
            assert await _call(channel, WHO, None) == (grpc.StatusCode.OK, "default")
            # A token is not checked by a server that has none: the open namespace still.
            assert await _call(channel, WHO, "anything") == (grpc.StatusCode.OK, "default")

    asyncio.run(main())


def test_the_tokens_file_is_read_again_when_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A token added is admitted and one removed is refused, without a restart; a file
    rewritten with a bad line keeps the tokens read before."""
    monkeypatch.setattr(auth, "RELOAD_SECONDS", 0.0)
    path, (alice,) = _tokens_file(tmp_path, "alice")
    carol, carol_entry = mint("carol")
    tokens = TokensFile(path)

    async def main() -> None:
        async with serving(tokens) as address, grpc.aio.insecure_channel(address) as channel:
            assert (await _call(channel, WHO, carol))[0] == grpc.StatusCode.UNAUTHENTICATED
            path.write_text(path.read_text() + carol_entry.line() + "\n")
            assert await _call(channel, WHO, carol) == (grpc.StatusCode.OK, "carol")
            path.write_text(carol_entry.line() + "\n")  # alice's line removed
            assert (await _call(channel, WHO, alice))[0] == grpc.StatusCode.UNAUTHENTICATED
            path.write_text("not a line of tokens\n")
            assert await _call(channel, WHO, carol) == (grpc.StatusCode.OK, "carol")

    asyncio.run(main())


def test_a_unary_call_is_held_to_the_call_timeout_and_a_stream_is_not() -> None:
    async def main() -> None:
        async with (
            serving(None, call_timeout=1.0) as address,
            grpc.aio.insecure_channel(address) as channel,
        ):
            code, details = await _call(channel, SLOW, None)
            assert code == grpc.StatusCode.DEADLINE_EXCEEDED
            assert details == (
                "the call ran longer than this server allows one call (1 s, --call-timeout)"
            )
            ticks = channel.unary_stream(TICKS)(b"")  # 1.2 s in all, past the limit
            assert len([t async for t in ticks]) == 3
            assert await _call(channel, WHO, None) == (grpc.StatusCode.OK, "default")

    asyncio.run(main())


def test_tls_with_the_servers_certificate(tmp_path: Path) -> None:
    """TLS credentials as `cardroom serve --tls-cert/--tls-key` makes them: a client that
    trusts the CA gets through; a plaintext client, or one trusting another CA, does not."""
    authority = Authority(tmp_path, "ca")
    other = Authority(tmp_path, "other-ca")
    pair = authority.issue("server", server=True)
    credentials = server_credentials(TlsFiles(pair.cert, pair.key))
    assert credentials is not None

    async def reaches(channel: grpc.aio.Channel, wait: float = 1.5) -> bool:
        try:
            await asyncio.wait_for(channel.channel_ready(), timeout=wait)
        except TimeoutError:
            return False
        return await _call(channel, WHO, None) == (grpc.StatusCode.OK, "default")

    async def main() -> None:
        async with serving(None, credentials=credentials) as address:
            trusting = grpc.ssl_channel_credentials(authority.pair.cert.read_bytes())
            async with grpc.aio.secure_channel(address, trusting) as channel:
                assert await reaches(channel, wait=30)
            distrusting = grpc.ssl_channel_credentials(other.pair.cert.read_bytes())
            async with grpc.aio.secure_channel(address, distrusting) as channel:
                assert not await reaches(channel)
            async with grpc.aio.insecure_channel(address) as channel:
                assert not await reaches(channel)

    asyncio.run(main())


def test_tls_settings_that_cannot_work_are_refused_naming_the_flag(tmp_path: Path) -> None:
    authority = Authority(tmp_path, "ca")
    first, second = authority.issue("one", server=True), authority.issue("two", server=True)
    cases = {
        "--tls-cert and --tls-key go together": TlsFiles(first.cert, None),
        "--tls-client-ca needs --tls-cert and --tls-key": TlsFiles(None, None, first.cert),
        "not a PEM certificate and its private key": TlsFiles(first.cert, second.key),
        f"--tls-key {tmp_path / 'absent'}: cannot read it": TlsFiles(
            first.cert, tmp_path / "absent"
        ),
        "--tls-client-ca": TlsFiles(first.cert, first.key, first.key),
    }
    for phrase, files in cases.items():
        with pytest.raises(SecurityError) as refused:
            server_credentials(files)
        assert phrase in str(refused.value)


def test_only_loopback_may_be_served_without_tokens() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("127.3.0.9") and is_loopback("[::1]")
    assert is_loopback("localhost")
    for host in ("0.0.0.0", "[::]", "", "10.0.0.1", "192.168.1.4"):
        assert not is_loopback(host), host
        with pytest.raises(SecurityError) as refused:
            check_exposure(host, tokens=False, client_ca=False, insecure=False)
        assert "give --tokens FILE" in str(refused.value)
        check_exposure(host, tokens=True, client_ca=False, insecure=False)
        check_exposure(host, tokens=False, client_ca=True, insecure=False)
        check_exposure(host, tokens=False, client_ca=False, insecure=True)


def test_tokens_files_are_read_strictly(tmp_path: Path) -> None:
    token, entry = mint("alice", 3)
    line = entry.line()
    assert token not in line and line.endswith(" jobs=3")
    assert token.startswith(f"cardroom.{entry.key_id}.") and len(token) == 9 + 12 + 1 + 43
    assert parse_tokens(f"# comment\n\n{line}  # trailing\n", "t")[entry.key_id] == entry
    bad = {
        "": "t: holds no tokens",
        f"{line}\n{line}": f"t: line 2: key id {entry.key_id} given twice (first on line 1)",
        line.replace(" alice ", " Alice "): "t: line 1: namespace: must be",
        line.replace("sha256:", "md5:"): "t: line 1: hash: must be sha256:SALT:DIGEST",
        line + " jobs=0": "t: line 1: jobs: given twice",
        line.replace(" jobs=3", " jobs=x"): "t: line 1: jobs: must be a whole number",
        line.replace(" jobs=3", " color=red"): "t: line 1: 'color=red': the only option",
        entry.key_id: "t: line 1: must be KEYID NAMESPACE",
    }
    for text, message in bad.items():
        with pytest.raises(TokensError) as refused:
            parse_tokens(text, "t")
        assert str(refused.value).startswith(message), (text, str(refused.value))
    with pytest.raises(TokensError, match="namespace: must be"):
        mint("-x")


def test_cardroom_token_prints_the_token_once_and_appends_its_hash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from service.cli import main

    path = tmp_path / "tokens.txt"
    assert main(["token", "alice", "--jobs", "3", "--file", str(path)]) == 0
    alice = capsys.readouterr().out.strip()
    assert main(["token", "bob", "--file", str(path)]) == 0
    bob = capsys.readouterr().out.strip()
    assert path.stat().st_mode & 0o777 == 0o600
    text = path.read_text()
    assert alice not in text and bob not in text and len(text.splitlines()) == 2
    entries = parse_tokens(text, str(path))
    assert auth.check(entries, alice) == auth.Principal("alice", alice.split(".")[1], 3)
    assert auth.check(entries, bob) == auth.Principal("bob", bob.split(".")[1], None)
    assert main(["token", "carol"]) == 0  # no file: the line on stderr, the token on stdout
    printed = capsys.readouterr()
    carol_line = printed.err.strip()
    assert auth.check(parse_tokens(carol_line, "stderr"), printed.out.strip()) is not None
    assert main(["token", "Carol", "--file", str(path)]) == 2
    assert "namespace: must be" in capsys.readouterr().err
    path.write_text(text + "garbage\n")  # a file that would not read is not added to
    assert main(["token", "dave", "--file", str(path)]) == 2
    assert "line 3: must be KEYID NAMESPACE" in capsys.readouterr().err
    assert path.read_text() == text + "garbage\n"
