"""Upcards dealt to the centre for the players to take: Draft's choices and Auction's bids —
a part of :class:`~simulations.engine.hand.Hand`.

Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous':

* Draft ('socialist poker'): 'for each player remaining, one upcard is dealt to the center of
  the table (not to any specific player). The player with the worst showing hand gets to
  choose which of them he will take for his next upcard, then the player with the
  second-worst showing hand chooses his upcard from those left, and so on, until the player
  who previously had the best showing hand takes the remaining card.'  The hands showing are
  read as the game's order of betting reads them (:func:`~simulations.engine.forced.
  showing_opener`), so the best is the player who would open the betting and, of equal
  hands, the first from the dealer's left; the order of choosing is that order reversed.
  The last player takes the card left without being asked.
* Auction: 'the first card is dealt to the center and all players bid on it; the player who
  bids the highest amount places that amount into the pot, and then has the right to either
  keep the auction card as his own upcard, or designate another player who is required to
  take it as his. After the first card is auctioned off and placed, the remaining players
  are dealt a random upcard as usual'.  The bidding (:class:`~simulations.engine.phases.
  Auction`): open bids in turn from the dealer's left, each topping the last by the
  minimum, a pass leaving the auction, until one bid stands; or one sealed bid each, shown
  together.  The bid is dead money in the pot.
"""

from __future__ import annotations

from mypy_extensions import trait

from simulations.cards import Card, format_card, format_cards
from simulations.engine.actions import Action, ActionKind, CardChoice, IllegalAction
from simulations.engine.card_phases import CardPhases
from simulations.engine.events import (
    Bid,
    Bought,
    CentreDealt,
    Designated,
    Drafted,
    HoleDealt,
)
from simulations.engine.forced import clockwise, showing_opener
from simulations.engine.phases import Auction, Deal, Draft
from simulations.evaluators.lowball import Lowball


@trait  # a mixin of Hand: the compiled engine allows one base class besides traits
class CentrePhases(CardPhases):
    """Drafts and auctions, mixed into :class:`~simulations.engine.hand.Hand` (which owns the
    state declared here and in :class:`CardPhases`)."""

    centre: list[Card]  # face up in the centre, not yet taken
    _high_bid: tuple[int, int] | None  # an open auction's standing bid: (seat, amount)
    _sealed_bids: dict[int, int]  # a sealed auction's bids, not yet shown
    _buyer: int  # the auction's buyer, to designate who takes the card (-1: none yet)

    def _live(self) -> list[int]:
        return [s for s in clockwise(self.button + 1, self.n) if not self.folded[s]]

    def _open_centre(self, phase: Draft | Auction) -> None:
        """Deal a draft's cards or the auction card to the centre and line up the players who
        choose or bid (none: an auction nobody can bid in is over at once)."""
        live = self._live()
        self._high_bid = None
        self._sealed_bids = {}
        self._buyer = -1
        if isinstance(phase, Draft):
            self._deciding = self._worst_showing_first(live)
            cards = self._to_centre(phase.street, len(live), phase.burn)
            self.events.append(CentreDealt(phase.street, cards))
            return
        burn = phase.burn
        if phase.down:  # third street's down cards, as usual, before the auction
            dealt = self._dealer.deal(
                Deal(phase.street, down=phase.down, burn=burn), live, last=False
            )
            for seat in live:
                self._give(seat, tuple(dealt.down[seat]), face_up=False)
            burn = False
        cards = self._to_centre(phase.street, 1, burn)
        self.events.append(CentreDealt(phase.street, cards))
        self._deciding = [s for s in live if self.stacks[s] >= phase.minimum]
        if not self._deciding:  # no one can bid: the card goes as if no one did
            self._place_auction_card(phase, -1, live[0])

    def _to_centre(self, street: str, count: int, burn: bool) -> tuple[Card, ...]:
        dealt = self._dealer.deal(Deal(street, board=count, burn=burn), (), last=False)
        assert not dealt.community and len(dealt.board) == count  # never the last deal
        self.centre = list(dealt.board)
        return dealt.board

    def _give(self, seat: int, cards: tuple[Card, ...], *, face_up: bool) -> None:
        if not cards:
            return
        self.hole[seat].extend(cards)
        if face_up:
            self.up[seat].extend(cards)
            self.upcards_dealt.extend(cards)
        self.events.append(HoleDealt(seat, cards, face_up))

    def _worst_showing_first(self, live: list[int]) -> list[int]:
        """The live players from the worst hand showing to the best: the order of betting's
        reading of the upcards, best first (ties to the first from the dealer's left),
        reversed."""
        lowball = self.game.showdown.halves[-1].ranking.lowball or Lowball.ACE_TO_FIVE
        shared = self.board if self.game.deals_board else []
        showing = [[*up, *shared] for up in self.up]
        left = list(live)
        best_first = []
        while left:
            seat = showing_opener(
                showing, left, self.game.acting_order, lowball, dealt=not self.game.deck.jokers
            )
            best_first.append(seat)
            left.remove(seat)
        return best_first[::-1]

    # -- the players' turns --------------------------------------------------------------

    def _centre_choice(self, seat: int, phase: Draft | Auction) -> CardChoice:
        centre = tuple(self.centre)
        if isinstance(phase, Draft):
            return CardChoice(ActionKind.DRAFT, centre, 1, 1)
        if self._buyer >= 0:
            return CardChoice(ActionKind.DESIGNATE, centre, 0, 0, seats=tuple(self._live()))
        return CardChoice(
            ActionKind.BID, centre, 0, 0, bids=(self._least_bid(phase), self._most(seat))
        )

    def _most(self, seat: int) -> int:
        return int(self.stacks[seat])

    def _least_bid(self, phase: Auction) -> int:
        high = self._high_bid
        return phase.minimum if high is None or phase.sealed else high[1] + phase.minimum

    def _centre_decide(self, seat: int, action: Action, phase: Draft | Auction) -> None:
        """Apply ``seat``'s choice of a centre card, bid or designation (every check first:
        an illegal one leaves the hand as it was)."""
        if isinstance(phase, Draft):
            self._draft(seat, action)
        elif self._buyer >= 0:
            self._designate(seat, action, phase)
        else:
            self._bid(seat, action, phase)

    def _draft(self, seat: int, action: Action) -> None:
        if action.kind is not ActionKind.DRAFT:
            raise IllegalAction(
                f"a draft is due: take one card from the centre (got {action.kind.value})"
            )
        if len(action.cards) != 1:
            raise IllegalAction(f"a draft takes one card from the centre, got {len(action.cards)}")
        card = action.cards[0]
        if card not in self.centre:
            raise IllegalAction(
                f"{format_card(card)} is not in the centre ({format_cards(self.centre)})"
            )
        self._legal = None
        self._take(seat, card)
        self._deciding.pop(0)
        if len(self._deciding) == 1:  # the best hand showing takes the card left
            self._take(self._deciding.pop(0), self.centre[0])
        if self._deciding:
            self.actor = self._deciding[0]
            return
        self._end_centre()

    def _take(self, seat: int, card: Card) -> None:
        self.centre.remove(card)
        self.hole[seat].append(card)
        self.up[seat].append(card)
        self.upcards_dealt.append(card)
        self.events.append(Drafted(seat, card))

    def _bid(self, seat: int, action: Action, phase: Auction) -> None:
        if action.kind is not ActionKind.BID:
            raise IllegalAction(
                f"a bid is due: bid for {format_card(self.centre[0])} or pass "
                f"(got {action.kind.value})"
            )
        if action.cards or action.designee is not None:
            raise IllegalAction("a bid names an amount (or none, to pass), nothing else")
        amount = action.total
        if amount is not None:
            least, most = self._least_bid(phase), self._most(seat)
            if amount > most:
                raise IllegalAction(f"a bid of {amount} is more than the player has ({most})")
            if amount < least:
                raise IllegalAction(f"a bid must be at least {least}, got {amount}")
        self._legal = None
        self._deciding.pop(0)
        if phase.sealed:
            if amount is not None:
                self._sealed_bids[seat] = amount
            if not self._deciding:
                self._open_sealed_bids(phase)
            else:
                self.actor = self._deciding[0]
            return
        self.events.append(Bid(seat, amount))
        if amount is not None:
            self._high_bid = (seat, amount)
            self._deciding.append(seat)  # bids again only if someone tops him
        high = self._high_bid
        while self._deciding and (high is None or self._deciding[0] != high[0]):
            if self.stacks[self._deciding[0]] >= self._least_bid(phase):
                self.actor = self._deciding[0]
                return
            self._deciding.pop(0)  # cannot top the bid: out of the auction
        if high is None:  # everyone passed
            self._place_auction_card(phase, -1, self._live()[0])
            self._end_centre()
        else:
            self._sell(phase, high[0], high[1])

    def _open_sealed_bids(self, phase: Auction) -> None:
        """Every sealed bid shown at once, from the dealer's left; the highest buys the card,
        the first from the dealer's left of equal bids."""
        bids = self._sealed_bids
        order = [s for s in self._live() if s in bids]
        for seat in self._live():
            self.events.append(Bid(seat, bids.get(seat)))
        if not order:
            self._place_auction_card(phase, -1, self._live()[0])
            self._end_centre()
            return
        best = max(bids[s] for s in order)
        self._sell(phase, next(s for s in order if bids[s] == best), best)

    def _sell(self, phase: Auction, seat: int, amount: int) -> None:
        """The standing bid buys the card: its amount into the pot, and the buyer's turn to
        say who takes it."""
        self._put_dead(seat, amount)
        self.events.append(Bought(seat, self.centre[0], amount, self.stacks[seat] == 0))
        self._buyer = seat
        self._deciding = [seat]
        self.actor = seat

    def _designate(self, seat: int, action: Action, phase: Auction) -> None:
        if action.kind is not ActionKind.DESIGNATE:
            raise IllegalAction(
                "the buyer says who takes the card: designate a player, himself to keep it "
                f"(got {action.kind.value})"
            )
        live = self._live()
        if action.designee is None or action.designee not in live:
            raise IllegalAction(
                f"the card goes to a player still in the hand (seats {live}), not {action.designee}"
            )
        self._legal = None
        self._deciding = []
        self._place_auction_card(phase, seat, action.designee)
        self._end_centre()

    def _place_auction_card(self, phase: Auction, buyer: int, to: int) -> None:
        """The auction card goes face up to ``to``; then every other live player is dealt
        his upcard from the stub, from the dealer's left."""
        card = self.centre.pop(0)
        self.hole[to].append(card)
        self.up[to].append(card)
        self.upcards_dealt.append(card)
        self.events.append(Designated(buyer, to, card))
        others = [s for s in self._live() if s != to]
        dealt = self._dealer.deal(Deal(phase.street, up=1), others, last=False)
        for seat in others:
            self._give(seat, tuple(dealt.up[seat]), face_up=True)
        self._buyer = -1
        self._high_bid = None

    def _end_centre(self) -> None:
        self.actor = None
        self._advance()
