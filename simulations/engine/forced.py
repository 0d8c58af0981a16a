"""Who is forced to put chips in, and who opens a round by the cards showing.

* Posts (Rules 002_376df91f076a6501.txt, 'Post'): a new player posts a big blind, live; a
  returning player who missed both blinds posts the big blind live and the small blind
  dead ('the small blind amount is dead, meaning that it cannot be applied towards a call
  or raise').  A player due the big blind posts nothing more.
* The bring-in (Rules 002, 'Bring-in'): paid on the first round by the poorest upcard —
  the lowest card in high games, the highest in low games, suits breaking ties.
* Later stud rounds (Rules 000_1a86611de8d3f5f7.txt, 'Seven-Card Stud': 'the player with
  the best hand open the betting'): the best hand showing opens, in low games the lowest;
  equal hands go to the first of them clockwise from the dealer's left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from simulations.cards import FIRST_JOKER, Card, Rank, Suit, make_card
from simulations.engine.game import ActingOrder
from simulations.evaluators.high import evaluate_high
from simulations.evaluators.lowball import Lowball, evaluate_low
from simulations.evaluators.stud_showing import (
    MAX_UPCARDS,
    BringIn,
    bring_in_order,
    showing_high,
    showing_low,
    showing_value,
)

HAND_SIZE = 5


@dataclass(frozen=True)
class Post:
    """A post by the player in ``seat``: a big blind, live; with ``missed_small_blind`` also
    the small blind, dead."""

    seat: int
    missed_small_blind: bool = False

    def amounts(self, blinds: Sequence[int]) -> tuple[int, int]:
        """(live, dead) chips of this post under ``blinds`` (small first, big last)."""
        if not blinds:
            raise ValueError("a post is a big blind: this game has no blinds")
        dead = blinds[-2] if self.missed_small_blind and len(blinds) >= 2 else 0
        if self.missed_small_blind and not dead:
            raise ValueError("this game has no small blind to post dead")
        return blinds[-1], dead


@dataclass(frozen=True)
class BlindSeats:
    """Who posts the blinds when the button rule says so rather than the two seats after the
    button (Rules 002_376df91f076a6501.txt, 'Dead button rule', 'Moving button rule'): no
    small blind, or several small and big blinds ('More than one small and/or big blind may
    be posted in a hand').  Every blind is live; action starts left of the big blind last
    in clockwise order from the button, and each big blind keeps the option."""

    small: tuple[int, ...]
    big: tuple[int, ...]

    def __post_init__(self) -> None:
        seats = [*self.small, *self.big]
        if not self.big:
            raise ValueError("a hand with blinds has at least one big blind")
        if len(set(seats)) != len(seats):
            raise ValueError(
                f"a seat posts one blind at most, got small {self.small}, big {self.big}"
            )

    def placed(self, blinds: Sequence[int], players: int) -> list[tuple[int, int]]:
        """(seat, blind) of every blind, small blinds first, under the game's ``blinds``."""
        if len(blinds) > 2:
            raise ValueError("the button rules place a small and a big blind, not three blinds")
        for seat in (*self.small, *self.big):
            if not 0 <= seat < players:
                raise ValueError(f"blind seat {seat} is not a seat 0..{players - 1}")
        if self.small and len(blinds) < 2:
            raise ValueError("this game has no small blind")
        return [(s, blinds[0]) for s in self.small] + [(s, blinds[-1]) for s in self.big]


def clockwise(start: int, n: int) -> list[int]:
    """Every seat of ``n``, clockwise, beginning with ``start`` (the dealer's left is
    ``button + 1``)."""
    return [(start + i) % n for i in range(n)]


def bring_in_seat(
    upcards: Sequence[Sequence[Card]],
    candidates: Sequence[int],
    rule: BringIn,
) -> int:
    """The seat among ``candidates`` whose first upcard pays the bring-in."""
    return max(candidates, key=lambda seat: bring_in_order(int(upcards[seat][0]), rule))


def showing_opener(
    upcards: Sequence[Sequence[Card]],
    candidates: Sequence[int],
    order: ActingOrder,
    lowball: Lowball = Lowball.ACE_TO_FIVE,
    *,
    dealt: bool = False,
) -> int:
    """The seat among ``candidates`` (listed clockwise from the dealer's left) with the best
    hand showing (in low games the best low by ``lowball``, the game's low ranking); the
    first of equal hands.  With five cards up every category counts
    (Rules 000_1a86611de8d3f5f7.txt, 'Mississippi stud': 'Because each player has five
    upcards on the last round, straights, flushes, and full houses count as "high hand
    exposed"'); below five, only the pairs and sets of :mod:`stud_showing`.

    ``dealt``: the upcards were dealt from a pack without jokers, as a hand's are (distinct
    card codes 0..51, plain ints), so they need no checking."""
    if all(len(upcards[seat]) == HAND_SIZE for seat in candidates):
        if order is ActingOrder.LOW_SHOWING:
            lows = [
                evaluate_low([int(c) for c in upcards[seat]], lowball).value for seat in candidates
            ]
            return candidates[lows.index(max(lows))]
        highs = [evaluate_high([int(c) for c in upcards[seat]]).value for seat in candidates]
        return candidates[highs.index(max(highs))]
    low = order is ActingOrder.LOW_SHOWING
    # Dealt from a pack without jokers, no upcard is a joker to read as the bug.
    shown = [upcards[seat] if dealt else _bug_as_ace(upcards[seat]) for seat in candidates]
    if any(len(cards) > MAX_UPCARDS for cards in shown):
        # Extra upcards (Baseball's 4s) leave some player more than four up, and not everyone
        # five: each is read by the best four of his upcards, as four up are read.
        best = [
            max(showing_value([int(c) for c in four], low=low) for four in combinations(cards, 4))
            if len(cards) > MAX_UPCARDS
            else showing_value([int(c) for c in cards], low=low)
            for cards in shown
        ]
        return candidates[best.index(max(best))]
    if (
        all(0 < len(cards) <= MAX_UPCARDS for cards in shown)
        if dealt
        else all(map(_dealt_upcards, shown))
    ):
        # Dealt cards, one to four each: the values alone, with no names made.
        values = [showing_value(cards, low=low) for cards in shown]
    else:  # the checked evaluators, which refuse anything else as they always have
        evaluate = showing_low if low else showing_high
        values = [evaluate([int(c) for c in cards]).value for cards in shown]
    return candidates[values.index(max(values))]


def _bug_as_ace(cards: Sequence[Card]) -> Sequence[Card]:
    """Upcards with a face-up joker read as the bug reads showing: an ace (of a suit the
    player does not show)."""
    if all(c < FIRST_JOKER for c in cards):
        return cards
    free = iter(
        make_card(Rank.ACE, suit) for suit in Suit if make_card(Rank.ACE, suit) not in cards
    )
    return [c if c < FIRST_JOKER else next(free) for c in cards]


def _dealt_upcards(cards: Sequence[Card]) -> bool:
    """Whether ``cards`` are one to four distinct standard card codes (plain ints, as dealt):
    what the showing evaluators take without complaint and value as :func:`showing_value`."""
    return (
        0 < len(cards) <= MAX_UPCARDS
        and all(type(c) is int and 0 <= c < FIRST_JOKER for c in cards)
        and len(set(cards)) == len(cards)
    )
