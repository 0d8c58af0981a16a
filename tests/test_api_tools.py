"""The public API with tools from outside Python: buf (lint, and curl through reflection),
a real Prometheus server scraping the service, and the committed generated modules."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.api import generate
from tests.harness import REPO, Server, require_tool

pytestmark = pytest.mark.slow

TOOLS = REPO / ".tools"


def _buf() -> str:
    return require_tool("buf", "CARDROOM_BUF", TOOLS / "node_modules" / ".bin" / "buf")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("api") / "data", workers=1)
    try:
        yield running
    finally:
        running.stop()


def test_generated_modules_match_the_proto(tmp_path: Path) -> None:
    """The committed modules are what `python -m service.api.generate` writes today."""
    fresh = generate.generate(tmp_path)
    assert fresh, "nothing generated"
    for path in fresh:
        relative = path.relative_to(tmp_path)
        committed = REPO / relative
        assert committed.exists(), f"{relative} is not committed"
        assert committed.read_text() == path.read_text(), f"{relative} is stale: regenerate"


def test_buf_lint_passes() -> None:
    done = subprocess.run(
        [_buf(), "lint"], cwd=REPO / "proto", capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _buf_curl(server: Server, *args: str) -> subprocess.CompletedProcess[str]:
    command = [_buf(), "curl", "--protocol", "grpc", "--http2-prior-knowledge", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_buf_curl_lists_the_service_and_gets_a_job(server: Server, tmp_path: Path) -> None:
    """A non-Python client, through server reflection only."""
    listed = _buf_curl(server, "--list-services", f"http://{server.address}")
    assert listed.returncode == 0, listed.stderr
    assert "cardroom.v1.JobService" in listed.stdout.split()
    job = tmp_path / "job.toml"
    job.write_text('kind = "bad_beat"\nhands = 10_000\nseed = 5\nshard_size = 5_000\n')
    submitted = server.cli("submit", str(job))
    assert submitted.returncode == 0, submitted.stderr
    job_id = submitted.stdout.split()[-1]
    url = f"http://{server.address}/cardroom.v1.JobService/GetJob"
    got = _buf_curl(server, "-d", json.dumps({"id": job_id}), url)
    assert got.returncode == 0, got.stderr
    answer = json.loads(got.stdout)
    assert answer["job"]["id"] == job_id and answer["job"]["kind"] == "bad_beat"
    assert answer["job"]["spec"]["seed"] in ("5", 5)
    missing = _buf_curl(server, "-d", json.dumps({"id": "job-nope"}), url)
    assert missing.returncode != 0 and "not_found" in (missing.stdout + missing.stderr)


def test_buf_curl_lists_and_checks_games(server: Server) -> None:
    """GameService through server reflection only: a game file's text in, the game it
    defines out, or INVALID_ARGUMENT naming the field at fault."""
    listed = _buf_curl(server, "--list-services", f"http://{server.address}")
    assert "cardroom.v1.GameService" in listed.stdout.split(), listed.stderr
    url = f"http://{server.address}/cardroom.v1.GameService/CheckGame"
    text = (REPO / "examples" / "games" / "pineapple-omaha-eight.toml").read_text()
    got = _buf_curl(server, "-d", json.dumps({"text": text}), url)
    assert got.returncode == 0, got.stderr
    game = json.loads(got.stdout)["game"]
    assert game["summary"]["code"] == "PPINO/8" and "discard: discard 1" in game["phases"]
    bad = text.replace("[stakes]\n", "[stakes]\nsmall_bett = 3\n")
    refused = _buf_curl(server, "-d", json.dumps({"text": bad}), url)
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0 and "invalid_argument" in output, output
    assert "text: stakes.small_bett: is not a known setting" in output, output
    razz = _buf_curl(
        server, "-d", '{"code": "FR"}', f"http://{server.address}/cardroom.v1.GameService/GetGame"
    )
    assert razz.returncode == 0, razz.stderr
    assert json.loads(razz.stdout)["game"]["summary"]["code"] == "FR"


# Three players; the button (p3) and the small blind (p1) fold: the big blind wins the blinds.
FOLDED = """\
[defaults]
game = "NT"
starting_stacks = [1000, 1000, 1000]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
actions = ["d dh p1 AsKs", "d dh p2 QdQc", "d dh p3 7h7d", "p3 f", "p1 f"]

[[scenario]]
name = "folded to the big blind"
expect = { stacks = [995, 1005, 1000] }

[[scenario]]
name = "said to keep every chip"
expect = { stacks = [1000, 1000, 1000] }
"""


def test_buf_curl_lists_the_verify_service_and_verifies(server: Server) -> None:
    """VerifyService through server reflection only: a scenario file's text in as JSON, one
    result per scenario out (a failed expectation as expected against actual), and the exit
    status; a request without files is INVALID_ARGUMENT."""
    listed = _buf_curl(server, "--list-services", f"http://{server.address}")
    assert "cardroom.v1.VerifyService" in listed.stdout.split(), listed.stderr
    url = f"http://{server.address}/cardroom.v1.VerifyService/Verify"
    body = {"files": [{"name": "house/folded.toml", "text": FOLDED}]}
    got = _buf_curl(server, "-d", json.dumps(body), url)
    assert got.returncode == 0, got.stderr
    answer = json.loads(got.stdout)
    [report] = answer["files"]
    assert report["name"] == "house/folded.toml" and "error" not in report
    passed, failed = report["results"]
    assert (passed["name"], passed["outcome"]) == (
        "folded to the big blind",
        "SCENARIO_OUTCOME_PASSED",
    )
    assert failed["outcome"] == "SCENARIO_OUTCOME_FAILED"
    [difference] = failed["differences"]
    assert difference["field"].startswith("expect.stacks") and "1005" in difference["actual"]
    assert (answer["scenarios"], answer["passed"], answer["failed"]) == (2, 1, 1)
    assert answer["exitCode"] == 1
    refused = _buf_curl(server, "-d", "{}", url)
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0 and "invalid_argument" in output, output
    assert "files: at least one file is required" in output, output


def test_prometheus_scrapes_the_service(server: Server, tmp_path: Path) -> None:
    """A real Prometheus server scrapes /metrics; the test reads a cardroom metric back
    through Prometheus' HTTP API."""
    prometheus = require_tool("prometheus", "CARDROOM_PROMETHEUS")
    config = tmp_path / "prometheus.yml"
    config.write_text(
        "global:\n  scrape_interval: 1s\n"
        "scrape_configs:\n  - job_name: cardroom\n"
        f"    static_configs:\n      - targets: ['{server.metrics}']\n"
    )
    port = _free_port()
    process = subprocess.Popen(
        [
            prometheus,
            f"--config.file={config}",
            f"--storage.tsdb.path={tmp_path / 'tsdb'}",
            f"--web.listen-address=127.0.0.1:{port}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "prometheus.log").open("wb"),
    )
    try:
        query = urllib.parse.urlencode({"query": 'cardroom_jobs{state="succeeded"}'})
        deadline = time.monotonic() + 60
        series: list[dict[str, object]] = []
        while time.monotonic() < deadline:
            try:
                url = f"http://127.0.0.1:{port}/api/v1/query?{query}"
                with urllib.request.urlopen(url, timeout=5) as response:
                    series = json.load(response)["data"]["result"]
            except OSError:
                series = []
            if series:
                break
            time.sleep(0.5)
        assert series, (tmp_path / "prometheus.log").read_text()[-2000:]
        labels = series[0]["metric"]
        assert isinstance(labels, dict)
        assert labels["kind"] == "bad_beat" and labels["job"] == "cardroom"
    finally:
        process.terminate()
        process.wait(timeout=30)


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
