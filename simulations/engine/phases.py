"""The phases of a hand: what happens, in order, between the forced bets and the showdown.

A game is a list of phases, each of one kind, and the hand's state machine has one handler
per kind:

* :class:`Deal` — cards to each live player (down, then up) or to the board, after an
  optional burn card.  Automatic.
* :class:`Bet` — a betting round; who opens it follows the game's acting order.
* :class:`Draw` — each live player in turn, from the dealer's left, discards 0..N cards and
  is dealt as many from the stub (Rules 003_6e018542f14946f8.txt, 'Five-card draw': 'each
  player in turn beginning at the dealer's left is dealt from the stub the same number of
  cards he discarded').
* :class:`Discard` — each live player throws away exactly N cards with none in return
  (pineapple).
* :class:`Expose` — each live player turns N of his down cards face up, by choice (Mexican
  stud's roll).
* :class:`Declare` — each live player declares high, low or both (high-low declare).
* :class:`Arrange` and :class:`Reveal` — a roll-out: each live player orders his down cards,
  then each reveal turns up his next ones (Shotgun).
* :class:`Pass` — each live player hands N of his cards to a neighbour (Anaconda, Rules
  000_1a86611de8d3f5f7.txt: 'No players get to see their new 3 cards until everyone has
  made a pass'); a player who has folded is 'no longer involved in card passing'.

A decision phase (draw, discard, expose, pass, declare, arrange) asks each live player in
turn clockwise from the dealer's left.  A *simultaneous* one takes effect only when every
player has chosen, so no one learns another's choice first (a pass, a declaration, an
arrangement; guts' in or out is of this kind too); a draw takes effect at once, since each
player's replacements come off the stub before the next player draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from simulations.cards import Rank
from simulations.engine.actions import ActionKind


@dataclass(frozen=True)
class Deal:
    """Cards dealt at the start of ``street``: ``down`` and ``up`` to each live player (one at
    a time, clockwise from the dealer's left, down cards first), ``board`` to the centre;
    a burn card first when ``burn``."""

    street: str
    down: int = 0
    up: int = 0
    board: int = 0
    burn: bool = False

    def __post_init__(self) -> None:
        if min(self.down, self.up, self.board) < 0:
            raise ValueError(f"{self.street}: card counts cannot be negative")
        if not (self.down or self.up or self.board):
            raise ValueError(f"{self.street}: a deal deals at least one card")

    @property
    def per_player(self) -> int:
        return self.down + self.up


class FirstToAct(StrEnum):
    """Who opens a betting round after the first (the first follows the blinds or bring-in).

    Rules 003_6e018542f14946f8.txt, 'Five-card draw': the round after the draw begins 'with
    the player to the dealers left or else beginning with the player who opened the first
    round (the latter is common when antes are used instead of blinds)'."""

    GAME = "game"  # the game's acting order: position, or the hand showing in stud
    FIRST_ROUND_OPENER = "first-round-opener"  # the player who opened the first round


@dataclass(frozen=True)
class Bet:
    """A betting round (its size follows the round's place: ``Stakes.bet_size``).

    ``opens_with``: no one may open the round (make its first bet) unless his hand holds a
    pair of that rank or better — jackpots' 'no player is allowed to open the betting
    unless his hand already contains a pair of jacks or a better hand' (Rules 000_
    1a86611de8d3f5f7.txt, 'Gardena jackpots').  If no one opens, the deal is passed out and
    the pot stays for the next deal.
    """

    opens_with: Rank | None = None
    first: FirstToAct = FirstToAct.GAME


@dataclass(frozen=True)
class Draw:
    """A draw: each live player discards up to ``most`` cards (none is standing pat) and is
    dealt as many, after one burn card when ``burn``.

    ``most_keeping_ace``: the house limit of Rules 003_6e018542f14946f8.txt, 'a player may
    not replace more than three cards, unless he draws four cards while keeping an ace (or
    wild card)' — ``most=3, most_keeping_ace=4``.
    """

    street: str
    most: int = 5
    most_keeping_ace: int | None = None
    burn: bool = True
    # Cards dealt beyond those discarded: Four-before's 'each player draws one more card than
    # he discards' (Rules 000_1a86611de8d3f5f7.txt, 'Four-before').
    extra: int = 0

    def __post_init__(self) -> None:
        if self.most < 0:
            raise ValueError(f"{self.street}: a draw replaces 0 or more cards, got {self.most}")
        if self.extra < 0:
            raise ValueError(f"{self.street}: a draw deals no fewer cards than discarded")
        if self.most_keeping_ace is not None and self.most_keeping_ace <= self.most:
            raise ValueError(f"{self.street}: the limit keeping an ace must exceed {self.most}")

    def limit(self, keeps_ace: bool) -> int:
        """The most cards a player may replace (``keeps_ace``: his kept cards hold an ace or a
        wild card)."""
        if keeps_ace and self.most_keeping_ace is not None:
            return self.most_keeping_ace
        return self.most


@dataclass(frozen=True)
class Discard:
    """Each live player discards exactly ``count`` cards face down (pineapple: 'discard one of
    the three hole cards')."""

    street: str
    count: int = 1

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"{self.street}: a discard throws away at least one card")


@dataclass(frozen=True)
class Expose:
    """Each live player turns ``count`` of his down cards face up, chosen by him, all at once."""

    street: str
    count: int = 1

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"{self.street}: an exposure turns up at least one card")


class PassDirection(StrEnum):
    """Where a pass goes: to the next live player on the left (clockwise, the way the deal
    goes), on the right, or across the table (halfway round the live players, counting to
    the left)."""

    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"


@dataclass(frozen=True)
class Pass:
    """Each live player passes ``count`` of his down cards to the live player ``direction``
    of him; no one sees what he receives until every player has passed."""

    street: str
    count: int
    direction: PassDirection = PassDirection.LEFT

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"{self.street}: a pass hands on at least one card")

    def receivers(self, live: Sequence[int]) -> dict[int, int]:
        """Who receives each live player's cards (``live``: the seats still in, clockwise
        from the dealer's left)."""
        count = len(live)
        step = {
            PassDirection.LEFT: 1,
            PassDirection.RIGHT: count - 1,
            PassDirection.ACROSS: count // 2,
        }[self.direction]
        return {seat: live[(i + step) % count] for i, seat in enumerate(live)}


@dataclass(frozen=True)
class Declare:
    """Each live player declares for the high half, the low half or both (Rules 000_
    1a86611de8d3f5f7.txt, 'High/low with declare': 'a simultaneous declaration phase ...
    the players all open their hands simultaneously'); ``in_turn``: one after another from
    the dealer's left, each declaration known to those after him."""

    street: str = "declare"
    in_turn: bool = False


@dataclass(frozen=True)
class Arrange:
    """Each live player puts all his down cards in the order a roll-out will turn them up,
    and may not change it (Rules 000_1a86611de8d3f5f7.txt, 'Shotgun': 'the players
    arranging their five cards in any chosen order, placing them face down ... Players may
    not change the order of their cards at any time during the rollout phase')."""

    street: str = "arrange"


@dataclass(frozen=True)
class Reveal:
    """A roll-out's step: each live player's next ``count`` arranged cards are turned face up
    ('Each player's top card is now revealed, followed by a betting round').  Automatic."""

    street: str
    count: int = 1

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"{self.street}: a roll-out turns up at least one card")


Phase = Deal | Bet | Draw | Discard | Expose | Pass | Declare | Arrange | Reveal
Decision = Draw | Discard | Expose | Pass | Declare | Arrange


class PhaseKind(StrEnum):
    """The kinds of phase, as game files name them."""

    DEAL = "deal"
    BET = "bet"
    DRAW = "draw"
    DISCARD = "discard"
    EXPOSE = "expose"
    PASS = "pass"
    DECLARE = "declare"
    ARRANGE = "arrange"
    REVEAL = "reveal"


def cards_held(phases: Sequence[Phase]) -> tuple[int, int]:
    """(cards each player who stays holds once ``phases`` are done, cards on the board)."""
    held = board = 0
    for phase in phases:
        if isinstance(phase, Deal):
            held += phase.per_player
            board += phase.board
        elif isinstance(phase, Discard):
            held -= phase.count
        elif isinstance(phase, Draw):
            held += phase.extra
    return held, board


def decision_action(phase: Decision) -> ActionKind:
    """The action a player answers ``phase`` with."""
    match phase:
        case Draw():
            return ActionKind.DRAW
        case Discard():
            return ActionKind.DISCARD
        case Expose():
            return ActionKind.EXPOSE
        case Pass():
            return ActionKind.PASS
        case Declare():
            return ActionKind.DECLARE
        case Arrange():
            return ActionKind.ARRANGE
    raise TypeError(f"not a decision phase: {phase!r}")


def simultaneous(phase: Decision) -> bool:
    """Whether every player's choice takes effect together (see the module docstring)."""
    if isinstance(phase, Declare):
        return not phase.in_turn
    return not isinstance(phase, Draw)


def describe_phase(phase: Phase) -> str:
    """A phase as ``cardroom games show`` prints it."""
    match phase:
        case Deal(street, down, up, board, burn):
            parts = [
                f"{count} {what}"
                for count, what in ((down, "down"), (up, "up"), (board, "to the board"))
                if count
            ]
            return f"{street}: {'burn, ' if burn else ''}deal {', '.join(parts)}"
        case Bet(opens_with, first):
            text = "betting round"
            if opens_with is not None:
                text += f", opened only with a pair of {opens_with.plural} or better"
            if first is FirstToAct.FIRST_ROUND_OPENER:
                text += ", the first round's opener first"
            return text
        case Draw(street, most, keeping_ace, burn, extra):
            limit = f" ({keeping_ace} keeping an ace or wild card)" if keeping_ace else ""
            more = f", dealt {extra} more than discarded" if extra else ""
            return f"{street}: {'burn, ' if burn else ''}draw up to {most}{limit}{more}"
        case Discard(street, count):
            return f"{street}: discard {count}"
        case Expose(street, count):
            return f"{street}: expose {count}"
        case Pass(street, count, direction):
            return f"{street}: pass {count} to the {direction.value}"
        case Declare(street, in_turn):
            return f"{street}: declare high, low or both, {'in turn' if in_turn else 'all at once'}"
        case Arrange(street):
            return f"{street}: each player orders his down cards for the roll-out"
        case Reveal(street, count):
            return f"{street}: roll out {count}"
    raise TypeError(f"not a phase: {phase!r}")
