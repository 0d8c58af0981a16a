"""What the economics jobs keep of each batch of hands: exact, mergeable sums.

:func:`tally_hands` reads a batch played by :mod:`simulations.models.table_kernel` and
returns a :class:`TableTally`: the game's course (flops, showdowns, pots), each kind of
player's starting hands played, flops seen, showdowns and pots won, each rake policy's rake
and drop with the share of pots raked and capped, what each policy's rake and drop cost each
kind of player (the chips his awards lose to them: a pot's winners pay the house), and the
paired differences of every policy against the first — their sums and sums of squares, so
that the report can give intervals that use the pairing (common random numbers: every
policy settles the same hands) — and each policy's rake and drop per hand as exact
histograms; for the bad-beat jackpot the hits at each level of its schedule with the seats
its roles fell to, the hands showing a qualifying losing hand, and the hands from one hit to
the next (:class:`Waits`).

Sums of squares are kept exactly: each value is split into two 23-bit limbs whose products
are summed in 64-bit integers within a batch (:func:`_square_add`), and joined as Python
integers.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.models import table_kernel as k
from simulations.models.table import Hands, Table, empty_hands
from simulations.models.table_jackpot import LOSER, SECOND, WINNER
from simulations.models.tally import Counts
from simulations.rules.rake_rules import NO_CAP, applicable_cap, rake_amount

SHARE_UNITS = 2520  # a role's part split among up to ten seats, in whole units
LIMB = 23
_LOW = (1 << LIMB) - 1
# Role columns of a level's units: the jackpot's parts, and the table share with and without
# the second losing hand among the others.
U_LOSER, U_WINNER, U_SECOND, U_TABLE_ALL, U_TABLE_OTHERS = 0, 1, 2, 3, 4
UNIT_ROLES = 5
GROUPS = 2  # hits without, and with, a second qualifying losing hand


@dataclass(frozen=True)
class Moments:
    """Observations summed: how many, their total and the total of their squares."""

    count: int = 0
    total: int = 0
    squares: int = 0

    def merge(self, other: Moments) -> Moments:
        return Moments(
            self.count + other.count, self.total + other.total, self.squares + other.squares
        )

    @property
    def mean(self) -> float:
        return float(Fraction(self.total, self.count)) if self.count else 0.0

    @property
    def variance(self) -> float:
        """The sample variance (0 below two observations)."""
        if self.count < 2:
            return 0.0
        n = self.count
        return float(Fraction(n * self.squares - self.total**2, n * (n - 1)))

    def half_width(self, z: float = 1.959963984540054) -> float:
        """The half width of the normal interval for the mean."""
        return z * (self.variance / self.count) ** 0.5 if self.count else 0.0


def merge_all(a: tuple[Moments, ...], b: tuple[Moments, ...]) -> tuple[Moments, ...]:
    if not a:
        return b
    if not b:
        return a
    return tuple(x.merge(y) for x, y in zip(a, b, strict=True))


def _add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    if not a:
        return b
    if not b:
        return a
    return tuple(x + y for x, y in zip(a, b, strict=True))


@dataclass(frozen=True)
class Waits:
    """The hands from one jackpot hit to the next: ``counts`` of the waits seen whole — from
    a shard's first hand to its first hit, and from each hit to the next (each hand hits
    with the same chance, independently of the others, so each wait has the same geometric
    law however it began) — and ``open``, the waits still running when a shard's hands ran
    out (censored: longer than what was seen)."""

    counts: Counts = field(default_factory=Counts)
    open: int = 0

    def merge(self, other: Waits) -> Waits:
        return Waits(self.counts.merge(other.counts), self.open + other.open)


class Waiting:
    """The waits of one shard, hand batch after hand batch (:meth:`add`), then
    :meth:`waits`."""

    def __init__(self) -> None:
        self.since = 0  # hands since the last hit (or the shard's first hand)
        self.seen: list[int] = []

    def add(self, hits: npt.NDArray[np.bool_]) -> None:
        """The next hands of the shard, in order: which of them hit."""
        at = np.flatnonzero(hits)
        if at.size:
            self.seen.append(self.since + int(at[0]) + 1)
            self.seen.extend(int(d) for d in np.diff(at))
            self.since = int(hits.shape[0] - 1 - at[-1])
        else:
            self.since += int(hits.shape[0])

    def waits(self) -> Waits:
        return Waits(Counts.of(self.seen), 1 if self.since else 0)


@dataclass(frozen=True)
class KindTally:
    """One kind of player: seat-hands dealt, starting hands played, flops seen, showdowns,
    pots won (a split pot counted for each winner)."""

    seat_hands: int = 0
    played: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    won: int = 0

    def merge(self, other: KindTally) -> KindTally:
        return KindTally(*(a + b for a, b in zip(self.counts, other.counts, strict=True)))

    @property
    def counts(self) -> tuple[int, ...]:
        return (self.seat_hands, self.played, self.saw_flop, self.showdowns, self.won)


@dataclass(frozen=True)
class PolicyTally:
    """One rake policy over the hands: hands raked and capped, the rake and the drop per
    hand, the difference of its rake from the first policy's, and by kind of player (per
    hand, summed over his seats) the rake and the drop he paid and the difference of his rake
    and drop from the first policy's."""

    raked: int = 0
    capped: int = 0
    rake: Moments = Moments()
    drop: Moments = Moments()
    rake_difference: Moments = Moments()
    kind_rake: tuple[Moments, ...] = ()
    kind_drop: tuple[Moments, ...] = ()
    kind_difference: tuple[Moments, ...] = ()
    rake_counts: Counts = field(default_factory=Counts)  # hands by the rake taken
    drop_counts: Counts = field(default_factory=Counts)  # hands by the drop taken

    def merge(self, other: PolicyTally) -> PolicyTally:
        return PolicyTally(
            self.raked + other.raked,
            self.capped + other.capped,
            self.rake.merge(other.rake),
            self.drop.merge(other.drop),
            self.rake_difference.merge(other.rake_difference),
            merge_all(self.kind_rake, other.kind_rake),
            merge_all(self.kind_drop, other.kind_drop),
            merge_all(self.kind_difference, other.kind_difference),
            self.rake_counts.merge(other.rake_counts),
            self.drop_counts.merge(other.drop_counts),
        )


@dataclass(frozen=True)
class LevelTally:
    """One level of the jackpot's schedule: hands that hit it with the room conditions met,
    hands that hit it by their cards alone, hits with a second qualifying losing hand, the
    units of each role by kind of player (``units[group][role][kind]``, flattened), and the
    hands that showed a qualifying losing hand, the room conditions met."""

    hits: int = 0
    card_hits: int = 0
    with_second: int = 0
    units: tuple[int, ...] = ()
    qualified: int = 0

    def merge(self, other: LevelTally) -> LevelTally:
        return LevelTally(
            self.hits + other.hits,
            self.card_hits + other.card_hits,
            self.with_second + other.with_second,
            _add(self.units, other.units),
            self.qualified + other.qualified,
        )

    def unit(self, group: int, role: int, kind: int, kinds: int) -> int:
        return self.units[(group * UNIT_ROLES + role) * kinds + kind] if self.units else 0


@dataclass(frozen=True)
class TableTally:
    """Everything the economics jobs keep of their hands (see the module's text)."""

    hands: int = 0
    flopped: int = 0
    showdowns: int = 0
    flop_players: int = 0
    showdown_players: int = 0
    pot_total: int = 0
    kinds: tuple[KindTally, ...] = ()
    policies: tuple[PolicyTally, ...] = ()
    levels: tuple[LevelTally, ...] = ()
    conditions_met: int = 0
    waits: Waits = field(default_factory=Waits)  # at the jackpot's reset qualifier

    @property
    def trials(self) -> int:
        return self.hands

    def merge(self, other: TableTally) -> TableTally:
        if not other.hands:
            return self
        if not self.hands:
            return other
        return TableTally(
            self.hands + other.hands,
            self.flopped + other.flopped,
            self.showdowns + other.showdowns,
            self.flop_players + other.flop_players,
            self.showdown_players + other.showdown_players,
            self.pot_total + other.pot_total,
            tuple(a.merge(b) for a, b in zip(self.kinds, other.kinds, strict=True)),
            tuple(a.merge(b) for a, b in zip(self.policies, other.policies, strict=True)),
            tuple(a.merge(b) for a, b in zip(self.levels, other.levels, strict=True)),
            self.conditions_met + other.conditions_met,
            self.waits.merge(other.waits),
        )


# -- the compiled sums --------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _square_add(x: int, out: npt.NDArray[np.int64], at: int) -> None:
    """Add ``x`` and its square (as three limb products) to ``out[at : at + 4]``.  Zero adds
    nothing and is the common value (a pot before the flop, a kind that did not win it), so
    it is passed over; the high limb is almost always zero (chips below 2**23), so its
    products are added only when it is not: branches taken the same way nearly every time.
    ``out`` is the whole flat array and ``at`` an offset: a row view per call would cost
    more than the sums."""
    if x == 0:
        return
    a = -x if x < 0 else x
    hi = a >> LIMB
    lo = a & _LOW
    out[at] += x
    out[at + 3] += lo * lo
    if hi != 0:
        out[at + 1] += hi * hi
        out[at + 2] += hi * lo


@nb.njit(cache=True, inline="always")
def _seat_count(mask: int) -> int:
    """The seats of a mask of at most sixteen seats: its bits counted in parallel, which
    takes the place of a test of every seat."""
    x = mask - ((mask >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


def _joined(row: npt.NDArray[np.int64], count: int) -> Moments:
    total, hh, hl, ll = (int(v) for v in row)
    return Moments(count, total, (hh << (2 * LIMB)) + (hl << (LIMB + 1)) + ll)


@nb.njit(cache=True)
def _sums(
    n: int,
    kind: npt.NDArray[np.int64],
    kinds: int,
    flags: npt.NDArray[np.int64],
    button: npt.NDArray[np.int64],
    masks: npt.NDArray[np.int64],
    pots: npt.NDArray[np.int64],
    rakes: npt.NDArray[np.int64],
    drops: npt.NDArray[np.int64],
    policies: npt.NDArray[np.int64],
    cap_players: npt.NDArray[np.int64],
    caps: npt.NDArray[np.int64],
    card_level: npt.NDArray[np.int64],
    hit_level: npt.NDArray[np.int64],
    roles: npt.NDArray[np.int64],
    qualified_level: npt.NDArray[np.int64],
    levels: int,
    game: npt.NDArray[np.int64],
    seats: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int64],
    moments: npt.NDArray[np.int64],
    level_counts: npt.NDArray[np.int64],
    units: npt.NDArray[np.int64],
) -> None:
    """Accumulate a batch into ``game`` (flopped, showdowns, flop players, showdown players,
    pot, conditions met), ``seats[kind, 5]``, ``counts[policy, 2]`` (raked, capped),
    ``moments[policy, quantity, 4]`` (rake, drop, rake difference, then per kind its rake,
    drop and difference), ``level_counts[level, 4]`` (hits, card hits, hits with a second
    losing hand, hands showing a qualifying losing hand) and
    ``units[level, group, role, kind]``."""
    p_count = policies.shape[0]
    flat = moments.reshape(-1)
    per_policy = moments.shape[1] * 4
    base_awards = np.empty(n, dtype=np.int64)
    raked_awards = np.empty(n, dtype=np.int64)
    dropped_awards = np.empty(n, dtype=np.int64)
    kind_rake = np.empty((p_count, kinds), dtype=np.int64)
    kind_drop = np.empty((p_count, kinds), dtype=np.int64)
    cap_of = np.empty(p_count, dtype=np.int64)
    for p in range(p_count):
        cap_of[p] = applicable_cap(n, cap_players[p], caps[p])
    # Whether a flopped pot's rake at the cap was cut to it, kept once worked out (-1: not
    # yet), as the loop keeps the take (table_kernel.TAKEN_POTS).
    cut = np.full((p_count, k.TAKEN_POTS), -1, dtype=np.int64)
    kind_seats = np.zeros(kinds, dtype=np.int64)  # each kind's seats, a mask
    for s in range(n):
        kind_seats[kind[s]] |= 1 << s
        seats[kind[s], 0] += flags.shape[0]
    for i in range(flags.shape[0]):
        f = flags[i]
        flopped = f & k.FLOPPED != 0
        game[0] += flopped
        game[1] += f & k.SHOWDOWN != 0
        game[4] += pots[i]
        game[5] += f & k.CONDITIONS_MET != 0
        for t in range(kinds):
            of_kind = kind_seats[t]
            seats[t, 1] += _seat_count(masks[i, 0] & of_kind)
            seats[t, 2] += _seat_count(masks[i, 1] & of_kind)
            seats[t, 3] += _seat_count(masks[i, 2] & of_kind)
            seats[t, 4] += _seat_count(masks[i, 3] & of_kind)
        game[2] += _seat_count(masks[i, 1])
        game[3] += _seat_count(masks[i, 2])
        pot = pots[i]
        winners = masks[i, 3]
        alone = -1  # the one winner of the pot, if there is one: he pays the whole take
        for s in range(n):
            if winners >> s & 1:
                alone = s if alone == -1 else -2
        if alone < 0:
            k.awards(pot, winners, button[i], n, base_awards)
        for p in range(p_count):
            rake = rakes[i, p]
            drop = drops[i, p]
            counts[p, 0] += rake > 0
            if cap_of[p] >= 0 and rake == cap_of[p]:  # at the cap: was it cut to it?
                known = flopped and pot < k.TAKEN_POTS
                if not known or cut[p, pot] < 0:
                    row = policies[p]
                    uncapped = rake_amount(
                        pot, n, flopped, row[k.P_NO_FLOP_NO_DROP] == 1, row[k.P_NUMERATOR],
                        row[k.P_DENOMINATOR], row[k.P_UNIT], row[k.P_ROUNDING],
                        row[k.P_INCREMENT], row[k.P_PER_INCREMENT], NO_CAP,
                    )  # fmt: skip
                    if known:
                        cut[p, pot] = uncapped > cap_of[p]
                    else:
                        counts[p, 1] += uncapped > cap_of[p]
                if known:
                    counts[p, 1] += cut[p, pot]
            for t in range(kinds):
                kind_rake[p, t] = 0
                kind_drop[p, t] = 0
            if alone >= 0:
                kind_rake[p, kind[alone]] = rake
                kind_drop[p, kind[alone]] = drop
            else:
                k.awards(pot - rake, winners, button[i], n, raked_awards)
                k.awards(pot - rake - drop, winners, button[i], n, dropped_awards)
                for s in range(n):
                    kind_rake[p, kind[s]] += base_awards[s] - raked_awards[s]
                    kind_drop[p, kind[s]] += raked_awards[s] - dropped_awards[s]
            at = p * per_policy
            _square_add(rake, flat, at)
            _square_add(drop, flat, at + 4)
            _square_add(rake - rakes[i, 0], flat, at + 8)
            for t in range(kinds):
                _square_add(kind_rake[p, t], flat, at + 4 * (3 + t))
                _square_add(kind_drop[p, t], flat, at + 4 * (3 + kinds + t))
                paid = kind_rake[p, t] + kind_drop[p, t] - kind_rake[0, t] - kind_drop[0, t]
                _square_add(paid, flat, at + 4 * (3 + 2 * kinds + t))
        low = qualified_level[i]
        if low >= 0:
            for level in range(low, levels):
                level_counts[level, 3] += 1
        low = card_level[i]
        if low >= 0:
            for level in range(low, levels):
                level_counts[level, 1] += 1
        low = hit_level[i]
        if low < 0:
            continue
        for level in range(low, levels):
            level_counts[level, 0] += 1
            losers = roles[i, level, LOSER]
            winners = roles[i, level, WINNER]
            seconds = roles[i, level, SECOND]
            group = 1 if seconds else 0
            level_counts[level, 2] += group
            everyone = (1 << n) - 1
            parts = (
                losers,
                winners,
                seconds,
                everyone & ~(losers | winners),
                everyone & ~(losers | winners | seconds),
            )
            for role in range(UNIT_ROLES):
                mask = parts[role]
                size = 0
                for s in range(n):
                    size += mask >> s & 1
                if size == 0:
                    continue
                for s in range(n):
                    if mask >> s & 1:
                        units[level, group, role, kind[s]] += SHARE_UNITS // size


def tally_hands(table: Table, hands: Hands, count: int) -> TableTally:
    """The tally of the first ``count`` hands of a batch."""
    n = table.players
    seats = table.seats
    kinds = len(table.models)
    p_count = len(table.policies)
    levels = len(table.levels)
    rows, cap_players, caps = table.policy_arrays()
    game = np.zeros(6, np.int64)
    per_kind = np.zeros((kinds, 5), np.int64)
    counts = np.zeros((p_count, 2), np.int64)
    moments = np.zeros((p_count, 3 + 3 * kinds, 4), np.int64)
    level_counts = np.zeros((levels, 4), np.int64)
    units = np.zeros((levels, GROUPS, UNIT_ROLES, kinds), np.int64)
    _sums(
        n, seats.kind, kinds, hands.flags[:count], hands.button[:count], hands.masks[:count],
        hands.pots[:count], hands.rakes[:count], hands.drops[:count], rows, cap_players, caps,
        hands.card_level[:count], hands.hit_level[:count], hands.roles[:count],
        hands.qualified_level[:count], levels, game,
        per_kind, counts, moments, level_counts, units,
    )  # fmt: skip
    policies = []
    for p in range(p_count):
        m = [_joined(moments[p, q], count) for q in range(3 + 3 * kinds)]
        policies.append(
            PolicyTally(
                int(counts[p, 0]),
                int(counts[p, 1]),
                m[0],
                m[1],
                m[2],
                tuple(m[3 : 3 + kinds]),
                tuple(m[3 + kinds : 3 + 2 * kinds]),
                tuple(m[3 + 2 * kinds :]),
                Counts.of_array(hands.rakes[:count, p]),
                Counts.of_array(hands.drops[:count, p]),
            )
        )
    return TableTally(
        count,
        int(game[0]),
        int(game[1]),
        int(game[2]),
        int(game[3]),
        int(game[4]),
        tuple(KindTally(*(int(v) for v in row)) for row in per_kind),
        tuple(policies),
        tuple(
            LevelTally(
                int(level_counts[j, 0]),
                int(level_counts[j, 1]),
                int(level_counts[j, 2]),
                tuple(int(v) for v in units[j].reshape(-1)),
                int(level_counts[j, 3]),
            )
            for j in range(levels)
        ),
        int(game[5]),
    )


CHUNK = 65_536  # hands per compiled call: part of the seeded result, keep fixed


def simulate_table(
    table: Table, hands: int, rng: np.random.Generator, wait_level: int = -1
) -> TableTally:
    """Play ``hands`` hands of ``table``, each from a seed drawn from ``rng``, in fixed
    chunks, and tally them; with a ``wait_level``, the hands from one hit at that level (the
    room's conditions met) to the next."""
    total = TableTally()
    batch = empty_hands(table, min(CHUNK, hands), contributions=False)
    waiting = Waiting()
    done = 0
    while done < hands:
        size = min(CHUNK, hands - done)
        seeds = rng.integers(0, 2**64, size=size, dtype=np.uint64)
        table.play_into(seeds, batch)
        total = total.merge(tally_hands(table, batch, size))
        if wait_level >= 0:
            level = batch.hit_level[:size]
            waiting.add((level >= 0) & (level <= wait_level))
        done += size
    if wait_level < 0:
        return total
    return replace(total, waits=waiting.waits())
