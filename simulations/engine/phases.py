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
* :class:`Donate` — each live player gives N down cards, face down, to a pile the board is
  dealt from (East Village); a :class:`Deal` with ``pile`` deals the board from it.
* :class:`Twist` — each live player in turn may buy one card from the stub in exchange for
  one of his, paying a price into the pot (a twist round; the Tittle: buying again).
* :class:`Pay` — each live player dealt an upcard of a rank in the deal just before matches
  the pot or folds (Baseball's 3s); a :class:`Deal` with ``extra_up`` deals a player an
  extra upcard at once for each upcard of its rank (Baseball's 4s).
* :class:`Split` — each live player splits his seven cards into a five-card hand and a
  two-card hand (Cowpie), all at once.
* :class:`Draft` — a deal of one upcard for each live player to the centre, which the
  players take one by one, the worst hand showing choosing first (Draft, 'socialist poker').
* :class:`Auction` — a deal whose first upcard goes to the centre and is auctioned; the
  buyer pays his bid into the pot and keeps it or designates who must take it, and the
  others are dealt their upcards (Auction).

A decision phase (draw, discard, donate, expose, pass, declare, arrange, twist, pay, split)
asks each live player in turn clockwise from the dealer's left (a payment: each player dealt
the rank, in the order dealt; a draft: from the worst hand showing to the best; an auction:
the bidders in turn from the dealer's left, then the buyer).  A *simultaneous* one takes
effect only when every player has chosen, so no one learns another's choice first (a pass, a
declaration, an arrangement, a donation, a split, sealed bids; guts' in or out is of this
kind too); a draw, a twist and a payment take effect at once, since each player's
replacements come off the stub before the next player draws (a draft's choices and an
auction's open bids are seen as made too).
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
    a burn card first when ``burn``.

    ``pile``: the board comes off the pile a :class:`Donate` phase made, not the stub (East
    Village, Rules 002_376df91f076a6501.txt, '= East Village =': '5 of these cards will then
    make up the three card flop, the one card turn, and the one card river').

    ``extra_up``: a player dealt an upcard of this rank is dealt another upcard at once, and
    another for each such card that follows (Baseball, Rules 000_1a86611de8d3f5f7.txt,
    'Miscellaneous': 'being dealt an extra upcard upon receiving a' — the captured text lost
    the rank; the usual game's is the 4).
    """

    street: str
    down: int = 0
    up: int = 0
    board: int = 0
    burn: bool = False
    pile: bool = False
    extra_up: Rank | None = None

    def __post_init__(self) -> None:
        if min(self.down, self.up, self.board) < 0:
            raise ValueError(f"{self.street}: card counts cannot be negative")
        if not (self.down or self.up or self.board):
            raise ValueError(f"{self.street}: a deal deals at least one card")
        if self.pile and (self.down or self.up or self.burn):
            raise ValueError(f"{self.street}: a deal from the pile deals board cards, unburned")
        if self.extra_up is not None and (not self.up or self.board):
            raise ValueError(f"{self.street}: an extra upcard needs upcards (and no board)")

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


class IfPassed(StrEnum):
    """What a betting round in which no one bets leads to.

    Rules 000_1a86611de8d3f5f7.txt, 'Gardena jackpots': 'If no player opens, a new deal
    begins and everyone antes again into the same pot'; 'Johnson': 'If the first round is
    passed out (that is, no one opens), then the player to the dealer's left may now open
    if he chooses, but the game has switched to California lowball'."""

    PLAY_ON = "play-on"  # checked around: the hand goes on (the usual round)
    REDEAL = "redeal"  # passed out: the deal ends and its pot stays for the next deal
    SWITCH = "switch"  # the deal goes on as the game's other game, the round played again


@dataclass(frozen=True)
class Bet:
    """A betting round (its size follows the round's place: ``Stakes.bet_size``).

    ``opens_with``: no one may open the round (make its first bet) unless his hand holds a
    pair of that rank or better — jackpots' 'no player is allowed to open the betting
    unless his hand already contains a pair of jacks or a better hand' (Rules 000_
    1a86611de8d3f5f7.txt, 'Gardena jackpots').  ``progressive``: the rank rises one step
    with each deal passed out before this one, up to aces ('the qualifier to open is
    raised to a pair of queens. If that deal is passed out, the qualifier is raised to
    kings, and finally to aces').  ``if_passed``: what follows when no one bets (None: the
    deal is passed out when openers are needed, and goes on otherwise).  ``checks``: False
    for a round without checking, where a player with nothing to call opens or folds
    (Q-Ball: 'No checking is allowed on this round either, despite the fact that there is
    no bet facing the first player; the first player must open or fold').
    """

    opens_with: Rank | None = None
    first: FirstToAct = FirstToAct.GAME
    progressive: bool = False
    if_passed: IfPassed | None = None
    checks: bool = True

    def __post_init__(self) -> None:
        if self.progressive and self.opens_with is None:
            raise ValueError("progressive openers need a rank to open with (opens_with)")
        if not self.checks and self.passes is not IfPassed.PLAY_ON:
            raise ValueError("a round without checking cannot be passed out")

    @property
    def passes(self) -> IfPassed:
        """What follows a round in which no one bets."""
        if self.if_passed is not None:
            return self.if_passed
        return IfPassed.PLAY_ON if self.opens_with is None else IfPassed.REDEAL

    def openers(self, passed_out: int) -> Rank | None:
        """The lowest pair that opens after ``passed_out`` deals passed out before this one."""
        rank = self.opens_with
        if rank is None or not self.progressive or passed_out <= 0:
            return rank
        return Rank(min(int(rank) + passed_out, int(Rank.ACE)))


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
class Donate(Discard):
    """East Village (Rules 002_376df91f076a6501.txt, '= East Village ='): 'each player
    "donates" one of his cards. All the players "donation" cards are kept face down, and the
    dealer "shuffles" these cards with a scramble. The dealer then adds cards from the stub
    until there are a total of 7 donation cards. The dealer then "shuffles" these seven
    cards with a scramble.'  Each live player gives ``count`` of his down cards, all at
    once; ``pile`` is the total the stub fills the donations up to.  A donation leaves the
    hand as a discard does, so every count of the cards a player holds treats it as one."""

    pile: int = 7

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.pile < 1:
            raise ValueError(f"{self.street}: the pile holds at least one card")


@dataclass(frozen=True)
class Twist:
    """A twist round (Rules 000_1a86611de8d3f5f7.txt, 'General variations': 'roll your own,
    rollouts, blind stud, and twist rounds'; Rules 002_376df91f076a6501.txt: 'A twist round
    in which players can buy another card from the deck. If a player does not like the
    purchased card, the player can purchase another one by adding money to the pot. This is
    sometimes called a "Tittle."').

    Each live player in turn from the dealer's left may give up one of his cards and be dealt
    one from the stub in its place, face up for an upcard and down for a down card, paying
    ``price`` into the pot (dead money, not a bet); ``again`` (the Tittle): after each
    purchase he may buy again, replacing the card he bought, paying each time.  Without it a
    player buys at most one card a round.  A player who cannot pay the whole price, or when
    the stub holds no card beyond what the hand's later deals need, is not offered one."""

    street: str
    price: int = 0
    again: bool = False

    def __post_init__(self) -> None:
        if self.price < 0:
            raise ValueError(f"{self.street}: a twist's price cannot be negative, got {self.price}")


@dataclass(frozen=True)
class Pay:
    """Baseball (Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'paying the pot for wild
    cards'): each live player dealt an upcard of ``rank`` in the deal just before, in the
    order the cards were dealt, matches the pot — pays as much as it holds into it, dead
    money, all he has if that is less — or folds.  Once for each such card."""

    street: str
    rank: Rank


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


@dataclass(frozen=True)
class Split:
    """Cowpie (Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous'): 'All remaining players then
    split their hands into a five-card hand and a two-card hand. The five-card hand must
    outrank the two-card hand, and the latter must contain at least one downcard.'  Every
    live player splits at once, face down (as Pai Gow's hands are set), and the hands are
    shown at the showdown, whose halves rank the two parts
    (:mod:`simulations.engine.split_hands`)."""

    street: str = "split"


@dataclass(frozen=True)
class Draft(Deal):
    """Draft, or 'socialist poker' (Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous'): 'for
    each player remaining, one upcard is dealt to the center of the table (not to any
    specific player). The player with the worst showing hand gets to choose which of them he
    will take for his next upcard, then the player with the second-worst showing hand
    chooses his upcard from those left, and so on, until the player who previously had the
    best showing hand takes the remaining card.'  One upcard a player, after a burn when
    ``burn``; the order of choosing reads the hands showing as the game's order of betting
    does, reversed (:mod:`simulations.engine.centre_phases`)."""

    up: int = 1

    def __post_init__(self) -> None:
        super().__post_init__()
        if (self.down, self.up, self.board) != (0, 1, 0) or self.pile or self.extra_up:
            raise ValueError(f"{self.street}: a draft deals one upcard a player, to the centre")


@dataclass(frozen=True)
class Auction(Deal):
    """Auction (Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous'): 'Instead of dealing each
    player one upcard, the first card is dealt to the center and all players bid on it; the
    player who bids the highest amount places that amount into the pot, and then has the
    right to either keep the auction card as his own upcard, or designate another player who
    is required to take it as his. After the first card is auctioned off and placed, the
    remaining players are dealt a random upcard as usual'.

    ``down`` cards are dealt to each live player first, as usual (third street's two).  The
    bidding is open, in turn from the dealer's left: each bid tops the last by at least
    ``minimum`` chips (the first bid is at least ``minimum``), and a player who passes is out
    of this auction; the last bid standing buys the card.  ``sealed``: one bid each instead,
    all at once, the highest buying (the first from the dealer's left of equal bids).  A bid
    is paid into the pot as dead money; a player who cannot bid the least is not asked.  No
    bid at all: the card goes to the first live player from the dealer's left, for nothing.
    """

    up: int = 1
    minimum: int = 1
    sealed: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.up != 1 or self.board or self.pile or self.extra_up:
            raise ValueError(
                f"{self.street}: an auction deals one upcard a player (and any down cards first)"
            )
        if self.minimum < 1:
            raise ValueError(f"{self.street}: the least bid is at least 1, got {self.minimum}")


# A Donate is a Discard (the cards leave the hand), so both unions hold it; a Draft and an
# Auction are deals (every count of the cards dealt counts them) the players take part in.
Phase = (
    Deal | Bet | Draw | Discard | Expose | Pass | Declare | Arrange | Reveal | Twist | Pay | Split
)
Decision = (
    Draw | Discard | Expose | Pass | Declare | Arrange | Twist | Pay | Split | Draft | Auction
)


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
    DONATE = "donate"
    TWIST = "twist"
    PAY = "pay"
    SPLIT = "split"
    DRAFT = "draft"
    AUCTION = "auction"


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
        case Donate():  # before Discard, which it is a kind of
            return ActionKind.DONATE
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
        case Twist():
            return ActionKind.TWIST
        case Pay():
            return ActionKind.PAY
        case Split():
            return ActionKind.SPLIT
        case Draft():
            return ActionKind.DRAFT
        case Auction():
            return ActionKind.BID
    raise TypeError(f"not a decision phase: {phase!r}")


def simultaneous(phase: Decision) -> bool:
    """Whether every player's choice takes effect together (see the module docstring)."""
    if isinstance(phase, Declare):
        return not phase.in_turn
    if isinstance(phase, Auction):
        return phase.sealed
    return not isinstance(phase, Draw | Twist | Pay | Draft)


def describe_phase(phase: Phase) -> str:
    """A phase as ``cardroom games show`` prints it."""
    match phase:
        case Draft(street, burn=burn):  # before Deal, which it is a kind of
            return (
                f"{street}: {'burn, ' if burn else ''}one upcard a player to the centre, taken "
                "in turn from the worst hand showing to the best"
            )
        case Auction(street, down, burn=burn, minimum=minimum, sealed=sealed):
            first = f"deal {down} down, then " if down else ""
            bids = (
                f"one sealed bid each of {minimum} or more"
                if sealed
                else f"open bids in turn, each topping the last by {minimum} or more"
            )
            return (
                f"{street}: {'burn, ' if burn else ''}{first}one upcard to the centre, "
                f"auctioned ({bids}; the buyer pays into the pot and keeps it or designates "
                "who takes it), the others dealt theirs"
            )
        case Deal(street, down, up, board, burn, pile, extra_up):
            parts = [
                f"{count} {what}"
                for count, what in ((down, "down"), (up, "up"), (board, "to the board"))
                if count
            ]
            text = f"{street}: {'burn, ' if burn else ''}deal {', '.join(parts)}"
            if pile:
                text += " from the pile"
            if extra_up is not None:
                text += f" (a {extra_up.symbol} dealt up earns an extra upcard at once)"
            return text
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
        case Donate(street, count, pile):  # before Discard, which it is a kind of
            return (
                f"{street}: each player donates {count} face down; scrambled and filled from "
                f"the stub to {pile}, the pile the board is dealt from"
            )
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
        case Twist(street, price, again):
            more = ", and again for each card bought (the Tittle)" if again else ""
            return (
                f"{street}: each player may buy one card for {price}, up for up and down "
                f"for down{more}"
            )
        case Pay(street, rank):
            return f"{street}: a player dealt {rank.symbol} up matches the pot or folds"
        case Split(street):
            return (
                f"{street}: each player splits his cards into a five-card hand and a two-card "
                "hand holding a down card, the five outranking the two"
            )
    raise TypeError(f"not a phase: {phase!r}")
