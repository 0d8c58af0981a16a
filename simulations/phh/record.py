"""A hand the engine has played, written as a PHH hand history.

The players are numbered as PHH numbers them: ``p1`` on the button's left, the button last.
The history holds the stakes and forced bets (``antes``, ``blinds_or_straddles``,
``bring_in``, ``small_bet`` and ``big_bet`` or ``min_bet``), the starting and finishing
stacks, and the actions in the order they happened:

* ``d dh pN CARDS`` for each player's cards of a deal (a stud street's down cards, then its
  upcard) and for a draw's replacements, ``d db CARDS`` for the board;
* ``pN f``, ``pN cc`` (check or call), ``pN cbr TOTAL`` (bet, complete or raise to the round
  total), ``pN pb`` (the bring-in) and ``pN sd CARDS`` (the cards discarded; none: standing
  pat), every draw's discards before its replacements;
* ``pN sm CARDS`` for every hand shown down.

Two things are written as PHH's reference implementation plays a hand, so that it reads the
history back as written (the engine's own replay skips the first and ignores the timing of
the second):

* a check is written for a player who has not acted since the last bet when the engine
  skipped his turn because no one could answer a bet (every other player still in is all
  in): that implementation asks him for it;
* the hands are shown as soon as no more betting is possible (at most one player still in
  has chips and no draw is left), before the rest of the board is dealt; otherwise at the
  end.

A hand PHH has no notation for is refused with a ValueError naming what: a deal played for
a pot carried from another, kill blinds, posts, blinds placed by a button rule, and phases
other than deals, draws and betting (exposures, passes, declarations, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from simulations.cards import Card, format_card
from simulations.engine.events import (
    Awarded,
    BetOrRaised,
    BoardDealt,
    Burned,
    Called,
    Checked,
    Discarded,
    Event,
    Exhausted,
    Folded,
    HoleDealt,
    OutOfCards,
    Posted,
    PostKind,
    Raked,
    Reshuffled,
    Returned,
    Shown,
)
from simulations.engine.game import GameDefinition
from simulations.engine.hand import Hand
from simulations.engine.limits import Limit
from simulations.engine.phases import Bet, Deal, Draw
from simulations.engine.pots import Chips
from simulations.phh.model import Number, PhhHand

# The variant codes PHH defines (those of them the registry has are written as they are).
PHH_VARIANTS = frozenset(
    {"FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB"}
)
# A game PHH does not define is written under the registry's code, named in this field.
GAME_FIELD = "_cardroom_game"
_POSTED = frozenset({PostKind.ANTE, PostKind.BIG_BLIND_ANTE, PostKind.BLIND, PostKind.STRADDLE})
_WRITTEN = (
    Posted,
    HoleDealt,
    BoardDealt,
    Burned,
    Discarded,
    Folded,
    Checked,
    Called,
    BetOrRaised,
)
# The showdown and settlement: the history's finishing stacks say what they did.
_SHOWDOWN = (Shown, Returned, Raked, Awarded)
_RAN_OUT = (Exhausted, OutOfCards, Reshuffled)


def _cards(cards: Sequence[Card]) -> str:
    return "".join(format_card(card) for card in cards)


def _chips(value: Chips) -> Number:
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return int(value)


def check_writable(game: GameDefinition) -> None:
    """ValueError naming what in ``game`` PHH cannot record."""
    others = [p for p in game.phases if not isinstance(p, Deal | Draw | Bet)]
    if others:
        kind = type(others[0]).__name__.lower()
        raise ValueError(
            f"PHH has no notation for {game.name}'s {kind} phase: only deals, draws and "
            "betting can be written"
        )
    if game.forced.first_blind_on_button:
        raise ValueError(f"PHH cannot place {game.name}'s first blind on the button")
    if game.stakes.sizes:
        raise ValueError(f"PHH has no notation for {game.name}'s bet sizes round by round")


class _Writer:
    """The action lines of one hand, from its events."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.n = hand.n
        self.lines: list[str] = []
        self.stacks: list[int] = list(hand.starting_stacks)
        self.live = [True] * self.n
        self.held: list[list[Card]] = [[] for _ in range(self.n)]
        self.acted: set[int] = set()  # since the round's last bet or raise
        self.round_betting = False  # a player acted in the betting round under way
        self.last_aggressor: int | None = None
        self.dealt: dict[int, list[Card]] = {}  # a deal or a draw's cards, not yet written
        self.discards: list[str] = []  # a draw's discards, not yet written
        self.drawing = False  # the cards dealt now replace discards
        # Each deal's cards a player (a stud street's down and up cards together).
        self.deal_sizes = [
            p.per_player for p in hand.game.phases if isinstance(p, Deal) and p.per_player
        ] or [0]
        self.deal_index = 0
        self.shown = False  # the hands were shown when no more betting was possible
        self.showing: dict[int, list[Card]] = {}  # the cards each hand showed

    def name(self, seat: int) -> str:
        return f"p{(seat - self.hand.button - 1) % self.n + 1}"

    def write(self) -> list[str]:
        events = self.hand.events
        for index, event in enumerate(events):
            if not isinstance(event, _WRITTEN):
                if isinstance(event, _SHOWDOWN):
                    continue
                if isinstance(event, _RAN_OUT):
                    raise ValueError(
                        "the deck ran out and the dealer reused or reshuffled cards: a history "
                        "of it could not be dealt again from one deck order"
                    )
                raise ValueError(f"PHH has no notation for the engine's {type(event).__name__}")
            if isinstance(event, Folded | Checked | Called | BetOrRaised):
                self.flush()
                self.act(event)
                continue
            if isinstance(event, Posted):
                self.post(event)
                continue
            # A deal, a draw or a burn: the betting round before it is over.
            self.end_round(events[index:])
            if isinstance(event, HoleDealt):
                self.deal(event)
            elif isinstance(event, Discarded):
                if not self.drawing:
                    self.flush()
                    self.drawing = True
                self.discards.append(f"{self.name(event.seat)} sd {_cards(event.cards)}".rstrip())
                self.held[event.seat] = [c for c in self.held[event.seat] if c not in event.cards]
            else:
                following = events[index + 1] if index + 1 < len(events) else None
                if self.drawing and isinstance(event, Burned) and isinstance(following, HoleDealt):
                    continue  # the burn before a replacement held back: the same draw
                self.flush()
                if isinstance(event, BoardDealt):
                    self.lines.append(f"d db {_cards(event.cards)}")
        self.flush()
        self.end_round(())
        self.show()
        return self.lines

    def deal(self, event: HoleDealt) -> None:
        """A player's cards: a draw's replacements, or a deal's (a stud street's down cards
        and upcard in one line; a player dealt again past the deal's count starts the next
        deal, as when streets are dealt out with no betting between them)."""
        seat = event.seat
        if not self.drawing:
            size = self.deal_sizes[min(self.deal_index, len(self.deal_sizes) - 1)]
            if len(self.dealt.get(seat, ())) + len(event.cards) > size:
                self.flush()
        self.dealt.setdefault(seat, []).extend(event.cards)
        self.held[seat].extend(event.cards)

    def flush(self) -> None:
        """A draw's discards, then the cards dealt since the last action, a line a player."""
        self.lines.extend(self.discards)
        self.discards = []
        seats = list(self.dealt)
        if seats and not self.drawing:
            self.deal_index += 1
            seats.sort(key=lambda seat: (seat - self.hand.button - 1) % self.n)  # p1 first
        for seat in seats:
            self.lines.append(f"d dh {self.name(seat)} {_cards(self.dealt[seat])}")
        self.dealt = {}
        self.drawing = False

    def post(self, event: Posted) -> None:
        self.stacks[event.seat] -= event.amount
        if event.kind is PostKind.BRING_IN:
            self.flush()
            self.lines.append(f"{self.name(event.seat)} pb")
            self.acted.add(event.seat)
            self.round_betting = True
        elif event.kind not in _POSTED:
            raise ValueError(f"PHH has no notation for a {event.kind.value} post")

    def act(self, event: Folded | Checked | Called | BetOrRaised) -> None:
        seat = event.seat
        who = self.name(seat)
        self.round_betting = True
        if isinstance(event, Folded):
            self.live[seat] = False
            self.lines.append(f"{who} f")
        elif isinstance(event, Checked | Called):
            if isinstance(event, Called):
                self.stacks[seat] -= event.amount
            self.lines.append(f"{who} cc")
        else:
            self.stacks[seat] -= event.amount
            self.lines.append(f"{who} cbr {event.total}")
            self.acted = set()
            self.last_aggressor = seat
        self.acted.add(seat)

    def end_round(self, rest: Sequence[Event]) -> None:
        """The betting round just over: the checks asked of players the engine did not ask
        (nobody could answer a bet), then, if no more betting is possible, the showdown."""
        if not self.round_betting:
            return
        self.round_betting = False
        live = [s for s in range(self.n) if self.live[s]]
        start = self.hand.button + 1 if self.last_aggressor is None else self.last_aggressor
        for step in range(self.n if len(live) > 1 else 0):
            seat = (start + step) % self.n
            if self.live[seat] and self.stacks[seat] > 0 and seat not in self.acted:
                self.lines.append(f"{self.name(seat)} cc")
        self.acted = set()
        self.last_aggressor = None
        with_chips = [s for s in live if self.stacks[s] > 0]
        draws_left = any(isinstance(e, Discarded) for e in rest)
        if len(live) > 1 and len(with_chips) <= 1 and not draws_left and not self.shown:
            self.show()

    def show(self) -> None:
        """Every hand still in shown, from the button's left; at the end, again for a hand
        dealt more cards since it was shown (a stud hand all in before the seventh)."""
        self.shown = True
        live = [s for s in range(self.n) if self.live[s]]
        if len(live) < 2:
            return
        for step in range(1, self.n + 1):
            seat = (self.hand.button + step) % self.n
            if self.live[seat] and self.showing.get(seat) != self.held[seat]:
                self.showing[seat] = list(self.held[seat])
                self.lines.append(f"{self.name(seat)} sm {_cards(self.held[seat])}")


def _stakes(hand: Hand, name: Any) -> dict[str, Any]:
    """The hand's stakes and forced bets as PHH's fields, by player from ``p1``."""
    game = hand.game
    n = hand.n
    forced = game.forced
    antes = [0] * n
    if forced.ante:
        antes = [forced.ante] * n
    blinds: list[int] = [0] * n
    for event in hand.events:
        if isinstance(event, Posted) and event.kind is PostKind.BIG_BLIND_ANTE:
            antes[name(event.seat)] = forced.big_blind_ante
    for index, blind in enumerate(forced.blinds):
        blinds[index] = blind
    for event in hand.events:
        if isinstance(event, Posted) and event.kind is PostKind.STRADDLE:
            blinds[name(event.seat)] = event.amount
    fields: dict[str, Any] = {"antes": tuple(antes)}
    if forced.blinds:
        fields["blinds_or_straddles"] = tuple(blinds)
    if forced.bring_in:
        fields["bring_in"] = forced.bring_in
    stakes = game.stakes
    if game.limit is Limit.FIXED:
        fields["small_bet"] = stakes.small_bet
        fields["big_bet"] = stakes.bet_size(stakes.big_bet_round)
    else:
        fields["min_bet"] = stakes.small_bet
    return fields


def hand_history(
    hand: Hand,
    variant: str,
    *,
    players: Sequence[str] | None = None,
    number: int | None = None,
) -> PhhHand:
    """The PHH history of a finished ``hand`` of the registry's game ``variant``.

    A game PHH does not define is written under the registry's code, with the game's name in
    a user-defined field (``_cardroom_game``): readers of PHH's own variants refuse it,
    ``cardroom replay`` reads it."""
    if not hand.finished:
        raise ValueError("the hand is still being played: only a finished hand is written")
    check_writable(hand.game)
    if hand.blind_seats is not None:
        raise ValueError("PHH cannot place blinds by a button rule: its blinds follow p1")
    if hand.carried_in:
        raise ValueError("PHH has no notation for a pot carried from an earlier deal")
    n = hand.n

    def phh_index(seat: int) -> int:
        return (seat - hand.button - 1) % n

    by_name = sorted(range(n), key=phh_index)  # our seat of p1, p2, ...
    extra: tuple[tuple[str, Any], ...] = ()
    if variant not in PHH_VARIANTS:
        extra = ((GAME_FIELD, f"{hand.game.name} (a cardroom code; PHH does not define it)"),)
    fields = _stakes(hand, phh_index)
    return PhhHand(
        variant=variant,
        starting_stacks=tuple(hand.starting_stacks[s] for s in by_name),
        actions=tuple(_Writer(hand).write()),
        finishing_stacks=tuple(_chips(hand.stacks[s]) for s in by_name),
        hand=number,
        players=tuple(players) if players is not None else None,
        extra=extra,
        **fields,
    )
