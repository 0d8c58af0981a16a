"""Many files' bytes read end to end into one buffer by compiled code.

A run of one-hand ``.phh`` files (a session's hands, each its own file) spends most of its time
opening and reading them; here every file is opened, read and closed by the C library's own
``open``, ``read`` and ``close`` called from one compiled loop, with no Python object made per
file.  A file that cannot be opened or read, or that holds a byte outside ASCII, is given no
bytes: the Python reader (:mod:`simulations.phh.read`) reads it and names its problem.  Where
the C library's calls are not those of POSIX, :func:`read_files` reads with :mod:`os` instead.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt
from numba import types

# The C library's own calls, linked by name (pointers passed as addresses: 64-bit platforms);
# typed Any since numba's call signatures are not Python's.
_open: Any = types.ExternalFunction("open", types.intc(types.uintp, types.intc))
_read: Any = types.ExternalFunction("read", types.intp(types.intc, types.uintp, types.uintp))
_close: Any = types.ExternalFunction("close", types.intc(types.intc))

READ_ONLY = os.O_RDONLY
_CHUNK = 1 << 16  # the room made for a file before it is read
_POSIX = os.name == "posix" and sys.maxsize > 2**32
_OPEN = 91  # [
_NEWLINE = 10


@nb.njit(cache=True)
def _read_all(
    names: npt.NDArray[np.uint8],
    name_starts: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
) -> npt.NDArray[np.uint8]:
    """The bytes of every file laid end to end; file ``f`` (its name, NUL-ended, at
    ``names[name_starts[f]:]``) is ``out[starts[f]:starts[f + 1]]``, empty where it could
    not be read whole or is not ASCII."""
    out = np.empty(max(_CHUNK, 1024 * (len(name_starts) - 1)), dtype=np.uint8)
    at = 0
    for f in range(len(name_starts) - 1):
        starts[f] = at
        descriptor = _open(names.ctypes.data + name_starts[f], READ_ONLY)
        if descriptor < 0:
            continue
        good = True
        while True:
            if len(out) - at < _CHUNK:
                grown = np.empty(2 * len(out), dtype=np.uint8)
                grown[:at] = out[:at]
                out = grown
            got = _read(descriptor, out.ctypes.data + at, len(out) - at)
            if got < 0:
                good = False  # a read that failed: the Python reader names why
                break
            if got == 0:
                break
            at += got
        _close(descriptor)
        if good:
            for i in range(starts[f], at):
                if out[i] >= 128:
                    good = False
                    break
        if not good:
            at = starts[f]
    starts[len(name_starts) - 1] = at
    return out[:at]


@nb.njit(cache=True)
def table_counts(
    data: npt.NDArray[np.uint8], starts: npt.NDArray[np.int64], several: npt.NDArray[np.bool_]
) -> npt.NDArray[np.int64]:
    """How many hands each file may hold: 1 for a one-hand file; for a ``several`` file,
    its lines that start with ``[`` (each a table's header, or not: the scan decides)."""
    counts = np.ones(len(starts) - 1, dtype=np.int64)
    for f in range(len(starts) - 1):
        if not several[f]:
            continue
        count = 0
        for i in range(starts[f], starts[f + 1]):
            if data[i] == _OPEN and (i == starts[f] or data[i - 1] == _NEWLINE):
                count += 1
        counts[f] = count
    return counts


def read_files(sources: Sequence[str]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """The bytes of the files ``sources`` end to end, and where each begins (one more place:
    where the last ends); a file not read whole, or not ASCII, has none."""
    starts = np.zeros(len(sources) + 1, dtype=np.int64)
    if not _POSIX:
        return _read_with_os(sources, starts)
    encoded = [b"" if "\0" in source else os.fsencode(source) for source in sources]
    names = np.frombuffer(b"\0".join(encoded) + b"\0", dtype=np.uint8)
    name_starts = np.zeros(len(sources) + 1, dtype=np.int64)
    name_starts[1:] = np.cumsum(np.fromiter(map(len, encoded), np.int64, len(encoded)) + 1)
    return _read_all(names, name_starts, starts), starts


def _read_with_os(
    sources: Sequence[str], starts: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    chunks: list[bytes] = []
    for source in sources:
        try:
            with open(source, "rb") as stream:
                data = stream.read()
        except (OSError, ValueError):
            data = b""
        chunks.append(data if data.isascii() else b"")
    starts[1:] = np.cumsum([len(chunk) for chunk in chunks])
    return np.frombuffer(b"".join(chunks), dtype=np.uint8), starts
