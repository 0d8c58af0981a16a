"""Game definitions: a game is data — its deck, phases, forced bets, limits and showdown.

A definition says which pack is dealt, the phases of a hand in order (deals, betting rounds,
draws, discards, exposures: :mod:`simulations.engine.phases`), which forced bets open the
hand, the betting limit and stakes, the incomplete-raise rule, how odd chips are split,
which cards may form a hand and how the halves of the showdown rank them, and what the
dealer does on running out of cards.  The hand's state machine
(:mod:`simulations.engine.hand`) plays any definition; every shipped game is a file
(``simulations/games``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simulations.engine.deal_rules import KillCards, Switch
from simulations.engine.game_parts import (
    STANDARD_DECK as STANDARD_DECK,
)
from simulations.engine.game_parts import (
    ActingOrder as ActingOrder,
)
from simulations.engine.game_parts import (
    BigBlindAnteOrder as BigBlindAnteOrder,
)
from simulations.engine.game_parts import (
    DeckSpec as DeckSpec,
)
from simulations.engine.game_parts import (
    ExhaustionRule as ExhaustionRule,
)
from simulations.engine.game_parts import (
    ForcedBets as ForcedBets,
)
from simulations.engine.game_parts import (
    JackpotDrop as JackpotDrop,
)
from simulations.engine.game_parts import (
    Rake as Rake,
)
from simulations.engine.game_parts import (
    RakeRounding as RakeRounding,
)
from simulations.engine.game_parts import (
    StraddleRule as StraddleRule,
)
from simulations.engine.limits import (
    HeadsUpCap,
    IncompleteRaiseRule,
    Limit,
    PotLimitBlinds,
    ShortAllInRule,
    Stakes,
)
from simulations.engine.phases import (
    Arrange,
    Auction,
    Bet,
    Deal,
    Declare,
    Discard,
    Draft,
    Draw,
    Expose,
    FirstToAct,
    IfPassed,
    Pass,
    Phase,
    Reveal,
    Split,
    cards_held,
)
from simulations.engine.pots import OddChipRule
from simulations.engine.showdown import (
    HIGH_ONLY,
    HandRanking,
    Showdown,
)
from simulations.evaluators.selection import TEXAS_HOLDEM, Selection
from simulations.evaluators.stud_showing import BringIn

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
    heads_up_cap: HeadsUpCap = HeadsUpCap.AT_CAPPING_RAISE
    min_players: int = 2
    max_players: int = 10
    acting_order: ActingOrder = ActingOrder.POSITION
    # Which upcard pays the bring-in where the acting order's usual card does not (Mexican
    # stud: 'the high card on the first round pays the bring-in', aces high).
    bring_in_by: BringIn | None = None
    # Kill cards (Chernobyl Cowboy, The Bitch): a deal they appear in is dead, its pot carried.
    kill_cards: KillCards | None = None
    # The game a deal turns into when a round marked if_passed = "switch" is passed (Johnson).
    switch: Switch | None = None
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
        if self.heads_up_cap is not HeadsUpCap.AT_CAPPING_RAISE and not (
            self.stakes.max_bets is not None and self.stakes.cap_lifted_heads_up
        ):
            raise ValueError("only a cap lifted heads-up says when the players are counted")
        if not 2 <= self.min_players <= self.max_players:
            raise ValueError(
                f"players run from 2 up: min {self.min_players}, max {self.max_players}"
            )
        self._check_phases()
        self._check_taken_deals()
        self._check_acting_order()
        self._check_deck()
        if self.switch is not None and not any(
            isinstance(p, Bet) and p.passes is IfPassed.SWITCH for p in self.phases
        ):
            raise ValueError('switch: no betting round switches games (if_passed = "switch")')

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

    def _check_taken_deals(self) -> None:
        """Drafts and auctions (never the last deal, where a deck run out deals a community
        card; a draft reads the hands showing) and Cowpie's split (once, after the last deal,
        of seven cards each; its showdown ranks the two parts)."""
        phases = self.phases
        last = max(i for i, p in enumerate(phases) if isinstance(p, Deal))
        for index, phase in enumerate(phases):
            if not isinstance(phase, Draft | Auction):
                continue
            what = "a draft" if isinstance(phase, Draft) else "an auction"
            if index == last:
                raise ValueError(f"phases[{index}]: {what} is not the hand's last deal")
            if isinstance(phase, Draft):
                if self.acting_order is ActingOrder.POSITION:
                    raise ValueError(
                        f"phases[{index}]: a draft's order of choosing reads the hands showing: "
                        "the game needs a showing acting order"
                    )
                if not any(isinstance(p, Deal) and p.up for p in phases[:index]):
                    raise ValueError(f"phases[{index}]: a draft needs upcards showing before it")
        splits = [i for i, p in enumerate(phases) if isinstance(p, Split)]
        if self.showdown.parts and not splits:
            raise ValueError(
                "showdown: a two-card half ranks a hand split in two: add a split phase"
            )
        if not splits:
            return
        index = splits[0]
        if len(splits) > 1:
            raise ValueError(f"phases[{splits[1]}]: a hand is split once")
        if not self.showdown.parts:
            raise ValueError(
                f"phases[{index}]: a split needs a showdown of a high half and a two-card half"
            )
        if index < last or cards_held(phases[:index]) != (7, 0):
            raise ValueError(
                f"phases[{index}]: a split comes after the last deal, of seven cards a player "
                "and no board"
            )
        if self.showdown.halves[0].system is not None or self.showdown.halves[0].board is not None:
            raise ValueError(f"phases[{index}]: a split's five-card hand is a standard high hand")

    def _check_bet(self, index: int, phase: Bet, before: int, held: int) -> None:
        """A bet phase's options must be ones the hand can play."""
        if phase.first is FirstToAct.FIRST_ROUND_OPENER and before == 0:
            raise ValueError(
                f"phases[{index}].first: the first betting round has no earlier opener"
            )
        passes = phase.passes
        if passes is IfPassed.SWITCH:
            if self.switch is None:
                raise ValueError(f"phases[{index}].if_passed: the game names no game to switch to")
            if sum(isinstance(p, Bet) and p.passes is IfPassed.SWITCH for p in self.phases) > 1:
                raise ValueError(f"phases[{index}].if_passed: a deal switches games once")
        if phase.if_passed not in (None, IfPassed.PLAY_ON) and (
            self.forced.blinds or self.forced.bring_in
        ):
            raise ValueError(
                f"phases[{index}].if_passed: a round opened by blinds or a bring-in is never "
                "passed out"
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
                HandRanking.TWO_CARD,
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
            if system.adds_to and (self.selection is None or not self.selection.plays_any_five):
                raise ValueError(
                    f"showdown.halves[{index}]: wild cards made by addition play any five of "
                    "the cards"
                )
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
