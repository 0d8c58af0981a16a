"""Reading a game file's deal: the ``phases`` list and the ``[deck]`` table (the format is
described in :mod:`simulations.engine.gamefile`).

The home games' deals (:mod:`simulations.engine.phases`) are written::

    { donate = "donate", count = 1, pile = 7 }  # East Village: each player gives count down
                                                # cards; the stub fills the pile to pile
    { deal = "flop", board = 3, from_pile = true }   # the board off that pile, unburned
    { twist = "twist", price = 5, again = false }    # a twist round: price (required, 0 or
                                                # more) into the pot; again: the Tittle
    { deal = "third street", down = 2, up = 1, extra_up = "4" }   # Baseball: a 4 dealt up
                                                # is dealt another upcard at once
    { pay = "third street", rank = "3" }        # right after that deal: a 3 dealt up
                                                # matches the pot or folds
    { split = "split" }                         # Cowpie: each player splits his seven
                                                # cards, five and two (the showdown's
                                                # halves: high, then "two-card")
    { draft = "fourth street", burn = true }    # Draft: one upcard a player to the centre,
                                                # taken from the worst hand showing first
    { auction = "fourth street", burn = true, minimum = 1, sealed = false, down = 0 }
                                                # Auction: the first upcard to the centre,
                                                # bid for (open bids topping the last by
                                                # minimum or more; sealed: one bid each);
                                                # down: cards dealt each player first
"""

from __future__ import annotations

from collections.abc import Mapping

from simulations.cards import MAX_JOKERS, Rank
from simulations.engine.game import DeckSpec, ExhaustionRule
from simulations.engine.gamefile_read import (
    MAX_CARDS,
    MAX_CHIPS,
    Invalid,
    Table,
    read_integer,
    read_list,
    read_ranks,
    type_name,
)
from simulations.engine.phases import (
    Arrange,
    Auction,
    Bet,
    Deal,
    Declare,
    Discard,
    Donate,
    Draft,
    Draw,
    Expose,
    FirstToAct,
    IfPassed,
    Pass,
    PassDirection,
    Pay,
    Phase,
    PhaseKind,
    Reveal,
    Split,
    Twist,
)
from simulations.spec import echo

__all__ = ["read_deck", "read_phases"]


def read_phases(value: object) -> tuple[Phase, ...]:
    items = read_list(value, "phases")
    if not items:
        raise Invalid("phases", "a game has at least a deal and a betting round")
    phases = tuple(_phase(item, f"phases[{i}]") for i, item in enumerate(items))
    if not isinstance(phases[0], Deal):
        raise Invalid("phases[0]", "a hand begins by dealing cards")
    if not any(isinstance(p, Bet) for p in phases):
        raise Invalid("phases", "a game has at least one betting round ('bet')")
    _check_home_deals(phases)
    _check_no_extra_upcards_beside_a_centre(phases)
    return phases


def _check_no_extra_upcards_beside_a_centre(phases: tuple[Phase, ...]) -> None:
    """Extra upcards (Baseball's) take cards no count foresees, so they are refused in a game
    whose draft or auction deals the centre from the stub: the centre must be dealt whole."""
    centre = next((p for p in phases if isinstance(p, Draft | Auction)), None)
    if centre is None:
        return
    for index, phase in enumerate(phases):
        if isinstance(phase, Deal) and phase.extra_up is not None:
            raise Invalid(
                f"phases[{index}].extra_up",
                f"extra upcards are not dealt in a game with a draft or an auction "
                f"({centre.street}): they may leave the stub short of the centre's cards",
            )


def _check_home_deals(phases: tuple[Phase, ...]) -> None:
    """East Village's pile and Baseball's payments, read against the phases around them:
    a donation of down cards a player holds, one pile, board deals from it only after it is
    made and no more than it holds; a payment right after the deal of its upcards."""
    down = 0  # the down cards each player holds
    pile: int | None = None  # the pile made so far (None: none yet)
    from_pile = 0
    for index, phase in enumerate(phases):
        where = f"phases[{index}]"
        if isinstance(phase, Deal):
            down += phase.down
            if phase.pile:
                if pile is None:
                    raise Invalid(f"{where}.from_pile", "no donate phase before it makes a pile")
                from_pile += phase.board
                if from_pile > pile:
                    raise Invalid(
                        f"{where}.board",
                        f"the pile holds {pile} cards and the deals from it take {from_pile}",
                    )
        elif isinstance(phase, Donate):
            if pile is not None:
                raise Invalid(where, "a game makes one pile: one donate phase")
            if phase.count > down:
                raise Invalid(
                    f"{where}.count",
                    f"donates {phase.count} cards but a player holds {down} down cards",
                )
            pile = phase.pile
        elif isinstance(phase, Pay):
            before = phases[index - 1] if index else None
            if not isinstance(before, Deal) or not before.up or isinstance(before, Draft | Auction):
                raise Invalid(
                    where, "a payment comes right after the deal of the upcards it is for"
                )
        elif isinstance(phase, Draw):
            down += phase.extra
        if isinstance(phase, Discard | Expose | Reveal):
            down -= phase.count


def _phase(item: object, path: str) -> Phase:
    if item == "bet":
        return Bet()
    if isinstance(item, str) or not isinstance(item, Mapping):
        raise Invalid(
            path,
            "a phase is the word 'bet' or a table such as { deal = \"flop\", board = 3 }; "
            f"got {echo(item) if isinstance(item, str) else type_name(item)}",
        )
    table = Table(item, path)
    kinds = [kind for kind in PhaseKind if kind.value in item]
    if len(kinds) != 1:
        names = ", ".join(k.value for k in PhaseKind)
        given = " and ".join(k.value for k in kinds)
        problem = f"names both {given}" if kinds else "does not say its kind"
        raise Invalid(path, f"{problem}: a phase is one of {names}")
    kind = kinds[0]
    phase: Phase
    if kind is PhaseKind.BET:
        phase = _bet(table)
    else:
        street = table.string(kind.value)
        if not street.strip() or len(street) > 40:
            raise Invalid(table.path(kind.value), "the street's name is 1 to 40 characters")
        if kind is PhaseKind.DEAL:
            phase = _deal(table, street, path)
        elif kind is PhaseKind.DONATE:
            count = table.integer("count", 1, 1, MAX_CARDS)
            phase = Donate(street, count, table.integer("pile", 7, 1, MAX_CARDS))
        elif kind is PhaseKind.TWIST:
            price = read_integer(table.require("price"), table.path("price"), 0, MAX_CHIPS)
            phase = Twist(street, price, table.boolean("again", False))
        elif kind is PhaseKind.PAY:
            phase = Pay(street, _one_rank(table, "rank"))
        elif kind is PhaseKind.SPLIT:
            phase = Split(street)
        elif kind is PhaseKind.DRAFT:
            phase = Draft(street, burn=table.boolean("burn", False))
        elif kind is PhaseKind.AUCTION:
            phase = Auction(
                street,
                down=table.integer("down", 0, 0, MAX_CARDS),
                burn=table.boolean("burn", False),
                minimum=table.integer("minimum", 1, 1, MAX_CHIPS),
                sealed=table.boolean("sealed", False),
            )
        elif kind is PhaseKind.DRAW:
            most = table.integer("most", 5, 0, MAX_CARDS)
            keeping_ace = table.optional_integer("most_keeping_ace", most + 1, MAX_CARDS)
            extra = table.integer("extra", 0, 0, MAX_CARDS)
            phase = Draw(street, most, keeping_ace, table.boolean("burn", True), extra)
        elif kind is PhaseKind.DISCARD:
            phase = Discard(street, table.integer("count", 1, 1, MAX_CARDS))
        elif kind is PhaseKind.ARRANGE:
            phase = Arrange(street)
        elif kind is PhaseKind.REVEAL:
            phase = Reveal(street, table.integer("count", 1, 1, MAX_CARDS))
        elif kind is PhaseKind.DECLARE:
            phase = Declare(street, in_turn=table.boolean("in_turn", False))
        elif kind is PhaseKind.PASS:
            count = table.integer("count", 1, 1, MAX_CARDS)
            phase = Pass(
                street, count, table.choice("direction", PassDirection, PassDirection.LEFT)
            )
        else:
            phase = Expose(street, table.integer("count", 1, 1, MAX_CARDS))
    table.finish()
    return phase


def _deal(table: Table, street: str, path: str) -> Deal:
    """A deal: down, up and board cards, a burn, East Village's board from the pile
    (``from_pile``) and Baseball's extra upcard on a rank (``extra_up``)."""
    down, up, board = (table.integer(k, 0, 0, MAX_CARDS) for k in ("down", "up", "board"))
    if not (down or up or board):
        raise Invalid(path, "a deal deals at least one card: give down, up or board")
    burn = table.boolean("burn", False)
    pile = table.boolean("from_pile", False)
    if pile and (down or up):
        raise Invalid(table.path("from_pile"), "the pile deals the board only: give board alone")
    if pile and burn:
        raise Invalid(table.path("burn"), "a board from the pile burns no card")
    extra_up = _one_rank(table, "extra_up") if table.has("extra_up") else None
    if extra_up is not None and (not up or board):
        raise Invalid(
            table.path("extra_up"), "an extra upcard follows an upcard: the deal needs up cards"
        )
    return Deal(street, down, up, board, burn, pile, extra_up)


def _one_rank(table: Table, key: str) -> Rank:
    ranks = read_ranks(table.require(key), table.path(key))
    if len(ranks) != 1:
        raise Invalid(table.path(key), "names one rank")
    return ranks[0]


def _bet(table: Table) -> Bet:
    """A betting round written as a table: the one form that can name its openers and who
    acts first."""
    if table.require("bet") is not True:
        raise Invalid(table.path("bet"), "a betting round is written bet = true (or 'bet')")
    opens_with = None
    if table.has("opens_with"):
        ranks = read_ranks(table.require("opens_with"), table.path("opens_with"))
        if len(ranks) != 1:
            raise Invalid(table.path("opens_with"), "names one rank: the lowest pair that opens")
        opens_with = ranks[0]
    first = table.choice("first", FirstToAct, FirstToAct.GAME)
    progressive = table.boolean("progressive", False)
    if progressive and opens_with is None:
        raise Invalid(table.path("progressive"), "progressive openers need opens_with")
    if_passed = table.choice("if_passed", IfPassed) if table.has("if_passed") else None
    checks = table.boolean("checks", True)
    if not checks and (if_passed or IfPassed.PLAY_ON) is not IfPassed.PLAY_ON:
        raise Invalid(table.path("checks"), "a round without checking cannot be passed out")
    if not checks and opens_with is not None:
        raise Invalid(table.path("checks"), "a round with openers lets players check")
    return Bet(opens_with, first, progressive, if_passed, checks)


def read_deck(table: Table, draws: bool, board: int) -> tuple[DeckSpec, ExhaustionRule, bool, bool]:
    """(the deck, its exhaustion rule, deals_bottom_card, five_consecutive)."""
    ranks = (
        read_ranks(table.raw("ranks"), table.path("ranks")) if table.has("ranks") else tuple(Rank)
    )
    jokers = table.integer("jokers", 0, 0, MAX_JOKERS)
    exhaustion = table.choice("exhaustion", ExhaustionRule, ExhaustionRule.NONE)
    rules: list[bool] = []
    for key in ("deals_bottom_card", "five_consecutive"):
        if table.has(key) and not draws:
            raise Invalid(table.path(key), "is a rule of the draw, and the game has no draw")
        rules.append(table.boolean(key, False))
    table.finish()
    if exhaustion.for_draw and not draws:
        raise Invalid("deck.exhaustion", f"{exhaustion!s} is a rule for draw games")
    if exhaustion.for_stud and (draws or board):
        raise Invalid("deck.exhaustion", f"{exhaustion!s} is a rule for stud games")
    return DeckSpec(ranks, jokers), exhaustion, rules[0], rules[1]
