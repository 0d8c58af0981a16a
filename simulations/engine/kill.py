"""When the kill is active: who must post the kill blind in the next hand.

Rules 002_376df91f076a6501.txt, 'Kill game' ('Rules on how the kill is activated vary'):

* two in a row — 'a single player wins two pots in a row, requiring the winner to post a
  kill blind on the next hand'; the kill 'will typically remain active if the player with
  the kill blind continues to win consecutive hands';
* a big pot — 'the previous pot being over a particular value. One common value is ten
  times the value of the large bet ... The winner of that pot is required to post the kill';
* split pots — 'If a player has won the previous hand and splits the pot with another
  player, that may also activate a kill' (selectable); a split between players neither of
  whom won the previous hand activates nothing;
* high-low games — the kill needs a scoop, the whole pot to one player.  A hand's winner
  here is always the one player who took every chip awarded, so a shared pot is a split
  and a high-low pot counts only when scooped.

The stakes a kill sets (full or half) are the hand's business: ``Hand(kill=(seat, factor))``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from simulations.engine.events import Awarded, Event


class KillTrigger(StrEnum):
    TWO_IN_A_ROW = "two-in-a-row"
    POT_SIZE = "pot-size"


@dataclass(frozen=True)
class KillRule:
    """How a kill is activated and what it posts.

    ``factor`` is 2 for a full kill and 3/2 for a half kill; ``pot_over`` the size a pot
    must exceed under :attr:`KillTrigger.POT_SIZE` (ten big bets is common);
    ``split_continues`` whether the previous winner splitting the next pot activates it.
    """

    trigger: KillTrigger
    factor: Fraction = Fraction(2)
    pot_over: int | None = None
    split_continues: bool = True

    def __post_init__(self) -> None:
        if self.factor <= 1:
            raise ValueError(f"a kill raises the stakes: factor must exceed 1, got {self.factor}")
        if (self.trigger is KillTrigger.POT_SIZE) != (self.pot_over is not None):
            raise ValueError("pot_over is given exactly when the kill is activated by pot size")
        if self.pot_over is not None and self.pot_over <= 0:
            raise ValueError(f"pot_over must be positive, got {self.pot_over}")


@dataclass(frozen=True)
class HandOutcome:
    """Who took chips from a hand's pots, and how many chips were awarded in all."""

    winners: tuple[int, ...]  # every seat awarded chips, clockwise by seat number
    pot: int

    @classmethod
    def from_events(cls, events: Sequence[Event]) -> HandOutcome:
        awarded = [e for e in events if isinstance(e, Awarded)]
        winners = tuple(sorted({e.seat for e in awarded if e.amount > 0}))
        return cls(winners, int(sum(e.amount for e in awarded)))

    @property
    def scooped_by(self) -> int | None:
        return self.winners[0] if len(self.winners) == 1 else None


@dataclass(frozen=True)
class KillState:
    """What the next hand's kill depends on: the player who won the last hand outright (or
    kept the kill going through a split), if any."""

    last_winner: int | None = None


def next_kill(
    rule: KillRule, state: KillState, outcome: HandOutcome
) -> tuple[KillState, int | None]:
    """The state after a hand, and the seat that must post the kill next hand (or None).

    Seats are the table's seats; a caller whose seating changes between hands maps them.
    """
    winner = outcome.scooped_by
    if winner is None and rule.split_continues and state.last_winner in outcome.winners:
        winner = state.last_winner  # the previous winner split this pot: it counts for him
    new_state = KillState(winner)
    if winner is None:
        return new_state, None
    if rule.trigger is KillTrigger.TWO_IN_A_ROW:
        return new_state, winner if winner == state.last_winner else None
    assert rule.pot_over is not None
    big_pot = outcome.pot > rule.pot_over
    return new_state, winner if big_pot and outcome.scooped_by is not None else None
