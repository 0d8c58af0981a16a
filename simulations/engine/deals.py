"""The deals played for one pot: a deal passed out or killed leaves its pot to the next.

Rules 000_1a86611de8d3f5f7.txt, 'Gardena jackpots': 'If no player opens, a new deal begins
and everyone antes again into the same pot'; 'Chernobyl Cowboy': 'All bets remain in the
pot and the game begins again with a new ante and a new deal. Anyone who has folded is out
until the game concludes'; 'The Bitch': 'all players turn in their cards, re-ante, and
replay the game'.  Each deal is a :class:`~simulations.engine.hand.Hand` of the players
dealt in, with the pots of the deals before it carried in (each open to the players it was
open to); the deal passes one seat to the left with each new deal, as it does between
hands.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from simulations.engine.game import GameDefinition
from simulations.engine.hand import Hand
from simulations.engine.history import describe_events, play_plainly
from simulations.engine.pots import Chips, Pot

# A pot that nobody wins for this many deals in a row stops the sequence (reported as such):
# a rule set where nobody ever opens would otherwise deal for ever.
MAX_DEALS = 50


class DealSequence:
    """Deals of ``game`` among the seats of ``stacks`` until one is won (or ``max_deals``).

    ``decks``: the deck order of each deal, in turn (else ``rng`` shuffles each)."""

    def __init__(
        self,
        game: GameDefinition,
        stacks: Sequence[int],
        button: int,
        *,
        rng: np.random.Generator | None = None,
        decks: Sequence[Sequence[int]] = (),
        max_deals: int = MAX_DEALS,
    ) -> None:
        if max_deals < 1:
            raise ValueError(f"max_deals must be at least 1, got {max_deals}")
        if rng is None and not decks:
            raise ValueError("give the deals' deck orders or a generator to shuffle with")
        self.game = game
        self.starting_stacks = tuple(int(s) for s in stacks)
        self.max_deals = max_deals
        self.hands: list[Hand] = []
        self.seats: list[tuple[int, ...]] = []  # each deal's seats as the table's seats
        self.buttons: list[int] = []  # each deal's button, a table seat
        self._stacks: list[Chips] = list(self.starting_stacks)
        self._rng = rng
        self._decks = [list(d) for d in decks]
        self._passed_out = 0  # deals passed out so far (progressive openers)
        self._killed = 0  # deals killed so far (a growing re-ante)
        if not 0 <= button < len(stacks):
            raise ValueError(f"button must be a seat 0..{len(stacks) - 1}, got {button}")
        self._deal(tuple(range(len(stacks))), button, ())

    # -- reading -----------------------------------------------------------------------

    @property
    def hand(self) -> Hand:
        """The deal under way (or the last one)."""
        return self.hands[-1]

    @property
    def continues(self) -> bool:
        """Whether the last deal ended without a winner and another deal follows it."""
        hand = self.hand
        return hand.finished and hand.carried > 0 and len(self.hands) < self.max_deals

    @property
    def finished(self) -> bool:
        """Whether the pot was won, or the deal limit reached without a winner."""
        return self.hand.finished and not self.continues

    @property
    def won(self) -> bool:
        """Whether the last deal was won (not passed out or killed)."""
        return self.hand.finished and self.hand.carried == 0

    @property
    def stacks(self) -> list[Chips]:
        """Each table seat's chips now."""
        stacks = list(self._stacks)
        for index, seat in enumerate(self.seats[-1]):
            stacks[seat] = self.hand.stacks[index]
        return stacks

    @property
    def payoffs(self) -> tuple[Chips, ...]:
        """Each table seat's net result once the sequence is over (a pot left unwon at the
        deal limit is lost to everyone who put chips in it)."""
        if not self.finished:
            raise ValueError("the deals are still being played")
        return tuple(s - start for s, start in zip(self.stacks, self.starting_stacks, strict=True))

    # -- playing -----------------------------------------------------------------------

    def next_deal(self) -> bool:
        """Start the next deal if the last ended without a winner (False otherwise)."""
        if not self.continues:
            return False
        hand = self.hand
        seats = self.seats[-1]
        self._stacks = self.stacks
        kill = self.game.kill_cards
        if hand.killed_by is not None:
            self._killed += 1
            out = kill is not None and kill.folded_out
        else:
            self._passed_out += 1
            out = False
        folded_out = {seats[i] for i in range(len(seats)) if hand.folded[i]} if out else set()
        carried = tuple(
            Pot(pot.amount, tuple(seats[i] for i in pot.eligible)) for pot in hand.carried_pots
        )
        owed = {seat for pot in carried for seat in pot.eligible}
        dealt = tuple(
            seat
            for seat in self.seats[0]
            if seat not in folded_out and (self._stacks[seat] > 0 or seat in owed)
        )
        if len(dealt) < 2:
            raise ValueError(f"a deal needs two players; {len(dealt)} can be dealt in")
        previous = self.buttons[-1]
        n = len(self._stacks)
        button = next(
            seat for seat in ((previous + k) % n for k in range(1, n + 1)) if seat in dealt
        )
        self._deal(dealt, button, carried)
        return True

    def _deal(self, seats: tuple[int, ...], button: int, carried: tuple[Pot, ...]) -> None:
        index = {seat: i for i, seat in enumerate(seats)}
        pots = []
        for pot in carried:
            eligible = tuple(index[s] for s in pot.eligible if s in index)
            pots.append(Pot(pot.amount, eligible or tuple(range(len(seats)))))
        game = self.game
        kill = game.kill_cards
        if kill is not None and kill.reante_step and self._killed:
            ante = game.forced.ante + kill.reante_step * self._killed
            game = replace(game, forced=replace(game.forced, ante=ante))
        number = len(self.hands)
        deck = self._decks[number] if number < len(self._decks) else None
        if deck is None and self._rng is None:
            raise ValueError(f"deal {number + 1} has no deck order: give one for every deal")
        hand = Hand(
            game,
            [int(self._stacks[s]) for s in seats],  # whole chips: no deal before was settled
            index[button],
            deck=deck,
            rng=None if deck is not None else self._rng,
            carried_pots=pots,
            passed_out=self._passed_out,
        )
        self.hands.append(hand)
        self.seats.append(seats)
        self.buttons.append(button)


_SEAT = re.compile(r"\bseat (\d+)")


def describe_deals(sequence: DealSequence) -> list[str]:
    """Every deal's events as readable lines, seats numbered as at the table."""
    lines: list[str] = []
    several = len(sequence.hands) > 1
    for number, (hand, seats) in enumerate(zip(sequence.hands, sequence.seats, strict=True)):
        if several:
            button = sequence.buttons[number]
            lines.append(
                f"deal {number + 1}: seats {', '.join(map(str, seats))} dealt in, "
                f"the button on seat {button}"
            )
        for line in describe_events(hand.events):
            text = _table_seats(line, seats)
            lines.append(f"  {text}" if several else text)
    if not sequence.won:
        lines.append(f"no one won the pot in {len(sequence.hands)} deals: the deals stop here")
    return lines


def _table_seats(line: str, seats: tuple[int, ...]) -> str:
    """``line`` with a deal's seat numbers written as the table's."""
    return _SEAT.sub(lambda m: f"seat {seats[int(m.group(1))]}", line)


def play_deals_plainly(sequence: DealSequence) -> DealSequence:
    """Play every deal with :func:`~simulations.engine.history.play_plainly`'s policy."""
    while True:
        play_plainly(sequence.hand)
        if not sequence.next_deal():
            return sequence
