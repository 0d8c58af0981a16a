"""Playing a scenario's hand through the engine, checking ``expect.legal`` and
``expect.refused`` at their points on the way.

The hand is dealt from the scenario's deck order (or seeded shuffle) and its action lines
are played in order.  ``after = N`` is the point after N player actions the engine took
(``sm`` lines, the dealer's lines and skipped checks do not count).  A refused action must
raise :class:`~simulations.engine.actions.IllegalAction` and leave the hand as it was; an
action line the engine refuses and the scenario does not list in ``expect.refused`` (at its
point, with the same line) makes the scenario malformed, as does a line out of turn.

PHH files written by other engines check where nobody could answer a bet (every other
player still in is all in); the engine moves on without that turn, so such a ``cc`` line
is skipped (and noted), as the PHH replay does.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from simulations.engine.actions import Action, IllegalAction, LegalActions
from simulations.engine.hand import Hand
from simulations.phh.lines import CHECK_OR_CALL, SHOW, engine_action
from simulations.phh.results import Difference
from simulations.verify.fields import ScenarioError, player_name
from simulations.verify.model import ACTION_WORDS, LegalCheck, RefusedCheck, Scenario

_SEAT = re.compile(r"\bseat (\d+)\b")


def named(text: str) -> str:
    """An engine message or log line with seats named as players (``seat 0`` -> ``p1``)."""
    return _SEAT.sub(lambda match: player_name(int(match.group(1))), text)


def new_hand(scenario: Scenario, *, posts: bool = True, kill: bool = True) -> Hand:
    """The scenario's hand, dealt and with its forced bets posted (without its posts or its
    kill blind, when told: to find which of them the engine refused)."""
    rng = None if scenario.seed is None else np.random.default_rng(scenario.seed)
    return Hand(
        scenario.game,
        scenario.stacks,
        scenario.button,
        deck=scenario.deck,
        rng=rng,
        straddles=scenario.straddles,
        posts=scenario.posts if posts else (),
        kill=scenario.kill if kill else None,
        blind_seats=scenario.blind_seats,
    )


def deal(scenario: Scenario) -> Hand:
    """The scenario's hand as :func:`new_hand` deals it; :class:`ScenarioError` naming the
    key the engine refused (stacks too short for a straddle, too many blinds, a post from a
    player who posted a blind, ...)."""
    try:
        return new_hand(scenario)
    except ValueError as error:
        message = named(str(error))
        field = _setup_field(message)
        if scenario.kill is not None and _deals(scenario, posts=True):
            field = "kill"
        elif scenario.posts and _deals(scenario, posts=False):
            field = "posts"
        raise ScenarioError(field, f"the hand cannot be dealt: {message}") from None


def _deals(scenario: Scenario, *, posts: bool) -> bool:
    """Whether the hand is dealt without its kill blind (and without its posts, unless
    ``posts``)."""
    try:
        new_hand(scenario, posts=posts, kill=False)
    except ValueError:
        return False
    return True


@dataclass
class Played:
    """The hand once every action line is played, with what the checks on the way found."""

    hand: Hand
    actions: int = 0  # player actions the engine took
    differences: list[Difference] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def legal_words(legal: LegalActions) -> frozenset[str]:
    """What the player to act may do, in the words of ``expect.legal.actions``."""
    if legal.declarations:
        return frozenset({"declare"})
    if legal.choice is not None:
        words = {legal.choice.kind.value}
        if legal.choice.may_fold:
            words.add("fold")
        return frozenset(words)
    words = set()
    if legal.can_fold:
        words.add("fold")
    if legal.can_check:
        words.add("check")
    if legal.to_call > 0:
        words.add("call")
    if legal.wager is not None:
        words.add(legal.wager_kind.value)
    if legal.bring_in is not None:
        words.add("bring-in")
    return frozenset(words)


def show_words(words: frozenset[str]) -> str:
    return ", ".join(word for word in ACTION_WORDS if word in words) or "nothing"


def check_legal(hand: Hand, check: LegalCheck) -> list[Difference]:
    """``expect.legal[i]`` against what the engine lists for the player to act."""
    where = f"expect.legal[{check.index}]"
    if hand.actor is None:
        return [Difference(where, "a player to act", "no one is to act: the hand is over")]
    legal = hand.legal_actions()
    found: list[Difference] = []
    if check.actor is not None and check.actor != legal.seat:
        found.append(
            Difference(f"{where}.actor", player_name(check.actor), player_name(legal.seat))
        )
    if check.actions is not None and check.actions != legal_words(legal):
        found.append(
            Difference(
                f"{where}.actions", show_words(check.actions), show_words(legal_words(legal))
            )
        )
    if check.call is not None and check.call != legal.to_call:
        found.append(Difference(f"{where}.call", str(check.call), str(legal.to_call)))
    bounds = (("min", check.min, 0), ("max", check.max, 1))
    for key, expected, end in bounds:
        if expected is None:
            continue
        if legal.wager is None:
            found.append(Difference(f"{where}.{key}", str(expected), "no bet or raise is allowed"))
        elif legal.wager[end] != expected:
            found.append(Difference(f"{where}.{key}", str(expected), str(legal.wager[end])))
    if check.bring_in is not None and check.bring_in != legal.bring_in:
        actual = "no bring-in is due" if legal.bring_in is None else str(legal.bring_in)
        found.append(Difference(f"{where}.bring_in", str(check.bring_in), actual))
    return found


def _state(hand: Hand) -> tuple[object, ...]:
    """What a refused action must leave as it was."""
    return (
        len(hand.events),
        tuple(hand.stacks),
        tuple(hand.contributed),
        tuple(hand.round_bets),
        tuple(hand.folded),
        hand.actor,
        hand.phase,
        hand.street,
        hand.finished,
        tuple(tuple(cards) for cards in hand.hole),
        tuple(hand.board),
    )


def check_refused(hand: Hand, check: RefusedCheck) -> tuple[list[Difference], bool]:
    """``expect.refused[i]`` tried on ``hand``: the differences, and whether the hand moved
    (the engine took the action, or changed while refusing it): it must then be dealt again."""
    where = f"expect.refused[{check.index}]"
    text = check.line.text
    before = _state(hand)
    try:
        action = engine_action(check.line, hand.legal_actions())
        hand.act(action, seat=check.line.seat)
    except IllegalAction as error:
        found = []
        changed = _state(hand) != before
        if changed:
            found.append(Difference(f"{where}.action", "the hand left as it was", "it changed"))
        message = named(str(error))
        reason = check.reason
        if reason is not None and reason.lower() not in message.lower():
            found.append(Difference(f"{where}.reason", repr(reason), repr(message)))
        return found, changed
    return [Difference(f"{where}.action", f"{text!r} refused", "the engine took it")], True


def nobody_could_answer(hand: Hand, seat: int) -> bool:
    """Whether ``seat`` has nothing to call and every other player still in is all in: a
    check PHH writers record where the engine asks nobody (and, the board run out, the hand
    may already be over)."""
    if hand.folded[seat]:
        return False
    others = [s for s in range(hand.n) if s != seat and not hand.folded[s]]
    if hand.finished:  # settled: who was all in shows in what each put in
        return bool(others) and all(hand.contributed[s] >= hand.starting_stacks[s] for s in others)
    owes = hand.round_bets[seat] < max(hand.round_bets)
    return not owes and all(hand.stacks[s] == 0 for s in others)


def play(scenario: Scenario) -> Played:
    """Deal the hand and play its lines; :class:`ScenarioError` for a line out of turn or
    refused without the scenario saying so."""
    played = Played(deal(scenario))
    taken: list[tuple[int, Action]] = []
    legal_at: dict[int, list[LegalCheck]] = defaultdict(list)
    refused_at: dict[int, list[RefusedCheck]] = defaultdict(list)
    for check in scenario.expect.legal:
        legal_at[check.after].append(check)
    for refusal in scenario.expect.refused:
        refused_at[refusal.after].append(refusal)

    def checkpoint() -> None:
        at = played.actions
        for check in legal_at.get(at, ()):
            played.differences.extend(check_legal(played.hand, check))
        for refusal in refused_at.get(at, ()):
            found, moved = check_refused(played.hand, refusal)
            played.differences.extend(found)
            if moved:  # deal the hand again, back to this point
                played.hand = _replay(scenario, taken)

    checkpoint()
    for index, line in enumerate(scenario.lines):
        if line.by_dealer or line.verb == SHOW:
            continue
        where = f"actions[{index}]"
        # The action of a refusal listed at this point, already tried there: skipped if the
        # engine refuses it, played if it takes it (the refusal has failed then).
        listed = any(r.line == line for r in refused_at.get(played.actions, ()))
        hand = played.hand
        if hand.actor != line.seat:
            if listed:
                continue
            if line.verb == CHECK_OR_CALL and nobody_could_answer(hand, line.seat):
                played.notes.append(
                    f"{where}: {line.text!r} skipped: every other player still in is all in"
                )
                continue
            if hand.actor is None:
                raise ScenarioError(where, f"{line.text!r}: the hand is over, no one is to act")
            raise ScenarioError(
                where, f"{line.text!r} is out of turn: {player_name(hand.actor)} is to act"
            )
        try:
            action = engine_action(line, hand.legal_actions())
            hand.act(action, seat=line.seat)
        except IllegalAction as error:
            if listed:
                continue
            raise ScenarioError(
                where,
                f"{line.text!r} is refused: {named(str(error))} (a refusal the scenario "
                "expects goes in expect.refused)",
            ) from None
        taken.append((line.seat, action))
        played.actions += 1
        checkpoint()
    points = [("legal", c.index, c.after) for c in scenario.expect.legal]
    points += [("refused", c.index, c.after) for c in scenario.expect.refused]
    for kind, index, after in points:
        if after > played.actions:
            raise ScenarioError(
                f"expect.{kind}[{index}].after",
                f"{after}: the hand has {played.actions} player actions",
            )
    return played


def _setup_field(message: str) -> str:
    """The scenario key a refusal to deal the hand is most likely about."""
    for word, key in (("straddle", "blinds_or_straddles"), ("blind", "blinds_or_straddles")):
        if word in message:
            return key
    if "ante" in message:
        return "antes"
    return "starting_stacks" if "player" in message or "stack" in message else "game"


def _replay(scenario: Scenario, taken: Sequence[tuple[int, Action]]) -> Hand:
    hand = new_hand(scenario)
    for seat, action in taken:
        hand.act(action, seat=seat)
    return hand
