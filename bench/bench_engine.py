"""Speed of playing random-action six-handed no-limit hold'em hands: pokerkit, our reference
engine and the compiled replay kernel, on the same action sequences, on one core.

Standalone: ``PYTHONPATH=. python bench/bench_engine.py [--quick] [--hands N] [--json PATH]``.

The hands are generated first (seeded): six players with 50 to 150 big blinds each, the
button anywhere, a shuffled deck, and at every turn an action chosen uniformly among the
ones our reference engine lists — check or call, fold, and the smallest, a middle and the
largest bet or raise (the largest being all in) — while pokerkit plays alongside, dealt the
same cards, to check that it offers the same amounts and to record its script of calls.
Short all-in raises are left out, as in the oracle test: whether they reopen the betting
is where the rule texts and pokerkit part ways.  Hands end at a showdown or when all but
one fold.

Then, in one process pinned to one CPU, each contender plays every hand and is timed,
the median of its repeats (and their range), in rounds so that all meet the same load:

* pokerkit: ``State(...)``, the dealing and the actions of the recorded script;
* the reference engine: ``Hand(game, stacks, button, deck=deck)`` and ``act`` per action;
* the kernel: :func:`simulations.engine.replay.replay` over the encoded batch, repeated
  end to end until it holds at least ``kernel_hands`` hands (after a warm-up compile);
  the encoding itself (``ReplayBatch.from_records``, Python per hand) is shown apart.

All three must end every hand with the same stacks (pokerkit may place an odd chip
differently on a split pot, at most one chip a pot, as the oracle test allows), or the run
stops.  Prints Markdown with the machine facts and the ≥ 50× pokerkit target.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from common import (
    SMOKE_NOTE,
    chosen_config,
    log,
    machine_facts,
    machine_lines,
    markdown_table,
    parse_args,
    rate,
    time_in_rounds,
    write_json,
)

# the same script steps as the PHH replay, run by the same function
from phh_corpus import (
    AUTOMATIONS,
    BET_OR_RAISE,
    CHECK_OR_CALL,
    DEAL_BOARD,
    DEAL_HOLE,
    FOLD,
    run_step,
)
from pokerkit import (
    BettingStructure,
    Card,
    Deck,
    Mode,
    Opening,
    StandardHighHand,
    State,
    Street,
)

from simulations.cards import format_card
from simulations.engine.events import Awarded, BetOrRaised, Called, Posted
from simulations.engine.game import GameDefinition
from simulations.engine.hand import Action, ActionKind, Hand
from simulations.engine.limits import Stakes
from simulations.engine.replay import HandRecord, ReplayBatch, ReplayResult, replay
from simulations.engine.variants import VARIANTS

SEED = 20_240_701
PLAYERS = 6
BLINDS = (1, 2)
STACK_BIG_BLINDS = (50, 150)
TARGET_OVER_POKERKIT = 50.0
# How often each kind of legal action is chosen: uniform choice (the oracle test's) goes all
# in a fifth of the time and ends most hands before the flop; these weights leave all-ins
# in some hands and take most to later streets.
WEIGHTS = {"check or call": 4, "fold": 2, "smallest": 2, "middle": 1, "largest": 0.25}
VERSIONS = ("numpy", "numba", "pokerkit")

POKERKIT_STREETS = (
    Street(False, (False, False), 0, False, Opening.POSITION, BLINDS[-1], None),
    Street(True, (), 3, False, Opening.POSITION, BLINDS[-1], None),
    Street(True, (), 1, False, Opening.POSITION, BLINDS[-1], None),
    Street(True, (), 1, False, Opening.POSITION, BLINDS[-1], None),
)

# pokerkit script steps


@dataclass(frozen=True)
class Config:
    hands: int = 2_000
    pokerkit_repeats: int = 5
    reference_repeats: int = 5
    kernel_repeats: int = 5
    kernel_hands: int = 1_000_000
    smoke: bool = False


QUICK = Config(
    hands=200,
    pokerkit_repeats=1,
    reference_repeats=1,
    kernel_repeats=3,
    kernel_hands=100_000,
    smoke=True,
)


@dataclass(frozen=True)
class Script:
    """pokerkit's calls for one hand: its stacks (in its seat order) and the steps."""

    stacks: tuple[int, ...]
    steps: tuple[tuple[int, Any], ...]


@dataclass(frozen=True)
class Generated:
    record: HandRecord
    script: Script
    stacks: tuple[int, ...]  # the reference's final stacks, by our seats
    seat_of: tuple[int, ...]  # our seat of pokerkit's player i
    split: bool  # a pot shared by two or more winners (pokerkit's odd chips may differ)
    pots: int
    showdown: bool
    all_in: bool


@dataclass
class Contender:
    name: str
    call: str
    hands: int
    repeats: int
    work: Callable[[], Any]
    times: list[float] = field(default_factory=list)
    result: Any = None

    @property
    def hands_per_s(self) -> float:
        """The median repeat's rate."""
        return self.hands / statistics.median(self.times)

    @property
    def rate_range(self) -> tuple[float, float]:
        """The slowest and the fastest repeat's rates."""
        return self.hands / max(self.times), self.hands / min(self.times)


@dataclass
class Report:
    machine: dict[str, Any]
    config: Config
    hands: list[Generated] = field(default_factory=list)
    contenders: list[Contender] = field(default_factory=list)
    odd_chip_hands: int = 0


def the_game() -> GameDefinition:
    """No-limit hold'em as its game file (NT) has it, blinds 1-2."""
    game = VARIANTS["NT"].game()
    assert game.forced.blinds == BLINDS and game.stakes == Stakes(BLINDS[-1]), game
    return game


def new_state(stacks: Sequence[int]) -> State:
    return State(
        AUTOMATIONS,
        Deck.STANDARD,
        (StandardHighHand,),
        POKERKIT_STREETS,
        BettingStructure.NO_LIMIT,
        True,
        0,
        BLINDS,
        0,
        stacks,
        len(stacks),
        mode=Mode.CASH_GAME,
    )


def pokerkit_cards(codes: Sequence[int]) -> tuple[Card, ...]:
    return tuple(Card.parse("".join(format_card(c) for c in codes)))


def choose(hand: Hand, chooser: random.Random) -> Action:
    """A random legal action by ``WEIGHTS``: check or call, fold, and the smallest, a middle
    (at most pot-sized) and the largest full bet or raise, which is all in (short all-in
    raises left out, as in the oracle test)."""
    legal = hand.legal_actions()
    options = [Action.check() if legal.can_check else Action.call()]
    weights = [WEIGHTS["check or call"]]
    if legal.can_fold:
        options.append(Action.fold())
        weights.append(WEIGHTS["fold"])
    if legal.wager is not None and legal.full_total is not None:
        low, high = legal.wager
        if low >= legal.full_total:
            # A middle bet up to the size of the pot, as players size them.
            to_match = hand.round_bets[legal.seat] + legal.to_call
            pot_sized = to_match + hand.pot_total + legal.to_call
            middle = chooser.randint(low, max(low, min(high, pot_sized)))
            options += [legal.wager_action(t) for t in (low, middle, high)]
            weights += [WEIGHTS["smallest"], WEIGHTS["middle"], WEIGHTS["largest"]]
    return chooser.choices(options, weights)[0]


def generate_one(game: GameDefinition, seed: int) -> Generated:
    """Play one random hand through our engine with pokerkit alongside, checking that both
    offer the same amounts at every turn, and record pokerkit's script."""
    chooser = random.Random(seed)
    big = BLINDS[-1]
    stacks = [big * chooser.randint(*STACK_BIG_BLINDS) for _ in range(PLAYERS)]
    button = chooser.randrange(PLAYERS)
    deck = [int(c) for c in np.random.default_rng(seed).permutation(52)]
    hand = Hand(game, stacks, button, deck=deck)
    seat_of = tuple((button + 1 + i) % PLAYERS for i in range(PLAYERS))
    their_stacks = tuple(stacks[s] for s in seat_of)
    state = new_state(their_stacks)
    steps: list[tuple[int, Any]] = []
    actions: list[Action] = []
    board_dealt = 0
    while state.status:
        if state.can_deal_hole():
            dealee = state.hole_dealee_index
            assert dealee is not None
            seat = seat_of[dealee]
            dealt = len(state.hole_cards[dealee])
            step: tuple[int, Any] = (DEAL_HOLE, pokerkit_cards([hand.hole[seat][dealt]]))
        elif state.can_deal_board():
            assert state.street is not None
            count = state.street.board_dealing_count
            step = (DEAL_BOARD, pokerkit_cards(hand.board[board_dealt : board_dealt + count]))
            board_dealt += count
        elif state.actor_index is not None and hand.actor is None:
            # pokerkit still offers a check where nobody could answer a bet; ours skips it.
            step = (CHECK_OR_CALL, None)
        elif state.actor_index is not None:
            legal = hand.legal_actions()
            if seat_of[state.actor_index] != legal.seat or (
                state.checking_or_calling_amount != legal.to_call
            ):
                raise SystemExit(f"hand {seed}: pokerkit and ours disagree on the turn {legal}")
            action = choose(hand, chooser)
            hand.act(action)
            actions.append(action)
            if action.kind is ActionKind.FOLD:
                step = (FOLD, None)
            elif action.total is None:
                step = (CHECK_OR_CALL, None)
            else:
                step = (BET_OR_RAISE, action.total)
        else:
            raise SystemExit(f"hand {seed}: pokerkit waits for something unexpected: {state}")
        run_step(state, step)
        steps.append(step)
    awarded = [e.pot for e in hand.events if isinstance(e, Awarded)]
    all_in_events = (Posted, Called, BetOrRaised)
    return Generated(
        record=HandRecord(tuple(stacks), button, tuple(deck), tuple(actions)),
        script=Script(their_stacks, tuple(steps)),
        stacks=tuple(int(s) for s in hand.stacks),
        seat_of=seat_of,
        split=len(awarded) != len(set(awarded)),
        pots=len(hand.pots),
        showdown=sum(not f for f in hand.folded) > 1,
        all_in=any(isinstance(e, all_in_events) and e.all_in for e in hand.events),
    )


def play_pokerkit(scripts: Sequence[Script]) -> list[tuple[int, ...]]:
    finals = []
    for script in scripts:
        state = new_state(script.stacks)
        for step in script.steps:
            run_step(state, step)
        finals.append(tuple(state.stacks))
    return finals


def play_reference(game: GameDefinition, records: Sequence[HandRecord]) -> list[tuple[int, ...]]:
    finals = []
    for record in records:
        hand = Hand(game, record.stacks, record.button, deck=record.deck)
        for action in record.actions:
            hand.act(action)
        finals.append(tuple(int(s) for s in hand.stacks))
    return finals


def repeated(batch: ReplayBatch, copies: int) -> ReplayBatch:
    """``batch`` end to end ``copies`` times, as one batch."""
    counts = np.tile(np.diff(batch.action_offsets), copies)
    return ReplayBatch(
        seats=np.tile(batch.seats, copies),
        buttons=np.tile(batch.buttons, copies),
        stacks=np.tile(batch.stacks, (copies, 1)),
        decks=np.tile(batch.decks, (copies, 1)),
        action_offsets=np.concatenate([[0], np.cumsum(counts)]),
        action_kinds=np.tile(batch.action_kinds, copies),
        action_totals=np.tile(batch.action_totals, copies),
    )


def log_pass(contender: Contender, seconds: float) -> None:
    log(f"  {contender.name}: {contender.hands / seconds:,.0f} hands/s")


def verify(report: Report) -> None:
    """Stop unless every contender ended every hand with the reference's generation-time
    stacks (pokerkit: up to one chip a split pot off, as the oracle test allows)."""
    hands = report.hands
    expected = [g.stacks for g in hands]
    for c in report.contenders:
        if c.name == "pokerkit":
            for i, (g, theirs) in enumerate(zip(hands, c.result, strict=True)):
                ours = tuple(g.stacks[s] for s in g.seat_of)
                if ours == theirs:
                    continue
                off = max(abs(a - b) for a, b in zip(ours, theirs, strict=True))
                if not g.split or off > g.pots or sum(ours) != sum(theirs):
                    raise SystemExit(f"hand {i}: pokerkit ends with {theirs}, ours {ours}")
                report.odd_chip_hands += 1
        elif isinstance(c.result, ReplayResult):
            result = c.result
            if result.completed != len(result.batch):
                raise SystemExit(f"the kernel stopped hands: {result.errors()[:3]}")
            copies = len(result.batch) // len(hands)
            want = np.tile(np.array(expected, dtype=np.int64), (copies, 1))
            if not np.array_equal(result.stacks, want):
                bad = int(np.argmax(np.any(result.stacks != want, axis=1)))
                raise SystemExit(f"kernel hand {bad}: {result.stacks[bad]} against {want[bad]}")
        elif c.result != expected:
            raise SystemExit(f"{c.name} ends a hand differently from the generation run")


def run(config: Config) -> Report:
    report = Report(machine_facts(VERSIONS, pin=True), config)
    game = the_game()
    log(f"generating {config.hands:,} hands with pokerkit alongside")
    warnings.simplefilter("ignore")  # pokerkit warns on every card dealt out of its order
    report.hands = [generate_one(game, SEED + i) for i in range(config.hands)]
    records = [g.record for g in report.hands]
    scripts = [g.script for g in report.hands]

    started = time.perf_counter()
    batch = ReplayBatch.from_records(records)
    encode_s = time.perf_counter() - started
    copies = max(1, -(-config.kernel_hands // len(records)))
    big_batch = repeated(batch, copies)
    replay(game, batch)  # compile (or load the cached compilation) before timing

    n = len(records)
    report.contenders = [
        Contender(
            "pokerkit",
            "State(...), deal_hole/deal_board, fold/check_or_call/complete_bet_or_raise_to",
            n,
            config.pokerkit_repeats,
            lambda: play_pokerkit(scripts),
        ),
        Contender(
            "reference engine",
            "Hand(game, stacks, button, deck=deck), act(action) per action",
            n,
            config.reference_repeats,
            lambda: play_reference(game, records),
        ),
        Contender(
            "replay kernel",
            f"replay(game, batch) over {copies:,} copies of the {n:,} hands",
            len(big_batch),
            config.kernel_repeats,
            lambda: replay(game, big_batch),
        ),
    ]
    log("timing")
    time_in_rounds(report.contenders, after=log_pass)
    # The encoding is Python per hand: shown apart, with the kernel on the same hands.
    encode = Contender(
        "encode + replay kernel",
        "ReplayBatch.from_records(records), then replay(game, batch), one copy",
        n,
        config.reference_repeats,
        lambda: replay(game, ReplayBatch.from_records(records)),
    )
    time_in_rounds([encode], after=log_pass)
    report.contenders.append(encode)
    log(f"encoding alone: {n / encode_s:,.0f} hands/s")
    verify(report)
    report.machine["load_average_at_end"] = os.getloadavg()[0]
    return report


def kernel_ratio(report: Report) -> float:
    by_name = {c.name: c for c in report.contenders}
    return by_name["replay kernel"].hands_per_s / by_name["pokerkit"].hands_per_s


def markdown(report: Report) -> str:
    m = report.machine
    hands = report.hands
    n = len(hands)
    actions = sum(len(g.record.actions) for g in hands)
    lines = [
        *machine_lines(m, VERSIONS),
        f"## Random-action six-handed no-limit hold'em ({n:,} hands, seed {SEED})",
        "",
        f"Blinds {BLINDS[0]}/{BLINDS[1]}, stacks {STACK_BIG_BLINDS[0]} to "
        f"{STACK_BIG_BLINDS[1]} big blinds; {actions / n:.1f} actions a hand, "
        f"{sum(g.showdown for g in hands) / n:.0%} of hands to a showdown, "
        f"{sum(g.all_in for g in hands) / n:.0%} with a player all in.",
        "",
    ]
    base = next(c for c in report.contenders if c.name == "pokerkit").hands_per_s
    lines += markdown_table(
        ("engine", "what is timed", "hands", "hands/s: median (range)", "× pokerkit"),
        "llrrr",
        [
            (
                c.name,
                f"`{c.call}`",
                f"{c.hands:,}",
                f"{rate(c.hands_per_s)} ({rate(c.rate_range[0])}–{rate(c.rate_range[1])})",
                f"{c.hands_per_s / base:,.1f}×",
            )
            for c in report.contenders
        ],
        spaced=False,
    )
    ratio = kernel_ratio(report)
    lines += [
        "",
        f"Every hand ended with the same stacks in all three ({report.odd_chip_hands} split-pot "
        "hands with pokerkit's odd chip placed differently, at most one chip a pot).",
        "",
        "## Target",
        "",
    ]
    if report.config.smoke:
        lines += [SMOKE_NOTE, ""]
    target = f"replay kernel ≥ {TARGET_OVER_POKERKIT:.0f}× pokerkit, one core"
    met = "yes" if ratio >= TARGET_OVER_POKERKIT else "no"
    lines += markdown_table(
        ("target", "measured", "met"), "lrc", [(target, f"{ratio:,.0f}×", met)], spaced=False
    )
    lines += [
        "",
        "Each rate is the median of its repeats (the slowest and fastest in brackets), "
        "taken in rounds of one pass of every contender; × pokerkit compares medians. "
        "pokerkit and the reference engine play one hand after another; the kernel is one "
        "call over the whole batch.",
    ]
    return "\n".join(lines)


def as_json(report: Report) -> dict[str, Any]:
    base = next(c for c in report.contenders if c.name == "pokerkit").hands_per_s
    ratio = kernel_ratio(report)
    return {
        "machine": report.machine,
        "config": asdict(report.config),
        "seed": SEED,
        "hands": len(report.hands),
        "odd_chip_hands": report.odd_chip_hands,
        "contenders": [
            {
                "name": c.name,
                "call": c.call,
                "hands": c.hands,
                "repeats": c.repeats,
                "seconds": c.times,
                "hands_per_s": c.hands_per_s,
                "ratio_to_pokerkit": c.hands_per_s / base,
            }
            for c in report.contenders
        ],
        "targets": [
            {
                "target": f"replay kernel >= {TARGET_OVER_POKERKIT:.0f}x pokerkit, one core",
                "measured": ratio,
                "goal": TARGET_OVER_POKERKIT,
                "met": ratio >= TARGET_OVER_POKERKIT,
            }
        ],
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv, __doc__.splitlines()[0], "random hands to generate (2,000)")
    config = chosen_config(args, Config(), QUICK)
    started = time.perf_counter()
    report = run(config)
    log(f"done in {time.perf_counter() - started:.1f} s")
    print(markdown(report))
    if args.json is not None:
        write_json(args.json, as_json(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
