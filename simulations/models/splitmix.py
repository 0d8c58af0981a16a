"""SplitMix64, the per-trial random stream of the simulation kernels.

Each trial (a hand, a game of guts) draws from its own 64-bit state, so a kernel can hand the
reference engine the very draws it used for any one trial, whatever happened in the others.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

_GAMMA = np.uint64(0x9E3779B97F4A7C15)


@nb.njit(cache=True)
def next_u64(state: npt.NDArray[np.uint64]) -> np.uint64:
    """The next 64-bit output of the stream ``state[0]``."""
    state[0] += _GAMMA
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    out: np.uint64 = z ^ (z >> np.uint64(31))
    return out


@nb.njit(cache=True)
def uniform(state: npt.NDArray[np.uint64]) -> float:
    """A uniform in [0, 1) with 53 random bits."""
    return float(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@nb.njit(cache=True)
def skip(state: npt.NDArray[np.uint64], count: int) -> None:
    """Move the stream past ``count`` outputs without making them (each adds the same step)."""
    state[0] += np.uint64(count) * _GAMMA


@nb.njit(cache=True, inline="always")
def uniform_at(seed: np.uint64, index: int) -> float:
    """The ``index``-th uniform (0 first) of the stream that starts at ``seed``: the value
    :func:`uniform` gives on its ``index + 1``-th call, computed without the calls before
    (SplitMix64 is a counter: its n-th output mixes ``seed + n * gamma``)."""
    z = seed + np.uint64(index + 1) * _GAMMA
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return float((z ^ (z >> np.uint64(31))) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
