"""The final expectations of a scenario against the hand the engine played: stacks, pots
with their players and winners, the rake and the jackpot drop, the log, whether the hand
finished, and the bad-beat jackpot.  Each expectation that does not hold is one
:class:`~simulations.phh.results.Difference` naming its field.

Pots are read as the bets made them, before the house takes anything (Rules
002_376df91f076a6501.txt, '"All in"': a side pot for what the others bet above an all-in
player); the rake and the jackpot drop come out of the main pot first, as the engine
takes them, so a pot's winners share its amount less what the house took from it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

from simulations.cards import Card, format_cards
from simulations.engine.events import Awarded, BoardDealt, HoleDealt, Shown
from simulations.engine.hand import Hand
from simulations.engine.history import describe_event
from simulations.engine.pots import Chips, Pot
from simulations.engine.settle import gather_pots
from simulations.phh.lines import DEAL_BOARD, DEAL_HOLE
from simulations.phh.results import Difference
from simulations.verify.fields import Number, player_name, same_amount, show_number
from simulations.verify.jackpot import judge
from simulations.verify.model import JackpotCheck, PotCheck, Scenario
from simulations.verify.play import named


def hand_log(hand: Hand) -> list[str]:
    """The hand's log, players named ``p1``, ``p2``, ..."""
    return [named(describe_event(event)) for event in hand.events]


def players(seats: Iterable[int]) -> str:
    return ", ".join(player_name(seat) for seat in sorted(seats)) or "nobody"


def show_stacks(stacks: Sequence[Number | Chips]) -> str:
    return "[" + ", ".join(show_number(stack) for stack in stacks) + "]"


def final_differences(scenario: Scenario, hand: Hand) -> list[Difference]:
    """Every final expectation of ``scenario`` that ``hand`` does not meet."""
    expect = scenario.expect
    found = dealt_differences(scenario, hand)
    if expect.finished != hand.finished:
        actual = "true" if hand.finished else f"false ({_who_acts(hand)})"
        found.append(Difference("expect.finished", str(expect.finished).lower(), actual))
    for field, stacks in (
        ("expect.stacks", expect.stacks),
        ("finishing_stacks", expect.finishing_stacks),
    ):
        if stacks is not None:
            found.extend(_stacks(field, stacks, hand))
    if expect.pots is not None:
        found.extend(_pots(expect.pots, hand))
    if expect.rake is not None and expect.rake != hand.rake:
        found.append(Difference("expect.rake", str(expect.rake), str(hand.rake)))
    if expect.jackpot_drop is not None and expect.jackpot_drop != hand.jackpot_drop:
        found.append(
            Difference("expect.jackpot_drop", str(expect.jackpot_drop), str(hand.jackpot_drop))
        )
    log = hand_log(hand)
    for index, text in enumerate(expect.events):
        if not any(text in line for line in log):
            near = difflib.get_close_matches(text, log, n=1, cutoff=0.5)
            hint = f"; the nearest line: {near[0]!r}" if near else ""
            found.append(Difference(f"expect.events[{index}]", repr(text), f"not in the log{hint}"))
    for index, text in enumerate(expect.no_events):
        lines = [line for line in log if text in line]
        if lines:
            found.append(Difference(f"expect.no_events[{index}]", "no such line", repr(lines[0])))
    if expect.jackpot is not None:
        found.extend(_jackpot(scenario, expect.jackpot, hand))
    return found


def _who_acts(hand: Hand) -> str:
    return "no one is to act" if hand.actor is None else f"{player_name(hand.actor)} is to act"


def _stacks(field: str, expected: Sequence[Number], hand: Hand) -> list[Difference]:
    actual = list(hand.stacks)
    wrong = [
        s for s, (e, a) in enumerate(zip(expected, actual, strict=True)) if not same_amount(e, a)
    ]
    if not wrong:
        return []
    return [
        Difference(field, show_stacks(expected), f"{show_stacks(actual)} ({players(wrong)} differ)")
    ]


def dealt_differences(scenario: Scenario, hand: Hand) -> list[Difference]:
    """Each dealing line whose cards the dealer did not deal where the line says (a hand
    that ended before that deal, or a dealer that deals otherwise)."""
    holes: dict[int, list[Card]] = {}
    board: list[Card] = []
    for event in hand.events:
        if isinstance(event, HoleDealt):
            holes.setdefault(event.seat, []).extend(event.cards)
        elif isinstance(event, BoardDealt):
            board.extend(event.cards)
    found = []
    for index, line in enumerate(scenario.lines):
        cards = line.cards or ()
        if line.verb == DEAL_HOLE:
            dealt = holes.get(line.seat, [])
            if not set(cards) <= set(dealt):
                who = player_name(line.seat)
                actual = (
                    f"{who} was dealt {format_cards(dealt)}"
                    if dealt
                    else f"{who} was dealt nothing"
                )
                found.append(
                    Difference(f"actions[{index}]", f"{who} is dealt {format_cards(cards)}", actual)
                )
        elif line.verb == DEAL_BOARD and not set(cards) <= set(board):
            actual = f"the board is {format_cards(board)}" if board else "no board was dealt"
            found.append(
                Difference(f"actions[{index}]", f"the board gets {format_cards(cards)}", actual)
            )
    return found


def settled_pots(hand: Hand) -> list[tuple[Pot, dict[int, Chips]]]:
    """Each pot as the bets made it (before the rake and drop), with what each winner took
    from it.  The engine's own pots are after the house's take; they keep the bets'
    numbering (one the take emptied stays, empty), so an award names its pot here too."""
    _, pots = gather_pots(hand.contributed, hand.dead, hand.folded, hand.carried_in)
    won: list[dict[int, Chips]] = [{} for _ in pots]
    for event in hand.events:
        if isinstance(event, Awarded) and event.pot < len(won):
            shares = won[event.pot]
            shares[event.seat] = shares.get(event.seat, 0) + event.amount
    return list(zip(pots, won, strict=True))


def _pots(expected: Sequence[PotCheck], hand: Hand) -> list[Difference]:
    if not hand.finished:
        return [Difference("expect.pots", _pots_count(len(expected)), "none: the hand is not over")]
    actual = settled_pots(hand)
    found = []
    if len(expected) != len(actual):
        amounts = ", ".join(str(pot.amount) for pot, _ in actual)
        found.append(
            Difference(
                "expect.pots", _pots_count(len(expected)), f"{_pots_count(len(actual))} ({amounts})"
            )
        )
    for check, (pot, won) in zip(expected, actual, strict=False):
        where = f"expect.pots[{check.index}]"
        if check.amount is not None and check.amount != pot.amount:
            found.append(Difference(f"{where}.amount", str(check.amount), str(pot.amount)))
        if check.eligible is not None and check.eligible != set(pot.eligible):
            found.append(
                Difference(f"{where}.eligible", players(check.eligible), players(pot.eligible))
            )
        if check.winners is not None and check.winners != set(won):
            found.append(Difference(f"{where}.winners", players(check.winners), players(won)))
        if check.shares is not None:
            wanted = dict(check.shares)
            seats = sorted({*wanted, *won})
            if any(not same_amount(wanted.get(s, 0), won.get(s, 0)) for s in seats):
                found.append(
                    Difference(f"{where}.shares", _shares(wanted.items()), _shares(won.items()))
                )
    return found


def _pots_count(count: int) -> str:
    return f"{count} pot{'s' * (count != 1)}"


def _shares(items: Iterable[tuple[int, Number | Chips]]) -> str:
    return ", ".join(f"{player_name(s)} {show_number(c)}" for s, c in sorted(items)) or "nothing"


def _jackpot(scenario: Scenario, check: JackpotCheck, hand: Hand) -> list[Difference]:
    rules = scenario.jackpot
    assert rules is not None  # the reader refuses expect.jackpot without a jackpot table
    shown = {event.seat for event in hand.events if isinstance(event, Shown)}
    holes = {seat: hand.hole[seat] for seat in shown}
    if hand.finished and len(hand.board) == 5 and len(shown) > 1:
        verdict = judge(hand.board, holes, rules, players=hand.n, button=hand.button)
    else:  # no showdown of two hands or more: no bad beat
        verdict = judge([], {}, rules, players=hand.n, button=hand.button)
    found = []
    if check.hit is not None and check.hit != verdict.hit:
        found.append(
            Difference("expect.jackpot.hit", str(check.hit).lower(), str(verdict.hit).lower())
        )
    if check.losers is not None and check.losers != set(verdict.losers):
        found.append(
            Difference("expect.jackpot.loser", players(check.losers), players(verdict.losers))
        )
    if check.winners is not None and check.winners != set(verdict.winners):
        found.append(
            Difference("expect.jackpot.winner", players(check.winners), players(verdict.winners))
        )
    if check.pays is not None:
        paid = {seat: chips for seat, chips in verdict.pays if chips}
        wanted = {seat: chips for seat, chips in check.pays if chips}
        if paid != wanted:
            found.append(
                Difference("expect.jackpot.pays", _shares(wanted.items()), _shares(paid.items()))
            )
    return found
