"""Whole files of hold'em hands replayed without reading them in Python: their bytes read by
compiled code (:mod:`simulations.phh.scan`) straight into the replay kernel's arrays
(:mod:`simulations.phh.count`), and played in one kernel call, each hand under its own
game.

A file is reported from here only when every one of its hands was read here and the kernel
ended each at the history's finishing stacks, with the chips each player put in as the count
of its lines found.  The game of the hands with the same variant, stakes and number of
players is laid out once, from the values the scan read, and only where
:mod:`simulations.phh.fast` would give such a hand to the kernel; the first hand of each
variant is also read by the Python reader, and the kernel takes the variant's hands only if
both readings agree.  Every other file is left to the Python reader and the reference
engine, whose verdict is the one reported.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from simulations.engine import replay_kernel as kernel
from simulations.engine.replay import ReplayBatch, replay_games
from simulations.phh import count, files, scan
from simulations.phh.fast import KernelGames, short_notes
from simulations.phh.options import ReplayOptions
from simulations.phh.read import SEVERAL, read_file, read_text
from simulations.phh.replay import hand_stakes
from simulations.phh.results import FileReport, Outcome, ScenarioResult
from simulations.phh.stakes import HandStakes

_TRIPLE_QUOTES = re.compile(rb"'''|\"\"\"")


@dataclass(frozen=True)
class QuickFile:
    """What the kernel settled of a file of which it did not settle every hand: each hand's
    result where it passed (None where the Python reader and the reference engine are to
    replay it), and the file's text of those other hands (its tables, headers included)."""

    results: tuple[ScenarioResult | None, ...]
    rest: str = ""


def replay_quick(
    paths: Sequence[str | Path], options: ReplayOptions, games: KernelGames | None = None
) -> dict[int, QuickFile | FileReport]:
    """What the kernel settled of the files of ``paths``, by their place in it: the hands it
    replayed to their finishing stacks, the file's report where it settled every hand
    (files of which it settled none are not in it).  ``games`` keeps the games laid out for
    the other hands of a run."""
    started = time.perf_counter()
    if games is None:
        games = KernelGames(options)
    sources = [str(path) for path in paths]
    several = [source.endswith(SEVERAL) for source in sources]
    is_several = np.array(several, dtype=np.bool_)
    data_array, starts = files.read_files(sources)
    hand_rows = np.zeros(len(sources) + 1, dtype=np.int64)
    np.cumsum(files.table_counts(data_array, starts, is_several), out=hand_rows[1:])
    hands = int(hand_rows[-1])
    if hands == 0:
        return {}
    blob = data_array.tobytes()
    found = scan.Scanned(hands, max(len(blob) // 6, 1))
    scan.scan(data_array, starts, is_several, hand_rows, found.ok, found.file, found.section,
              found.variant, found.players, found.numbers, found.arrays, found.holes,
              found.board, found.line_offsets, found.line_kinds, found.line_seats,
              found.line_amounts)  # fmt: skip
    taken, game_rows = _kernel_rows(blob, found, sources, hand_rows, starts, games)
    passed: dict[int, tuple[str, ...]] = {}
    if len(taken):
        passed = _play(taken, game_rows, found, games)
    return _reports(blob, found, sources, hand_rows, starts, several, passed, started)


def _kernel_rows(
    blob: bytes,
    found: scan.Scanned,
    sources: Sequence[str],
    hand_rows: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    games: KernelGames,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The hands read that the kernel plays, and the row of each one's game: each game
    laid out once per variant, stakes and players."""
    read = np.flatnonzero(found.ok)
    if not len(read):
        return read, read
    first_by_p1 = _first_by_p1(found, read)
    stakes = np.concatenate(
        (
            found.players[read, None],
            found.numbers[read],
            found.arrays[read, scan.ROW_ANTES],
            found.arrays[read, scan.ROW_BLINDS],
            first_by_p1[:, None],
        ),
        axis=1,
    )
    width = stakes.shape[1] * stakes.itemsize
    raw = stakes.tobytes()
    spans: list[list[int]] = found.variant[read].tolist()
    numbers: list[int] = read.tolist()
    firsts: list[bool] = first_by_p1.astype(np.bool_).tolist()
    # A hand of the stakes of the hand before it (a run of one-hand files of a session,
    # say) takes that hand's row without a look-up.
    again: list[bool] = [False, *np.all(stakes[1:] == stakes[:-1], axis=1).tolist()]
    chosen = np.full(len(read), -1, dtype=np.int64)
    agreed: dict[bytes, bool] = {}
    variant = b""
    row = -1
    for i, (first, last) in enumerate(spans):
        if again[i] and blob[first:last] == variant:
            if row >= 0 and agreed[variant]:
                chosen[i] = row
            continue
        variant = blob[first:last]
        key = (variant, raw[i * width : (i + 1) * width])
        known = games.known(key)
        if known is None:
            h = numbers[i]
            known = games.row(
                key, variant.decode(), _stakes(found, h), int(found.players[h]), firsts[i]
            )
        row = known
        if row >= 0 and games.games[row].rules.values_given:
            row = -1  # a draw game's hands are read by the Python reader (simulations.phh.fast)
        if row >= 0 and variant not in agreed:
            # The first hand of each variant is read by the Python reader too: if the two
            # readings differ, the kernel takes none of the variant's hands.
            agreed[variant] = _agrees(numbers[i], found, sources, hand_rows, starts, blob)
        if row >= 0 and agreed[variant]:
            chosen[i] = row
    keep = chosen >= 0
    return read[keep], chosen[keep]


def _first_by_p1(found: scan.Scanned, hands: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """1 where the first player's turn the history records (a fold, a check or call, a bet
    or raise) in hand ``hands[i]`` is ``p1``'s, else 0: heads-up with equal blinds, whose
    blind is the big one (:meth:`~simulations.phh.fast.KernelGames.row`)."""
    used = int(found.line_offsets[int(hands.max()) + 1])
    kinds = found.line_kinds[:used]
    turns = np.flatnonzero(
        (kinds == scan.LINE_FOLD) | (kinds == scan.LINE_CHECK_CALL) | (kinds == scan.LINE_BET_RAISE)
    )
    if not len(turns):
        return np.zeros(len(hands), dtype=np.int64)
    at = np.searchsorted(turns, found.line_offsets[hands])
    line = turns[np.minimum(at, len(turns) - 1)]
    inside = (at < len(turns)) & (line < found.line_offsets[hands + 1])
    first: npt.NDArray[np.int64] = (inside & (found.line_seats[line] == 0)).astype(np.int64)
    return first


def _stakes(found: scan.Scanned, h: int) -> HandStakes:
    """Hand ``h``'s stakes as the scan read them (None: a field not given)."""
    n = int(found.players[h])
    minimum, small, big = found.numbers[h].tolist()

    def entries(row: int) -> tuple[int, ...] | None:
        values: list[int] = found.arrays[h, row, :n].tolist()
        return None if values[0] < 0 else tuple(values)

    return HandStakes(
        antes=entries(scan.ROW_ANTES),
        blinds_or_straddles=entries(scan.ROW_BLINDS),
        small_bet=None if small < 0 else small,
        big_bet=None if big < 0 else big,
        min_bet=None if minimum < 0 else minimum,
    )


def _agrees(
    h: int,
    found: scan.Scanned,
    sources: Sequence[str],
    hand_rows: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    blob: bytes,
) -> bool:
    """Whether the Python reader reads hand ``h`` with the variant, stakes and stacks the
    scan found."""
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
        return False
    hand = read.hands[index].hand
    if hand is None:
        return False
    n = hand.player_count
    arrays = found.arrays[h]
    variant = blob[int(found.variant[h, 0]) : int(found.variant[h, 1])].decode()
    return (
        hand.variant == variant
        and _stakes(found, h) == hand_stakes(hand)
        and n == found.players[h]
        and list(hand.starting_stacks) == arrays[scan.ROW_STARTING, :n].tolist()
        and hand.finishing_stacks is not None
        and list(hand.finishing_stacks) == arrays[scan.ROW_FINISHING, :n].tolist()
    )


def _play(
    members: npt.NDArray[np.int64],
    game_rows: npt.NDArray[np.int64],
    found: scan.Scanned,
    games: KernelGames,
) -> dict[int, tuple[str, ...]]:
    """The hands of ``members`` (hand ``members[i]`` under game ``game_rows[i]``) the kernel
    ends at their finishing stacks, with the chips each player put in that the count of its
    lines found, in one call: by hand, the notes of its short all-ins."""
    hands = len(members)
    rules = games.rules()
    antes = np.array([r.ante for r in rules], dtype=np.int64)
    big_blind_antes = np.array([r.big_blind_ante for r in rules], dtype=np.int64)
    big_blind_antes_first = np.array([r.big_blind_ante_first for r in rules], dtype=np.bool_)
    straddle_seats, straddle_totals = games.straddle_table()
    counts = np.array([len(r.blinds) for r in rules], dtype=np.int64)
    blinds_left = np.array([r.heads_up_blinds_left for r in rules], dtype=np.bool_)
    blinds = np.zeros((len(rules), max(int(counts.max()), 1)), dtype=np.int64)
    for g, r in enumerate(rules):
        blinds[g, : len(r.blinds)] = r.blinds
    encoded = np.zeros(hands, dtype=np.bool_)
    put = np.zeros((hands, scan.MAX_PLAYERS), dtype=np.int64)
    offsets = np.zeros(hands + 1, dtype=np.int64)
    lines = found.line_offsets
    capacity = int((lines[members + 1] - lines[members]).sum())
    kinds = np.zeros(capacity, dtype=np.int8)
    totals = np.zeros(capacity, dtype=np.int64)
    seats_of = np.zeros(capacity, dtype=np.int64)
    count.count_actions(
        members, game_rows, found.players, found.arrays[:, scan.ROW_STARTING], lines,
        found.line_kinds, found.line_seats, found.line_amounts, antes, blinds, counts,
        blinds_left, big_blind_antes, big_blind_antes_first, straddle_seats, straddle_totals,
        encoded, put, offsets, kinds, totals, seats_of,
    )  # fmt: skip
    chosen = np.flatnonzero(encoded)
    if not len(chosen):
        return {}
    picked_members = members[chosen]
    players = found.players[picked_members]
    widest = int(players.max())
    decks = np.zeros((len(chosen), kernel.cards_dealt(widest)), dtype=np.int8)
    count.decks(picked_members, found.players, found.holes, found.board, decks)
    starts = offsets[chosen]
    lengths = offsets[chosen + 1] - starts
    ends = np.cumsum(lengths)
    picked = np.repeat(starts - (ends - lengths), lengths) + np.arange(int(ends[-1]))
    seated = np.arange(widest) < players[:, None]
    stacks = np.where(seated, found.arrays[picked_members, scan.ROW_STARTING, :widest], 0)
    seats = players.astype(np.int8)
    batch = ReplayBatch(
        seats=seats,
        buttons=seats - 1,
        stacks=stacks,
        decks=decks,
        action_offsets=np.concatenate(([0], ends)).astype(np.int64),
        action_kinds=kinds[picked],
        action_totals=totals[picked],
        straddle_seats=straddle_seats[game_rows[chosen]],
        straddle_totals=straddle_totals[game_rows[chosen]],
        action_seats=seats_of[picked].astype(np.int8),  # each line's player, in turn
    )
    try:
        result = replay_games(
            rules, game_rows[chosen], batch, contributions=True, short_wagers=True
        )
    except ValueError:
        return {}  # a hand the kernel refuses: the reference engine replays them all
    assert result.contributed is not None and result.short_of is not None
    finishing = np.where(seated, found.arrays[picked_members, scan.ROW_FINISHING, :widest], 0)
    matched = (
        result.ok
        & np.all(result.contributed[:, :widest] == put[chosen, :widest], axis=1)
        & np.all(result.stacks[:, :widest] == finishing, axis=1)
    )
    # The hands with a short all-in, noted as the reference engine notes them.
    short = result.short_of
    hand_of_action = np.repeat(np.arange(len(chosen)), lengths)
    noted = np.zeros(len(chosen), dtype=np.bool_)
    noted[hand_of_action[short > 0]] = True
    chosen_rows: list[int] = game_rows[chosen].tolist()
    action_offsets: list[int] = batch.action_offsets.tolist()
    noted_hands: list[bool] = noted.tolist()
    hands_of: list[int] = picked_members.tolist()
    passed: dict[int, tuple[str, ...]] = {}
    for i in np.flatnonzero(matched).tolist():
        game = games.games[chosen_rows[i]]
        notes = game.notes
        if noted_hands[i]:
            a, b = action_offsets[i], action_offsets[i + 1]
            notes += short_notes(
                game.game,
                short[a:b].tolist(),
                seats_of[picked[a:b]].tolist(),
                batch.action_totals[a:b].tolist(),
            )
        passed[hands_of[i]] = notes
    return passed


def _reports(
    blob: bytes,
    found: scan.Scanned,
    sources: Sequence[str],
    hand_rows: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    several: Sequence[bool],
    passed: dict[int, tuple[str, ...]],
    started: float,
) -> dict[int, QuickFile | FileReport]:
    """What was found of each file: a single hand that passed (``passed``: the hands that
    did, with their notes), or the tables of a ``.phhs`` file (each named once) of which one
    passed at least."""
    each = (time.perf_counter() - started) / max(len(passed), 1)
    files: dict[int, QuickFile | FileReport] = {}
    file_of: list[int] = found.file.tolist()
    tables: dict[int, None] = {}  # the files of several hands, in order
    for h, notes in passed.items():
        number = file_of[h]
        if several[number]:
            tables[number] = None
            continue
        source = sources[number]
        if notes:
            result = ScenarioResult(source, source, Outcome.PASSED, each, notes=notes)
        else:
            result = ScenarioResult(source, source, Outcome.PASSED, each)
        files[number] = FileReport(source, (result,))
    for number in tables:
        source = sources[number]
        first = int(hand_rows[number])
        last = int(hand_rows[number + 1])
        spans: list[list[int]] = found.section[first:last].tolist()
        sections = [blob[a:b].decode() for a, b in spans]
        if len(set(sections)) != len(sections) or _TRIPLE_QUOTES.search(
            blob, int(starts[number]), int(starts[number + 1])
        ):
            continue  # the Python reader reads the whole file
        file = source.replace("\\", "/").rsplit("/", 1)[-1]
        results: list[ScenarioResult | None] = []
        rest: list[bytes] = []
        ends = [*(a - 1 for a, _ in spans[1:]), int(starts[number + 1])]
        for h, section in enumerate(sections):
            noted = passed.get(first + h)
            if noted is not None:
                name = f"{file}#{section}"
                results.append(
                    ScenarioResult(
                        file=source, name=name, outcome=Outcome.PASSED, seconds=each, notes=noted
                    )
                )
            else:
                results.append(None)
                chunk = blob[spans[h][0] - 1 : ends[h]]
                rest.append(chunk if chunk.endswith(b"\n") else chunk + b"\n")
        if rest:
            files[number] = QuickFile(tuple(results), b"".join(rest).decode())
        else:
            files[number] = FileReport(source, tuple(r for r in results if r is not None))
    return files
