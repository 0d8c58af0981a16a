"""Replaying a PHH hand through the reference engine, to the history's finishing stacks.

A hand is set up as the history describes it: the variant's game of the registry with the
hand's stakes and forced bets (:func:`~simulations.phh.stakes.lay_stakes`), the button on the
last seat (PHH's ``p1`` sits on its left), and a deck order from which the dealer deals
exactly the history's cards (:func:`~simulations.phh.lines.deck_order`).  Each player's line
is then played as the engine's action for that turn; a line out of turn or against the rules
stops the hand with a :class:`~simulations.phh.model.PhhError` naming it.  The hand passes
when the engine ends it at ``finishing_stacks``.

Where the history follows a convention the rule texts settle another way, the replay applies
the reading :class:`~simulations.phh.options.ReplayOptions` chooses and says so in the
result's notes (:mod:`simulations.phh.options`).  Two more are not options, since they leave
the chips alone:

* a check the history asks of a player when no one could answer a bet (every other player
  still in is all in) is skipped: the engine does not ask for that turn;
* where the texts' way of dealing (a burn card before each draw and street, the bottom card
  kept back, no five cards in a row to one player) would run the deck out before it deals
  the history's cards, the dealer deals the bottom card and five in a row.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from simulations.cards import Card, format_card
from simulations.engine.actions import ActionKind, IllegalAction
from simulations.engine.events import Awarded, BoardDealt, HoleDealt
from simulations.engine.forced import BlindSeats
from simulations.engine.game import GameDefinition
from simulations.engine.hand import Hand
from simulations.engine.phases import Deal, Draw
from simulations.engine.pots import Chips, OddChipRule
from simulations.engine.variants import POKER_VARIANTS
from simulations.phh.lines import (
    BET_OR_RAISE,
    BRING_IN,
    CHECK_OR_CALL,
    DEAL_BOARD,
    DEAL_HOLE,
    FOLD,
    READS_THE_TURN,
    SHOW,
    Dealing,
    Line,
    LineError,
    Unplayable,
    card_groups,
    check_or_call,
    dealing_of,
    deck_order,
    engine_action,
    parse_lines,
    plain_action,
    player_name,
)
from simulations.phh.model import Number, PhhError, PhhHand
from simulations.phh.options import (
    DEALING,
    DEFAULT_OPTIONS,
    HEADS_UP,
    IDLE_CHECK,
    ODD_CHIPS,
    SHORT_ALL_IN,
    UNCHECKED,
    HeadsUpBlinds,
    ReplayOptions,
)
from simulations.phh.results import Difference, FileReport, Outcome, ScenarioResult
from simulations.phh.stakes import HandStakes, StakesError, laid_onto, lay_stakes, stakes_parts

_SEAT = re.compile(r"\bseat (\d+)")
_BETTING = frozenset({FOLD, CHECK_OR_CALL, BET_OR_RAISE, BRING_IN})


@dataclass(frozen=True)
class Setup:
    """A hand ready for the engine: the game with the hand's stakes and the options' rules,
    the button, straddles and blind seats, the deck order, the parsed lines, and the notes
    the setting up took."""

    game: GameDefinition
    button: int
    straddles: tuple[tuple[int, int], ...]
    blind_seats: BlindSeats | None
    deck: tuple[Card, ...]
    lines: tuple[Line, ...]
    notes: tuple[str, ...]

    def new_hand(self, stacks: Sequence[int]) -> Hand:
        return Hand(
            self.game,
            stacks,
            self.button,
            deck=self.deck,
            straddles=self.straddles,
            blind_seats=self.blind_seats,
        )


def _error(hand: PhhHand, field: str, problem: str) -> PhhError:
    return PhhError(hand.source or "<hand>", hand.section, field, problem)


def _players(text: str) -> str:
    """An engine message with its seats named as PHH names them (seat 0 is ``p1``)."""
    return _SEAT.sub(lambda m: player_name(int(m.group(1))), text)


def has_fractions(stacks: Sequence[Number] | None) -> bool:
    return any(isinstance(s, float) and not s.is_integer() for s in stacks or ())


def base_game(hand: PhhHand) -> GameDefinition:
    found = POKER_VARIANTS.get(hand.variant)
    if found is None:
        raise _error(hand, "variant", f"{hand.variant!r} is not a poker game of the registry")
    return found.game()


Laid = tuple[GameDefinition, tuple[tuple[int, int], ...], tuple[str, ...]]
# Games laid out already, by what lays them out: a run over many hands of the same stakes
# builds each game once.
Games = dict[tuple[object, ...], Laid]


def laid_game(hand: PhhHand, options: ReplayOptions, games: Games | None = None) -> Laid:
    """The variant's game with the hand's stakes and the options' rules, its straddles, and
    the notes the options took (``button`` is always the last seat)."""
    if games is None:
        return _lay(hand, options)
    key = (
        hand.variant,
        hand.antes,
        hand.blinds_or_straddles,
        hand.bring_in,
        hand.small_bet,
        hand.big_bet,
        hand.min_bet,
        hand.player_count,
        has_fractions(hand.finishing_stacks),
    )
    laid = games.get(key)
    if laid is None:
        laid = games[key] = _lay(hand, options, games)
    return laid


def hand_stakes(hand: PhhHand) -> HandStakes:
    return HandStakes(
        antes=hand.antes,
        blinds_or_straddles=hand.blinds_or_straddles,
        bring_in=hand.bring_in,
        small_bet=hand.small_bet,
        big_bet=hand.big_bet,
        min_bet=hand.min_bet,
    )


def _lay(hand: PhhHand, options: ReplayOptions, games: Games | None = None) -> Laid:
    """:func:`lay_game` of the hand; ``games`` keeps each game laid out by its forced bets,
    stakes and straddle rule, which other stakes (at another table size, say) may share."""
    base = base_game(hand)
    fractions = has_fractions(hand.finishing_stacks)
    players = hand.player_count
    try:
        if games is None:
            return lay_game(base, hand_stakes(hand), players, fractions, options)
        laid = stakes_parts(base, hand_stakes(hand), players, players - 1)
        key = (hand.variant, laid.forced, laid.stakes, laid.straddle_rule, fractions)
        found = games.get(key)
        if found is None:
            game, notes = _with_options(laid_onto(base, laid), fractions, options)
            found = games[key] = (game, (), notes)
        return found[0], laid.straddles, found[2]
    except StakesError as error:
        raise _error(hand, error.field, error.problem) from None


def lay_game(
    base: GameDefinition, stakes: HandStakes, players: int, fractions: bool, options: ReplayOptions
) -> Laid:
    """``base`` with a hand's stakes and the options' rules (``fractions``: the hand's
    finishing stacks hold fractions of a chip), its straddles, and the notes the options
    took; StakesError naming the field that cannot be laid out."""
    game, straddles = lay_stakes(base, stakes, players, players - 1)
    game, notes = _with_options(game, fractions, options)
    return game, straddles, notes


def _with_options(
    game: GameDefinition, fractions: bool, options: ReplayOptions
) -> tuple[GameDefinition, tuple[str, ...]]:
    """``game`` with the options' rules, and the notes they took."""
    notes: list[str] = []
    odd_chips = options.odd_chips.rule(fractions)
    if fractions and odd_chips is OddChipRule.EXACT and odd_chips is not game.odd_chips:
        notes.append(
            f"{ODD_CHIPS}: finishing_stacks holds fractions of a chip, so pots were split "
            "exactly (--odd-chips exact); the rule texts give the odd chip to the first "
            "winner left of the button"
        )
    incomplete = options.incomplete_raise
    if incomplete is None:
        incomplete = game.incomplete_raise
    short = options.short_all_ins if options.short_all_ins is not None else game.short_all_ins
    rules = (odd_chips, incomplete, short)
    if rules != (game.odd_chips, game.incomplete_raise, game.short_all_ins):
        game = replace(game, odd_chips=odd_chips, incomplete_raise=incomplete, short_all_ins=short)
    return game, tuple(notes)


def _blind_seats(
    hand: PhhHand, game: GameDefinition, lines: Sequence[Line], options: ReplayOptions
) -> tuple[BlindSeats | None, tuple[str, ...]]:
    """Heads-up with two equal blinds: the button's blind taken as the big blind where the
    options (or, ``auto``, the history's first action by ``p1``) say so."""
    blinds = game.forced.blinds
    if hand.player_count != 2 or len(blinds) != 2 or blinds[0] != blinds[1]:
        return None, ()
    first = next((line for line in lines if line.verb in _BETTING), None)
    last, notes = button_acts_last(options, first is not None and first.seat == 0)
    return (BlindSeats(small=(0,), big=(1,)) if last else None), notes


HEADS_UP_NOTE = (
    f"{HEADS_UP}: heads-up with equal blinds, p1 acts first in every round as the "
    "history records: the button's blind was taken as the big blind (the rule "
    "texts' button posts the small blind and acts first before the flop: "
    "--heads-up-blinds button-acts-first)"
)


def button_acts_last(options: ReplayOptions, first_by_p1: bool) -> tuple[bool, tuple[str, ...]]:
    """Heads-up with two equal blinds: whether the button's blind is taken as the big blind
    (the other player then acts first in every round), and the note that takes; by the
    options, or (``auto``) where the history's first action is ``p1``'s
    (``first_by_p1``), noted."""
    choice = options.heads_up_blinds
    if choice is HeadsUpBlinds.AUTO:
        return (True, (HEADS_UP_NOTE,)) if first_by_p1 else (False, ())
    return choice is HeadsUpBlinds.BUTTON_ACTS_LAST, ()


def _deck(
    hand: PhhHand, game: GameDefinition, lines: Sequence[Line]
) -> tuple[GameDefinition, tuple[Card, ...], tuple[str, ...]]:
    """The deck order that deals the history's cards, under the texts' way of dealing, or
    else with the bottom card dealt and five cards in a row allowed (noted)."""
    players = hand.player_count
    try:
        groups = card_groups(lines)
    except Unplayable as error:  # hidden cards: no way of dealing deals them
        problem = f"cannot be dealt from one deck: {_why(str(error))}"
        raise _error(hand, "actions", problem) from None
    try:
        return game, deck_order(game, players, players - 1, lines, groups=groups), ()
    except Unplayable as error:
        first = str(error)
    own = dealing_of(game)
    for dealing, how in _RELAXED:
        dealing = replace(
            own,
            bottom_card=own.bottom_card or dealing.bottom_card,
            five_consecutive=own.five_consecutive or dealing.five_consecutive,
            burns=own.burns and dealing.burns,
        )
        if dealing == own:
            continue
        try:
            deck = deck_order(game, players, players - 1, lines, dealing=dealing, groups=groups)
        except Unplayable:
            continue
        note = (
            f"{DEALING}: the history's cards were dealt with {how}; under the rule texts' "
            f"dealing {first}"
        )
        return _relaxed(game, dealing), deck, (note,)
    raise _error(hand, "actions", f"cannot be dealt from one deck: {_why(first)}")


_BOTH = "the bottom card dealt and five cards in a row to one player"
# The ways of dealing tried when the texts' runs the deck out, in order, each only when the
# one before it fails (none of them can make an invalid game): what each allows beyond
# the game's own dealing.
_RELAXED = (
    (Dealing(bottom_card=True, five_consecutive=False), "the bottom card dealt"),
    (Dealing(bottom_card=False, five_consecutive=True), "five cards in a row to one player"),
    (Dealing(bottom_card=True, five_consecutive=True), _BOTH),
    (Dealing(bottom_card=True, five_consecutive=True, burns=False), f"no burn cards, {_BOTH}"),
)


def _relaxed(game: GameDefinition, dealing: Dealing) -> GameDefinition:
    """``game`` dealt as ``dealing`` says, built once that way has dealt the history's
    cards."""
    phases = game.phases
    if not dealing.burns:
        phases = tuple(
            replace(phase, burn=False) if isinstance(phase, Deal | Draw) else phase
            for phase in game.phases
        )
    return replace(
        game,
        deals_bottom_card=dealing.bottom_card,
        five_consecutive=dealing.five_consecutive,
        phases=phases,
    )


def _why(reason: str) -> str:
    if reason.endswith("is dealt twice"):
        return (
            f"{reason}, after it left play (a discard or a folded hand): the history's dealer "
            "dealt it again where the texts' dealer deals from the stub or reshuffles"
        )
    return reason


def prepare(
    hand: PhhHand, options: ReplayOptions = DEFAULT_OPTIONS, games: Games | None = None
) -> Setup:
    """The engine's setup of ``hand`` (PhhError naming the field that keeps it from one);
    ``games`` keeps the games laid out for other hands of a run."""
    game, straddles, notes = laid_game(hand, options, games)
    lines = hand.lines
    if lines is None:
        try:
            lines = parse_lines(hand.actions, hand.player_count)
        except LineError as error:
            field, _, problem = str(error).partition(": ")
            raise _error(hand, field, problem) from None
    blind_seats, heads_up = _blind_seats(hand, game, lines, options)
    game, deck, dealing = _deck(hand, game, lines)
    return Setup(
        game=game,
        button=hand.player_count - 1,
        straddles=straddles,
        blind_seats=blind_seats,
        deck=deck,
        lines=lines,
        notes=(*notes, *heads_up, *dealing),
    )


def _idle(played: Hand, seat: int) -> bool:
    """Whether ``seat`` has nothing to call while every other player still in is all in: a
    check some engines ask for and ours does not (nobody could answer a bet)."""
    if played.folded[seat]:
        return False
    if played.finished:
        return True  # the engine ran the hand out: no betting was left
    others = [s for s in range(played.n) if s != seat and not played.folded[s]]
    owes = played.round_bets[seat] < max(played.round_bets)
    return not owes and all(played.stacks[s] == 0 for s in others)


def play(hand: PhhHand, setup: Setup) -> tuple[Hand, tuple[str, ...]]:
    """The hand played by the reference engine, line by line, and the notes the playing
    took (PhhError naming the first line the engine refuses)."""
    try:
        played = setup.new_hand(hand.starting_stacks)
    except ValueError as error:
        field = "blinds_or_straddles" if "straddle" in str(error) else "starting_stacks"
        raise _error(hand, field, _players(str(error))) from None
    notes: list[str] = []
    for index, line in enumerate(setup.lines):
        verb = line.verb
        if verb in (DEAL_HOLE, DEAL_BOARD, SHOW):
            continue
        if played.actor != line.seat:
            if verb == CHECK_OR_CALL and _idle(played, line.seat):
                notes.append(
                    f"{IDLE_CHECK}: {player_name(line.seat)}'s check (actions[{index}]) where "
                    "no one could answer a bet was skipped: the engine does not ask for it"
                )
                continue
            if played.actor is None:
                problem = "the hand is already over"
            else:
                problem = f"out of turn: {player_name(played.actor)} is to act"
            raise _error(hand, f"actions[{index}]", f"{line.text!r}: {problem}")
        try:
            if verb == CHECK_OR_CALL:
                # A check or a call: whether a check answers the turn, without its bet and
                # raise amounts (which a bet or raise reads).
                action = check_or_call(played.can_check())
            elif verb in READS_THE_TURN:
                legal = played.legal_actions()
                action = engine_action(line, legal)
                if (
                    action.kind in (ActionKind.BET, ActionKind.RAISE)
                    and legal.full_total is not None
                    and action.total is not None
                    and action.total < legal.full_total
                ):
                    notes.append(
                        short_all_in_note(setup.game, line.seat, legal.full_total, action.total)
                    )
            else:
                # A fold, a draw, ...: the engine checks it as it acts, by the same rules,
                # without working out the turn's bets first.
                action = plain_action(line)
            played.act(action)
        except (IllegalAction, ValueError) as error:
            raise _error(
                hand, f"actions[{index}]", f"{line.text!r}: {_players(str(error))}"
            ) from None
    if not played.finished:
        actor = "someone" if played.actor is None else player_name(played.actor)
        raise _error(hand, "actions", f"the actions end before the hand does: {actor} is to act")
    _check_dealt(hand, setup.lines, played)
    return played, tuple(notes)


def short_all_in_note(game: GameDefinition, seat: int, full: int, total: int) -> str:
    """The note of a bet or raise to ``total`` by ``seat``, all in, short of a full bet or
    raise to ``full``: the rule it was replayed by."""
    rule = game.incomplete_raise
    other = "half-bet" if rule.value == "full-bet" else "full-bet"
    return (
        f"{SHORT_ALL_IN}: {player_name(seat)} went all in to {total}, short of a full "
        f"bet or raise to {full}; replayed by the {rule.value} rule ({game.short_all_ins.value} "
        f"short all-ins), --incomplete-raise {other} reads it otherwise"
    )


def _check_dealt(hand: PhhHand, lines: Sequence[Line], played: Hand) -> None:
    """The engine dealt the history's cards and no others: every seat its ``dh`` cards, the
    board its ``db`` cards (none from the cards the history never shows)."""
    wanted: dict[int, list[Card]] = {}
    for line in lines:
        if line.verb == DEAL_HOLE or line.verb == DEAL_BOARD:
            wanted.setdefault(line.seat, []).extend(line.cards or ())
    dealt: dict[int, list[Card]] = {}
    for event in played.events:
        if isinstance(event, HoleDealt):
            dealt.setdefault(event.seat, []).extend(event.cards)
        elif isinstance(event, BoardDealt):
            dealt.setdefault(-1, []).extend(event.cards)
    for seat in sorted(set(wanted) | set(dealt)):
        want, got = sorted(wanted.get(seat, ())), sorted(dealt.get(seat, ()))
        if want != got:
            who = "the board" if seat < 0 else player_name(seat)
            raise _error(
                hand,
                "actions",
                f"the engine dealt {who} {_cards(got) or 'nothing'} where the history deals "
                f"{_cards(want) or 'nothing'} (the history's deals do not follow the game's)",
            )


def _cards(cards: Sequence[Card]) -> str:
    return "".join(format_card(c) for c in cards)


def _as_fraction(value: Number | Chips) -> Fraction:
    return Fraction(value)


def compare(
    hand: PhhHand, stacks: Sequence[Chips], game: GameDefinition, odd: bool = False
) -> tuple[tuple[Difference, ...], tuple[str, ...]]:
    """The difference between the engine's final stacks and ``finishing_stacks`` (none when
    they are equal), and, ``odd`` (a pot was split with chips left over), a note when they
    differ only by those odd chips."""
    if hand.finishing_stacks is None:
        shown = ", ".join(_number(s) for s in stacks)
        return (), (f"{UNCHECKED}: the history gives none; the hand ended at [{shown}]",)
    finishing = hand.finishing_stacks
    whole = all(type(s) is int for s in finishing) and all(type(s) is int for s in stacks)
    if whole and list(finishing) == list(stacks):
        return (), ()  # whole chips alike: the common case, without fractions
    want = [_as_fraction(s) for s in finishing]
    got = [_as_fraction(s) for s in stacks]
    if want == got:
        return (), ()
    difference = Difference(
        field="finishing_stacks",
        expected="[" + ", ".join(_number(s) for s in hand.finishing_stacks) + "]",
        actual="[" + ", ".join(_number(s) for s in stacks) + "]",
    )
    notes: tuple[str, ...] = ()
    off = [g - w for g, w in zip(got, want, strict=True)]
    if odd and sum(off) == 0 and all(abs(d) <= 1 for d in off):
        rule = game.odd_chips.value
        notes = (
            f"{ODD_CHIPS}: the stacks differ only by odd chips; the replay gave them by the "
            f"{rule} rule (--odd-chips first-left-of-button, one-each-left-of-button or exact "
            "reads them otherwise)",
        )
    return (difference,), notes


def odd_chip_split(played: Hand) -> bool:
    """Whether a pot (or half of one) was shared by winners with chips that do not divide
    evenly: the winners' shares differ, or are fractions of a chip."""
    shares: dict[int, set[Chips]] = {}
    for event in played.events:
        if isinstance(event, Awarded):
            if isinstance(event.amount, Fraction) and event.amount.denominator != 1:
                return True  # split exactly: the chips left over were shared out
            shares.setdefault(event.pot, set()).add(event.amount)
    return any(len(amounts) > 1 for amounts in shares.values())


def _number(value: Number | Chips) -> str:
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def replay_hand(
    hand: PhhHand, options: ReplayOptions = DEFAULT_OPTIONS, games: Games | None = None
) -> ScenarioResult:
    """``hand`` replayed by the reference engine: passed when it ends at the history's
    finishing stacks, failed (with the difference) when not, malformed (with the message
    naming the field) when it cannot be set up or played."""
    started = time.perf_counter()
    notes: tuple[str, ...] = ()
    try:
        setup = prepare(hand, options, games)
        notes = setup.notes
        played, playing = play(hand, setup)
    except PhhError as error:
        return ScenarioResult(
            file=hand.source,
            name=hand.name,
            outcome=Outcome.MALFORMED,
            seconds=time.perf_counter() - started,
            notes=notes,
            message=str(error),
        )
    differences, compared = compare(hand, played.stacks, setup.game, odd_chip_split(played))
    return ScenarioResult(
        file=hand.source,
        name=hand.name,
        outcome=Outcome.FAILED if differences else Outcome.PASSED,
        seconds=time.perf_counter() - started,
        differences=differences,
        notes=(*notes, *playing, *compared),
    )


def replay_file(path: str | Path, options: ReplayOptions = DEFAULT_OPTIONS) -> FileReport:
    """Every hand of a ``.phh`` or ``.phhs`` file replayed (see :func:`replay_files`)."""
    from simulations.phh.batch import replay_files

    return replay_files([path], options)[0]


def malformed(file: str, name: str, error: PhhError) -> ScenarioResult:
    return ScenarioResult(
        file=file, name=name, outcome=Outcome.MALFORMED, seconds=0.0, message=str(error)
    )
