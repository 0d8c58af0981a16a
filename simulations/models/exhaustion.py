"""Running out of cards: how often a game's deck runs out, and which exhaustion procedure
the dealer then needs.

Rules 003_6e018542f14946f8.txt, 'Seven-card stud': "seven cards to eight players plus four
burn cards makes 60 cards, and there are only 52 in the deck.  In most games this is not a
problem because several players will have folded"; when the deck does run out, "previously-
dealt burn cards can be used ... If even those are not sufficient, then on the final round
... a single community card is dealt".  'Five-card draw': "If the deck stub is depleted
during the draw ... shuffles together the bottom card of the deck, the burn card, and the
earlier players' discards", with the house rules that "the bottom card of the deck is never
given as a replacement" and that "a player is not allowed to draw five consecutive cards".

One trial is one hand at each number of players asked for (every number is dealt from the
same seeds), of one of the games in :data:`GAMES`, under one of the game's exhaustion rules
(:data:`RULES`), with the players of :mod:`simulations.models.exhaustion_policy`.  The
compiled loop of :mod:`simulations.models.exhaustion_kernel` plays the hands; a test holds it
to the reference engine hand for hand (:mod:`simulations.models.exhaustion_reference`).  For
each number of players the result gives the share of hands that needed each procedure of the
rule, with its 95 % Wilson interval, and the mean number of players still in when the last
deal (the last draw, Anaconda's last pass) began.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from simulations.engine import exhaustion_rules as rules
from simulations.engine.deck_order import check_deal
from simulations.engine.game import ExhaustionRule, GameDefinition
from simulations.engine.phases import Bet, Deal, Draw, Pass, Phase
from simulations.engine.variants import POKER_VARIANTS
from simulations.models import exhaustion_kernel as k
from simulations.models.exhaustion_policy import (
    DEFAULT_DRAW_RANK,
    Family,
    describe_draw,
    describe_threshold,
    parse_draw_rank,
    parse_threshold,
)
from simulations.spec import Fields, SpecError, echo
from simulations.stats import Proportion

CHUNK = 65_536  # hands per compiled call: part of the seeded result, keep fixed

# The games offered, by registry code, and how their hands and draws are read.
GAMES: dict[str, Family] = {
    "F7S": Family.STUD,
    "F5S": Family.STUD,
    "F6S": Family.STUD,
    "F5CD": Family.DRAW_HIGH,
    "F2L3D": Family.DEUCE_TO_SEVEN,
    "FA5L3D": Family.ACE_TO_FIVE,
    "FB": Family.BADUGI,
    "FANA": Family.ANACONDA,
}
STUD_RULES = (ExhaustionRule.STUD_BURNS_THEN_COMMUNITY, ExhaustionRule.STUD_WSOP)
DRAW_RULES = (
    ExhaustionRule.DRAW_OTHERS_DISCARDS,
    ExhaustionRule.DRAW_EARLIER_ROUNDS,
    ExhaustionRule.DRAW_ALL_DISCARDS,
)
RULE_CODES = {
    ExhaustionRule.NONE: rules.NO_RULE,
    ExhaustionRule.STUD_BURNS_THEN_COMMUNITY: rules.STUD_TEXTS,
    ExhaustionRule.STUD_WSOP: rules.STUD_WSOP,
    ExhaustionRule.DRAW_OTHERS_DISCARDS: rules.DRAW_OTHERS_DISCARDS,
    ExhaustionRule.DRAW_EARLIER_ROUNDS: rules.DRAW_EARLIER_ROUNDS,
    ExhaustionRule.DRAW_ALL_DISCARDS: rules.DRAW_ALL_DISCARDS,
}
# The procedures each rule may need, as the report names them, with the kernel's bits.
STUD_TEXTS_EVENTS = (("burns_reused", k.BURNS_REUSED), ("community_card", k.COMMUNITY_CARD))
STUD_WSOP_EVENTS = (("burns_scrambled", k.BURNS_SCRAMBLED), ("community_card", k.COMMUNITY_CARD))
DRAW_EVENTS = (
    ("reshuffled", k.RESHUFFLED),
    ("bottom_card", k.BOTTOM_CARD),
    ("five_consecutive", k.FIVE_CONSECUTIVE),
)
EVENT_LABELS = {
    "burns_reused": "burn cards dealt again",
    "community_card": "a community card",
    "burns_scrambled": "burns scrambled into the stub",
    "reshuffled": "discards reshuffled",
    "bottom_card": "down to the bottom card",
    "five_consecutive": "five-consecutive rule",
}


def rules_of(family: Family) -> tuple[ExhaustionRule, ...]:
    """The exhaustion rules a game of ``family`` may be played under."""
    if family is Family.STUD:
        return (*STUD_RULES, ExhaustionRule.NONE)
    if family.draws:
        return DRAW_RULES
    return (ExhaustionRule.NONE,)


def events_of(rule: ExhaustionRule) -> tuple[tuple[str, int], ...]:
    if rule is ExhaustionRule.STUD_BURNS_THEN_COMMUNITY:
        return STUD_TEXTS_EVENTS
    if rule is ExhaustionRule.STUD_WSOP:
        return STUD_WSOP_EVENTS
    return DRAW_EVENTS if rule.for_draw else ()


@dataclass(frozen=True, eq=False)
class Table:
    """One number of players of the job: the game as played (with the job's rule), the
    players' settings, and the same as the compiled loop takes them."""

    game: GameDefinition
    players: int
    family: Family
    fold_chance: float
    threshold: int  # -1: none
    draw_rank: int
    program: npt.NDArray[np.int64]
    settings: npt.NDArray[np.int64]

    @property
    def rounds(self) -> int:
        """The game's betting rounds."""
        return sum(isinstance(p, Bet) for p in self.game.phases)

    @property
    def last_card(self) -> int:
        """The index of the hand's last deal, draw or pass."""
        return max(i for i, p in enumerate(self.game.phases) if not isinstance(p, Bet))

    def play(self, seeds: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.int64], ...]:
        """The kernel's outcome (procedure bits) and live players at the last deal, per seed."""
        outcomes = np.zeros(len(seeds), np.int64)
        lives = np.zeros(len(seeds), np.int64)
        k.play_hands(
            seeds, self.players, self.program, self.settings, self.fold_chance, outcomes, lives
        )
        return outcomes, lives


def _first_cards(game: GameDefinition) -> int:
    """The cards each player is dealt first (what a starting-hand threshold reads)."""
    return next(p for p in game.phases if isinstance(p, Deal)).per_player


def encode_program(phases: tuple[Phase, ...]) -> npt.NDArray[np.int64]:
    """A game's phases as the compiled loop's rows (``ValueError`` for a phase it lacks)."""
    rows = []
    for phase in phases:
        if isinstance(phase, Deal) and not phase.pile and phase.extra_up is None:
            rows.append((k.DEAL, phase.down, phase.up, phase.board, int(phase.burn)))
        elif isinstance(phase, Bet):
            rows.append((k.BET, 0, 0, 0, 0))
        elif isinstance(phase, Draw) and not phase.extra and phase.most_keeping_ace is None:
            rows.append((k.DRAW, phase.most, int(phase.burn), 0, 0))
        elif isinstance(phase, Pass):
            rows.append((k.PASS, 0, 0, 0, 0))
        else:
            raise ValueError(f"the exhaustion kernel does not deal {type(phase).__name__}")
    return np.array(rows, dtype=np.int64).reshape(len(rows), k.COLUMNS)


@dataclass(frozen=True)
class ExhaustionRow:
    """One number of players: hands dealt, hands that needed each procedure (in the order of
    the rule's events), and the live players at the last deal, summed."""

    players: int = 0
    hands: int = 0
    events: tuple[int, ...] = ()
    live_sum: int = 0

    def merge(self, other: ExhaustionRow) -> ExhaustionRow:
        if not self.hands:
            return other
        if not other.hands:
            return self
        if self.players != other.players:
            raise ValueError(f"rows of {self.players} and {other.players} players do not merge")
        events = tuple(a + b for a, b in zip(self.events, other.events, strict=True))
        return ExhaustionRow(
            self.players, self.hands + other.hands, events, self.live_sum + other.live_sum
        )


@dataclass(frozen=True)
class ExhaustionTally:
    hands: int = 0  # at each number of players
    rows: tuple[ExhaustionRow, ...] = ()

    @property
    def trials(self) -> int:
        return self.hands

    def merge(self, other: ExhaustionTally) -> ExhaustionTally:
        if not self.rows:
            return other
        if not other.rows:
            return self
        rows = tuple(a.merge(b) for a, b in zip(self.rows, other.rows, strict=True))
        return ExhaustionTally(self.hands + other.hands, rows)


@dataclass(frozen=True)
class ExhaustionModel:
    """Hands of the game ``code`` at each number of players from ``players[0]`` to
    ``players[1]``, under the exhaustion ``rule``, with the players' policy."""

    kind: ClassVar[str] = "exhaustion"
    trials_field: ClassVar[str] = "hands"

    code: str = "F7S"
    players: tuple[int, int] = (2, 8)
    rule: ExhaustionRule = ExhaustionRule.STUD_BURNS_THEN_COMMUNITY
    deals_bottom_card: bool = False
    five_consecutive: bool = False
    fold_chance: float = 0.0
    threshold: str | None = None
    draw_rank: str | None = None

    def __post_init__(self) -> None:
        if self.code not in GAMES:
            raise ValueError(f"code: {self.code!r} is not one of {', '.join(GAMES)}")
        base = self.base_game
        low, high = self.players
        if not base.min_players <= low <= high <= base.max_players:
            raise ValueError(
                f"players: {self.code} is for {base.min_players} to {base.max_players} players"
            )
        if self.rule not in rules_of(self.family):
            raise ValueError(f"exhaustion: {self.rule.value!r} is not a rule of {self.code}")
        if not self.family.draws and (self.deals_bottom_card or self.five_consecutive):
            raise ValueError(f"{self.code} has no draw: the draw's house rules do not apply")
        if not 0.0 <= self.fold_chance <= 1.0:
            raise ValueError(f"fold_chance: must lie in 0..1, got {self.fold_chance}")
        for n in range(low, high + 1):
            check_deal(self.game, n, len(self.game.deck.deck().cards))
        _ = self.threshold_value, self.draw_rank_value

    @classmethod
    def from_fields(cls, job: Fields) -> ExhaustionModel:
        """Read ``[game]``, ``[policy]`` and ``[draw]``; errors name the field."""
        section = job.table("game")
        code = section.string("code", "F7S")
        if code not in GAMES:
            raise SpecError(
                section.path("code"), f"must be one of {', '.join(GAMES)}; got {echo(code)}"
            )
        base = POKER_VARIANTS[code].game()
        family = GAMES[code]
        players = section.integer_range(
            "players",
            (base.min_players, base.max_players),
            low=base.min_players,
            high=base.max_players,
        )
        choices = tuple(r.value for r in rules_of(family))
        default = base.exhaustion.value if base.exhaustion.value in choices else choices[0]
        rule = ExhaustionRule(section.string("exhaustion", default, choices=choices))
        house = []
        for key, value in (
            ("deals_bottom_card", base.deals_bottom_card),
            ("five_consecutive", base.five_consecutive),
        ):
            if section.has(key) and not family.draws:
                raise SpecError(section.path(key), f"is a rule of the draw, and {code} has none")
            house.append(section.boolean(key, value))
        section.finish()
        policy = job.table("policy")
        chance = policy.number("fold_chance", 0.0)
        if not 0.0 <= chance <= 1.0:
            raise SpecError(policy.path("fold_chance"), f"must lie in 0..1, got {chance}")
        threshold = policy.optional_string("threshold")
        if threshold is not None:
            first = _first_cards(base)
            try:
                parse_threshold(threshold, family, first, first)
            except ValueError as err:
                raise SpecError(policy.path("threshold"), str(err)) from None
        policy.finish()
        draw = job.table("draw")
        rank = draw.optional_string("rank")
        if rank is not None:
            if not family.draws:
                raise SpecError(draw.path("rank"), f"is the draw policy's, and {code} has no draw")
            try:
                parse_draw_rank(rank)
            except ValueError as err:
                raise SpecError(draw.path("rank"), str(err)) from None
        draw.finish()
        try:
            return cls(code, players, rule, house[0], house[1], chance, threshold, rank)
        except ValueError as err:  # the deck cannot serve the players without a rule
            raise SpecError(section.path("exhaustion"), str(err)) from None

    # -- the game and the players ---------------------------------------------------------

    @property
    def family(self) -> Family:
        return GAMES[self.code]

    @property
    def base_game(self) -> GameDefinition:
        return POKER_VARIANTS[self.code].game()

    @property
    def game(self) -> GameDefinition:
        """The game with the job's exhaustion rule and house rules (built once per setting,
        and kept out of the model itself: a model is pickled to the workers, and the
        compiled engine's game parts do not unpickle)."""
        return _game(self.code, self.rule, self.deals_bottom_card, self.five_consecutive)

    @property
    def first_cards(self) -> int:
        return _first_cards(self.game)

    @property
    def threshold_value(self) -> int:
        if self.threshold is None:
            return -1
        try:
            return parse_threshold(self.threshold, self.family, self.first_cards, self.first_cards)
        except ValueError as err:
            raise ValueError(f"threshold: {err}") from None

    @property
    def draw_rank_value(self) -> int:
        if not self.family.draws:
            return 0
        text = self.draw_rank or DEFAULT_DRAW_RANK[self.family]
        try:
            return parse_draw_rank(text)
        except ValueError as err:
            raise ValueError(f"draw_rank: {err}") from None

    def table(self, players: int) -> Table:
        settings = np.zeros(k.SETTINGS, np.int64)
        settings[k.S_RULE] = RULE_CODES[self.rule]
        settings[k.S_BOTTOM] = self.deals_bottom_card
        settings[k.S_FIVE] = self.five_consecutive
        settings[k.S_FAMILY] = int(self.family)
        settings[k.S_DRAW_RANK] = self.draw_rank_value
        settings[k.S_THRESHOLD] = self.threshold_value
        settings[k.S_DECK] = len(self.game.deck.deck().cards)
        return Table(
            self.game,
            players,
            self.family,
            self.fold_chance,
            self.threshold_value,
            self.draw_rank_value,
            encode_program(self.game.phases),
            settings,
        )

    @property
    def events(self) -> tuple[tuple[str, int], ...]:
        return events_of(self.rule)

    def describe(self) -> str:
        low, high = self.players
        seats = f"{low} players" if low == high else f"{low} to {high} players"
        return f"{self.game.name} ({self.code}), {seats}, {self.rule.value}"

    def describe_policy(self) -> str:
        parts = []
        if self.threshold is not None:
            parts.append(
                "stays after the first cards with "
                + describe_threshold(self.threshold_value, self.family)
            )
        if self.fold_chance:
            later = " on every later round" if self.threshold is not None else " every round"
            parts.append(f"folds with chance {self.fold_chance:g}{later}")
        return "; ".join(parts) if parts else "everyone stays to the end"

    def describe_draw(self) -> str:
        return describe_draw(self.family, self.draw_rank_value) if self.family.draws else ""

    # -- simulating -----------------------------------------------------------------------

    def empty_tally(self) -> ExhaustionTally:
        return ExhaustionTally()

    def simulate(self, hands: int, rng: np.random.Generator) -> ExhaustionTally:
        """Deal ``hands`` hands at each number of players from ``rng``, in fixed chunks."""
        low, high = self.players
        tables = [self.table(n) for n in range(low, high + 1)]
        bits = [bit for _, bit in self.events]
        events = [[0] * len(bits) for _ in tables]
        live = [0] * len(tables)
        done = 0
        while done < hands:
            size = min(CHUNK, hands - done)
            seeds = rng.integers(0, 2**64, size=size, dtype=np.uint64)
            for i, table in enumerate(tables):
                outcomes, lives = table.play(seeds)
                for j, bit in enumerate(bits):
                    events[i][j] += int(np.count_nonzero(outcomes & bit))
                live[i] += int(lives.sum())
            done += size
        rows = tuple(
            ExhaustionRow(t.players, hands, tuple(events[i]), live[i]) for i, t in enumerate(tables)
        )
        return ExhaustionTally(hands, rows)

    def report(self, tally: ExhaustionTally) -> dict[str, Any]:
        """The game and rule, the policy, and a row per number of players: the hands that
        needed each procedure with its 95 % Wilson interval, and the mean live players when
        the last deal began."""
        table = []
        for row in tally.rows:
            events = []
            for (name, _), hits in zip(self.events, row.events, strict=True):
                estimate = Proportion(hits, row.hands)
                low, high = estimate.wilson()
                events.append(
                    {
                        "event": name,
                        "hands": hits,
                        "frequency": estimate.frequency,
                        "ci95_low": low,
                        "ci95_high": high,
                    }
                )
            table.append(
                {
                    "players": row.players,
                    "hands": row.hands,
                    "mean_live_last_deal": row.live_sum / row.hands if row.hands else 0.0,
                    "events": events,
                }
            )
        return {
            "game": self.code,
            "game_name": self.game.name,
            "rule": self.rule.value,
            "deals_bottom_card": self.deals_bottom_card,
            "five_consecutive": self.five_consecutive,
            "policy": self.describe_policy(),
            "draw_policy": self.describe_draw(),
            "hands": tally.hands,
            "table": table,
        }


@cache
def _game(
    code: str, rule: ExhaustionRule, deals_bottom_card: bool, five_consecutive: bool
) -> GameDefinition:
    return replace(
        POKER_VARIANTS[code].game(),
        exhaustion=rule,
        deals_bottom_card=deals_bottom_card,
        five_consecutive=five_consecutive,
    )
