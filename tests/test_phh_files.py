"""The PHH replay's compiled file reader (simulations/phh/files.py) against Python's own reads.

Every file's bytes must come back exactly as ``open(path, "rb").read()`` gives them, at the
place ``starts`` says; a file that cannot be read whole, or that holds a byte outside ASCII,
must come back empty without disturbing its neighbours (the Python reader then names its
problem)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from simulations.phh import files


def _expected(paths: list[str]) -> list[bytes]:
    out: list[bytes] = []
    for path in paths:
        try:
            data = Path(path).read_bytes()
        except OSError:
            data = b""
        out.append(data if data.isascii() else b"")
    return out


def _pieces(data: np.ndarray, starts: np.ndarray) -> list[bytes]:
    return [data[starts[f] : starts[f + 1]].tobytes() for f in range(len(starts) - 1)]


def test_every_file_read_whole_in_order(tmp_path: Path) -> None:
    """Files of every size, a large one read in several chunks among them, come back byte
    for byte where their starts say."""
    sizes = [0, 1, 17, 1023, 65_535, 65_536, 200_001, 3]
    paths = []
    for number, size in enumerate(sizes):
        path = tmp_path / f"hand{number}.phh"
        path.write_bytes(bytes((32 + (i * 7 + number) % 90) for i in range(size)))
        paths.append(str(path))
    data, starts = files.read_files(paths)
    assert len(starts) == len(paths) + 1
    assert _pieces(data, starts) == _expected(paths)
    assert [int(starts[f + 1] - starts[f]) for f in range(len(paths))] == sizes


def test_unreadable_and_non_ascii_files_come_back_empty(tmp_path: Path) -> None:
    """A missing file, a folder, a file with a byte outside ASCII and a name holding a NUL
    are given no bytes; the readable files around them are read as they are."""
    good = tmp_path / "good.phh"
    good.write_bytes(b"variant = 'NT'\n")
    accented = tmp_path / "accented.phh"
    accented.write_bytes("players = ['Zoë']\n".encode())
    folder = tmp_path / "folder.phh"
    folder.mkdir()
    last = tmp_path / "last.phh"
    last.write_bytes(b"actions = []\n")
    paths = [str(good), str(tmp_path / "missing.phh"), str(accented), str(folder), "a\0b",
             str(last)]  # fmt: skip
    data, starts = files.read_files(paths)
    assert _pieces(data, starts) == [b"variant = 'NT'\n", b"", b"", b"", b"", b"actions = []\n"]


def test_many_files_grow_the_buffer(tmp_path: Path) -> None:
    """More bytes than the room first made for them (1 KiB a file) are read whole."""
    paths = []
    for number in range(40):
        path = tmp_path / f"{number}.phh"
        path.write_bytes(b"x" * (3000 + number))
        paths.append(str(path))
    data, starts = files.read_files(paths)
    assert _pieces(data, starts) == _expected(paths)


def test_the_os_reader_gives_the_same_bytes(tmp_path: Path) -> None:
    """The reader used where the C library's calls are not POSIX's reads alike."""
    paths = []
    for number, text in enumerate([b"a = 1\n", "é".encode(), b"", b"[1]\nb = 2\n"]):
        path = tmp_path / f"{number}.phhs"
        path.write_bytes(text)
        paths.append(str(path))
    paths.append(str(tmp_path / "missing.phhs"))
    compiled, compiled_starts = files.read_files(paths)
    plain, plain_starts = files._read_with_os(paths, np.zeros(len(paths) + 1, dtype=np.int64))
    assert _pieces(compiled, compiled_starts) == _pieces(plain, plain_starts)
    assert _pieces(plain, plain_starts) == _expected(paths)


@pytest.mark.parametrize(
    ("text", "several", "count"),
    [
        (b"[1]\na = 1\n[2]\na = 2\n", True, 2),
        (b"# [not a table]\n[1]\nplayers = ['[x']\n", True, 1),
        (b"a = '[x'\n[3]\n", True, 1),
        (b"[1]\n", False, 1),
        (b"", True, 0),
    ],
)
def test_table_counts(text: bytes, several: bool, count: int) -> None:
    """A ``.phhs`` file may hold as many hands as its lines that open with ``[``; a ``.phh``
    file holds one."""
    data = np.frombuffer(text, dtype=np.uint8)
    starts = np.array([0, len(text)], dtype=np.int64)
    assert files.table_counts(data, starts, np.array([several])).tolist() == [count]


def test_a_file_without_read_permission_comes_back_empty(tmp_path: Path) -> None:
    """A file that cannot be opened is given no bytes (run as root, it is read)."""
    path = tmp_path / "locked.phh"
    path.write_bytes(b"a = 1\n")
    path.chmod(0)
    data, starts = files.read_files([str(path)])
    readable = os.access(path, os.R_OK)
    assert _pieces(data, starts) == [b"a = 1\n" if readable else b""]
