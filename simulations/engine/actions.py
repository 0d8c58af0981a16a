"""What a player may do on his turn: the actions, and the legal ones with their amounts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from simulations.cards import Card
from simulations.engine.declare import Declaration


class IllegalAction(ValueError):
    """An action the rules do not allow now; the hand is unchanged."""


class ActionKind(StrEnum):
    """What an action does; ``noun`` names it in a message ('a draw', 'an exposure')."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    BRING_IN = "bring-in"  # the forced opening of a stud game's first round
    DRAW = "draw"  # discard these cards and be dealt as many (none: stand pat)
    DISCARD = "discard"  # throw these cards away (pineapple)
    EXPOSE = "expose"  # turn these down cards face up
    PASS = "pass"  # hand these cards to a neighbour (Anaconda)
    DECLARE = "declare"  # play for the high half, the low half or both (high-low declare)
    ARRANGE = "arrange"  # put one's down cards in the order a roll-out will turn them up
    DONATE = "donate"  # give these down cards face down to the board's pile (East Village)
    TWIST = "twist"  # buy a card from the stub in place of this one (none: no twist)
    PAY = "pay"  # match the pot for an upcard that must be paid for (Baseball's 3s)
    SPLIT = "split"  # name the two cards of one's two-card hand (Cowpie)
    DRAFT = "draft"  # take this card from the centre (Draft)
    BID = "bid"  # bid for the auction card (no amount: pass)
    DESIGNATE = "designate"  # say who takes the card one bought (oneself: keep it)

    @property
    def noun(self) -> str:
        """The action with its article, as messages name it."""
        return _NOUNS.get(self.value, f"a {self.value}")


_NOUNS = {
    "bring-in": "the bring-in",
    "expose": "an exposure",
    "arrange": "an arrangement",
    "declare": "a declaration",
    "pay": "a payment",
    "designate": "a designation",
}


@dataclass(frozen=True)
class Action:
    """What a player does.  ``total`` is the bet or raise-to amount for the whole round (an
    auction's bid; none: a pass); ``cards`` the cards a draw, discard or exposure names;
    ``designee`` the player who takes the card an auction's buyer bought."""

    kind: ActionKind
    total: int | None = None
    cards: tuple[Card, ...] = ()
    declaration: Declaration | None = None
    designee: int | None = None

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

    @classmethod
    def draw(cls, discards: Sequence[int] = ()) -> Action:
        """Discard ``discards`` and be dealt as many; no cards is standing pat."""
        return cls(ActionKind.DRAW, cards=tuple(Card(int(c)) for c in discards))

    @classmethod
    def stand_pat(cls) -> Action:
        return cls(ActionKind.DRAW)

    @classmethod
    def discard(cls, cards: Sequence[int]) -> Action:
        return cls(ActionKind.DISCARD, cards=tuple(Card(int(c)) for c in cards))

    @classmethod
    def expose(cls, cards: Sequence[int]) -> Action:
        return cls(ActionKind.EXPOSE, cards=tuple(Card(int(c)) for c in cards))

    @classmethod
    def declare(cls, declaration: Declaration | str) -> Action:
        """Declare for the high half, the low half or both ('high', 'low', 'both')."""
        return cls(ActionKind.DECLARE, declaration=Declaration(declaration))

    @classmethod
    def arrange(cls, cards: Sequence[int]) -> Action:
        """Order all of one's down cards for a roll-out: the first is turned up first."""
        return cls(ActionKind.ARRANGE, cards=tuple(Card(int(c)) for c in cards))

    @classmethod
    def pass_cards(cls, cards: Sequence[int]) -> Action:
        """Pass ``cards`` to the neighbour the game's pass names."""
        return cls(ActionKind.PASS, cards=tuple(Card(int(c)) for c in cards))

    @classmethod
    def donate(cls, cards: Sequence[int]) -> Action:
        """Give ``cards`` (down cards) face down to the pile the board is dealt from."""
        return cls(ActionKind.DONATE, cards=tuple(Card(int(c)) for c in cards))

    @classmethod
    def twist(cls, card: int | None = None) -> Action:
        """Buy a card from the stub in place of ``card``; no card: buy none (or no more)."""
        return cls(ActionKind.TWIST, cards=() if card is None else (Card(int(card)),))

    @classmethod
    def pay(cls) -> Action:
        """Pay what the upcard costs (match the pot); the other choice is to fold."""
        return cls(ActionKind.PAY)

    @classmethod
    def split(cls, two: Sequence[int]) -> Action:
        """Split one's cards: ``two`` make the two-card hand, the rest the five-card hand."""
        return cls(ActionKind.SPLIT, cards=tuple(Card(int(c)) for c in two))

    @classmethod
    def draft(cls, card: int) -> Action:
        """Take ``card`` from the centre as one's next upcard."""
        return cls(ActionKind.DRAFT, cards=(Card(int(card)),))

    @classmethod
    def bid(cls, amount: int | None = None) -> Action:
        """Bid ``amount`` for the auction card; no amount: pass."""
        return cls(ActionKind.BID, total=amount)

    @classmethod
    def designate(cls, seat: int) -> Action:
        """Give the card one bought to ``seat`` (one's own seat: keep it)."""
        return cls(ActionKind.DESIGNATE, designee=seat)


@dataclass(frozen=True)
class CardChoice:
    """A decision about one's own cards: which of ``cards`` to draw to, discard or expose,
    ``fewest`` to ``most`` of them (a draw's ``most`` may be higher when an ace is kept:
    ``most_keeping_ace``).

    ``price``: the chips a twist or a payment puts into the pot (dead money, not a bet); a
    twist names one of ``cards`` or none.  ``may_fold``: folding is the other answer (a
    payment, which names no cards: :meth:`Action.pay` or :meth:`Action.fold`).

    ``options``: where not every set of ``fewest`` to ``most`` cards may be named, the sets
    that may (a split's two-card hands).  A draft names one of ``cards``, the centre's.  An
    auction's card is ``cards``: a bid (:meth:`Action.bid`) is one of ``bids`` (lowest,
    highest) or none, a pass; its buyer names one of ``seats`` (:meth:`Action.designate`)."""

    kind: ActionKind
    cards: tuple[Card, ...]
    fewest: int
    most: int
    most_keeping_ace: int | None = None
    price: int = 0
    may_fold: bool = False
    options: tuple[tuple[Card, ...], ...] = ()
    bids: tuple[int, int] | None = None
    seats: tuple[int, ...] = ()

    def action(self, cards: Sequence[int]) -> Action:
        return Action(self.kind, cards=tuple(Card(int(c)) for c in cards))


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
    choice: CardChoice | None = None  # a draw, discard or exposure instead of a betting turn
    declarations: tuple[Declaration, ...] = ()  # a declaration is due: one of these
    # A round without checking (Q-Ball): with nothing to call the player opens or folds.
    must_open: bool = False

    def wager_action(self, total: int) -> Action:
        """The bet or raise to ``total`` that this turn calls for."""
        return Action(self.wager_kind, total)

    @property
    def can_check(self) -> bool:
        return (
            self.to_call == 0
            and self.bring_in is None
            and self.choice is None
            and not self.declarations
            and not self.must_open
        )

    @property
    def can_fold(self) -> bool:
        if self.choice is not None:
            return self.choice.may_fold  # a payment's other answer
        return self.to_call > 0 or self.must_open
