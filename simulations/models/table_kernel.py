"""Cardroom economics for volume: one compiled loop that plays whole hold'em and Omaha hands
with the player models of :mod:`simulations.models.players`, and settles each under several
rake policies at once.

The loop plays what the reference engine's :class:`~simulations.engine.hand.Hand` plays with
the reference player (:mod:`simulations.models.table_reference`): the blinds, the hole cards
one at a time from the dealer's left, the burns and the board, a betting round on each
street, the uncalled bet handed back, the showdown, and the settlement — the rake and the
jackpot drop taken before the award from the same compiled functions as the engine's
(:mod:`simulations.rules.rake_rules`), the uncalled bet and the award of a split pot by
:mod:`simulations.rules.settle`.  A test plays 100,000 hands both ways on the same decks
and decisions and demands the same stacks, rake, drop and jackpot verdict.

**The betting.**  Before the flop each seat plays its starting hand or not
(:func:`~simulations.models.starting_hands.plays`); the first to play in turn raises to his
opening size and every later seat that plays calls it; the others fold (the big blind wins
the blinds when nobody plays).  On the flop, turn and river each seat still in continues or
not (:func:`~simulations.models.players.continues`); the first in turn who continues bets
his share of the pot (:func:`~simulations.models.players.bet_size`), those who continue
call it and the others fold; a bet nobody calls is handed back and wins the pot.  When
nobody continues the street is checked through.  Stacks are deep: nobody is ever all in.

Randomness: each hand has its own 64-bit seed and a SplitMix64 stream laid out the same way
every hand (:func:`hand_draws`): the cards dealt (a partial Fisher–Yates shuffle), the button,
and one uniform per seat for each of the four rounds.  The stream is a counter, so the loop
computes only the uniforms a decision reads (:func:`decision_draw`), and the reference
player is handed the very same ones.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.models.players import bet_size, continues
from simulations.models.splitmix import uniform_at
from simulations.models.starting_hands import combo_of, plays
from simulations.models.table_eval import (
    HOLDEM,
    STREET_TRIPLES,
    board_key,
    holdem_value,
    omaha_best,
    omaha_pairs,
    street_triples,
)
from simulations.models.table_jackpot import ROLES, verdict
from simulations.rules.betting import blind_seat
from simulations.rules.odd_chips import ALL_TO_FIRST
from simulations.rules.rake_rules import applicable_cap, drop_amount, house_take, rake_amount
from simulations.rules.settle import award_clockwise, best_hands, uncalled_bet

DECK = 52
ROUNDS = 4  # preflop, flop, turn, river: a uniform per seat each
TAKEN_POTS = 4096  # the pots below this whose house take the loop keeps once worked out

# The table's settings as one int64 array (indices).
T_PLAYERS = 0
T_VARIANT = 1  # table_eval.HOLDEM or OMAHA
T_HOLE = 2  # hole cards per seat
T_SMALL_BLIND = 3
T_BIG_BLIND = 4
T_JACKPOT = 5  # 1: judge the bad-beat jackpot
T_SHOWDOWN_REQUIRED = 6  # 1: only hands shown down count; 0: every hand at the river
T_MIN_PLAYERS = 7  # the jackpot's room conditions: players dealt in,
T_FLOP_SEEN = 8  # the flop seen,
T_MIN_POT = 9  # the pot (chips),
T_RAKED_ONLY = 10  # the first policy's rake taken
TABLE = 11

# A rake policy as one int64 row (columns); caps come in their own rows.
P_NO_FLOP_NO_DROP = 0
P_NUMERATOR = 1
P_DENOMINATOR = 2
P_UNIT = 3
P_ROUNDING = 4
P_INCREMENT = 5
P_PER_INCREMENT = 6
P_DROP_AMOUNT = 7  # the jackpot drop beside the rake: fixed,
P_DROP_NUMERATOR = 8  # or a percentage
P_DROP_DENOMINATOR = 9
P_DROP_CAP = 10  # -1: none
P_DROP_THRESHOLD = 11  # -1: no drop
POLICY = 12

# A seat's verdict on a starting hand, worked out once a batch (see :func:`play_hands`).
PLAY_NEVER = 0
PLAY_ALWAYS = 1
PLAY_DRAW = 2  # the hand's class straddles the seat's share: his uniform decides
NO_HAND = -1  # a value below every made hand: what a seat continues with whatever his cards

# Each hand's flags.
FLOPPED = 1
SHOWDOWN = 2
CONDITIONS_MET = 4  # the jackpot's room conditions


@nb.njit(cache=True, inline="always")
def shuffle_into(seed: np.uint64, cards: int, deck: npt.NDArray[np.int64]) -> None:
    """``deck`` (52 cards) shuffled so that its first ``cards`` are a uniform random
    sequence: a partial Fisher–Yates shuffle on the stream's first ``cards`` uniforms (each
    computed from its place in the stream, so that none waits for the one before)."""
    for i in range(DECK):
        deck[i] = i
    for i in range(cards):
        j = i + int(uniform_at(seed, i) * (DECK - i))
        deck[i], deck[j] = deck[j], deck[i]


@nb.njit(cache=True, inline="always")
def dealt_cards(players: int, hole: int) -> int:
    """The cards a hand takes off the deck: the hole cards, three burns and the board."""
    return hole * players + 8


@nb.njit(cache=True, inline="always")
def decision_draw(seed: np.uint64, players: int, hole: int, street: int, seat: int) -> float:
    """A seat's uniform for a round (0 the first betting round .. 3 the river)."""
    return uniform_at(seed, dealt_cards(players, hole) + 1 + street * players + seat)


@nb.njit(cache=True)
def hand_draws(
    seed: np.uint64,
    players: int,
    hole: int,
    deck: npt.NDArray[np.int64],
    uniforms: npt.NDArray[np.float64],
) -> int:
    """A hand's draws, as the loop makes them: the deck (:func:`shuffle_into`), the button
    (returned), then ``uniforms[round, seat]`` for the four rounds."""
    shuffle_into(seed, dealt_cards(players, hole), deck)
    for r in range(ROUNDS):
        for s in range(players):
            uniforms[r, s] = decision_draw(seed, players, hole, r, s)
    return int(uniform_at(seed, dealt_cards(players, hole)) * players)


@nb.njit(cache=True, inline="always")
def seat_cards(
    deck: npt.NDArray[np.int64],
    players: int,
    hole: int,
    button: int,
    holes: npt.NDArray[np.int64],
    board: npt.NDArray[np.int64],
) -> None:
    """Each seat's hole cards and the board as the dealer deals them from ``deck``: one card
    at a time clockwise from the button's left, then burn and flop, burn and turn, burn and
    river."""
    for r in range(hole):
        s = button + 1
        for j in range(players):
            s = s - players if s >= players else s
            holes[s, r] = deck[r * players + j]
            s += 1
    base = hole * players
    board[0] = deck[base + 1]
    board[1] = deck[base + 2]
    board[2] = deck[base + 3]
    board[3] = deck[base + 5]
    board[4] = deck[base + 7]


@nb.njit(cache=True)
def play_hands(
    seeds: npt.NDArray[np.uint64],
    table: npt.NDArray[np.int64],
    vpip: npt.NDArray[np.float64],
    floors: npt.NDArray[np.int64],
    chance: npt.NDArray[np.float64],
    bet: npt.NDArray[np.float64],
    open_to: npt.NDArray[np.int64],
    hand_class: npt.NDArray[np.uint16],
    class_place: npt.NDArray[np.float64],
    policies: npt.NDArray[np.int64],
    cap_players: npt.NDArray[np.int64],
    caps: npt.NDArray[np.int64],
    levels: npt.NDArray[np.int64],
    qualifier: npt.NDArray[np.int64],
    card_keys: npt.NDArray[np.int64],
    flush_values: npt.NDArray[np.int32],
    row_offsets: npt.NDArray[np.int32],
    rank_classes: npt.NDArray[np.uint16],
    class_values: npt.NDArray[np.int32],
    pair_class: npt.NDArray[np.int32],
    triple_class: npt.NDArray[np.int32],
    omaha_values: npt.NDArray[np.int32],
    flags: npt.NDArray[np.int64],
    button_of: npt.NDArray[np.int64],
    masks: npt.NDArray[np.int64],
    pots: npt.NDArray[np.int64],
    contributed: npt.NDArray[np.int64],
    rakes: npt.NDArray[np.int64],
    drops: npt.NDArray[np.int64],
    card_level: npt.NDArray[np.int64],
    hit_level: npt.NDArray[np.int64],
    roles: npt.NDArray[np.int64],
    qualified_level: npt.NDArray[np.int64],
) -> None:
    """Play the hand of each seed.  Per hand: ``flags`` (FLOPPED, SHOWDOWN, CONDITIONS_MET),
        the button, ``masks[i]`` the seats that played their starting hand, saw the flop, were
        shown down and won the pot (columns 0..3), the pot after the uncalled bet came back,
        each seat's chips in it (not kept when ``contributed`` has no rows: the tally does not
        read them), each policy's rake and drop, the strictest jackpot level hit by
        the cards alone and with the room conditions met (-1: none), and the jackpot's roles at
        each level (``roles[i, level, role]``, seat masks: written for the hands that hit, the
        others' rows left as they were), and the strictest level at which a qualifying losing hand
    was judged with the room conditions met (-1: none).

        ``floors[seat, street]`` is the made hand a seat continues with on the flop, turn and
        river; ``policies`` a row per rake policy, ``cap_players``/``caps`` its caps (rows
        padded with players above any table); ``levels`` the jackpot's losing floors, strictest
        first."""
    n = table[T_PLAYERS]
    variant = table[T_VARIANT]
    hole = table[T_HOLE]
    sb = table[T_SMALL_BLIND]
    bb = table[T_BIG_BLIND]
    judge = table[T_JACKPOT] == 1
    showdown_required = table[T_SHOWDOWN_REQUIRED] == 1
    n_policies = policies.shape[0]
    n_levels = levels.shape[0]
    deck = np.empty(DECK, dtype=np.int64)
    holes = np.empty((n, hole), dtype=np.int64)
    board = np.empty(5, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)  # the seats still in after the flop, in turn
    going = np.empty(n, dtype=np.bool_)  # by place in ``order``
    values = np.zeros(n, dtype=np.int64)
    valued = np.empty(n, dtype=np.int64)  # the street of each seat's value (-1: none)
    contrib = np.empty(n, dtype=np.int64)
    at_river = np.empty(n, dtype=np.int64)
    level_roles = np.zeros((n_levels, ROLES), dtype=np.int64)
    qualified = np.full(1, -1, dtype=np.int64)
    pairs = np.empty((n, 6, 3), dtype=np.int64)
    triples = np.empty((10, 3), dtype=np.int64)
    ends = np.array(STREET_TRIPLES, dtype=np.int64)
    # Each seat's verdict on each starting hand (PLAY_NEVER, PLAY_ALWAYS, PLAY_DRAW), by
    # combination in hold'em and by class in Omaha (whose combinations are too many), for
    # each distinct share played: the loop then reads one byte where it read the class's
    # place and width, and the uniform only where the class straddles the share.
    verdict_row = np.empty(n, dtype=np.int64)
    shares = np.empty(n, dtype=np.float64)
    distinct = 0
    for s in range(n):
        verdict_row[s] = -1
        for r in range(distinct):
            if shares[r] == vpip[s]:
                verdict_row[s] = r
        if verdict_row[s] < 0:
            shares[distinct] = vpip[s]
            verdict_row[s] = distinct
            distinct += 1
    by_combo = variant == HOLDEM
    starting = hand_class.shape[0] if by_combo else class_place.shape[0]
    verdicts = np.empty((distinct, starting), dtype=np.int8)
    for r in range(distinct):
        share = shares[r]
        for x in range(starting):
            c = hand_class[x] if by_combo else x
            low = class_place[c, 0]
            if not low < share:
                verdicts[r, x] = PLAY_NEVER
            elif low + class_place[c, 1] <= share:
                verdicts[r, x] = PLAY_ALWAYS
            else:
                verdicts[r, x] = PLAY_DRAW
    cap_of = np.empty(n_policies, dtype=np.int64)
    for p in range(n_policies):
        cap_of[p] = applicable_cap(n, cap_players[p], caps[p])
    # Every policy's rake and drop of a pot, kept once worked out, by the flop seen and the
    # pot (``taken[flop, pot, 0] < 0``: not yet): the take depends on these alone, and its
    # divisions cost more than the reading; a pot's policies side by side, one read.
    taken = np.full((2, TAKEN_POTS, 2 * n_policies + 1), -1, dtype=np.int32)
    keep_contributed = contributed.shape[0] > 0
    cards = dealt_cards(n, hole)
    for i in range(seeds.shape[0]):
        seed = seeds[i]
        shuffle_into(seed, cards, deck)
        button = int(uniform_at(seed, cards) * n)
        seat_cards(deck, n, hole, button, holes, board)
        button_of[i] = button
        # The two blinds' seats (heads up the button posts the small blind).
        small = blind_seat(0, n, 2, button, False, False)
        big = blind_seat(1, n, 2, button, False, False)
        for s in range(n):
            contrib[s] = 0
        contrib[small] = sb
        contrib[big] = bb
        # Preflop: the first to play raises to his opening size, later players call it.
        live = 0  # the seats still in, a mask
        played = 0
        opener = -1
        first = big + 1 if n > 2 else button
        for k in range(n):
            s = first + k
            s = s - n if s >= n else s
            if s == big and opener < 0:
                live = 1 << s  # folded round to the big blind, who wins the blinds
                break
            x = combo_of(holes, s, hole)
            c = hand_class[x]
            choice = verdicts[verdict_row[s], x if by_combo else c]
            takes = choice == PLAY_ALWAYS
            if choice == PLAY_DRAW:
                u = decision_draw(seed, n, hole, 0, s)
                takes = plays(class_place[c, 0], class_place[c, 1], u, vpip[s])
            if takes:
                played |= 1 << s
                if opener < 0:
                    opener = s
                contrib[s] = open_to[opener]
        if opener >= 0:
            live = played
        # The seats in, in turn from the button's left (the order of every later street).
        count = 0
        for k in range(n):
            s = button + 1 + k
            s = s - n if s >= n else s
            if live >> s & 1:
                order[count] = s
                count += 1
        flopped = count >= 2
        saw_flop = 0
        river_count = 0
        if flopped:
            saw_flop = live
            for j in range(count):
                s = order[j]
                valued[s] = -1
                if variant != HOLDEM:
                    omaha_pairs(holes, s, pair_class, pairs)
            if variant != HOLDEM:
                street_triples(board, triple_class, triples)
            pot = 0
            for s in range(n):
                pot += contrib[s]
            for street in range(3):
                shown = 3 + street
                judged = judge and street == 2  # every value at the river, for the jackpot
                # Each seat's uniform first: one that continues with no hand at all needs no
                # value (unless the jackpot reads it); then the values still needed, their
                # table reads independent of one another; then the decisions in turn.
                for j in range(count):
                    s = order[j]
                    going[j] = chance[s] > 0.0 and continues(
                        NO_HAND, floors[s, street], decision_draw(seed, n, hole, 1 + street, s),
                        chance[s],
                    )  # fmt: skip
                if variant == HOLDEM:
                    key = board_key(board, shown, card_keys)
                    for j in range(count):
                        s = order[j]
                        if judged or (floors[s, street] >= 0 and not going[j]):
                            values[s] = holdem_value(
                                holes, s, board, shown, key, card_keys, flush_values,
                                row_offsets, rank_classes, class_values,
                            )  # fmt: skip
                            valued[s] = street
                else:
                    for j in range(count):
                        s = order[j]
                        if judged or (floors[s, street] >= 0 and not going[j]):
                            before = valued[s]
                            values[s] = omaha_best(
                                pairs, s, triples, ends[before] if before >= 0 else 0,
                                ends[street], values[s] if before >= 0 else 0, omaha_values,
                                flush_values,
                            )  # fmt: skip
                            valued[s] = street
                # The decisions are as good as random: worked out without branches (``|``,
                # ``&`` and sums of flags in place of ``or``, ``and`` and ``if``), so that the
                # processor has nothing to mispredict; his uniform not enough, a seat's made
                # hand decides.
                bettor = -1
                for j in range(count):
                    s = order[j]
                    floor = floors[s, street]
                    going[j] = going[j] | ((floor >= 0) & (values[s] >= floor))
                for j in range(count):
                    if going[j]:
                        bettor = order[j]
                        break
                if judged:
                    for s in range(n):
                        if live >> s & 1:
                            at_river[river_count] = s
                            river_count += 1
                if bettor < 0:
                    continue  # checked through
                amount = bet_size(pot, bet[bettor], bb)
                kept = 0
                for j in range(count):
                    s = order[j]
                    g = int(going[j])
                    order[kept] = s
                    kept += g
                    contrib[s] += amount * g
                    live &= ~((1 - g) << s)
                if kept > 1:
                    pot += kept * amount
                count = kept
                if count == 1:
                    break
        # The uncalled bet comes back (a street's bet nobody called among it).
        seat, excess = uncalled_bet(contrib)
        if seat >= 0:
            contrib[seat] -= excess
        pot = 0
        for s in range(n):
            pot += contrib[s]
        if keep_contributed:
            for s in range(n):
                contributed[i, s] = contrib[s]
        showdown = count >= 2
        winners = 0
        shown_mask = 0
        if showdown:
            key = 0
            if variant == HOLDEM:
                key = board_key(board, 5, card_keys)
            for j in range(count):
                s = order[j]
                if valued[s] != 2:
                    if variant == HOLDEM:
                        values[s] = holdem_value(
                            holes, s, board, 5, key, card_keys, flush_values, row_offsets,
                            rank_classes, class_values,
                        )  # fmt: skip
                    else:
                        before = valued[s]
                        values[s] = omaha_best(
                            pairs, s, triples, ends[before] if before >= 0 else 0, ends[2],
                            values[s] if before >= 0 else 0, omaha_values, flush_values,
                        )  # fmt: skip
            shown_mask = live
            winners = best_hands(values[:n], live)
        else:
            winners = live
        masks[i, 0] = played
        masks[i, 1] = saw_flop
        masks[i, 2] = shown_mask
        masks[i, 3] = winners
        pots[i] = pot
        seen = 1 if flopped else 0
        if pot < TAKEN_POTS and taken[seen, pot, 0] >= 0:
            for p in range(n_policies):
                rakes[i, p] = taken[seen, pot, 1 + 2 * p]
                drops[i, p] = taken[seen, pot, 2 + 2 * p]
        else:
            for p in range(n_policies):
                rake = rake_amount(
                    pot, n, flopped, policies[p, P_NO_FLOP_NO_DROP] == 1,
                    policies[p, P_NUMERATOR], policies[p, P_DENOMINATOR], policies[p, P_UNIT],
                    policies[p, P_ROUNDING], policies[p, P_INCREMENT],
                    policies[p, P_PER_INCREMENT], cap_of[p],
                )  # fmt: skip
                drop = 0
                if policies[p, P_DROP_THRESHOLD] >= 0:
                    drop = drop_amount(
                        pot, flopped, policies[p, P_DROP_AMOUNT], policies[p, P_DROP_NUMERATOR],
                        policies[p, P_DROP_DENOMINATOR], policies[p, P_DROP_CAP],
                        policies[p, P_DROP_THRESHOLD],
                    )  # fmt: skip
                rakes[i, p], drops[i, p] = house_take(pot, rake, drop)
                if pot < TAKEN_POTS:
                    taken[seen, pot, 1 + 2 * p] = rakes[i, p]
                    taken[seen, pot, 2 + 2 * p] = drops[i, p]
            if pot < TAKEN_POTS:
                taken[seen, pot, 0] = 1
        flag = (FLOPPED if flopped else 0) | (SHOWDOWN if showdown else 0)
        found = -1
        qualified[0] = -1
        if judge and river_count >= 2 and (showdown or not showdown_required):
            if showdown_required:
                river_count = 0
                for s in range(n):
                    if live >> s & 1:
                        at_river[river_count] = s
                        river_count += 1
            found = verdict(
                holes, board, at_river, river_count, values, levels, qualifier, card_keys,
                flush_values, row_offsets, class_values, rank_classes, level_roles, qualified,
            )  # fmt: skip
            if found >= 0:
                for level in range(n_levels):
                    for role in range(ROLES):
                        roles[i, level, role] = level_roles[level, role]
        card_level[i] = found
        met = (
            n >= table[T_MIN_PLAYERS]
            and (flopped or table[T_FLOP_SEEN] == 0)
            and pot >= table[T_MIN_POT]
            and (table[T_RAKED_ONLY] == 0 or (n_policies > 0 and rakes[i, 0] > 0))
        )
        hit_level[i] = found if met else -1
        qualified_level[i] = qualified[0] if met else -1
        if met:
            flag |= CONDITIONS_MET
        flags[i] = flag


@nb.njit(cache=True)
def awards(
    amount: int, winners: int, button: int, players: int, out: npt.NDArray[np.int64]
) -> None:
    """``out[seat]``: each winner's part of ``amount`` (the seats of the mask ``winners``
    share it, odd chips to the first clockwise from the button, as the engine splits a pot);
    0 for the others."""
    for s in range(players):
        out[s] = 0
    award_clockwise(amount, winners, button, ALL_TO_FIRST, out[:players])
