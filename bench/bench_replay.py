"""``cardroom replay``'s library against pokerkit's own replay of the same PHH files: load the
files and play every hand to its end, side by side in one process on one core, per corpus.

Standalone: ``PYTHONPATH=. python bench/bench_replay.py [--quick] [--repeats N]
[--pluribus N] [--corpora NT,FT,...,pluribus] [--json PATH]``.

The corpora are ``../shared/phh`` beside the repository (or ``$CARDROOM_PHH``): each file of
the generated corpus (one variant each) and the Pluribus hands (one ``.phh`` file each).
Three contenders read the same files from disk and play every hand:

* **pokerkit**: ``HandHistory.load`` (``load_all`` for a ``.phhs`` file), then every state of
  each hand to the end (``for state in history``), which deals, acts and settles;
* **ours, reference engine**: :func:`simulations.phh.batch.replay_files` with
  ``Engine.REFERENCE``, which reads and checks each file, then replays every hand through
  the reference engine and compares its stacks with ``finishing_stacks``;
* **ours, auto**: the same call as ``cardroom replay`` makes by default: the hands the
  compiled replay kernel covers (hold'em's, read by compiled code from the files' bytes
  where they can be; draw games', read by the Python reader) are replayed in batches
  through it, every other hand (and any the kernel does not end at the history's stacks)
  through the reference engine.

Both of ours must report every hand alike (outcome, notes, differences), or the run stops.
After an untimed warm-up, each repeat times one pass of every contender over the corpus, the
order turning from repeat to repeat so that all meet the same changes in the machine's load;
the garbage collector runs untimed between passes.  A repeat's ratio is pokerkit's time
over ours; the report gives the median repeat and the range.  Targets: ours at least 10×
pokerkit; where the compiled path (the files read by compiled code, the hands played by the
kernel) takes most of the corpus's hands, at least 100×.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from common import SMOKE_NOTE, log, machine_facts, machine_lines, markdown_table, write_json
from pokerkit import HandHistory

from simulations.phh.batch import replay_files
from simulations.phh.fast import replay_covered
from simulations.phh.options import Engine, ReplayOptions
from simulations.phh.quick import replay_quick
from simulations.phh.read import read_file
from simulations.phh.results import FileReport, Outcome

REPOSITORY = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CARDROOM_PHH") or REPOSITORY.parent / "shared" / "phh")
VERSIONS = ("numpy", "numba", "pokerkit")
GENERATED = ("NT", "FT", "PO", "FO8", "F7S", "F7S8", "FR", "N2L1D", "F2L3D", "FB")
PLURIBUS = "pluribus"
CONTENDERS = ("pokerkit", "reference", "auto")
TARGET = 10.0
KERNEL_TARGET = 100.0


@dataclass(frozen=True)
class Config:
    repeats: int = 5
    pluribus_hands: int | None = None  # None: all 10,000
    corpora: tuple[str, ...] = (*GENERATED, PLURIBUS)
    smoke: bool = False


QUICK = Config(repeats=3, pluribus_hands=1_000, smoke=True)


@dataclass
class Result:
    """One corpus: its files, hands, how many the kernel took, and every repeat's seconds."""

    name: str
    files: list[Path]
    hands: int = 0
    replayed: int = 0
    kernel_hands: int = 0
    compiled_hands: int = 0  # read by compiled code (the scan) and played by the kernel
    seconds: dict[str, list[float]] = field(default_factory=lambda: {c: [] for c in CONTENDERS})

    def ratios(self, contender: str) -> list[float]:
        return [
            theirs / ours
            for theirs, ours in zip(self.seconds["pokerkit"], self.seconds[contender], strict=True)
        ]

    def ratio(self, contender: str) -> float:
        return statistics.median(self.ratios(contender))

    def microseconds(self, contender: str) -> float:
        return 1e6 * statistics.median(self.seconds[contender]) / self.hands


def pokerkit_pass(files: Sequence[Path]) -> int:
    """pokerkit loads each file and plays every hand's states to the end; the hand count."""
    hands = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns of cards out of its own deck order
        for path in files:
            with path.open("rb") as stream:
                if path.suffix == ".phhs":
                    histories = list(HandHistory.load_all(stream))
                else:
                    histories = [HandHistory.load(stream)]
            for history in histories:
                for _state in history:
                    pass
                hands += 1
    return hands


def compiled_hands(files: Sequence[Path]) -> int:
    """The hands the ``auto`` path reads with compiled code and settles in the kernel (the
    others are read by the Python reader, whatever then plays them)."""
    settled = replay_quick(files, ReplayOptions())
    return sum(
        len(found.results)
        if isinstance(found, FileReport)
        else sum(1 for r in found.results if r is not None)
        for found in settled.values()
    )


def ours_pass(files: Sequence[Path], engine: Engine) -> list[FileReport]:
    return replay_files(files, ReplayOptions(engine=engine))


def summary(reports: Sequence[FileReport]) -> list[tuple[str, str, tuple[str, ...], str]]:
    return [
        (r.name, r.outcome.value, r.notes, repr(r.differences))
        for report in reports
        for r in report.results
    ]


def corpus_files(name: str, config: Config) -> list[Path]:
    if name == PLURIBUS:
        files = sorted((CORPUS / PLURIBUS).rglob("*.phh"))
        return files if config.pluribus_hands is None else files[: config.pluribus_hands]
    return [CORPUS / "generated" / f"{name}.phhs"]


def measure(name: str, config: Config) -> Result:
    files = corpus_files(name, config)
    result = Result(name, files)
    log(f"{name}: warming up on {len(files):,} files")
    reference = ours_pass(files, Engine.REFERENCE)
    auto = ours_pass(files, Engine.AUTO)
    if summary(reference) != summary(auto):
        raise SystemExit(f"{name}: the kernel's path reports other results than the reference")
    result.hands = sum(len(report.results) for report in reference)
    result.replayed = sum(
        1 for report in reference for r in report.results if r.outcome is Outcome.PASSED
    )
    result.kernel_hands = len(replay_covered([read_file(path) for path in files], ReplayOptions()))
    result.compiled_hands = compiled_hands(files)
    if pokerkit_pass(files) != result.hands:
        raise SystemExit(f"{name}: pokerkit and ours do not count the same hands")
    work: dict[str, Callable[[], Any]] = {
        "pokerkit": lambda: pokerkit_pass(files),
        "reference": lambda: ours_pass(files, Engine.REFERENCE),
        "auto": lambda: ours_pass(files, Engine.AUTO),
    }
    for repeat in range(config.repeats):
        order = CONTENDERS[repeat % 3 :] + CONTENDERS[: repeat % 3]
        for contender in order:
            gc.collect()
            start = time.perf_counter()
            work[contender]()
            result.seconds[contender].append(time.perf_counter() - start)
        log(
            f"  repeat {repeat + 1}: "
            + ", ".join(f"{c} {result.seconds[c][-1]:.2f} s" for c in CONTENDERS)
        )
    return result


def run(config: Config) -> tuple[dict[str, Any], list[Result], dict[str, str]]:
    machine = machine_facts(VERSIONS, pin=True)
    results: list[Result] = []
    skipped: dict[str, str] = {}
    for name in config.corpora:
        if not corpus_files(name, config) or not all(
            p.exists() for p in corpus_files(name, config)
        ):
            skipped[name] = f"no files under {CORPUS}"
            log(f"{name}: skipped, {skipped[name]}")
            continue
        results.append(measure(name, config))
    machine["load_average_at_end"] = os.getloadavg()[0]
    return machine, results, skipped


def label(name: str) -> str:
    return "Pluribus" if name == PLURIBUS else name.replace("FO8", "FO/8").replace("F7S8", "F7S/8")


def spread(values: Sequence[float]) -> str:
    return f"**{statistics.median(values):.1f}×** ({min(values):.1f}–{max(values):.1f})"


def markdown(machine: dict[str, Any], results: Sequence[Result], config: Config,
             skipped: dict[str, str]) -> str:  # fmt: skip
    lines = [*machine_lines(machine, VERSIONS), "## `cardroom replay` against pokerkit", ""]
    if config.smoke:
        lines += [SMOKE_NOTE, ""]
    rows = []
    for r in results:
        kernel = r.kernel_hands / r.hands if r.hands else 0.0
        compiled = r.compiled_hands / r.hands if r.hands else 0.0
        auto_target = KERNEL_TARGET if compiled > 0.5 else TARGET
        rows.append(
            (
                label(r.name),
                f"{r.hands:,}",
                f"{r.replayed:,}",
                f"{r.kernel_hands:,} ({kernel:.0%})",
                f"{r.compiled_hands:,} ({compiled:.0%})",
                f"{r.microseconds('pokerkit'):,.0f}",
                f"{r.microseconds('reference'):,.0f}",
                spread(r.ratios("reference")),
                f"{r.microseconds('auto'):,.0f}",
                spread(r.ratios("auto")),
                f"≥ {auto_target:.0f}×: {'met' if r.ratio('auto') >= auto_target else 'NOT met'}",
            )
        )
    lines += markdown_table(
        (
            "corpus",
            "hands",
            "replayed",
            "by the kernel",
            "read compiled",
            "pokerkit µs/hand",
            "reference µs/hand",
            "× pokerkit (reference)",
            "auto µs/hand",
            "× pokerkit (auto)",
            "target (auto)",
        ),
        "lrrrrrrrrrl",
        rows,
        spaced=False,
    )
    for name, why in skipped.items():
        lines.append(f"\n{label(name)} was skipped: {why}.")
    lines += [
        "",
        f"Median of {config.repeats} repeats, the lowest and highest in brackets; µs/hand is "
        'the median repeat\'s time over the hands, reading the files included. "replayed": '
        "hands ours ends at the file's finishing stacks (the others are the corpus's documented "
        'conventions); "by the kernel": hands the compiled replay kernel played in the auto '
        'path; "read compiled": of those, the hands read by compiled code from the bytes of '
        f"the files. Target: ≥ {TARGET:.0f}× pokerkit, ≥ {KERNEL_TARGET:.0f}× where the compiled "
        "path (read compiled, played by the kernel) takes most of the corpus's hands.",
    ]
    return "\n".join(lines)


def as_json(machine: dict[str, Any], results: Sequence[Result], config: Config,
            skipped: dict[str, str]) -> dict[str, Any]:  # fmt: skip
    return {
        "machine": machine,
        "config": {
            "repeats": config.repeats,
            "pluribus_hands": config.pluribus_hands,
            "smoke": config.smoke,
        },
        "skipped": skipped,
        "results": [
            {
                "corpus": r.name,
                "hands": r.hands,
                "replayed": r.replayed,
                "kernel_hands": r.kernel_hands,
                "compiled_hands": r.compiled_hands,
                "seconds": r.seconds,
                "ratio_reference": r.ratios("reference"),
                "ratio_auto": r.ratios("auto"),
            }
            for r in results
        ],
    }


def parse_args(argv: Sequence[str] | None) -> tuple[Config, Path | None]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="1,000 Pluribus hands, 3 repeats")
    parser.add_argument("--repeats", type=int, help="timed repeats (5; 3 with --quick)")
    parser.add_argument("--pluribus", type=int, metavar="N", help="the first N Pluribus hands")
    parser.add_argument(
        "--corpora", help=f"comma-separated, of {','.join((*GENERATED, PLURIBUS))} (default: all)"
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the numbers here")
    args = parser.parse_args(argv)
    config = QUICK if args.quick else Config()
    if args.repeats is not None:
        if args.repeats < 1:
            parser.error("--repeats must be positive")
        config = replace(config, repeats=args.repeats)
    if args.pluribus is not None:
        if args.pluribus < 1:
            parser.error("--pluribus must be positive")
        config = replace(config, pluribus_hands=args.pluribus)
    if args.corpora:
        chosen = tuple(args.corpora.split(","))
        unknown = [name for name in chosen if name not in (*GENERATED, PLURIBUS)]
        if unknown:
            parser.error(f"unknown corpora {', '.join(unknown)}")
        config = replace(config, corpora=chosen)
    return config, args.json


def main(argv: Sequence[str] | None = None) -> int:
    config, json_path = parse_args(argv)
    started = time.perf_counter()
    machine, results, skipped = run(config)
    log(f"done in {time.perf_counter() - started:.1f} s")
    print(markdown(machine, results, config, skipped))
    if json_path is not None:
        write_json(json_path, as_json(machine, results, config, skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
