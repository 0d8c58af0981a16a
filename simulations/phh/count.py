"""The hands :mod:`simulations.phh.scan` read, turned into the replay kernel's arrays.

The same reading as :mod:`simulations.phh.fast` gives a hand the Python reader read, in
compiled code: the deck order (the down cards one at a time from ``p1``, then burn, flop,
burn, turn, burn, river; burns and cards never reached are the cards the history does not
show, lowest first), and the kernel's action kinds and totals found by a count of the chips in
front of each player (a ``cc`` is a check when he owes nothing, a ``cbr`` a raise when a bet
stands), each hand under the forced bets and straddles of its own game.  Where the count meets what
the reference engine would note and the kernel cannot (a check nobody could answer) the hand
is marked as not encoded and goes to the reference engine; a short all-in the kernel reports
itself.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeAlias

import numba as nb
import numpy as np
import numpy.typing as npt

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
from simulations.rules import codes
from simulations.rules.betting import Purse, post_antes, post_blinds, post_live
from simulations.rules.settle import uncalled_bet

# Who has folded: an array in the compiled count, a list in the plain-Python one.
Flags: TypeAlias = npt.NDArray[np.bool_] | MutableSequence[bool]


@nb.njit(cache=True)
def decks(
    rows: npt.NDArray[np.int64],
    players: npt.NDArray[np.int64],
    holes: npt.NDArray[np.int64],
    board: npt.NDArray[np.int64],
    out: npt.NDArray[np.int8],
) -> None:
    """``out[i]``: the deck order of hand ``rows[i]`` (``2 * players + 8`` cards, then the
    cards it never reaches, lowest first, as far as ``out`` is wide)."""
    used = np.zeros(DECK, dtype=np.bool_)
    for i in range(len(rows)):
        h = rows[i]
        n = players[h]
        used[:] = False
        for s in range(n):
            used[holes[h, s, 0]] = True
            used[holes[h, s, 1]] = True
        for k in range(5):
            if board[h, k] >= 0:
                used[board[h, k]] = True
        for s in range(n):
            out[i, s] = holes[h, s, 0]
            out[i, n + s] = holes[h, s, 1]
        spare = 0
        at = 2 * n
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
        while at < out.shape[1]:
            while used[spare]:
                spare += 1
            out[i, at] = spare
            spare += 1
            at += 1


@nb.njit(cache=True)
def count_line(
    verb: int,
    seat: int,
    amount: int,
    n: int,
    to_match: int,
    stacks: Purse,
    put: Purse,
    round_bets: Purse,
    folded: Flags,
) -> tuple[int, int, int]:
    """One player's line (``verb``: LINE_FOLD, LINE_CHECK_CALL or LINE_BET_RAISE, ``amount``
    the total a ``cbr`` names) as the kernel's action, by a count of the chips in front of
    each player: a ``cc`` is a check when he owes nothing and a call (all in for less where
    his stack is short) when he does; a ``cbr`` is a bet when no bet stands and a raise when
    one does.  Moves his chips; returns the action's kind, its total (0 but for a bet or
    raise) and the total now to match.  Kind -1 where the line meets what the reference
    engine would note and the kernel cannot (a check nobody could answer), or cannot be a
    legal action (a ``cbr`` that adds nothing or more than his stack): that hand is left to
    the reference engine.  Both PHH readers call this, the compiled count over arrays
    (:func:`count_actions`) and :mod:`simulations.phh.fast` as plain Python over lists."""
    if verb == LINE_FOLD:
        folded[seat] = True
        return codes.FOLD, 0, to_match
    if verb == LINE_CHECK_CALL:
        owed = min(to_match - round_bets[seat], stacks[seat])
        if owed > 0:
            stacks[seat] -= owed
            put[seat] += owed
            round_bets[seat] += owed
            return codes.CALL, 0, to_match
        for s in range(n):
            if s != seat and not folded[s] and stacks[s] != 0:
                return codes.CHECK, 0, to_match
        return -1, 0, to_match  # a check nobody could answer: the engine notes it
    if verb == LINE_BET_RAISE:
        added = amount - round_bets[seat]
        if added <= 0 or added > stacks[seat]:
            return -1, 0, to_match
        stacks[seat] -= added
        put[seat] += added
        round_bets[seat] = amount
        return (codes.RAISE if to_match else codes.BET), amount, amount
    return -1, 0, to_match


@nb.njit(cache=True)
def count_actions(
    rows: npt.NDArray[np.int64],
    games: npt.NDArray[np.int64],
    players: npt.NDArray[np.int64],
    starting: npt.NDArray[np.int64],
    line_offsets: npt.NDArray[np.int64],
    line_kinds: npt.NDArray[np.int8],
    line_seats: npt.NDArray[np.int64],
    line_amounts: npt.NDArray[np.int64],
    antes: npt.NDArray[np.int64],
    blinds: npt.NDArray[np.int64],
    blind_counts: npt.NDArray[np.int64],
    blinds_left: npt.NDArray[np.bool_],
    big_blind_antes: npt.NDArray[np.int64],
    big_blind_antes_first: npt.NDArray[np.bool_],
    straddle_seats: npt.NDArray[np.int8],
    straddle_totals: npt.NDArray[np.int64],
    encoded: npt.NDArray[np.bool_],
    put: npt.NDArray[np.int64],
    offsets: npt.NDArray[np.int64],
    kinds: npt.NDArray[np.int8],
    totals: npt.NDArray[np.int64],
    seats: npt.NDArray[np.int64],
) -> int:
    """The kernel's actions of hands ``rows[i]`` (each of ``players[rows[i]]``, posting the
    ante, blinds, big-blind ante and straddles of game ``games[i]``, heads-up blinds left of
    the button where ``blinds_left`` says so for the game) into ``kinds``/``totals``,
    with the seat of each into ``seats``, from ``offsets[i]``, and each player's chips put in
    (the uncalled bet returned) into ``put[i]``; ``encoded[i]`` False where the count meets
    what the reference engine would note but the kernel cannot.  The number of actions
    written."""
    stacks = np.zeros(MAX_PLAYERS, dtype=np.int64)
    round_bets = np.zeros(MAX_PLAYERS, dtype=np.int64)
    dead = np.zeros(MAX_PLAYERS, dtype=np.int64)
    live = np.zeros(MAX_PLAYERS, dtype=np.int64)  # each contribution less its dead money
    folded = np.zeros(MAX_PLAYERS, dtype=np.bool_)
    at = 0
    for i in range(len(rows)):
        h = rows[i]
        g = games[i]
        n = players[h]
        ante = antes[g]
        n_blinds = blind_counts[g]
        offsets[i] = at
        start_at = at
        for s in range(n):
            stacks[s] = starting[h, s]
            put[i, s] = 0
            round_bets[s] = 0
            dead[s] = 0
            folded[s] = False
        # The forced bets as the kernel posts them (simulations.rules.betting); the button is
        # the last seat, ``p1`` the first after it.
        chips = put[i]
        post_antes(n, n - 1, ante, stacks, chips)
        post_blinds(
            n,
            n - 1,
            blinds[g, :n_blinds],
            False,
            blinds_left[g],
            big_blind_antes[g],
            big_blind_antes_first[g],
            stacks,
            chips,
            round_bets,
            dead,
        )
        to_match = blinds[g, n_blinds - 1] if n_blinds else 0
        good = True
        for k in range(straddle_seats.shape[1]):
            s = straddle_seats[g, k]
            if s < 0:
                break
            total = straddle_totals[g, k]
            if total > stacks[s]:
                good = False  # the reference engine names the straddle it refuses
                break
            post_live(s, total, stacks, chips, round_bets)
            to_match = total
        for line in range(line_offsets[h], line_offsets[h + 1] if good else 0):
            code = line_kinds[line]
            if code in (LINE_HOLE, LINE_SHOW):
                continue
            if code == LINE_BOARD:
                for s in range(n):
                    round_bets[s] = 0
                to_match = 0
                continue
            seat = line_seats[line]
            seats[at] = seat
            kind, total, to_match = count_line(
                code, seat, line_amounts[line], n, to_match, stacks, chips, round_bets, folded
            )
            if kind < 0:
                good = False
                break
            kinds[at] = kind
            totals[at] = total
            at += 1
        if not good:
            at = start_at
            encoded[i] = False
            continue
        encoded[i] = True
        # The uncalled bet, of the live contributions (dead money counts toward no bet).
        for s in range(n):
            live[s] = put[i, s] - dead[s]
        seat, excess = uncalled_bet(live[:n])
        if seat >= 0:
            put[i, seat] -= excess
    offsets[len(rows)] = at
    return at
