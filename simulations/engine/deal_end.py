"""Deals that end without a winner, a part of :class:`~simulations.engine.hand.Hand`: a round
nobody opens (jackpots), a kill card face up, and the passed round that turns the deal into
another game (Johnson); :mod:`simulations.engine.deals` plays the deals that follow.
"""

from __future__ import annotations

from dataclasses import replace

from mypy_extensions import trait

from simulations.cards import Card
from simulations.engine.events import Event, Killed, PassedOut, Switched
from simulations.engine.game import GameDefinition
from simulations.engine.phases import Bet, IfPassed
from simulations.engine.pots import Pot
from simulations.engine.settle import gather_pots


@trait  # a mixin of Hand: the compiled engine allows one base class besides traits
class DealEnding:
    """Ending a deal early, mixed into :class:`~simulations.engine.hand.Hand` (which owns the
    state declared here)."""

    game: GameDefinition
    n: int
    phase: int
    events: list[Event]
    contributed: list[int]
    dead: list[int]
    folded: list[bool]
    up: list[list[Card]]
    upcards_dealt: list[Card]
    board: list[Card]
    carried_in: tuple[Pot, ...]
    carried: int
    carried_pots: tuple[Pot, ...]
    killed_by: Card | None
    actor: int | None
    finished: bool
    _face_up_seen: int
    _board_seen: int
    _rounds_begun: int
    _acted: set[int]
    _acted_at: list[int]

    def _pass_out(self, kill: tuple[Card, int] | None) -> None:
        """End the deal with no winner, its pot kept for the next deal: no one opened (Rules
        000_1a86611de8d3f5f7.txt, 'Gardena jackpots': 'If no player opens, a new deal begins
        and everyone antes again into the same pot'), or ``kill``, a kill card and the seat
        it was dealt to (-1: the board), appeared face up ('Chernobyl Cowboy': 'All bets
        remain in the pot and the game begins again with a new ante and a new deal')."""
        _, self.carried_pots = gather_pots(
            self.contributed, self.dead, self.folded, self.carried_in
        )  # every round is complete here: nothing is uncalled
        self.carried = sum(self.contributed) + sum(p.amount for p in self.carried_in)
        if kill is None:
            self.events.append(PassedOut(self.carried))
        else:
            self.killed_by = kill[0]
            self.events.append(Killed(kill[0], kill[1], self.carried))
        self.actor = None
        self.finished = True

    def _kill_card_seen(self) -> bool:
        """Whether a kill card of the game has appeared face up since the last look; if so
        the deal is dead (:class:`~simulations.engine.deal_rules.KillCards`)."""
        kill = self.game.kill_cards
        if kill is None or self.finished:
            return False
        seen = self._face_up_seen
        shown = [(card, -2) for card in self.upcards_dealt[seen:]]
        shown.extend((card, -1) for card in self.board[self._board_seen :])
        self._face_up_seen = len(self.upcards_dealt)
        self._board_seen = len(self.board)
        for card, seat in shown:
            if card in kill.cards:
                if seat == -2:
                    seat = next(s for s in range(self.n) if card in self.up[s])
                self._pass_out((card, seat))
                return True
        return False

    def _switch(self) -> None:
        """No one opened a round marked ``if_passed = "switch"``: the deal goes on as the
        game's other game and the round is played again, anyone free to open (Rules
        000_1a86611de8d3f5f7.txt, 'Johnson': 'the player to the dealer's left may now open
        if he chooses, but the game has switched to California lowball')."""
        switch = self.game.switch
        assert switch is not None  # checked with the game
        done = self.game.phases[self.phase]
        assert isinstance(done, Bet)
        again = Bet(first=done.first, if_passed=IfPassed.REDEAL)
        phases = list(self.game.phases)
        phases[self.phase] = again
        self.game = replace(
            self.game,
            name=switch.name,
            phases=tuple(phases),
            showdown=switch.showdown,
            switch=None,
        )
        self.events.append(Switched(switch.name))
        self.phase -= 1  # the round again, as the first betting round
        self._rounds_begun -= 1
        self._acted = set()
        self._acted_at = [0] * self.n
