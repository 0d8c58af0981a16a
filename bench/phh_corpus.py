"""Hands from the PHH corpora, prepared for replay through pokerkit and through our reference
engine on the same cards and the same actions.

Two corpora sit in ``../shared/phh`` beside the repository (see its README): ``generated/``,
one multi-hand ``.phhs`` file per variant with a ``manifest.json`` naming each hand's
convention flags, and ``pluribus/``, 10,000 six-handed no-limit hold'em hands, one ``.phh``
file each.  pokerkit reads both (:class:`pokerkit.HandHistory`).

For each hand this module prepares:

* **pokerkit's side**: the game class PHH names for the variant, built with the hand's antes,
  blinds, straddles, bring-in and bet sizes and with everything but the dealing and the
  players' choices automated (as ``bench_engine.py`` does, so the ``sm`` lines are not
  replayed), and the hand's script of ``deal_hole`` / ``deal_board`` / ``fold`` /
  ``check_or_call`` / ``complete_bet_or_raise_to`` / ``post_bring_in`` /
  ``stand_pat_or_discard`` calls;
* **ours**: the variant's built-in game (:func:`simulations.engine.variants.variant`) with the
  hand's stakes and forced bets, the button on the last seat (PHH's ``p1`` sits left of it),
  a deck order that makes our dealer deal exactly the PHH's cards (:func:`deck_order`) and the
  actions as :class:`~simulations.engine.actions.Action` objects.

A hand is kept only when both engines end it at the PHH's ``finishing_stacks`` (exactly for
the generated corpus; within one chip for Pluribus, whose split pots are recorded to the half
chip).  The others are counted by reason, with the manifest's convention flags.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pokerkit
from pokerkit import Automation, HandHistory, State

from simulations.cards import format_card
from simulations.engine.actions import Action
from simulations.engine.game import GameDefinition, StraddleRule
from simulations.engine.hand import Hand
from simulations.engine.phases import Bet, Deal, Draw
from simulations.engine.variants import variant

REPOSITORY = Path(__file__).resolve().parent.parent
# ``../shared/phh`` beside the repository, or wherever CARDROOM_PHH points (a fresh clone
# elsewhere, as CI makes, has nothing beside it).
CORPUS = Path(os.environ.get("CARDROOM_PHH") or REPOSITORY.parent / "shared" / "phh")

# PHH variant code -> the generated corpus's file.
GENERATED_FILES = {
    "NT": "NT.phhs",
    "FT": "FT.phhs",
    "PO": "PO.phhs",
    "FO/8": "FO8.phhs",
    "F7S": "F7S.phhs",
    "F7S/8": "F7S8.phhs",
    "FR": "FR.phhs",
    "N2L1D": "N2L1D.phhs",
    "F2L3D": "F2L3D.phhs",
    "FB": "FB.phhs",
}
PLURIBUS = "pluribus"
STUD = frozenset({"F7S", "F7S/8", "FR"})
FIXED_LIMIT = frozenset({"FT", "FO/8", "F7S", "F7S/8", "FR", "F2L3D", "FB"})

# Everything but the dealing and the players' choices automated (bench_engine.py too).
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
    Automation.RUNOUT_COUNT_SELECTION,
)

# pokerkit script steps
DEAL_HOLE, DEAL_BOARD, FOLD, CHECK_OR_CALL, BET_OR_RAISE, BRING_IN, DRAW = range(7)

CODES = {format_card(code): code for code in range(52)}
POKERKIT_CARDS = {text: next(iter(pokerkit.Card.parse(text))) for text in CODES}


class CorpusMissing(FileNotFoundError):
    """The PHH corpus is not where the repository expects it."""


class Unplayable(ValueError):
    """A hand this harness cannot set up for both engines (the reason is the message)."""


@dataclass(frozen=True)
class Line:
    """One PHH action line: ``dh`` (hole cards), ``db`` (board), or a player's ``f``, ``cc``,
    ``cbr``, ``pb``, ``sd`` (stand pat or discard) or ``sm`` (show or muck)."""

    kind: str
    seat: int  # -1 for the board
    cards: tuple[str, ...] = ()
    amount: int = 0


@dataclass
class PreparedHand:
    """One hand ready for both engines."""

    name: str
    variant: str
    flags: tuple[str, ...]  # the manifest's convention flags (generated corpus)
    # pokerkit
    pokerkit_game: Callable[..., State]
    pokerkit_steps: tuple[tuple[int, Any], ...]
    # ours
    game: GameDefinition
    stacks: tuple[int, ...]
    button: int
    deck: tuple[int, ...]
    straddles: tuple[tuple[int, int], ...]
    actions: tuple[Action, ...] = ()
    # the PHH's result
    finishing: tuple[float, ...] = ()
    showdown: bool = False


@dataclass
class Loaded:
    """The hands of one corpus both engines replay to the PHH's result, and how many others
    were left out, by reason."""

    variant: str
    source: str
    total: int
    hands: list[PreparedHand] = field(default_factory=list)
    left_out: Counter[str] = field(default_factory=Counter)


def corpus_root() -> Path:
    """``../shared/phh`` beside the repository; :class:`CorpusMissing` if it is not there."""
    if not (CORPUS / "generated").is_dir() or not (CORPUS / PLURIBUS).is_dir():
        raise CorpusMissing(
            f"the PHH corpus is missing: expected {CORPUS}/generated and {CORPUS}/{PLURIBUS} "
            "(../shared/phh relative to the repository root, or set CARDROOM_PHH)"
        )
    return CORPUS


@contextmanager
def pokerkit_quiet() -> Iterator[None]:
    """pokerkit warns on every card dealt out of its own deck order: silence it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


# --- reading a PHH hand ---------------------------------------------------------------------------


def split_cards(text: str) -> tuple[str, ...]:
    if len(text) % 2 or "?" in text:
        raise Unplayable("the PHH hides some cards")
    return tuple(text[i : i + 2] for i in range(0, len(text), 2))


def parse_lines(history: HandHistory) -> list[Line]:
    lines = []
    for raw in history.actions:
        parts = raw.split("#")[0].split()
        if parts[0] == "d":
            if parts[1] == "dh":
                lines.append(Line("dh", int(parts[2][1:]) - 1, split_cards(parts[3])))
            elif parts[1] == "db":
                lines.append(Line("db", -1, split_cards(parts[2])))
            else:
                raise Unplayable(f"unknown dealing line {raw!r}")
            continue
        seat, kind = int(parts[0][1:]) - 1, parts[1]
        if kind == "cbr":
            lines.append(Line(kind, seat, amount=int(parts[2])))
        elif kind == "sd":
            lines.append(Line(kind, seat, split_cards(parts[2]) if len(parts) > 2 else ()))
        elif kind in ("f", "cc", "pb", "sm"):
            lines.append(Line(kind, seat))
        else:
            raise Unplayable(f"unknown action line {raw!r}")
    return lines


def antes_of(history: HandHistory, players: int) -> list[int]:
    raw = history.antes
    if raw is None:
        return [0] * players
    if isinstance(raw, int):
        return [raw] * players
    return [int(a) for a in raw]


def required(value: float | None, name: str) -> int:
    if value is None:
        raise Unplayable(f"the PHH gives no {name}")
    return int(value)


def our_game(
    code: str, history: HandHistory, players: int, button: int
) -> tuple[GameDefinition, tuple[tuple[int, int], ...]]:
    """The built-in game of ``code`` with this hand's stakes and forced bets, and its
    straddles as (seat, total)."""
    base = variant(code).game()
    antes = antes_of(history, players)
    posted = [(seat, a) for seat, a in enumerate(antes) if a]
    ante = big_blind_ante = 0
    if posted and len(posted) == players and len({a for _, a in posted}) == 1:
        ante = posted[0][1]
    elif len(posted) == 1 and code not in STUD:
        big_blind = (button + 1) % players if players == 2 else (button + 2) % players
        if posted[0][0] != big_blind:
            raise Unplayable("an ante posted by one player other than the big blind")
        big_blind_ante = posted[0][1]
    elif posted:
        raise Unplayable("antes that differ between the players")
    if code in FIXED_LIMIT:
        small, big = required(history.small_bet, "small_bet"), required(history.big_bet, "big_bet")
        stakes = replace(base.stakes, small_bet=small, big_bet=big)
    else:
        stakes = replace(base.stakes, small_bet=required(history.min_bet, "min_bet"))
    if code in STUD:
        bring_in = required(history.bring_in, "bring_in")
        forced = replace(base.forced, ante=ante, bring_in=bring_in)
        return replace(base, forced=forced, stakes=stakes), ()
    bets = [int(b) for b in history.blinds_or_straddles or ()]
    blinds = tuple(b for b in bets[:2] if b)
    straddles = tuple((seat, b) for seat, b in enumerate(bets[2:], start=2) if b)
    forced = replace(base.forced, ante=ante, blinds=blinds, big_blind_ante=big_blind_ante)
    rule = StraddleRule.LIVE if straddles else base.straddles
    return replace(base, forced=forced, stakes=stakes, straddles=rule), straddles


# --- the deck order ------------------------------------------------------------------------------


@dataclass
class _DealGroup:
    holes: dict[int, tuple[str, ...]] = field(default_factory=dict)
    board: tuple[str, ...] = ()


@dataclass
class _DrawGroup:
    discards: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)
    replacements: dict[int, tuple[str, ...]] = field(default_factory=dict)


def card_groups(lines: Sequence[Line]) -> list[_DealGroup | _DrawGroup]:
    """The PHH's cards, one group per deal or draw of the hand, in order.  A deal is a run of
    ``dh`` lines (a seat seen twice starts the next deal, as in an all-in run-out) or one
    ``db`` line; a draw is a run of ``sd`` lines and the ``dh`` lines replacing them."""
    groups: list[_DealGroup | _DrawGroup] = []
    current: _DealGroup | _DrawGroup | None = None
    dealing = False  # the line before was a deal or a discard
    for line in lines:
        if line.kind == "db":
            current = _DealGroup(board=line.cards)
            groups.append(current)
        elif line.kind == "sd":
            if not (isinstance(current, _DrawGroup) and dealing and not current.replacements):
                current = _DrawGroup()
                groups.append(current)
            current.discards.append((line.seat, line.cards))
        elif line.kind == "dh":
            if isinstance(current, _DrawGroup) and dealing:
                if line.seat in current.replacements:
                    raise Unplayable("a draw's replacements come in two lines")
                current.replacements[line.seat] = line.cards
            else:
                if not (
                    isinstance(current, _DealGroup)
                    and dealing
                    and line.seat not in current.holes
                    and not current.board
                ):
                    current = _DealGroup()
                    groups.append(current)
                current.holes[line.seat] = line.cards
        else:
            dealing = False
            continue
        dealing = True
    return groups


def deck_order(
    game: GameDefinition, players: int, button: int, lines: Sequence[Line]
) -> tuple[int, ...]:
    """A deck order from which our dealer deals exactly the PHH's cards.

    Deal by deal as :class:`~simulations.engine.dealer.Dealer` deals: a burn card (a card the
    hand never shows) where the phase burns; a deal's down cards a round at a time clockwise
    from the button's left, then its up cards, then the board; a draw's replacements player
    by player in the order they drew, held back by the five-consecutive rule as the dealer
    holds them.  The cards the hand never shows follow.  Hands whose cards cannot be rebuilt
    this way (the deck runs out and the dealer would reuse burns or reshuffle) raise
    :class:`Unplayable`."""
    groups = card_groups(lines)
    shown = {
        card
        for group in groups
        for cards in (
            group.holes.values()
            if isinstance(group, _DealGroup)
            else [*group.replacements.values(), *(d for _, d in group.discards)]
        )
        for card in cards
    } | {card for group in groups if isinstance(group, _DealGroup) for card in group.board}
    pool = [text for text in CODES if text not in shown]
    deck: list[str] = []
    phases = [p for p in game.phases if not isinstance(p, Bet)]
    if len(groups) > len(phases):
        raise Unplayable(f"the PHH deals {len(groups)} times; the game has {len(phases)} deals")
    reserve = 0 if game.deals_bottom_card else 1

    def burn() -> None:
        if not pool:
            raise Unplayable("the deck runs out: no card the hand never shows is left to burn")
        deck.append(pool.pop(0))

    for phase, group in zip(phases, groups, strict=False):
        if isinstance(phase, Deal) and isinstance(group, _DealGroup):
            if phase.burn:
                burn()
            order = sorted(group.holes, key=lambda seat: (seat - button - 1) % players)
            for seat in order:
                if len(group.holes[seat]) != phase.per_player:
                    raise Unplayable(f"{phase.street}: not {phase.per_player} cards a player")
            for first, count in ((0, phase.down), (phase.down, phase.up)):
                for index in range(first, first + count):
                    deck.extend(group.holes[seat][index] for seat in order)
            if len(group.board) != phase.board:
                raise Unplayable(f"{phase.street}: not {phase.board} board cards")
            deck.extend(group.board)
        elif isinstance(phase, Draw) and isinstance(group, _DrawGroup):
            if phase.burn:
                burn()
            owed: list[tuple[int, tuple[str, ...]]] = []
            last = -1
            for seat, discards in group.discards:
                cards = group.replacements.get(seat, ())
                if len(cards) != len(discards):
                    raise Unplayable(f"{phase.street}: replacements differ from the discards")
                if not game.five_consecutive and len(cards) >= 5:
                    owed.append((seat, cards[4:]))
                    cards = cards[:4]
                if cards:
                    last = seat
                for card in cards:
                    if 52 - len(deck) <= reserve:
                        raise Unplayable("the stub runs out in a draw: ours would reshuffle")
                    deck.append(card)
            for seat, cards in owed:
                if last == seat:
                    burn()
                deck.extend(cards)
                last = seat
        else:
            raise Unplayable(f"{phase.street}: the PHH's cards do not follow the game's phases")
    deck.extend(pool)
    if len(set(deck)) != len(deck):
        raise Unplayable("the PHH deals a card twice (pokerkit reused the muck)")
    return tuple(CODES[text] for text in deck)


# --- pokerkit -------------------------------------------------------------------------------------


def pokerkit_game(code: str, history: HandHistory) -> Callable[..., State]:
    """pokerkit's game for this hand (call it with the stacks and the player count)."""
    kwargs: dict[str, Any] = {
        "automations": AUTOMATIONS,
        "ante_trimming_status": history.ante_trimming_status,
        "mode": pokerkit.Mode.CASH_GAME,
    }
    for name in HandHistory.required_field_names[code]:
        if name in ("variant", "starting_stacks", "actions"):
            continue
        key = f"raw_{name}" if name in ("antes", "blinds_or_straddles") else name
        kwargs[key] = getattr(history, name)
    game: Callable[..., State] = HandHistory.game_types[code](**kwargs)
    return game


def pokerkit_steps(lines: Sequence[Line]) -> tuple[tuple[int, Any], ...]:
    steps: list[tuple[int, Any]] = []
    for line in lines:
        cards = tuple(POKERKIT_CARDS[text] for text in line.cards)
        match line.kind:
            case "dh":
                steps.append((DEAL_HOLE, cards))
            case "db":
                steps.append((DEAL_BOARD, cards))
            case "f":
                steps.append((FOLD, None))
            case "cc":
                steps.append((CHECK_OR_CALL, None))
            case "cbr":
                steps.append((BET_OR_RAISE, line.amount))
            case "pb":
                steps.append((BRING_IN, None))
            case "sd":
                steps.append((DRAW, cards))
    return tuple(steps)


def run_step(state: State, step: tuple[int, Any]) -> None:
    kind, argument = step
    if kind == DEAL_HOLE:
        state.deal_hole(argument)
    elif kind == DEAL_BOARD:
        state.deal_board(argument)
    elif kind == FOLD:
        state.fold()
    elif kind == CHECK_OR_CALL:
        state.check_or_call()
    elif kind == BET_OR_RAISE:
        state.complete_bet_or_raise_to(argument)
    elif kind == BRING_IN:
        state.post_bring_in()
    else:
        state.stand_pat_or_discard(argument)


def play_pokerkit(hand: PreparedHand) -> State:
    """The hand through pokerkit: the state, then every step of the script."""
    state = hand.pokerkit_game(hand.stacks, len(hand.stacks))
    for step in hand.pokerkit_steps:
        run_step(state, step)
    return state


# --- ours -------------------------------------------------------------------------------------


def play_ours(hand: PreparedHand) -> Hand:
    """The hand through the reference engine: the hand, then one ``act`` per action."""
    played = Hand(hand.game, hand.stacks, hand.button, deck=hand.deck, straddles=hand.straddles)
    for action in hand.actions:
        played.act(action)
    return played


def nobody_could_answer(played: Hand, seat: int) -> bool:
    """Whether ``seat`` has nothing to call and every other player still in is all in: a bet
    nobody could answer, where pokerkit asks for a check and ours moves on."""
    others = [s for s in range(played.n) if s != seat and not played.folded[s]]
    owes = played.round_bets[seat] < max(played.round_bets)
    return not played.folded[seat] and not owes and all(played.stacks[s] == 0 for s in others)


def our_actions(hand: PreparedHand, lines: Sequence[Line]) -> tuple[Action, ...]:
    """The PHH's actions for our engine, found by playing the hand once.  pokerkit asks for a
    check where nobody could answer a bet; ours skips that turn, so the check is dropped (any
    other turn out of our order leaves the hand out)."""
    played = Hand(hand.game, hand.stacks, hand.button, deck=hand.deck, straddles=hand.straddles)
    actions = []
    for line in lines:
        if line.kind in ("dh", "db", "sm"):
            continue
        if played.actor != line.seat:
            if line.kind == "cc" and nobody_could_answer(played, line.seat):
                continue  # pokerkit's idle check: ours skips that turn
            blinds = hand.game.forced.blinds
            equal = len(blinds) == 2 and blinds[0] == blinds[1]
            where = " (heads-up with equal blinds)" if played.n == 2 and equal else ""
            raise Unplayable(f"ours asks another player to act than the PHH{where}")
        legal = played.legal_actions()
        match line.kind:
            case "f":
                action = Action.fold()
            case "cc":
                action = Action.check() if legal.can_check else Action.call()
            case "cbr":
                action = legal.wager_action(line.amount)
            case "pb":
                action = Action.bring_in()
            case _:
                action = Action.draw([CODES[text] for text in line.cards])
        played.act(action)
        actions.append(action)
    if not played.finished:
        raise Unplayable("the PHH's actions leave our hand unfinished")
    return tuple(actions)


# --- loading ----------------------------------------------------------------------------------


def prepare(code: str, history: HandHistory, name: str, flags: tuple[str, ...]) -> PreparedHand:
    """Both engines' side of one PHH hand (:class:`Unplayable` or our engine's error if it
    cannot be set up)."""
    players = len(history.starting_stacks)
    button = players - 1
    lines = parse_lines(history)
    game, straddles = our_game(code, history, players, button)
    hand = PreparedHand(
        name=name,
        variant=code,
        flags=flags,
        pokerkit_game=pokerkit_game(code, history),
        pokerkit_steps=pokerkit_steps(lines),
        game=game,
        stacks=tuple(int(s) for s in history.starting_stacks),
        button=button,
        deck=deck_order(game, players, button, lines),
        straddles=straddles,
        finishing=tuple(float(s) for s in history.finishing_stacks or ()),
        showdown=any(line.kind == "sm" for line in lines),
    )
    hand.actions = our_actions(hand, lines)
    return hand


def mismatch(hand: PreparedHand, tolerance: float) -> str | None:
    """Why the two engines do not both end ``hand`` at the PHH's finishing stacks (within
    ``tolerance`` chips), or None when they do."""
    if not hand.finishing:
        return "the PHH has no finishing stacks"
    with pokerkit_quiet():
        state = play_pokerkit(hand)
    if state.status:
        return "pokerkit does not finish the hand"
    if any(abs(a - b) > tolerance for a, b in zip(state.stacks, hand.finishing, strict=True)):
        return "pokerkit ends elsewhere than the PHH"
    ours = play_ours(hand).stacks
    if any(abs(float(a) - b) > tolerance for a, b in zip(ours, hand.finishing, strict=True)):
        return "ours ends elsewhere than the PHH"
    return None


def _reason(error: Exception) -> str:
    if isinstance(error, Unplayable):
        return str(error)
    # Our engine refused the hand: its message names the rule (a straddle the player cannot
    # cover, a bet out of range, ...); the numbers are left out so that reasons group.
    return f"ours refuses it: {re.sub(r'[0-9]+', 'n', str(error))}"


def _keep(
    loaded: Loaded,
    code: str,
    history: HandHistory,
    name: str,
    flags: tuple[str, ...],
    tolerance: float,
) -> None:
    try:
        with pokerkit_quiet():
            hand = prepare(code, history, name, flags)
    except (ValueError, KeyError, AssertionError) as error:
        why: str | None = _reason(error)
    else:
        why = mismatch(hand, tolerance)
    if why is None:
        loaded.hands.append(hand)
        return
    if flags:
        why += f" [{', '.join(flags)}]"
    loaded.left_out[why] += 1


def manifest_flags(root: Path) -> dict[tuple[str, int], tuple[str, ...]]:
    """(file, section) -> the manifest's convention flags of each generated hand."""
    manifest = json.loads((root / "generated" / "manifest.json").read_text())
    return {
        (record["file"], int(record["section"])): tuple(record["convention_flags"])
        for record in manifest["hands"]
    }


def load_generated(code: str, limit: int | None = None) -> Loaded:
    """The generated corpus's hands of ``code`` (the first ``limit`` of the file)."""
    root = corpus_root()
    file = GENERATED_FILES[code]
    flags = manifest_flags(root)
    with (root / "generated" / file).open("rb") as stream, pokerkit_quiet():
        histories = list(HandHistory.load_all(stream))
    if limit is not None:
        histories = histories[:limit]
    loaded = Loaded(code, f"generated/{file}", len(histories))
    for index, history in enumerate(histories, start=1):
        section = int(history.hand) if history.hand is not None else index
        _keep(loaded, code, history, f"{file}#{section}", flags.get((file, section), ()), 0)
    return loaded


def pluribus_files(limit: int | None = None) -> list[Path]:
    files = sorted((corpus_root() / PLURIBUS).glob("*/*.phh"))
    return files if limit is None else files[:limit]


def load_pluribus(limit: int | None = None) -> Loaded:
    """The Pluribus hands (the first ``limit`` files by path).  Split pots are recorded to the
    half chip; both engines round odd chips, so a chip either way is allowed."""
    files = pluribus_files(limit)
    loaded = Loaded(PLURIBUS, f"{PLURIBUS}/*/*.phh", len(files))
    root = corpus_root() / PLURIBUS
    for path in files:
        with path.open("rb") as stream, pokerkit_quiet():
            history = HandHistory.load(stream)
        _keep(loaded, "NT", history, str(path.relative_to(root)), (), 1)
    return loaded


def load(name: str, limit: int | None = None) -> Loaded:
    """A generated variant by its PHH code, or ``pluribus``."""
    if name == PLURIBUS:
        return load_pluribus(limit)
    if name not in GENERATED_FILES:
        raise ValueError(f"no corpus {name!r}: {', '.join([*GENERATED_FILES, PLURIBUS])}")
    return load_generated(name, limit)
