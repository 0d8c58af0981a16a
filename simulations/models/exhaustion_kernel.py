"""Running out of cards for volume: one compiled loop that deals whole hands of a stud, draw
or passing game and records which exhaustion procedures the dealer needed.

The loop deals what the reference engine's dealer deals (:mod:`simulations.engine.dealer`):
the burns, each street to the live players one card at a time from the dealer's left, the
draws in turn with their replacements, the five-consecutive rule's held-back card, and, when
the stub runs short, the game's exhaustion rule — taking the rule's arithmetic from the same
compiled functions (:mod:`simulations.rules.exhaustion_rules`).  Who folds and what each
player discards come from :mod:`simulations.models.exhaustion_policy`, as for the reference
player.  A test plays 100,000 hands both ways on the same decks and decisions and demands the
same outcome of each.

Randomness: each hand has its own 64-bit seed and draws from a SplitMix64 stream, the same
fixed amount every hand — the whole deck shuffled (Fisher–Yates), then one uniform per seat
for each betting round and, with a draw-count law, for each draw, in the game's order — so
that :func:`trial_draws` can hand the
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
from simulations.rules.exhaustion_rules import (
    STUD_WSOP,
    WSOP_COMMUNITY,
    WSOP_SCRAMBLE,
    WSOP_SCRAMBLE_COMMUNITY,
    discard_returns,
    held_back,
    must_reshuffle,
    stud_shortfall,
    wsop_last_street,
)

# The phases as a program of rows: (kind, a, b, c, d).
DEAL = 0  # a: down, b: up, c: board, d: burn
BET = 1
DRAW = 2  # a: most, b: burn
PASS = 3
COLUMNS = 5

# Which procedures a hand needed, as bits of its outcome.
BURNS_REUSED = 1  # stud (the texts): an earlier burn card dealt again
COMMUNITY_CARD = 2  # stud: the last street dealt as one community card
BURNS_SCRAMBLED = 4  # stud (Rule 228): the stub and the burns scrambled together
RESHUFFLED = 8  # draw: a new stub from the discards
# draw: a new stub made only because the bottom card is never given as a replacement — the
# first new stub was made with the bottom card left, for the hand's last replacement (with
# the bottom card dealt, and the same draws, the stub would have sufficed)
BOTTOM_CARD = 16
FIVE_CONSECUTIVE = 32  # draw: a fifth replacement held back until the others had drawn
OUT_OF_CARDS = 64  # stud: not even a community card left (never in the games offered)
FIVE_BURN = 128  # draw: a burn card before a held-back fifth card, no later player drawing

# The numbers recorded per hand (columns of ``stats``).
X_LIVE = 0  # players still in when the last deal, draw or pass began (1: won before it)
X_STUB = 1  # cards in the stub then (before the deal's burn; -1: not reached)
X_NEEDED = 2  # cards that deal needed: stud, a card per player (or the board); draw, the
# replacements asked; a pass, none
X_SHORT = 3  # of those, more than the stub held for them (see cards_short)
X_STUBS = 4  # new stubs made in the hand (reshuffles, Rule 228's scrambles)
STATS = 5

# What a draw's discards come from (settings[S_LAW]).
BY_CARDS = 0  # the draw policy of exhaustion_policy
BY_LAW = 1  # a number of cards from the draw-count law, the first cards held

# The settings as one int64 array (indices).
S_RULE = 0  # simulations.rules.exhaustion_rules' code
S_BOTTOM = 1  # deals_bottom_card
S_FIVE = 2  # five_consecutive
S_FAMILY = 3  # simulations.models.exhaustion_policy's family
S_DRAW_RANK = 4
S_THRESHOLD = 5  # -1: none
S_DECK = 6  # cards in the pack
S_LAW = 7  # BY_CARDS or BY_LAW
SETTINGS = 8

# The dealer's running state (one int64 array), for the helpers.
TOP = 0  # the stub is stub[TOP:END]
END = 1
BURNS = 2  # burn cards not dealt again: burns[:BURNS]
DISCARDS = 3  # discards not back in a stub: the first DISCARDS of each discard array
SHUFFLED = 4  # the stub has been rebuilt
OUTCOME = 5
LAST_REPLACED = 6
DRAWS = 7  # draws done
AFTER_BOTTOM = 8  # replacements dealt since a new stub made with the bottom card left (-1)
STUBS = 9  # new stubs made
STATE = 10

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
def uniform_rows(program: npt.NDArray[np.int64], by_law: bool) -> int:
    """The rows of uniforms a hand draws: one per betting round, and with a draw-count law
    one per draw, in the game's order."""
    rows = 0
    for p in range(program.shape[0]):
        if program[p, 0] == BET or (by_law and program[p, 0] == DRAW):
            rows += 1
    return rows


@nb.njit(cache=True)
def trial_draws(
    seed: np.uint64, size: int, deck: npt.NDArray[np.int64], uniforms: npt.NDArray[np.float64]
) -> None:
    """A hand's deck (``deck[:size]``) and its uniforms, a row per betting round (and per draw,
    with a law; :func:`uniform_rows`) and a column per seat, as the kernel draws them."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    shuffle_deck(state, deck, size)
    for r in range(uniforms.shape[0]):
        for s in range(uniforms.shape[1]):
            uniforms[r, s] = uniform(state)


@nb.njit(cache=True)
def law_count(law: npt.NDArray[np.float64], u: float) -> int:
    """The cards drawn for a uniform ``u`` under the law ``law`` (its cumulative shares:
    ``law[k]`` the chance of drawing ``k`` or fewer): the least ``k`` with ``u < law[k]``."""
    last: int = law.shape[0] - 1
    for count in range(last):
        if u < law[count]:
            return count
    while last > 0 and law[last] == law[last - 1]:  # never a count of chance zero
        last -= 1
    return last


@nb.njit(cache=True)
def cards_short(stub: int, needed: int, burn: bool, bottom_kept: bool) -> int:
    """The cards the last deal needed beyond what the stub held for it: ``stub`` cards when
    it began, less its burn card, less the bottom card where it is never given as a
    replacement (``bottom_kept``)."""
    held = stub
    if burn and held > 0:
        held -= 1
    if bottom_kept and held > 0:
        held -= 1
    return max(0, needed - held)


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
def _stub_and_burns(
    stub: npt.NDArray[np.int64],
    burns: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    pile: npt.NDArray[np.int64],
) -> int:
    """The cards left in the stub, then the burn cards, laid into ``pile``: what a new stub
    is made from; returns how many."""
    size = 0
    for i in range(st[TOP], st[END]):
        pile[size] = stub[i]
        size += 1
    for i in range(st[BURNS]):
        pile[size] = burns[i]
        size += 1
    return size


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
    st[STUBS] += 1


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
    size = _stub_and_burns(stub, burns, st, pile)
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
        if remaining <= 1 and must_reshuffle(remaining, bottom, st[SHUFFLED] == 1):
            if remaining == 1:  # only the bottom card left: from here, count what follows
                st[AFTER_BOTTOM] = 0
            rule = settings[S_RULE]
            _reshuffle(seat, rule, stub, burns, discards, taken, pile, shuffles, order, st)
        hole[seat, held[seat]] = stub[st[TOP]]
        held[seat] += 1
        st[TOP] += 1
        if st[AFTER_BOTTOM] >= 0:
            st[AFTER_BOTTOM] += 1
    st[LAST_REPLACED] = seat


@nb.njit(cache=True)
def play_hands(
    seeds: npt.NDArray[np.uint64],
    n: int,
    program: npt.NDArray[np.int64],
    settings: npt.NDArray[np.int64],
    law: npt.NDArray[np.float64],
    fold_chance: float,
    outcomes: npt.NDArray[np.int64],
    stats: npt.NDArray[np.int64],
) -> None:
    """Play one hand of ``n`` players per seed (the button on seat n - 1, so seat 0 is dealt
    first) and record its outcome (the procedure bits) and its numbers (``stats``, a row per
    hand: the ``X_*`` columns).  ``law``: the draw-count law's cumulative shares (used when
    ``settings[S_LAW]`` is ``BY_LAW``)."""
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
    bottom = settings[S_BOTTOM] == 1
    by_law = settings[S_LAW] == BY_LAW
    low = family in (DEUCE_TO_SEVEN, ACE_TO_FIVE, BADUGI)
    draws = low or family == DRAW_HIGH
    cards_matter = (draws and not by_law) or threshold >= 0
    room = size + 8
    state = np.empty(1, dtype=np.uint64)
    shuffles = np.empty(1, dtype=np.uint64)
    stub = np.arange(room, dtype=np.int64)  # unshuffled, its cards still tell apart
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
        st[AFTER_BOTTOM] = -1
        live[:] = True
        held[:] = 0
        count = n
        rounds = 0
        live_last = -1
        stub_last = -1
        needed_last = 0
        short_last = 0
        for p in range(phases):
            if count == 1:
                break
            if p == last_card:
                live_last = count
                stub_last = st[END] - st[TOP]
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
                needed = per * count + board
                if p == last_card:
                    needed_last = needed
                    short_last = cards_short(st[END] - st[TOP], needed, program[p, 4] == 1, False)
                shared = False
                if rule == STUD_WSOP and p == last_deal:
                    way = wsop_last_street(st[END] - st[TOP], needed, st[BURNS])
                    if way in (WSOP_SCRAMBLE, WSOP_SCRAMBLE_COMMUNITY):
                        size_now = _stub_and_burns(stub, burns, st, pile)
                        _restock(stub, pile, size_now, shuffles, order, st)
                        st[OUTCOME] |= BURNS_SCRAMBLED
                    shared = way in (WSOP_COMMUNITY, WSOP_SCRAMBLE_COMMUNITY)
                earlier = st[BURNS]
                if program[p, 4]:
                    _burn(stub, burns, st)
                remaining = st[END] - st[TOP]
                if shared and remaining >= per + board:
                    # Rule 228: 'burn and deal a community card', off the stub as it stands.
                    st[OUTCOME] |= COMMUNITY_CARD
                    st[TOP] += per + board
                    continue
                if needed <= remaining:
                    if p == first_deal and (cards_matter or draws):
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
                kept_bottom = not bottom and st[SHUFFLED] == 0
                stub_now = st[END] - st[TOP]
                if program[p, 2]:
                    _burn(stub, burns, st)
                if by_law:
                    for s in range(n):
                        u[s] = uniform(state)
                owing = 0
                asked = 0
                st[LAST_REPLACED] = -1
                for s in range(n):
                    if not live[s]:
                        continue
                    cards = held[s]
                    if by_law:  # the law's number of cards, the first cards held
                        throw = min(law_count(law, u[s]), cards)
                        for i in range(cards):
                            keep[i] = i >= throw
                    else:
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
                    asked += thrown
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
                    # 'if no later player drew, it is necessary to deal a burn card first'
                    if st[LAST_REPLACED] == s and st[END] > st[TOP]:
                        st[OUTCOME] |= FIVE_BURN
                        _burn(stub, burns, st)
                    _replace(
                        s, owed[o, 1], settings, hole, held, stub, burns,
                        discards, taken, pile, shuffles, order, st,
                    )  # fmt: skip
                st[DRAWS] += 1
                if p == last_card:
                    needed_last = asked
                    short_last = cards_short(stub_now, asked, program[p, 2] == 1, kept_bottom)
        if st[AFTER_BOTTOM] == 1:
            st[OUTCOME] |= BOTTOM_CARD
        outcomes[t] = st[OUTCOME]
        stats[t, X_LIVE] = live_last if live_last >= 0 else count
        stats[t, X_STUB] = stub_last if live_last >= 0 else -1
        stats[t, X_NEEDED] = needed_last
        stats[t, X_SHORT] = short_last
        stats[t, X_STUBS] = st[STUBS]
