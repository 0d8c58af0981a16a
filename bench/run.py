"""Speed of the high-hand evaluator and the bad-beat kernel, against per-hand libraries.

One process measures, side by side:

* ``evaluate_high_batch`` over an array of random seven-card hands, with and without the
  input check;
* eval7, phevaluator, treys and pokerkit on the same hands, one Python call per hand,
  each fed its own card objects (converted before timing);
* the bad-beat model (10 players, all to the river) on one core with ``InlineRunner`` and
  on every core with ``RayRunner``.

Every per-hand library's results are checked to order the hands exactly as ours do before
its speed is reported.  Prints Markdown; ``--json PATH`` also writes the numbers.
"""

from __future__ import annotations

import itertools
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt
from common import (
    SMOKE_NOTE,
    Spread,
    chosen_config,
    gc_paused,
    log,
    machine_facts,
    markdown_table,
    parse_args,
    rate,
    same_order,
    time_in_rounds,
    timed,
    write_json,
)

from simulations.cards import RANK_SYMBOLS, STANDARD_CARD_COUNT, SUIT_SYMBOLS
from simulations.evaluators.high import evaluate_high_batch
from simulations.models.bad_beat import BadBeatModel, BadBeatTally
from workers.job import Job
from workers.runner import RAY_LOCAL_ENVIRONMENT, InlineRunner, RayRunner

SEED = 20_240_601
HAND_CARDS = 7
HOLE_CARDS = 2
PLAYERS = 10
GENERATE_CHUNK = 1_000_000
WARMUP_FRACTION = 10
LIBRARIES = ("eval7", "phevaluator", "treys", "pokerkit")
RAY_WORKER_NICENESS = "RAY_worker_niceness"

TARGET_BATCH_HANDS_PER_S = 50e6
TARGET_BATCH_OVER_FASTEST = 20.0
TARGET_BAD_BEAT_HANDS_PER_S = 1.5e6
TARGET_TWO_CORE_SPEEDUP = 1.8

Hands = npt.NDArray[np.int8]
Values = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Config:
    hands: int = 200_000
    repeats: int = 10
    calibration_hands: int = 1_000
    full_run_budget_s: float = 60.0
    prefix_hands: int = 20_000
    repeat_budget_s: float = 3.0
    bad_beat_hands: int = 16_000_000
    shard_size: int = 1_000_000  # the job default: about 0.3 s of work per shard
    bad_beat_repeats: int = 5
    warmup_shards: int = 4
    warmup_shard_size: int = 4_096
    smoke: bool = False


QUICK = Config(
    hands=20_000,
    repeats=3,
    calibration_hands=200,
    full_run_budget_s=3.0,
    prefix_hands=2_000,
    repeat_budget_s=0.5,
    bad_beat_hands=200_000,
    shard_size=25_000,
    bad_beat_repeats=1,
    warmup_shards=2,
    warmup_shard_size=1_024,
    smoke=True,
)


@dataclass(frozen=True)
class Contender:
    """One per-hand evaluation call: how to build its arguments and read its results."""

    library: str
    call: str
    evaluate: Callable[..., Any]
    card_table: Sequence[Any]
    arguments: Callable[[Sequence[Any]], tuple[Any, ...]]
    strength: Callable[[Any], Values]
    public: bool = True


@dataclass
class Entry:
    """An evaluation call waiting to be timed, and its times so far."""

    name: str
    call: str
    hands_timed: int
    repeats: int
    work: Callable[[], Any]
    warmup: Callable[[], Any]
    strength: Callable[[Any], Values]
    public: bool = True
    ours: bool = False
    checked: bool = False
    times: list[float] = field(default_factory=list)
    result: Any = None  # of the first timed pass


@dataclass(frozen=True)
class EvaluatorResult:
    name: str
    call: str
    hands_timed: int
    rate: Spread  # hands/s over the repeats
    public: bool = True
    ours: bool = False
    checked: bool = False

    @property
    def hands_per_s(self) -> float:
        """The median repeat's rate."""
        return self.rate.median


@dataclass(frozen=True)
class RunnerResult:
    runner: str
    cpus: int
    hands: int
    rate: Spread  # hands/s over the repeats
    jackpot_hands: int
    seconds: tuple[float, ...]  # each repeat's, in the rounds both runners took turns in

    @property
    def hands_per_s(self) -> float:
        """The median repeat's rate."""
        return self.rate.median


@dataclass
class Report:
    machine: dict[str, Any]
    config: Config
    evaluators: list[EvaluatorResult] = field(default_factory=list)
    runners: list[RunnerResult] = field(default_factory=list)


def random_hands(n: int, rng: np.random.Generator) -> Hands:
    """``n`` hands of seven distinct cards, each a uniformly random subset of the deck."""
    hands = np.empty((n, HAND_CARDS), dtype=np.int8)
    for start in range(0, n, GENERATE_CHUNK):
        stop = min(n, start + GENERATE_CHUNK)
        keys = rng.random((stop - start, STANDARD_CARD_COUNT))
        hands[start:stop] = np.argpartition(keys, HAND_CARDS, axis=1)[:, :HAND_CARDS]
    return hands


def card_names() -> list[str]:
    return [RANK_SYMBOLS[code >> 2] + SUIT_SYMBOLS[code & 3] for code in range(52)]


def higher(results: Any) -> Values:
    return np.asarray(results, dtype=np.int64)


def lower(results: Any) -> Values:
    return -np.asarray(results, dtype=np.int64)


def contenders() -> list[Contender]:
    import eval7
    import phevaluator
    import pokerkit
    import treys
    from phevaluator import _pheval

    names = card_names()
    codes = list(range(52))
    treys_evaluator = treys.Evaluator()

    def spread(cards: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(cards)

    def one_list(cards: Sequence[Any]) -> tuple[Any, ...]:
        return (list(cards),)

    def hole_board_lists(cards: Sequence[Any]) -> tuple[Any, ...]:
        return list(cards[:HOLE_CARDS]), list(cards[HOLE_CARDS:])

    def hole_board_tuples(cards: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(cards[:HOLE_CARDS]), tuple(cards[HOLE_CARDS:])

    def pokerkit_entries(results: list[Any]) -> Values:
        return np.fromiter((hand.entry.index for hand in results), np.int64, len(results))

    return [
        Contender(
            "eval7",
            "eval7.evaluate(cards)",
            eval7.evaluate,
            [eval7.Card(name) for name in names],
            one_list,
            higher,
        ),
        Contender(
            "phevaluator",
            "evaluate_cards(*ints)",
            phevaluator.evaluate_cards,
            codes,
            spread,
            lower,
        ),
        Contender(
            "phevaluator",
            "evaluate_7cards(*ints)",
            phevaluator.evaluate_7cards,
            codes,
            spread,
            lower,
        ),
        Contender(
            "phevaluator",
            "_pheval.evaluate_7cards(*ints)",
            _pheval.evaluate_7cards,
            codes,
            spread,
            lower,
            public=False,
        ),
        Contender(
            "treys",
            "Evaluator().evaluate(hole, board)",
            treys_evaluator.evaluate,
            [treys.Card.new(name) for name in names],
            hole_board_lists,
            lower,
        ),
        Contender(
            "pokerkit",
            "StandardHighHand.from_game(hole, board)",
            pokerkit.StandardHighHand.from_game,
            [next(pokerkit.Card.parse(name)) for name in names],
            hole_board_tuples,
            pokerkit_entries,
        ),
    ]


def prepare(contender: Contender, rows: list[list[int]], config: Config) -> Entry:
    """Convert the hands to the library's cards, and choose from a short calibration run how
    many hands to time (all, or a prefix if all would be too slow) and how many times."""
    table = contender.card_table
    build = contender.arguments

    def convert(subset: Iterable[list[int]]) -> list[tuple[Any, ...]]:
        return [build([table[code] for code in row]) for row in subset]

    def evaluate_all(arguments: list[tuple[Any, ...]]) -> Callable[[], list[Any]]:
        return lambda: list(itertools.starmap(contender.evaluate, arguments))

    sample = convert(rows[: config.calibration_hands])
    with gc_paused():
        seconds, _ = timed(evaluate_all(sample))
    rate = len(sample) / seconds
    count = len(rows)
    if count / rate > config.full_run_budget_s:
        count = min(count, config.prefix_hands)
    repeats = max(1, min(config.repeats, int(config.repeat_budget_s * rate / count)))
    name = contender.library if contender.public else f"{contender.library} (private C entry)"
    arguments = convert(rows[:count])
    return Entry(
        name,
        contender.call,
        count,
        repeats,
        evaluate_all(arguments),
        evaluate_all(arguments[: count // WARMUP_FRACTION]),
        contender.strength,
        public=contender.public,
    )


def bench_evaluators(report: Report, hands: Hands) -> None:
    config = report.config
    n = len(hands)
    entries: list[Entry] = []
    for check in (False, True):
        label = "ours, batch, checked" if check else "ours, batch, unchecked"
        entries.append(
            Entry(
                label,
                f"evaluate_high_batch(hands, check={check})",
                n,
                config.repeats,
                partial(evaluate_high_batch, hands, check=check),
                partial(evaluate_high_batch, hands[: n // WARMUP_FRACTION + 1], check=check),
                higher,
                ours=True,
                checked=check,
            )
        )
    rows = hands.tolist()
    entries += [prepare(contender, rows, config) for contender in contenders()]
    # Each pass follows an untimed pass over a tenth of its hands, which brings back into the
    # caches the tables the other entries pushed out.
    time_in_rounds(entries, before=lambda entry: entry.warmup())

    ours = entries[0].strength(entries[0].result)
    for entry in entries:
        theirs = entry.strength(entry.result)
        if entry.ours and not np.array_equal(ours, theirs):
            raise SystemExit(f"{entry.call} gives different values from {entries[0].call}")
        if not same_order(ours[: entry.hands_timed], theirs):
            raise SystemExit(
                f"{entry.name} {entry.call} orders the hands differently from ours: "
                "refusing to benchmark a call that does not evaluate the same thing"
            )
        result = EvaluatorResult(
            entry.name,
            entry.call,
            entry.hands_timed,
            Spread.rates(entry.hands_timed, entry.times),
            entry.public,
            entry.ours,
            entry.checked,
        )
        report.evaluators.append(result)
        log(
            f"  {result.name} {result.call}: {result.hands_per_s:,.0f} hands/s over "
            f"{result.hands_timed:,} hands, median of {result.rate.repeats}"
        )


def bench_bad_beat(report: Report) -> None:
    """Time the same job on one core and on every core, alternating the two runners so that
    both see the same load, and check that every run gives the same tally."""
    config = report.config
    model = BadBeatModel(players=PLAYERS)
    job = Job(model, config.bad_beat_hands, SEED, config.shard_size)
    cpus = os.cpu_count() or 1
    warmup_hands = config.warmup_shards * cpus * config.warmup_shard_size
    warmup = Job(model, warmup_hands, SEED + 1, config.warmup_shard_size)

    os.environ.update(RAY_LOCAL_ENVIRONMENT)
    os.environ.setdefault(RAY_WORKER_NICENESS, "0")
    report.machine["ray_worker_niceness"] = int(os.environ[RAY_WORKER_NICENESS])
    inline = InlineRunner()
    with RayRunner(num_cpus=cpus) as ray_runner:
        runners: list[tuple[str, int, InlineRunner | RayRunner]] = [
            ("InlineRunner", 1, inline),
            (f"RayRunner(num_cpus={cpus})", cpus, ray_runner),
        ]
        times: list[list[float]] = [[] for _ in runners]
        tallies: set[BadBeatTally] = set()
        for _, _, runner in runners:
            runner.run(warmup)
        for _ in range(config.bad_beat_repeats):
            for slot, (_, _, runner) in enumerate(runners):
                with gc_paused():
                    seconds, tally = timed(partial(runner.run, job))
                times[slot].append(seconds)
                tallies.add(tally)
    if len(tallies) != 1:
        raise SystemExit(f"the runners gave different tallies for the same job: {tallies}")
    (tally,) = tallies
    for (name, used, _), passes in zip(runners, times, strict=True):
        result = RunnerResult(
            name,
            used,
            tally.hands,
            Spread.rates(tally.hands, passes),
            tally.jackpot_hands,
            tuple(passes),
        )
        report.runners.append(result)
        log(f"  {name}: {result.hands_per_s / 1e6:.2f} M hands/s")


def rate_spread(spread: Spread) -> str:
    """The median rate and the range over the repeats."""
    return f"{rate(spread.median)} ({rate(spread.low)}–{rate(spread.high)})"


def times(ratio: float) -> str:
    return f"{ratio:.2f}×" if ratio >= 0.01 else f"{ratio:.4f}×"


def fastest_other(report: Report) -> EvaluatorResult:
    return max(
        (r for r in report.evaluators if not r.ours and r.public), key=lambda r: r.hands_per_s
    )


def markdown(report: Report) -> str:
    m = report.machine
    v = m["versions"]
    lines = [
        "## Machine",
        "",
        f"- CPUs: {m['cpu_count']} ({m['cpu_model']}), the evaluators pinned to CPU "
        f"{m['evaluators_pinned_cpu']}; 1-minute load average "
        f"{m['load_average_at_start']:.2f} at start, {m['load_average_at_end']:.2f} at end",
        f"- Python: {m['python']} on {m['platform']}",
        f"- numpy {v['numpy']}, numba {v['numba']}, ray {v['ray']} "
        f"(workers at niceness {m['ray_worker_niceness']})",
        "- " + ", ".join(f"{name} {v[name]}" for name in LIBRARIES),
        "",
        f"## Seven-card high-hand evaluation ({report.config.hands:,} random hands, seed {SEED})",
        "",
    ]
    base = fastest_other(report)
    lines += [
        f"Ratios are to the fastest other library through its public API: {base.name}, "
        f"`{base.call}`.",
        "",
    ]
    evaluators = []
    for e in report.evaluators:
        count = f"{e.hands_timed:,}"
        if e.hands_timed < report.config.hands:
            count += " (prefix)"
        ratio = times(e.hands_per_s / base.hands_per_s)
        evaluators.append(
            (e.name, f"`{e.call}`", count, e.rate.repeats, rate_spread(e.rate), ratio)
        )
    lines += markdown_table(
        ("library", "call", "hands timed", "repeats", "hands/s: median (range)", "× fastest other"),
        "llrrrr",
        evaluators,
        spaced=False,
    )
    one_core = report.runners[0]
    lines += [
        "",
        f"## Bad-beat kernel ({PLAYERS} players, every player to the river)",
        "",
    ]
    lines += markdown_table(
        ("runner", "CPUs", "hands", "repeats", "hands/s: median (range)", "× one core"),
        "lrrrrr",
        [
            (
                r.runner,
                r.cpus,
                f"{r.hands:,}",
                r.rate.repeats,
                rate_spread(r.rate),
                times(r.hands_per_s / one_core.hands_per_s),
            )
            for r in report.runners
        ],
        spaced=False,
    )
    lines += [
        "",
        f"Every run of both runners gave the same tally: {one_core.jackpot_hands:,} jackpot "
        f"hands in {one_core.hands:,} (seed {SEED}).",
        "",
        "## Targets",
        "",
    ]
    if report.config.smoke:
        lines += [SMOKE_NOTE, ""]
    met = []
    for name, measured, goal, unit in targets(report):
        shown = f"{measured / 1e6:.2f} M/s" if unit == "rate" else times(measured)
        met.append((name, shown, "yes" if measured >= goal else "no"))
    lines += markdown_table(("target", "measured", "met"), "lrc", met, spaced=False)
    lines += [
        "",
        "Each figure is the median of its repeats (the lowest and highest in brackets), taken "
        "in rounds of one pass of every call so that all meet the same load; ratios and "
        "targets compare medians. Per-hand libraries are timed over "
        "`list(starmap(call, arguments))` with arguments built beforehand.",
    ]
    return "\n".join(lines)


def targets(report: Report) -> list[tuple[str, float, float, str]]:
    unchecked = next(r for r in report.evaluators if r.ours and not r.checked)
    base = fastest_other(report)
    one_core, *all_cores = report.runners
    found = [
        (
            "batch evaluator (unchecked) ≥ 50 M hands/s, one core",
            unchecked.hands_per_s,
            TARGET_BATCH_HANDS_PER_S,
            "rate",
        ),
        (
            f"batch evaluator ≥ 20× fastest other ({base.name})",
            unchecked.hands_per_s / base.hands_per_s,
            TARGET_BATCH_OVER_FASTEST,
            "ratio",
        ),
        (
            "bad-beat kernel ≥ 1.5 M hands/s, one core",
            one_core.hands_per_s,
            TARGET_BAD_BEAT_HANDS_PER_S,
            "rate",
        ),
    ]
    for r in all_cores:
        found.append(
            (
                f"{r.cpus} cores ≥ 1.8× one core",
                r.hands_per_s / one_core.hands_per_s,
                TARGET_TWO_CORE_SPEEDUP,
                "ratio",
            )
        )
    return found


def as_json(report: Report) -> dict[str, Any]:
    base = fastest_other(report)
    one_core = report.runners[0]
    return {
        "machine": report.machine,
        "config": asdict(report.config),
        "seed": SEED,
        "fastest_other": base.name,
        "evaluators": [
            {
                **asdict(r),
                "hands_per_s": r.hands_per_s,
                "ratio_to_fastest_other": r.hands_per_s / base.hands_per_s,
            }
            for r in report.evaluators
        ],
        "bad_beat": [
            {
                **asdict(r),
                "hands_per_s": r.hands_per_s,
                "ratio_to_one_core": r.hands_per_s / one_core.hands_per_s,
            }
            for r in report.runners
        ],
        "targets": [
            {"target": name, "measured": measured, "goal": goal, "met": measured >= goal}
            for name, measured, goal, _ in targets(report)
        ],
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv, __doc__.splitlines()[0], "random 7-card hands to evaluate (200,000)")
    config = chosen_config(args, Config(), QUICK)
    report = Report(machine_facts(("numpy", "numba", "ray", *LIBRARIES)), config)
    started = time.perf_counter()

    log(f"evaluators on {config.hands:,} hands")
    hands = random_hands(config.hands, np.random.default_rng(SEED))
    # The evaluators on one core (CPU 1, as `taskset -c 1`); the runners then on every core.
    every_cpu = os.sched_getaffinity(0)
    one = 1 if 1 in every_cpu else min(every_cpu)
    os.sched_setaffinity(0, {one})
    report.machine["evaluators_pinned_cpu"] = one
    bench_evaluators(report, hands)
    os.sched_setaffinity(0, every_cpu)
    log(f"bad-beat kernel on {config.bad_beat_hands:,} hands")
    bench_bad_beat(report)
    report.machine["load_average_at_end"] = os.getloadavg()[0]
    log(f"done in {time.perf_counter() - started:.1f} s")

    print(markdown(report))
    if args.json is not None:
        write_json(args.json, as_json(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
