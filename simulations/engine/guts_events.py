"""A guts session's event log: every step of every deal, in order, as frozen values.

A decision made all at once is logged only when every player has made his (``Decided``
events together, after the last one): the log never tells anyone another player's
decision before his own is made.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from simulations.cards import Card

__all__ = [
    "AnteCarried",
    "Anted",
    "CardsDealt",
    "ChallengeOffered",
    "DealStarted",
    "Decided",
    "GameEnded",
    "GutsDecision",
    "GutsEvent",
    "HandShown",
    "NobodyWon",
    "NobodyWonReason",
    "PaidIn",
    "PotTaken",
    "SetAsideOverCap",
    "StopReason",
    "Stopped",
]


class GutsDecision(StrEnum):
    """A player's decision: to stay in (a chip in the fist) or to be out (an empty hand)."""

    IN = "in"
    OUT = "out"


class NobodyWonReason(StrEnum):
    NOBODY_IN = "nobody stayed in"
    DEALER_WITHOUT_PAIR = "the dealer stayed in alone without a pair"
    VICIOUS = "more than one stayed in, and under the vicious rule nobody wins"


class StopReason(StrEnum):
    DEAL_LIMIT = "the deal limit was reached"
    NO_DECK_ORDER = "the given deck orders were used up"
    POT_LIMIT = "the pot passed the most chips a session counts"


@dataclass(frozen=True)
class Anted:
    """``seat`` put ``amount`` in the pot: at the start of the game, or again when nobody
    stayed in under the re-ante rule."""

    seat: int
    amount: int


@dataclass(frozen=True)
class AnteCarried:
    """The game starts from chips an earlier game set aside, in place of the antes."""

    amount: int


@dataclass(frozen=True)
class DealStarted:
    """Deal number ``deal`` (from 1), dealt by ``dealer``, for a pot of ``pot``."""

    deal: int
    dealer: int
    pot: int


@dataclass(frozen=True)
class CardsDealt:
    seat: int
    cards: tuple[Card, ...]
    face_up: bool = False


@dataclass(frozen=True)
class Decided:
    """``seat`` is in or out; ``challenge`` when it is his second chance, against the dealer
    alone."""

    seat: int
    decision: GutsDecision
    challenge: bool = False


@dataclass(frozen=True)
class ChallengeOffered:
    """The dealer alone stayed in: the others may declare again and challenge him."""

    dealer: int


@dataclass(frozen=True)
class HandShown:
    seat: int
    cards: tuple[Card, ...]
    hand: str  # the hand's name under the game's ranking


@dataclass(frozen=True)
class PotTaken:
    """``seat`` takes ``amount``: the pot, his share of a split one, or with the set-aside."""

    seat: int
    amount: int


@dataclass(frozen=True)
class PaidIn:
    """A loser's payment, ``amount``, into the pot of the next deal."""

    seat: int
    amount: int


@dataclass(frozen=True)
class SetAsideOverCap:
    """The pot would pass the cap: ``amount`` is set aside and the pot stays at ``pot``."""

    amount: int
    pot: int


@dataclass(frozen=True)
class NobodyWon:
    """Nobody wins the pot, ``pot`` (any payments into it follow); it is dealt again."""

    reason: NobodyWonReason
    pot: int


@dataclass(frozen=True)
class GameEnded:
    """A deal with a winner and no loser ends the game; ``set_aside`` is left over for the
    next game's ante."""

    winners: tuple[int, ...]
    set_aside: int


@dataclass(frozen=True)
class Stopped:
    """The session stopped before the game ended, after ``deals`` deals; the pot and the
    set-aside stay where they are."""

    reason: StopReason
    deals: int


GutsEvent = (
    Anted
    | AnteCarried
    | DealStarted
    | CardsDealt
    | Decided
    | ChallengeOffered
    | HandShown
    | PotTaken
    | PaidIn
    | SetAsideOverCap
    | NobodyWon
    | GameEnded
    | Stopped
)
