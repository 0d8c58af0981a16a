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
same seeds), of a game of the registry whose deal the job's dealer plays
(:mod:`simulations.models.exhaustion_games`), under one of the game's exhaustion rules
(:data:`RULES`), with the players of :mod:`simulations.models.exhaustion_policy`.  The
compiled loop of :mod:`simulations.models.exhaustion_kernel` plays the hands; a test holds it
to the reference engine hand for hand (:mod:`simulations.models.exhaustion_reference`).  For
each number of players the result gives, each with its 95 % Wilson interval, the share of
hands that reached the last deal (seventh street, the last draw, Anaconda's last pass) and
the share of each event: a stud rule's outcomes, exactly one per hand (the texts: dealt from
the stub, burns dealt again, a community card; WSOP Rule 228: dealt normally, burns
scrambled in, a community card off the stub, a community card after the scramble), or a draw
rule's procedures counted apart (discards reshuffled, a new stub caused by withholding the
bottom card, a fifth card held back, the burn card before it).  A draw game may draw by a
draw-count law instead of the card policy.  The hand's numbers — the players still in at the
last deal, the stub then, the cards it needed and those short, the new stubs made — are
whole distributions (:func:`simulations.models.distribution.summary`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from simulations.engine.deck_order import check_deal
from simulations.engine.game import ExhaustionRule, GameDefinition
from simulations.engine.phases import Bet, Deal, Draw, Pass, Phase
from simulations.engine.variants import POKER_VARIANTS, VARIANTS, variant
from simulations.models import exhaustion_kernel as k
from simulations.models.distribution import BOUNDED, summary
from simulations.models.estimate import Estimate
from simulations.models.exhaustion_games import exhaustion_lacks, family_of
from simulations.models.exhaustion_policy import (
    DEFAULT_DRAW_RANK,
    Family,
    describe_draw,
    describe_threshold,
    parse_draw_rank,
    parse_threshold,
)
from simulations.models.job_game import read_game
from simulations.models.tally import Counts
from simulations.rules import exhaustion_rules as rules
from simulations.spec import Fields, SpecError
from simulations.stats import Proportion

CHUNK = 65_536  # hands per compiled call: part of the seeded result, keep fixed
LAW_TOLERANCE = 1e-9  # how far a draw-count law's chances may sum from 1

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


@dataclass(frozen=True)
class Event:
    """A procedure of an exhaustion rule, or one of a rule's outcomes, as the report names it:
    ``name`` (the JSON ``event``), the words of a table head, and what a hand needs for it."""

    name: str
    label: str
    meaning: str


DEALT_NORMALLY = Event("dealt_normally", "dealt from the stub", "every street from the stub")
# Rules 003, 'Seven-card stud': one outcome per hand, in the order the text tries them.
STUD_TEXTS_OUTCOMES = (
    DEALT_NORMALLY,
    Event(
        "burns_reused",
        "burns dealt again",
        "'previously-dealt burn cards can be used when only a few cards are needed'",
    ),
    Event(
        "community_card",
        "a community card",
        "'If even those are not sufficient ... a single community card is dealt'",
    ),
)
# WSOP Rule 228: one outcome per hand, the rule's four ways of dealing the last street.
STUD_WSOP_OUTCOMES = (
    DEALT_NORMALLY,
    Event(
        "burns_scrambled",
        "burns scrambled in",
        "'if the stub plus the three burn cards is enough, scramble ... and finish the deal'",
    ),
    Event(
        "community_from_stub",
        "community off the stub",
        "'the stub has more than two cards: burn and deal a community card'",
    ),
    Event(
        "community_after_scramble",
        "scrambled, then community",
        "'two or fewer: scramble the stub and the burn cards, burn one, community card'",
    ),
)
# Rules 003, 'Five-card draw': procedures counted apart (a hand may need several).
DRAW_EVENTS = (
    (
        Event(
            "reshuffled",
            "discards reshuffled",
            "'If the deck stub is depleted during the draw ... shuffles together'",
        ),
        k.RESHUFFLED,
    ),
    (
        Event(
            "bottom_card_withheld",
            "bottom card withheld",
            "'the bottom card of the deck is never given as a replacement': a new stub the "
            "stub would have spared had the bottom card been dealt",
        ),
        k.BOTTOM_CARD,
    ),
    (
        Event(
            "five_consecutive",
            "fifth card held back",
            "'a player is not allowed to draw five consecutive cards'",
        ),
        k.FIVE_CONSECUTIVE,
    ),
    (
        Event(
            "five_consecutive_burn",
            "burn before a fifth",
            "'(if no later player drew, it is necessary to deal a burn card first)'",
        ),
        k.FIVE_BURN,
    ),
)
REACHED = Event(
    "reached_last_deal",
    "reached the last deal",
    "two or more players still in when the last deal (seventh street, the last draw, the "
    "last pass) began",
)


def rules_of(family: Family) -> tuple[ExhaustionRule, ...]:
    """The exhaustion rules a game of ``family`` may be played under."""
    if family is Family.STUD:
        return (*STUD_RULES, ExhaustionRule.NONE)
    if family.draws:
        return DRAW_RULES
    return (ExhaustionRule.NONE,)


def outcomes_of(rule: ExhaustionRule) -> tuple[Event, ...]:
    """A stud rule's outcomes, one per hand (none for a rule without them)."""
    if rule is ExhaustionRule.STUD_BURNS_THEN_COMMUNITY:
        return STUD_TEXTS_OUTCOMES
    if rule is ExhaustionRule.STUD_WSOP:
        return STUD_WSOP_OUTCOMES
    return ()


def events_of(rule: ExhaustionRule) -> tuple[Event, ...]:
    """What the report counts under ``rule``: a stud rule's outcomes (one per hand), a draw
    rule's procedures (each counted apart), nothing where the deck never runs out."""
    if rule.for_draw:
        return tuple(event for event, _ in DRAW_EVENTS)
    return outcomes_of(rule)


def stud_outcome(bits: npt.NDArray[np.int64], rule: ExhaustionRule) -> npt.NDArray[np.int64]:
    """Each hand's outcome under a stud rule, an index into :func:`outcomes_of`: the texts,
    a community card (from the stub or a burn card) before burns dealt again; Rule 228, the
    community card with or without the scramble, else the scramble alone."""
    community = (bits & k.COMMUNITY_CARD) != 0
    if rule is ExhaustionRule.STUD_BURNS_THEN_COMMUNITY:
        reused = (bits & k.BURNS_REUSED) != 0
        return np.where(community, 2, np.where(reused, 1, 0)).astype(np.int64)
    scrambled = (bits & k.BURNS_SCRAMBLED) != 0
    return np.where(community, np.where(scrambled, 3, 2), np.where(scrambled, 1, 0)).astype(
        np.int64
    )


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
    # The draw-count law's cumulative shares (empty: the draw policy decides).
    law: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0, np.float64))

    @property
    def rounds(self) -> int:
        """The rows of uniforms a hand draws (its betting rounds, and its draws with a law)."""
        return int(k.uniform_rows(self.program, self.by_law))

    @property
    def by_law(self) -> bool:
        return bool(self.settings[k.S_LAW] == k.BY_LAW)

    @property
    def last_card(self) -> int:
        """The index of the hand's last deal, draw or pass."""
        return max(i for i, p in enumerate(self.game.phases) if not isinstance(p, Bet))

    def play(self, seeds: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.int64], ...]:
        """The kernel's outcome (procedure bits) and numbers (a row of the ``X_*`` columns of
        :mod:`~simulations.models.exhaustion_kernel`) per seed."""
        outcomes = np.zeros(len(seeds), np.int64)
        stats = np.zeros((len(seeds), k.STATS), np.int64)
        k.play_hands(
            seeds,
            self.players,
            self.program,
            self.settings,
            self.law,
            self.fold_chance,
            outcomes,
            stats,
        )
        return outcomes, stats


def _first_cards(game: GameDefinition) -> int:
    """The cards each player is dealt first (what a starting-hand threshold reads)."""
    return next(p for p in game.phases if isinstance(p, Deal)).per_player


def _most_drawn(game: GameDefinition) -> int:
    """The most cards a player may draw (the length of a draw-count law, less one)."""
    return max((p.most for p in game.phases if isinstance(p, Draw)), default=0)


def check_law(law: tuple[float, ...], most: int) -> None:
    """A draw-count law: the chances of drawing 0, 1, ... ``most`` cards, each a finite
    non-negative number, summing to 1 within 1e-9 (``ValueError`` saying what is wrong)."""
    if len(law) != most + 1:
        raise ValueError(
            f"must give the chances of drawing 0 to {most} cards: {most + 1} numbers, "
            f"got {len(law)}"
        )
    for count, chance in enumerate(law):
        if not math.isfinite(chance) or chance < 0:
            raise ValueError(f"the chance of drawing {count} must be 0 or more, got {chance!r}")
    total = math.fsum(law)
    if abs(total - 1.0) > LAW_TOLERANCE:
        raise ValueError(f"must sum to 1 (within {LAW_TOLERANCE:g}), got {total!r}")


def _read_law(section: Fields, most: int) -> tuple[float, ...] | None:
    """``draw.law``, checked (:func:`check_law`); None when absent."""
    value = section.optional_numbers("law")
    if value is None:
        return None
    law = tuple(value)
    try:
        check_law(law, most)
    except ValueError as err:
        raise SpecError(section.path("law"), str(err)) from None
    return law


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
    """One number of players: hands dealt; the hands of each event (in the order of the
    rule's events: a stud rule's outcomes, a draw rule's procedures); the hands that reached
    the last deal; and exact histograms of the hand's numbers — the players still in at the
    last deal (every hand), the stub then, the cards that deal needed and the cards it was
    short (the hands that reached it), and the new stubs made (every hand)."""

    players: int = 0
    hands: int = 0
    events: tuple[int, ...] = ()
    reached: int = 0
    live: Counts = field(default_factory=Counts)
    stub: Counts = field(default_factory=Counts)
    needed: Counts = field(default_factory=Counts)
    short: Counts = field(default_factory=Counts)
    new_stubs: Counts = field(default_factory=Counts)

    def merge(self, other: ExhaustionRow) -> ExhaustionRow:
        if not self.hands:
            return other
        if not other.hands:
            return self
        if self.players != other.players:
            raise ValueError(f"rows of {self.players} and {other.players} players do not merge")
        return ExhaustionRow(
            self.players,
            self.hands + other.hands,
            tuple(a + b for a, b in zip(self.events, other.events, strict=True)),
            self.reached + other.reached,
            self.live.merge(other.live),
            self.stub.merge(other.stub),
            self.needed.merge(other.needed),
            self.short.merge(other.short),
            self.new_stubs.merge(other.new_stubs),
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


def count_events(rule: ExhaustionRule, outcomes: npt.NDArray[np.int64]) -> tuple[int, ...]:
    """The hands of each of the rule's events among ``outcomes`` (the kernel's bits): a stud
    rule's outcomes partition the hands; a draw rule's procedures are counted apart."""
    if rule.for_draw:
        return tuple(int(np.count_nonzero(outcomes & bit)) for _, bit in DRAW_EVENTS)
    found = outcomes_of(rule)
    if not found:
        return ()
    if np.any(outcomes & k.OUT_OF_CARDS):  # check_deal refuses a game where this can happen
        raise AssertionError("a stud hand ran out of even a community card")
    index = stud_outcome(outcomes, rule)
    return tuple(int(c) for c in np.bincount(index, minlength=len(found)))


def row_of(
    rule: ExhaustionRule,
    players: int,
    outcomes: npt.NDArray[np.int64],
    stats: npt.NDArray[np.int64],
) -> ExhaustionRow:
    """The row of the hands whose kernel outcomes and numbers are given."""
    reached = stats[:, k.X_STUB] >= 0
    return ExhaustionRow(
        players,
        len(outcomes),
        count_events(rule, outcomes),
        int(np.count_nonzero(reached)),
        Counts.of_array(stats[:, k.X_LIVE]),
        Counts.of_array(stats[reached, k.X_STUB]),
        Counts.of_array(stats[reached, k.X_NEEDED]),
        Counts.of_array(stats[reached, k.X_SHORT]),
        Counts.of_array(stats[:, k.X_STUBS]),
    )


def _share(name: str, hits: int, hands: int) -> dict[str, Any]:
    """An event's report: its hands, their share and its 95 % Wilson interval."""
    if not hands:
        return {"event": name, "hands": 0, "frequency": 0.0, "ci95_low": 0.0, "ci95_high": 1.0}
    estimate = Proportion(hits, hands)
    low, high = estimate.wilson()
    return {
        "event": name,
        "hands": hits,
        "frequency": estimate.frequency,
        "ci95_low": low,
        "ci95_high": high,
    }


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
    # The draw-count law: the chances of drawing 0, 1, ... cards (None: the draw policy).
    law: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        missing = exhaustion_lacks(variant(self.code)) if self.code in VARIANTS else ["a code"]
        if missing:
            raise ValueError(f"game: {self.code!r} is not dealt here: {'; '.join(missing)}")
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
        if self.law is not None:
            if not self.family.draws:
                raise ValueError(f"law: {self.code} has no draw")
            if self.draw_rank is not None:
                raise ValueError("law: a draw-count law replaces the draw policy and its rank")
            try:
                check_law(self.law, _most_drawn(self.base_game))
            except ValueError as err:
                raise ValueError(f"law: {err}") from None
        for n in range(low, high + 1):
            check_deal(self.game, n, len(self.game.deck.deck().cards))
        _ = self.threshold_value, self.draw_rank_value

    @classmethod
    def from_fields(cls, job: Fields) -> ExhaustionModel:
        """Read ``game``, ``[table]``, ``[policy]`` and ``[draw]``; errors name the field."""
        code = read_game(job, "F7S", exhaustion_lacks).code
        section = job.table("table")
        base = POKER_VARIANTS[code].game()
        family = _family(code)
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
        if draw.has("law") and not family.draws:
            raise SpecError(draw.path("law"), f"is a law of the draw, and {code} has none")
        law = _read_law(draw, _most_drawn(base))
        if law is not None and rank is not None:
            raise SpecError(
                draw.path("rank"), "is the draw policy's, and draw.law replaces the policy"
            )
        draw.finish()
        try:
            return cls(code, players, rule, house[0], house[1], chance, threshold, rank, law)
        except ValueError as err:  # the deck cannot serve the players without a rule
            raise SpecError(section.path("exhaustion"), str(err)) from None

    # -- the game and the players ---------------------------------------------------------

    @property
    def family(self) -> Family:
        return _family(self.code)

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
        settings[k.S_LAW] = k.BY_CARDS if self.law is None else k.BY_LAW
        law = np.cumsum(np.array(self.law or (), dtype=np.float64))
        if law.size:
            law[-1] = 1.0  # every uniform in [0, 1) draws some number of cards
        return Table(
            self.game,
            players,
            self.family,
            self.fold_chance,
            self.threshold_value,
            self.draw_rank_value,
            encode_program(self.game.phases),
            settings,
            law,
        )

    @property
    def events(self) -> tuple[Event, ...]:
        return events_of(self.rule)

    @property
    def exclusive(self) -> bool:
        """The events are outcomes, one per hand (a stud rule's)."""
        return bool(outcomes_of(self.rule))

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
        if not self.family.draws:
            return ""
        if self.law is not None:
            shares = ", ".join(f"{c}: {p:g}" for c, p in enumerate(self.law) if p)
            return f"draws by the law ({shares}), the first cards held"
        return describe_draw(self.family, self.draw_rank_value)

    # -- simulating -----------------------------------------------------------------------

    def empty_tally(self) -> ExhaustionTally:
        return ExhaustionTally()

    def simulate(self, hands: int, rng: np.random.Generator) -> ExhaustionTally:
        """Deal ``hands`` hands at each number of players from ``rng``, in fixed chunks."""
        low, high = self.players
        tables = [self.table(n) for n in range(low, high + 1)]
        rows = [ExhaustionRow() for _ in tables]
        done = 0
        while done < hands:
            size = min(CHUNK, hands - done)
            seeds = rng.integers(0, 2**64, size=size, dtype=np.uint64)
            for i, table in enumerate(tables):
                outcomes, stats = table.play(seeds)
                rows[i] = rows[i].merge(row_of(self.rule, table.players, outcomes, stats))
            done += size
        return ExhaustionTally(hands, tuple(rows))

    def report(self, tally: ExhaustionTally) -> dict[str, Any]:
        """The game and rule, the policy, and a row per number of players: the hands of each
        event with its 95 % Wilson interval (a stud rule's outcomes partition the hands), the
        share that reached the last deal, and the hand's numbers as whole distributions."""
        table = []
        for row in tally.rows:
            live = row.live
            table.append(
                {
                    "players": row.players,
                    "hands": row.hands,
                    "mean_live_last_deal": live.mean() if live else 0.0,
                    "events": [
                        _share(event.name, hits, row.hands)
                        for event, hits in zip(self.events, row.events, strict=True)
                    ],
                    "reached_last_deal": _share(REACHED.name, row.reached, row.hands),
                    # The deck bounds each of them (at most the players, the pack's cards).
                    "live_last_deal": summary(live, BOUNDED),
                    "stub_last_deal": summary(row.stub, BOUNDED),
                    "cards_needed_last_deal": summary(row.needed, BOUNDED),
                    "cards_short_last_deal": summary(row.short, BOUNDED),
                    "new_stubs": summary(row.new_stubs, BOUNDED),
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
            "exclusive": self.exclusive,
            "draw_law": list(self.law or ()),
        }

    def main_estimate(self, tally: ExhaustionTally) -> Estimate:
        """The share of hands that run out of cards at the most players asked for (where
        running out is likeliest), with its 95 % Wilson interval: under a stud rule every
        hand not dealt from the stub, under a draw rule the hands whose stub ran out in the
        draw (discards reshuffled).  Under no rule the deck cannot run out, and the share
        reaching the last deal stands in.  It may stop a job after
        :data:`~simulations.models.estimate.MIN_EVENTS` such hands."""
        players = self.players[1]
        row = tally.rows[-1] if tally.rows else ExhaustionRow(players)
        if self.rule.for_draw:
            name, hits = "hands whose stub runs out in the draw", row.events[0] if row.events else 0
        elif outcomes_of(self.rule):
            name, hits = "hands that run out of cards", row.hands - (row.events or (0,))[0]
        else:
            name, hits = "hands reaching the last deal", row.reached
        return Estimate.rate(f"{name}, {players} players", hits, row.hands)

    def precise_enough(self, tally: ExhaustionTally, precision: float) -> bool:
        """The main share's 95 % half-width is within ``precision`` of it (see
        :meth:`Estimate.precise_enough`)."""
        return self.main_estimate(tally).precise_enough(precision)


def _family(code: str) -> Family:
    found = family_of(POKER_VARIANTS[code].game())
    if found is None:
        raise ValueError(f"the exhaustion job does not deal {code}")
    return found


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
