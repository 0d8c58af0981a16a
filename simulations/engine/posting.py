"""Forced bets as a hand begins — antes, blinds, the big-blind ante, posts, a kill blind and
straddles — a part of :class:`~simulations.engine.hand.Hand`.

Rules 002_376df91f076a6501.txt: 'Blinds', 'Post', 'Kill game', 'Straddle bets' and 'All in
before the deal' ('Any money the player holds must be applied to the ante first').
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from mypy_extensions import trait

from simulations.engine.events import Event, Posted, PostKind
from simulations.engine.forced import BlindSeats, Post, clockwise
from simulations.engine.game import BigBlindAnteOrder, GameDefinition, StraddleRule
from simulations.engine.limits import Limit, PotLimitBlinds, Stakes
from simulations.engine.pots import Chips
from simulations.rules import betting
from simulations.rules.codes import (
    COMPLETED,
    STRADDLES_LIVE,
    STRADDLES_MISSISSIPPI,
)
from simulations.rules.reasons import reason, straddle_side
from simulations.rules.tiers import plain_python

# The rules core's functions (simulations.rules.betting), run as plain Python: a compiled
# function's dispatch from Python costs more than these few comparisons.
_blind_seat = plain_python(betting.blind_seat)
_forced_chips = plain_python(betting.forced_chips)
_blind_bets_made = plain_python(betting.blind_bets_made)
_straddle_fault = plain_python(betting.straddle_fault)


@trait  # a mixin of Hand: the compiled engine allows one base class besides traits
class ForcedPosting:
    """Posting the forced bets, mixed into :class:`~simulations.engine.hand.Hand` (which owns
    the state declared here)."""

    game: GameDefinition
    n: int
    button: int
    stakes: Stakes
    stacks: list[Chips]
    contributed: list[int]
    dead: list[int]
    round_bets: list[int]
    events: list[Event]
    _to_match: int
    _last_raise: int
    _bets_made: int
    _big_blind_seat: int
    _blind_credit: list[int]
    _first_actor_after: int
    _cycle: list[int]

    def _forced_chips(self, seat: int, due: int) -> int:
        """What ``seat`` puts in of a forced bet of ``due`` — an ante, a blind, the big-blind
        ante, a post or a kill blind: all of it, or all he has (Rules 002_376df91f076a6501.txt,
        'All in before the deal': 'If a player does not have sufficient money to cover the
        ante and blinds due, that player is automatically all in for the coming hand').  The
        callers take the forced bets in the order the money goes: 'Any money the player holds
        must be applied to the ante first' (:func:`simulations.rules.betting.forced_chips`)."""
        return int(_forced_chips(due, int(self.stacks[seat])))

    def _put(self, seat: int, amount: int) -> None:
        self.stacks[seat] -= amount
        self.contributed[seat] += amount
        self.round_bets[seat] += amount

    def _post_forced_bets(self, blind_seats: BlindSeats | None) -> None:
        forced = self.game.forced
        # 'Any money the player holds must be applied to the ante first.'
        if forced.ante:
            for seat in clockwise(self.button + 1, self.n):
                amount = self._forced_chips(seat, forced.ante)
                if amount == 0:  # all in already, for a pot carried from an earlier deal
                    continue
                self.stacks[seat] -= amount
                self.contributed[seat] += amount
                self.events.append(Posted(seat, PostKind.ANTE, amount, self.stacks[seat] == 0))
        blinds = forced.blinds
        if not blinds:
            if blind_seats is not None:
                raise ValueError(f"{self.game.name} has no blinds to place")
            return
        if blind_seats is not None:
            placed = blind_seats.placed(blinds, self.n)
        else:
            count = len(blinds)
            on_button = forced.first_blind_on_button
            placed = [
                (int(_blind_seat(j, self.n, count, self.button, on_button, False)), blinds[j])
                for j in range(min(count, self.n))
            ]
        big_blind_seat = placed[-1][0]
        if blind_seats is not None:
            # Action starts left of the big blind furthest round from the button, counted
            # from the button itself: under the moving button rule 'the player two seats
            # after the button posts a big blind, as well as any players the big blind
            # skipped past', and one of those may sit on the button.
            big_blind_seat = max(blind_seats.big, key=lambda seat: (seat - self.button) % self.n)
        ante_first = forced.big_blind_ante_order is BigBlindAnteOrder.ANTE_FIRST
        if ante_first:
            self._post_big_blind_ante(big_blind_seat)
        for seat, blind in placed:
            amount = self._forced_chips(seat, blind)
            self._put(seat, amount)
            self.events.append(Posted(seat, PostKind.BLIND, amount, self.stacks[seat] == 0))
        if not ante_first:
            self._post_big_blind_ante(big_blind_seat)
        self._big_blind_seat = big_blind_seat
        self._first_actor_after = self._big_blind_seat
        # 'Players to act must call the complete amount of the big blind.'
        self._to_match = blinds[-1]
        self._last_raise = blinds[-1]
        # A big blind below the small bet 'is treated the same way a sub-minimum bring-in is
        # treated in stud poker' (Rules 001_af8fb40237a5ae1f.txt): no bet toward the cap, and
        # the first bet completes it ('raise to $5', Rules 002, 'Blinds').
        self._bets_made = int(_blind_bets_made(blinds[-1], self.stakes.bet_size(0)))
        if self.game.limit is Limit.POT and self.game.pot_limit_blinds is (
            PotLimitBlinds.SMALL_AS_BIG
        ):
            # Each smaller blind counts as a big one until its poster calls or raises or the
            # big blind has acted (Hand._bounds, Hand._after_action).
            for seat, blind in placed:
                self._blind_credit[seat] += blinds[-1] - blind

    def _post_big_blind_ante(self, seat: int) -> None:
        """The big-blind ante: the table's ante in one, paid by the big blind as dead money
        (into the main pot, toward no bet), before or after the blind by the game's order."""
        ante = self.game.forced.big_blind_ante
        if not ante:
            return
        amount = self._forced_chips(seat, ante)
        self.stacks[seat] -= amount
        self.contributed[seat] += amount
        self.dead[seat] += amount
        self.events.append(Posted(seat, PostKind.BIG_BLIND_ANTE, amount, self.stacks[seat] == 0))

    def _blind_posters(self) -> set[int]:
        """Seats that have posted a blind, a post, a kill or a straddle (antes aside)."""
        posted = (e for e in self.events if isinstance(e, Posted))
        return {e.seat for e in posted if e.kind not in (PostKind.ANTE, PostKind.BIG_BLIND_ANTE)}

    def _post_posts(self, posts: Sequence[Post]) -> None:
        """Posts of new and returning players (Rules 002_376df91f076a6501.txt, 'Post').

        The big blind's amount is live: it counts toward a call or raise, and if no one
        raises the poster has the option, as a blind does.  A missed small blind is posted
        dead: it goes into the pot but counts toward no bet.  A player in the blinds owes no
        post ('Posting is not required if the player due the post happens to be in the big
        blind').  A player short of the post is all in for what he has, applied to the live
        big blind first, then to the dead small blind (a reading: docs/readings.md); the
        others still call the whole big blind.
        """
        blinds = self.game.forced.blinds
        for post in posts:
            seat = post.seat
            if not 0 <= seat < self.n:
                raise ValueError(f"post seat {seat} is not a seat 0..{self.n - 1}")
            if seat in self._blind_posters():
                raise ValueError(f"seat {seat} has already posted a blind or post: no post is due")
            live, dead = post.amounts(blinds)
            live = self._forced_chips(seat, live)
            self._put(seat, live)
            self.events.append(Posted(seat, PostKind.POST, live, self.stacks[seat] == 0))
            dead = self._forced_chips(seat, dead)
            if dead:
                self.stacks[seat] -= dead
                self.contributed[seat] += dead
                self.dead[seat] += dead
                self.events.append(Posted(seat, PostKind.DEAD, dead, self.stacks[seat] == 0))

    def _post_kill(self, seat: int, factor: Fraction) -> None:
        """Post a kill blind (Rules 002_376df91f076a6501.txt, 'Kill game').

        A full kill (``factor`` 2) posts twice the big blind and plays the hand at twice the
        limits, a half kill (3/2) one and a half times; the kill blind acts last before the
        flop, after the big blind, wherever it sits, and has the option if unraised.  A player
        short of the kill blind is all in for what he has; the hand is still played at the
        killed limits, and the others call the whole kill blind ('Players to act must call the
        complete amount of the big blind to call, even if the all-in player has posted less').
        """
        blinds = self.game.forced.blinds
        if not blinds:
            raise ValueError(f"{self.game.name} has no blinds to kill")
        if not 0 <= seat < self.n:
            raise ValueError(f"kill seat {seat} is not a seat 0..{self.n - 1}")
        if seat in self._blind_posters():
            raise ValueError(f"seat {seat} has already posted a blind")
        self.stakes = self.game.stakes.killed(factor)
        amount = blinds[-1] * factor
        if amount.denominator != 1:
            raise ValueError(f"a kill of {factor} does not make whole chips of {blinds[-1]}")
        total = int(amount)
        posted = self._forced_chips(seat, total)
        self._put(seat, posted)
        self.events.append(Posted(seat, PostKind.KILL, posted, self.stacks[seat] == 0))
        self._to_match = total
        self._last_raise = total
        self._blind_credit = [0] * self.n
        # 'the order of action is player D, player A, player B (the small blind), player C
        # (the big blind), player E (the kill blind)'
        order = [s for s in clockwise(self._big_blind_seat + 1, self.n) if s != seat]
        self._cycle = [*order, seat]
        # The first of that order opens: left of the big blind, or, where the kill blind sits
        # there, the player after it ('regardless of where they are seated').
        self._first_actor_after = (order[0] - 1) % self.n

    def _post_straddles(self, straddles: Sequence[tuple[int, int]]) -> None:
        """Post voluntary straddles, each a live blind raise (Rules 002, 'Straddle bets').

        A live straddle comes from the seat left of the big blind, a re-straddle from the seat
        left of the last straddle; a Mississippi straddle from any seat, a re-straddle from
        the seat to its right.  Each must be at least a minimum raise; action starts left of
        the last straddle, and its poster has the option when the action comes back unraised.
        """
        if not straddles:
            return  # nothing to post (and no need to look for the blind posters)
        rule = self.game.straddles
        if rule is StraddleRule.NONE or not self.game.forced.blinds:
            raise ValueError(f"{self.game.name} allows no straddles")
        posted = sum(1 << s for s in self._blind_posters())
        previous = self._first_actor_after
        code = STRADDLES_LIVE if rule is StraddleRule.LIVE else STRADDLES_MISSISSIPPI
        for index, (seat, total) in enumerate(straddles):
            if not 0 <= seat < self.n:
                raise ValueError(f"straddle seat {seat} is not a seat 0..{self.n - 1}")
            fault, a, b = _straddle_fault(
                code,
                index,
                seat,
                total,
                previous,
                self.n,
                posted,
                self._to_match,
                self._last_raise,
                int(self.stacks[seat]),  # whole chips: the total is whole
            )
            if fault != COMPLETED:
                raise ValueError(_straddle_refused(int(fault), seat, int(a), int(b), code))
            self._put(seat, total)
            self.events.append(Posted(seat, PostKind.STRADDLE, total, self.stacks[seat] == 0))
            self._last_raise = total - self._to_match
            self._to_match = total
            self._bets_made += 1
            self._blind_credit = [0] * self.n
            posted |= 1 << seat
            previous = self._first_actor_after = seat


def _straddle_refused(fault: int, seat: int, a: int, b: int, rule: int) -> str:
    """The one-line reason for a straddle :func:`simulations.rules.betting.straddle_fault`
    refuses."""
    return reason(fault, seat=seat, a=a, b=b, side=straddle_side(rule))
