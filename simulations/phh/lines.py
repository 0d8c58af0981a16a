"""The action lines of a hand history in PHH notation, and the deck order that deals them.

PHH (the Poker Hand History standard) writes a hand as lines: the dealer's ``d dh p1 AsKs``
(hole cards to player 1) and ``d db 7d5h9d`` (board cards), and a player's ``p3 f`` (fold),
``p3 cc`` (check or call), ``p3 cbr 210`` (bet, complete or raise to 210 for the round),
``p3 pb`` (post the bring-in), ``p3 sd 7s2c`` (stand pat or discard and draw) and ``p3 sm
AsKs`` (show or muck).  Players are numbered from 1; in a game with a button, player 1 sits
on its left and the last player is on the button.  Anything after ``#`` is a comment.

The engine's other decisions, which PHH has no notation for, are written the same way with
the action's own word: ``p2 declare high``, ``p2 discard 7c``, ``p2 expose Ah``, ``p2 pass
2c3c4c``, ``p2 donate 9s``, ``p2 twist 5d`` (``p2 twist``: buy none), ``p2 pay``, ``p2 split
AsAh``, ``p2 draft Kd``, ``p2 bid 10`` (``p2 bid``: pass), ``p2 designate p4``, ``p2 arrange
AsKd7c``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from simulations.cards import STANDARD_CARD_COUNT, Card, format_card, parse_card
from simulations.engine.actions import Action, ActionKind, LegalActions
from simulations.engine.declare import Declaration
from simulations.engine.game import STANDARD_DECK, GameDefinition
from simulations.engine.phases import (
    Arrange,
    Bet,
    Deal,
    Declare,
    Discard,
    Draw,
    Expose,
    Pass,
    Reveal,
    Split,
)

DEALER = "d"
DEAL_HOLE = "dh"
DEAL_BOARD = "db"
FOLD = "f"
CHECK_OR_CALL = "cc"
BET_OR_RAISE = "cbr"
BRING_IN = "pb"
DRAW = "sd"
SHOW = "sm"
PHH_VERBS = frozenset({FOLD, CHECK_OR_CALL, BET_OR_RAISE, BRING_IN, DRAW, SHOW})
# The engine's decisions PHH has no notation for, by the action's own word.
WITH_CARDS = frozenset({"discard", "expose", "pass", "donate", "split", "arrange", "draft"})
EXTENSION_VERBS = frozenset({*WITH_CARDS, "declare", "twist", "pay", "bid", "designate"})
_HIDDEN = "?"
# The 52 standard cards by their two characters, read at once (parse_card reads the rest).
_CARD_OF_TOKEN = {format_card(code): Card(code) for code in range(STANDARD_CARD_COUNT)}
# Runs of one or two of them (a draw's or hold'em's down cards), and the players p1 to p99,
# read at once: most tokens of a history are these.
_RUN_OF_TOKEN: dict[str, tuple[Card, ...]] = {
    **{token: (card,) for token, card in _CARD_OF_TOKEN.items()},
    **{a + b: (x, y) for a, x in _CARD_OF_TOKEN.items() for b, y in _CARD_OF_TOKEN.items()},
}
_SEAT_OF = {f"p{number}": number - 1 for number in range(1, 100)}
_EXACT_DIGITS = 15  # whole numbers of up to 15 digits are exact as floats
# The most chips an amount, a stack or a blind may be: every pot of ten such stacks still
# counts in 64-bit chips, and the amounts of rooms' histories (in cents) are far below it.
MAX_CHIPS = 10**15


_DEALS_NOTHING = (Arrange, Declare, Discard, Expose, Pass, Reveal, Split)


class LineError(ValueError):
    """An action line that cannot be read; the message names the line and the token."""


class Unplayable(ValueError):
    """A history whose cards the dealer cannot be made to deal (the message says why)."""


# The value classes a run builds for every hand and line read write their own ``__init__``
# (``init=False``): mypyc compiles it, where the one ``dataclasses`` generates stays
# interpreted and costs many times as much (a frozen class sets each field through
# ``object.__setattr__`` from Python).  The fields, their order and defaults are the same.
@dataclass(frozen=True, init=False)
class Line:
    """One action line.  ``seat`` counts from 0 (PHH's ``p1`` is seat 0), -1 for the board;
    ``cards`` is None where the history hides them (``????``); ``amount`` is a ``cbr`` or
    ``bid`` amount; ``word`` a declaration; ``to`` a designation's seat."""

    verb: str
    seat: int
    cards: tuple[Card, ...] | None = ()
    amount: int | None = None
    word: str | None = None
    to: int | None = None
    text: str = field(default="", compare=False)

    def __init__(
        self,
        verb: str,
        seat: int,
        cards: tuple[Card, ...] | None = (),
        amount: int | None = None,
        word: str | None = None,
        to: int | None = None,
        text: str = "",
    ) -> None:
        object.__setattr__(self, "verb", verb)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "word", word)
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "text", text)

    @property
    def by_dealer(self) -> bool:
        return self.verb in (DEAL_HOLE, DEAL_BOARD)


def player_name(seat: int) -> str:
    """PHH's name of a seat: seat 0 is ``p1``."""
    return f"p{seat + 1}"


def _player(token: str, players: int, text: str) -> int:
    seat = _SEAT_OF.get(token, -1)
    if seat < 0:
        number = token[1:]
        if token[:1] == "p" and number.isascii() and number.isdigit() and number[0] != "0":
            seat = int(number) - 1
        else:
            raise LineError(f"{text!r}: {token!r} is not a player (p1, p2, ...)")
    if seat >= players:
        raise LineError(f"{text!r}: {token} is not at this table of {players} players")
    return seat


def _cards(token: str, text: str) -> tuple[Card, ...] | None:
    run = _RUN_OF_TOKEN.get(token)
    if run is not None:
        return run
    if _HIDDEN in token:
        return None
    if len(token) % 2:
        raise LineError(f"{text!r}: {token!r} is not a run of two-character cards")
    cards = []
    for i in range(0, len(token), 2):  # a loop: a generator costs more compiled
        card = _CARD_OF_TOKEN.get(token[i : i + 2])
        if card is None:
            break
        cards.append(card)
    else:
        return tuple(cards)
    try:
        return tuple(parse_card(token[i : i + 2]) for i in range(0, len(token), 2))
    except ValueError as error:
        raise LineError(f"{text!r}: {error}") from None


def _amount(token: str, text: str) -> int:
    """An action's amount, read exactly from its text (never through a float): a whole
    number of chips up to :data:`MAX_CHIPS`, written plainly or as ``2.3e2``."""
    if len(token) <= _EXACT_DIGITS and token.isascii() and token.isdigit():
        return int(token)
    try:
        value = Decimal(token) if len(token) <= 40 else None
    except InvalidOperation:
        value = None
    if value is None or not value.is_finite():
        raise LineError(f"{text!r}: {token!r} is not an amount")
    if value < 0 or value != value.to_integral_value():
        raise LineError(f"{text!r}: {token!r} is not a whole number of chips")
    if value > MAX_CHIPS:
        raise LineError(f"{text!r}: {token!r} is more than {MAX_CHIPS:,} chips")
    return int(value)


def parse_line(text: str, players: int) -> Line:
    """One action line (:class:`LineError` naming the token if it cannot be read)."""
    words = (text.split("#", 1)[0] if "#" in text else text).split()
    if not words:
        raise LineError(f"{text!r}: an empty action line")
    if words[0] == DEALER:
        if len(words) >= 2 and words[1] == DEAL_HOLE:
            if len(words) != 4:
                raise LineError(f"{text!r}: a hole-card deal is 'd dh pN CARDS'")
            seat = _player(words[2], players, text)
            return Line(DEAL_HOLE, seat, _cards(words[3], text), text=text)
        if len(words) >= 2 and words[1] == DEAL_BOARD:
            if len(words) != 3:
                raise LineError(f"{text!r}: a board deal is 'd db CARDS'")
            return Line(DEAL_BOARD, -1, _cards(words[2], text), text=text)
        raise LineError(f"{text!r}: the dealer's line is 'd dh' or 'd db'")
    seat = _player(words[0], players, text)
    if len(words) < 2:
        raise LineError(f"{text!r}: no action after {words[0]}")
    verb, rest = words[1], words[2:]
    if verb not in PHH_VERBS and verb not in EXTENSION_VERBS:
        raise LineError(f"{text!r}: unknown action {verb!r}")
    if len(rest) > 1:
        raise LineError(f"{text!r}: {verb} takes at most one argument")
    argument = rest[0] if rest else None
    if verb in (FOLD, CHECK_OR_CALL, BRING_IN, "pay"):
        if argument is not None:
            raise LineError(f"{text!r}: {verb} takes no argument")
        return Line(verb, seat, text=text)
    if verb == BET_OR_RAISE:
        if argument is None:
            raise LineError(f"{text!r}: cbr needs the amount to bet or raise to")
        return Line(verb, seat, amount=_amount(argument, text), text=text)
    if verb == "bid":
        amount = None if argument is None else _amount(argument, text)
        return Line(verb, seat, amount=amount, text=text)
    if verb == "declare":
        choices = [d.value for d in Declaration]
        if argument not in choices:
            raise LineError(f"{text!r}: declare {' or '.join(choices)}")
        return Line(verb, seat, word=argument, text=text)
    if verb == "designate":
        if argument is None:
            raise LineError(f"{text!r}: designate needs a player (pN)")
        return Line(verb, seat, to=_player(argument, players, text), text=text)
    # sd, sm and the actions naming cards (none: stand pat, muck, buy no card)
    if argument is None or argument == "-":
        return Line(verb, seat, (), text=text)
    cards = _cards(argument, text)
    if cards is None and verb != SHOW:
        raise LineError(f"{text!r}: {verb} must name its cards")
    return Line(verb, seat, cards, text=text)


# Lines already read, by their text and the table's size: the same lines recur from hand to
# hand ('p3 f'), and a Line is a value, so a run over many hands reads each once.
LineMemo = dict[tuple[str, int], Line]


def parse_lines(
    texts: Sequence[str], players: int, where: str = "actions", memo: LineMemo | None = None
) -> tuple[Line, ...]:
    """Every line, the first that cannot be read named by its place (``actions[3]``);
    ``memo`` keeps the lines read for other hands of a run."""
    if memo is None:
        memo = {}
    lines = []
    for index, text in enumerate(texts):
        line = memo.get((text, players)) if isinstance(text, str) else None
        if line is None:
            if not isinstance(text, str):
                raise LineError(f"{where}[{index}]: {text!r} is not a line of text")
            try:
                line = memo[text, players] = parse_line(text, players)
            except LineError as error:
                raise LineError(f"{where}[{index}]: {error}") from None
        lines.append(line)
    return tuple(lines)


def engine_action(line: Line, legal: LegalActions) -> Action:
    """The engine's action for a player's line, given what the player may do now: ``cc``
    is a check where nothing is to be called, ``cbr`` a bet or a raise (a completion in
    stud) as the turn calls for."""
    match line.verb:
        case "cc":
            return check_or_call(legal.can_check)
        case "cbr":
            assert line.amount is not None
            if legal.wager_kind in (ActionKind.BET, ActionKind.RAISE):
                return legal.wager_action(line.amount)
            # Not a betting turn (a draw, say): still a wager, which the engine refuses.
            kind = ActionKind.RAISE if legal.to_call else ActionKind.BET
            return Action(kind, line.amount)
    return plain_action(line)


# The lines whose action depends on the turn (what is to be called, whether a bet stands).
READS_THE_TURN = frozenset({CHECK_OR_CALL, BET_OR_RAISE})


def check_or_call(can_check: bool) -> Action:
    """A ``cc`` line's action: a check where the player may check, else a call."""
    # Each line's action is built as it is played, not once at import: the engine's own
    # constructors then run with every hand (and a mutation of them shows).
    return Action.check() if can_check else Action.call()


def plain_action(line: Line) -> Action:
    """The engine's action for a player's line that reads nothing of the turn (any but
    :data:`READS_THE_TURN`): the engine checks it against the turn as it acts."""
    cards = line.cards or ()
    match line.verb:
        case "f":
            return Action.fold()
        case "pb":
            return Action.bring_in()
        case "sd":
            return Action.draw(cards)
        case "declare":
            assert line.word is not None
            return Action.declare(line.word)
        case "twist":
            return Action.twist(cards[0] if cards else None)
        case "pay":
            return Action.pay()
        case "bid":
            return Action.bid(line.amount)
        case "designate":
            assert line.to is not None
            return Action.designate(line.to)
    return Action(ActionKind(line.verb), cards=tuple(cards))


# --- the deck order ------------------------------------------------------------------------------

_STANDARD_PACK = tuple(Card(code) for code in range(STANDARD_CARD_COUNT))
_STANDARD_CARDS = frozenset(_STANDARD_PACK)


def pack_of(game: GameDefinition) -> tuple[Card, ...]:
    """The game's cards in a fresh deck's order (the standard 52 built once)."""
    # The standard deck by equality first: DeckSpec.standard builds the ranks to compare.
    deck = game.deck
    if deck is STANDARD_DECK or deck == STANDARD_DECK or deck.standard:
        return _STANDARD_PACK
    return deck.deck().cards


def cards_of(pack: tuple[Card, ...]) -> frozenset[Card]:
    """The cards of ``pack`` (of the standard pack, built once)."""
    return _STANDARD_CARDS if pack is _STANDARD_PACK else frozenset(pack)


@dataclass
class _DealGroup:
    holes: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    board: tuple[Card, ...] = ()


@dataclass
class _DrawGroup:
    discards: list[tuple[int, tuple[Card, ...]]] = field(default_factory=list)
    replacements: dict[int, tuple[Card, ...]] = field(default_factory=dict)


def _known(cards: tuple[Card, ...] | None) -> tuple[Card, ...]:
    if cards is None:
        raise Unplayable("the history hides some cards (????): give every card dealt")
    return cards


def card_groups(lines: Sequence[Line]) -> list[_DealGroup | _DrawGroup]:
    """The history's cards, one group per deal or draw of the hand, in order.  A deal is a run
    of ``dh`` lines (a seat seen twice starts the next deal) or one ``db`` line; a draw is a
    run of ``sd`` lines and the ``dh`` lines replacing them, either all discards first (as
    PHH writers do) or each player's replacements after his discard."""
    groups: list[_DealGroup | _DrawGroup] = []
    current: _DealGroup | _DrawGroup | None = None
    dealing = False  # the line before was a deal or a discard
    for line in lines:
        if line.verb == DEAL_BOARD:
            current = _DealGroup(board=_known(line.cards))
            groups.append(current)
        elif line.verb == DRAW:
            if not (
                isinstance(current, _DrawGroup)
                and dealing
                and all(seat != line.seat for seat, _ in current.discards)
            ):
                current = _DrawGroup()
                groups.append(current)
            current.discards.append((line.seat, _known(line.cards)))
        elif line.verb == DEAL_HOLE:
            cards = _known(line.cards)
            if isinstance(current, _DrawGroup) and dealing:
                if line.seat in current.replacements:
                    raise Unplayable("a draw's replacements come in two lines")
                current.replacements[line.seat] = cards
            else:
                if not (
                    isinstance(current, _DealGroup)
                    and dealing
                    and line.seat not in current.holes
                    and not current.board
                ):
                    current = _DealGroup()
                    groups.append(current)
                current.holes[line.seat] = cards
        else:
            dealing = False
            continue
        dealing = True
    return groups


@dataclass(frozen=True)
class Dealing:
    """The dealer's ways a deck order is rebuilt under: whether he deals the bottom card,
    five cards in a row to one player, and a burn card where a phase of the game burns."""

    bottom_card: bool
    five_consecutive: bool
    burns: bool = True


def dealing_of(game: GameDefinition) -> Dealing:
    """How ``game``'s dealer deals (``burns``: some deal or draw of it burns a card)."""
    burns = any(p.burn for p in game.phases if isinstance(p, Deal | Draw))
    return Dealing(game.deals_bottom_card, game.five_consecutive, burns)


def deck_order(
    game: GameDefinition,
    players: int,
    button: int,
    lines: Sequence[Line],
    *,
    dealing: Dealing | None = None,
    groups: Sequence[_DealGroup | _DrawGroup] | None = None,
) -> tuple[Card, ...]:
    """A deck order from which the dealer deals exactly the history's cards.

    Deal by deal as :class:`~simulations.engine.dealer.Dealer` deals: a burn card (a card the
    hand never shows, the lowest first) where the phase burns; a deal's down cards a round at
    a time clockwise from the button's left, then its up cards, then the board; a draw's
    replacements player by player in the order they drew, held back by the five-consecutive
    rule as the dealer holds them.  The cards the hand never shows follow.  A history whose
    cards cannot be dealt this way (a card twice, a card not in the game's deck, the deck
    running out so that the dealer would reuse burns or reshuffle, a game with phases other
    than deals, draws and betting) raises :class:`Unplayable`.

    ``dealing``, when given, stands for the game's own bottom-card and five-consecutive
    rules and, where it does not burn, for its phases' burn cards: the order the game with
    those rules would get, without that game built (a replay tries several ways of dealing
    before one deals the history's cards); ``groups``: the lines' :func:`card_groups`, when
    already found."""
    if groups is None:
        groups = card_groups(lines)
    bottom_card = game.deals_bottom_card if dealing is None else dealing.bottom_card
    five_consecutive = game.five_consecutive if dealing is None else dealing.five_consecutive
    burns = dealing is None or dealing.burns
    pack = pack_of(game)
    in_pack = cards_of(pack)
    shown: list[Card] = []
    for group in groups:  # loops, not generators: this runs for every hand replayed
        if isinstance(group, _DealGroup):
            for cards in group.holes.values():
                shown.extend(cards)
            shown.extend(group.board)
        else:
            for cards in group.replacements.values():
                shown.extend(cards)
    seen: set[Card] = set()
    for card in shown:
        if card not in in_pack:
            raise Unplayable(f"{format_card(card)} is not a card of {game.name}'s deck")
        if card in seen:
            raise Unplayable(f"{format_card(card)} is dealt twice")
        seen.add(card)
    pool = [card for card in pack if card not in seen]
    deck: list[Card] = []
    phases = [p for p in game.phases if not isinstance(p, Bet)]
    # Phases that deal no card from the stub (a declaration, an exposure, a pass between
    # players, a discard) leave the deck order alone; any other dealing phase cannot be
    # rebuilt from dealing lines.
    phases = [p for p in phases if type(p) not in _DEALS_NOTHING]
    if [p for p in phases if type(p) is not Deal and type(p) is not Draw]:
        raise Unplayable(
            f"{game.name} has phases other than deals, draws and betting: give the deck "
            "order instead of dealing lines"
        )
    if len(groups) > len(phases):
        raise Unplayable(f"the history deals {len(groups)} times; the game has {len(phases)} deals")
    reserve = 0 if bottom_card else 1

    def burn() -> None:
        if not pool:
            raise Unplayable("the deck runs out: no card the hand never shows is left to burn")
        deck.append(pool.pop(0))

    def replace_from_stub(cards: tuple[Card, ...]) -> None:
        for card in cards:
            if len(pack) - len(deck) <= reserve:
                raise Unplayable("the stub runs out in a draw: the dealer would reshuffle")
            deck.append(card)

    for phase, group in zip(phases, groups, strict=False):
        if isinstance(phase, Deal) and isinstance(group, _DealGroup):
            if phase.burn and burns:
                burn()
            order = sorted(group.holes, key=lambda seat: (seat - button - 1) % players)
            for seat in order:
                if len(group.holes[seat]) != phase.per_player:
                    raise Unplayable(
                        f"{phase.street}: {player_name(seat)} is dealt "
                        f"{len(group.holes[seat])} cards, the game deals {phase.per_player}"
                    )
            for first, count in ((0, phase.down), (phase.down, phase.up)):
                for index in range(first, first + count):
                    for seat in order:
                        deck.append(group.holes[seat][index])
            if len(group.board) != phase.board:
                raise Unplayable(
                    f"{phase.street}: {len(group.board)} board cards, the game deals {phase.board}"
                )
            deck.extend(group.board)
        elif isinstance(phase, Draw) and isinstance(group, _DrawGroup):
            if phase.burn and burns:
                burn()
            owed: list[tuple[int, tuple[Card, ...]]] = []
            last = -1
            for seat, discards in group.discards:
                cards = group.replacements.get(seat, ())
                if len(cards) != len(discards):
                    raise Unplayable(
                        f"{phase.street}: {player_name(seat)} discards {len(discards)} cards "
                        f"and is dealt {len(cards)}"
                    )
                if not five_consecutive and len(cards) >= 5:
                    owed.append((seat, cards[4:]))
                    cards = cards[:4]
                if cards:
                    last = seat
                replace_from_stub(cards)
            for seat, cards in owed:
                if last == seat:
                    burn()
                replace_from_stub(cards)
                last = seat
        else:
            raise Unplayable(f"{phase.street}: the history's cards do not follow the game's phases")
    deck.extend(pool)
    return tuple(deck)
