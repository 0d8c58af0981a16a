"""Whole files of hold'em hands replayed without reading them in Python: their bytes read by
compiled code (:mod:`simulations.phh.scan`) straight into the replay kernel's arrays
(:mod:`simulations.phh.count`), and played in one batch per game laid out.

A file is reported from here only when every one of its hands was read here and the kernel
ended each at the history's finishing stacks, with the chips each player put in as the count
of its lines found.  The game of each group of hands with the same variant, stakes and number
of players is laid out once, from the first hand of the group as the Python reader reads it,
and only when :mod:`simulations.phh.fast` would give that hand to the kernel.  Every other
file is left to the Python reader and the reference engine, whose verdict is the one
reported.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from simulations.engine import replay_kernel as kernel
from simulations.engine.game import GameDefinition
from simulations.engine.replay import ReplayBatch, replay
from simulations.phh import count, scan
from simulations.phh.fast import kernel_game_of
from simulations.phh.options import ReplayOptions
from simulations.phh.read import SEVERAL, read_file, read_text
from simulations.phh.replay import Games
from simulations.verify.results import FileReport, Outcome, ScenarioResult

_HEADER = b"\n["
_SMALLEST_GROUP = 3
_FIRST_READ = 1 << 16  # a one-hand file is read whole by one call
_TRIPLE_QUOTES = re.compile(rb"'''|\"\"\"")


@dataclass(frozen=True)
class QuickFile:
    """What the kernel settled of one file: each hand's result where it passed (None where
    the Python reader and the reference engine are to replay it), and the file's text
    of those other hands (its tables, headers included)."""

    results: tuple[ScenarioResult | None, ...]
    rest: str = ""
    report: FileReport | None = None  # the file's report, when every hand passed


def _read_bytes(path: str) -> bytes | None:
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        data = os.read(descriptor, _FIRST_READ)
        if len(data) == _FIRST_READ:
            # A file of many hands: the rest of it, as long as it says it is.
            size = os.fstat(descriptor).st_size
            data += os.read(descriptor, size - len(data) + 1)
            if len(data) != size:
                return None  # changed while read: the Python reader reads it
    except OSError:
        return None
    finally:
        os.close(descriptor)
    return data


def replay_quick(paths: Sequence[str | Path], options: ReplayOptions) -> dict[int, QuickFile]:
    """What the kernel settled of the files of ``paths``, by their place in it: the hands it
    replayed to their finishing stacks (files of which it settled none are not in it)."""
    started = time.perf_counter()
    sources = [str(path) for path in paths]
    chunks: list[bytes] = []
    several = np.zeros(len(sources), dtype=np.bool_)
    rows = [0]
    for number, source in enumerate(sources):
        data = _read_bytes(source)
        if data is None or not data.isascii():
            data = b""  # no hand is read here: the Python reader reports it
        chunks.append(data)
        if source.endswith(SEVERAL):
            several[number] = True
            rows.append(rows[-1] + data.count(_HEADER) + data.startswith(b"["))
        else:
            rows.append(rows[-1] + 1)
    blob = b"".join(chunks)
    data_array = np.frombuffer(blob, dtype=np.uint8)
    starts = np.zeros(len(sources) + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(c) for c in chunks])
    hand_rows = np.array(rows, dtype=np.int64)
    hands = int(hand_rows[-1])
    if hands == 0:
        return {}
    found = scan.Scanned(hands, max(len(blob) // 6, 1))
    scan.scan(data_array, starts, several, hand_rows, found.ok, found.file, found.section,
              found.variant, found.players, found.numbers, found.arrays, found.holes,
              found.board, found.line_offsets, found.line_kinds, found.line_seats,
              found.line_amounts)  # fmt: skip
    passed = np.zeros(hands, dtype=np.bool_)
    for game, members in _groups(blob, found, sources, hand_rows, starts, options):
        passed[members] = _play(game, members, found)
    return _reports(blob, found, sources, hand_rows, starts, several, passed, started)


def _groups(
    blob: bytes,
    found: scan.Scanned,
    sources: Sequence[str],
    hand_rows: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    options: ReplayOptions,
) -> list[tuple[GameDefinition, npt.NDArray[np.int64]]]:
    """The hands read, grouped by variant, stakes and players, with the game the kernel
    plays them under (groups it does not play are left out)."""
    read = np.flatnonzero(found.ok)
    if not len(read):
        return []
    players = found.players[read]
    stakes = np.concatenate(
        (
            players[:, None],
            found.numbers[read],
            found.arrays[read, scan.ROW_ANTES],
            found.arrays[read, scan.ROW_BLINDS],
        ),
        axis=1,
    )
    variants = [blob[found.variant[h, 0] : found.variant[h, 1]] for h in read]
    keys: dict[tuple[bytes, bytes], list[int]] = {}
    for i, (variant, row) in enumerate(zip(variants, stakes, strict=True)):
        keys.setdefault((variant, row.tobytes()), []).append(i)
    games: Games = {}
    groups = []
    for members in keys.values():
        if len(members) < _SMALLEST_GROUP:
            continue  # a game laid out for a hand or two costs more here than it saves
        chosen = read[np.array(members, dtype=np.int64)]
        game = _game_of(int(chosen[0]), found, sources, hand_rows, options, games, blob, starts)
        if game is not None:
            groups.append((game, chosen))
    return groups


def _game_of(
    h: int,
    found: scan.Scanned,
    sources: Sequence[str],
    hand_rows: npt.NDArray[np.int64],
    options: ReplayOptions,
    games: Games,
    blob: bytes,
    starts: npt.NDArray[np.int64],
) -> GameDefinition | None:
    """The game hand ``h`` is played under, as the Python reader reads it, if the kernel
    plays it and the reading agrees with the one here."""
    number = int(found.file[h])
    index = h - int(hand_rows[number])
    source = sources[number]
    if found.section[h, 1]:
        # The hand's own table, read alone.
        last = int(hand_rows[number + 1])
        end = int(found.section[h + 1, 0]) - 1 if h + 1 < last else int(starts[number + 1])
        text = blob[int(found.section[h, 0]) - 1 : end].decode()
        read = read_text(text, source, several=True)
        index = 0
    else:
        read = read_file(source)
    if read.error is not None or index >= len(read.hands):
        return None
    hand = read.hands[index].hand
    if hand is None:
        return None
    n = hand.player_count
    arrays = found.arrays[h]
    numbers = found.numbers[h]
    stakes = (hand.min_bet, hand.small_bet, hand.big_bet)
    if any(
        (-1 if given is None else given) != int(value)
        for given, value in zip(stakes, numbers, strict=True)
    ):
        return None
    for given, row in ((hand.antes, scan.ROW_ANTES), (hand.blinds_or_straddles, scan.ROW_BLINDS)):
        if list(given or ()) != [int(v) for v in arrays[row] if v >= 0]:
            return None
    if (
        n != found.players[h]
        or list(hand.starting_stacks) != list(arrays[scan.ROW_STARTING, :n])
        or hand.finishing_stacks is None
        or list(hand.finishing_stacks) != list(arrays[scan.ROW_FINISHING, :n])
    ):
        return None
    game = kernel_game_of(hand, options, games)
    if game is None or len(game.forced.blinds) > n:
        return None
    return game


def _play(
    game: GameDefinition, members: npt.NDArray[np.int64], found: scan.Scanned
) -> npt.NDArray[np.bool_]:
    """Whether the kernel ends each hand of ``members`` at its finishing stacks, with the
    chips each player put in that the count of its lines found."""
    hands = len(members)
    n = int(found.players[members[0]])
    forced = game.forced
    fixed = game.stakes.big_bet is not None
    bet_sizes = np.array([game.stakes.bet_size(r) for r in range(4)], dtype=np.int64)
    encoded = np.zeros(hands, dtype=np.bool_)
    put = np.zeros((hands, n), dtype=np.int64)
    offsets = np.zeros(hands + 1, dtype=np.int64)
    lines = found.line_offsets
    capacity = int((lines[members + 1] - lines[members]).sum())
    kinds = np.zeros(capacity, dtype=np.int8)
    totals = np.zeros(capacity, dtype=np.int64)
    count.count_actions(
        members, n, found.arrays[:, scan.ROW_STARTING], lines, found.line_kinds,
        found.line_seats, found.line_amounts, forced.ante,
        np.array(forced.blinds, dtype=np.int64), game.stakes.small_bet, fixed, bet_sizes,
        encoded, put, offsets, kinds, totals,
    )  # fmt: skip
    decks = np.zeros((hands, kernel.cards_dealt(n)), dtype=np.int8)
    count.decks(members, n, found.holes, found.board, decks)
    ok = np.zeros(hands, dtype=np.bool_)
    chosen = np.flatnonzero(encoded)
    if not len(chosen):
        return ok
    starts = offsets[chosen]
    ends = offsets[chosen + 1]
    lengths = ends - starts
    picked = np.repeat(starts - np.concatenate(([0], np.cumsum(lengths)[:-1])), lengths)
    picked += np.arange(int(lengths.sum()))
    seats = np.full(len(chosen), n, dtype=np.int8)
    batch = ReplayBatch(
        seats=seats,
        buttons=seats - 1,
        stacks=found.arrays[members[chosen], scan.ROW_STARTING, :n].copy(),
        decks=decks[chosen],
        action_offsets=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
        action_kinds=kinds[picked],
        action_totals=totals[picked],
    )
    try:
        result = replay(game, batch, contributions=True)
    except ValueError:
        return ok  # a hand the kernel refuses: the reference engine replays the group
    assert result.contributed is not None
    finishing = found.arrays[members[chosen], scan.ROW_FINISHING, :n]
    matched = (
        result.ok
        & np.all(result.contributed[:, :n] == put[chosen], axis=1)
        & np.all(result.stacks[:, :n] == finishing, axis=1)
    )
    ok[chosen] = matched
    return ok


def _reports(
    blob: bytes,
    found: scan.Scanned,
    sources: Sequence[str],
    hand_rows: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    several: npt.NDArray[np.bool_],
    passed: npt.NDArray[np.bool_],
    started: float,
) -> dict[int, QuickFile]:
    """What was found of each file: a single hand that passed, or the tables of a
    ``.phhs`` file (each named once) of which one passed at least."""
    each = (time.perf_counter() - started) / max(int(passed.sum()), 1)
    files: dict[int, QuickFile] = {}
    for number in np.unique(found.file[passed]).tolist():
        source = sources[number]
        first = int(hand_rows[number])
        last = int(hand_rows[number + 1])
        if not several[number]:
            result = ScenarioResult(file=source, name=source, outcome=Outcome.PASSED, seconds=each)
            files[number] = QuickFile((result,), report=FileReport(source, (result,)))
            continue
        spans = found.section[first:last]
        sections = [blob[int(a) : int(b)].decode() for a, b in spans]
        if len(set(sections)) != len(sections) or _TRIPLE_QUOTES.search(
            blob, int(starts[number]), int(starts[number + 1])
        ):
            continue  # the Python reader reads the whole file
        file = source.replace("\\", "/").rsplit("/", 1)[-1]
        results: list[ScenarioResult | None] = []
        rest: list[bytes] = []
        ends = [*(int(a) - 1 for a in spans[1:, 0]), int(starts[number + 1])]
        for h, section in enumerate(sections):
            if passed[first + h]:
                name = f"{file}#{section}"
                results.append(
                    ScenarioResult(file=source, name=name, outcome=Outcome.PASSED, seconds=each)
                )
            else:
                results.append(None)
                chunk = blob[int(spans[h, 0]) - 1 : ends[h]]
                rest.append(chunk if chunk.endswith(b"\n") else chunk + b"\n")
        settled = tuple(r for r in results if r is not None)
        report = None if rest else FileReport(source, settled)
        files[number] = QuickFile(tuple(results), b"".join(rest).decode(), report)
    return files
