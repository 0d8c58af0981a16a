"""A word on the terminal when numba compiles the engine's kernels.

The kernels are compiled on first use and cached (``__pycache__`` beside their sources, or
``$NUMBA_CACHE_DIR``): a fresh checkout's first job, replay or deal spends 10 to 30 s
compiling before it deals a hand, and later runs load the kernels in a moment.  numba
fires its ``numba:compile`` event only on a cache miss, just before it compiles, so a
listener on it tells a cold cache from a warm one at no cost and says so once, on stderr,
before the wait; a warm cache prints nothing.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

NOTE = "compiling the kernels once, ~10–30 s (numba caches them: later runs start at once)"


class _State:
    installed = False
    compiled = False
    out: TextIO | None = None


def notice_compiles(out: TextIO | None = None) -> None:
    """From now on, print :data:`NOTE` (once) to ``out`` (stderr) when numba compiles."""
    _State.out = out
    if _State.installed:
        return
    from numba.core import event

    class Note(event.Listener):  # type: ignore[misc,unused-ignore]  # numba is untyped
        def on_start(self, ev: Any) -> None:
            if not _State.compiled:
                _State.compiled = True
                stream = _State.out or sys.stderr
                print(f"cardroom: {NOTE}", file=stream, flush=True)

        def on_end(self, ev: Any) -> None:
            pass

    register: Any = event.register  # untyped
    register("numba:compile", Note())
    _State.installed = True


def compiled() -> bool:
    """Whether numba has compiled anything in this process since :func:`notice_compiles`:
    the cache was cold for some kernel."""
    return _State.compiled
