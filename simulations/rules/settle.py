"""Settling a hand's money: the uncalled bet, the main pot and side pots, and each pot's award
among its winners clockwise from the button, one compiled source for the reference engine
(:mod:`simulations.engine.pots`, :mod:`simulations.engine.settle`), the replay kernel, the
PHH fast path and the job kernels (:mod:`simulations.models.table_kernel`,
:mod:`simulations.models.guts_kernel`).

* **The uncalled bet** (:func:`uncalled_bet`): Rules 001_af8fb40237a5ae1f.txt, 'The original
  bettor then takes back the part of his bet that exceeds the amount of the call'.
* **Chips no live player can win** (:func:`return_above_live`): Rules
  004_53770b236994c31b.txt, an all-in player 'may not win any more money from any player
  above the amount of his bet'; what stands above every live player's contribution nobody
  still in the hand can win, and it goes back to those who put it in.
* **The main pot and side pots** (:func:`side_pot`): Rules 004_53770b236994c31b.txt, 'his $5,
  and $5 from each of the other players, is collected into the central pot (now called the
  main pot) ... The remaining money from the still-active bettors ... is collected into a side
  pot that only the players who contributed to it are eligible to win'.  A pot closes at each
  distinct contribution of a player still in; folded players' chips count in every pot they
  reached, and they are eligible for none.
* **The winners of a pot** (:func:`best_hands`): Rules 001_af8fb40237a5ae1f.txt, 'a
  showdown if more than one player remains, in which the player with the best hand wins the
  pot'; of the players eligible for the pot, those holding the best value, ties all
  together (they split it).
* **The award** (:func:`award_clockwise`): the pot split equally among its winners, 'with any
  extra chips going to the person closest to the button in clockwise order' (Rules
  000_1a86611de8d3f5f7.txt; the odd-chip rule itself is
  :func:`simulations.rules.odd_chips.winner_chips`).

Seats are numbered clockwise from 0; a set of seats is a bit mask (seat ``s`` is bit ``s``).
Contributions are any sequence of integers indexed by seat — a NumPy ``int64`` array (a
kernel passes the first ``n`` slots of its arrays) or, run as plain Python (``.py_func``, or
:func:`simulations.rules.tiers.plain_python`), a list.
"""

from __future__ import annotations

from typing import Any

import numba as nb

from simulations.rules.odd_chips import winner_chips

NO_SEAT = -1


@nb.njit(cache=True)
def uncalled_bet(contributions: Any) -> tuple[int, int]:
    """The uncalled bet, which goes back to its bettor before the pots are made.

    (seat, chips) of the part of the largest contribution that nobody matched ('The original
    bettor then takes back the part of his bet that exceeds the amount of the call', Rules
    001_af8fb40237a5ae1f.txt); (``NO_SEAT``, 0) when the largest was matched, as it is
    between equal largest contributions."""
    top = NO_SEAT
    most = 0
    others = 0
    for seat in range(len(contributions)):
        chips = contributions[seat]
        if top < 0 or chips > most:
            if top >= 0 and most > others:
                others = most
            top = seat
            most = chips
        elif chips > others:
            others = chips
    if top >= 0 and most > others:
        return top, most - others
    return NO_SEAT, 0


@nb.njit(cache=True)
def highest_live(contributions: Any, live: int) -> int:
    """The largest contribution of a seat in the mask ``live`` (the players still in); 0
    when none is."""
    highest = 0
    for seat in range(len(contributions)):
        if live >> seat & 1 and contributions[seat] > highest:
            highest = contributions[seat]
    return highest


@nb.njit(cache=True)
def return_above_live(contributions: Any, live: int, returned: Any) -> None:
    """Hand back what stands above every live player's contribution.

    Each contribution above the largest of the seats in ``live`` is lowered to it, the
    difference added to ``returned[seat]``.  An all-in player 'may not win any more money
    from any player above the amount of his bet' (Rules 004_53770b236994c31b.txt): when
    everyone else folds to a player all in on forced bets alone, what the others put in
    above him nobody still in the hand can win, and no one called it.  Call after
    :func:`uncalled_bet`."""
    highest = highest_live(contributions, live)
    for seat in range(len(contributions)):
        chips = contributions[seat]
        if chips > highest:
            returned[seat] += chips - highest
            contributions[seat] = highest


@nb.njit(cache=True)
def side_pot(contributions: Any, live: int, floor: int) -> tuple[int, int, int]:
    """The main pot or the next side pot: (level, chips, eligible seats as a mask).

    The pot above ``floor`` (0 for the main pot, then each pot's level in turn); level -1
    when no pot is left.  A pot closes at the smallest contribution above ``floor`` of a seat
    in ``live`` (the players still in): it holds every seat's chips between ``floor`` and
    that level, folded players' included, and only the live seats that reached the level
    may win it (Rules 004_53770b236994c31b.txt, 'a side pot that only the players who
    contributed to it are eligible to win').  Call after the uncalled bet and
    :func:`return_above_live`, so that every chip lands in exactly one pot."""
    level = -1
    for seat in range(len(contributions)):
        chips = contributions[seat]
        if live >> seat & 1 and chips > floor and (level < 0 or chips < level):
            level = chips
    if level < 0:
        return -1, 0, 0
    amount = 0
    eligible = 0
    for seat in range(len(contributions)):
        chips = contributions[seat]
        amount += min(chips, level) - min(chips, floor)
        if live >> seat & 1 and chips >= level:
            eligible |= 1 << seat
    return level, amount, eligible


@nb.njit(cache=True)
def best_hands(values: Any, eligible: int) -> int:
    """The seats of the mask ``eligible`` whose value (``values[seat]``, larger better) is
    the best among them, as a mask: ties all win, to split the pot.  0 when ``eligible`` is
    empty (a half of the showdown no one qualifies for leaves it so)."""
    best = 0
    found = False
    for seat in range(len(values)):
        if eligible >> seat & 1 and (not found or values[seat] > best):
            best = values[seat]
            found = True
    winners = 0
    if found:
        for seat in range(len(values)):
            if eligible >> seat & 1 and values[seat] == best:
                winners |= 1 << seat
    return winners


@nb.njit(cache=True)
def award_clockwise(amount: int, winners: int, button: int, rule: int, out: Any) -> None:
    """A pot split among its winners, the odd chips clockwise from the button.

    ``amount`` goes to the seats of the mask ``winners`` (at least one), each winner's equal
    share added to ``out[seat]`` (``len(out)`` the seats at the table), the odd chips by
    ``rule`` of :mod:`simulations.rules.odd_chips` to the winners ranked clockwise from the
    button — 'the pot is split equally amongst all remaining players, with any extra
    chips going to the person closest to the button in clockwise order' (Rules
    000_1a86611de8d3f5f7.txt); 'Odd chip will go left of the button on both high and low'
    (Rules 002_376df91f076a6501.txt)."""
    seats = len(out)
    count = 0
    for seat in range(seats):
        count += winners >> seat & 1
    rank = 0
    for k in range(seats):
        seat = (button + 1 + k) % seats
        if winners >> seat & 1:
            out[seat] += winner_chips(amount, count, rank, rule)
            rank += 1
