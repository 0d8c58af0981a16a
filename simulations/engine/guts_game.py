"""Guts as data: the rules of one game of guts (Rules 000_1a86611de8d3f5f7.txt, 'Guts').

Guts "features multiple rounds, each of which consist of the decision to be “in” or “out”,
and each of which contains a showdown".  A :class:`GutsGame` says how many cards a hand
holds and how they rank, how they are dealt and how the players declare, the dealer's rule
where there is one, and what happens to the pot after each showdown; the session's state
machine (:mod:`simulations.engine.guts`) plays any of them.

The texts' choices, and where they are silent the reading taken (the other, where cheap,
is an option):

* hands of 2 or 3 cards; three cards rank three of a kind first as the texts write it, or
  the straight flush first as in regular poker (:class:`ThreeCardOrder`); in two-card
  hands "in some variations straights and flushes count and in some they do not";
* the decision "in" or "out" made by everyone at once ("the players simultaneously open
  their hands"), or in turn from the dealer's left with the dealer last, in the texts'
  three-card form, where "If they're in, they receive their third card face up" (as each
  declares, by default; or once all have declared);
* the dealer's rule: "if no other player has stayed in, then the dealer must have a pair or
  better to win the pot" (a dealer alone without one wins nothing and the same pot is dealt
  again, by default; or he matches the pot first), or the challenge: "for the
  other players to have another chance to declare and challenge the dealer";
* the pot: the most common version, where the best hand "receives the current pot, while
  all other players who stayed in must match the pot"; the worst hand alone "must double
  the pot rather than match it" (he pays twice the pot, so that the next pot is double the
  one just won; or the pot's amount); the vicious variation, "nobody wins the pot unless
  nobody else stays in" (the losers match the pot, which stays; or every player in does);
* a cap "at 50x or 100x the ante", the excess "set aside as the ante once there's a hand
  with a winner and no loser" (the next game's ante, by default; or the last winner's);
* nobody in: the same pot is dealt again, by default, or everyone antes again into it.

There are no table stakes in guts: a loser pays the whole match whatever he brought, so a
session counts each player's net chips, not stacks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from simulations.cards import STANDARD_CARD_COUNT, parse_cards
from simulations.engine.pots import OddChipRule
from simulations.evaluators.ranking import Ranking
from simulations.evaluators.small_hands import (
    ThreeCardOrder,
    evaluate_three_card,
    evaluate_two_card,
    two_card_system,
)

__all__ = [
    "DealerRule",
    "DealerWithoutPair",
    "Declaring",
    "GutsDeal",
    "GutsGame",
    "LastCard",
    "NobodyIn",
    "PotRule",
    "SetAside",
    "ThreeCardOrder",
    "ViciousPayers",
    "WorstHandPays",
]


class Declaring(StrEnum):
    """How the players declare "in" or "out"."""

    # 'Each player takes a chip, places their hands under the table ... the players
    # simultaneously open their hands to reveal their decision'
    SIMULTANEOUS = "simultaneous"
    # 'In turn, each player declares whether they're in or out' (the dealer last)
    IN_TURN = "in-turn"


class GutsDeal(StrEnum):
    """How a hand's cards are dealt."""

    ALL_DOWN = "all-down"  # every card face down before the decision
    # 'Each player receives two cards face down ... If they're in, they receive their
    # third card face up': the last card only to the players in, face up
    LAST_CARD_UP = "last-card-up"


class LastCard(StrEnum):
    """When a player in receives his last card face up, where declaring goes in turn."""

    AS_DECLARED = "as-declared"  # at once, so that the players after him see it
    AFTER_DECLARATIONS = "after-declarations"  # once everyone has declared


class DealerRule(StrEnum):
    """What the dealer, who declares last, may do alone."""

    NONE = "none"  # the dealer is one player like the others
    # 'if no other player has stayed in, then the dealer must have a pair or better to win'
    PAIR_TO_WIN_ALONE = "pair-to-win-alone"
    # 'the other players ... have another chance to declare and challenge the dealer ...
    # if no one challenges him, the dealer wins'
    CHALLENGE = "challenge"


class DealerWithoutPair(StrEnum):
    """A dealer alone in without a pair (the texts are silent on what follows)."""

    REDEAL = "redeal"  # nobody wins: the same pot is dealt again
    MATCHES = "matches"  # he pays the pot's amount into it, and it is dealt again


class PotRule(StrEnum):
    """Who takes the pot after a showdown, and who pays into the next one."""

    # 'the player who stays in with the best hand receives the current pot, while all other
    # players who stayed in must match the pot to form the next pot'
    MATCH = "match"
    # 'only the single player with the worst hand (who stayed in) must add to the pot, but
    # they must double the pot rather than match it'
    WORST_HAND_DOUBLES = "worst-hand-doubles"
    # 'nobody wins the pot unless nobody else stays in'
    VICIOUS = "vicious"


class WorstHandPays(StrEnum):
    """What the worst hand pays under the worst-hand-doubles rule."""

    TWICE_THE_POT = "twice-the-pot"  # the next pot is double the one just won
    THE_POT = "the-pot"  # the pot's amount, as a match


class ViciousPayers(StrEnum):
    """Who pays the pot's amount under the vicious rule when more than one stays in."""

    LOSERS = "losers"  # every player in but the best hand
    EVERY_PLAYER_IN = "every-player-in"


class NobodyIn(StrEnum):
    """A deal where nobody stays in (the texts are silent)."""

    REDEAL = "redeal"  # the same pot is dealt again
    RE_ANTE = "re-ante"  # every player antes again into it first


class SetAside(StrEnum):
    """Where the chips set aside over the cap go when the game ends."""

    # 'set aside as the ante once there's a hand with a winner and no loser': the next
    # game starts from them in place of the antes
    NEXT_GAME_ANTE = "next-game-ante"
    LAST_WINNER = "last-winner"  # the player who ends the game takes them with the pot


@dataclass(frozen=True)
class GutsGame:
    """One game of guts; see the module docstring for what each choice means."""

    name: str
    cards: int = 3
    order: ThreeCardOrder = ThreeCardOrder.THREE_OF_A_KIND_FIRST  # three cards only
    straights_and_flushes: bool = False  # two cards only: three-card hands always count them
    deal: GutsDeal = GutsDeal.ALL_DOWN
    declaring: Declaring = Declaring.SIMULTANEOUS
    last_card: LastCard = LastCard.AS_DECLARED
    dealer: DealerRule = DealerRule.NONE
    dealer_without_pair: DealerWithoutPair = DealerWithoutPair.REDEAL
    pot_rule: PotRule = PotRule.MATCH
    worst_hand_pays: WorstHandPays = WorstHandPays.TWICE_THE_POT
    vicious_payers: ViciousPayers = ViciousPayers.LOSERS
    ante: int = 1
    cap: int | None = None  # the most the pot holds; the excess is set aside
    set_aside: SetAside = SetAside.NEXT_GAME_ANTE
    nobody_in: NobodyIn = NobodyIn.REDEAL
    odd_chips: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON
    min_players: int = 2
    max_players: int = 10

    def __post_init__(self) -> None:
        if self.cards not in (2, 3):
            raise ValueError(f"cards: a guts hand holds 2 or 3 cards, not {self.cards}")
        if self.straights_and_flushes and self.cards != 2:
            raise ValueError(
                "straights_and_flushes: a choice of two-card hands; three-card hands always "
                "count straights and flushes"
            )
        if self.order is not ThreeCardOrder.THREE_OF_A_KIND_FIRST and self.cards != 3:
            raise ValueError("order: an order of three-card hands, not of two")
        if self.dealer is not DealerRule.NONE and self.declaring is not Declaring.IN_TURN:
            raise ValueError(
                "dealer: the dealer's rule needs declaring in turn (the dealer declares last)"
            )
        if self.ante < 1:
            raise ValueError(f"ante: must be at least 1, got {self.ante}")
        if self.cap is not None and self.cap < self.ante:
            raise ValueError(f"cap: {self.cap} is less than one ante ({self.ante})")
        if self.odd_chips is OddChipRule.EXACT:
            raise ValueError("odd_chips: guts pays whole chips, not exact shares")
        most = STANDARD_CARD_COUNT // self.cards
        if not 2 <= self.min_players <= self.max_players <= most:
            raise ValueError(
                f"players: {self.min_players} to {self.max_players} players; a {self.cards}-card "
                f"game deals 2 to {most} from 52 cards"
            )

    @property
    def system(self) -> str:
        """The ranking system's name, as listings show it."""
        if self.cards == 3:
            return self.order.system
        return two_card_system(self.straights_and_flushes)

    @property
    def down_cards(self) -> int:
        """The cards each player is dealt face down before he declares."""
        return self.cards - (self.deal is GutsDeal.LAST_CARD_UP)

    def ranking(self, cards: Sequence[int]) -> Ranking:
        """The hand ``cards`` (a whole hand) makes under the game's ranking."""
        return _ranking(self.cards, self.order, self.straights_and_flushes, tuple(sorted(cards)))

    def pair_or_better(self, cards: Sequence[int]) -> bool:
        """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "the dealer must have a pair or better":
        a hand at least as good as the lowest pair (2-2-3, or 2-2 in two cards)."""
        lowest = parse_cards("2c 2d 3h" if self.cards == 3 else "2c 2d")
        return self.ranking(cards) >= self.ranking(lowest)

    def cap_label(self) -> str:
        if self.cap is None:
            return "none"
        times = f" ({self.cap // self.ante}× the ante)" if self.cap % self.ante == 0 else ""
        return f"{self.cap}{times}"


@cache
def _ranking(
    size: int, order: ThreeCardOrder, straights_and_flushes: bool, cards: tuple[int, ...]
) -> Ranking:
    """A hand's ranking, worked out once per hand (the card order does not change it): a
    session of guts shows down the same few thousand hands again and again."""
    if size == 3:
        return evaluate_three_card(cards, order=order)
    return evaluate_two_card(cards, straights_and_flushes=straights_and_flushes)
