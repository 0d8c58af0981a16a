"""The hands :mod:`simulations.phh.scan` read, turned into the replay kernel's arrays.

The same reading as :mod:`simulations.phh.fast` gives a hand the Python reader read, in
compiled code: the deck order (the down cards one at a time from ``p1``, then burn, flop,
burn, turn, burn, river; burns and cards never reached are the cards the history does not
show, lowest first), and the kernel's action kinds and totals found by a count of the chips in
front of each player (a ``cc`` is a check when he owes nothing, a ``cbr`` a raise when a bet
stands).  Where the count meets what the reference engine would note (a short all-in, a
check nobody could answer) the hand is marked as not encoded and goes to the reference
engine.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.engine import replay_kernel as kernel
from simulations.phh.scan import (
    DECK,
    LINE_BET_RAISE,
    LINE_BOARD,
    LINE_CHECK_CALL,
    LINE_FOLD,
    LINE_HOLE,
    LINE_SHOW,
    MAX_PLAYERS,
)


@nb.njit(cache=True)
def decks(
    rows: npt.NDArray[np.int64],
    players: int,
    holes: npt.NDArray[np.int64],
    board: npt.NDArray[np.int64],
    out: npt.NDArray[np.int8],
) -> None:
    """``out[i]``: the deck order of hand ``rows[i]`` (``2 * players + 8`` cards)."""
    used = np.zeros(DECK, dtype=np.bool_)
    for i in range(len(rows)):
        h = rows[i]
        used[:] = False
        for s in range(players):
            used[holes[h, s, 0]] = True
            used[holes[h, s, 1]] = True
        for k in range(5):
            if board[h, k] >= 0:
                used[board[h, k]] = True
        for s in range(players):
            out[i, s] = holes[h, s, 0]
            out[i, players + s] = holes[h, s, 1]
        spare = 0
        at = 2 * players
        # burn, flop (3), burn, turn, burn, river: the board's cards where the history has them
        for place in range(8):
            k = -1
            if place in (1, 2, 3):
                k = place - 1
            elif place == 5:
                k = 3
            elif place == 7:
                k = 4
            if k >= 0 and board[h, k] >= 0:
                out[i, at] = board[h, k]
            else:
                while used[spare]:
                    spare += 1
                out[i, at] = spare
                spare += 1
            at += 1


@nb.njit(cache=True)
def count_actions(
    rows: npt.NDArray[np.int64],
    players: int,
    starting: npt.NDArray[np.int64],
    line_offsets: npt.NDArray[np.int64],
    line_kinds: npt.NDArray[np.int8],
    line_seats: npt.NDArray[np.int64],
    line_amounts: npt.NDArray[np.int64],
    ante: int,
    blinds: npt.NDArray[np.int64],
    minimum: int,
    fixed: bool,
    bet_sizes: npt.NDArray[np.int64],
    encoded: npt.NDArray[np.bool_],
    put: npt.NDArray[np.int64],
    offsets: npt.NDArray[np.int64],
    kinds: npt.NDArray[np.int8],
    totals: npt.NDArray[np.int64],
) -> int:
    """The kernel's actions of hands ``rows[i]`` into ``kinds``/``totals`` from
    ``offsets[i]``, each player's chips put in (the uncalled bet returned) into ``put[i]``;
    ``encoded[i]`` False where the count meets what the reference engine would note.
    The number of actions written."""
    n = players
    stacks = np.zeros(MAX_PLAYERS, dtype=np.int64)
    round_bets = np.zeros(MAX_PLAYERS, dtype=np.int64)
    folded = np.zeros(MAX_PLAYERS, dtype=np.bool_)
    n_blinds = len(blinds)
    posters = np.arange(n_blinds)
    if n == 2 and n_blinds == 2:
        posters[0] = 1
        posters[1] = 0
    at = 0
    for i in range(len(rows)):
        h = rows[i]
        offsets[i] = at
        start_at = at
        for s in range(n):
            stacks[s] = starting[h, s]
            put[i, s] = 0
            round_bets[s] = 0
            folded[s] = False
        if ante:
            for s in range(n):
                paid = min(ante, stacks[s])
                stacks[s] -= paid
                put[i, s] += paid
        for j in range(min(n_blinds, n)):
            s = posters[j]
            paid = min(blinds[j], stacks[s])
            stacks[s] -= paid
            put[i, s] += paid
            round_bets[s] += paid
        to_match = blinds[n_blinds - 1] if n_blinds else 0
        raised_by = to_match
        street = 0
        good = True
        for line in range(line_offsets[h], line_offsets[h + 1]):
            code = line_kinds[line]
            if code in (LINE_HOLE, LINE_SHOW):
                continue
            if code == LINE_BOARD:
                street += 1
                for s in range(n):
                    round_bets[s] = 0
                to_match = 0
                raised_by = 0
                continue
            seat = line_seats[line]
            if code == LINE_FOLD:
                folded[seat] = True
                kinds[at] = kernel.FOLD
                totals[at] = 0
            elif code == LINE_CHECK_CALL:
                owed = min(to_match - round_bets[seat], stacks[seat])
                if owed <= 0:
                    answerable = False
                    for s in range(n):
                        if s != seat and not folded[s] and stacks[s] != 0:
                            answerable = True
                    if not answerable:
                        good = False  # a check nobody could answer: the engine notes it
                        break
                    kinds[at] = kernel.CHECK
                else:
                    stacks[seat] -= owed
                    put[i, seat] += owed
                    round_bets[seat] += owed
                    kinds[at] = kernel.CALL
                totals[at] = 0
            elif code == LINE_BET_RAISE:
                total = line_amounts[line]
                added = total - round_bets[seat]
                if added <= 0 or added > stacks[seat]:
                    good = False
                    break
                size = (
                    bet_sizes[min(street, len(bet_sizes) - 1)] if fixed else max(raised_by, minimum)
                )
                if total - to_match < size and added == stacks[seat]:
                    good = False  # a short all-in: the engine notes the rule it applied
                    break
                kinds[at] = kernel.RAISE if to_match else kernel.BET
                totals[at] = total
                raised_by = max(raised_by, total - to_match)
                to_match = total
                stacks[seat] -= added
                put[i, seat] += added
                round_bets[seat] = total
            else:
                good = False
                break
            at += 1
        if not good:
            at = start_at
            encoded[i] = False
            continue
        encoded[i] = True
        # The uncalled bet: the excess of the largest contribution over the next.
        top = -1
        first = 0
        second = 0
        for s in range(n):
            if put[i, s] > first:
                second = first
                first = put[i, s]
                top = s
            elif put[i, s] > second:
                second = put[i, s]
        if top >= 0 and first > second:
            put[i, top] -= first - second
    offsets[len(rows)] = at
    return at
