"""Who a bad-beat jackpot pays at the end of one hold'em hand, and how much.

Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot': the jackpot is paid when a strong
enough hand is shown down and loses to a stronger hand held by another player; the
qualifiers (the losing hand's floor, both hole cards playing, ...) are the cardroom's and
are read as :class:`~simulations.rules.jackpot.BadBeatRules` reads them and judged by its
:func:`~simulations.rules.jackpot.qualifies`.  The jackpot is
then split among the players at the table — usually half to the losing hand, a quarter to
the winning hand and a quarter shared by the others, those who folded included.

Readings where the text is silent: only the players who reached the showdown can hit it;
the *losing hand* is the best qualifying hand shown that lost, the *winning hand* the best
qualifying hand shown (at or above the winning floor) — the same verdict as the bad-beat
job's (:mod:`simulations.models.bad_beat`); players tied on either hand share
its part; each part is rounded down to whole chips, and a part split among several players
gives its odd chips to the first of them clockwise from the button (as a split pot does);
the table's part goes to every other player dealt in, and is not paid when there is nobody
else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from simulations.cards import Card
from simulations.evaluators.high import TABLES, evaluate_high
from simulations.rules.jackpot import BadBeatRules, qualifies

HOLE_CARDS = 2
BOARD_CARDS = 5


@dataclass(frozen=True)
class JackpotRules:
    """A house's bad-beat jackpot: the qualifiers, its size when hit (None: not given) and
    the parts, in per cent of it, of the losing hand, the winning hand and the table."""

    qualifiers: BadBeatRules
    amount: int | None = None
    loser_share: int = 50
    winner_share: int = 25
    table_share: int = 25

    def __post_init__(self) -> None:
        shares = (self.loser_share, self.winner_share, self.table_share)
        if any(not 0 <= s <= 100 for s in shares) or sum(shares) > 100:
            raise ValueError("the shares are per cent of the jackpot: 0 to 100, 100 at most in all")


@dataclass(frozen=True)
class JackpotVerdict:
    """Whether the jackpot is hit; the seats holding the losing and the winning hand; and,
    when the jackpot's amount is known, what each seat is paid (seat, chips)."""

    hit: bool
    losers: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    pays: tuple[tuple[int, int], ...] = ()


def qualifying_value(
    board: Sequence[Card], hole: Sequence[Card], rules: BadBeatRules
) -> int | None:
    """The player's best high hand if it qualifies as a bad-beat hand (at or above the
    losing floor, and meeting the card conditions of
    :func:`~simulations.rules.jackpot.qualifies`), else None."""
    best = evaluate_high([*board, *hole]).value
    if best < rules.losing_floor:
        return None
    t = TABLES
    hole_cards = np.array(hole, dtype=np.int64)
    board_cards = np.array(board, dtype=np.int64)
    qualifier = rules.qualifier()
    tables = (t.card_keys, t.flush_values, t.row_offsets, t.rank_values)
    if not qualifies(hole_cards, board_cards, best, qualifier, *tables):
        return None
    return best


def judge(
    board: Sequence[Card],
    holes: Mapping[int, Sequence[Card]],
    rules: JackpotRules,
    *,
    players: int,
    button: int,
) -> JackpotVerdict:
    """The verdict for the hands shown down (``holes``: seat -> hole cards) at a table of
    ``players`` seats."""
    qualifying = {
        seat: value
        for seat, hole in holes.items()
        if (value := qualifying_value(board, hole, rules.qualifiers)) is not None
    }
    floor = rules.qualifiers.winning_floor
    winning = [v for v in qualifying.values() if v >= floor]
    if not winning:
        return JackpotVerdict(False)
    best = max(winning)
    beaten = [v for v in qualifying.values() if v < best]
    if not beaten:
        return JackpotVerdict(False)
    losing = max(beaten)
    winners = _clockwise([s for s, v in qualifying.items() if v == best], button, players)
    losers = _clockwise([s for s, v in qualifying.items() if v == losing], button, players)
    if rules.amount is None:
        return JackpotVerdict(True, tuple(losers), tuple(winners))
    pays: dict[int, int] = {}
    others = _clockwise(
        [s for s in range(players) if s not in winners and s not in losers], button, players
    )
    for share, seats in (
        (rules.loser_share, losers),
        (rules.winner_share, winners),
        (rules.table_share, others),
    ):
        part = rules.amount * share // 100
        for index, seat in enumerate(seats):
            chips = part // len(seats) + (part % len(seats) if index == 0 else 0)
            pays[seat] = pays.get(seat, 0) + chips
    return JackpotVerdict(True, tuple(losers), tuple(winners), tuple(sorted(pays.items())))


def _clockwise(seats: Sequence[int], button: int, players: int) -> list[int]:
    """``seats`` from the first left of the button, clockwise."""
    return sorted(seats, key=lambda seat: (seat - button - 1) % players)
