"""What a player may do on his turn: the actions, and the legal ones with their amounts."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class IllegalAction(ValueError):
    """An action the rules do not allow now; the hand is unchanged."""


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    BRING_IN = "bring-in"  # the forced opening of a stud game's first round


@dataclass(frozen=True)
class Action:
    """What a player does.  ``total`` is the bet or raise-to amount for the whole round."""

    kind: ActionKind
    total: int | None = None

    @classmethod
    def fold(cls) -> Action:
        return cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        return cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        return cls(ActionKind.CALL)

    @classmethod
    def bet(cls, total: int) -> Action:
        return cls(ActionKind.BET, total)

    @classmethod
    def raise_to(cls, total: int) -> Action:
        return cls(ActionKind.RAISE, total)

    @classmethod
    def bring_in(cls) -> Action:
        """Pay only the bring-in (the other choice is a bet: completing to a full bet)."""
        return cls(ActionKind.BRING_IN)


@dataclass(frozen=True)
class LegalActions:
    """What the seat to act may do.  Amounts are round totals; ``wager`` is a bet when
    nothing is to be called and a raise otherwise."""

    seat: int
    to_call: int  # chips a call puts in (at most the stack); 0 means check
    wager: tuple[int, int] | None  # smallest and largest legal bet/raise total
    all_in_total: int  # the round total of going all in
    wager_kind: ActionKind  # BET when no one has bet this round, RAISE otherwise
    full_total: int | None  # the smallest full bet or raise (an all-in below it is short)
    bring_in: int | None = None  # on the bring-in's turn: what paying only the bring-in costs

    def wager_action(self, total: int) -> Action:
        """The bet or raise to ``total`` that this turn calls for."""
        return Action(self.wager_kind, total)

    @property
    def can_check(self) -> bool:
        return self.to_call == 0 and self.bring_in is None

    @property
    def can_fold(self) -> bool:
        return self.to_call > 0
