"""Game definitions: a game is data — its deck, phases, forced bets, limits and showdown.

A definition says which pack is dealt, the phases of a hand in order (deals, betting rounds,
draws, discards, exposures: :mod:`simulations.engine.phases`), which forced bets open the
hand, the betting limit and stakes, the incomplete-raise rule, how odd chips are split,
which cards may form a hand and how the halves of the showdown rank them, and what the
dealer does on running out of cards.  The hand's state machine
(:mod:`simulations.engine.hand`) plays any definition; hold'em is one preset among many.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction

from simulations.cards import MAX_JOKERS, Rank
from simulations.decks import Deck
from simulations.engine.limits import (
    IncompleteRaiseRule,
    Limit,
    PotLimitBlinds,
    ShortAllInRule,
    Stakes,
)
from simulations.engine.phases import (
    Arrange,
    Bet,
    Deal,
    Declare,
    Discard,
    Draw,
    Expose,
    FirstToAct,
    Pass,
    Phase,
    Reveal,
)
from simulations.engine.pots import OddChipRule
from simulations.engine.showdown import (
    ACE_TO_FIVE_ONLY,
    HIGH_LOW_EIGHT,
    HIGH_ONLY,
    HandRanking,
    Showdown,
)
from simulations.evaluators.selection import OMAHA, SEVEN_CARD_STUD, TEXAS_HOLDEM, Selection
from simulations.evaluators.stud_showing import BringIn


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


@dataclass(frozen=True)
class Rake:
    """The house's cut of each pot, taken before the pot is awarded.

    ``percent`` of the pot, rounded down to whole ``unit`` chips, and at most the cap for
    the number of players dealt in (``caps``: (players, cap) pairs, the entry with the most
    players not above the count applies).  With ``no_flop_no_drop`` a hand that ends before
    the second street pays nothing.
    """

    percent: Fraction
    caps: tuple[tuple[int, int], ...] = ()
    no_flop_no_drop: bool = True
    unit: int = 1

    def __post_init__(self) -> None:
        if not 0 <= self.percent < 1:
            raise ValueError(f"rake percent must be a fraction in [0, 1), got {self.percent}")
        if self.unit <= 0 or any(p < 2 or c < 0 for p, c in self.caps):
            raise ValueError("rake caps are (players >= 2, cap >= 0) and the unit is positive")

    def amount(self, pot: int, players: int) -> int:
        raked = int(pot * self.percent) // self.unit * self.unit
        applicable = [cap for min_players, cap in sorted(self.caps) if min_players <= players]
        return min(raked, applicable[-1]) if applicable else raked


@dataclass(frozen=True)
class JackpotDrop:
    """A bad-beat jackpot's drop: ``amount`` taken from a pot that reaches ``threshold``."""

    amount: int
    threshold: int

    def __post_init__(self) -> None:
        if self.amount <= 0 or self.threshold < self.amount:
            raise ValueError("a jackpot drop is positive and no larger than its threshold")


HOLDEM_PHASES: tuple[Phase, ...] = (
    Deal("preflop", down=2),
    Bet(),
    Deal("flop", board=3, burn=True),
    Bet(),
    Deal("turn", board=1, burn=True),
    Bet(),
    Deal("river", board=1, burn=True),
    Bet(),
)


@dataclass(frozen=True)
class GameDefinition:
    """A whole game: the deck, the phases of a hand, the forced bets and structure, the
    showdown, the rule for running out of cards and the house options."""

    name: str
    phases: tuple[Phase, ...]
    forced: ForcedBets
    limit: Limit
    stakes: Stakes
    # Which cards may form a five-card hand; None: the hand is played whole as dealt
    # (badugi's four cards).
    selection: Selection | None = TEXAS_HOLDEM
    showdown: Showdown = HIGH_ONLY
    deck: DeckSpec = STANDARD_DECK
    exhaustion: ExhaustionRule = ExhaustionRule.NONE
    # Draw games' house rules (Rules 003_6e018542f14946f8.txt, 'Five-card draw'): 'the bottom
    # card of the deck is never given as a replacement', and 'a player is not allowed to
    # draw five consecutive cards from the deck stub'.
    deals_bottom_card: bool = False
    five_consecutive: bool = False
    incomplete_raise: IncompleteRaiseRule = IncompleteRaiseRule.FULL_BET
    short_all_ins: ShortAllInRule = ShortAllInRule.CUMULATIVE
    pot_limit_blinds: PotLimitBlinds = PotLimitBlinds.AS_POSTED
    odd_chips: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON
    rake: Rake | None = None
    jackpot_drop: JackpotDrop | None = None
    straddles: StraddleRule = StraddleRule.NONE
    min_players: int = 2
    max_players: int = 10
    acting_order: ActingOrder = ActingOrder.POSITION
    # Which upcard pays the bring-in where the acting order's usual card does not (Mexican
    # stud: 'the high card on the first round pays the bring-in', aces high).
    bring_in_by: BringIn | None = None
    notes: tuple[str, ...] = field(default=(), compare=False)

    @property
    def bring_in_rule(self) -> BringIn:
        return self.bring_in_by or self.acting_order.bring_in_card

    def __post_init__(self) -> None:
        if self.limit in (Limit.POT, Limit.NO) and self.incomplete_raise is not (
            IncompleteRaiseRule.FULL_BET
        ):
            # 'pot-limit and no-limit games usually use what is called the full bet rule'
            raise ValueError("pot-limit and no-limit games use the full bet rule")
        if not 2 <= self.min_players <= self.max_players:
            raise ValueError(
                f"players run from 2 up: min {self.min_players}, max {self.max_players}"
            )
        self._check_phases()
        self._check_acting_order()
        self._check_deck()

    @property
    def deals_board(self) -> bool:
        """Whether the phases deal community cards (not the stud rule's one, for a deck run
        out)."""
        return any(isinstance(p, Deal) and p.board for p in self.phases)

    def _check_phases(self) -> None:
        phases = self.phases
        if not phases or not isinstance(phases[0], Deal):
            raise ValueError("phases: a hand begins by dealing cards")
        if not any(isinstance(p, Bet) for p in phases):
            raise ValueError("phases: a game has at least one betting round")
        if isinstance(phases[0], Deal) and not phases[0].per_player:
            raise ValueError("phases: the first deal gives each player cards")
        declares = [i for i, p in enumerate(phases) if isinstance(p, Declare)]
        if self.showdown.declare and len(declares) != 1:
            raise ValueError("phases: a game of declared halves has one declare phase")
        if declares and not self.showdown.declare:
            raise ValueError(
                f"phases[{declares[0]}]: a declaration needs a showdown of declared halves"
            )
        held = 0
        down = 0  # of them face down
        rolling: int | None = None  # arranged cards still down (None: nothing arranged)
        bets = 0
        for index, phase in enumerate(phases):
            if isinstance(phase, Bet):
                self._check_bet(index, phase, bets, held)
                bets += 1
            if isinstance(phase, Deal):
                held += phase.per_player
                down += phase.down
                rolling = None  # new cards: the arrangement no longer covers the hand
            elif isinstance(phase, Draw) and phase.limit(True) > held:
                raise ValueError(
                    f"phases[{index}]: {phase.street} may replace {phase.limit(True)} cards "
                    f"but a player holds {held}"
                )
            elif isinstance(phase, Draw):
                held += phase.extra
                down += phase.extra
            elif isinstance(phase, Discard) and phase.count > down:
                raise ValueError(
                    f"phases[{index}]: {phase.street} discards {phase.count} down cards but a "
                    f"player holds {down}"
                )
            elif isinstance(phase, Arrange):
                if not down:
                    raise ValueError(f"phases[{index}]: {phase.street}: no down cards to arrange")
                rolling = down
            elif isinstance(phase, Reveal):
                if rolling is None:
                    raise ValueError(
                        f"phases[{index}]: {phase.street}: a roll-out needs the cards arranged "
                        "first (an arrange phase)"
                    )
                if phase.count > rolling:
                    raise ValueError(
                        f"phases[{index}]: {phase.street} rolls out {phase.count} cards but "
                        f"{rolling} arranged cards are still down"
                    )
                rolling -= phase.count
                down -= phase.count
            elif isinstance(phase, Expose | Pass) and phase.count > down:
                what = "passes" if isinstance(phase, Pass) else "turns up"
                raise ValueError(
                    f"phases[{index}]: {phase.street} {what} {phase.count} down cards but a "
                    f"player holds {down}"
                )
            if isinstance(phase, Discard):
                held -= phase.count
                down -= phase.count
            elif isinstance(phase, Expose):
                down -= phase.count
        board = sum(p.board for p in phases if isinstance(p, Deal))
        if self.selection is None:
            if any(h.ranking is not HandRanking.BADUGI for h in self.showdown.halves):
                raise ValueError("showdown: only badugi plays a hand whole, with no selection")
            if (held, board) != (4, 0):
                raise ValueError(
                    f"badugi is four cards in the hand: the phases leave {held} in the hand "
                    f"and {board} on the board"
                )
        elif (held, board) != (self.selection.hole_cards, self.selection.board_cards):
            raise ValueError(
                f"the phases leave {held} cards in each hand and {board} on the board but "
                f"the showdown expects {self.selection.hole_cards} and "
                f"{self.selection.board_cards}"
            )
        elif any(h.ranking is HandRanking.BADUGI for h in self.showdown.halves):
            raise ValueError("showdown: a badugi half plays the four cards whole (no selection)")
        draws = any(isinstance(p, Draw) for p in phases)
        if self.exhaustion.for_draw and not draws:
            raise ValueError(f"exhaustion: {self.exhaustion} is a rule for draw games")
        if self.exhaustion.for_stud and (draws or board):
            raise ValueError(f"exhaustion: {self.exhaustion} is a rule for stud games")

    def _check_bet(self, index: int, phase: Bet, before: int, held: int) -> None:
        """A bet phase's options must be ones the hand can play."""
        if phase.first is FirstToAct.FIRST_ROUND_OPENER and before == 0:
            raise ValueError(
                f"phases[{index}].first: the first betting round has no earlier opener"
            )
        if phase.opens_with is None:
            return
        where = f"phases[{index}].opens_with"
        if self.forced.blinds or self.forced.bring_in:
            raise ValueError(f"{where}: a round opened by blinds or a bring-in needs no openers")
        high = self.showdown.halves[0]
        if high.is_low or (high.system is not None and not high.system.standard):
            raise ValueError(f"{where}: openers are a high hand in the standard order")
        if held < 5:
            raise ValueError(f"{where}: openers are judged on five cards; a player holds {held}")

    def _check_acting_order(self) -> None:
        if self.acting_order is ActingOrder.LOW_SHOWING and not self.showdown.low_only:
            # The low hand showing opens only where the low hand wins the pot.
            raise ValueError(
                f"the low-showing acting order is for low games; the showdown is "
                f"{self.showdown.label}"
            )
        if self.acting_order is ActingOrder.HIGH_SHOWING and self.showdown.low_only:
            raise ValueError("a low game opens with the low hand showing, not the high")
        if self.forced.bring_in and self.acting_order is ActingOrder.POSITION:
            raise ValueError("a bring-in is paid by an upcard: the game needs a showing order")
        if self.acting_order is not ActingOrder.POSITION:
            first_bet = next(i for i, p in enumerate(self.phases) if isinstance(p, Bet))
            before_bet = self.phases[:first_bet]
            if not any(isinstance(p, Deal) and p.up for p in before_bet) and not any(
                isinstance(p, Expose) for p in before_bet
            ):
                raise ValueError("a showing order needs upcards before the first betting round")
        if self.bring_in_by is not None and not self.forced.bring_in:
            raise ValueError("bring_in_by: the game has no bring-in")
        if self.acting_order is not ActingOrder.POSITION and self.forced.blinds:
            raise ValueError("a game acting by upcards has no blinds")

    def _check_deck(self) -> None:
        for index, half in enumerate(self.showdown.halves):
            if self.deck.jokers and half.ranking in (
                HandRanking.DEUCE_TO_SEVEN_LOW,
                HandRanking.ACE_TO_SIX_LOW,
                HandRanking.BADUGI,
            ):
                # The joker as the bug is defined for ace-to-five low only (California
                # lowball); these rankings have no rule for it.
                raise ValueError(
                    f"showdown.halves[{index}]: a {half.ranking} half has no rule for a "
                    "joker; the deck holds jokers"
                )
            if half.board is not None:
                boards = 0 if self.selection is None else len(self.selection.usable_boards)
                if not 0 <= half.board < boards:
                    raise ValueError(
                        f"showdown.halves[{index}].board: {half.board} is not one of the "
                        f"selection's {boards} boards"
                    )
            system = half.system
            if system is None:
                if not self.deck.standard and half.ranking is HandRanking.HIGH:
                    raise ValueError(
                        f"deck: a {self.deck.label} deck needs a ranking system for its high "
                        "hands (showdown halves' system)"
                    )
                continue
            if system.ranks != self.deck.ranks:
                raise ValueError(
                    f"showdown: the ranking system {system.name!r} is for ranks "
                    f"{''.join(r.symbol for r in system.ranks)}, the deck holds "
                    f"{''.join(r.symbol for r in self.deck.ranks)}"
                )
            face_up = half.joker_face_up
            if face_up is not None and (face_up.ranks, face_up.joker_count) != (
                system.ranks,
                system.joker_count,
            ):
                raise ValueError(
                    f"showdown.halves[{index}]: the face-up joker's system plays another deck"
                )
            if system.joker_count != self.deck.jokers:
                raise ValueError(
                    f"showdown: the ranking system {system.name!r} plays "
                    f"{system.joker_count} jokers, the deck holds {self.deck.jokers}"
                )


def holdem(
    limit: Limit,
    *,
    blinds: tuple[int, ...] = (1, 2),
    ante: int = 0,
    big_blind_ante: int = 0,
    stakes: Stakes | None = None,
    incomplete_raise: IncompleteRaiseRule = IncompleteRaiseRule.FULL_BET,
    short_all_ins: ShortAllInRule = ShortAllInRule.CUMULATIVE,
    pot_limit_blinds: PotLimitBlinds = PotLimitBlinds.AS_POSTED,
    odd_chips: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON,
    rake: Rake | None = None,
    jackpot_drop: JackpotDrop | None = None,
    straddles: StraddleRule = StraddleRule.NONE,
) -> GameDefinition:
    """Texas hold'em; fixed-limit stakes default to the big blind as the small bet."""
    big_blind = blinds[-1] if blinds else 1
    if stakes is None:
        if limit is Limit.FIXED:
            stakes = Stakes(big_blind, 2 * big_blind, max_bets=4)
        else:
            stakes = Stakes(big_blind)
    return GameDefinition(
        name=f"{limit.value} Texas hold'em",
        phases=HOLDEM_PHASES,
        forced=ForcedBets(ante=ante, blinds=blinds, big_blind_ante=big_blind_ante),
        limit=limit,
        stakes=stakes,
        incomplete_raise=incomplete_raise,
        short_all_ins=short_all_ins,
        pot_limit_blinds=pot_limit_blinds,
        odd_chips=odd_chips,
        rake=rake,
        jackpot_drop=jackpot_drop,
        straddles=straddles,
    )


def omaha(
    limit: Limit,
    *,
    eight_or_better: bool = False,
    blinds: tuple[int, ...] = (1, 2),
    ante: int = 0,
    stakes: Stakes | None = None,
    odd_chips: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON,
) -> GameDefinition:
    """Omaha: hold'em's deal and betting with four hole cards (Rules 002_376df91f076a6501.txt,
    'the best five-card hand he can make from exactly three of the five cards on the board,
    plus exactly two of his own cards'); with ``eight_or_better`` the pot is split with the
    best low of eight or lower, made the same way."""
    base = holdem(limit, blinds=blinds, ante=ante, stakes=stakes, odd_chips=odd_chips)
    phases = (Deal("preflop", down=4), *HOLDEM_PHASES[1:])
    name = f"{limit.value} Omaha" + (" eight or better" if eight_or_better else "")
    return replace(
        base,
        name=name,
        phases=phases,
        selection=OMAHA,
        showdown=HIGH_LOW_EIGHT if eight_or_better else HIGH_ONLY,
        max_players=10,
    )


SEVEN_CARD_STUD_PHASES: tuple[Phase, ...] = (
    Deal("third street", down=2, up=1),
    Bet(),
    Deal("fourth street", up=1, burn=True),
    Bet(),
    Deal("fifth street", up=1, burn=True),
    Bet(),
    Deal("sixth street", up=1, burn=True),
    Bet(),
    Deal("seventh street", down=1, burn=True),
    Bet(),
)


def razz(
    *,
    ante: int = 1,
    bring_in: int = 2,
    stakes: Stakes | None = None,
    odd_chips: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON,
) -> GameDefinition:
    """Razz (Rules 000_1a86611de8d3f5f7.txt, 'Razz is seven-card stud played with ace-to-five
    low hand values'): the lowest hand wins, aces low, straights and flushes ignored; the
    highest upcard brings it in and 'the player with the lowest exposed hand starts the
    betting' on later rounds."""
    base = seven_card_stud(ante=ante, bring_in=bring_in, stakes=stakes, odd_chips=odd_chips)
    return replace(
        base,
        name="razz",
        showdown=ACE_TO_FIVE_ONLY,
        acting_order=ActingOrder.LOW_SHOWING,
    )


def seven_card_stud_eight(
    *,
    ante: int = 1,
    bring_in: int = 2,
    stakes: Stakes | None = None,
    odd_chips: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON,
) -> GameDefinition:
    """Seven-card stud high-low, eight or better (Rules 000_1a86611de8d3f5f7.txt, 'the pot is
    split between the player with the highest hand and the player with the lowest hand',
    'An 8-high hand or lower is required to win low'): the high takes it all when no low
    qualifies; the betting goes as in seven-card stud."""
    base = seven_card_stud(ante=ante, bring_in=bring_in, stakes=stakes, odd_chips=odd_chips)
    return replace(base, name="seven-card stud eight or better", showdown=HIGH_LOW_EIGHT)


def seven_card_stud(
    *,
    ante: int = 1,
    bring_in: int = 2,
    stakes: Stakes | None = None,
    limit: Limit = Limit.FIXED,
    incomplete_raise: IncompleteRaiseRule = IncompleteRaiseRule.FULL_BET,
    short_all_ins: ShortAllInRule = ShortAllInRule.CUMULATIVE,
    odd_chips: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON,
    rake: Rake | None = None,
) -> GameDefinition:
    """Seven-card stud (Rules 000_1a86611de8d3f5f7.txt, 'Seven-Card Stud'): two down and one
    up, three more up, the last down; the low card brings it in, the best hand showing opens
    every later round.  Fixed limit by default, the big bet from fifth street, a bet and
    three raises; the bring-in (2) is below the small bet (5) and may be completed.

    The ``button`` of a hand marks the dealer: cards go out from his left, and ties between
    equal showing hands go to the first of them clockwise from there.
    """
    if stakes is None:
        stakes = Stakes(5, 10, big_bet_round=2, max_bets=4)
    return GameDefinition(
        name=f"{limit.value} seven-card stud",
        phases=SEVEN_CARD_STUD_PHASES,
        forced=ForcedBets(ante=ante, bring_in=bring_in),
        limit=limit,
        stakes=stakes,
        selection=SEVEN_CARD_STUD,
        incomplete_raise=incomplete_raise,
        short_all_ins=short_all_ins,
        odd_chips=odd_chips,
        rake=rake,
        max_players=8,
        acting_order=ActingOrder.HIGH_SHOWING,
        exhaustion=ExhaustionRule.STUD_BURNS_THEN_COMMUNITY,
    )
