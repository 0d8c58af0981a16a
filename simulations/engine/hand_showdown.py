"""The end of a hand: the showdown of the players left, the settlement and the awards — a
part of :class:`~simulations.engine.hand.Hand`.

The hands of the players still in are ranked in every half of the game's showdown (wild
cards the deal decided and spades in the hole included, :mod:`simulations.rules.wild_rules`,
:mod:`simulations.engine.showdown`), the pots are made and awarded by
:func:`~simulations.engine.settle.settle`, and every step is logged.
"""

from __future__ import annotations

from mypy_extensions import trait

from simulations.cards import FIRST_JOKER, Card, Rank
from simulations.engine.declare import Declaration
from simulations.engine.events import Awarded, Event, Raked, Returned, Shown
from simulations.engine.game import GameDefinition
from simulations.engine.pots import Chips, Pot
from simulations.engine.settle import settle
from simulations.rules.wild_rules import dealt_wild_ranks


@trait  # a mixin of Hand: the compiled engine allows one base class besides traits
class HandShowdown:
    """The showdown and settlement, mixed into :class:`~simulations.engine.hand.Hand` (which
    owns the state declared here)."""

    game: GameDefinition
    button: int
    street: int
    hole: list[list[Card]]
    up: list[list[Card]]
    board: list[Card]
    upcards_dealt: list[Card]
    events: list[Event]
    stacks: list[Chips]
    contributed: list[int]
    dead: list[int]
    folded: list[bool]
    carried_in: tuple[Pot, ...]
    declared: dict[int, Declaration]
    split_two: dict[int, tuple[Card, ...]]
    pots: tuple[Pot, ...]
    rake: int
    jackpot_drop: int
    actor: int | None
    finished: bool

    def _finish(self, live: list[int]) -> None:
        """The hand is over: rank the hands of ``live`` (when more than one is left), settle
        the pots (:func:`~simulations.engine.settle.settle`) and pay them."""
        values: dict[int, tuple[int | None, ...]] = {}
        shown: dict[int, str] = {}
        if len(live) > 1:
            holes = [self.hole[s] for s in live]
            jokers_up = [any(c >= FIRST_JOKER for c in self.up[s]) for s in live]
            showdown = self.game.showdown
            down: list[list[Card]] = []
            if showdown.reads_down_cards:  # a spade in the hole, a low hole card wild
                down = [[c for c in self.hole[s] if c not in self.up[s]] for s in live]
            if showdown.parts:  # Cowpie: each player's five-card and two-card hands
                twos = [self.split_two[s] for s in live]
                fives = [
                    [c for c in hole if c not in two] for hole, two in zip(holes, twos, strict=True)
                ]
                every = showdown.rank_parts(fives, twos)
            else:
                every = showdown.rank_players(
                    self.game.selection, holes, self.board, jokers_up, self._dealt_wild(down), down
                )
            for s, ranked in zip(live, every, strict=True):
                values[s] = tuple(None if r is None else r.value for r in ranked)
                shown[s] = " / ".join(
                    r.name if r is not None else "no spade" if half.is_spade else "no low"
                    for r, half in zip(ranked, self.game.showdown.halves, strict=True)
                )
        # 'No flop, no drop': a hand over on its first street pays no rake or drop.
        result = settle(
            self.game,
            self.contributed,
            self.dead,
            self.folded,
            values,
            button=self.button,
            flopped=self.street > 0,
            carried=self.carried_in,
            declared=self.declared if self.game.showdown.declare else None,
        )
        for seat, excess in result.returned:
            self.contributed[seat] -= excess
            self.stacks[seat] += excess
            self.events.append(Returned(seat, excess))
        self.pots = result.pots
        self.rake, self.jackpot_drop = result.rake, result.jackpot_drop
        if result.rake or result.jackpot_drop:
            self.events.append(Raked(result.rake, result.jackpot_drop))
        for s in live if len(live) > 1 else ():
            self.events.append(Shown(s, shown[s], values[s][0] or 0))
        for award in result.awards:
            self.stacks[award.seat] += award.chips
            self.events.append(Awarded(award.pot, award.seat, award.chips))
        self.actor = None
        self.finished = True

    def _dealt_wild(self, down: list[list[Card]]) -> list[frozenset[Rank]]:
        """The ranks the game's deal-decided wild rule makes wild for each player still in,
        whose down cards are ``down`` (none without such a rule)."""
        rule = self.game.showdown.dealt_wild
        if rule is None:
            return []
        return [
            dealt_wild_ranks(rule, upcards=self.upcards_dealt, down=cards, board=self.board)
            for cards in down
        ]
