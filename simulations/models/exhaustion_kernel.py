"""Running out of cards for volume: one compiled loop that deals whole hands of a stud, draw
or passing game and records which exhaustion procedures the dealer needed.

The loop deals what the reference engine's dealer deals (:mod:`simulations.engine.dealer`):
the burns, each street to the live players one card at a time from the dealer's left, the
draws in turn with their replacements, the five-consecutive rule's held-back card, and, when
the stub runs short, the game's exhaustion rule — taking the rule's arithmetic from the same
compiled functions (:mod:`simulations.engine.exhaustion_rules`).  Who folds and what each
player discards come from :mod:`simulations.models.exhaustion_policy`, as for the reference
player.  A test plays 100,000 hands both ways on the same decks and decisions and demands the
same outcome of each.

Randomness: each hand has its own 64-bit seed and draws from a SplitMix64 stream, the same
fixed amount every hand — the whole deck shuffled (Fisher–Yates), then one uniform per seat
for each betting round, in the game's order — so that :func:`trial_draws` can hand the
reference hand the very deck and decisions the kernel used.  A reshuffle draws from a second
stream of the same seed (:func:`reshuffle_state`): the reference dealer's generator draws its
permutations there (:class:`simulations.models.exhaustion_reference.ScriptedShuffles`).
Where a hand's cards decide nothing (stud or Anaconda without a threshold) the kernel skips
the shuffle's draws instead of making them.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.engine.exhaustion_rules import (
    STUD_WSOP,
    discard_returns,
    held_back,
    must_reshuffle,
    scrambles_burns,
    stud_shortfall,
)
from simulations.models.exhaustion_policy import (
    ACE_TO_FIVE,
    BADUGI,
    DEUCE_TO_SEVEN,
    DRAW_HIGH,
    keep_cards,
    round_folds,
    start_score,
)
from simulations.models.splitmix import skip, uniform

# The phases as a program of rows: (kind, a, b, c, d).
DEAL = 0  # a: down, b: up, c: board, d: burn
BET = 1
DRAW = 2  # a: most, b: burn
PASS = 3
COLUMNS = 5

# Which procedures a hand needed, as bits of its outcome.
BURNS_REUSED = 1  # stud (the texts): an earlier burn card dealt again
COMMUNITY_CARD = 2  # stud: the last street dealt as one community card
BURNS_SCRAMBLED = 4  # stud (the tournament rule): the burns scrambled into a short stub
RESHUFFLED = 8  # draw: a new stub from the discards
BOTTOM_CARD = 16  # draw: a replacement due with only the stub's bottom card left
FIVE_CONSECUTIVE = 32  # draw: a fifth replacement held back until the others had drawn
OUT_OF_CARDS = 64  # stud: not even a community card left (never in the games offered)

# The settings as one int64 array (indices).
S_RULE = 0  # simulations.engine.exhaustion_rules' code
S_BOTTOM = 1  # deals_bottom_card
S_FIVE = 2  # five_consecutive
S_FAMILY = 3  # simulations.models.exhaustion_policy's family
S_DRAW_RANK = 4
S_THRESHOLD = 5  # -1: none
S_DECK = 6  # cards in the pack
SETTINGS = 7

# The dealer's running state (one int64 array), for the helpers.
TOP = 0  # the stub is stub[TOP:END]
END = 1
BURNS = 2  # burn cards not dealt again: burns[:BURNS]
DISCARDS = 3  # discards not back in a stub: the first DISCARDS of each discard array
SHUFFLED = 4  # the stub has been rebuilt
OUTCOME = 5
LAST_REPLACED = 6
DRAWS = 7  # draws done
STATE = 8

RESHUFFLE_KEY = 0xD1B54A32D192ED03  # the reshuffle stream's seed is the hand's, xor this


@nb.njit(cache=True)
def shuffle_deck(state: npt.NDArray[np.uint64], deck: npt.NDArray[np.int64], size: int) -> None:
    """``deck[:size]`` as a uniform random order of the cards 0..size-1 (size - 1 draws)."""
    for i in range(size):
        deck[i] = i
    for i in range(size - 1):
        j = i + int(uniform(state) * (size - i))
        deck[i], deck[j] = deck[j], deck[i]


@nb.njit(cache=True)
def permutation(state: npt.NDArray[np.uint64], n: int, out: npt.NDArray[np.int64]) -> None:
    """A reshuffle's order: ``out[:n]`` a uniform random permutation of 0..n-1."""
    shuffle_deck(state, out, n)


@nb.njit(cache=True)
def reshuffle_state(seed: np.uint64, state: npt.NDArray[np.uint64]) -> None:
    state[0] = seed ^ np.uint64(RESHUFFLE_KEY)


@nb.njit(cache=True)
def trial_draws(
    seed: np.uint64, size: int, deck: npt.NDArray[np.int64], uniforms: npt.NDArray[np.float64]
) -> None:
    """A hand's deck (``deck[:size]``) and its uniforms, a row per betting round and a column
    per seat, as the kernel draws them."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    shuffle_deck(state, deck, size)
    for r in range(uniforms.shape[0]):
        for s in range(uniforms.shape[1]):
            uniforms[r, s] = uniform(state)


@nb.njit(cache=True, inline="always")
def _burn(
    stub: npt.NDArray[np.int64], burns: npt.NDArray[np.int64], st: npt.NDArray[np.int64]
) -> None:
    """The top card to the burn pile, if the stub holds one."""
    if st[END] > st[TOP]:
        burns[st[BURNS]] = stub[st[TOP]]
        st[BURNS] += 1
        st[TOP] += 1


@nb.njit(cache=True, inline="always")
def _restock(
    stub: npt.NDArray[np.int64],
    pile: npt.NDArray[np.int64],
    size: int,
    shuffles: npt.NDArray[np.uint64],
    order: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
) -> None:
    """``pile[:size]`` shuffled into the new stub (the reshuffle stream's permutation)."""
    permutation(shuffles, size, order)
    for i in range(size):
        stub[i] = pile[order[i]]
    st[TOP] = 0
    st[END] = size
    st[BURNS] = 0
    st[SHUFFLED] = 1


@nb.njit(cache=True, inline="always")
def _reshuffle(
    seat: int,
    rule: int,
    stub: npt.NDArray[np.int64],
    burns: npt.NDArray[np.int64],
    discards: npt.NDArray[np.int64],
    taken: npt.NDArray[np.bool_],
    pile: npt.NDArray[np.int64],
    shuffles: npt.NDArray[np.uint64],
    order: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
) -> None:
    """The draw rule's new stub: what is left of the stub, the burn cards and the discards the
    rule takes back (``discards``: rows of card, draw, seat), shuffled together."""
    count = st[DISCARDS]
    any_taken = False
    for i in range(count):
        taken[i] = discard_returns(rule, discards[i, 1], discards[i, 2], st[DRAWS], seat)
        any_taken = any_taken or taken[i]
    if st[END] == st[TOP] and st[BURNS] == 0 and not any_taken:
        for i in range(count):  # nothing else left: his own discards are all there is
            taken[i] = True
    size = 0
    for i in range(st[TOP], st[END]):
        pile[size] = stub[i]
        size += 1
    for i in range(st[BURNS]):
        pile[size] = burns[i]
        size += 1
    kept = 0
    for i in range(count):
        if taken[i]:
            pile[size] = discards[i, 0]
            size += 1
        else:
            for c in range(3):
                discards[kept, c] = discards[i, c]
            kept += 1
    st[DISCARDS] = kept
    _restock(stub, pile, size, shuffles, order, st)
    st[OUTCOME] |= RESHUFFLED


@nb.njit(cache=True, inline="always")
def _replace(
    seat: int,
    count: int,
    settings: npt.NDArray[np.int64],
    hole: npt.NDArray[np.int64],
    held: npt.NDArray[np.int64],
    stub: npt.NDArray[np.int64],
    burns: npt.NDArray[np.int64],
    discards: npt.NDArray[np.int64],
    taken: npt.NDArray[np.bool_],
    pile: npt.NDArray[np.int64],
    shuffles: npt.NDArray[np.uint64],
    order: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
) -> None:
    """Deal ``seat`` ``count`` replacements, rebuilding the stub when the rule needs it."""
    if count == 0:
        return
    bottom = settings[S_BOTTOM] == 1
    for _ in range(count):
        remaining = st[END] - st[TOP]
        if remaining == 1 and st[SHUFFLED] == 0:
            st[OUTCOME] |= BOTTOM_CARD
        if remaining <= 1 and must_reshuffle(remaining, bottom, st[SHUFFLED] == 1):
            rule = settings[S_RULE]
            _reshuffle(seat, rule, stub, burns, discards, taken, pile, shuffles, order, st)
        hole[seat, held[seat]] = stub[st[TOP]]
        held[seat] += 1
        st[TOP] += 1
    st[LAST_REPLACED] = seat


@nb.njit(cache=True)
def play_hands(
    seeds: npt.NDArray[np.uint64],
    n: int,
    program: npt.NDArray[np.int64],
    settings: npt.NDArray[np.int64],
    fold_chance: float,
    outcomes: npt.NDArray[np.int64],
    lives: npt.NDArray[np.int64],
) -> None:
    """Play one hand of ``n`` players per seed (the button on seat n - 1, so seat 0 is dealt
    first) and record its outcome (the procedure bits) and the live players when its last
    deal, draw or pass began (one for a hand won before it)."""
    phases = program.shape[0]
    last_card = -1
    last_deal = -1
    first_deal = -1
    for p in range(phases):
        if program[p, 0] != BET:
            last_card = p
        if program[p, 0] == DEAL:
            last_deal = p
            if first_deal < 0:
                first_deal = p
    rule = settings[S_RULE]
    family = settings[S_FAMILY]
    rank = settings[S_DRAW_RANK]
    threshold = settings[S_THRESHOLD]
    size = settings[S_DECK]
    five = settings[S_FIVE] == 1
    low = family in (DEUCE_TO_SEVEN, ACE_TO_FIVE, BADUGI)
    cards_matter = low or family == DRAW_HIGH or threshold >= 0
    room = size + 8
    state = np.empty(1, dtype=np.uint64)
    shuffles = np.empty(1, dtype=np.uint64)
    stub = np.empty(room, dtype=np.int64)
    burns = np.empty(room, dtype=np.int64)
    pile = np.empty(room, dtype=np.int64)
    order = np.empty(room, dtype=np.int64)
    discards = np.empty((room, 3), dtype=np.int64)
    taken = np.empty(room, dtype=np.bool_)
    hole = np.empty((n, 16), dtype=np.int64)
    held = np.zeros(n, dtype=np.int64)
    kept = np.empty(16, dtype=np.int64)
    keep = np.empty(16, dtype=np.bool_)
    live = np.empty(n, dtype=np.bool_)
    folds = np.empty(n, dtype=np.bool_)
    u = np.empty(n, dtype=np.float64)
    scores = np.zeros(n, dtype=np.int64)
    owed = np.empty((n, 2), dtype=np.int64)
    st = np.zeros(STATE, dtype=np.int64)
    for t in range(seeds.shape[0]):
        state[0] = seeds[t]
        reshuffle_state(seeds[t], shuffles)
        if cards_matter:
            shuffle_deck(state, stub, size)
        else:  # the same stream position, without the draws
            skip(state, size - 1)
        st[:] = 0
        st[END] = size
        st[LAST_REPLACED] = -1
        live[:] = True
        held[:] = 0
        count = n
        rounds = 0
        live_last = -1
        for p in range(phases):
            if count == 1:
                break
            if p == last_card:
                live_last = count
            kind = program[p, 0]
            if kind == BET:
                if p > last_card:
                    break
                for s in range(n):
                    u[s] = uniform(state)
                by_threshold = rounds == 0 and threshold >= 0
                count -= round_folds(live, u, fold_chance, by_threshold, scores, threshold, folds)
                for s in range(n):
                    if folds[s]:
                        live[s] = False
                rounds += 1
            elif kind == DEAL:
                per = program[p, 1] + program[p, 2]
                board = program[p, 3]
                last_street = rule == STUD_WSOP and p == last_deal
                if last_street and scrambles_burns(st[END] - st[TOP], count, st[BURNS]):
                    size_now = 0
                    for i in range(st[TOP], st[END]):
                        pile[size_now] = stub[i]
                        size_now += 1
                    for i in range(st[BURNS]):
                        pile[size_now] = burns[i]
                        size_now += 1
                    _restock(stub, pile, size_now, shuffles, order, st)
                    st[OUTCOME] |= BURNS_SCRAMBLED
                earlier = st[BURNS]
                if program[p, 4]:
                    _burn(stub, burns, st)
                needed = per * count + board
                remaining = st[END] - st[TOP]
                if needed <= remaining:
                    if p == first_deal and cards_matter:
                        i = 0
                        for _ in range(per):
                            for s in range(n):
                                if live[s]:
                                    hole[s, held[s]] = stub[st[TOP] + i]
                                    held[s] += 1
                                    i += 1
                    st[TOP] += needed
                    if p == first_deal and threshold >= 0:
                        for s in range(n):
                            if low:
                                scores[s] = keep_cards(hole[s], held[s], family, rank, keep)
                            else:
                                scores[s] = start_score(hole[s], held[s])
                    continue
                # The earlier burn cards may be dealt again under both stud rules, as the
                # dealer deals them (a scramble has already set st[BURNS] to 0).
                if remaining + earlier < per + board:
                    st[OUTCOME] |= OUT_OF_CARDS
                    continue
                reused, community = stud_shortfall(remaining, earlier, needed, per + board)
                if reused > 0:
                    st[OUTCOME] |= BURNS_REUSED
                if community:
                    st[OUTCOME] |= COMMUNITY_CARD
                st[TOP] += min(remaining, needed if not community else per + board)
                for i in range(st[BURNS] - reused):  # the earliest burns were dealt again
                    burns[i] = burns[i + reused]
                st[BURNS] -= reused
            elif kind == DRAW:
                if program[p, 2]:
                    _burn(stub, burns, st)
                owing = 0
                st[LAST_REPLACED] = -1
                for s in range(n):
                    if not live[s]:
                        continue
                    cards = held[s]
                    keep_cards(hole[s], cards, family, rank, keep)
                    k = 0
                    thrown = 0
                    for i in range(cards):
                        if keep[i]:
                            kept[k] = hole[s, i]
                            k += 1
                        else:
                            row = st[DISCARDS]
                            discards[row, 0] = hole[s, i]
                            discards[row, 1] = st[DRAWS]
                            discards[row, 2] = s
                            st[DISCARDS] += 1
                            thrown += 1
                    for i in range(k):
                        hole[s, i] = kept[i]
                    held[s] = k
                    back = held_back(thrown, five)
                    if back:
                        owed[owing, 0] = s
                        owed[owing, 1] = back
                        owing += 1
                        st[OUTCOME] |= FIVE_CONSECUTIVE
                    _replace(
                        s, thrown - back, settings, hole, held, stub, burns,
                        discards, taken, pile, shuffles, order, st,
                    )  # fmt: skip
                for o in range(owing):
                    s = owed[o, 0]
                    if st[LAST_REPLACED] == s:
                        _burn(stub, burns, st)
                    _replace(
                        s, owed[o, 1], settings, hole, held, stub, burns,
                        discards, taken, pile, shuffles, order, st,
                    )  # fmt: skip
                st[DRAWS] += 1
        outcomes[t] = st[OUTCOME]
        lives[t] = live_last if live_last >= 0 else count
