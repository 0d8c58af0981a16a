"""Regenerate the Python modules for the public API from ``proto/cardroom/v1``.

Run ``python -m service.api.generate`` after changing a .proto file (needs the test
extra's grpcio-tools).  The generated modules are committed; a test regenerates them
into a scratch folder and demands they match, so they never drift from the API.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROTO_ROOT = ROOT / "proto"
PROTO_FILES = (
    "cardroom/v1/game_service.proto",
    "cardroom/v1/job_service.proto",
    "cardroom/v1/verify_service.proto",
)
# The generated modules import each other by their proto path; mapping the proto root
# onto this package's folder makes those imports ``service.api.cardroom.v1...``.
VIRTUAL_ROOT = "service/api"


def generate(out_dir: Path) -> list[Path]:
    """Write the generated modules for every API file into ``out_dir``; return their paths."""
    import grpc_tools
    from grpc_tools import protoc

    well_known = Path(grpc_tools.__file__).parent / "_proto"
    out_dir.mkdir(parents=True, exist_ok=True)
    args = [
        "protoc",
        f"--proto_path={VIRTUAL_ROOT}={PROTO_ROOT}",
        f"--proto_path={well_known}",
        f"--python_out={out_dir}",
        f"--pyi_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        *(f"{VIRTUAL_ROOT}/{name}" for name in PROTO_FILES),
    ]
    if protoc.main(args) != 0:
        raise RuntimeError("protoc failed")
    generated = out_dir / VIRTUAL_ROOT / "cardroom"
    return sorted(p for p in generated.rglob("*") if p.suffix in {".py", ".pyi"})


if __name__ == "__main__":
    written = generate(ROOT)
    for path in written:
        print(path.relative_to(ROOT))
    sys.exit(0)
