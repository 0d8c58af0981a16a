"""Bad-beat jackpot frequency: how often a qualifying hand loses to a better qualifying hand.

Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot': the jackpot is paid when a strong
enough hand is shown down and loses to a stronger one, usually with both hole cards
playing in both hands.  The qualifier settings cover the ways cardrooms write this:

* ``losing_hand`` — the band of losing hands that qualify: ``at_least`` (the floor, also
  written ``min_losing_hand``), ``at_most`` (the ceiling), or ``exactly`` a category or a
  named hand (both at once: 'the losing hand may be required to be four-of-a-kind');
* ``winning_hand`` — optionally, the band of winning hands that qualify, written the same
  way (``min_winning_hand`` its floor);
* ``hole_cards_play`` — 2, 1 or 0: a hand qualifies only if some five-card hand using at
  least that many of the player's hole cards is worth as much as his best hand;
* ``quads_need_pocket_pair`` — four of a kind qualifies only with a pocket pair of its rank;
* ``board_trips_full_house`` — false means a full house whose three of a kind lies
  entirely on the board does not qualify.

A hand hits when some pair of players (winner, loser) both qualify, the loser's hand
lies in the losing band, the winner's in the winning band, and the winner's hand beats the
loser's.  Every player sees the river, so every hand is shown down; the job counts too the
hands where one qualifying losing hand is shown, beaten or not (the bad beat needs two: the
loser's and the winner's), and the hands from one hit to the next.

Each dealt hand is laid out as the five board cards followed by two hole cards per
player.  The qualifier is :mod:`simulations.rules.jackpot`'s (:class:`BadBeatRules`,
:func:`~simulations.rules.jackpot.qualifies`), the hand values
:func:`~simulations.evaluators.high.high_value`'s.

That is the classic job: hold'em, everyone to the river.  Omaha, the player models
(``[[players]]``), the room's conditions (``[room]``), the rake and the drop (``[rake]``,
``[drop]``) and the jackpot as a policy over time (``[policy]``) are read by
:mod:`simulations.models.bad_beat_room`, and a job that sets any of them plays its hands at a
table (:mod:`simulations.models.table`), judging the jackpot at every level of its schedule.
In Omaha exactly two hole cards play in every hand, and the qualifiers default to the
PLO rooms' "Lose with 2222 or better ... Pocket pairs are required for the winner or loser
to make a four of a kind" (GGPoker, 'Bad Beat Jackpot Rebirth').
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.dealing import deal_from_uniforms
from simulations.decks import Deck
from simulations.engine.variants import VARIANTS, variant
from simulations.evaluators.floors import hand_floor
from simulations.evaluators.high import TABLES, card_bit, high_value
from simulations.evaluators.high_tables import HighTables
from simulations.models.bad_beat_room import (
    Room,
    describe_policy,
    describe_room,
    level_rows,
    policy_report,
    read_house,
    read_policy,
    read_room,
)
from simulations.models.distribution import Tail, Verdict, summary
from simulations.models.economics import read_blinds, table_report, taken_report
from simulations.models.estimate import Estimate
from simulations.models.jackpot_policy import JackpotPolicy
from simulations.models.job_game import read_game
from simulations.models.players import EVERY_RIVER, SeatModel, read_seat_models
from simulations.models.table import DropRule, Jackpot, RakePolicy, RakeRule, Table
from simulations.models.table_game import table_lacks
from simulations.models.table_tally import (
    LevelTally,
    TableTally,
    Waiting,
    Waits,
    simulate_table,
)
from simulations.rules.jackpot import (
    Q_LOSING_CEILING,
    Q_LOSING_FLOOR,
    Q_WINNING_CEILING,
    Q_WINNING_FLOOR,
    BadBeatRules,
    HandBand,
    in_band,
    qualifies,
)
from simulations.spec import Fields, SpecError, echo
from simulations.stats import Proportion

BOARD_CARDS = 5
HOLE_CARDS = 2
MIN_PLAYERS = 2
MAX_PLAYERS = 10
CHUNK_HANDS = 4096  # hands per compiled call: part of the seeded result, keep fixed
OMAHA_LOSING_HAND = "quads"
MAX_SWEEP = 12


# The hands from one hit to the next: each hand hits with the same chance, independently.
WAITS = Verdict(
    Tail.FINITE_VARIANCE,
    "a geometric law (every hand hits with the same chance, independently of the others): "
    "every moment is finite",
)


@dataclass(frozen=True)
class BadBeatTally:
    """Mergeable counts from any number of hands: hands dealt, jackpot hands (two qualifying
    hands, the loser's beaten by the winner's), hands showing one qualifying losing hand or
    more, and the hands from one hit to the next (:class:`Waits`)."""

    hands: int = 0
    jackpot_hands: int = 0
    qualifying_hands: int = 0
    waits: Waits = field(default_factory=Waits)

    def merge(self, other: BadBeatTally) -> BadBeatTally:
        return BadBeatTally(
            self.hands + other.hands,
            self.jackpot_hands + other.jackpot_hands,
            self.qualifying_hands + other.qualifying_hands,
            self.waits.merge(other.waits),
        )

    @property
    def trials(self) -> int:
        return self.hands


@dataclass(frozen=True)
class BadBeatModel:
    """Texas hold'em with ``players`` players all to the river, and a jackpot's ``rules``."""

    kind: ClassVar[str] = "bad_beat"
    trials_field: ClassVar[str] = "hands"

    players: int = 9
    game: str = "NT"  # a registry code the table deals (table_game.TABLE_NEEDS)
    rules: BadBeatRules = field(default_factory=BadBeatRules)
    blinds: tuple[int, int] = (1, 2)
    models: tuple[SeatModel, ...] = ()  # none: every seat to the river
    room: Room = field(default_factory=Room)
    rake: RakeRule | None = None
    drop: DropRule | None = None
    policy: JackpotPolicy | None = None
    sweep: tuple[str, ...] = ()  # more losing hands judged, each reported on its own

    def __post_init__(self) -> None:
        missing = table_lacks(variant(self.game)) if self.game in VARIANTS else ["a game code"]
        if missing:
            raise ValueError(f"game: {echo(self.game)} is not dealt here: {'; '.join(missing)}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {self.players}")
        if self.omaha and self.rules.hole_cards_play != 2:
            raise ValueError("hole_cards_play: an Omaha hand plays exactly two hole cards")

    @property
    def omaha(self) -> bool:
        """The game's hands are Omaha's: four hole cards, exactly two playing."""
        return Table(self.game).omaha

    @property
    def classic(self) -> bool:
        """Hold'em to the river with no room settings: dealt as the job always was."""
        return (
            not self.omaha
            and not self.models
            and self.blinds == (1, 2)
            and self.room == Room()
            and self.rake is None
            and self.drop is None
            and self.policy is None
            and not self.sweep
        )

    @property
    def levels(self) -> tuple[tuple[int, str], ...]:
        """The losing hands judged, strictest first, each once: the qualifier, its steps
        down to the floor and the sweep's, with their floors."""
        steps = self.policy.steps if self.policy is not None else ()
        found: dict[int, str] = {}
        for text in (self.rules.min_losing_hand, *steps, *self.sweep):
            found.setdefault(hand_floor(text), text)
        return tuple(sorted(found.items(), reverse=True))

    @property
    def losing_hands(self) -> tuple[str, ...]:
        return tuple(text for _, text in self.levels)

    @property
    def schedule(self) -> tuple[int, ...]:
        """The levels of the policy's qualifier, the reset one first, then its steps."""
        steps = self.policy.steps if self.policy is not None else ()
        floors = [floor for floor, _ in self.levels]
        return tuple(floors.index(hand_floor(t)) for t in (self.rules.min_losing_hand, *steps))

    @property
    def table(self) -> Table:
        """The table the hands are played at."""
        floors = tuple(floor for floor, _ in self.levels)
        policy = RakePolicy("house", self.rake, self.drop)
        return Table(
            self.game,
            self.players,
            self.blinds,
            self.models or (replace(EVERY_RIVER, seats=self.players),),
            (policy,),
            Jackpot(self.rules, floors, self.room.conditions),
        )

    @classmethod
    def from_fields(cls, job: Fields) -> BadBeatModel:
        """Read ``game``, the ``[table]`` and ``[jackpot]`` tables of a job, and those of
        :mod:`simulations.models.bad_beat_room`; errors name the field."""
        code = read_game(job, "NT", table_lacks).code
        table = job.table("table")
        players = table.integer("players", 9, low=MIN_PLAYERS, high=MAX_PLAYERS)
        blinds = read_blinds(table)
        table.finish()
        omaha = Table(code).omaha
        jackpot = job.table("jackpot")
        default_losing = OMAHA_LOSING_HAND if omaha else "AAATT"
        losing = _read_band(jackpot, "losing_hand", default_losing)
        winning = _read_band(jackpot, "winning_hand", None)
        hole = jackpot.integer("hole_cards_play", 2, low=0, high=2)
        if omaha and hole != 2:
            raise SpecError(
                jackpot.path("hole_cards_play"), "an Omaha hand plays exactly two hole cards"
            )
        quads = jackpot.boolean("quads_need_pocket_pair", omaha)
        board_trips = jackpot.boolean("board_trips_full_house", True)
        sweep = tuple(jackpot.strings("sweep", [], most=MAX_SWEEP))
        for i, text in enumerate(sweep):
            where = f"{jackpot.path('sweep')}[{i}]"
            try:
                floor = hand_floor(text)
            except ValueError as err:
                raise SpecError(where, str(err)) from None
            _can_lose(where, text)
            _below_ceiling(where, text, floor, losing)
        jackpot.finish()
        assert losing.at_least is not None  # a losing band always has its floor
        rules = BadBeatRules(
            losing.at_least,
            winning.at_least,
            hole,
            quads,
            board_trips,
            max_losing_hand=losing.at_most,
            max_winning_hand=winning.at_most,
        )
        models = read_seat_models(job, players, replace(EVERY_RIVER, seats=players))
        if not job.has("players"):
            models = ()
        room = read_room(job)
        rake, drop = read_house(job)
        if room.conditions.raked_only and rake is None:
            raise SpecError("room.raked_only", "needs a [rake]: which hands are raked?")
        policy = read_policy(job, rules.losing_floor, losing.at_least)
        if policy is not None:
            for i, text in enumerate(policy.steps):
                where = f"policy.step_down.steps[{i}]"
                _below_ceiling(where, text, hand_floor(text), losing)
        if policy is not None and drop is None:
            raise SpecError("policy", "needs a [drop]: what funds the jackpot?")
        return cls(players, code, rules, blinds, models, room, rake, drop, policy, sweep)

    @property
    def cards_per_hand(self) -> int:
        return BOARD_CARDS + HOLE_CARDS * self.players

    def describe(self) -> str:
        game = f"{variant(self.game).name} ({self.game})"
        if not self.models:
            return f"{game}, {self.players} players, every hand to the river"
        kinds = ", ".join(f"{m.seats} {m.name}" for m in self.models)
        return f"{game}, {self.players} players ({kinds})"

    def describe_qualifier(self) -> str:
        text = self.rules.describe()
        if self.omaha:
            text = text.replace("both hole cards play", "exactly two hole cards play")
        return text

    def describe_room(self) -> str:
        return describe_room(self.room, self.rake, self.drop)

    def describe_policy(self) -> str:
        return "" if self.policy is None else describe_policy(self.policy)

    def empty_tally(self) -> BadBeatTally | TableTally:
        return BadBeatTally() if self.classic else TableTally()

    def simulate(self, hands: int, rng: np.random.Generator) -> BadBeatTally | TableTally:
        """Deal and score ``hands`` hands from ``rng`` in fixed chunks (at a table, unless
        the job is the classic one)."""
        if not self.classic:
            return simulate_table(self.table, hands, rng, wait_level=self.schedule[0])
        deck = Deck.standard().as_array()
        k = self.cards_per_hand
        dealt = np.empty((CHUNK_HANDS, k), dtype=np.int8)
        scratch = np.empty(self.players, dtype=np.int64)
        flags = np.empty(CHUNK_HANDS, dtype=np.bool_)
        shown = np.empty(CHUNK_HANDS, dtype=np.bool_)
        jackpots = 0
        qualifying = 0
        waiting = Waiting()
        done = 0
        while done < hands:
            n = min(CHUNK_HANDS, hands - done)
            deal_from_uniforms(deck, rng.random((n, k)), dealt[:n])
            jackpots += count_jackpots(
                dealt[:n], self.players, self.rules, scratch, flags[:n], shown[:n]
            )
            qualifying += int(shown[:n].sum())
            waiting.add(flags[:n])
            done += n
        return BadBeatTally(hands, jackpots, qualifying, waiting.waits())

    def report(self, tally: BadBeatTally | TableTally) -> dict[str, Any]:
        """Hands dealt, jackpot hands, the frequency with its 95 % Wilson interval, one in N;
        the hands showing a qualifying losing hand, with theirs; the hands from one hit to
        the next as a distribution; each level of the qualifier's schedule; at a table its
        course, and the policy over time."""
        if isinstance(tally, TableTally):
            levels = level_rows(self.losing_hands, tally.levels, tally.hands, self.rules)
            first = tally.levels[self.schedule[0]] if tally.levels else LevelTally()
            hits, qualifying = first.hits, first.qualified
            waits = tally.waits
        else:
            hits, qualifying = tally.jackpot_hands, tally.qualifying_hands
            levels = level_rows(
                self.losing_hands[:1],
                (LevelTally(hits, hits, qualified=qualifying),),
                tally.hands,
                self.rules,
            )
            waits = tally.waits
        estimate = Proportion(hits, max(tally.hands, 1))
        low, high = estimate.wilson()
        shown = Proportion(qualifying, max(tally.hands, 1))
        shown_low, shown_high = shown.wilson()
        report: dict[str, Any] = {
            "hands": tally.hands,
            "jackpot_hands": hits,
            "frequency": estimate.frequency,
            "ci95_low": low,
            "ci95_high": high,
            "one_in": estimate.one_in,
            "qualifying_hands": qualifying,
            "qualifying_frequency": shown.frequency,
            "qualifying_ci95_low": shown_low,
            "qualifying_ci95_high": shown_high,
            "hands_between_hits": waits_report(waits),
            "levels": levels,
            "table": None,
            "policy": None,
        }
        if isinstance(tally, TableTally) and tally.hands:
            table = self.table
            house = tally.policies[0]
            report["table"] = {
                **table_report(table, tally),
                "rake_per_hand": house.rake.mean,
                "drop_per_hand": house.drop.mean,
                "conditions_met": tally.conditions_met / tally.hands,
                "rake_taken": taken_report(house.rake_counts, "rake", self.rake),
                "drop_taken": taken_report(house.drop_counts, "jackpot drop", None),
            }
            if self.policy is not None:
                report["policy"] = policy_report(
                    self.policy,
                    tally,
                    self.room,
                    table.models,
                    self.players,
                    self.blinds[1],
                    self.losing_hands,
                    self.schedule,
                )
        return report

    def main_estimate(self, tally: BadBeatTally | TableTally) -> Estimate:
        """The hit rate, jackpot hands a hand at the reset qualifier with the room's
        conditions (the report's ``frequency``), with its 95 % Wilson interval; it may stop
        a job after :data:`~simulations.models.estimate.MIN_EVENTS` jackpot hands."""
        if isinstance(tally, TableTally):
            hits = tally.levels[self.schedule[0]].hits if tally.levels else 0
        else:
            hits = tally.jackpot_hands
        return Estimate.rate("jackpot hands a hand", hits, tally.hands)

    def precise_enough(self, tally: BadBeatTally | TableTally, precision: float) -> bool:
        """The hit rate's 95 % half-width is within ``precision`` of it (see
        :meth:`Estimate.precise_enough`)."""
        return self.main_estimate(tally).precise_enough(precision)


def waits_report(waits: Waits) -> dict[str, Any]:
    """The hands from one hit to the next (:class:`Waits`) as a ``Distribution``."""
    note = ""
    if waits.open:
        note = (
            "the wait still running when a shard's hands ran out (its length unknown, longer "
            "than what was seen) is left out"
        )
    return summary(waits.counts, WAITS, censored=waits.open, censored_note=note, histogram=False)


def _check_hand(table: Fields, key: str, text: str) -> str:
    try:
        hand_floor(text)
    except ValueError as err:
        raise SpecError(table.path(key), str(err)) from None
    return text


def _read_band(jackpot: Fields, key: str, default: str | None) -> HandBand:
    """A qualifier's band: ``min_<key>`` (its floor, the key jobs have always used) or the
    table ``<key> = {at_least, at_most, exactly}``, not both; errors name the field."""
    old = f"min_{key}"
    floor = jackpot.optional_string(old)
    if floor is not None:
        _check_hand(jackpot, old, floor)
    given = jackpot.has(key)
    band = jackpot.table(key)
    at_least = band.optional_string("at_least")
    at_most = band.optional_string("at_most")
    exactly = band.optional_string("exactly")
    band.finish()
    if given and floor is not None:
        raise SpecError(jackpot.path(key), f"give {old} or {key}, not both")
    for name, text in (("at_least", at_least), ("at_most", at_most), ("exactly", exactly)):
        if text is not None:
            _check_hand(band, name, text)
    if exactly is not None:
        if at_least is not None or at_most is not None:
            raise SpecError(
                band.path("exactly"), "is the whole band: give exactly, or at_least and at_most"
            )
        at_least = at_most = exactly
    if given and at_least is None and at_most is None:
        raise SpecError(jackpot.path(key), "names no hand: give at_least, at_most or exactly")
    low = at_least if at_least is not None else floor if floor is not None else default
    if key == "losing_hand" and low is not None:
        if exactly is not None:
            where = band.path("exactly")
        elif at_least is not None:
            where = band.path("at_least")
        else:
            where = jackpot.path(old)
        _can_lose(where, low)
    try:
        return HandBand(low, at_most)
    except ValueError:
        source = "at_least" if at_least is not None else "the default floor"
        raise SpecError(
            band.path("at_most"),
            f"{at_most!r} is below {source} {low!r}: no hand lies in the band",
        ) from None


# The best hand there is: no hand beats it (a second one could only tie), so a losing hand
# at least this good never loses, and a jackpot on it would silently never hit.
NEVER_LOSES = hand_floor("royal flush")


def _can_lose(where: str, text: str) -> None:
    """Refuse a losing hand that no hand can beat."""
    if hand_floor(text) >= NEVER_LOSES:
        raise SpecError(
            where,
            f"{echo(text)} can never lose (no hand beats a royal flush), so the jackpot would "
            "never hit: give a weaker losing hand",
        )


def _below_ceiling(where: str, text: str, floor: int, band: HandBand) -> None:
    """A floor judged besides the qualifier's shares its ceiling, so must lie below it."""
    if floor > band.ceiling:
        raise SpecError(
            where,
            f"{text!r} is above the losing hand's at_most {band.at_most!r}: no hand lies in "
            "its band",
        )


def count_jackpots(
    dealt: npt.NDArray[np.int8],
    players: int,
    rules: BadBeatRules,
    scratch: npt.NDArray[np.int64] | None = None,
    flags: npt.NDArray[np.bool_] | None = None,
    qualifying: npt.NDArray[np.bool_] | None = None,
) -> int:
    """Jackpot hands among ``dealt`` (board then hole cards); ``flags`` receives each verdict
    and ``qualifying`` whether each hand shows a qualifying losing hand."""
    out = np.empty(dealt.shape[0], dtype=np.bool_) if flags is None else flags
    shown = np.empty(dealt.shape[0], dtype=np.bool_) if qualifying is None else qualifying
    values = np.empty(players, dtype=np.int64) if scratch is None else scratch
    return int(_jackpot_kernel(dealt, players, rules.qualifier(), TABLES, values, out, shown))


@nb.njit(cache=True)
def _jackpot_kernel(
    dealt: npt.NDArray[np.int8],
    players: int,
    qualifier: npt.NDArray[np.int64],
    tables: HighTables,
    values: npt.NDArray[np.int64],
    flags: npt.NDArray[np.bool_],
    qualifying: npt.NDArray[np.bool_],
) -> int:
    card_keys, flush_values, row_offsets, rank_values = tables
    losing_floor = qualifier[Q_LOSING_FLOOR]
    losing_ceiling = qualifier[Q_LOSING_CEILING]
    winning_floor = qualifier[Q_WINNING_FLOOR]
    winning_ceiling = qualifier[Q_WINNING_CEILING]
    hits = 0
    for i in range(dealt.shape[0]):
        board_key = 0
        board_suited = 0
        for j in range(BOARD_CARDS):
            c = dealt[i, j]
            board_key += card_keys[c]
            board_suited |= card_bit(c)
        contenders = 0
        for p in range(players):
            h0 = dealt[i, BOARD_CARDS + 2 * p]
            h1 = dealt[i, BOARD_CARDS + 2 * p + 1]
            value = high_value(
                board_key + card_keys[h0] + card_keys[h1],
                board_suited | card_bit(h0) | card_bit(h1),
                flush_values,
                row_offsets,
                rank_values,
            )
            values[p] = value
            if value >= losing_floor:
                contenders += 1
        hit = False
        shown = False
        # A qualifying losing hand is at or above the losing floor: rare, so check the hands
        # closely only then (a hit needs two such hands: the loser's and the winner's).
        if contenders >= 1:
            board = dealt[i, :BOARD_CARDS]
            weakest_loser = 1 << 40
            best_winner = -1
            for p in range(players):
                value = values[p]
                if value < losing_floor:
                    continue
                hole = dealt[i, BOARD_CARDS + 2 * p : BOARD_CARDS + 2 * p + HOLE_CARDS]
                if not qualifies(
                    hole, board, value, qualifier, card_keys, flush_values, row_offsets,
                    rank_values,
                ):  # fmt: skip
                    continue
                if in_band(value, losing_floor, losing_ceiling):
                    shown = True
                    weakest_loser = min(weakest_loser, value)
                if in_band(value, winning_floor, winning_ceiling):
                    best_winner = max(best_winner, value)
            hit = best_winner > weakest_loser
        flags[i] = hit
        qualifying[i] = shown
        hits += hit
    return hits
