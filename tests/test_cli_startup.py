"""What a ``cardroom`` command loads before it does anything: the commands that need no
engine load none of it.  Asserted on the modules a real process has imported, never on
time; and the choices written out for the parser, so that building it imports nothing,
held to the enums they stand for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# Imported by a command that runs no job, deals no hand and talks to no server, it would
# cost that command the start-up it does not need (numba alone is a third of a second).
HEAVY = ("numba", "numpy", "ray", "grpc", "matplotlib", "tqdm", "google.protobuf")
ENGINE = ("simulations.engine", "simulations.models", "simulations.phh", "service.kinds")

_PROBE = """
import contextlib, io, json, sys
from service.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = main(sys.argv[1:])
    except SystemExit as done:
        code = done.code
print(json.dumps({"code": code, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def _loaded(*args: str, cwd: Path = REPO) -> tuple[int, str, set[str]]:
    """Run ``cardroom ARGS`` in a fresh interpreter: its exit code, its stdout and the
    modules it had imported when it returned."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    return found["code"], found["out"], set(found["modules"])


def _heavy(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("list", "--help"),
        ("serve", "--help"),
        ("replay", "--help"),
        ("token", "alice"),
    ],
    ids=["help", "list-help", "serve-help", "replay-help", "token"],
)
def test_commands_without_a_job_load_no_engine_grpc_or_ray(args: tuple[str, ...]) -> None:
    code, out, modules = _loaded(*args)
    assert code == 0 and out, (code, out)
    assert _heavy(modules, HEAVY + ENGINE) == []
    # The probe sees imports at all: the command line's own modules are there.
    assert "service.cli" in modules and "argparse" in modules


def test_a_client_command_loads_grpc_but_no_engine(tmp_path: Path) -> None:
    """``cardroom list`` against an address where nothing listens: one line naming the
    address (no grpc call is even made), and neither numba nor the engine loaded."""
    import socket

    with socket.socket() as probe:  # a port nothing listens on: bound, never listening
        probe.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{probe.getsockname()[1]}"
        code, _, modules = _loaded("--address", address, "list")
    assert code == 1
    assert _heavy(modules, ("numba", "numpy", "ray", "matplotlib", *ENGINE)) == []


def test_the_check_can_fail() -> None:
    """The same probe on `games`, which lists the built-in games, finds the engine loaded:
    the assertion above is not vacuous."""
    code, out, modules = _loaded("games")
    assert code == 0 and out.startswith("CODE")
    assert "simulations.engine" in _heavy(modules, ENGINE)


def test_choices_written_for_the_parser_are_the_enums() -> None:
    from service import cli_phh, client
    from service.api.cardroom.v1 import job_service_pb2 as pb
    from simulations.engine.limits import IncompleteRaiseRule, ShortAllInRule
    from simulations.phh.options import Engine, HeadsUpBlinds, OddChips

    for written, enum in (
        (cli_phh.ODD_CHIPS, OddChips),
        (cli_phh.INCOMPLETE_RAISE, IncompleteRaiseRule),
        (cli_phh.SHORT_ALL_INS, ShortAllInRule),
        (cli_phh.HEADS_UP_BLINDS, HeadsUpBlinds),
        (cli_phh.ENGINES, Engine),
    ):
        assert list(written) == [rule.value for rule in enum], enum
    assert cli_phh.ODD_CHIPS[0] == OddChips.AUTO.value
    assert cli_phh.ENGINES[0] == Engine.AUTO.value
    states = {value: name.removeprefix("JOB_STATE_").lower() for name, value in
              pb.JobState.items()}  # fmt: skip
    assert states == client.STATE_NAMES
    assert {
        pb.JOB_STATE_SUCCEEDED,
        pb.JOB_STATE_FAILED,
        pb.JOB_STATE_CANCELLED,
    } == client.FINISHED
