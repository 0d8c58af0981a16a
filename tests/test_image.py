"""The image (Dockerfile), checked without a container engine: its base is pinned by
digest; pip and every Python package come from the committed locks, each pinned with its
hashes, which meet pyproject.toml's requirements; and numba's kernels are compiled into it
by `python -m service.warm`, whose cache another process loads from a copy in another
folder (as the pods' numba-cache init container makes) without compiling again."""

from __future__ import annotations

import filecmp
import platform
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import service.warm
from service.jobfile import read_job_mapping
from service.kinds import KINDS
from tests.harness import REPO, env

DOCKERFILE = REPO / "Dockerfile"
LOCKS = REPO / "requirements"
DIGEST = re.compile(r"@sha256:[0-9a-f]{64}$")


def _instructions() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def locked(path: Path) -> dict[str, tuple[str, list[str]]]:
    """A lock file's packages: canonical name -> (version, hashes)."""
    text = re.sub(r"\\\n\s*", " ", path.read_text())
    packages: dict[str, tuple[str, list[str]]] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        requirement, *options = line.split()
        name, sep, version = requirement.partition("==")
        assert sep and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name), line
        hashes = [o.removeprefix("--hash=sha256:") for o in options]
        assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), line
        packages[canonicalize_name(name)] = (version, hashes)
    return packages


def test_the_base_image_is_pinned_by_digest() -> None:
    args = dict(re.findall(r"^ARG (\w+)=(\S+)$", DOCKERFILE.read_text(), re.M))
    froms = [line.split()[1] for line in _instructions() if line.startswith("FROM ")]
    assert len(froms) == 2  # a build stage and the runtime stage, on the same base
    for image in froms:
        resolved = re.sub(r"\$\{(\w+)\}", lambda m: args[m[1]], image)
        assert resolved.startswith("python:3.11-slim-bookworm@"), resolved
        assert DIGEST.search(resolved), resolved


def test_every_package_comes_from_a_lock_with_its_hashes() -> None:
    pip_runs = [line for line in _instructions() if "pip install" in line]
    assert pip_runs
    for run in pip_runs:
        for command in re.split(r"&&", run):
            if "pip install" not in command:
                continue
            assert "--upgrade" not in command, command
            if " -e ." in command:  # cardroom itself: its dependencies are the lock's
                assert "--no-deps" in command and "--no-build-isolation" in command, command
            else:
                assert "--require-hashes" in command and "--no-deps" in command, command
                assert re.search(r"-r requirements/(pip|image)\.lock", command), command
    text = " ".join(_instructions())
    assert "-r requirements/pip.lock" in text and "-r requirements/image.lock" in text
    assert "--only-binary=:all:" in text and "pip check" in text
    for lock in ("pip.lock", "image.lock"):
        for name, (version, hashes) in locked(LOCKS / lock).items():
            assert re.fullmatch(r"[0-9][0-9A-Za-z.+!-]*", version), (name, version)
            assert hashes, f"{lock}: {name} has no hash"
    assert "pip" in locked(LOCKS / "pip.lock")


def test_the_lock_meets_pyproject_and_its_own_input() -> None:
    """Every requirement of cardroom (with the extras the image installs) and of
    requirements/image.in is in image.lock, at a version it allows."""
    packages = locked(LOCKS / "image.lock")
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    wanted = [Requirement(r) for r in project["dependencies"]]
    for extra in ("compile", "postgres"):
        wanted += [Requirement(r) for r in project["optional-dependencies"][extra]]
    for line in (LOCKS / "image.in").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            wanted.append(Requirement(line))
    assert any(r.name == "ray" and "default" in r.extras for r in wanted)
    for requirement in wanted:
        name = canonicalize_name(requirement.name)
        assert name in packages, f"{requirement} is not in image.lock"
        version = packages[name][0]
        assert requirement.specifier.contains(version, prereleases=True), (requirement, version)
    # Extras bring packages of their own: psycopg[binary] its wheel, ray[default] its agent's.
    assert packages["psycopg-binary"][0] == packages["psycopg"][0]
    assert {"aiohttp", "opencensus", "py-spy"} <= set(packages)


def test_the_image_compiles_numbas_kernels_for_a_fixed_cpu() -> None:
    text = DOCKERFILE.read_text()
    cpu = re.search(r"^ARG NUMBA_CPU_NAME=(\S+)$", text, re.M)
    assert cpu is not None and cpu[1] in {"generic", "x86-64-v2"}
    # Both stages set the same target, so the build's cache keys are the runtime's.
    assert text.count("NUMBA_CPU_NAME=${NUMBA_CPU_NAME}") == 2
    assert text.count('NUMBA_CPU_FEATURES=""') == 2
    instructions = _instructions()
    warm = instructions.index("RUN /opt/cardroom/venv/bin/python -m service.warm")
    compiled = next(i for i, line in enumerate(instructions) if "build_ext" in line)
    assert compiled < warm  # the kernels of the code the image runs
    dockerignore = (REPO / ".dockerignore").read_text().split()
    assert "**/__pycache__" in dockerignore  # no cache of the build machine's own CPU


def test_warm_refuses_a_missing_kind_and_a_bad_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[Path] = []

    def fake(path: Path) -> tuple[str, float]:  # the job is not run: its kind is what counts
        ran.append(path)
        kind = read_job_mapping(path)["kind"]
        assert isinstance(kind, str)
        return kind, 0.0

    monkeypatch.setattr(service.warm, "warm", fake)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    examples = sorted(service.warm.EXAMPLES.glob("*.toml"))
    assert service.warm.main([]) == 0 and ran == examples  # every kind has an example
    bad_beat = service.warm.EXAMPLES / "bad_beat.toml"
    assert service.warm.main([str(bad_beat)]) == 1
    missing = sorted(set(KINDS) - {"bad_beat"})
    assert f"no job of kind {', '.join(missing)}" in capsys.readouterr().err
    monkeypatch.undo()
    unknown = tmp_path / "dice.toml"
    unknown.write_text('kind = "dice"\nhands = 10\n')
    assert service.warm.main([str(unknown)]) == 1
    assert "dice.toml: kind:" in capsys.readouterr().err


def test_warm_cuts_every_job_small() -> None:
    for path in service.warm.EXAMPLES.glob("*.toml"):
        data = service.warm.small(read_job_mapping(path))
        kind = KINDS[str(data["kind"])]
        assert data[kind.trials_field] == service.warm.WARM_TRIALS
        assert data["shard_size"] == service.warm.WARM_TRIALS // 2


def _warm(cache: Path) -> subprocess.CompletedProcess[str]:
    environment = {
        **env(),
        "NUMBA_CACHE_DIR": str(cache),
        "NUMBA_CPU_NAME": "x86-64-v2",
        "NUMBA_CPU_FEATURES": "",
    }
    return subprocess.run(
        [sys.executable, "-m", "service.warm"],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        cwd=REPO,
        env=environment,
    )


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.slow
@pytest.mark.skipif(platform.machine() != "x86_64", reason="the image's numba target is x86-64")
def test_the_warm_cache_serves_a_new_process_from_a_copy(tmp_path: Path) -> None:
    """As the image is built: a small job of every kind fills NUMBA_CACHE_DIR.  Copied to
    another folder, as the pods copy it to their volume, it serves a second process whole:
    every kernel loads, none is compiled (numba would write a new cache file for it)."""
    built = tmp_path / "image-cache"
    first = _warm(built)
    assert first.returncode == 0, first.stdout + first.stderr
    for kind in KINDS:
        assert f": {kind}, " in first.stdout, first.stdout
    kernels = service.warm.cached_kernels(built)
    assert kernels > 0 and f"{kernels} kernels cached" in first.stdout
    pod = tmp_path / "pod-volume"
    shutil.copytree(built, pod)
    before = _files(pod)
    second = _warm(pod)
    assert second.returncode == 0, second.stdout + second.stderr
    assert _files(pod) == before  # nothing compiled, nothing written
    assert not filecmp.dircmp(built, pod).diff_files
