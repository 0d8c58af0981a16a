"""The hand's event log: every step the state machine takes, in order.

Events are frozen values; a hand history writer reads them, and a replay feeds the action
events back into a new hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from simulations.cards import Card
from simulations.engine.declare import Declaration


class PostKind(StrEnum):
    ANTE = "ante"
    BIG_BLIND_ANTE = "big-blind ante"  # one ante for the whole table, posted dead by the big blind
    BLIND = "blind"
    STRADDLE = "straddle"
    KILL = "kill"
    POST = "post"  # a new or returning player's live post of a big blind
    DEAD = "dead"  # the dead part of a post: a missed small blind, not counted as a bet
    BRING_IN = "bring-in"  # paid on the bring-in's turn after the first cards


@dataclass(frozen=True)
class Posted:
    seat: int
    kind: PostKind
    amount: int
    all_in: bool


@dataclass(frozen=True)
class HoleDealt:
    seat: int
    cards: tuple[Card, ...]
    face_up: bool = False  # a stud upcard
    extra: bool = False  # upcards dealt at once for an upcard of the deal's extra rank


@dataclass(frozen=True)
class BoardDealt:
    street: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Burned:
    card: Card


@dataclass(frozen=True)
class Exhausted:
    """The stub ran short on ``street``: ``reused_burns`` earlier burn cards were dealt again,
    and, when even those were too few, the street's cards went to the board as community
    cards (``community``) shared by every player."""

    street: str
    stub: int  # cards left in the stub when the street was dealt (after its burn)
    reused_burns: int
    community: bool


@dataclass(frozen=True)
class OutOfCards:
    """Extra upcards used up every card, the stub's and the burn cards': on ``street`` each
    seat in ``short`` (once per card) was not dealt a card the phases deal, and ``extras``
    extra upcards owed could not be dealt."""

    street: str
    short: tuple[int, ...]
    extras: int


@dataclass(frozen=True)
class Reshuffled:
    """The stub was rebuilt (``street``): its last ``stub`` cards shuffled together with the
    cards the exhaustion rule brings back, ``cards`` in all."""

    street: str
    stub: int
    cards: int


@dataclass(frozen=True)
class Discarded:
    """Cards thrown away: a draw's discards (replacements follow as ``HoleDealt``) or a
    pineapple discard.  None is standing pat."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Exposed:
    """Down cards the player chose to turn face up."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Passed:
    """Cards handed from ``seat`` to ``to`` in a pass (they stay face down)."""

    seat: int
    to: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Donated:
    """Cards ``seat`` gave face down to the pile the board is dealt from (East Village)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class PileMade:
    """The donations scrambled, ``from_stub`` added from the stub, and the whole scrambled
    again: ``cards``, in the order the board will be dealt from them (East Village)."""

    cards: tuple[Card, ...]
    from_stub: tuple[Card, ...]


@dataclass(frozen=True)
class Twisted:
    """``seat``'s answer in a twist round: he bought a card for ``price`` (dead money in the
    pot; the card he gave up and the one dealt in its place follow as ``Discarded`` and
    ``HoleDealt``), or, ``bought`` false, he bought none (or no more)."""

    seat: int
    bought: bool
    price: int
    all_in: bool


@dataclass(frozen=True)
class Paid:
    """``seat`` matched the pot for ``card``, dealt him face up: ``amount`` chips into the pot
    as dead money (Baseball's 3s)."""

    seat: int
    card: Card
    amount: int
    all_in: bool


@dataclass(frozen=True)
class HandSplit:
    """How ``seat`` split his cards (Cowpie): ``five`` the five-card hand, ``two`` the
    two-card hand (face down until the showdown)."""

    seat: int
    five: tuple[Card, ...]
    two: tuple[Card, ...]


@dataclass(frozen=True)
class CentreDealt:
    """Cards dealt face up to the centre on ``street``, for the players to take: a draft's,
    one for each player, or the auction card."""

    street: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Drafted:
    """``seat`` took ``card`` from the centre as his upcard (a draft)."""

    seat: int
    card: Card


@dataclass(frozen=True)
class Bid:
    """``seat`` bid ``amount`` for the auction card; None: he passed (and is out of this
    auction)."""

    seat: int
    amount: int | None


@dataclass(frozen=True)
class Bought:
    """``seat`` bought the auction card for ``amount``, paid into the pot as dead money."""

    seat: int
    card: Card
    amount: int
    all_in: bool


@dataclass(frozen=True)
class Designated:
    """The auction card goes face up to ``to``: given by ``seat``, its buyer (``to`` the
    same: he kept it), or, ``seat`` -1, to the first player from the dealer's left when
    nobody bid."""

    seat: int
    to: int
    card: Card


@dataclass(frozen=True)
class Declared:
    """What ``seat`` declared he plays for (all at once when the declaration is
    simultaneous)."""

    seat: int
    declaration: Declaration


@dataclass(frozen=True)
class Arranged:
    """The order ``seat`` put his down cards in for a roll-out (first turned up first)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class PassedOut:
    """No one opened: the deal is over and its ``pot`` stays for the next deal."""

    pot: int


@dataclass(frozen=True)
class Killed:
    """A kill card (``card``) was dealt face up to ``seat`` (-1: to the board): the deal is
    dead and its ``pot`` stays for the next deal."""

    card: Card
    seat: int
    pot: int


@dataclass(frozen=True)
class Switched:
    """No one opened, and the deal goes on as another game (Johnson: 'the game has switched
    to California lowball'); ``game`` is that game's name."""

    game: str


@dataclass(frozen=True)
class Folded:
    seat: int


@dataclass(frozen=True)
class Checked:
    seat: int


@dataclass(frozen=True)
class Called:
    seat: int
    amount: int
    all_in: bool


@dataclass(frozen=True)
class BetOrRaised:
    """A bet or raise to ``total`` this round (``amount`` new chips)."""

    seat: int
    total: int
    amount: int
    all_in: bool
    reopens: bool


@dataclass(frozen=True)
class Returned:
    """An uncalled bet handed back."""

    seat: int
    amount: int


@dataclass(frozen=True)
class Raked:
    """The house's rake and the jackpot drop, taken before the award."""

    rake: int
    jackpot_drop: int


@dataclass(frozen=True)
class Shown:
    seat: int
    hand: str
    value: int


@dataclass(frozen=True)
class Awarded:
    pot: int  # 0 is the main pot
    seat: int
    amount: int | Fraction  # a fraction only under the exact odd-chip rule


Event = (
    Posted
    | HoleDealt
    | BoardDealt
    | Burned
    | Exhausted
    | OutOfCards
    | Reshuffled
    | Discarded
    | Exposed
    | Passed
    | Donated
    | PileMade
    | Twisted
    | Paid
    | HandSplit
    | CentreDealt
    | Drafted
    | Bid
    | Bought
    | Designated
    | Declared
    | Arranged
    | PassedOut
    | Killed
    | Switched
    | Folded
    | Checked
    | Called
    | BetOrRaised
    | Returned
    | Raked
    | Shown
    | Awarded
)
