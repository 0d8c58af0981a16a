"""The bad-beat verdict of one hand for the economics kernel, hold'em and Omaha, at every
qualifier of a step-down schedule at once.

Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot': 'a prize that is paid when a sufficiently
strong hand is shown down and loses to an even stronger hand held by another player ... in
Texas hold 'em there is usually a requirement that both hole cards play in both the losing
and winning hands'.  The qualifiers are :class:`~simulations.rules.jackpot.BadBeatRules`'
(the bands, the hole cards that must play, four of a kind with a pocket pair, a full house
whose three of a kind lies on the board), each hand judged by
:func:`~simulations.rules.jackpot.qualifies`.

A qualifier is a band of hands (:func:`in_band`, the one test every path uses): a losing
hand qualifies from the level's losing floor up to the qualifier's ceiling (``at_most``; a
ceiling of its own for no level), a winning hand within the winning band.  Levels differ
only in their floors, so a hit at a level is a hit at every looser one, and a qualifying
losing hand shown at a level is one at every looser one: :func:`verdict` returns the
strictest level hit, gives the strictest level at which one qualifying losing hand was shown
at all, and, for every level, the seats of the roles the jackpot pays: the best qualifying
hand of the winning band (the *winning hand*), the best qualifying hand of the losing band
it beat (the *losing hand*), and the next best qualifying losing hand below that (the
*second losing hand*), each a bit mask of seats (ties share).
The reference is :func:`simulations.models.table_reference.reference_verdict`, plain Python
over the scalar evaluators.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.rules.jackpot import (
    Q_LOSING_CEILING,
    Q_WINNING_CEILING,
    Q_WINNING_FLOOR,
    in_band,
    qualifies,
)

LOSER = 0
WINNER = 1
SECOND = 2
ROLES = 3


@nb.njit(cache=True)
def verdict(
    holes: npt.NDArray[np.int64],
    board: npt.NDArray[np.int64],
    shown: npt.NDArray[np.int64],
    count: int,
    river_values: npt.NDArray[np.int64],
    floors: npt.NDArray[np.int64],
    qualifier: npt.NDArray[np.int64],
    card_keys: npt.NDArray[np.int64],
    flush_values: npt.NDArray[np.int32],
    row_offsets: npt.NDArray[np.int32],
    class_values: npt.NDArray[np.int32],
    rank_classes: npt.NDArray[np.uint16],
    roles: npt.NDArray[np.int64],
    qualified: npt.NDArray[np.int64],
) -> int:
    """The strictest level (index into ``floors``, strictest first) at which the hands of the
    ``count`` seats ``shown`` (their best values in ``river_values``, by seat) hit, or -1;
    ``roles[level, role]`` receives each level's seats (0 where it does not hit) and
    ``qualified[0]`` the strictest level at which some shown hand is a qualifying losing
    hand (-1: none).  The rank table is read through
    :class:`~simulations.evaluators.high.RankClasses` (``rank_classes``, ``class_values``)."""
    levels = floors.shape[0]
    for level in range(levels):
        for role in range(ROLES):
            roles[level, role] = 0
    qualified[0] = -1
    loosest = floors[levels - 1]
    # Every hit, and every qualifying losing hand, needs a hand at or above the loosest
    # floor: rare, so look closer only then.
    above = 0
    for i in range(count):
        if river_values[shown[i]] >= loosest:
            above += 1
    if above < 1:
        return -1
    good = np.zeros(count, dtype=np.bool_)
    for i in range(count):
        s = shown[i]
        v = river_values[s]
        if v >= loosest:
            good[i] = qualifies(
                holes[s], board, v, qualifier, card_keys, flush_values, row_offsets,
                class_values, rank_classes,
            )  # fmt: skip
    winning_floor = qualifier[Q_WINNING_FLOOR]
    winning_ceiling = qualifier[Q_WINNING_CEILING]
    ceiling = qualifier[Q_LOSING_CEILING]
    strictest = -1
    for level in range(levels - 1, -1, -1):
        floor = floors[level]
        for i in range(count):
            if good[i] and in_band(river_values[shown[i]], floor, ceiling):
                qualified[0] = level
        if above < 2:
            continue
        best = -1
        for i in range(count):
            v = river_values[shown[i]]
            if good[i] and v >= floor and in_band(v, winning_floor, winning_ceiling) and v > best:
                best = v
        if best < 0:
            continue
        losing = -1
        for i in range(count):
            v = river_values[shown[i]]
            if good[i] and in_band(v, floor, ceiling) and v < best and v > losing:
                losing = v
        if losing < 0:
            continue
        second = -1
        for i in range(count):
            v = river_values[shown[i]]
            if good[i] and in_band(v, floor, ceiling) and v < losing and v > second:
                second = v
        for i in range(count):
            s = shown[i]
            v = river_values[s]
            if not good[i] or v < floor:
                continue
            if v == best:
                roles[level, WINNER] |= 1 << s
            elif v == losing:
                roles[level, LOSER] |= 1 << s
            elif v == second:
                roles[level, SECOND] |= 1 << s
        strictest = level
    return strictest
