"""Guts sessions for volume: one compiled loop that plays whole games of guts.

The loop plays what :class:`~simulations.engine.guts.GutsSession` plays — the antes, each
deal's cards one at a time from the dealer's left, every player's in or out, the dealer's
rule and its challenge, the showdown among those in, the pot rule, the cap and its
set-aside, redeals — deal for deal and chip for chip, with the pot arithmetic taken from the
same compiled functions (:mod:`simulations.rules.guts_rules`,
:mod:`simulations.rules.settle`).  A test plays 100,000 sessions both ways on the same
decks and the same decisions and demands the same outcome of each.

No game is stopped for its size: the texts have no such stop ("the game ends when only a
single player has the guts to stay in"), and without a cap a pot multiplies every deal.  The
chips are carried as float64, which holds every whole number of chips exactly up to 2^53; a
session whose pot, set-aside or any net passes :data:`EXACT` chips is marked inexact, and
from there its chips are carried to 53 significant bits (the deals, the decisions and how
the game ends do not depend on the pot, so they stay exact).  The only bound is the deal
limit the job names (``max_deals``), whose sessions are counted as censored.

Randomness: each session has its own 64-bit seed and draws from a SplitMix64 stream
(:mod:`simulations.models.splitmix`), the
same fixed amount every deal — the deck (a partial Fisher–Yates shuffle of the cards the deal
can use), one uniform per seat for the in/out decision and one per seat for a challenge — so
that :func:`session_draws` can hand the reference session the very decks and decisions the
kernel used, whatever happened in the deal.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.models.splitmix import uniform
from simulations.rules.guts_rules import VICIOUS, over_cap, owed
from simulations.rules.settle import award_clockwise, best_hands

DECK = 52
# Chips below this are whole numbers exactly in float64, and so is a sum of 1,024 of them in
# int64: a session past it is counted as carried in floating point.
EXACT = float(2**52)
# Each deal's growth factor is summed in units of 2^-20 (its rounding is below 1e-6).
GROWTH_UNIT = float(2**20)

# GutsGame's choices as the loop takes them.
ALL_DOWN = 0
LAST_CARD_UP = 1
DEALER_NONE = 0
DEALER_PAIR_TO_WIN_ALONE = 1
DEALER_CHALLENGE = 2

# How a session ended: a deal with a winner and no loser.
ENDED_ALONE = 0  # one player stayed in
ENDED_TIE = 1  # every player in tied for the best hand
ENDED_UNCHALLENGED = 2  # the dealer stayed in alone and nobody challenged him
DEAL_LIMIT = 3  # stopped at the job's deal limit (censored)
ENDINGS = 4

# The rules as one int64 array (indices), so that the compiled loop takes one argument.
R_CARDS = 0
R_DEAL = 1
R_DEALER = 2
R_DEALER_MATCHES = 3  # a dealer alone without a pair matches the pot (else a redeal)
R_POT_RULE = 4
R_WORST_TWICE = 5
R_VICIOUS_EVERY = 6
R_ANTE = 7
R_CAP = 8  # NO_CAP (-1) for none
R_LAST_WINNER = 9  # the set-aside goes to the last winner (else it waits for the next game)
R_RE_ANTE = 10  # nobody in: everyone antes again
R_ODD_CHIPS = 11
R_PAIR = 12  # the lowest pair's value: the dealer's 'pair or better'
R_MAX_DEALS = 13
RULES = 14

# Policies: stay in with a decision value at or above a threshold, or with a probability.
THRESHOLD = 0
PROBABILITY = 1

_MASK = (1 << 64) - 1


@nb.njit(cache=True)
def draw_deal(
    state: npt.NDArray[np.uint64],
    deck: npt.NDArray[np.int64],
    needed: int,
    decide: npt.NDArray[np.float64],
    challenge: npt.NDArray[np.float64],
) -> None:
    """One deal's draws: ``deck`` (0..51 on entry) shuffled so that its first ``needed``
    cards are a uniform random sequence, then a uniform per seat for the decision and one
    per seat for a challenge."""
    for i in range(needed):
        j = i + int(uniform(state) * (DECK - i))
        deck[i], deck[j] = deck[j], deck[i]
    for s in range(decide.shape[0]):
        decide[s] = uniform(state)
    for s in range(challenge.shape[0]):
        challenge[s] = uniform(state)


@nb.njit(cache=True)
def _value(
    cards: npt.NDArray[np.int64],
    count: int,
    three: npt.NDArray[np.int16],
    two: npt.NDArray[np.int16],
) -> int:
    """The value of the first ``count`` cards (2 or 3) under the game's tables."""
    if count == 3:
        a, b, c = cards[0], cards[1], cards[2]
        suited = 1 if ((a ^ b) | (a ^ c)) & 3 == 0 else 0
        return int(three[(a >> 2) * 169 + (b >> 2) * 13 + (c >> 2) + 2197 * suited])
    a, b = cards[0], cards[1]
    suited = 1 if (a ^ b) & 3 == 0 else 0
    return int(two[(a >> 2) * 13 + (b >> 2) + 169 * suited])


@nb.njit(cache=True)
def _stays(
    seat: int,
    value: int,
    u: float,
    kinds: npt.NDArray[np.int64],
    thresholds: npt.NDArray[np.int64],
    chances: npt.NDArray[np.float64],
) -> bool:
    if kinds[seat] == THRESHOLD:
        return bool(value >= thresholds[seat])
    return bool(u < chances[seat])


@nb.njit(cache=True)
def _take(
    amount: float, winners: npt.NDArray[np.int64], count: int, button: int, n: int, rule: int,
    nets: npt.NDArray[np.float64],
) -> None:  # fmt: skip
    """Tied ``winners`` share ``amount``, odd chips by the game's rule from the first winner
    left of the dealer (:func:`simulations.engine.pots.split`)."""
    seats = 0
    for w in range(count):
        seats |= 1 << winners[w]
    # The shared award, on chips carried as float64 (whole numbers below 2^53).
    award_clockwise(amount, seats, button, rule, nets[:n])  # type: ignore[arg-type]


@nb.njit(cache=True)
def _pay_in(
    pot: float, aside: float, hits: int, amount: float, cap: int
) -> tuple[float, float, int]:
    """``amount`` paid into ``pot``, what passes the cap set aside: the new pot, set-aside
    and count of payments over the cap."""
    extra = over_cap(pot, amount, cap)  # type: ignore[arg-type]
    if extra:
        return pot + amount - extra, aside + extra, hits + 1
    return pot + amount, aside, hits


@nb.njit(cache=True)
def _end(
    pot: float, aside: float, to_last_winner: bool, winners: npt.NDArray[np.int64], count: int,
    button: int, n: int, odd: int, nets: npt.NDArray[np.float64],
) -> float:  # fmt: skip
    """The game ends: the winners take the pot (and the set-aside, where the last winner
    takes it); returns what stays set aside."""
    if to_last_winner and aside:
        pot += aside
        aside = 0.0
    _take(pot, winners, count, button, n, odd, nets)
    return aside


@nb.njit(cache=True)
def _grow(growth: npt.NDArray[np.int64], factor: float) -> None:
    """Count one deal's growth factor (0 on the deal that ends the game) into ``growth``:
    deals, and the sums of the factor, its square and its fourth power in GROWTH_UNITs."""
    growth[0] += 1
    growth[1] += round(factor * GROWTH_UNIT)
    growth[2] += round(factor * factor * GROWTH_UNIT)
    growth[3] += round(factor * factor * factor * factor * GROWTH_UNIT)


@nb.njit(cache=True)
def play_sessions(
    seeds: npt.NDArray[np.uint64],
    n: int,
    rules: npt.NDArray[np.int64],
    three: npt.NDArray[np.int16],
    two: npt.NDArray[np.int16],
    decision_two: npt.NDArray[np.int16],
    kinds: npt.NDArray[np.int64],
    thresholds: npt.NDArray[np.int64],
    chances: npt.NDArray[np.float64],
    forced_decks: npt.NDArray[np.int64],
    forced_in: npt.NDArray[np.int64],
    deals: npt.NDArray[np.int64],
    outcome: npt.NDArray[np.int64],
    largest: npt.NDArray[np.float64],
    final: npt.NDArray[np.float64],
    cap_hits: npt.NDArray[np.int64],
    set_aside: npt.NDArray[np.float64],
    nets: npt.NDArray[np.float64],
    pots: npt.NDArray[np.float64],
    exact: npt.NDArray[np.int64],
    growth: npt.NDArray[np.int64],
) -> None:
    """Play one session per seed (seat 0 deals first) and record, per session: the deals
    played, how it ended, the largest pot a deal was played for, the pot the game ended on
    (what its winners took), the deals whose payments went over the cap, the chips set
    aside at the end, each seat's net, the pot each of the first deals was played for
    (``pots``: as many deal numbers as it has columns, 0 past the last deal) and whether
    every chip stayed below :data:`EXACT`; over all of them, the growth law (:func:`_grow`).

    The first ``forced_decks.shape[0]`` deals of every session are forced: deal d is dealt
    from ``forced_decks[d]`` and seat s stays in exactly when ``forced_in[d, s]`` (its
    challenge too), whatever its policy; the draws are made all the same, so the deals after
    them are the ones an unforced session would have."""
    cards = rules[R_CARDS]
    last_up = rules[R_DEAL] == LAST_CARD_UP
    down = cards - 1 if last_up else cards
    dealer_rule = rules[R_DEALER]
    pot_rule = rules[R_POT_RULE]
    ante = float(rules[R_ANTE])
    cap = rules[R_CAP]
    odd = rules[R_ODD_CHIPS]
    last_winner = rules[R_LAST_WINNER] != 0
    worst_twice = rules[R_WORST_TWICE] != 0
    vicious_every = rules[R_VICIOUS_EVERY] != 0
    forced = forced_decks.shape[0]
    tracked = pots.shape[1]
    state = np.zeros(1, dtype=np.uint64)
    deck = np.empty(DECK, dtype=np.int64)
    decide = np.empty(n, dtype=np.float64)
    challenge = np.empty(n, dtype=np.float64)
    hands = np.empty((n, 3), dtype=np.int64)
    held = np.empty(n, dtype=np.int64)
    values = np.empty(n, dtype=np.int64)
    ins = np.empty(n, dtype=np.int64)
    winners = np.empty(n, dtype=np.int64)
    pays = np.empty(n, dtype=np.float64)
    for t in range(seeds.shape[0]):
        state[0] = seeds[t]
        net = nets[t]
        for s in range(n):
            net[s] = -ante
        pot, aside, hits = _pay_in(0.0, 0.0, 0, ante * n, cap)
        button = 0
        dealt_deals = 0
        big = 0.0
        ended_on = 0.0
        result = -1
        within = True
        while result < 0:
            if dealt_deals >= rules[R_MAX_DEALS]:
                result = DEAL_LIMIT
                break
            dealt_deals += 1
            played_for = pot
            if pot > big:
                big = pot
            if dealt_deals <= tracked:
                pots[t, dealt_deals - 1] = pot
            for c in range(DECK):
                deck[c] = c
            draw_deal(state, deck, n * cards, decide, challenge)
            is_forced = dealt_deals <= forced
            if is_forced:
                for c in range(DECK):
                    deck[c] = forced_decks[dealt_deals - 1, c]
            at = 0
            for c in range(down):  # one card at a time from the dealer's left
                for k in range(1, n + 1):
                    seat = (button + k) % n
                    hands[seat, c] = deck[at]
                    at += 1
            for s in range(n):
                held[s] = down
            count = 0
            for k in range(1, n + 1):  # the decisions, on the cards held
                seat = (button + k) % n
                if is_forced:
                    stays = forced_in[dealt_deals - 1, seat] != 0
                else:
                    value = _value(hands[seat], down, three, decision_two)
                    stays = _stays(seat, value, decide[seat], kinds, thresholds, chances)
                if stays:
                    ins[count] = seat
                    count += 1
            if last_up:  # 'If they're in, they receive their third card face up'
                for i in range(count):
                    hands[ins[i], cards - 1] = deck[at]
                    held[ins[i]] = cards
                    at += 1
            if dealer_rule == DEALER_CHALLENGE and count == 1 and ins[0] == button:
                count = 0
                for k in range(1, n):  # the others, from the dealer's left
                    seat = (button + k) % n
                    if is_forced:
                        stays = forced_in[dealt_deals - 1, seat] != 0
                    else:
                        value = _value(hands[seat], held[seat], three, decision_two)
                        stays = _stays(seat, value, challenge[seat], kinds, thresholds, chances)
                    if stays:
                        ins[count] = seat
                        count += 1
                if last_up:
                    for i in range(count):
                        if held[ins[i]] < cards:
                            hands[ins[i], cards - 1] = deck[at]
                            held[ins[i]] = cards
                            at += 1
                if count == 0:  # 'if no one challenges him, the dealer wins'
                    winners[0] = button
                    ended_on = pot + aside if last_winner else pot
                    aside = _end(pot, aside, last_winner, winners, 1, button, n, odd, net)
                    result = ENDED_UNCHALLENGED
                    _grow(growth, 0.0)
                    break
                ins[count] = button
                count += 1
            elif count == 0:  # nobody in: the same pot again
                if rules[R_RE_ANTE]:
                    for s in range(n):
                        net[s] -= ante
                    pot, aside, hits = _pay_in(pot, aside, hits, ante * n, cap)
                _grow(growth, pot / played_for)
                button = (button + 1) % n
                continue
            elif count == 1:
                seat = ins[0]
                alone_dealer = seat == button and dealer_rule == DEALER_PAIR_TO_WIN_ALONE
                if alone_dealer and _value(hands[seat], cards, three, two) < rules[R_PAIR]:
                    if rules[R_DEALER_MATCHES]:
                        net[seat] -= pot
                        pot, aside, hits = _pay_in(pot, aside, hits, pot, cap)
                    _grow(growth, pot / played_for)
                    button = (button + 1) % n
                    continue
                winners[0] = seat
                ended_on = pot + aside if last_winner else pot
                aside = _end(pot, aside, last_winner, winners, 1, button, n, odd, net)
                result = ENDED_ALONE
                _grow(growth, 0.0)
                break
            # The showdown among those in.
            worst = 1 << 40
            showing = 0
            for i in range(count):
                v = _value(hands[ins[i]], cards, three, two)
                values[ins[i]] = v
                worst = min(worst, v)
                showing |= 1 << ins[i]
            best_mask = best_hands(values, showing)
            w = 0
            for i in range(count):
                if best_mask >> ins[i] & 1:
                    winners[w] = ins[i]
                    w += 1
            best = values[winners[0]]
            if pot_rule != VICIOUS and w == count:  # all in tied: a winner and no loser
                ended_on = pot + aside if last_winner else pot
                aside = _end(pot, aside, last_winner, winners, w, button, n, odd, net)
                result = ENDED_TIE
                _grow(growth, 0.0)
                break
            for i in range(count):
                seat = ins[i]
                pays[i] = owed(
                    pot_rule, pot, values[seat] == best, values[seat] == worst, worst_twice,  # type: ignore[arg-type]
                    vicious_every,
                )  # fmt: skip
            if pot_rule != VICIOUS:  # the vicious rule's pot stays: nobody takes it
                _take(pot, winners, w, button, n, odd, net)
                pot = 0.0
            paid = 0.0
            for i in range(count):
                net[ins[i]] -= pays[i]
                paid += pays[i]
            pot, aside, hits = _pay_in(pot, aside, hits, paid, cap)
            _grow(growth, pot / played_for)
            if pot + aside >= EXACT:
                within = False
            for i in range(count):
                if abs(net[ins[i]]) >= EXACT:
                    within = False
            button = (button + 1) % n
        for s in range(n):
            if abs(net[s]) >= EXACT:
                within = False
        if pot + aside >= EXACT:
            within = False
        deals[t] = dealt_deals
        outcome[t] = result
        largest[t] = big
        final[t] = ended_on
        cap_hits[t] = hits
        set_aside[t] = aside
        exact[t] = 1 if within else 0


def session_draws(
    seed: int, deals: int, players: int, cards: int
) -> tuple[list[list[int]], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The draws of a session's first ``deals`` deals, as :func:`play_sessions` makes them:
    each deal's deck order (52 cards), and the decision and challenge uniforms by seat."""
    state = np.array([seed & _MASK], dtype=np.uint64)
    decks: list[list[int]] = []
    decide = np.empty((deals, players), dtype=np.float64)
    challenge = np.empty((deals, players), dtype=np.float64)
    deck = np.empty(DECK, dtype=np.int64)
    for d in range(deals):
        deck[:] = np.arange(DECK)
        draw_deal(state, deck, players * cards, decide[d], challenge[d])
        decks.append([int(c) for c in deck])
    return decks, decide, challenge
