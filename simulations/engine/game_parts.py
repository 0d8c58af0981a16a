"""The parts of a game definition that are rules of their own: what the dealer does on
running out of cards, the deck, the forced bets and who opens the betting, straddles, the
rake and the jackpot drop (:class:`~simulations.engine.game.GameDefinition` holds them, and
:mod:`simulations.engine.game` names them too)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

import numpy as np

from simulations.cards import MAX_JOKERS, Rank
from simulations.decks import Deck
from simulations.evaluators.stud_showing import BringIn
from simulations.rules.rake_rules import (
    NO_CAP,
    ROUND_DOWN,
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    ROUND_UP,
    applicable_cap,
    drop_amount,
    rake_amount,
)


class ExhaustionRule(StrEnum):
    """What the dealer does when the stub cannot complete a deal (running out of cards)."""

    # The deck must hold every card the hand could deal (hold'em, Omaha: it never runs out).
    NONE = "none"
    # Rules 003_6e018542f14946f8.txt (seven-card stud): 'previously-dealt burn cards can be
    # used when only a few cards are needed to complete the deal.  If even those are not
    # sufficient, then on the final round instead of dealing a downcard to each player, a
    # single community card is dealt to the center of the table'; folded cards never return.
    STUD_BURNS_THEN_COMMUNITY = "stud-texts"
    # The tournament form: before the last street the dealer counts the stub against the live
    # players plus two (a card each, the burn and one spare); if it is short the burn cards
    # are scrambled into the stub, and if it is still short a community card is dealt.
    STUD_WSOP = "stud-wsop"
    # Rules 003_6e018542f14946f8.txt (five-card draw): 'the dealer gives the player the one
    # top card he can give, then shuffles together the bottom card of the deck, the burn
    # card, and the earlier players' discards (but not the player's own discards!)'.
    DRAW_OTHERS_DISCARDS = "draw-texts"
    # The same, but the current draw's discards never go back in: only earlier draws'.
    DRAW_EARLIER_ROUNDS = "draw-earlier-rounds"
    # Every discard, the drawing player's own included.
    DRAW_ALL_DISCARDS = "draw-all-discards"

    @property
    def for_stud(self) -> bool:
        return self in (ExhaustionRule.STUD_BURNS_THEN_COMMUNITY, ExhaustionRule.STUD_WSOP)

    @property
    def for_draw(self) -> bool:
        return self.value.startswith("draw")


@dataclass(frozen=True)
class DeckSpec:
    """The pack a game deals from: the standard ranks or a stripped set, and jokers.  What
    the jokers and any wild ranks do at showdown is the ranking's business
    (:class:`~simulations.evaluators.systems.RankingSystem`)."""

    ranks: tuple[Rank, ...] = tuple(Rank)
    jokers: int = 0

    def __post_init__(self) -> None:
        if list(self.ranks) != sorted(set(self.ranks)) or not self.ranks:
            raise ValueError("a deck's ranks are distinct, lowest first, at least one")
        if not 0 <= self.jokers <= MAX_JOKERS:
            raise ValueError(f"a deck holds 0 to {MAX_JOKERS} jokers, got {self.jokers}")

    @property
    def size(self) -> int:
        return 4 * len(self.ranks) + self.jokers

    @property
    def standard(self) -> bool:
        return self.ranks == tuple(Rank) and not self.jokers

    def deck(self) -> Deck:
        return Deck.stripped(ranks=self.ranks, jokers=self.jokers)

    @property
    def label(self) -> str:
        if self.ranks == tuple(Rank):
            text = "52 cards"
        else:
            low, high = self.ranks[0].symbol, self.ranks[-1].symbol
            run = tuple(Rank)[self.ranks[0] : self.ranks[-1] + 1] == self.ranks
            kept = f"{low} to {high}" if run else " ".join(r.symbol for r in self.ranks)
            text = f"{4 * len(self.ranks)} cards ({kept})"
        if self.jokers:
            text += f" + {self.jokers} joker" + ("s" if self.jokers > 1 else "")
        return text


STANDARD_DECK = DeckSpec()


class BigBlindAnteOrder(StrEnum):
    """What a big blind too short for both pays first: the blind (tournament rules' reading,
    so that the hand is played for a full blind) or the ante (the texts' rule for antes
    generally: 'Any money the player holds must be applied to the ante first')."""

    BLIND_FIRST = "blind-first"
    ANTE_FIRST = "ante-first"


@dataclass(frozen=True)
class ForcedBets:
    """Antes and blinds posted before the deal.

    Rules 002_376df91f076a6501.txt, 'Blinds': one, two or three blinds; with two, the player
    left of the button posts the small blind and the next the big blind; with three, the
    first goes on the button.  Heads-up the button posts the small blind ('When there are
    only two players').  The last blind is the amount players must call.
    """

    ante: int = 0
    blinds: tuple[int, ...] = ()
    first_blind_on_button: bool = False
    bring_in: int = 0
    # One ante for the whole table, paid by the big blind as dead money: it belongs to the
    # main pot, which every player may win, and counts toward no bet.
    big_blind_ante: int = 0
    big_blind_ante_order: BigBlindAnteOrder = BigBlindAnteOrder.BLIND_FIRST

    def __post_init__(self) -> None:
        if self.ante < 0 or self.big_blind_ante < 0 or any(b <= 0 for b in self.blinds):
            raise ValueError("antes cannot be negative and blinds must be positive")
        if self.big_blind_ante and not self.blinds:
            raise ValueError("a big-blind ante needs a big blind to post it")
        if self.bring_in < 0:
            raise ValueError(f"the bring-in cannot be negative, got {self.bring_in}")
        if self.bring_in and self.blinds:
            raise ValueError("a game opens with blinds or with a bring-in, not both")
        if len(self.blinds) > 3:
            raise ValueError(f"at most three blinds, got {len(self.blinds)}")
        if any(blind > self.blinds[-1] for blind in self.blinds):
            # 'Players to act must call the complete amount of the big blind': the last.
            raise ValueError(f"the big blind, the last, is the largest blind: got {self.blinds}")
        if self.first_blind_on_button and len(self.blinds) != 3:
            raise ValueError("only a three-blind structure puts a blind on the button")


class ActingOrder(StrEnum):
    """Who opens each betting round.

    Rules 002_376df91f076a6501.txt, 'Bring-in': in stud the first round opens with the
    bring-in, paid by the poorest upcard (the lowest card in high games, the highest in low
    games, suits breaking ties); Rules 000_1a86611de8d3f5f7.txt, 'Seven-Card Stud': on later
    rounds the best hand showing opens (the lowest in low games).  Community-card and draw
    games open by position instead.
    """

    POSITION = "position"  # left of the blinds first, then left of the button
    HIGH_SHOWING = "high-showing"  # seven-card stud: low card brings it in, then high hand
    LOW_SHOWING = "low-showing"  # razz: high card brings it in, then low hand

    @property
    def bring_in_card(self) -> BringIn:
        return BringIn.HIGH_CARD if self is ActingOrder.LOW_SHOWING else BringIn.LOW_CARD


class StraddleRule(StrEnum):
    """Which straddles a game allows (Rules 002_376df91f076a6501.txt, 'Straddle bets')."""

    NONE = "none"
    LIVE = "live"  # left of the big blind; a re-straddle left of the last straddle
    MISSISSIPPI = "mississippi"  # any seat; a re-straddle right of the last straddle


class RakeRounding(StrEnum):
    """How a linear rake's percentage of the pot is rounded to whole units: down (most live
    rooms), half to even (PokerStars: 'a true percentage using the round half to even
    method of rounding'), half up, or up."""

    DOWN = "down"
    HALF_EVEN = "half-even"
    HALF_UP = "half-up"
    UP = "up"

    @property
    def code(self) -> int:
        """The rule as :mod:`simulations.rules.rake_rules` takes it."""
        return {"down": ROUND_DOWN, "half-even": ROUND_HALF_EVEN, "half-up": ROUND_HALF_UP}.get(
            self.value, ROUND_UP
        )


@dataclass(frozen=True)
class Rake:
    """The house's cut of each pot, taken before the pot is awarded.

    ``percent`` of the pot, rounded to whole ``unit`` chips by ``rounding`` (down unless
    said otherwise) — or, with ``increment``, ``per_increment`` chips for each full
    ``increment`` of the pot — and at most the cap for the number of players dealt in
    (``caps``: (players, cap) pairs, the entry with the most players not above the count
    applies).  With ``no_flop_no_drop`` a hand that ends before the second street pays
    nothing.  The arithmetic is :mod:`simulations.rules.rake_rules`'.
    """

    percent: Fraction
    caps: tuple[tuple[int, int], ...] = ()
    no_flop_no_drop: bool = True
    unit: int = 1
    rounding: RakeRounding = RakeRounding.DOWN
    increment: int = 0
    per_increment: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.percent < 1:
            raise ValueError(f"rake percent must be a fraction in [0, 1), got {self.percent}")
        if self.unit <= 0 or any(p < 2 or c < 0 for p, c in self.caps):
            raise ValueError("rake caps are (players >= 2, cap >= 0) and the unit is positive")
        if self.increment < 0 or not 0 <= self.per_increment <= self.increment:
            raise ValueError("a rake per increment takes at most the increment of the pot")

    def amount(self, pot: int, players: int, flopped: bool = True) -> int:
        """The rake of a pot of ``pot`` chips with ``players`` dealt in (``flopped``: the hand
        reached its second street)."""
        ordered = sorted(self.caps)
        cap = applicable_cap(
            players,
            np.array([p for p, _ in ordered], dtype=np.int64),
            np.array([c for _, c in ordered], dtype=np.int64),
        )
        return int(
            rake_amount(
                pot,
                players,
                flopped,
                self.no_flop_no_drop,
                self.percent.numerator,
                self.percent.denominator,
                self.unit,
                self.rounding.code,
                self.increment,
                self.per_increment,
                cap,
            )
        )


@dataclass(frozen=True)
class JackpotDrop:
    """A bad-beat jackpot's drop from a pot that reaches ``threshold`` once the flop is out:
    ``amount`` chips, or (``amount`` 0) ``percent`` of the pot rounded down, at most ``cap``
    (None: no cap)."""

    amount: int
    threshold: int
    percent: Fraction = Fraction(0)
    cap: int | None = None

    def __post_init__(self) -> None:
        if self.amount < 0 or self.threshold < self.amount:
            raise ValueError("a jackpot drop is positive and no larger than its threshold")
        if (self.amount > 0) == (self.percent > 0) or not 0 <= self.percent < 1:
            raise ValueError("a jackpot drop is positive and no larger than its threshold")
        if self.cap is not None and self.cap <= 0:
            raise ValueError("a jackpot drop's cap is positive")

    def taken(self, pot: int, flopped: bool) -> int:
        """The drop from a pot of ``pot`` chips (``flopped``: the flop is out)."""
        return int(
            drop_amount(
                pot,
                flopped,
                self.amount,
                self.percent.numerator,
                self.percent.denominator,
                NO_CAP if self.cap is None else self.cap,
                self.threshold,
            )
        )
