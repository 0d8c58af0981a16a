"""The server's ready file appears whole or not at all."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from service import server
from service.server import write_ready_file


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
