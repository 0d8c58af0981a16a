"""Guts pot growth: whole games of guts, how long they last and how big the pot gets.

One trial is one session — a game of guts from the antes to the deal that ends it (Rules
000_1a86611de8d3f5f7.txt, 'Guts': "The game ends when only a single player has the guts to
stay “in”, and thus the pot is taken without replenishment"), or to ``max_deals`` deals,
when it is counted as censored.  Any guts game of the registry (``G2`` … ``G3-CAP50``) is
played by the compiled loop of :mod:`simulations.models.guts_kernel`, which a test holds to
the reference session deal for deal; each seat stays in by its own policy
(:mod:`simulations.models.guts_policy`).

Optionally the job first searches for the symmetric threshold equilibrium by fictitious
play: everyone else plays the belief (a share of holdings staying in), one seat's best
reply among a grid of thresholds is found on common random numbers, and the belief moves
to the running average of the best replies.  The search has its own seed, so every shard
finds the same thresholds, and the sessions are then played with everyone at them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from simulations.cards import parse_cards
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
from simulations.engine.guts_rules import MATCH, NO_CAP, VICIOUS, WORST_HAND_DOUBLES
from simulations.engine.pots import OddChipRule
from simulations.engine.variants import GUTS_VARIANTS
from simulations.models import guts_kernel as k
from simulations.models.guts_policy import (
    Stay,
    StayPolicy,
    decision_value,
    holdings,
    tables,
    threshold_for_top,
    threshold_label,
)
from simulations.models.tally import Counts
from simulations.spec import Fields, SpecError
from simulations.stats import Proportion

CHUNK = 1024  # sessions per compiled call: part of the seeded result, keep fixed
TRACKED_DEALS = 50  # the pot is reported for deal numbers 1..50
POT_MULTIPLES = (10, 50, 100)  # P(pot > k × the ante)
MAX_DEALS = 100_000
GRID = tuple(round(0.05 * i, 2) for i in range(1, 21))  # the search's shares staying in


@dataclass(frozen=True)
class Equilibrium:
    """The fictitious-play search: ``rounds`` best replies of ``sessions`` sessions each."""

    rounds: int = 12
    sessions: int = 20_000
    seed: int = 0


@dataclass(frozen=True)
class GutsTally:
    """Mergeable counts over sessions.  ``over``: sessions whose pot passed each multiple of
    :data:`POT_MULTIPLES`; ``net_sums``/``net_squares``: each seat's net, summed and squared;
    ``pot_sums``/``pot_counts``: the pot each deal number was played for, and how many
    sessions reached it; ``equilibrium``: the search's result (the same in every shard):
    the share staying in (per mille), seat 0's summed net there and the sessions, the best
    reply's share and its summed net."""

    sessions: int = 0
    ended: int = 0
    deal_limit: int = 0
    pot_limit: int = 0
    deals: Counts = field(default_factory=Counts)
    largest: int = 0
    over: tuple[int, ...] = ()
    cap_hit_sessions: int = 0
    cap_hits: int = 0
    set_aside: int = 0
    net_sums: tuple[int, ...] = ()
    net_squares: tuple[int, ...] = ()
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
            self.ended + other.ended,
            self.deal_limit + other.deal_limit,
            self.pot_limit + other.pot_limit,
            self.deals.merge(other.deals),
            max(self.largest, other.largest),
            _add(self.over, other.over),
            self.cap_hit_sessions + other.cap_hit_sessions,
            self.cap_hits + other.cap_hits,
            self.set_aside + other.set_aside,
            _add(self.net_sums, other.net_sums),
            _add(self.net_squares, other.net_squares),
            _add(self.pot_sums, other.pot_sums),
            _add(self.pot_counts, other.pot_counts),
            self.equilibrium or other.equilibrium,
        )


def _add(left: tuple[int, ...], right: tuple[int, ...]) -> tuple[int, ...]:
    if not left:
        return right
    if not right:
        return left
    return tuple(a + b for a, b in zip(left, right, strict=True))


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

    @property
    def game(self) -> GutsGame:
        if self.code not in GUTS_VARIANTS:
            raise ValueError(f"code: {self.code!r} is not a guts game")
        return GUTS_VARIANTS[self.code].guts()

    @classmethod
    def from_fields(cls, job: Fields) -> GutsModel:
        """Read ``[game]``, ``[policy]``, ``[[seats]]`` and ``[equilibrium]``."""
        section = job.table("game")
        code = section.string("code", "G3", choices=tuple(GUTS_VARIANTS))
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
        return cls(code, players, tuple(seats), max_deals, equilibrium)

    def describe(self) -> str:
        game = self.game
        return f"{game.name}, {self.players} players, at most {self.max_deals:,} deals a game"

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
        deals, outcome, largest, hits, aside, nets, pot_sums, pot_counts = out
        ante = self.game.ante
        obj_nets = nets.astype(object)
        return GutsTally(
            sessions=len(seeds),
            ended=int(np.sum(outcome == k.ENDED)),
            deal_limit=int(np.sum(outcome == k.DEAL_LIMIT)),
            pot_limit=int(np.sum(outcome == k.POT_LIMIT)),
            deals=Counts.of_array(deals),
            largest=int(largest.max()),
            over=tuple(int(np.sum(largest > m * ante)) for m in POT_MULTIPLES),
            cap_hit_sessions=int(np.sum(hits > 0)),
            cap_hits=int(hits.sum()),
            set_aside=int(aside.astype(object).sum()),
            net_sums=tuple(int(v) for v in obj_nets.sum(axis=0)),
            net_squares=tuple(int(v) for v in (obj_nets * obj_nets).sum(axis=0)),
            pot_sums=tuple(int(v) for v in pot_sums),
            pot_counts=tuple(int(v) for v in pot_counts),
        )

    def _play(
        self, seeds: npt.NDArray[np.uint64], policies: tuple[StayPolicy, ...]
    ) -> tuple[npt.NDArray[Any], ...]:
        """Run the compiled loop over ``seeds``; its per-session and per-deal arrays."""
        n = self.players
        size = len(seeds)
        t = tables(self.game)
        deals = np.zeros(size, np.int64)
        outcome = np.zeros(size, np.int64)
        largest = np.zeros(size, np.int64)
        hits = np.zeros(size, np.int64)
        aside = np.zeros(size, np.int64)
        nets = np.zeros((size, n), np.int64)
        tracked = min(self.max_deals, TRACKED_DEALS)
        pot_sums = np.zeros(tracked, np.int64)
        pot_counts = np.zeros(tracked, np.int64)
        k.play_sessions(
            seeds, n, self.rules(), t.three, t.two, t.decision_two,
            np.array([0 if p.stay is Stay.THRESHOLD else 1 for p in policies], np.int64),
            np.array([p.threshold for p in policies], np.int64),
            np.array([p.chance for p in policies], np.float64),
            deals, outcome, largest, hits, aside, nets, pot_sums, pot_counts,
        )  # fmt: skip
        return deals, outcome, largest, hits, aside, nets, pot_sums, pot_counts

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
            nets = self._play(seeds[start : start + CHUNK], policies)[5]
            total += int(nets[:, 0].astype(object).sum())
        return total

    # -- reporting ---------------------------------------------------------------------

    def report(self, tally: GutsTally) -> dict[str, Any]:
        """Deals per game, the pot by deal number and its extremes, cap hits and
        set-asides, each seat's mean net and its spread, and the equilibrium if searched."""
        game = self.game
        n = tally.sessions
        deals = tally.deals
        seats = []
        for seat in range(self.players):
            total = tally.net_sums[seat] if tally.net_sums else 0
            squares = tally.net_squares[seat] if tally.net_squares else 0
            mean = total / n
            variance = max(0.0, squares / n - mean * mean) * n / (n - 1) if n > 1 else 0.0
            policy = self.policies[seat]
            seats.append(
                {
                    "seat": seat,
                    "policy": _describe(game, policy)
                    if self.equilibrium is None
                    else "equilibrium",
                    "mean_net": mean,
                    "sd_net": variance**0.5,
                }
            )
        over = []
        for multiple, count in zip(POT_MULTIPLES, tally.over or (0,) * 3, strict=True):
            low, high = Proportion(count, n).wilson()
            over.append(
                {
                    "times_ante": multiple,
                    "sessions": count,
                    "frequency": count / n,
                    "ci95_low": low,
                    "ci95_high": high,
                }
            )
        pot_by_deal = [
            {"deal": i + 1, "sessions": c, "mean_pot": s / c}
            for i, (s, c) in enumerate(zip(tally.pot_sums, tally.pot_counts, strict=True))
            if c
        ]
        return {
            "sessions": n,
            "ended": tally.ended,
            "censored": tally.deal_limit,
            "pot_limit_stopped": tally.pot_limit,
            "deals_mean": deals.mean(),
            "deals_median": deals.quantile(0.5),
            "deals_p90": deals.quantile(0.9),
            "deals_p99": deals.quantile(0.99),
            "deals_max": deals.maximum,
            "deals_histogram": deals.as_list(),
            "pot_by_deal": pot_by_deal,
            "largest_pot": tally.largest,
            "pot_over": over,
            "cap_hit_sessions": tally.cap_hit_sessions,
            "cap_hits": tally.cap_hits,
            "set_aside_total": tally.set_aside,
            "seats": seats,
            "equilibrium": self._equilibrium_report(tally.equilibrium),
        }

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
