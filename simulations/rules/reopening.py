"""When an all-in short of a full bet or raise reopens the betting: one compiled source for
the reference engine and the replay kernel.

Rules 002_376df91f076a6501.txt, 'Incomplete bet or raise': under the full bet rule only a
full bet or raise reopens the betting to players who have already acted; under the half bet
rule half of one does.  A single short all-in is "really just a call with some extra money"
to them.  The texts decide only that single case; when several short all-ins follow one
another, the reading most card rooms use (and tournament rules write down) counts them
together: a player who already acted may raise again if what he now faces, since his own
action, adds up to a reopening amount (:data:`CUMULATIVE`).  Judging each short all-in
alone, so that none of them ever reopens, is the named option (:data:`EACH_ALONE`).
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

CUMULATIVE = 0  # short all-ins add up, for each player from the bet he last acted on
EACH_ALONE = 1  # each short all-in judged on its own increment only


@nb.njit(cache=True)
def reopens_betting(increment: int, full_increment: int, half_bet: bool) -> bool:
    """Whether a raise of ``increment`` reopens the betting, when ``full_increment`` is the
    full bet (opening) or the last full raise: all of it, or half of it under the half bet
    rule."""
    if increment >= full_increment:
        return True
    return half_bet and 2 * increment >= full_increment


@nb.njit(cache=True)
def still_closed(
    acted: int,
    acted_at: npt.NDArray[np.int64],
    n: int,
    to_match: int,
    full_increment: int,
    half_bet: bool,
    rule: int,
) -> int:
    """After a short all-in that reopened nothing by itself: the seats (a bit mask) for whom
    the betting stays closed.  ``acted`` holds the seats that acted since the last
    reopening, ``acted_at[s]`` the bet seat ``s`` last acted on (what it called, checked or
    bet).  Under :data:`CUMULATIVE` a seat that now faces a reopening amount over that bet
    may raise again."""
    if rule != CUMULATIVE:
        return acted
    for s in range(n):
        if (acted >> s) & 1 and reopens_betting(to_match - acted_at[s], full_increment, half_bet):
            acted &= ~(1 << s)
    return acted
