"""The compiled replay kernel: many hold'em hands, given as arrays, played to their results.

Each hand is played step by step exactly as :class:`~simulations.engine.hand.Hand` plays it,
with the same rules (Rules 002_376df91f076a6501.txt):

* 'All in before the deal': antes first, clockwise from the button's left, then the blinds;
  players must still call the complete big blind; a big-blind ante is the big blind's, dead
  money in the main pot, paid after the blind (or before it, by the game's order);
* 'Straddle bets': live straddles (left of the big blind, each re-straddle left of the last)
  or Mississippi ones (any seat, each re-straddle right of the last), each at least a
  minimum raise; action starts left of the last, and its poster has the option;
* 'Blinds' and 'When there are only two players': one to three blinds left of the button
  (the first on the button when the structure says so); heads-up with two blinds the button
  posts the small one, unless the game's row says the blinds are posted left of the button
  as at a bigger table (a history whose equal blinds are read so: the button posts the big
  one and the other player acts first in every round);
* 'Procedure': action starts left of the last blind before the flop and left of the button
  after; the big blind's option; a check cannot answer a bet;
* 'Limits': fixed, spread, pot (blinds as posted or each smaller blind counted as a big one
  until its poster calls or raises or the big blind has acted) and no limit, caps on bets
  and raises (lifted when two players could bet as the cap was reached, or as the round
  began; a big blind below the bet is no bet toward it), betting units;
* 'Incomplete bet or raise': under the full bet rule only a full bet or raise reopens the
  betting, under the half bet rule half of one does;
* 'Table stakes rules' and '"All in"': the uncalled bet goes back, side pots are made at
  every live player's contribution, each pot goes to its best eligible hand, and odd chips
  go by the game's rule, all through the reference engine's own compiled functions
  (simulations.rules.settle, simulations.rules.odd_chips; Rules 000_1a86611de8d3f5f7.txt).

The rules come as a table, one row per game (:class:`KernelRules`), and each hand names its
row: one call plays hands of many stakes and structures, every one under its own.  The
per-hand state lives in a handful of scalars and four arrays of ``MAX_SEATS`` slots
allocated once per call: no allocation per action.  Seats that have folded or
acted since the last reopening are bit masks.  A hand whose actions are not legal stops at
the first illegal one with a status code saying why (the same checks, in the same order,
as the reference engine's ``Hand._check``) and leaves its starting stacks untouched.
"""

from __future__ import annotations

from typing import NamedTuple

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.evaluators.high import card_bit, high_value
from simulations.evaluators.high_tables import HighTables
from simulations.rules.betting import (
    blind_bets_made,
    blind_seat,
    can_bet,
    next_to_act,
    post_antes,
    post_blinds,
    post_live,
    raise_bounds,
    straddle_fault,
)
from simulations.rules.codes import (
    BET,
    BET_FACING_BET,
    CALL,
    CALL_WITHOUT_BET,
    CAPPED,
    CHECK,
    CHECK_FACING_BET,
    COMPLETED,
    DETAIL_A,
    DETAIL_B,
    DETAIL_SEAT,
    DETAIL_WIDTH,
    FOLD,
    FOLD_WITHOUT_BET,
    HAND_OVER,
    LIMIT_FIXED,
    LIMIT_POT,
    NO_CHIPS_TO_RAISE,
    NO_OPPONENT_CAN_CALL,
    NOT_REOPENED,
    OFF_UNIT,
    OUT_OF_RANGE,
    OUT_OF_TURN,
    RAISE,
    RAISE_WITHOUT_BET,
    TOO_FEW_ACTIONS,
    UNKNOWN_ACTION,
    WRONG_ROUND,
)
from simulations.rules.reopening import reopens_betting, still_closed
from simulations.rules.settle import (
    award_clockwise,
    best_hands,
    return_above_live,
    side_pot,
    uncalled_bet,
)


class KernelRules(NamedTuple):
    """The games' numbers as the kernel reads them (see ``replay.ReplayRules``), one row per
    game: a named tuple of arrays, so that one argument carries every game of a batch and a
    hand is played under the row its batch names (a table of stakes: one call plays hands
    of many stakes)."""

    limit: npt.NDArray[np.int64]  # LIMIT_FIXED, LIMIT_SPREAD, LIMIT_POT or LIMIT_NO
    ante: npt.NDArray[np.int64]
    blinds: npt.NDArray[np.int64]  # (rows, widest): each row's first ``blind_count`` entries
    blind_count: npt.NDArray[np.int64]
    first_blind_on_button: npt.NDArray[np.bool_]
    heads_up_blinds_left: npt.NDArray[np.bool_]  # heads-up, two blinds posted left of the button
    bet_sizes: npt.NDArray[np.int64]  # (rows, betting rounds)
    spread_low: npt.NDArray[np.int64]  # (rows, betting rounds)
    spread_high: npt.NDArray[np.int64]
    max_bets: npt.NDArray[np.int64]  # -1: uncapped
    cap_lifted_heads_up: npt.NDArray[np.bool_]
    heads_up_at_start: npt.NDArray[np.bool_]  # the cap's heads-up count taken as a round begins
    unit: npt.NDArray[np.int64]
    half_bet: npt.NDArray[np.bool_]
    small_blind_as_big: npt.NDArray[np.bool_]
    odd_chips: npt.NDArray[np.int64]  # simulations.rules.odd_chips: ALL_TO_FIRST, ONE_EACH
    short_all_ins: npt.NDArray[np.int64]  # simulations.rules.reopening: CUMULATIVE, EACH_ALONE
    big_blind_ante: npt.NDArray[np.int64]  # the big blind's ante for the table (dead money)
    big_blind_ante_first: npt.NDArray[np.bool_]  # paid before the blind (else after it)
    straddles: npt.NDArray[np.int64]  # STRADDLES_NONE, STRADDLES_LIVE or STRADDLES_MISSISSIPPI
    rounds: npt.NDArray[np.int64]  # betting rounds: hold'em's 4, a draw game's 1 + its draws
    # Shown down on values the batch gives per seat (a draw game's final hands, ranked by
    # the game's own showdown), not on hold'em's hole cards and board dealt from the deck.
    values_given: npt.NDArray[np.bool_]


MAX_SEATS = 10
BETTING_ROUNDS = 4  # preflop, flop, turn, river
HOLE_CARDS = 2
DEALT_AFTER_HOLES = 8  # burn, flop (3), burn, turn, burn, river


def cards_dealt(seats: int) -> int:
    """Cards a hold'em hand of ``seats`` players may use from the top of the deck."""
    return HOLE_CARDS * seats + DEALT_AFTER_HOLES


@nb.njit(cache=True)
def _showdown_values(
    n: int,
    button: int,
    deck: npt.NDArray[np.int8],
    folded: int,
    values: npt.NDArray[np.int64],
    tables: HighTables,
) -> None:
    """High values of every live seat's two hole cards and the five board cards.

    Hole card ``r`` of the ``k``-th seat left of the button is the deck's card ``r * n + k``;
    then come a burn, the flop, a burn, the turn, a burn and the river.
    """
    card_keys, flush_values, row_offsets, rank_values = tables
    base = HOLE_CARDS * n
    board_key = 0
    board_suited = 0
    for p in (base + 1, base + 2, base + 3, base + 5, base + 7):
        board_key += card_keys[deck[p]]
        board_suited |= card_bit(deck[p])
    for s in range(n):
        if (folded >> s) & 1:
            continue
        k = (s - button - 1 + n) % n
        h0 = deck[k]
        h1 = deck[n + k]
        values[s] = high_value(
            board_key + card_keys[h0] + card_keys[h1],
            board_suited | card_bit(h0) | card_bit(h1),
            flush_values,
            row_offsets,
            rank_values,
        )


@nb.njit(cache=True)
def _settle(
    n: int,
    button: int,
    folded: int,
    showdown: bool,
    stack: npt.NDArray[np.int64],
    contributed: npt.NDArray[np.int64],
    dead: npt.NDArray[np.int64],
    live: npt.NDArray[np.int64],
    values: npt.NDArray[np.int64],
    odd_chips: int,
) -> None:
    """settle.settle without rake or drop, by the rules the reference engine settles with
    (simulations.rules.settle): hand back the uncalled bet and any chips above every live
    contribution, make the main and side pots at every live contribution, and split each
    among its best eligible hands clockwise from the button, odd chips by the game's rule.
    ``dead`` is the part of each contribution posted dead
    (a big-blind ante): it counts toward no bet, so it is neither called nor handed back,
    and goes into the main pot; ``live`` is scratch space."""
    dead_money = 0
    for s in range(n):
        live[s] = contributed[s] - dead[s]
        dead_money += dead[s]
    chips = live[:n]
    stacks = stack[:n]
    seat, excess = uncalled_bet(chips)
    if seat >= 0:
        chips[seat] -= excess
        stacks[seat] += excess
    alive = ((1 << n) - 1) & ~folded
    return_above_live(chips, alive, stacks)
    for s in range(n):
        contributed[s] = chips[s] + dead[s]
    floor = 0
    while True:
        level, amount, eligible = side_pot(chips, alive, floor)
        if level < 0:
            if floor > 0 or dead_money == 0:
                break
            # With no live money at all, the dead money is a pot of every player still in.
            level, amount, eligible = 0, 0, alive
        if floor == 0:
            amount += dead_money  # dead money goes into the main pot
        winners = best_hands(values[:n], eligible) if showdown else eligible
        award_clockwise(amount, winners, button, odd_chips, stacks)
        if level == 0:
            break
        floor = level


@nb.njit(cache=True)
def _play_hand(
    n: int,
    button: int,
    deck: npt.NDArray[np.int8],
    first: int,
    last: int,
    kinds: npt.NDArray[np.int8],
    totals: npt.NDArray[np.int64],
    action_seats: npt.NDArray[np.int8],
    rules: KernelRules,
    row: int,
    tables: HighTables,
    stack: npt.NDArray[np.int64],
    contributed: npt.NDArray[np.int64],
    round_bets: npt.NDArray[np.int64],
    dead: npt.NDArray[np.int64],
    scratch: npt.NDArray[np.int64],
    values: npt.NDArray[np.int64],
    detail: npt.NDArray[np.int64],
    short_of: npt.NDArray[np.int64],
    straddle_seats: npt.NDArray[np.int8],
    straddle_totals: npt.NDArray[np.int64],
    given_values: npt.NDArray[np.int64],
    action_rounds: npt.NDArray[np.int8],
    acted_at: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """Play one hand under the rules of row ``row`` from its starting ``stack`` over actions
    ``first``..``last - 1``, after its straddles (``straddle_seats`` and ``straddle_totals``
    in the order posted; a seat below 0 ends them).

    Returns (status, index of the failing action within the hand, or -1); on completion
    ``stack`` and ``contributed`` hold the final stacks and contributions, and ``short_of``
    (if it has a place per action, all 0 to begin with) the smallest full bet or raise at
    every bet or raise below it (an all-in short of a full one), 0 at every other action.
    ``dead`` (zeros to begin with), ``scratch`` and ``acted_at`` are scratch space, made
    once per batch (an array made per hand costs a good part of a short hand's betting).
    ``action_seats``, if it has a place per action, gives the seat each action is for: one
    for a seat other than the one to act stops the hand (Hand.act: an action out of turn),
    checked before the action itself as the reference engine checks it; ``action_rounds``,
    likewise, the betting round each action is for: one for another round than the one
    being bet stops the hand (a draw game's draw is then out of turn in the reference
    engine).  A row with ``values_given`` shows down on ``given_values`` (one per seat,
    higher better) instead of the hold'em hands of ``deck``.
    """
    limit = int(rules.limit[row])
    ante = int(rules.ante[row])
    blinds = rules.blinds[row, : rules.blind_count[row]]
    first_blind_on_button = bool(rules.first_blind_on_button[row])
    heads_up_left = bool(rules.heads_up_blinds_left[row])
    bet_sizes = rules.bet_sizes[row]
    spread_low = rules.spread_low[row]
    spread_high = rules.spread_high[row]
    max_bets = int(rules.max_bets[row])
    cap_lifted_heads_up = bool(rules.cap_lifted_heads_up[row])
    heads_up_at_start = bool(rules.heads_up_at_start[row])
    unit = int(rules.unit[row])
    half_bet = bool(rules.half_bet[row])
    small_blind_as_big = bool(rules.small_blind_as_big[row])
    odd_chips = int(rules.odd_chips[row])
    short_all_ins = int(rules.short_all_ins[row])
    big_blind_ante = int(rules.big_blind_ante[row])
    big_blind_ante_first = bool(rules.big_blind_ante_first[row])
    straddle_rule = int(rules.straddles[row])
    rounds = int(rules.rounds[row])
    values_given = bool(rules.values_given[row])
    want_rounds = action_rounds.shape[0] > 0
    want_short = short_of.shape[0] > 0
    want_seats = action_seats.shape[0] > 0
    # The forced bets in the order the money goes (simulations.rules.betting).
    pot = post_antes(n, button, ante, stack, contributed)
    n_blinds = blinds.shape[0]
    to_match = 0
    last_raise = 0
    bets_made = 0
    # Pot limit, small-blind-as-big: the seats whose smaller blind still counts as a big one
    # (until the poster calls or raises or the big blind acts; never toward the poster's
    # own raise).
    credited = 0
    cap_contesting = -1  # players able to bet when the round's bets reached the cap
    clockwise = acted_at[:0]  # the order of action: clockwise (no kill blind here)
    posted_chips, posted, big_blind_seat = post_blinds(
        n,
        button,
        blinds,
        first_blind_on_button,
        heads_up_left,
        big_blind_ante,
        big_blind_ante_first,
        stack,
        contributed,
        round_bets,
        dead,
    )
    pot += posted_chips
    start = button + 1
    if n_blinds > 0:
        start = big_blind_seat + 1
        # 'Players to act must call the complete amount of the big blind.'
        to_match = blinds[n_blinds - 1]
        last_raise = to_match
        bets_made = blind_bets_made(to_match, bet_sizes[0])
        if limit == LIMIT_POT and small_blind_as_big:
            for j in range(n_blinds - 1):
                credited |= 1 << blind_seat(
                    j, n, n_blinds, button, first_blind_on_button, heads_up_left
                )
    # Straddles: each a live blind raise, at least a minimum raise, from the seat the rule
    # names; action starts left of the last.
    previous = big_blind_seat
    for k in range(straddle_seats.shape[0]):
        s = int(straddle_seats[k])
        if s < 0:
            break
        total = int(straddle_totals[k])
        fault, fault_a, fault_b = straddle_fault(
            straddle_rule, k, s, total, previous, n, posted, to_match, last_raise, stack[s]
        )
        if fault != COMPLETED:
            detail[DETAIL_SEAT] = s
            detail[DETAIL_A] = fault_a
            detail[DETAIL_B] = fault_b
            return fault, -1
        pot += post_live(s, total, stack, contributed, round_bets)
        last_raise = total - to_match
        to_match = total
        bets_made += 1
        credited = 0
        posted |= 1 << s
        previous = s
        start = s + 1
    detail[DETAIL_SEAT] = 0
    if max_bets >= 0 and (bets_made >= max_bets or heads_up_at_start):
        cap_contesting = 0  # counted as the round begins (or the blind alone caps it)
        for s in range(n):
            if stack[s] > 0:  # nobody has folded yet
                cap_contesting += 1
    folded = 0
    acted = 0
    acted_at[:] = 0  # the bet each seat last acted on
    street = 0
    actor = next_to_act(start % n, True, n, folded, acted, to_match, stack, round_bets, clockwise)
    i = first
    live = n
    while True:
        if actor < 0:
            # The round is over: deal on; bet again only if two players can still bet.
            able = 0
            for s in range(n):
                if can_bet(s, folded, stack):
                    able += 1
            while street + 1 < rounds:
                street += 1
                if able >= 2:
                    for s in range(n):
                        round_bets[s] = 0
                    acted = 0
                    to_match = 0
                    last_raise = 0
                    bets_made = 0
                    credited = 0
                    cap_contesting = -1
                    if max_bets >= 0 and heads_up_at_start:
                        cap_contesting = able
                    actor = next_to_act(
                        (button + 1) % n,
                        True,
                        n,
                        folded,
                        acted,
                        to_match,
                        stack,
                        round_bets,
                        clockwise,
                    )
                    if actor >= 0:
                        break
            if actor < 0:
                break
        if i >= last:
            detail[DETAIL_SEAT] = actor
            return TOO_FEW_ACTIONS, i - first
        s = actor
        if want_seats and int(action_seats[i]) != s:
            detail[DETAIL_SEAT] = action_seats[i]
            detail[DETAIL_A] = s
            return OUT_OF_TURN, i - first
        if want_rounds and int(action_rounds[i]) != street:
            detail[DETAIL_SEAT] = s
            detail[DETAIL_A] = street
            detail[DETAIL_B] = action_rounds[i]
            return WRONG_ROUND, i - first
        detail[DETAIL_SEAT] = s
        kind = int(kinds[i])
        own = round_bets[s]
        owed = to_match - own
        to_call = min(owed, stack[s])
        if kind == FOLD:
            if to_call == 0:
                return FOLD_WITHOUT_BET, i - first
            folded |= 1 << s
            live -= 1
        elif kind == CHECK:
            if to_call != 0:
                detail[DETAIL_A] = to_call
                return CHECK_FACING_BET, i - first
            acted |= 1 << s
            acted_at[s] = to_match
        elif kind == CALL:
            if to_call == 0:
                return CALL_WITHOUT_BET, i - first
            stack[s] -= to_call
            contributed[s] += to_call
            round_bets[s] += to_call
            pot += to_call
            acted |= 1 << s
            acted_at[s] = to_match
        elif kind in (BET, RAISE):
            if (kind == BET) != (to_match == 0):
                return (BET_FACING_BET if kind == BET else RAISE_WITHOUT_BET), i - first
            # Hand._wager_range, with Hand._why_no_wager's reasons in its order.
            if stack[s] <= owed:
                return NO_CHIPS_TO_RAISE, i - first
            if (acted >> s) & 1:
                return NOT_REOPENED, i - first
            answerable = False
            contesting = 0
            for o in range(n):
                if (folded >> o) & 1 == 0:
                    if o != s and round_bets[o] + stack[o] > to_match:
                        answerable = True
                    if stack[o] > 0:
                        contesting += 1
            if not answerable:
                return NO_OPPONENT_CAN_CALL, i - first
            # The cap's heads-up exception: the players as the cap was reached (Hand._bounds).
            contesting_then = cap_contesting if cap_contesting >= 0 else contesting
            bonus = 0
            if credited:
                for j in range(n_blinds - 1):
                    b_seat = blind_seat(
                        j, n, n_blinds, button, first_blind_on_button, heads_up_left
                    )
                    if b_seat != s and (credited >> b_seat) & 1:
                        bonus += blinds[n_blinds - 1] - blinds[j]
            allowed, b_low, b_high = raise_bounds(
                limit,
                bet_sizes[street],
                spread_low[street],
                spread_high[street],
                to_match,
                own,
                last_raise,
                bets_made,
                contesting_then,
                pot,
                bonus,
                max_bets,
                cap_lifted_heads_up,
            )
            if not allowed:
                return CAPPED, i - first
            all_in = own + stack[s]
            if all_in < b_low:
                w_low = all_in
                w_high = all_in
            elif limit == LIMIT_FIXED:
                w_low = b_low
                w_high = b_low
            else:
                w_low = b_low
                w_high = min(b_high, all_in)
            total = totals[i]
            # All in for less than the minimum is always allowed, and need not be on unit.
            if not (total == all_in and total <= w_high):
                if total < w_low or total > w_high:
                    detail[DETAIL_A] = w_low
                    detail[DETAIL_B] = w_high
                    return OUT_OF_RANGE, i - first
                if total % unit != 0:
                    detail[DETAIL_A] = unit
                    return OFF_UNIT, i - first
            added = total - own
            stack[s] -= added
            contributed[s] += added
            round_bets[s] += added
            pot += added
            full = total >= b_low
            if want_short:
                short_of[i] = 0 if full else b_low
            increment = total - to_match
            full_increment = b_low - to_match
            to_match = total
            acted_at[s] = total
            if full or reopens_betting(increment, full_increment, half_bet):
                acted = 1 << s
                bets_made += 1
                if bets_made == max_bets and cap_contesting < 0:
                    cap_contesting = contesting  # counted as the raise was made
                if full:
                    last_raise = max(increment, last_raise)
            else:
                acted |= 1 << s
                acted = still_closed(
                    acted, acted_at, n, to_match, full_increment, half_bet, short_all_ins
                )
        else:
            return UNKNOWN_ACTION, i - first
        i += 1
        if kind != FOLD:
            credited &= ~(1 << s)  # his real chips stand where the credit stood (Hand)
        if s == big_blind_seat:
            credited = 0  # 'until the big blind is through acting'
        if live == 1:
            break
        actor = next_to_act(s, False, n, folded, acted, to_match, stack, round_bets, clockwise)
    showdown = live > 1
    if showdown and values_given:
        for s in range(n):
            values[s] = given_values[s]
    elif showdown:
        _showdown_values(n, button, deck, folded, values, tables)
    detail[DETAIL_SEAT] = -1
    _settle(n, button, folded, showdown, stack, contributed, dead, scratch, values, odd_chips)
    if i < last:
        return HAND_OVER, i - first
    return COMPLETED, -1


@nb.njit(cache=True)
def replay_kernel(
    seats: npt.NDArray[np.int8],
    buttons: npt.NDArray[np.int8],
    start_stacks: npt.NDArray[np.int64],
    decks: npt.NDArray[np.int8],
    offsets: npt.NDArray[np.int64],
    kinds: npt.NDArray[np.int8],
    totals: npt.NDArray[np.int64],
    action_seats: npt.NDArray[np.int8],
    rules: KernelRules,
    rows: npt.NDArray[np.int64],
    straddle_seats: npt.NDArray[np.int8],
    straddle_totals: npt.NDArray[np.int64],
    tables: HighTables,
    out_stacks: npt.NDArray[np.int64],
    out_contributed: npt.NDArray[np.int64],
    out_status: npt.NDArray[np.int8],
    out_action: npt.NDArray[np.int64],
    out_detail: npt.NDArray[np.int64],
    out_short: npt.NDArray[np.int64],
    hand_values: npt.NDArray[np.int64],
    action_rounds: npt.NDArray[np.int8],
) -> int:
    """Replay every hand, hand ``h`` under the rules of row ``rows[h]`` after the straddles
    of row ``h`` of ``straddle_seats`` and ``straddle_totals`` (seats below 0: none more);
    returns how many completed.

    ``action_seats`` is empty (actions not checked for their seats) or the seat of every
    action.  ``out_contributed`` with fewer rows than hands is left alone (contributions not
    wanted), and so is an empty ``out_short`` (else one place per action: see
    ``_play_hand``).  ``hand_values`` is (hands, seats) where some row shows down on given
    values, else (0, 0); ``action_rounds`` is empty or the betting round of every action.
    A hand that stops keeps its starting stacks, no contributions and no
    short bets in the outputs.
    """
    stack = np.zeros(MAX_SEATS, np.int64)
    contributed = np.zeros(MAX_SEATS, np.int64)
    round_bets = np.zeros(MAX_SEATS, np.int64)
    dead = np.zeros(MAX_SEATS, np.int64)
    scratch = np.zeros(MAX_SEATS, np.int64)
    values = np.zeros(MAX_SEATS, np.int64)
    detail = np.zeros(DETAIL_WIDTH, np.int64)
    acted_at = np.zeros(MAX_SEATS, np.int64)
    want_contributed = out_contributed.shape[0] == seats.shape[0]
    none_given = np.zeros(0, np.int64)
    completed = 0
    for h in range(seats.shape[0]):
        n = int(seats[h])
        for s in range(n):
            stack[s] = start_stacks[h, s]
            contributed[s] = 0
            round_bets[s] = 0
            dead[s] = 0
        detail[:] = 0
        status, index = _play_hand(
            n,
            int(buttons[h]),
            decks[h],
            offsets[h],
            offsets[h + 1],
            kinds,
            totals,
            action_seats,
            rules,
            rows[h],
            tables,
            stack,
            contributed,
            round_bets,
            dead,
            scratch,
            values,
            detail,
            out_short,
            straddle_seats[h],
            straddle_totals[h],
            hand_values[h] if hand_values.shape[0] > 0 else none_given,
            action_rounds,
            acted_at,
        )
        out_status[h] = status
        out_action[h] = index
        for c in range(DETAIL_WIDTH):
            out_detail[h, c] = detail[c]
        if status == COMPLETED:
            completed += 1
            for s in range(n):
                out_stacks[h, s] = stack[s]
            if want_contributed:
                for s in range(n):
                    out_contributed[h, s] = contributed[s]
        else:
            for s in range(n):
                out_stacks[h, s] = start_stacks[h, s]
            if out_short.shape[0] > 0:
                out_short[offsets[h] : offsets[h + 1]] = 0
    return completed


@nb.njit(cache=True)
def first_bad_deck(seats: npt.NDArray[np.int8], decks: npt.NDArray[np.int8]) -> tuple[int, int]:
    """(hand, position) of the first card code outside 0..51 or repeated among the cards a
    hand may deal, or (-1, -1) if every deck is sound."""
    for h in range(seats.shape[0]):
        seen = 0
        for p in range(HOLE_CARDS * int(seats[h]) + DEALT_AFTER_HOLES):
            c = int(decks[h, p])
            if c < 0 or c > 51 or (seen >> c) & 1:
                return h, p
            seen |= 1 << c
    return -1, -1
