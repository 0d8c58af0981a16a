"""Before the server starts: its port checks, and a ready file that appears whole or not at all."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from service import server
from service.server import StartupError, _check_port_free, write_ready_file


def test_a_reader_never_sees_half_a_ready_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ready file was written in place: a reader polling for it could read half of it.
    Now the whole file is written aside and renamed into place in one step, so at the moment
    the name appears its content is complete; until then there is no file at all."""
    target = tmp_path / "server.ready"
    ready = {"address": "127.0.0.1:5000", "metrics": "127.0.0.1:5001", "pid": 42}
    seen: list[bool] = []
    real_replace = os.replace

    def replace(source: str | os.PathLike[str], destination: str | os.PathLike[str]) -> None:
        seen.append(target.exists())  # the moment before the name appears
        assert json.loads(Path(source).read_text()) == ready
        real_replace(source, destination)

    monkeypatch.setattr(server.os, "replace", replace)
    write_ready_file(target, ready)
    assert seen == [False]
    assert json.loads(target.read_text()) == ready
    assert [p.name for p in tmp_path.iterdir()] == ["server.ready"]


def test_a_port_left_in_time_wait_is_free_and_a_listening_one_is_not() -> None:
    """The port probe refused a port whose only remains were closing connections (TIME_WAIT,
    after a restart or a Prometheus scrape), where grpc itself binds without trouble."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = listener.accept()
    with pytest.raises(StartupError, match=f"--listen 127.0.0.1:{port}: Address already in use"):
        _check_port_free("127.0.0.1", port, "--listen")
    accepted.close()  # the server's side closes first: its port is left in TIME_WAIT
    client.close()
    listener.close()
    _check_port_free("127.0.0.1", port, "--listen")


def test_an_ipv6_literal_is_probed_without_its_brackets() -> None:
    """`--listen [::1]:PORT` was refused as "cannot resolve the host"."""
    listener = socket.socket(socket.AF_INET6)
    listener.bind(("::1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    with pytest.raises(StartupError, match=r"\[::1\]:\d+: Address already in use"):
        _check_port_free("[::1]", port, "--listen")
    listener.close()
    _check_port_free("[::1]", port, "--listen")
