"""Moving the button and the blinds between hands when players leave.

Rules 002_376df91f076a6501.txt, 'When a player in the blinds leaves the game': three rules,
and a special one for two players.

* Simplified moving button: the button moves to the next player; the small and big blinds
  post in the two seats to its left.  Players may miss blinds.
* Dead button: the big blind is posted by the player due for it; the small blind and the
  button are placed behind it and may fall on empty seats (then there is no small blind, or
  the button is dead).  There is exactly one big blind.
* Moving button: the button moves to the next occupied seat; the player two seats after it
  posts a big blind, and so does every player the big blind skipped past; every player who
  posted a big blind last hand posts a small blind.  Several blinds may be posted.
* Two players ('When there are only two players'): the button posts the small blind; when a
  table shrinks to two, the big blind keeps moving left and the button goes to the other.

Seats are numbered clockwise over the whole table, empty seats included.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum


class ButtonRule(StrEnum):
    SIMPLIFIED_MOVING = "simplified-moving-button"
    DEAD = "dead-button"
    MOVING = "moving-button"


@dataclass(frozen=True)
class Positions:
    """Where the button is and who posts which blind in a hand."""

    button: int
    small_blinds: tuple[int, ...]
    big_blinds: tuple[int, ...]


def _next_occupied(seat: int, occupied: Sequence[bool]) -> int:
    n = len(occupied)
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if occupied[candidate]:
            return candidate
    raise ValueError("no seat is occupied")


def _between(start: int, end: int, n: int) -> list[int]:
    """Seats strictly after ``start`` and up to ``end``, clockwise."""
    seats = []
    seat = (start + 1) % n
    while True:
        seats.append(seat)
        if seat == end:
            return seats
        seat = (seat + 1) % n


def next_positions(rule: ButtonRule, previous: Positions, occupied: Sequence[bool]) -> Positions:
    """The positions of the next hand, given the last hand's and the seats now occupied."""
    n = len(occupied)
    players = sum(occupied)
    if players < 2:
        raise ValueError("a hand needs at least two players")
    if not previous.big_blinds:
        raise ValueError("the last hand had no big blind to move on from")
    last_big = previous.big_blinds[-1]
    if players == 2:
        # The big blind keeps moving left; the other player has the button and small blind.
        big = _next_occupied(last_big, occupied)
        button = _next_occupied(big, occupied)
        return Positions(button, (button,), (big,))
    if rule is ButtonRule.SIMPLIFIED_MOVING:
        button = _next_occupied(previous.button, occupied)
        small = _next_occupied(button, occupied)
        return Positions(button, (small,), (_next_occupied(small, occupied),))
    if rule is ButtonRule.DEAD:
        big = _next_occupied(last_big, occupied)
        small_seat = (big - 1) % n
        button = (small_seat - 1) % n
        dead_small: tuple[int, ...] = (small_seat,) if occupied[small_seat] else ()
        return Positions(button, dead_small, (big,))
    button = _next_occupied(previous.button, occupied)
    big = _next_occupied(_next_occupied(button, occupied), occupied)
    bigs = tuple(s for s in _between(last_big, big, n) if occupied[s])
    smalls = tuple(s for s in previous.big_blinds if occupied[s])
    return Positions(button, smalls, bigs)


@dataclass(frozen=True)
class HandSeating:
    """A hand's seats for :class:`~simulations.engine.hand.Hand`, which numbers only the
    players dealt in: ``table_seats[i]`` is the table seat of hand seat ``i``.  A dead button
    on an empty seat is given to the player before it, who deals the same order of cards and
    action as the empty seat would; the blinds are in hand seats."""

    table_seats: tuple[int, ...]
    button: int
    small_blinds: tuple[int, ...]
    big_blinds: tuple[int, ...]


def hand_seating(positions: Positions, occupied: Sequence[bool]) -> HandSeating:
    """Number the players of the hand that ``positions`` describe, clockwise from seat 0."""
    table_seats = tuple(seat for seat, here in enumerate(occupied) if here)
    index = {seat: i for i, seat in enumerate(table_seats)}
    for seat in (*positions.small_blinds, *positions.big_blinds):
        if seat not in index:
            raise ValueError(f"blind seat {seat} is empty")
    button = positions.button
    n = len(occupied)
    while not occupied[button]:  # a dead button: the player before it plays its part
        button = (button - 1) % n
    return HandSeating(
        table_seats,
        index[button],
        tuple(index[s] for s in positions.small_blinds),
        tuple(index[s] for s in positions.big_blinds),
    )
