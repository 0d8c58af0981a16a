"""Settling a hand's money, rule by rule (simulations/rules/settle.py): the uncalled bet, the
chips no live player can win, the main pot and side pots, and each pot's award clockwise from
the button — worked examples from the rule texts, brute-force oracles (a pot per chip, the
chips dealt out one at a time), and every tier reaching the one function of each rule."""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulations.engine import pots, replay_kernel
from simulations.engine import settle as engine_settle
from simulations.models import guts_kernel, table_kernel
from simulations.phh import count, fast
from simulations.rules import settle
from simulations.rules.odd_chips import ALL_TO_FIRST, ONE_EACH
from simulations.rules.tiers import plain_python

ROOT = Path(__file__).resolve().parent.parent


def tiers(rule: Any) -> list[Callable[..., Any]]:
    """The rule compiled (over int64 arrays) and as plain Python (over lists)."""
    return [rule, plain_python(rule)]


def arrays(values: Sequence[int], compiled: bool) -> Any:
    return np.array(values, dtype=np.int64) if compiled else list(values)


def mask(seats: Sequence[int]) -> int:
    return sum(1 << s for s in set(seats))


def pots_of(contributions: Sequence[int], live: int, compiled: bool) -> list[tuple[int, int, int]]:
    """Every pot (level, chips, eligible mask), main pot first."""
    side_pot = settle.side_pot if compiled else plain_python(settle.side_pot)
    chips = arrays(contributions, compiled)
    found, floor = [], 0
    while True:
        level, amount, eligible = side_pot(chips, live, floor)
        if level < 0:
            return found
        found.append((int(level), int(amount), int(eligible)))
        floor = level


# The uncalled bet.


@pytest.mark.parametrize("compiled", [True, False])
def test_the_bettor_takes_back_what_was_not_called(compiled: bool) -> None:
    """Rules 001_af8fb40237a5ae1f.txt: 'The original bettor then takes back the part of his
    bet that exceeds the amount of the call': a $100 bet called for $60 all in gives $40
    back; Rules 002_376df91f076a6501.txt, 'All in before the deal': Carol raises to $16
    (with her $1 ante, 17 in), Bob had called $8 (9 in): her $8 above Bob comes back."""
    uncalled_bet = tiers(settle.uncalled_bet)[0 if compiled else 1]
    assert tuple(uncalled_bet(arrays([100, 60], compiled))) == (0, 40)
    example = [1 + 4, 1 + 7, 1 + 8, 1 + 16, 1, 1, 1, 1, 1, 1]
    assert tuple(uncalled_bet(arrays(example, compiled))) == (3, 8)
    # Matched, or nothing in: nothing goes back.
    assert tuple(uncalled_bet(arrays([20, 5, 20], compiled))) == (settle.NO_SEAT, 0)
    assert tuple(uncalled_bet(arrays([0, 0, 0], compiled))) == (settle.NO_SEAT, 0)
    assert tuple(uncalled_bet(arrays([7], compiled))) == (0, 7)


@settings(deadline=None)
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=10))
def test_the_uncalled_bet_is_the_top_over_the_next(contributions: list[int]) -> None:
    """Oracle: sort the contributions; the top one's excess over the next is handed back to
    the first seat that put the top amount in."""
    ranked = sorted(contributions, reverse=True)
    excess = ranked[0] - (ranked[1] if len(ranked) > 1 else 0)
    want = (contributions.index(ranked[0]), excess) if excess else (settle.NO_SEAT, 0)
    for rule in tiers(settle.uncalled_bet):
        compiled = rule is settle.uncalled_bet
        assert tuple(int(x) for x in rule(arrays(contributions, compiled))) == want


# Chips above every live player.


@pytest.mark.parametrize("compiled", [True, False])
def test_no_one_wins_more_from_a_player_than_he_put_in(compiled: bool) -> None:
    """Rules 004_53770b236994c31b.txt: an all-in player 'may not win any more money from any
    player above the amount of his bet'.  The big blind is all in for 3 of a 10 blind; the
    small blind (5) and a straddler (20) fold to him: the straddle's 15 above the small blind
    is uncalled, and 2 of each folded blind above his 3 goes back too — he plays for 9."""
    uncalled_bet = tiers(settle.uncalled_bet)[0 if compiled else 1]
    above = tiers(settle.return_above_live)[0 if compiled else 1]
    chips = arrays([5, 3, 20], compiled)
    seat, excess = uncalled_bet(chips)
    assert (seat, excess) == (2, 15)
    chips[seat] -= excess
    back = arrays([0, 0, 0], compiled)
    above(chips, mask([1]), back)
    assert list(chips) == [3, 3, 3] and list(back) == [2, 0, 2]
    # With a live player above everyone, nothing moves.
    chips = arrays([10, 3, 10], compiled)
    back = arrays([0, 0, 0], compiled)
    above(chips, mask([1, 2]), back)
    assert list(chips) == [10, 3, 10] and list(back) == [0, 0, 0]


# Main pot and side pots.


@pytest.mark.parametrize("compiled", [True, False])
def test_the_main_pot_and_a_side_pot(compiled: bool) -> None:
    """Rules 004_53770b236994c31b.txt: the opener bets $20, the next player is all in for $5,
    the third calls $20: 'his $5, and $5 from each of the other players, is collected into
    the central pot (now called the main pot)'; 'The remaining money from the still-active
    bettors, in this case $15 apiece, is collected into a side pot that only the players who
    contributed to it are eligible to win'."""
    assert pots_of([20, 5, 20], mask([0, 1, 2]), compiled) == [
        (5, 15, mask([0, 1, 2])),
        (20, 30, mask([0, 2])),
    ]


@pytest.mark.parametrize("compiled", [True, False])
def test_all_in_before_the_deal(compiled: bool) -> None:
    """Rules 002_376df91f076a6501.txt, 'All in before the deal': $1 antes, $4/$8 blinds;
    Alice (seat 1) is all in for $8 in the big blind, Bob (2) calls $8, Carol (3) raises to
    $16, everyone folds, then Bob: 'The main pot is therefore $10+$4+$21=$35.  The side pot of
    $10 ($1 in excess of Alice's all-in bet from Bob, and $9 in excess of Alice's all-in bet
    from Carol) is paid immediately to Carol' — $2 of it as the side pot, $8 as her uncalled
    raise."""
    chips = [1 + 4, 1 + 7, 1 + 8, 1 + 16, 1, 1, 1, 1, 1, 1]
    seat, excess = settle.uncalled_bet(np.array(chips))
    chips[seat] -= int(excess)
    found = pots_of(chips, mask([1, 3]), compiled)
    assert found == [(8, 35, mask([1, 3])), (9, 2, mask([3]))]
    assert found[1][1] + excess == 10


def chip_oracle(contributions: Sequence[int], live: Sequence[int]) -> list[tuple[int, int, int]]:
    """A pot per chip: the u-th chip of every seat (u = 1, 2, ...) belongs to the pot that
    closes at the smallest live contribution of at least u; pots keyed by that level."""
    levels: dict[int, list[int]] = {}
    for chips in contributions:
        for u in range(1, chips + 1):
            closing = min((contributions[s] for s in live if contributions[s] >= u), default=None)
            if closing is not None:
                levels.setdefault(closing, [0])[0] += 1
    return [
        (level, count[0], mask([s for s in live if contributions[s] >= level]))
        for level, count in sorted(levels.items())
    ]


@settings(deadline=None)
@given(
    st.lists(st.integers(0, 40), min_size=1, max_size=9),
    st.lists(st.booleans(), min_size=9, max_size=9),
)
def test_side_pots_against_a_pot_per_chip(contributions: list[int], flags: list[bool]) -> None:
    """Every chip lands in one pot, the one its height reaches; the pots hold every chip
    once the chips above every live player have gone back; only live seats that reached a
    pot's level may win it."""
    live = [s for s in range(len(contributions)) if flags[s]]
    if not live:
        live = [0]
    want = chip_oracle(contributions, live)
    for compiled in (True, False):
        assert pots_of(contributions, mask(live), compiled) == want
    chips = np.array(contributions, dtype=np.int64)
    back = np.zeros_like(chips)
    settle.return_above_live(chips, mask(live), back)
    got = pots_of(list(chips), mask(live), True)
    assert sum(amount for _, amount, _ in got) == chips.sum()
    assert chips.sum() + back.sum() == sum(contributions)


# The award, clockwise from the button.


def dealt_out(amount: int, order: Sequence[int], rule: int) -> dict[int, int]:
    """Oracle: the chips dealt out one at a time round the winners clockwise from the
    button's left (the button's next winner first) — in full rounds only, the rest to the
    first winner, under ALL_TO_FIRST."""
    got = dict.fromkeys(order, 0)
    left, k = amount, len(order)
    while left >= k or (left and rule == ONE_EACH):
        for seat in order[: min(k, left)]:
            got[seat] += 1
        left -= min(k, left)
    got[order[0]] += left
    return got


@pytest.mark.parametrize("compiled", [True, False])
def test_the_odd_chip_goes_left_of_the_button(compiled: bool) -> None:
    """Rules 000_1a86611de8d3f5f7.txt: 'the pot is split equally amongst all remaining
    players, with any extra chips going to the person closest to the button in clockwise
    order'; 11 between seats 2 and 5 with the button on 4: seat 5 takes 6."""
    award = tiers(settle.award_clockwise)[0 if compiled else 1]
    out = arrays([0] * 6, compiled)
    award(11, mask([2, 5]), 4, ALL_TO_FIRST, out)
    assert list(out) == [0, 0, 5, 0, 0, 6]
    out = arrays([0] * 6, compiled)
    award(23, mask([1, 3, 4, 5]), 3, ALL_TO_FIRST, out)  # three odd chips, all to seat 4
    assert list(out) == [0, 5, 0, 5, 8, 5]
    out = arrays([0] * 6, compiled)
    award(23, mask([1, 3, 4, 5]), 3, ONE_EACH, out)  # one each to 4, 5 and 1
    assert list(out) == [0, 6, 0, 5, 6, 6]
    out = arrays([100, 0, 0], compiled)  # added to what the seat has
    award(9, mask([0]), 0, ALL_TO_FIRST, out)
    assert list(out) == [109, 0, 0]


@settings(deadline=None)
@given(
    st.integers(0, 2_000),
    st.sets(st.integers(0, 9), min_size=1),
    st.integers(0, 9),
    st.sampled_from([ALL_TO_FIRST, ONE_EACH]),
)
def test_the_award_against_chips_dealt_one_at_a_time(
    amount: int, winners: set[int], button: int, rule: int
) -> None:
    n = 10
    order = [(button + 1 + k) % n for k in range(n) if (button + 1 + k) % n in winners]
    want = [dealt_out(amount, order, rule).get(s, 0) for s in range(n)]
    for compiled in (True, False):
        out = arrays([0] * n, compiled)
        tiers(settle.award_clockwise)[0 if compiled else 1](
            amount, mask(winners), button, rule, out
        )
        assert [int(x) for x in out] == want


def test_the_plain_python_tier_settles_chips_past_64_bits() -> None:
    """Guts without a cap: a pot past 2^63 chips split by the rule's own Python source."""
    out = [0, 0, 0]
    plain_python(settle.award_clockwise)(2**70 + 1, mask([0, 2]), 0, ALL_TO_FIRST, out)
    assert out == [2**69, 0, 2**69 + 1]
    assert pots.split(2**70 + 1, [0, 2], button=0, n_seats=3) == {2: 2**69 + 1, 0: 2**69}


# Every tier reaches the one function of each rule.

KERNELS: dict[str, list[ModuleType]] = {
    "uncalled_bet": [replay_kernel, table_kernel, count],
    "return_above_live": [replay_kernel],
    "side_pot": [replay_kernel],
    "award_clockwise": [replay_kernel, table_kernel, guts_kernel],
    "best_hands": [replay_kernel, table_kernel, guts_kernel],
}
# The reference engine settles through simulations.engine.pots's two forms of the rules
# (Tier): compiled, or their source as plain Python for chips past 64 bits.
ENGINE: dict[str, list[ModuleType]] = {
    "uncalled_bet": [engine_settle],
    "return_above_live": [engine_settle],
    "side_pot": [pots],
    "award_clockwise": [pots],
}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_every_kernel_binds_the_one_rule_function(name: str) -> None:
    rule = getattr(settle, name)
    for module in KERNELS[name]:
        assert getattr(module, name) is rule, (module.__name__, name)


def test_the_engine_picks_each_pots_winners_by_the_one_rule() -> None:
    """The engine's winners of a pot (``pots.best_seats``, for every half and declare) come
    from the rule's own source, run as plain Python."""
    assert pots.best_hands is plain_python(settle.best_hands)
    assert pots.best_hands.__code__ is settle.best_hands.py_func.__code__
    assert "best_hands" in calls_in(source_of(pots))


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "plain"])
def test_the_best_hands_of_a_pot(compiled: bool) -> None:
    """Rules 001_af8fb40237a5ae1f.txt: 'the player with the best hand wins the pot'; equal
    best hands all win (they split it), a seat not eligible never does, whatever it holds."""
    best = settle.best_hands if compiled else plain_python(settle.best_hands)
    values = arrays([7, 9, 9, 12, 3], compiled)
    assert best(values, mask([0, 1, 2, 4])) == mask([1, 2])  # a tie between seats 1 and 2
    assert best(values, mask([0, 1, 2, 3, 4])) == mask([3])
    assert best(values, mask([4])) == mask([4])
    assert best(values, 0) == 0  # nobody eligible (no qualifying low): no winner
    assert best(arrays([-5, -2, -2], compiled), mask([0, 1, 2])) == mask([1, 2])


@settings(max_examples=300, deadline=None)
@given(
    values=st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=10),
    bits=st.integers(0, 2**10 - 1),
)
def test_the_best_hands_match_a_brute_force(values: list[int], bits: int) -> None:
    """Against the plain reading: the eligible seats whose value is the maximum of theirs."""
    eligible = bits & ((1 << len(values)) - 1)
    seats = [s for s in range(len(values)) if eligible >> s & 1]
    top = max((values[s] for s in seats), default=None)
    expected = mask([s for s in seats if values[s] == top])
    for compiled in (True, False):
        best = settle.best_hands if compiled else plain_python(settle.best_hands)
        assert best(arrays(values, compiled), eligible) == expected


@pytest.mark.parametrize("name", sorted(ENGINE))
def test_the_engine_settles_with_the_same_rule_in_either_form(name: str) -> None:
    rule = getattr(settle, name)
    assert getattr(pots.COMPILED_TIER, name) is rule
    plain = getattr(pots.PLAIN_TIER, name)
    assert plain.__code__ is rule.py_func.__code__
    assert getattr(pots, name) is plain
    for module in ENGINE[name]:
        assert name in attribute_calls_in(source_of(module)), (module.__name__, name)
    # The PHH reader's Python path hands back the uncalled bet by the engine's binding.
    assert fast.uncalled_bet is pots.uncalled_bet
    assert pots.tier_for([0, 2**59]) is pots.COMPILED_TIER
    assert pots.tier_for([2**60, 1]) is pots.PLAIN_TIER is pots.tier_for([-1])


def source_of(module: ModuleType) -> Path:
    """The source file of ``module`` (compiled by mypyc or not)."""
    return ROOT.joinpath(*module.__name__.split(".")).with_suffix(".py")


def attribute_calls_in(path: Path) -> set[str]:
    """The names of the attributes the module at ``path`` calls (``tier.side_pot(...)``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    }


def calls_in(path: Path) -> set[str]:
    """The names of the functions the module at ``path`` calls."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_every_caller_calls_the_rule_and_keeps_no_copy(name: str) -> None:
    """Each kernel's source calls the rule by its name, and no caller defines a function of
    its own named for it or keeps any of the old copies' marks."""
    for module in KERNELS[name]:
        assert name in calls_in(source_of(module)), (module.__name__, name)
    for module in {*KERNELS[name], *ENGINE.get(name, []), fast}:
        path = source_of(module)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert name not in defined, (path.name, name)
    marks = {
        "uncalled_bet": ("excess = live[top] - others", "if top > second:", "first > second"),
        "return_above_live": ("top_live",),
        "side_pot": ("sorted({contributions", "if level < 0 and (floor"),
        "award_clockwise": ("(other - button - 1) % n < (seat - button - 1) % n",),
        "best_hands": ("best = -1", "best: int | None = None"),
    }
    for module in {m for ms in (*KERNELS.values(), *ENGINE.values()) for m in ms} | {pots}:
        source = source_of(module).read_text(encoding="utf-8")
        for mark in marks[name]:
            assert mark not in source, (module.__name__, mark)
