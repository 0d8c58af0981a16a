"""Guts pot growth: whole games of guts, how long they last and how big the pot gets.

One trial is one session — a game of guts from the antes to the deal that ends it (Rules
000_1a86611de8d3f5f7.txt, 'Guts': "The game ends when only a single player has the guts to
stay “in”, and thus the pot is taken without replenishment"), or to ``max_deals`` deals,
when it is counted as censored: the deal limit is the only bound, and the job names it.
Any guts game of the registry (``G2`` … ``G3-CAP50``) is played by the compiled loop of
:mod:`simulations.models.guts_kernel`, which a test holds to the reference session deal
for deal; each seat stays in by its own policy (:mod:`simulations.models.guts_policy`).

Optionally the job first searches for the symmetric threshold equilibrium by fictitious
play: everyone else plays the belief (a share of holdings staying in), one seat's best
reply among a grid of thresholds is found on common random numbers, and the belief moves
to the running average of the best replies.  The search has its own seed, so every shard
finds the same thresholds, and the sessions are then played with everyone at them.

Every numeric statistic is reported as a whole distribution
(:mod:`simulations.models.distribution`): the deals a game lasts as an exact histogram, the
pots and the nets in log-scale bins, each with quantiles and their intervals.  Without a cap
the pot multiplies every deal, and for loose stay rules its law has no finite mean: the
per-deal growth law decides, and the report then gives no mean and says why.  The first
deals of every session may be forced (``[[forced]]``: the hands dealt and who stays in), so
that the texts' worked examples run as jobs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from simulations.cards import format_card, parse_cards
from simulations.engine.guts_game import (
    DealerRule,
    DealerWithoutPair,
    GutsDeal,
    GutsGame,
    NobodyIn,
    PotRule,
    SetAside,
    ViciousPayers,
    WorstHandPays,
)
from simulations.engine.pots import OddChipRule
from simulations.engine.variants import GUTS_VARIANTS, Variant
from simulations.models import guts_kernel as k
from simulations.models.distribution import (
    LogBins,
    Tail,
    Verdict,
    growth_verdict,
    hill,
    log_bins,
    log_summary,
    mean_interval,
    mean_of_sums,
    summary,
)
from simulations.models.estimate import Estimate
from simulations.models.guts_policy import (
    Stay,
    StayPolicy,
    decision_value,
    holdings,
    tables,
    threshold_for_top,
    threshold_label,
)
from simulations.models.job_game import read_game
from simulations.models.tally import Counts, merge_each
from simulations.rules.guts_rules import MATCH, NO_CAP, VICIOUS, WORST_HAND_DOUBLES
from simulations.spec import Fields, SpecError
from simulations.stats import Z_95, Proportion

CHUNK = 1024  # sessions per compiled call: part of the seeded result, keep fixed
TRACKED_DEALS = 50  # the pot is reported for deal numbers 1..50
POT_MULTIPLES = (10, 50, 100)  # P(largest pot > k × the ante), unless the job names others
DEALS_OVER = (10, 50, 100)  # P(deals > d), unless the job names others
MAX_DEALS = 1_000_000
MAX_THRESHOLDS = 20
MAX_FORCED = 100
ENDINGS = ("one player in", "every player in tied", "the dealer unchallenged", "censored")
GRID = tuple(round(0.05 * i, 2) for i in range(1, 21))  # the search's shares staying in


@dataclass(frozen=True)
class Equilibrium:
    """The fictitious-play search: ``rounds`` best replies of ``sessions`` sessions each."""

    rounds: int = 12
    sessions: int = 20_000
    seed: int = 0


@dataclass(frozen=True)
class Forced:
    """A forced deal: the cards each seat is dealt (seat 0 first, as many as the game deals
    a player) and whether each stays in — at a challenge of a lone dealer too."""

    hands: tuple[tuple[int, ...], ...]
    stays: tuple[bool, ...]


@dataclass(frozen=True)
class Statistics:
    """The thresholds a job asks about: P(largest pot > k antes) for each ``pot_over`` and
    P(deals > d) for each ``deals_over``."""

    pot_over: tuple[int, ...] = POT_MULTIPLES
    deals_over: tuple[int, ...] = DEALS_OVER


@dataclass(frozen=True)
class GutsTally:
    """Mergeable counts over sessions.  ``endings``: sessions by how the game ended
    (:data:`ENDINGS`); ``inexact``: sessions whose chips passed 2^52 and were carried in
    floating point from there; ``deals``: the deals each game lasted; ``final_bins``,
    ``largest_bins``: the pot the game ended on and the largest pot a deal was played for,
    in the bins of :func:`~simulations.models.distribution.log_bins`; ``final_sum``,
    ``final_squares``, ``final_largest``: the pot the game ended on, summed, squared and at
    its largest; ``largest``: the largest pot of all; ``pot_over``, ``deals_over``: sessions
    past each threshold of the job's :class:`Statistics`; ``growth``: the deals, and the
    sums of each deal's growth factor, its square and fourth power in units of 2^-20;
    ``net_sums``, ``net_squares``, ``net_bins``: each seat's net; ``pot_sums``,
    ``pot_counts``: the pot each deal number was played for, and how many sessions reached
    it; ``equilibrium``: the search's result (the same in every shard): the share staying in
    (per mille), seat 0's summed net there and the sessions, the best reply's share and its
    summed net."""

    sessions: int = 0
    endings: tuple[int, ...] = ()
    inexact: int = 0
    deals: Counts = field(default_factory=Counts)
    final_bins: Counts = field(default_factory=Counts)
    largest_bins: Counts = field(default_factory=Counts)
    final_sum: int = 0
    final_squares: int = 0
    final_largest: int = 0
    largest: int = 0
    pot_over: tuple[int, ...] = ()
    deals_over: tuple[int, ...] = ()
    growth: tuple[int, ...] = ()
    cap_hit_sessions: int = 0
    cap_hits: int = 0
    set_aside: int = 0
    net_sums: tuple[int, ...] = ()
    net_squares: tuple[int, ...] = ()
    net_bins: tuple[Counts, ...] = ()
    pot_sums: tuple[int, ...] = ()
    pot_counts: tuple[int, ...] = ()
    equilibrium: tuple[int, ...] = ()

    @property
    def trials(self) -> int:
        return self.sessions

    def merge(self, other: GutsTally) -> GutsTally:
        if self.equilibrium and other.equilibrium and self.equilibrium != other.equilibrium:
            raise ValueError("shards found different equilibria: the search must be seeded alike")
        return GutsTally(
            self.sessions + other.sessions,
            _add(self.endings, other.endings),
            self.inexact + other.inexact,
            self.deals.merge(other.deals),
            self.final_bins.merge(other.final_bins),
            self.largest_bins.merge(other.largest_bins),
            self.final_sum + other.final_sum,
            self.final_squares + other.final_squares,
            max(self.final_largest, other.final_largest),
            max(self.largest, other.largest),
            _add(self.pot_over, other.pot_over),
            _add(self.deals_over, other.deals_over),
            _add(self.growth, other.growth),
            self.cap_hit_sessions + other.cap_hit_sessions,
            self.cap_hits + other.cap_hits,
            self.set_aside + other.set_aside,
            _add(self.net_sums, other.net_sums),
            _add(self.net_squares, other.net_squares),
            merge_each(self.net_bins, other.net_bins),
            _add(self.pot_sums, other.pot_sums),
            _add(self.pot_counts, other.pot_counts),
            self.equilibrium or other.equilibrium,
        )


def guts_lacks(found: Variant) -> list[str]:
    """What the guts loop needs of a registry game and ``found`` lacks: a guts game's rules
    (a file of ``kind = "guts"``), which the loop reads whole (:class:`GutsGame`)."""
    return [] if isinstance(found.definition, GutsGame) else ["a guts game (this is a poker game)"]


def _add(left: tuple[int, ...], right: tuple[int, ...]) -> tuple[int, ...]:
    if not left:
        return right
    if not right:
        return left
    return tuple(a + b for a, b in zip(left, right, strict=True))


def _chips(values: npt.NDArray[np.float64]) -> Any:
    """Whole-number floats as exact Python integers, element by element."""
    return np.vectorize(int, otypes=[object])(values)


def _sums(
    values: npt.NDArray[np.float64], exact: npt.NDArray[np.bool_]
) -> tuple[list[int], list[int]]:
    """Column sums and sums of squares of whole-number chips, exactly: the sessions within
    2^52 chips in int64 (a square split at 2^26 so that no product passes 2^52 and 1,024 of
    them stay below 2^62), the few others as Python integers."""
    table = values.reshape(len(values), -1)
    inside = table[exact].astype(np.int64)
    size = np.abs(inside)
    high, low = size >> 26, size & ((1 << 26) - 1)
    sums = [int(v) for v in inside.sum(axis=0)]
    squares = [
        (int(a) << 52) + (int(b) << 27) + int(c)
        for a, b, c in zip(
            (high * high).sum(axis=0), (high * low).sum(axis=0), (low * low).sum(axis=0),
            strict=True,
        )
    ]  # fmt: skip
    outside = table[~exact]
    if len(outside):
        chips = _chips(outside)
        sums = [a + int(b) for a, b in zip(sums, chips.sum(axis=0), strict=True)]
        squares = [a + int(b) for a, b in zip(squares, (chips * chips).sum(axis=0), strict=True)]
    return sums, squares


@dataclass(frozen=True)
class Played:
    """The compiled loop's output for a chunk of sessions (see
    :func:`simulations.models.guts_kernel.play_sessions`)."""

    deals: npt.NDArray[np.int64]
    outcome: npt.NDArray[np.int64]
    largest: npt.NDArray[np.float64]
    final: npt.NDArray[np.float64]
    hits: npt.NDArray[np.int64]
    aside: npt.NDArray[np.float64]
    nets: npt.NDArray[np.float64]
    pots: npt.NDArray[np.float64]
    exact: npt.NDArray[np.int64]
    growth: npt.NDArray[np.int64]


def _bins(values: npt.NDArray[np.float64]) -> Counts:
    """``values`` counted in the bins of :func:`simulations.models.distribution.log_bins`."""
    return Counts.of_array(log_bins(values))


def forced_deck(game: GutsGame, players: int, button: int, deal: Forced) -> list[int]:
    """The deck order that deals ``deal`` with ``button`` dealing: the down cards one at a
    time from the dealer's left, then (where the last card comes up to the players in) the
    last cards of those staying in, from the dealer's left, then the rest of the pack."""
    down = game.cards - (game.deal is GutsDeal.LAST_CARD_UP)
    order: list[int] = []
    seats = [(button + k) % players for k in range(1, players + 1)]
    for c in range(down):
        order.extend(deal.hands[seat][c] for seat in seats)
    if down < game.cards:
        staying = [seat for seat in seats if deal.stays[seat]]
        order.extend(deal.hands[seat][down] for seat in staying)
        order.extend(deal.hands[seat][down] for seat in seats if not deal.stays[seat])
    used = set(order)
    return order + [c for c in range(52) if c not in used]


@dataclass(frozen=True)
class GutsModel:
    """Sessions of the guts game ``code`` among ``players``, each seat by its policy."""

    kind: ClassVar[str] = "guts"
    trials_field: ClassVar[str] = "sessions"

    code: str
    players: int
    policies: tuple[StayPolicy, ...]
    max_deals: int = 1000
    equilibrium: Equilibrium | None = None
    statistics: Statistics = Statistics()
    forced: tuple[Forced, ...] = ()

    def __post_init__(self) -> None:
        game = self.game
        if not game.min_players <= self.players <= game.max_players:
            raise ValueError(
                f"players: {self.code} is for {game.min_players} to {game.max_players} players"
            )
        if len(self.policies) != self.players:
            raise ValueError(f"policies: one per seat, {self.players}, got {len(self.policies)}")
        if not 1 <= self.max_deals <= MAX_DEALS:
            raise ValueError(f"max_deals: 1 to {MAX_DEALS:,}, got {self.max_deals}")
        for i, deal in enumerate(self.forced):
            if len(deal.hands) != self.players or len(deal.stays) != self.players:
                raise ValueError(f"forced[{i}]: one hand and one stay for each of {self.players}")
            if any(len(h) != game.cards for h in deal.hands):
                raise ValueError(f"forced[{i}].hands: {game.cards} cards a player")
            dealt = [c for h in deal.hands for c in h]
            if len(set(dealt)) != len(dealt) or any(not 0 <= c < 52 for c in dealt):
                raise ValueError(f"forced[{i}].hands: a card dealt twice, or not of the 52")

    @property
    def game(self) -> GutsGame:
        if self.code not in GUTS_VARIANTS:
            raise ValueError(f"game: {self.code!r} is not a guts game")
        return GUTS_VARIANTS[self.code].guts()

    @classmethod
    def from_fields(cls, job: Fields) -> GutsModel:
        """Read ``game``, ``[table]``, ``[policy]``, ``[[seats]]``, ``[equilibrium]``,
        ``[statistics]`` and ``[[forced]]``."""
        code = read_game(job, "G3", guts_lacks).code
        section = job.table("table")
        game = GUTS_VARIANTS[code].guts()
        players = section.integer("players", 5, low=game.min_players, high=game.max_players)
        max_deals = section.integer("max_deals", 1000, low=1, high=MAX_DEALS)
        section.finish()
        default = _policy(game, job.table("policy"))
        seats: list[StayPolicy] = [default] * players
        rows = job.tables("seats")
        if rows:
            if len(rows) != players:
                raise SpecError("seats", f"gives {len(rows)} seats; the game seats {players}")
            seats = [_policy(game, row) for row in rows]
        search = job.table("equilibrium")
        wanted = search.boolean("search", False)
        rounds = search.optional_integer("rounds", low=1, high=200)
        evaluated = search.optional_integer("sessions", low=100, high=10_000_000)
        seed = search.optional_integer("seed", low=0, high=2**63 - 1)
        search.finish()
        equilibrium = None
        if wanted:
            preset = Equilibrium()
            equilibrium = Equilibrium(
                preset.rounds if rounds is None else rounds,
                preset.sessions if evaluated is None else evaluated,
                preset.seed if seed is None else seed,
            )
        else:
            for key, given in (("rounds", rounds), ("sessions", evaluated), ("seed", seed)):
                if given is not None:
                    raise SpecError(search.path(key), "goes with search = true")
        if equilibrium is not None and (job.has("policy") or job.has("seats")):
            raise SpecError("equilibrium.search", "plays the equilibrium: give no policy")
        statistics = _statistics(job.table("statistics"))
        forced = tuple(_forced(game, players, row) for row in job.tables("forced"))
        if len(forced) > MAX_FORCED:
            raise SpecError("forced", f"at most {MAX_FORCED} forced deals, got {len(forced)}")
        if len(forced) > max_deals:
            raise SpecError("forced", f"forces {len(forced)} deals; max_deals is {max_deals}")
        return cls(code, players, tuple(seats), max_deals, equilibrium, statistics, forced)

    def describe(self) -> str:
        game = self.game
        forced = f", the first {len(self.forced)} deals forced" if self.forced else ""
        return (
            f"{game.name}, {self.players} players, at most {self.max_deals:,} deals a game{forced}"
        )

    def empty_tally(self) -> GutsTally:
        return GutsTally()

    # -- simulating -------------------------------------------------------------------

    def simulate(self, sessions: int, rng: np.random.Generator) -> GutsTally:
        """Play ``sessions`` sessions from ``rng`` in fixed chunks."""
        policies = self.policies
        found: tuple[int, ...] = ()
        if self.equilibrium is not None:
            found, threshold = self._search(self.equilibrium)
            policies = (StayPolicy(Stay.THRESHOLD, threshold),) * self.players
        seeds = rng.integers(0, 2**64, size=sessions, dtype=np.uint64)
        tally = GutsTally(equilibrium=found)
        for start in range(0, sessions, CHUNK):
            tally = tally.merge(self._chunk(seeds[start : start + CHUNK], policies))
        return tally

    def _chunk(self, seeds: npt.NDArray[np.uint64], policies: tuple[StayPolicy, ...]) -> GutsTally:
        out = self._play(seeds, policies)
        if not all(np.isfinite(a).all() for a in (out.largest, out.final, out.aside, out.nets)):
            # Without a cap a pot multiplies every deal; past float64's range nothing about
            # the game can be counted, so the job is refused rather than reported wrongly.
            raise ValueError(
                f"a game's pot passed {np.finfo(np.float64).max:.3g} chips, more than can be "
                f"counted: play a capped game or lower [game] max_deals (now {self.max_deals:,})"
            )
        ante = self.game.ante
        exact = out.exact.astype(bool)
        final_sum, final_squares = _sums(out.final, exact)
        net_sums, net_squares = _sums(out.nets, exact)
        pot_sums, _ = _sums(out.pots, exact)
        aside, _ = _sums(out.aside, exact)
        stats = self.statistics
        return GutsTally(
            sessions=len(seeds),
            endings=tuple(int(np.sum(out.outcome == e)) for e in range(k.ENDINGS)),
            inexact=int(np.sum(~exact)),
            deals=Counts.of_array(out.deals),
            final_bins=_bins(out.final),
            largest_bins=_bins(out.largest),
            final_sum=final_sum[0],
            final_squares=final_squares[0],
            final_largest=int(out.final.max()),
            largest=int(out.largest.max()),
            pot_over=tuple(int(np.sum(out.largest > m * ante)) for m in stats.pot_over),
            deals_over=tuple(int(np.sum(out.deals > d)) for d in stats.deals_over),
            growth=tuple(int(v) for v in out.growth),
            cap_hit_sessions=int(np.sum(out.hits > 0)),
            cap_hits=int(out.hits.sum()),
            set_aside=aside[0],
            net_sums=tuple(net_sums),
            net_squares=tuple(net_squares),
            net_bins=tuple(_bins(out.nets[:, seat]) for seat in range(self.players)),
            pot_sums=tuple(pot_sums),
            pot_counts=tuple(
                int(v) for v in (out.deals[:, None] > np.arange(out.pots.shape[1])).sum(axis=0)
            ),
        )

    def _play(self, seeds: npt.NDArray[np.uint64], policies: tuple[StayPolicy, ...]) -> Played:
        """Run the compiled loop over ``seeds``; its per-session arrays."""
        n = self.players
        size = len(seeds)
        t = tables(self.game)
        played = Played(
            deals=np.zeros(size, np.int64),
            outcome=np.zeros(size, np.int64),
            largest=np.zeros(size, np.float64),
            final=np.zeros(size, np.float64),
            hits=np.zeros(size, np.int64),
            aside=np.zeros(size, np.float64),
            nets=np.zeros((size, n), np.float64),
            pots=np.zeros((size, min(self.max_deals, TRACKED_DEALS)), np.float64),
            exact=np.zeros(size, np.int64),
            growth=np.zeros(4, np.int64),
        )
        decks, stays = self._forced_arrays()
        k.play_sessions(
            seeds, n, self.rules(), t.three, t.two, t.decision_two,
            np.array([0 if p.stay is Stay.THRESHOLD else 1 for p in policies], np.int64),
            np.array([p.threshold for p in policies], np.int64),
            np.array([p.chance for p in policies], np.float64),
            decks, stays,
            played.deals, played.outcome, played.largest, played.final, played.hits,
            played.aside, played.nets, played.pots, played.exact, played.growth,
        )  # fmt: skip
        return played

    def _forced_arrays(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The forced deals as the compiled loop takes them: a deck order a deal (the cards
        in the order the loop deals them) and who stays in."""
        decks = np.zeros((len(self.forced), 52), np.int64)
        stays = np.zeros((len(self.forced), self.players), np.int64)
        for d, deal in enumerate(self.forced):
            decks[d] = forced_deck(self.game, self.players, d % self.players, deal)
            stays[d] = deal.stays
        return decks, stays

    def rules(self) -> npt.NDArray[np.int64]:
        """The game's rules as the compiled loop takes them."""
        g = self.game
        r = np.zeros(k.RULES, np.int64)
        r[k.R_CARDS] = g.cards
        r[k.R_DEAL] = k.LAST_CARD_UP if g.deal is GutsDeal.LAST_CARD_UP else k.ALL_DOWN
        r[k.R_DEALER] = {
            DealerRule.NONE: k.DEALER_NONE,
            DealerRule.PAIR_TO_WIN_ALONE: k.DEALER_PAIR_TO_WIN_ALONE,
            DealerRule.CHALLENGE: k.DEALER_CHALLENGE,
        }[g.dealer]
        r[k.R_DEALER_MATCHES] = g.dealer_without_pair is DealerWithoutPair.MATCHES
        r[k.R_POT_RULE] = {
            PotRule.MATCH: MATCH,
            PotRule.WORST_HAND_DOUBLES: WORST_HAND_DOUBLES,
            PotRule.VICIOUS: VICIOUS,
        }[g.pot_rule]
        r[k.R_WORST_TWICE] = g.worst_hand_pays is WorstHandPays.TWICE_THE_POT
        r[k.R_VICIOUS_EVERY] = g.vicious_payers is ViciousPayers.EVERY_PLAYER_IN
        r[k.R_ANTE] = g.ante
        r[k.R_CAP] = NO_CAP if g.cap is None else g.cap
        r[k.R_LAST_WINNER] = g.set_aside is SetAside.LAST_WINNER
        r[k.R_RE_ANTE] = g.nobody_in is NobodyIn.RE_ANTE
        r[k.R_ODD_CHIPS] = 0 if g.odd_chips is OddChipRule.FIRST_LEFT_OF_BUTTON else 1
        r[k.R_PAIR] = g.ranking(parse_cards("2c 2d 3h" if g.cards == 3 else "2c 2d")).value
        r[k.R_MAX_DEALS] = self.max_deals
        return r

    # -- the equilibrium -----------------------------------------------------------------

    def _search(self, search: Equilibrium) -> tuple[tuple[int, ...], int]:
        """Fictitious play over :data:`GRID`: the belief starts at half the holdings in;
        each round seat 0's best reply to everyone else at the belief is found on the same
        sessions for every candidate, and the belief becomes the average of the replies.
        Returns the tally's record and the equilibrium threshold."""
        game = self.game
        seeds = np.random.default_rng(search.seed).integers(
            0, 2**64, size=search.sessions, dtype=np.uint64
        )
        belief = 0.5
        replies: list[float] = []
        for _ in range(search.rounds):
            _, reply = self._best_reply(seeds, threshold_for_top(game, belief))
            replies.append(GRID[reply])
            belief = sum(replies) / len(replies)
        threshold = threshold_for_top(game, belief)
        sums, best = self._best_reply(seeds, threshold)
        at = self._seat_zero_net(seeds, threshold, threshold)
        # The best reply among the grid and staying at the equilibrium itself.
        reply_top, reply = (GRID[best], sums[best]) if sums[best] > at else (belief, at)
        record = (round(belief * 1000), at, search.sessions, round(reply_top * 1000), reply)
        return record, threshold

    def _best_reply(self, seeds: npt.NDArray[np.uint64], others: int) -> tuple[list[int], int]:
        """Seat 0's summed net for each grid threshold against ``others``; the best one."""
        sums = [
            self._seat_zero_net(seeds, threshold_for_top(self.game, top), others) for top in GRID
        ]
        return sums, max(range(len(GRID)), key=lambda i: (sums[i], -i))

    def _seat_zero_net(self, seeds: npt.NDArray[np.uint64], own: int, others: int) -> int:
        policies = (StayPolicy(Stay.THRESHOLD, own),) + (StayPolicy(Stay.THRESHOLD, others),) * (
            self.players - 1
        )
        total = 0
        for start in range(0, len(seeds), CHUNK):
            nets = self._play(seeds[start : start + CHUNK], policies).nets
            total += int(_chips(nets[:, 0]).sum())
        return total

    # -- reporting ---------------------------------------------------------------------

    def report(self, tally: GutsTally) -> dict[str, Any]:
        """How games end, the deals they last, the pot they end on and the largest pot, the
        thresholds the job asked about, the growth law and the tail it implies, the pot by
        deal number, cap hits and set-asides, each seat's net, and the equilibrium if
        searched: each numeric statistic as a distribution (quantiles with intervals, the
        mean where the tail allows it)."""
        game = self.game
        n = tally.sessions
        censored = tally.endings[k.DEAL_LIMIT] if tally.endings else 0
        endings = [
            {"ending": name, "sessions": count, **_share(count, n)}
            for name, count in zip(ENDINGS, tally.endings or (0,) * len(ENDINGS), strict=True)
        ]
        deals_verdict = self._deals_verdict(tally)
        limit_note = (
            f"{censored:,} games were still going at max_deals = {self.max_deals:,} and count "
            f"as {self.max_deals:,} deals: a quantile below {self.max_deals:,} is exact, one "
            f"at it is a lower bound, and the mean is not given"
            if censored
            else ""
        )
        deals = summary(tally.deals, deals_verdict, censored=censored, censored_note=limit_note)
        if censored:
            deals["mean"] = deals["mean_ci95_low"] = deals["mean_ci95_high"] = None
        pot_verdict = self._pot_verdict(tally)
        inexact = tally.inexact
        inexact_note = (
            f"{inexact:,} games' pots or nets passed 2^52 chips; from there their chips were "
            "carried to 53 significant bits (a relative error below 1e-15): the log-scale "
            "bins and quantiles are unaffected, sums are of the carried values"
            if inexact
            else ""
        )
        final = log_summary(
            LogBins(tally.final_bins),
            pot_verdict,
            maximum=tally.final_largest,
            mean=_mean(tally.final_sum, tally.final_squares, n),
        )
        largest = log_summary(LogBins(tally.largest_bins), pot_verdict, maximum=tally.largest)
        tail_index = hill(LogBins(tally.final_bins))
        seats = []
        for seat in range(self.players):
            total = tally.net_sums[seat] if tally.net_sums else 0
            squares = tally.net_squares[seat] if tally.net_squares else 0
            bins = tally.net_bins[seat] if tally.net_bins else Counts()
            policy = self.policies[seat]
            net_verdict = Verdict(
                pot_verdict.tail,
                pot_verdict.note.replace("the pot a game ends on", "a seat's net", 1),
            )
            seats.append(
                {
                    "seat": seat,
                    "policy": _describe(game, policy)
                    if self.equilibrium is None
                    else "equilibrium",
                    "net": log_summary(LogBins(bins), net_verdict, mean=_mean(total, squares, n)),
                }
            )
        pot_over = [
            {"times_ante": m, "sessions": c, **_share(c, n)}
            for m, c in zip(
                self.statistics.pot_over,
                tally.pot_over or (0,) * len(self.statistics.pot_over),
                strict=True,
            )
        ]
        deals_over = [
            {"deals": d, "sessions": c, **_share(c, n)}
            for d, c in zip(
                self.statistics.deals_over,
                tally.deals_over or (0,) * len(self.statistics.deals_over),
                strict=True,
            )
        ]
        pot_by_deal = [
            {"deal": i + 1, "sessions": c, "mean_pot": s / c}
            for i, (s, c) in enumerate(zip(tally.pot_sums, tally.pot_counts, strict=True))
            if c
        ]
        return {
            "sessions": n,
            "endings": endings,
            "censored": censored,
            "inexact_sessions": inexact,
            "inexact_note": inexact_note,
            "deals": deals,
            "deals_over": deals_over,
            "final_pot": final,
            "largest_pot": largest,
            "pot_over": pot_over,
            "growth": self._growth_report(tally),
            "pot_tail_index": None if tail_index is None else tail_index.as_dict(),
            "pot_by_deal": pot_by_deal,
            "cap_hit_sessions": tally.cap_hit_sessions,
            "cap_hits": tally.cap_hits,
            "set_aside_total": tally.set_aside,
            "seats": seats,
            "equilibrium": self._equilibrium_report(tally.equilibrium),
        }

    def main_estimate(self, tally: GutsTally) -> Estimate:
        """The mean deals a game lasts with its normal 95 % interval (the report's
        ``deals`` mean): undefined where the report gives no interval — a game censored at
        ``max_deals``, a tail not yet judged — and it may stop a job after
        :data:`~simulations.models.estimate.MIN_TRIALS` games."""
        n = tally.sessions
        censored = tally.endings[k.DEAL_LIMIT] if tally.endings else 0
        defined = (
            n >= 2
            and not censored
            and bool(tally.deals)
            and self._deals_verdict(tally).tail.shows_interval
        )
        return Estimate.mean("deals a game", mean_interval(tally.deals) if defined else None, n)

    def precise_enough(self, tally: GutsTally, precision: float) -> bool:
        """The mean deals' 95 % half-width is within ``precision`` of it (see
        :meth:`Estimate.precise_enough`)."""
        return self.main_estimate(tally).precise_enough(precision)

    def _growth(
        self, tally: GutsTally
    ) -> tuple[tuple[float, float, float], tuple[float, float, float]] | None:
        """E[G] and E[G²] per deal with their 95 % intervals, G the deal's growth factor of
        the pot (0 on the deal that ends the game); None before any deal."""
        if not tally.growth or tally.growth[0] < 2:
            return None
        deals, s1, s2, s4 = tally.growth
        unit = k.GROWTH_UNIT
        rho1 = s1 / unit / deals
        rho2 = s2 / unit / deals
        sd1 = math.sqrt(max(0.0, rho2 - rho1 * rho1) / deals)
        sd2 = math.sqrt(max(0.0, s4 / unit / deals - rho2 * rho2) / deals)
        return (
            (rho1, rho1 - Z_95 * sd1, rho1 + Z_95 * sd1),
            (rho2, rho2 - Z_95 * sd2, rho2 + Z_95 * sd2),
        )

    def _growth_report(self, tally: GutsTally) -> dict[str, Any] | None:
        found = self._growth(tally)
        if found is None:
            return None
        (r1, lo1, hi1), (r2, lo2, hi2) = found
        return {
            "deals": tally.growth[0],
            "mean": r1,
            "mean_ci95_low": lo1,
            "mean_ci95_high": hi1,
            "mean_square": r2,
            "mean_square_ci95_low": lo2,
            "mean_square_ci95_high": hi2,
        }

    def _deals_verdict(self, tally: GutsTally) -> Verdict:
        """The deals a game lasts: each deal ends the game with a chance of its own; where
        that chance is bounded away from zero the tail is geometric and every moment finite."""
        ended = sum(tally.endings[: k.DEAL_LIMIT]) if tally.endings else 0
        played = tally.growth[0] if tally.growth else 0
        if not ended or not played:
            return Verdict(Tail.UNDETERMINED, "no game ended: the deals' law is not known")
        low, _ = Proportion(ended, played).wilson()
        return Verdict(
            Tail.FINITE_VARIANCE,
            f"a deal ends the game with chance {ended / played:.4g} (95 % from {low:.4g}): "
            "a geometric tail, every moment finite",
        )

    def _pot_verdict(self, tally: GutsTally) -> Verdict:
        """The pot a game ends on: bounded a deal by the cap where there is one (the
        set-aside adds at most the cap's overflow a deal, over a geometric number of
        deals), else as the per-deal growth law says."""
        game = self.game
        if game.cap is not None:
            return Verdict(
                Tail.FINITE_VARIANCE,
                f"the pot a game ends on is capped at {game.cap:,} chips a deal: every moment "
                "is finite",
            )
        found = self._growth(tally)
        if found is None:
            return Verdict(Tail.UNDETERMINED, "too few deals to judge the tail")
        return growth_verdict(found[0], found[1], "the pot a game ends on")

    def _equilibrium_report(self, found: tuple[int, ...]) -> dict[str, Any] | None:
        if not found:
            return None
        game = self.game
        top, at, sessions, best_top, best = found
        threshold = threshold_for_top(game, top / 1000)
        return {
            "top": top / 1000,
            "threshold": threshold_label(game, threshold),
            "value": at / sessions,
            "best_reply_top": best_top / 1000,
            "gain": (best - at) / sessions,
        }


def _share(count: int, n: int) -> dict[str, float]:
    """A count's share of ``n`` sessions with its 95 % Wilson interval."""
    if not n:
        return {"frequency": 0.0, "ci95_low": 0.0, "ci95_high": 1.0}
    low, high = Proportion(count, n).wilson()
    return {"frequency": count / n, "ci95_low": low, "ci95_high": high}


def _mean(total: int, squares: int, n: int) -> tuple[float, float, float] | None:
    """The mean of ``n`` sessions' values from their exact sums (none before two)."""
    return mean_of_sums(total, squares, n) if n >= 2 else None


def _statistics(table: Fields) -> Statistics:
    """``[statistics]``: ``pot_over`` (multiples of the ante) and ``deals_over`` (deals),
    each a list of positive whole numbers, increasing."""
    pot_over = table.integer_list(
        "pot_over", list(POT_MULTIPLES), low=1, high=2**53, most=MAX_THRESHOLDS
    )
    deals_over = table.integer_list(
        "deals_over", list(DEALS_OVER), low=1, high=MAX_DEALS, most=MAX_THRESHOLDS
    )
    table.finish()
    return Statistics(tuple(pot_over), tuple(deals_over))


def _forced(game: GutsGame, players: int, table: Fields) -> Forced:
    """One ``[[forced]]`` deal: ``hands``, a card string a seat (seat 0 first), and
    ``stay``, whether each seat stays in."""
    given = table.strings("hands", [], most=players)
    stays = table.booleans("stay", count=players)
    table.finish()
    if len(given) != players:
        raise SpecError(table.path("hands"), f"a card string for each of the {players} seats")
    hands: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for seat, text in enumerate(given):
        where = f"{table.path('hands')}[{seat}]"
        try:
            cards = tuple(int(c) for c in parse_cards(text))
        except ValueError as err:
            raise SpecError(where, str(err)) from None
        if len(cards) != game.cards or any(c >= 52 for c in cards):
            raise SpecError(where, f"{game.cards} cards of the 52 a player, got {text!r}")
        twice = seen.intersection(cards) or (set() if len(set(cards)) == len(cards) else {cards[0]})
        if twice:
            raise SpecError(where, f"{format_card(min(twice))} is dealt twice")
        seen.update(cards)
        hands.append(cards)
    return Forced(tuple(hands), tuple(stays))


def _policy(game: GutsGame, table: Fields) -> StayPolicy:
    """A ``[policy]`` or ``[[seats]]`` table: stay = "threshold" with ``top`` (a share of
    holdings, default 0.5) or ``hand`` (cards, as many as a decision holds), or stay =
    "probability" with ``chance`` (default 0.5)."""
    stay = Stay(table.string("stay", "threshold", choices=tuple(Stay)))
    top = _fraction(table, "top")
    hand = table.optional_string("hand")
    chance = _fraction(table, "chance")
    table.finish()
    if stay is Stay.PROBABILITY:
        for key, given in (("top", top), ("hand", hand)):
            if given is not None:
                raise SpecError(table.path(key), 'goes with stay = "threshold"')
        chance = 0.5 if chance is None else chance
        return StayPolicy(stay, chance=chance, label=f"in {100 * chance:g} % of the time")
    if chance is not None:
        raise SpecError(table.path("chance"), 'goes with stay = "probability"')
    if hand is not None and top is not None:
        raise SpecError(table.path("hand"), "give hand or top, not both")
    if hand is not None:
        try:
            cards = parse_cards(hand)
        except ValueError as err:
            raise SpecError(table.path("hand"), str(err)) from None
        held = tables(game).decision_cards
        if len(cards) != held or any(c >= 52 for c in cards):
            raise SpecError(
                table.path("hand"), f"a decision holds {held} cards of the 52, got {hand!r}"
            )
        threshold = decision_value(game, tuple(int(c) for c in cards))
    else:
        threshold = threshold_for_top(game, 0.5 if top is None else top)
    return StayPolicy(stay, threshold, label=threshold_label(game, threshold))


def _fraction(table: Fields, key: str) -> float | None:
    value = table.optional_number(key)
    if value is not None and not 0.0 <= value <= 1.0:
        raise SpecError(table.path(key), f"must lie in 0..1, got {value}")
    return value


def _describe(game: GutsGame, policy: StayPolicy) -> str:
    if policy.label:
        return policy.label
    if policy.stay is Stay.PROBABILITY:
        return f"in {100 * policy.chance:g} % of the time"
    return threshold_label(game, policy.threshold)


__all__ = ["GutsModel", "GutsTally", "holdings"]
