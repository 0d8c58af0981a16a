"""Bets and raises in a betting round — their sizes, the cap, and who may raise again after
short all-ins — a part of :class:`~simulations.engine.hand.Hand`.

Rules 002_376df91f076a6501.txt: 'Raise' (a raise at least the previous bet or raise, the
cap and its heads-up exception), 'Fixed limit', 'Spread limit', 'Pot limit' and 'No limit'
(the bounds, :func:`~simulations.engine.limits.bounds_of`), and 'Incomplete bet or raise'
(the full and half bet rules, :func:`~simulations.engine.limits.reopens` and
:func:`~simulations.rules.reopening.still_closed`).
"""

from __future__ import annotations

import numpy as np
from mypy_extensions import trait

from simulations.engine.events import BetOrRaised
from simulations.engine.limits import IncompleteRaiseRule, Limit, bounds_of, reopens
from simulations.engine.posting import ForcedPosting
from simulations.rules.reopening import still_closed


@trait  # a mixin of Hand: the compiled engine allows one base class besides traits
class Wagering(ForcedPosting):
    """Bet and raise sizes and the reopening of the betting, mixed into
    :class:`~simulations.engine.hand.Hand` (which owns the state declared here and in
    :class:`~simulations.engine.posting.ForcedPosting`)."""

    street: int
    folded: list[bool]
    _acted: set[int]
    _acted_at: list[int]
    _bring_in_due: bool
    _cap_contesting: int
    _first_opener: int | None

    @property
    def pot_total(self) -> int:
        raise NotImplementedError  # the hand's: every chip in the pot

    def _may_open(self, seat: int) -> bool:
        raise NotImplementedError  # the hand's: jackpots' openers

    def _someone_could_call_more(self, seat: int) -> bool:
        """Whether any opponent could put in more than the current bet: else a raise is idle."""
        return any(
            not self.folded[s] and self.round_bets[s] + self.stacks[s] > self._to_match
            for s in range(self.n)
            if s != seat
        )

    def _wager_range(self, seat: int) -> tuple[tuple[int, int] | None, int | None]:
        """The seat's (smallest, largest) bet or raise total, or None, with the smallest full
        bet or raise by the rule (None with it).

        The player due the bring-in 'may choose either to pay only what is required or to
        make a normal bet' (Rules 002_376df91f076a6501.txt, 'Bring-in'); with no more chips
        than the bring-in he has only the first: a bet of the same chips would leave the
        next player owing them instead of 'the complete amount' of the forced bet (Rules
        002, 'All in before the deal')."""
        stack = int(self.stacks[seat])
        own = self.round_bets[seat]
        if stack <= self._to_match - own or seat in self._acted:
            return None, None
        if self._bring_in_due and stack <= self.game.forced.bring_in:
            return None, None  # the bring-in takes every chip: no bet is left to choose
        if not self._may_open(seat):
            return None, None
        if not self._someone_could_call_more(seat):
            return None, None
        bounds = self._bounds(seat)
        if bounds is None:
            return None, None
        low, high = bounds
        all_in = own + stack
        if all_in < low:
            return (all_in, all_in), low
        if self.game.limit is Limit.FIXED:
            return (low, low), low
        return (low, min(high, all_in)), low

    def _contesting(self) -> int:
        """The players still in the hand with chips to bet: those the cap's heads-up
        exception counts."""
        contesting = 0
        folded, stacks = self.folded, self.stacks
        for s in range(self.n):
            if not folded[s] and stacks[s] > 0:
                contesting += 1
        return contesting

    def _bounds(self, seat: int) -> tuple[int, int] | None:
        """The rule's (low, high) bet or raise totals for ``seat`` before his stack counts
        (:func:`~simulations.engine.limits.raise_bounds`), None when capped.

        The cap's heads-up exception reads the players able to bet as the raise that reached
        the cap was made, or as the round began (the game's ``heads_up_cap``; Rules
        000_1a86611de8d3f5f7.txt, 'cap'): a fold after the cap was reached does not lift it.

        Pot limit with the small blind counted as a big one (Rules 002_376df91f076a6501.txt,
        'Pot limit': 'treat the $5 as if it were $10 in computing the pot size, until the
        big blind is through acting'): each smaller blind's credit counts for the other
        players until its poster calls or raises (then his real chips stand where it stood)
        or the big blind has acted, and never for the poster himself, whose call already
        makes up the difference.
        """
        # The players able to bet matter only to a capped structure (the cap is lifted
        # heads-up): no-limit and pot-limit turns never read them, so they are not counted.
        contesting = 0
        if self.stakes.max_bets is not None:
            contesting = self._cap_contesting
            if contesting < 0:  # the cap is not reached: the count is not read
                contesting = self._contesting()
        credit = self._blind_credit
        return bounds_of(
            self.game.limit,
            self.stakes,
            self.street,
            self.pot_total,
            self._to_match,
            self.round_bets[seat],
            self._last_raise,
            self._bets_made,
            contesting,
            sum(credit) - credit[seat],
        )

    def _wager(self, seat: int, total: int, full_total: int | None) -> None:
        """Bet or raise to ``total``.  ``full_total`` is the turn's smallest full bet or raise
        (``LegalActions.full_total``, the rule's low bound as legal_actions() found it);
        None only when the turn listed no wager, and then the bounds are worked out here."""
        if full_total is None:
            bounds = self._bounds(seat)
            assert bounds is not None
            full_total = bounds[0]
        faced = self._to_match
        # Before the chips go in, the raiser among them: who is betting as the raise is made.
        contesting = -1 if self.stakes.max_bets is None else self._contesting()
        added = total - self.round_bets[seat]
        if self.street == 0 and self._first_opener is None and self._to_match == 0:
            self._first_opener = seat
        self._put(seat, added)
        full_increment = full_total - faced
        increment = total - faced
        full = total >= full_total
        reopened = full or reopens(self.game.incomplete_raise, increment, full_increment)
        self._to_match = total
        if reopened:
            self._acted = {seat}
            self._acted_at[seat] = total
            self._bets_made += 1
            if self._bets_made == self.stakes.max_bets and self._cap_contesting < 0:
                self._cap_contesting = contesting  # the cap is reached: the count stands
            if full:
                self._last_raise = max(increment, self._last_raise)
        else:
            self._mark_acted(seat)
            self._reopen_for_short_all_ins(full_increment)
        self.events.append(BetOrRaised(seat, total, added, self.stacks[seat] == 0, reopened))

    def _mark_acted(self, seat: int) -> None:
        self._acted.add(seat)
        self._acted_at[seat] = self._to_match

    def _reopen_for_short_all_ins(self, full_increment: int) -> None:
        """Rules 002_376df91f076a6501.txt, 'Incomplete bet or raise', as the game reads a run
        of short all-ins: each seat that acted may raise again once what it faces since its
        own action adds up to a reopening amount (the shared compiled rule)."""
        acted = sum(1 << s for s in self._acted)
        closed = still_closed(
            acted,
            np.array(self._acted_at, dtype=np.int64),
            self.n,
            self._to_match,
            full_increment,
            self.game.incomplete_raise is IncompleteRaiseRule.HALF_BET,
            self.game.short_all_ins.code,
        )
        self._acted = {s for s in self._acted if (closed >> s) & 1}
