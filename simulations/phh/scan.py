"""PHH files read by compiled code straight into the replay kernel's arrays.

Many files' bytes, laid end to end, are read in one compiled pass.  Only the plainest form of
the hold'em histories is taken, as writers of PHH put it down: ``key = value`` lines with one
space either side of ``=``; a ``.phhs`` file's hands under headers ``[1]``, ``[2]``, ...;
values that are a string in single quotes of printable ASCII, ``true``/``false``, a whole
number, or a one-line array of those with ``, `` between the items; the keys ``variant``,
``ante_trimming_status``, ``antes``, ``blinds_or_straddles``, ``min_bet``, ``small_bet``,
``big_bet``, ``starting_stacks``, ``finishing_stacks``, ``actions``, ``hand`` and ``players``;
action lines ``d dh pN`` with two cards, ``d db`` with the flop, turn or river, ``pN f``,
``pN cc``, ``pN cbr AMOUNT`` and ``pN sm`` with none of the player's cards or some of them;
every card given and none dealt twice.  A hand outside that form is marked as not read
(``ok`` 0), never as an error: the Python reader (:mod:`simulations.phh.read`) reads it and
gives its verdict.

A second pass counts each read hand's actions against the game its group of stakes lays out
(:func:`count_actions`), as :mod:`simulations.phh.fast` does for a hand the Python reader
read, and gives the deck order and the kernel's action kinds and totals.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

MAX_PLAYERS = 10
DECK = 52

# Keys, by their index in the per-hand ``seen`` bits.
VARIANT = 0
TRIMMING = 1
ANTES = 2
BLINDS = 3
MIN_BET = 4
SMALL_BET = 5
BIG_BET = 6
STARTING = 7
FINISHING = 8
ACTIONS = 9
HAND = 10
PLAYERS = 11
_KEYS = (
    b"variant",
    b"ante_trimming_status",
    b"antes",
    b"blinds_or_straddles",
    b"min_bet",
    b"small_bet",
    b"big_bet",
    b"starting_stacks",
    b"finishing_stacks",
    b"actions",
    b"hand",
    b"players",
)
KEY_TEXT = np.frombuffer(b"".join(_KEYS), dtype=np.uint8).copy()
KEY_ENDS = np.cumsum(np.array([len(k) for k in _KEYS], dtype=np.int64))

# Line codes of the per-action arrays.
LINE_HOLE = 0
LINE_BOARD = 1
LINE_FOLD = 2
LINE_CHECK_CALL = 3
LINE_BET_RAISE = 4
LINE_SHOW = 5

_RANKS = b"23456789TJQKA"
_SUITS = b"cdhs"
RANK_OF = np.full(256, -1, dtype=np.int64)
SUIT_OF = np.full(256, -1, dtype=np.int64)
for _i, _c in enumerate(_RANKS):
    RANK_OF[_c] = _i
for _i, _c in enumerate(_SUITS):
    SUIT_OF[_c] = _i

_BIGGEST = 10**15  # a whole number with more digits is left to the Python reader
_QUOTE = 39  # '
_SPACE = 32
_COMMA = 44
_NEWLINE = 10
_OPEN = 91  # [
_CLOSE = 93  # ]


class Scanned:
    """The arrays :func:`scan` fills, one row per hand (``capacity`` rows)."""

    def __init__(self, capacity: int, line_capacity: int) -> None:
        self.ok = np.zeros(capacity, dtype=np.uint8)
        self.file = np.zeros(capacity, dtype=np.int64)
        self.section = np.zeros((capacity, 2), dtype=np.int64)  # header name's span
        self.variant = np.zeros((capacity, 2), dtype=np.int64)  # variant text's span
        self.players = np.zeros(capacity, dtype=np.int64)
        self.numbers = np.full((capacity, 3), -1, dtype=np.int64)  # min_bet, small, big bet
        self.arrays = np.full((capacity, 4, MAX_PLAYERS), -1, dtype=np.int64)
        self.holes = np.full((capacity, MAX_PLAYERS, 2), -1, dtype=np.int64)
        self.board = np.full((capacity, 5), -1, dtype=np.int64)
        self.line_offsets = np.zeros(capacity + 1, dtype=np.int64)
        self.line_kinds = np.zeros(line_capacity, dtype=np.int8)
        self.line_seats = np.zeros(line_capacity, dtype=np.int64)
        self.line_amounts = np.zeros(line_capacity, dtype=np.int64)


# Rows of ``Scanned.arrays``.
ROW_ANTES = 0
ROW_BLINDS = 1
ROW_STARTING = 2
ROW_FINISHING = 3


@nb.njit(cache=True)
def _key(data: npt.NDArray[np.uint8], start: int, end: int) -> int:
    """The index of the key ``data[start:end]`` among ``_KEYS``, or -1."""
    begin = 0
    for k in range(len(KEY_ENDS)):
        stop = KEY_ENDS[k]
        if stop - begin == end - start:
            same = True
            for i in range(end - start):
                if data[start + i] != KEY_TEXT[begin + i]:
                    same = False
                    break
            if same:
                return k
        begin = stop
    return -1


@nb.njit(cache=True)
def _number(data: npt.NDArray[np.uint8], start: int, end: int) -> int:
    """The whole number ``data[start:end]`` as TOML writes it (no sign, no leading zero),
    or -1."""
    if end <= start or end - start > 15:
        return -1
    if data[start] == 48 and end - start > 1:
        return -1
    value = 0
    for i in range(start, end):
        c = data[i]
        if c < 48 or c > 57:
            return -1
        value = value * 10 + (c - 48)
    return value if value < _BIGGEST else -1


@nb.njit(cache=True)
def _plain_string(data: npt.NDArray[np.uint8], start: int, end: int) -> bool:
    """``data[start:end]`` is a single-quoted string of printable ASCII."""
    if end - start < 2 or data[start] != _QUOTE or data[end - 1] != _QUOTE:
        return False
    for i in range(start + 1, end - 1):
        c = data[i]
        if c < 32 or c > 126 or c == _QUOTE or c == 92 or c == 34:
            return False
    return True


@nb.njit(cache=True)
def _items(data: npt.NDArray[np.uint8], start: int, end: int, spans: npt.NDArray[np.int64]) -> int:
    """Split the one-line array ``data[start:end]`` (``[a, b]``) into ``spans`` (item starts
    and ends); the item count, or -1 when it is not an array of that form.  Quoted items
    may hold ``, ``."""
    if end - start < 2 or data[start] != _OPEN or data[end - 1] != _CLOSE:
        return -1
    i = start + 1
    stop = end - 1
    count = 0
    if i == stop:
        return 0
    while True:
        if count >= spans.shape[0]:
            return -1
        begin = i
        if data[i] == _QUOTE:
            i += 1
            while i < stop and data[i] != _QUOTE:
                i += 1
            if i >= stop:
                return -1
            i += 1
        else:
            while i < stop and data[i] != _COMMA:
                i += 1
        spans[count, 0] = begin
        spans[count, 1] = i
        count += 1
        if i == stop:
            return count
        if i + 1 >= stop or data[i] != _COMMA or data[i + 1] != _SPACE:
            return -1
        i += 2


@nb.njit(cache=True)
def _card(data: npt.NDArray[np.uint8], at: int) -> int:
    rank = RANK_OF[data[at]]
    suit = SUIT_OF[data[at + 1]]
    if rank < 0 or suit < 0:
        return -1
    return int(rank * 4 + suit)


@nb.njit(cache=True)
def _seat(data: npt.NDArray[np.uint8], start: int, end: int, players: int) -> int:
    """The seat of ``pN`` (from 0), or -1."""
    if end - start < 2 or data[start] != 112:  # p
        return -1
    number = _number(data, start + 1, end)
    if number < 1 or number > players:
        return -1
    return number - 1


@nb.njit(cache=True)
def _line(
    data: npt.NDArray[np.uint8],
    start: int,
    end: int,
    players: int,
    words: npt.NDArray[np.int64],
    cards: npt.NDArray[np.int64],
) -> tuple[int, int, int, int]:
    """One action line ``data[start:end]`` (quotes excluded): (line code, seat, amount,
    number of ``cards``), the code -1 when it is outside the form read here."""
    count = 0
    i = start
    while i < end:
        if count >= words.shape[0]:
            return -1, 0, 0, 0
        begin = i
        while i < end and data[i] != _SPACE:
            i += 1
        if i == begin:
            return -1, 0, 0, 0  # two spaces, or a space first
        words[count, 0] = begin
        words[count, 1] = i
        count += 1
        if i < end:
            i += 1
            if i == end:
                return -1, 0, 0, 0  # a space last
    if count < 2:
        return -1, 0, 0, 0
    w0 = words[0, 0]
    w1 = words[1, 0]
    verb_length = words[1, 1] - w1
    if words[0, 1] - w0 == 1 and data[w0] == 100:  # d
        if verb_length != 2 or data[w1] != 100:
            return -1, 0, 0, 0
        if data[w1 + 1] == 104 and count == 4:  # dh
            seat = _seat(data, words[2, 0], words[2, 1], players)
            code = LINE_HOLE
            cards_at = 3
        elif data[w1 + 1] == 98 and count == 3:  # db
            seat = -1
            code = LINE_BOARD
            cards_at = 2
        else:
            return -1, 0, 0, 0
        if code == LINE_HOLE and seat < 0:
            return -1, 0, 0, 0
        length = words[cards_at, 1] - words[cards_at, 0]
        if length % 2 or length == 0 or length > 6:
            return -1, 0, 0, 0
        for k in range(length // 2):
            card = _card(data, words[cards_at, 0] + 2 * k)
            if card < 0:
                return -1, 0, 0, 0
            cards[k] = card
        return code, seat, 0, length // 2
    seat = _seat(data, w0, words[0, 1], players)
    if seat < 0:
        return -1, 0, 0, 0
    if verb_length == 1 and data[w1] == 102 and count == 2:  # f
        return LINE_FOLD, seat, 0, 0
    if verb_length == 2 and data[w1] == 99 and data[w1 + 1] == 99 and count == 2:  # cc
        return LINE_CHECK_CALL, seat, 0, 0
    if verb_length == 3 and data[w1] == 99 and data[w1 + 1] == 98 and data[w1 + 2] == 114:
        if count != 3:
            return -1, 0, 0, 0
        amount = _number(data, words[2, 0], words[2, 1])
        if amount < 0:
            return -1, 0, 0, 0
        return LINE_BET_RAISE, seat, amount, 0
    if verb_length == 2 and data[w1] == 115 and data[w1 + 1] == 109:  # sm
        if count == 2:
            return LINE_SHOW, seat, 0, 0
        if count != 3:
            return -1, 0, 0, 0
        length = words[2, 1] - words[2, 0]
        if length % 2 or length == 0 or length > 4:
            return -1, 0, 0, 0
        for k in range(length // 2):
            card = _card(data, words[2, 0] + 2 * k)
            if card < 0:
                return -1, 0, 0, 0
            cards[k] = card
        return LINE_SHOW, seat, 0, length // 2
    return -1, 0, 0, 0


# The scratch arrays a hand is read with, made once per scan: an array's spans, an action
# line's words, its cards, each card's holder, each seat's fold.
Work = tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.bool_],
]


@nb.njit(cache=True)
def _work() -> Work:
    return (
        np.zeros((64, 2), dtype=np.int64),
        np.zeros((4, 2), dtype=np.int64),
        np.zeros(3, dtype=np.int64),
        np.zeros(DECK, dtype=np.int64),
        np.zeros(MAX_PLAYERS, dtype=np.bool_),
    )


@nb.njit(cache=True)
def _hand(
    data: npt.NDArray[np.uint8],
    start: int,
    end: int,
    h: int,
    ok: npt.NDArray[np.uint8],
    variant: npt.NDArray[np.int64],
    players: npt.NDArray[np.int64],
    numbers: npt.NDArray[np.int64],
    arrays: npt.NDArray[np.int64],
    holes: npt.NDArray[np.int64],
    board: npt.NDArray[np.int64],
    line_offsets: npt.NDArray[np.int64],
    line_kinds: npt.NDArray[np.int8],
    line_seats: npt.NDArray[np.int64],
    line_amounts: npt.NDArray[np.int64],
    work: Work,
) -> None:
    """Read the ``key = value`` lines ``data[start:end]`` of one hand into row ``h``;
    ``ok[h]`` is 1 when every line is of the form read here and the hand is complete."""
    spans, words, cards, dealt, folded = work
    seen = 0
    actions_start = -1
    actions_end = -1
    names_start = -1
    names_end = -1
    i = start
    line_offsets[h + 1] = line_offsets[h]
    while i < end:
        stop = i
        while stop < end and data[stop] != _NEWLINE:
            stop += 1
        if stop > i:
            # key = value
            eq = i
            while eq < stop and data[eq] != _SPACE:
                eq += 1
            if eq + 3 > stop or data[eq + 1] != 61 or data[eq + 2] != _SPACE:
                return
            k = _key(data, i, eq)
            if k < 0 or (seen >> k) & 1:
                return
            seen |= 1 << k
            v0 = eq + 3
            if k == VARIANT:
                if not _plain_string(data, v0, stop):
                    return
                variant[h, 0] = v0 + 1
                variant[h, 1] = stop - 1
            elif k == TRIMMING:
                length = stop - v0
                is_true = length == 4 and data[v0] == 116 and data[v0 + 3] == 101
                is_true = is_true and data[v0 + 1] == 114 and data[v0 + 2] == 117
                is_false = length == 5 and data[v0] == 102 and data[v0 + 1] == 97
                is_false = is_false and data[v0 + 2] == 108 and data[v0 + 3] == 115
                is_false = is_false and data[v0 + 4] == 101
                if not (is_true or is_false):
                    return
            elif k in (MIN_BET, SMALL_BET, BIG_BET, HAND):
                value = _number(data, v0, stop)
                if value < 0:
                    return
                if k != HAND:
                    numbers[h, k - MIN_BET] = value
            elif k == ACTIONS:
                actions_start = v0
                actions_end = stop
            elif k == PLAYERS:
                names_start = v0
                names_end = stop
            else:
                row = (
                    ROW_ANTES
                    if k == ANTES
                    else ROW_BLINDS
                    if k == BLINDS
                    else ROW_STARTING
                    if k == STARTING
                    else ROW_FINISHING
                )
                count = _items(data, v0, stop, spans)
                if count < 0 or count > MAX_PLAYERS:
                    return
                for j in range(count):
                    value = _number(data, spans[j, 0], spans[j, 1])
                    if value < 0:
                        return
                    arrays[h, row, j] = value
                if row == ROW_STARTING:
                    players[h] = count
        i = stop + 1
    needed = (1 << VARIANT) | (1 << STARTING) | (1 << FINISHING) | (1 << ACTIONS)
    if seen & needed != needed:
        return
    n = players[h]
    if n < 2:
        return
    for j in range(n):
        if arrays[h, ROW_STARTING, j] <= 0:
            return
    for row in (ROW_ANTES, ROW_BLINDS, ROW_FINISHING):
        if row == ROW_ANTES and not (seen >> ANTES) & 1:
            continue
        if row == ROW_BLINDS and not (seen >> BLINDS) & 1:
            continue
        for j in range(MAX_PLAYERS):
            if (arrays[h, row, j] >= 0) != (j < n):
                return  # another count of entries than of players
    if names_start >= 0:
        count = _items(data, names_start, names_end, spans)
        if count != n:
            return
        for j in range(count):
            if not _plain_string(data, spans[j, 0], spans[j, 1]):
                return
    # The action lines, read one by one (an array of quoted strings).
    dealt[:] = 0  # 1 + seat, or -1 for the board; 0: not dealt
    folded[:] = False
    streets = 0
    at = line_offsets[h]
    a = actions_start
    if actions_end - a < 2 or data[a] != _OPEN or data[actions_end - 1] != _CLOSE:
        return
    a += 1
    last = actions_end - 1
    while a < last:
        if data[a] != _QUOTE:
            return
        b = a + 1
        while b < last and data[b] != _QUOTE:
            c = data[b]
            if c < 32 or c > 126 or c == 92 or c == 34:
                return
            b += 1
        if b >= last:
            return
        code, seat, amount, shown = _line(data, a + 1, b, n, words, cards)
        if code < 0 or at >= line_kinds.shape[0]:
            return
        if code == LINE_HOLE:
            if shown != 2 or holes[h, seat, 0] >= 0:
                return
            for k in range(2):
                if dealt[cards[k]] != 0:
                    return
                dealt[cards[k]] = seat + 1
                holes[h, seat, k] = cards[k]
        elif code == LINE_BOARD:
            expected = 3 if streets == 0 else 1
            if streets >= 3 or shown != expected:
                return
            for k in range(shown):
                if dealt[cards[k]] != 0:
                    return
                dealt[cards[k]] = -1
                board[h, (0 if streets == 0 else streets + 2) + k] = cards[k]
            streets += 1
        elif code == LINE_FOLD:
            folded[seat] = True
        elif code == LINE_SHOW:
            if folded[seat]:
                return
            for k in range(shown):
                if dealt[cards[k]] != seat + 1:
                    return  # a card not in his hand: the Python reader names it
        line_kinds[at] = code
        line_seats[at] = seat
        line_amounts[at] = amount
        at += 1
        a = b + 1
        if a == last:
            break
        if a + 2 > last or data[a] != _COMMA or data[a + 1] != _SPACE:
            return
        a += 2
    for s in range(n):
        if holes[h, s, 0] < 0:
            return
    line_offsets[h + 1] = at
    ok[h] = 1


@nb.njit(cache=True)
def _key_form(data: npt.NDArray[np.uint8], start: int, end: int) -> bool:
    """``data[start:end]`` starts with a bare key and `` = ``."""
    i = start
    while i < end:
        c = data[i]
        if not (48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122 or c == 95 or c == 45):
            break
        i += 1
    return (
        i > start
        and i + 3 <= end
        and data[i] == _SPACE
        and data[i + 1] == 61
        and (data[i + 2] == _SPACE)
    )


@nb.njit(cache=True)
def scan(
    data: npt.NDArray[np.uint8],
    file_starts: npt.NDArray[np.int64],
    several: npt.NDArray[np.bool_],
    hand_rows: npt.NDArray[np.int64],
    ok: npt.NDArray[np.uint8],
    file: npt.NDArray[np.int64],
    section: npt.NDArray[np.int64],
    variant: npt.NDArray[np.int64],
    players: npt.NDArray[np.int64],
    numbers: npt.NDArray[np.int64],
    arrays: npt.NDArray[np.int64],
    holes: npt.NDArray[np.int64],
    board: npt.NDArray[np.int64],
    line_offsets: npt.NDArray[np.int64],
    line_kinds: npt.NDArray[np.int8],
    line_seats: npt.NDArray[np.int64],
    line_amounts: npt.NDArray[np.int64],
) -> None:
    """Read every file's hands: file ``f`` is ``data[file_starts[f]:file_starts[f + 1]]``,
    its hands rows ``hand_rows[f]`` to ``hand_rows[f + 1]``; a ``several`` file's hands are
    its tables, which must be all of it."""
    work = _work()
    for f in range(len(file_starts) - 1):
        start = file_starts[f]
        end = file_starts[f + 1]
        row = hand_rows[f]
        if not several[f]:
            file[row] = f
            _hand(data, start, end, row, ok, variant, players, numbers, arrays, holes,
                  board, line_offsets, line_kinds, line_seats, line_amounts, work)  # fmt: skip
            continue
        # Tables: a header line ``[name]`` starts each hand.
        i = start
        current = -1
        body = start
        good = True
        while i < end:
            stop = i
            while stop < end and data[stop] != _NEWLINE:
                stop += 1
            if stop > i and data[i] == _OPEN:
                if data[stop - 1] != _CLOSE or stop - i < 3:
                    good = False
                    break
                for j in range(i + 1, stop - 1):
                    c = data[j]
                    if not (48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122 or c == 95):
                        good = False
                if current >= 0:
                    file[row + current] = f
                    h = row + current
                    _hand(data, body, i, h, ok, variant, players, numbers, arrays, holes, board,
                          line_offsets, line_kinds, line_seats, line_amounts, work)  # fmt: skip
                current += 1
                if row + current >= hand_rows[f + 1]:
                    good = False
                    break
                section[row + current, 0] = i + 1
                section[row + current, 1] = stop - 1
                body = stop + 1
            elif stop > i and (current < 0 or not _key_form(data, i, stop)):
                # A field outside every table, or a line that may continue another: the
                # tables cannot be told apart without reading the whole file as TOML.
                good = False
                break
            i = stop + 1
        if current >= 0 and good:
            file[row + current] = f
            _hand(data, body, end, row + current, ok, variant, players, numbers, arrays,
                  holes, board, line_offsets, line_kinds, line_seats, line_amounts,
                  work)  # fmt: skip
        if not good or current + 1 != hand_rows[f + 1] - row:
            for r in range(row, hand_rows[f + 1]):
                ok[r] = 0
                file[r] = f
            # Later hands' lines start where the last good one ended.
        last = hand_rows[f + 1]
        for r in range(row, last):
            if line_offsets[r + 1] < line_offsets[r]:
                line_offsets[r + 1] = line_offsets[r]
        if last > 0 and line_offsets[last] < line_offsets[row]:
            line_offsets[last] = line_offsets[row]
