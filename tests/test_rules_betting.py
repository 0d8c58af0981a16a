"""The betting's arithmetic in simulations.rules.betting: the rule texts' worked examples, the
rules' invariants over many random rounds, and that every tier calls these functions (no copy
of its own).

Each example runs twice: compiled (the kernels' way) and as plain Python (``plain_python``, the
reference engine's way).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulations.engine import limits, posting, replay_kernel
from simulations.engine.compiled import source as compiled_source
from simulations.models import table_kernel
from simulations.phh import count, fast
from simulations.phh.scan import LINE_BET_RAISE, LINE_CHECK_CALL, LINE_FOLD
from simulations.rules import betting, codes
from simulations.rules.codes import (
    COMPLETED,
    LIMIT_FIXED,
    LIMIT_NO,
    LIMIT_POT,
    LIMIT_SPREAD,
    NO_LIMIT_HIGH,
    STRADDLE_AFTER_POST,
    STRADDLE_NOT_A_RAISE,
    STRADDLE_NOT_COVERED,
    STRADDLE_OUT_OF_ORDER,
    STRADDLES_LIVE,
    STRADDLES_MISSISSIPPI,
)
from simulations.rules.tiers import plain_python

WAYS = pytest.mark.parametrize("compiled", [True, False], ids=["numba", "python"])


def _way(function: Any, compiled: bool) -> Callable[..., Any]:
    return function if compiled else plain_python(function)  # type: ignore[no-any-return]


def _bounds(compiled: bool, limit: int, **numbers: int) -> tuple[bool, int, int] | None:
    """raise_bounds with the numbers named; the defaults a round with no cap, three players."""
    given = {
        "size": 10,
        "spread_low": 10,
        "spread_high": 10,
        "to_match": 0,
        "own": 0,
        "last_raise": 0,
        "bets_made": 0,
        "contesting": 3,
        "pot": 0,
        "bonus": 0,
        "max_bets": -1,
        "cap_lifted_heads_up": True,
    }
    given.update(numbers)
    allowed, low, high = _way(betting.raise_bounds, compiled)(limit, *given.values())
    return (int(low), int(high)) if allowed else None  # type: ignore[return-value]


@WAYS
def test_pot_limit_ten_forty_one_forty(compiled: bool) -> None:
    """Rules 002_376df91f076a6501.txt, 'Pot limit': with $10 in the pot the first player may
    open for $10; the next may raise to $40; the third to $140 ('Any player may also raise
    less than the maximum so long as the amount of the raise is equal to or greater than any
    previous bet or raise')."""
    assert _bounds(compiled, LIMIT_POT, size=1, pot=10) == (1, 10)
    assert _bounds(
        compiled, LIMIT_POT, size=1, pot=20, to_match=10, last_raise=10, bets_made=1
    ) == (
        20,
        40,
    )
    assert _bounds(
        compiled, LIMIT_POT, size=1, pot=60, to_match=40, last_raise=30, bets_made=2
    ) == (
        70,
        140,
    )


@WAYS
def test_pot_limit_small_blind_counted_as_big(compiled: bool) -> None:
    """Rules 002_376df91f076a6501.txt, 'treat the small blind as if it were the same size of
    the big blind': blinds $5/$10, a player may open to $40 (as posted: $35)."""
    numbers = {"pot": 15, "to_match": 10, "last_raise": 10, "bets_made": 1}
    assert _bounds(compiled, LIMIT_POT, **numbers) == (20, 35)
    assert _bounds(compiled, LIMIT_POT, bonus=5, **numbers) == (20, 40)


@WAYS
def test_fixed_limit_cap_and_heads_up(compiled: bool) -> None:
    """Rules 002_376df91f076a6501.txt, 'Maximum number of raises': in $20/$40 with a bet and
    three raises, A bets $20, B makes it $40, C $60, A $80 and the betting is capped; 'It is
    common to suspend this rule when there are only two players betting in the round'."""
    cap = {"size": 20, "max_bets": 4, "last_raise": 20}
    totals = []
    to_match = 0
    for bets in range(4):
        found = _bounds(compiled, LIMIT_FIXED, to_match=to_match, bets_made=bets, **cap)
        assert found is not None and found[0] == found[1]
        to_match = found[0]
        totals.append(to_match)
    assert totals == [20, 40, 60, 80]
    assert _bounds(compiled, LIMIT_FIXED, to_match=80, bets_made=4, **cap) is None
    assert _bounds(compiled, LIMIT_FIXED, to_match=80, bets_made=4, contesting=2, **cap) == (
        100,
        100,
    )
    lifted_not = {**cap, "cap_lifted_heads_up": False}
    assert (
        _bounds(compiled, LIMIT_FIXED, to_match=80, bets_made=4, contesting=2, **lifted_not) is None
    )


@WAYS
def test_completing_a_sub_minimum_blind(compiled: bool) -> None:
    """Rules 002_376df91f076a6501.txt, 'completing the bet': with a $5 bet and blinds of
    $1/$2 players call $2 or raise to $5; the next raise is to $10.  The blind is no bet
    toward the cap (Rules 001_af8fb40237a5ae1f.txt: 'treated the same way a sub-minimum
    bring-in is treated in stud poker')."""
    f = _way(betting.blind_bets_made, compiled)
    assert f(2, 5) == 0 and f(5, 5) == 1
    assert _bounds(compiled, LIMIT_FIXED, size=5, to_match=2, last_raise=2) == (5, 5)
    assert _bounds(compiled, LIMIT_FIXED, size=5, to_match=5, last_raise=5, bets_made=1) == (10, 10)


@WAYS
def test_spread_limit_and_no_limit_minimum_raise(compiled: bool) -> None:
    """Rules 002_376df91f076a6501.txt, 'Spread limit': "one to five, ten on the end"; a raise
    'must be at least equal to the amount of the previous bet or raise' (facing $8 with a
    $1-$10 spread: $16 to $18); no limit: facing $5, a raise by at least another $5, up to
    everything."""
    assert _bounds(compiled, LIMIT_SPREAD, size=1, spread_low=1, spread_high=5) == (1, 5)
    facing = {"size": 1, "spread_low": 1, "spread_high": 10, "to_match": 8, "last_raise": 8}
    assert _bounds(compiled, LIMIT_SPREAD, bets_made=1, **facing) == (16, 18)
    assert _bounds(compiled, LIMIT_NO, size=2, to_match=5, last_raise=5, bets_made=1) == (
        10,
        NO_LIMIT_HIGH,
    )


@given(
    limit=st.sampled_from([LIMIT_FIXED, LIMIT_SPREAD, LIMIT_POT, LIMIT_NO]),
    size=st.integers(1, 50),
    spread=st.tuples(st.integers(1, 50), st.integers(0, 50)),
    to_match=st.integers(0, 400),
    own_share=st.integers(0, 100),
    last_raise=st.integers(0, 200),
    bets_made=st.integers(0, 6),
    contesting=st.integers(2, 9),
    pot=st.integers(0, 2000),
    max_bets=st.integers(-1, 5),
)
@settings(max_examples=400, deadline=None)
def test_raise_bounds_invariants(
    limit: int,
    size: int,
    spread: tuple[int, int],
    to_match: int,
    own_share: int,
    last_raise: int,
    bets_made: int,
    contesting: int,
    pot: int,
    max_bets: int,
) -> None:
    """Every structure, any round: capped exactly when the cap is reached with more than two
    players able to bet; otherwise a raise that is a full one (at least the last raise and the
    round's bet over what stands, or a bet completing a sub-minimum blind), and never above
    the structure's maximum — the pot after the call, the spread's top over the bet, the
    fixed bet over it."""
    own = to_match * own_share // 100
    low_spread, high_spread = spread[0], spread[0] + spread[1]
    if limit == LIMIT_SPREAD:
        size = low_spread  # the spread's minimum is the round's bet (Stakes.bet_size)
    found = _bounds(
        True,
        limit,
        size=size,
        spread_low=low_spread,
        spread_high=high_spread,
        to_match=to_match,
        own=own,
        last_raise=last_raise,
        bets_made=bets_made,
        contesting=contesting,
        pot=pot,
        max_bets=max_bets,
    )
    capped = 0 <= max_bets <= bets_made and contesting > 2
    assert (found is None) == capped
    if found is None:
        return
    low, high = found
    assert to_match < low <= high
    completing = bets_made == 0 and to_match < size
    if limit == LIMIT_FIXED:
        assert low == high == (size if to_match < size else to_match + size)
    elif limit == LIMIT_SPREAD:
        assert low == (low_spread if completing else to_match + max(low_spread, last_raise))
        assert high == max(low, to_match + high_spread)
    else:
        if not completing and to_match:
            assert low - to_match >= max(last_raise, size)
        if limit == LIMIT_NO:
            assert high == NO_LIMIT_HIGH
        else:
            call = to_match - own
            assert high == max(low, to_match + (pot + call))  # 'the pot after the call'


@WAYS
def test_blind_seats(compiled: bool) -> None:
    """Rules 002_376df91f076a6501.txt, 'Blinds': the blinds left of the button; 'When there
    are only two players': the button posts the small blind, the other the big one (unless
    the history says both sit left of it); with three blinds the first may be on the button
    (Q-Ball, Rules 000_1a86611de8d3f5f7.txt)."""
    f = _way(betting.blind_seat, compiled)
    assert [f(j, 6, 2, 3, False, False) for j in range(2)] == [4, 5]
    assert [f(j, 6, 2, 5, False, False) for j in range(2)] == [0, 1]
    assert [f(j, 2, 2, 1, False, False) for j in range(2)] == [1, 0]
    assert [f(j, 2, 2, 1, False, True) for j in range(2)] == [0, 1]
    assert [f(j, 6, 3, 2, True, False) for j in range(3)] == [2, 3, 4]


@WAYS
@pytest.mark.parametrize("ante_first", [True, False])
def test_forced_bets_in_the_order_the_money_goes(compiled: bool, ante_first: bool) -> None:
    """Rules 002_376df91f076a6501.txt, 'All in before the deal': 'Any money the player holds
    must be applied to the ante first', and a player short of the blinds is all in for what
    he has.  A big blind of 15 chips owing a $10 blind and a $10 big-blind ante: ante first,
    all $10 of it goes dead and $5 plays as his blind; blind first, the $10 blind plays and
    $5 goes dead."""
    stack = np.array([100, 3, 15, 100], dtype=np.int64)
    contributed = np.zeros(4, dtype=np.int64)
    round_bets = np.zeros(4, dtype=np.int64)
    dead = np.zeros(4, dtype=np.int64)
    blinds = np.array([5, 10], dtype=np.int64)
    chips, mask, big = _way(betting.post_blinds, compiled)(
        4, 0, blinds, False, False, 10, ante_first, stack, contributed, round_bets, dead
    )
    assert big == 2 and mask == 0b110
    assert round_bets.tolist() == [0, 3, 5 if ante_first else 10, 0]  # seat 1 all in for 3
    assert dead.tolist() == [0, 0, 10 if ante_first else 5, 0]
    assert stack.tolist() == [100, 0, 0, 100] and chips == 18 == contributed.sum()
    antes = np.array([100, 2, 7, 100], dtype=np.int64)
    put = np.zeros(4, dtype=np.int64)
    assert _way(betting.post_antes, compiled)(4, 3, 5, antes, put) == 17
    assert put.tolist() == [5, 2, 5, 5]


@WAYS
def test_straddles(compiled: bool) -> None:
    """Rules 002_376df91f076a6501.txt, 'Live straddle': from the player left of the big
    blind, each re-straddle from the player to the left of it, each a raise; 'Mississippi
    straddle': with $10-25 blinds the button puts a live $50 on it — from any seat, a
    re-straddle from the seat to its right."""
    f = _way(betting.straddle_fault, compiled)
    # Six seats, button 0, blinds $1/$2 at seats 1 and 2.
    assert f(STRADDLES_LIVE, 0, 3, 4, 2, 6, 0b110, 2, 2, 100) == (COMPLETED, 0, 0)
    assert f(STRADDLES_LIVE, 0, 4, 4, 2, 6, 0b110, 2, 2, 100) == (STRADDLE_OUT_OF_ORDER, 3, 2)
    assert f(STRADDLES_LIVE, 1, 4, 8, 3, 6, 0b1110, 4, 2, 100) == (COMPLETED, 0, 0)
    assert f(STRADDLES_LIVE, 0, 3, 3, 2, 6, 0b110, 2, 2, 100) == (STRADDLE_NOT_A_RAISE, 4, 3)
    assert f(STRADDLES_LIVE, 0, 3, 4, 2, 6, 0b110, 2, 2, 3) == (STRADDLE_NOT_COVERED, 0, 4)
    # Mississippi, blinds $10/$25: the button (seat 0) straddles $50; seat 5 re-straddles.
    assert f(STRADDLES_MISSISSIPPI, 0, 0, 50, 2, 6, 0b110, 25, 25, 500) == (COMPLETED, 0, 0)
    assert f(STRADDLES_MISSISSIPPI, 0, 1, 50, 2, 6, 0b110, 25, 25, 500)[0] == STRADDLE_AFTER_POST
    assert f(STRADDLES_MISSISSIPPI, 1, 5, 100, 0, 6, 0b111, 50, 25, 500) == (COMPLETED, 0, 0)
    assert f(STRADDLES_MISSISSIPPI, 1, 1, 100, 0, 6, 0b111, 50, 25, 500)[0] == (
        STRADDLE_OUT_OF_ORDER
    )


@WAYS
def test_who_must_act(compiled: bool) -> None:
    """Rules 002_376df91f076a6501.txt, 'Procedure': action starts left of the big blind and
    'the big blind has the option of raising' when the action comes back unraised; a player
    all in acts no more, and a matched player with nobody left to answer a raise is done."""
    needs = _way(betting.needs_to_act, compiled)
    nxt = _way(betting.next_to_act, compiled)
    clockwise = np.zeros(0, dtype=np.int64)
    stack = np.array([98, 99, 98, 98], dtype=np.int64)
    bets = np.array([2, 1, 2, 2], dtype=np.int64)  # button and seat 3 called; small blind to act
    acted = 0b1001
    assert nxt(3, False, 4, 0, acted, 2, stack, bets, clockwise) == 1
    bets[1] = 2
    acted |= 0b10
    assert nxt(1, False, 4, 0, acted, 2, stack, bets, clockwise) == 2  # the big blind's option
    assert needs(2, 4, 0, acted, 2, stack, bets)
    assert nxt(2, False, 4, 0, acted | 0b100, 2, stack, bets, clockwise) == -1
    # Heads-up, the other player all in: the matched big blind has nobody to raise.
    assert not needs(1, 2, 0, 0, 10, np.array([0, 90]), np.array([10, 10]))
    # A kill blind's order: seat 0 acts last before the flop.
    kill = np.array([2, 3, 1, 0], dtype=np.int64)
    level = np.array([100, 100, 100, 100], dtype=np.int64)
    assert nxt(1, False, 4, 0, 0, 4, level, np.array([4, 1, 2, 0]), kill) == 0
    assert nxt(3, False, 4, 0, 0, 4, level, np.array([4, 4, 4, 4]), kill) == 1


# Each rule's callers: module -> {its global name: the rule's function in simulations.rules}.
CALLERS: dict[str, list[tuple[ModuleType, str, Any, bool]]] = {
    "blind_seat": [
        (replay_kernel, "blind_seat", betting.blind_seat, True),
        (posting, "_blind_seat", betting.blind_seat, False),
        (table_kernel, "blind_seat", betting.blind_seat, True),
    ],
    "posting": [
        (replay_kernel, "post_antes", betting.post_antes, True),
        (replay_kernel, "post_blinds", betting.post_blinds, True),
        (replay_kernel, "post_live", betting.post_live, True),
        (count, "post_antes", betting.post_antes, True),
        (count, "post_blinds", betting.post_blinds, True),
        (count, "post_live", betting.post_live, True),
        (fast, "_post_antes", betting.post_antes, False),
        (fast, "_post_blinds", betting.post_blinds, False),
        (fast, "_post_live", betting.post_live, False),
        (posting, "_forced_chips", betting.forced_chips, False),
        (posting, "_blind_bets_made", betting.blind_bets_made, False),
        (replay_kernel, "blind_bets_made", betting.blind_bets_made, True),
    ],
    "straddles": [
        (replay_kernel, "straddle_fault", betting.straddle_fault, True),
        (posting, "_straddle_fault", betting.straddle_fault, False),
    ],
    # The reference engine keeps its own compiled turn order (Hand._next_to_act over its
    # lists and sets): the plain-Python call cost it twice its speed, measured; the replay
    # kernel's agreement with it is test_engine_replay.py's.
    "who_acts": [
        (replay_kernel, "next_to_act", betting.next_to_act, True),
    ],
    # A PHH line read as the kernel's action by a count of the chips (simulations.phh.count):
    # the compiled count and the Python reader's fast path.
    "count_line": [
        (count, "count_line", count.count_line, True),
        (fast, "_count_line", count.count_line, False),
    ],
    "raise_bounds": [
        (replay_kernel, "raise_bounds", betting.raise_bounds, True),
        (limits, "_raise_bounds", betting.raise_bounds, False),
    ],
}
# Names the copies went by: no caller defines a function of these names any more.
COPIES = {
    "_blind_seat",
    "_post_dead",
    "_needs_to_act",
    "_others_can_bet",
    "_raise_bounds",
}


@pytest.mark.parametrize("rule", sorted(CALLERS))
def test_callers_reach_one_function(rule: str) -> None:
    """Every caller's global is the rules core's function (compiled, or its plain-Python
    ``plain_python``), and its source calls it."""
    for module, name, function, compiled in CALLERS[rule]:
        expected = function if compiled else plain_python(function)
        assert getattr(module, name) is expected, f"{module.__name__}.{name}"
        tree = ast.parse(compiled_source(module.__name__).read_text())
        called = {
            node.func.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        assert name in called, f"{module.__name__} never calls {name}"


@pytest.mark.parametrize(
    "module",
    [replay_kernel, posting, limits, count, fast, table_kernel],
    ids=lambda module: module.__name__,
)
def test_no_copy_left(module: ModuleType) -> None:
    """No caller defines a function under a name a copy of the rules went by, nor one of the
    rules core's own names."""
    tree = ast.parse(compiled_source(module.__name__).read_text())
    defined = {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    own = {name for name in dir(betting) if not name.startswith("_")}
    if module is limits:
        # The engine's typed view (a RoundView in, RaiseBounds out) over the same function:
        # test_callers_reach_one_function sees it call the rules core's.
        own.discard("raise_bounds")
    assert not defined & (COPIES | own), defined & (COPIES | own)


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "plain"])
def test_a_phh_line_counted_as_the_kernels_action(compiled: bool) -> None:
    """``count.count_line``, the one reading of a ``cc`` or ``cbr`` line by the chips in front
    of each player.  Rules 002_376df91f076a6501.txt, '= Check =': 'If no one has yet opened
    the betting round, a player may check' — a ``cc`` with nothing owed is a check, with a
    bet standing a call (all in for less when the stack is short); a ``cbr`` with no bet
    standing is a bet, over one a raise."""
    line = count.count_line if compiled else plain_python(count.count_line)

    def table(values: list[int]) -> Any:
        return np.array(values, dtype=np.int64) if compiled else list(values)

    stacks, put, bets = table([100, 100, 30]), table([0, 0, 0]), table([0, 0, 0])
    folded = np.zeros(3, dtype=np.bool_) if compiled else [False] * 3
    assert line(LINE_CHECK_CALL, 0, 0, 3, 0, stacks, put, bets, folded) == (codes.CHECK, 0, 0)
    assert line(LINE_BET_RAISE, 1, 40, 3, 0, stacks, put, bets, folded) == (codes.BET, 40, 40)
    assert line(LINE_CHECK_CALL, 2, 0, 3, 40, stacks, put, bets, folded) == (codes.CALL, 0, 40)
    assert list(stacks) == [100, 60, 0] and list(put) == [0, 40, 30]  # all in for 30
    assert line(LINE_BET_RAISE, 0, 100, 3, 40, stacks, put, bets, folded) == (codes.RAISE, 100, 100)
    # A raise that adds nothing, or more than the stack holds, is no action the kernel plays.
    assert line(LINE_BET_RAISE, 1, 40, 3, 100, stacks, put, bets, folded)[0] == -1
    assert line(LINE_BET_RAISE, 1, 500, 3, 100, stacks, put, bets, folded)[0] == -1
    assert line(LINE_FOLD, 1, 0, 3, 100, stacks, put, bets, folded) == (codes.FOLD, 0, 100)
    assert bool(folded[1])
    # Seat 0 all in, seat 1 folded, seat 2 all in: a check now is one nobody could answer.
    assert line(LINE_CHECK_CALL, 2, 0, 3, 0, stacks, put, table([0, 0, 0]), folded)[0] == -1
