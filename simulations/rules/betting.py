"""The betting's arithmetic, written once: who posts which blind, the forced bets in the order
the money goes, who must act, and the legal bet or raise totals under every structure.

The reference engine (:mod:`simulations.engine.posting`, :mod:`simulations.engine.hand`,
:mod:`simulations.engine.limits`), the replay kernel, the PHH count
(:mod:`simulations.phh.count`) and the table kernel all call these functions.  Seats that
have folded or acted since the last reopening are bit masks; stacks and this round's bets
are arrays (or lists: each function also runs as plain Python, ``.py_func``).

Rules 002_376df91f076a6501.txt: 'Blinds', 'When there are only two players', 'All in before
the deal', 'Straddle bets', 'Procedure' and 'Limits'.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from fractions import Fraction
from typing import TypeAlias

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.rules.codes import (
    COMPLETED,
    LIMIT_FIXED,
    LIMIT_NO,
    LIMIT_SPREAD,
    NO_LIMIT_HIGH,
    STRADDLE_AFTER_POST,
    STRADDLE_NOT_A_RAISE,
    STRADDLE_NOT_COVERED,
    STRADDLE_OUT_OF_ORDER,
    STRADDLES_LIVE,
)

# Chips per seat: an array under numba; a list when run as plain Python (the reference
# engine's, whose stacks may hold fractions of a chip).
Chips: TypeAlias = npt.NDArray[np.int64] | Sequence[int] | Sequence[int | Fraction]
Seats: TypeAlias = npt.NDArray[np.int64] | Sequence[int]
# Whole chips per seat that a posting function adds to or takes from.
Purse: TypeAlias = npt.NDArray[np.int64] | MutableSequence[int]


@nb.njit(cache=True)
def blind_seat(
    j: int, n: int, n_blinds: int, button: int, first_on_button: bool, heads_up_left: bool
) -> int:
    """The seat posting blind ``j`` (0 the smallest) of ``n_blinds`` at a table of ``n``.

    Rules 002_376df91f076a6501.txt, 'Blinds': the blinds are posted by the players left of
    the button, one to three of them (the first on the button where the structure says so);
    'When there are only two players': heads-up with two blinds 'the small blind is on the
    button' and the other player posts the big one — unless ``heads_up_left`` (the blinds
    posted left of the button, as at a bigger table)."""
    if n == 2 and n_blinds == 2 and not heads_up_left:
        return button if j == 0 else (button + 1) % 2
    if first_on_button:
        return (button + j) % n
    return (button + 1 + j) % n


@nb.njit(cache=True)
def forced_chips(due: int, stack: int) -> int:
    """What a player puts in of a forced bet of ``due`` — an ante, a blind, a big-blind ante
    or a post: all of it, or all he has (Rules 002_376df91f076a6501.txt, 'All in before the
    deal': 'If a player does not have sufficient money to cover the ante and blinds due, that
    player is automatically all in for the coming hand')."""
    return min(due, stack)


@nb.njit(cache=True)
def post_antes(
    n: int,
    button: int,
    ante: int,
    stack: Purse,
    contributed: Purse,
) -> int:
    """Every player's ante, clockwise from the button's left, each all he has if short; the
    chips posted.  Antes count toward no bet.  They are the first forced bets taken: 'Any
    money the player holds must be applied to the ante first' (Rules
    002_376df91f076a6501.txt, 'All in before the deal')."""
    posted = 0
    if ante <= 0:
        return 0
    for k in range(n):
        s = (button + 1 + k) % n
        a = forced_chips(ante, stack[s])
        stack[s] -= a
        contributed[s] += a
        posted += a
    return posted


@nb.njit(cache=True)
def _post(seat: int, amount: int, stack: Purse, contributed: Purse, toward: Purse) -> int:
    """Move a forced bet (all he has if less) from ``seat``'s stack into the pot and onto
    ``toward`` (his dead money or his bet this round).  The chips posted."""
    a = forced_chips(amount, stack[seat])
    stack[seat] -= a
    contributed[seat] += a
    toward[seat] += a
    return a


@nb.njit(cache=True)
def post_dead(
    seat: int,
    amount: int,
    stack: Purse,
    contributed: Purse,
    dead: Purse,
) -> int:
    """Post ``amount`` dead for ``seat`` (all he has if less): into the pot, toward no bet —
    a big-blind ante, or a missed small blind posted dead (Rules 002_376df91f076a6501.txt,
    'Post').  The chips posted."""
    return _post(seat, amount, stack, contributed, dead)


@nb.njit(cache=True)
def post_live(
    seat: int,
    amount: int,
    stack: Purse,
    contributed: Purse,
    round_bets: Purse,
) -> int:
    """Post ``amount`` live for ``seat`` (all he has if less): a blind, a post's big blind or
    a straddle, which counts toward his call or raise (Rules 002_376df91f076a6501.txt,
    'Blinds': 'Blinds are part of the player's bet').  The chips posted."""
    return _post(seat, amount, stack, contributed, round_bets)


@nb.njit(cache=True)
def post_blinds(
    n: int,
    button: int,
    blinds: Seats,
    first_on_button: bool,
    heads_up_left: bool,
    big_blind_ante: int,
    big_blind_ante_first: bool,
    stack: Purse,
    contributed: Purse,
    round_bets: Purse,
    dead: Purse,
) -> tuple[int, int, int]:
    """The blinds (:func:`blind_seat`) and the big-blind ante, after the antes: (chips
    posted, the seats that posted a blind as a bit mask, the big blind's seat or -1).

    The big-blind ante is the table's ante in one, paid by the big blind as dead money, before
    the blind or after it by the game's order (``big_blind_ante_first``)."""
    n_blinds = len(blinds)
    count = min(n_blinds, n)  # no seat posts two blinds
    if count == 0:
        return 0, 0, -1
    big = blind_seat(count - 1, n, n_blinds, button, first_on_button, heads_up_left)
    posted = 0
    if big_blind_ante > 0 and big_blind_ante_first:
        posted += post_dead(big, big_blind_ante, stack, contributed, dead)
    mask = 0
    for j in range(count):
        s = blind_seat(j, n, n_blinds, button, first_on_button, heads_up_left)
        posted += post_live(s, blinds[j], stack, contributed, round_bets)
        mask |= 1 << s
    if big_blind_ante > 0 and not big_blind_ante_first:
        posted += post_dead(big, big_blind_ante, stack, contributed, dead)
    return posted, mask, big


@nb.njit(cache=True)
def blind_bets_made(big_blind: int, first_bet: int) -> int:
    """The bets toward the cap the big blind makes: one, or none when it is below the first
    round's bet — such a blind 'is treated the same way a sub-minimum bring-in is treated in
    stud poker' (Rules 001_af8fb40237a5ae1f.txt): the first bet completes it ('raise to $5',
    Rules 002_376df91f076a6501.txt, 'Blinds').  Players to act 'must call the complete
    amount of the big blind' either way."""
    return 1 if big_blind >= first_bet else 0


@nb.njit(cache=True)
def straddle_fault(
    rule: int,
    index: int,
    seat: int,
    total: int,
    previous: int,
    n: int,
    posted: int,
    to_match: int,
    last_raise: int,
    stack: int,
) -> tuple[int, int, int]:
    """Why straddle ``index`` (0 the first) by ``seat`` to ``total`` may not be posted, as
    (status, a, b), or (COMPLETED, 0, 0) when it may (Rules 002_376df91f076a6501.txt,
    'Straddle bets').

    A live straddle comes from the seat left of the big blind, each re-straddle left of the
    last straddle (:data:`STRADDLE_OUT_OF_ORDER`, a the seat due, b ``previous``); a
    Mississippi straddle from any seat, each re-straddle from the seat right of the last.
    None from a seat in ``posted`` (a blind or straddle already: :data:`STRADDLE_AFTER_POST`);
    each at least a minimum raise (:data:`STRADDLE_NOT_A_RAISE`, a the minimum, b ``total``)
    and covered by its poster's ``stack`` (:data:`STRADDLE_NOT_COVERED`, b ``total``).
    ``previous`` is the big blind's seat for the first straddle, else the last straddle's."""
    if rule == STRADDLES_LIVE or index > 0:
        expected = (previous + (1 if rule == STRADDLES_LIVE else n - 1)) % n
        if seat != expected:
            return STRADDLE_OUT_OF_ORDER, expected, previous
    if (posted >> seat) & 1:
        return STRADDLE_AFTER_POST, 0, 0
    if total < to_match + last_raise:
        return STRADDLE_NOT_A_RAISE, to_match + last_raise, total
    if total > stack:
        return STRADDLE_NOT_COVERED, 0, total
    return COMPLETED, 0, 0


@nb.njit(cache=True)
def can_bet(s: int, folded: int, stack: Chips) -> bool:
    """Whether seat ``s`` is still in and has chips to bet."""
    return (folded >> s) & 1 == 0 and stack[s] > 0


@nb.njit(cache=True)
def needs_to_act(
    s: int,
    n: int,
    folded: int,
    acted: int,
    to_match: int,
    stack: Chips,
    round_bets: Chips,
) -> bool:
    """Whether seat ``s`` has still to act this round (Rules 002_376df91f076a6501.txt,
    'Procedure'): in, with chips, and facing a bet; or matched but not acted since the last
    reopening while someone else could still answer a raise (the big blind's option: 'the
    big blind has the option of raising')."""
    if not can_bet(s, folded, stack):
        return False
    if round_bets[s] < to_match:
        return True
    if (acted >> s) & 1:
        return False
    answerable = False
    for o in range(n):
        if o != s and can_bet(o, folded, stack):
            answerable = True
            break
    return answerable


@nb.njit(cache=True)
def next_to_act(
    start: int,
    include_start: bool,
    n: int,
    folded: int,
    acted: int,
    to_match: int,
    stack: Chips,
    round_bets: Chips,
    cycle: Seats,
) -> int:
    """The next seat after ``start`` (or ``start`` itself, with ``include_start``) in the
    round's order of action that still has to act (:func:`needs_to_act`), or -1.  The order
    is clockwise when ``cycle`` is empty, else the seats of ``cycle`` in turn (a kill blind
    acts last before the flop, Rules 002_376df91f076a6501.txt, 'Kill game')."""
    ordered = len(cycle) > 0
    at = start
    if ordered:
        for k in range(n):
            if cycle[k] == start:
                at = k
    for step in range(0 if include_start else 1, n + 1):
        k = (at + step) % n
        s = cycle[k] if ordered else k
        if needs_to_act(s, n, folded, acted, to_match, stack, round_bets):
            return s
    return -1


@nb.njit(cache=True)
def raise_bounds(
    limit: int,
    size: int,
    spread_low: int,
    spread_high: int,
    to_match: int,
    own: int,
    last_raise: int,
    bets_made: int,
    contesting: int,
    pot: int,
    bonus: int,
    max_bets: int,
    cap_lifted_heads_up: bool,
) -> tuple[bool, int, int]:
    """(allowed, low, high): the legal bet or raise-to totals of the round by rule, before the
    player's stack counts; not allowed when the cap forbids another bet or raise.

    Rules 002_376df91f076a6501.txt, 'Limits': fixed limit bets and raises by the round's bet
    ``size`` ('all bets and raises are of a fixed amount'); spread limit by
    ``spread_low``..``spread_high``, a raise 'at least equal to the previous bet or raise';
    pot limit up to the pot after the call ('the maximum raise is the size of the pot after
    the call'; ``bonus`` the chips a pot-limit convention counts unposted, a small blind
    counted as a big one); no limit to the whole stake (:data:`NO_LIMIT_HIGH`).  The minimum
    raise is the last full bet or raise, and never below the round's bet.  ``max_bets``
    (-1: uncapped) caps the round's bets and raises ('Maximum number of raises'), lifted with
    ``cap_lifted_heads_up`` while ``contesting`` (the players able to bet as the cap was
    reached, or now) are two ('It is common to suspend this rule when there are only two
    players betting in the round').  A blind or bring-in below the bet is no bet
    (``bets_made`` 0): the first bet completes it to a full one."""
    if max_bets >= 0 and bets_made >= max_bets and not (cap_lifted_heads_up and contesting <= 2):
        return False, 0, 0
    if limit == LIMIT_FIXED:
        total = to_match + size if to_match >= size else size
        return True, total, total
    completing = bets_made == 0 and to_match < size
    if limit == LIMIT_SPREAD:
        smallest = spread_low if completing else to_match + max(spread_low, last_raise)
        return True, smallest, max(smallest, to_match + spread_high)
    low = size if completing or to_match == 0 else to_match + max(last_raise, size)
    if limit == LIMIT_NO:
        return True, low, NO_LIMIT_HIGH
    # Pot limit: call first, then raise by at most the pot as it would then stand.
    high = to_match + pot + bonus + (to_match - own)
    return True, low, max(low, high)
