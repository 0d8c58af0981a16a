"""Which of a player's cards may form his five-card hand, as data.

A :class:`Selection` lists how many hole cards a hand may use and which sets of board
positions may be used together ("boards": one line of a double board, an arm of the cross, a
row of the tic-tac-toe grid); a hand takes ``h`` hole cards for an allowed ``h`` and ``5 - h``
cards of one board.  Games are data, so a game names its selection; the presets below are the
rule texts' games (rules 002 'Community cards', 000 'Billabong').

A selection may also cap how many of some of the row's cards one hand uses (:class:`Cap`: stud
with extra downcards, of which only some may play), and a hand may be fewer than five cards
(``size``: Indian poker's one card).

Rows of a batch are a player's hole cards followed by the whole board in the game's layout
order (each preset documents its layout).  Evaluation of high hands:

* :func:`evaluate_selection` is the reference: every allowed five valued by ``evaluate_high``;
* :func:`evaluate_selection_batch` is compiled: the best five of a whole row when any five may
  play (the high evaluator up to seven cards, the ranking-system engine beyond), the
  two-plus-three kernel of ``omaha`` when exactly two hole cards play, and otherwise a loop over
  the allowed fives, each valued from its summed card keys.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from math import comb
from typing import TypeVar

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.cards import FIRST_JOKER, format_card, is_joker_code, parse_cards
from simulations.evaluators.hand_input import row_array
from simulations.evaluators.hand_value import HandValue
from simulations.evaluators.high import (
    TABLES,
    batch_values,
    card_bit,
    evaluate_high,
    flush_suit,
    high_value,
)
from simulations.evaluators.high_tables import HighTables
from simulations.evaluators.omaha import two_plus_three_batch
from simulations.evaluators.ranking import Ranked
from simulations.evaluators.systems import STANDARD, evaluate_system_batch

HAND_SIZE = 5
R = TypeVar("R", bound=Ranked)


@dataclass(frozen=True)
class Cap:
    """No more than ``most`` of the row's columns ``positions`` in one hand.

    Rules 000_1a86611de8d3f5f7.txt, 'One can also vary any stud game by dealing extra
    downcards': "adding a restriction on how many of those hole cards may be played in the
    final hand" — "each player may only use one of his two downcards" (Crocodile stud), "a
    player may use no more than two of those cards" (Buffalo stud), and so Murrumbidgee and
    Zanetti stud.  A stud row is the player's cards in the order dealt (down cards before up
    cards in a deal), so the first round's downcards are its first columns."""

    positions: tuple[int, ...]
    most: int

    def __post_init__(self) -> None:
        if not self.positions or len(set(self.positions)) != len(self.positions):
            raise ValueError("a cap names one or more distinct cards")
        if min(self.positions) < 0:
            raise ValueError("a cap's card positions count from 0")
        if not 0 <= self.most < len(self.positions):
            raise ValueError(
                f"a cap on {len(self.positions)} cards allows 0 to {len(self.positions) - 1} "
                f"of them (all of them is no cap), not {self.most}"
            )

    def allows(self, combo: Sequence[int]) -> bool:
        return sum(column in self.positions for column in combo) <= self.most

    @property
    def label(self) -> str:
        """'at most 1 of the first 2 cards', 'at most 2 of cards 4, 5, 6, 7' (counting from 1)."""
        ordered = sorted(self.positions)
        if ordered == list(range(len(ordered))):
            return f"at most {self.most} of the first {len(ordered)} cards"
        return f"at most {self.most} of cards {', '.join(str(p + 1) for p in ordered)}"


@dataclass(frozen=True)
class Selection:
    """Allowed (hole-card count, board) combinations for a game's five-card hand (or a hand
    of ``size`` cards), within the ``caps``."""

    name: str
    hole_cards: int  # hole cards a player holds at the showdown
    board_cards: int  # cards on the board, in the layout order of the game
    hole_counts: tuple[int, ...]  # how many hole cards a hand may use
    boards: tuple[tuple[int, ...], ...] = ()  # usable board position sets; () = whole board
    caps: tuple[Cap, ...] = ()  # at most so many of these columns in one hand
    size: int = HAND_SIZE  # cards in a hand: five, but one in Indian poker

    def __post_init__(self) -> None:
        if self.hole_cards < 0 or self.board_cards < 0:
            raise ValueError(f"{self.name}: card counts cannot be negative")
        if self.hole_cards + self.board_cards > 64:
            raise ValueError(f"{self.name}: at most 64 cards per player")
        if not 1 <= self.size <= HAND_SIZE:
            raise ValueError(f"{self.name}: a hand is 1 to {HAND_SIZE} cards, not {self.size}")
        if not self.hole_counts or sorted(set(self.hole_counts)) != list(self.hole_counts):
            raise ValueError(f"{self.name}: hole_counts must be distinct and increasing")
        if self.hole_counts[0] < 0 or self.hole_counts[-1] > min(self.size, self.hole_cards):
            raise ValueError(
                f"{self.name}: a hand uses 0 to {min(self.size, self.hole_cards)} hole cards"
            )
        for cap in self.caps:
            if max(cap.positions) >= self.row_width:
                raise ValueError(
                    f"{self.name}: a cap names card {max(cap.positions) + 1} of a row of "
                    f"{self.row_width}"
                )
        for board in self.boards:
            if not board or len(set(board)) != len(board):
                raise ValueError(f"{self.name}: a board is a non-empty set of positions")
            if not all(0 <= p < self.board_cards for p in board):
                raise ValueError(f"{self.name}: board positions lie in 0..{self.board_cards - 1}")
        if not self.combos:
            raise ValueError(f"{self.name}: no allowed combination makes a hand")

    @property
    def row_width(self) -> int:
        return self.hole_cards + self.board_cards

    @property
    def usable_boards(self) -> tuple[tuple[int, ...], ...]:
        return self.boards or (tuple(range(self.board_cards)),)

    def board_combos(self, board: Sequence[int]) -> list[tuple[int, ...]]:
        """Every allowed hand using ``board``, as sorted column indices of a row."""
        found = []
        for used in self.hole_counts:
            if self.size - used > len(board):
                continue
            for hole in itertools.combinations(range(self.hole_cards), used):
                for rest in itertools.combinations(sorted(board), self.size - used):
                    combo = hole + tuple(self.hole_cards + p for p in rest)
                    if all(cap.allows(combo) for cap in self.caps):
                        found.append(combo)
        return found

    @cached_property
    def combos(self) -> tuple[tuple[int, ...], ...]:
        """Every allowed five over all boards (each once), as sorted column indices."""
        found: set[tuple[int, ...]] = set()
        for board in self.usable_boards:
            found.update(self.board_combos(board))
        return tuple(sorted(found))

    @cached_property
    def combo_array(self) -> npt.NDArray[np.int8]:
        array = np.array(self.combos, dtype=np.int8).reshape(-1, self.size)
        array.setflags(write=False)
        return array

    @property
    def plays_any_five(self) -> bool:
        """Whether every five of the row may play (hold'em, stud)."""
        return self.size == HAND_SIZE and len(self.combos) == comb(self.row_width, HAND_SIZE)

    @cached_property
    def board_triples(self) -> npt.NDArray[np.int8] | None:
        """For exactly two hole cards (and no cap): every usable three of the board; otherwise
        None."""
        if self.hole_counts != (2,) or self.caps or self.size != HAND_SIZE:
            return None
        triples = sorted(
            {t for board in self.usable_boards for t in itertools.combinations(sorted(board), 3)}
        )
        array = np.array(triples, dtype=np.int8).reshape(-1, 3)
        array.setflags(write=False)
        return array


def any_five(
    name: str, hole_cards: int, board_cards: int, boards: tuple[tuple[int, ...], ...] = ()
) -> Selection:
    """Any five of the hole cards and one board, in any combination."""
    return at_most(name, min(HAND_SIZE, hole_cards), hole_cards, board_cards, boards)


def at_most(
    name: str,
    used: int,
    hole_cards: int,
    board_cards: int,
    boards: tuple[tuple[int, ...], ...] = (),
) -> Selection:
    """No more than ``used`` hole cards, the rest from one board (Tahoe, Shanghai)."""
    largest = max(len(b) for b in boards) if boards else board_cards
    counts = tuple(h for h in range(used + 1) if HAND_SIZE - h <= largest)
    return Selection(name, hole_cards, board_cards, counts, boards)


def capped(selection: Selection, caps: tuple[Cap, ...], name: str | None = None) -> Selection:
    """``selection`` with no more than so many of some cards in a hand (see :class:`Cap`)."""
    return replace(selection, name=name or selection.name, caps=caps)


def any_cards(name: str, size: int, hole_cards: int, board_cards: int = 0) -> Selection:
    """Any ``size`` of the hole and board cards: a hand shorter than five (Indian poker's
    single card)."""
    counts = tuple(h for h in range(min(size, hole_cards) + 1) if size - h <= board_cards)
    return Selection(name, hole_cards, board_cards, counts, size=size)


def exactly(
    name: str,
    used: int,
    hole_cards: int,
    board_cards: int,
    boards: tuple[tuple[int, ...], ...] = (),
) -> Selection:
    """Exactly ``used`` hole cards with ``5 - used`` cards of one board (Omaha, Manila)."""
    return Selection(name, hole_cards, board_cards, (used,), boards)


# --- the rule texts' games (rules 002 'Community cards' unless noted) -----------------------------

FIVE_CARDS = any_five("Five-card stud and draw", 5, 0)
SEVEN_CARD_STUD = any_five("Seven-card stud", 7, 0)
TEXAS_HOLDEM = any_five("Texas hold'em", 2, 5)
# 'Omaha hold 'em': exactly three of the five board cards plus exactly two of his own cards.
OMAHA = exactly("Omaha", 2, 4, 5)
FIVE_CARD_OMAHA = exactly("Omaha with five hole cards", 2, 5, 5)
COURCHEVAL = exactly("Courcheval", 2, 4, 5)  # the text's spelling
# 'Manila': both of his hole cards with exactly three of the five community cards.
MANILA = exactly("Manila", 2, 2, 5)
MANILA_THREE_HOLE = exactly("Manila with three hole cards", 2, 3, 5)
EAST_VILLAGE = exactly("East Village", 2, 5, 5)
# 'Tahoe': none, one, or two cards from his hand.
TAHOE = at_most("Tahoe", 2, 3, 5)
# 'Super hold'em': may use all three private cards.
SUPER_HOLDEM = any_five("Super hold'em", 3, 5)
CINCINNATI = any_five("Cincinnati", 5, 5)
# Rules 000 'Billabong': the three in his hand plus the four on the board in any combination.
BILLABONG = any_five("Billabong", 3, 4)
# Rules 000 'Shanghai': no more than two of the three downcards play; the "board" here is the
# player's upcard followed by the four community cards, all of which may play.
SHANGHAI = at_most("Shanghai", 2, 3, 5)
# Rules 000 'Murrumbidgee': three downcards, no more than two of them used, five upcards.
MURRUMBIDGEE_STUD = at_most("Murrumbidgee stud", 2, 3, 5)
OXFORD_STUD = any_five("Oxford stud", 4, 3)
LAME_BRAIN_PETE = any_five("Lame-brain Pete", 3, 4)
# 'Double-board hold 'em': two five-card boards, positions 0-4 and 5-9; each board's best hand
# takes half the pot (see evaluate_per_board).
DOUBLE_BOARD_HOLDEM = any_five("Double-board hold'em", 2, 10, ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9)))
# 'Iron cross': five hole cards and the three cards of either arm.  Layout: left, right, top,
# bottom, then the center card (dealt last).
IRON_CROSS = any_five("Iron cross", 5, 5, ((0, 4, 1), (2, 4, 3)))
# 'Chowaha': both hole cards plus three from one of the valid boards F1-F1-F1-T1-R1,
# F2-F2-F2-T1-R1, F2-F2-F2-T2-R1 and F3-F3-F3-T2-R1.  Layout: F1 (0-2), F2 (3-5), F3 (6-8),
# T1 (9), T2 (10), R1 (11).
CHOWAHA = exactly(
    "Chowaha",
    2,
    2,
    12,
    ((0, 1, 2, 9, 11), (3, 4, 5, 9, 11), (3, 4, 5, 10, 11), (6, 7, 8, 10, 11)),
)
# 'Tic tac toe': the 3x3 grid row by row (positions 0-8); his cards plus any row, column or
# diagonal of three.
TIC_TAC_TOE_LINES = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
TIC_TAC_TOE = exactly("Tic tac toe", 2, 2, 9, TIC_TAC_TOE_LINES)
# 'Six-pack': the circle clockwise from 12 o'clock (12, 2, 4, 6, 8, 10 as 0-5); his two cards
# with any three consecutive cards of the board.
SIX_PACK_LINES = tuple(tuple((start + k) % 6 for k in range(3)) for start in range(6))
SIX_PACK = exactly("Six-pack", 2, 2, 6, SIX_PACK_LINES)
# 'Otis Elevator': four hole cards; the "H" as top-left, top-right, middle-left, middle-right,
# bottom-left, bottom-right, then the elevator (center) card; each floor is its two cards with
# the elevator, and the hand is made from the hole cards with one floor.
OTIS_ELEVATOR = any_five("Otis Elevator", 4, 7, ((0, 1, 6), (2, 3, 6), (4, 5, 6)))


def tic_tac_toe(hole_cards: int) -> Selection:
    """Tic tac toe dealt three or four hole cards: still exactly two of them play."""
    return exactly(f"Tic tac toe, {hole_cards} hole cards", 2, hole_cards, 9, TIC_TAC_TOE_LINES)


def six_pack(hole_cards: int) -> Selection:
    """Six-pack with three hole cards: exactly two of them plus three consecutive board cards."""
    return exactly(f"Six-pack, {hole_cards} hole cards", 2, hole_cards, 6, SIX_PACK_LINES)


# --- evaluation -----------------------------------------------------------------------------------


def _five(selection: Selection) -> None:
    """The high evaluators value five-card hands only."""
    if selection.size != HAND_SIZE:
        raise ValueError(f"{selection.name}: a hand of {selection.size} cards is not a high hand")


def _row(selection: Selection, hole: str | Sequence[int], board: str | Sequence[int]) -> list[int]:
    """The player's row (hole then board) as checked standard card codes."""
    parts = []
    for cards, what, count in (
        (hole, "hole cards", selection.hole_cards),
        (board, "board cards", selection.board_cards),
    ):
        parsed = parse_cards(cards) if isinstance(cards, str) else cards
        codes = []
        for code in parsed:
            if isinstance(code, bool) or not isinstance(code, int | np.integer):
                raise ValueError(f"{code!r} among the {what} is not a card code")
            codes.append(int(code))
        if len(codes) != count:
            raise ValueError(f"{selection.name} needs {count} {what}, got {len(codes)}")
        parts.extend(codes)
    seen: set[int] = set()
    for card in parts:
        if not 0 <= card < FIRST_JOKER + 4:
            raise ValueError(f"{card!r} is not a card code")
        if card in seen:
            raise ValueError(f"duplicate card {format_card(card)}")
        seen.add(card)
    return parts


def best_of(
    selection: Selection,
    hole: str | Sequence[int],
    board: str | Sequence[int],
    evaluate: Callable[[list[int]], R],
) -> R:
    """The best allowed hand under any evaluator of hands of the selection's size (five cards:
    stripped decks, wild cards, lows; one card: Indian poker)."""
    row = _row(selection, hole, board)
    return max(
        (evaluate([row[j] for j in combo]) for combo in selection.combos),
        key=lambda ranked: ranked.value,
    )


def evaluate_selection(
    selection: Selection, hole: str | Sequence[int], board: str | Sequence[int]
) -> HandValue:
    """The best high hand the selection allows (reference: every five by ``evaluate_high``)."""
    _five(selection)
    row = _row(selection, hole, board)
    for card in row:
        if is_joker_code(card):
            raise ValueError(f"{selection.name} high hands have no wild cards, got a joker")
    return max(evaluate_high([row[j] for j in combo]) for combo in selection.combos)


def evaluate_per_board(
    selection: Selection, hole: str | Sequence[int], board: str | Sequence[int]
) -> tuple[HandValue, ...]:
    """The best high hand on each board separately (double-board hold'em splits by board)."""
    _five(selection)
    row = _row(selection, hole, board)
    for card in row:
        if is_joker_code(card):
            raise ValueError(f"{selection.name} high hands have no wild cards, got a joker")
    return tuple(
        max(evaluate_high([row[j] for j in combo]) for combo in selection.board_combos(b))
        for b in selection.usable_boards
    )


@nb.njit(cache=True)
def combo_values(
    hands: npt.NDArray[np.int8],
    combos: npt.NDArray[np.int8],
    tables: HighTables,
    out: npt.NDArray[np.int32],
) -> None:
    """Each row's best high value over the five-card column subsets ``combos`` (unchecked)."""
    card_keys, flush_values, row_offsets, rank_values = tables
    width = hands.shape[1]
    keys = np.empty(width, dtype=np.int64)
    bits = np.empty(width, dtype=np.int64)
    for i in range(hands.shape[0]):
        for j in range(width):
            keys[j] = card_keys[hands[i, j]]
            bits[j] = card_bit(hands[i, j])
        best = 0
        for c in range(combos.shape[0]):
            a, b, x, y, z = combos[c, 0], combos[c, 1], combos[c, 2], combos[c, 3], combos[c, 4]
            key = keys[a] + keys[b] + keys[x] + keys[y] + keys[z]
            suited = 0
            if flush_suit(key) >= 0:  # the suited bits only for a flush
                suited = bits[a] | bits[b] | bits[x] | bits[y] | bits[z]
            value = high_value(key, suited, flush_values, row_offsets, rank_values)
            if value > best:
                best = value
        out[i] = best


def _batch_array(selection: Selection, hands: npt.ArrayLike, check: bool) -> npt.NDArray[np.int8]:
    _five(selection)
    rows = (
        f"{selection.name} rows hold {selection.hole_cards} hole and "
        f"{selection.board_cards} board cards"
    )
    return row_array(hands, selection.row_width, rows, check=check)


def _combo_batch(
    hands: npt.NDArray[np.int8], combos: npt.NDArray[np.int8]
) -> npt.NDArray[np.int32]:
    out = np.empty(hands.shape[0], dtype=np.int32)
    combo_values(hands, combos, TABLES, out)
    return out


def evaluate_selection_batch(
    selection: Selection, hands: npt.ArrayLike, *, check: bool = True
) -> npt.NDArray[np.int32]:
    """High values of an ``(n, hole + board)`` array under ``selection``, one per row."""
    array = _batch_array(selection, hands, check)
    if selection.plays_any_five and array.shape[1] <= 7:
        out = np.empty(array.shape[0], dtype=np.int32)
        batch_values(array, TABLES, out)
        return out
    if selection.plays_any_five:
        # Beyond seven cards, valuing the whole row beats trying every five (252 of ten).
        return evaluate_system_batch(STANDARD, array, check=False)
    triples = selection.board_triples
    if triples is not None:
        return two_plus_three_batch(array, selection.hole_cards, triples)
    return _combo_batch(array, selection.combo_array)


def evaluate_per_board_batch(
    selection: Selection, hands: npt.ArrayLike, *, check: bool = True
) -> npt.NDArray[np.int32]:
    """High values on each board separately: an ``(n, boards)`` array."""
    array = _batch_array(selection, hands, check)
    columns = []
    for board in selection.usable_boards:
        combos = np.array(selection.board_combos(board), dtype=np.int8)
        columns.append(_combo_batch(array, combos))
    return np.stack(columns, axis=1)
