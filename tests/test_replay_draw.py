"""The compiled replay kernel on draw games: their betting played as the reference engine
plays it, their showdown on the values the game's own ranking gives the cards each player
holds after the last draw (simulations.engine.replay.ReplayRules.from_draw_game,
simulations.phh.fast_draw).

The oracle is the reference engine: random hands of every draw game it plays, written as
PHH and replayed both ways, and histories broken where the reference engine refuses them
(a draw out of turn, a discard of a card not held, a draw left out, a bet after the draw
that closes its round), which the kernel must not pass either.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from simulations.engine.game import GameDefinition
from simulations.engine.phases import Draw
from simulations.engine.replay import ReplayBatch, ReplayRules, ReplayStatus, replay_games
from simulations.engine.variants import POKER_VARIANTS
from simulations.phh.batch import replay_files
from simulations.phh.fast import replay_covered
from simulations.phh.model import PhhHand
from simulations.phh.options import Engine, ReplayOptions
from simulations.phh.read import ReadFile, ReadHand, loads, read_file
from simulations.phh.record import PHH_VARIANTS, hand_history
from simulations.phh.replay import replay_hand
from simulations.phh.results import Outcome
from simulations.phh.write import dumps
from tests.test_phh_engine_roundtrip import played

DRAW_CODES = sorted(
    code
    for code in PHH_VARIANTS
    if code in POKER_VARIANTS
    and any(isinstance(p, Draw) for p in POKER_VARIANTS[code].game().phases)
)
SEEDS = 40


def game_of(code: str) -> GameDefinition:
    return POKER_VARIANTS[code].game()


def test_the_draw_games_betting_rounds() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Double-draw and Triple-draw': 'two or three draw
    phases and therefore three or four betting rounds'; a single draw has two."""
    assert {"F2L3D", "N2L1D", "FB"} <= set(DRAW_CODES)
    rounds = {code: ReplayRules.from_draw_game(game_of(code)).rounds for code in DRAW_CODES}
    assert rounds["F2L3D"] == rounds["FB"] == 4
    assert rounds["N2L1D"] == 2
    triple = ReplayRules.from_draw_game(game_of("F2L3D"))
    assert triple.values_given and triple.bet_sizes == (2, 2, 4, 4)  # 'a 1-1-2-2 structure'


def test_what_the_kernel_does_not_play_in_a_draw_game_is_refused() -> None:
    """Hold'em is no draw game, nor a draw game hold'em; a draw game with openers
    (jackpots), a limit that grows with an ace kept, or more cards dealt than discarded
    (Four-before) is refused by name."""
    triple = game_of("F2L3D")
    with pytest.raises(ValueError, match="plain draw between each two"):
        ReplayRules.from_draw_game(game_of("NT"))
    with pytest.raises(ValueError, match="hold'em's streets"):
        ReplayRules.from_game(triple)
    with pytest.raises(ValueError, match="openers"):
        ReplayRules.from_draw_game(game_of("FJACK"))  # jacks or better to open
    with pytest.raises(ValueError, match="openers or limits keeping an ace"):
        ReplayRules.from_draw_game(game_of("FA5L4B"))  # Four-before: one card more than discarded
    phases = list(triple.phases)
    keeping_ace = dataclasses.replace(phases[2], most=3, most_keeping_ace=4)
    odd = dataclasses.replace(triple, phases=(*phases[:2], keeping_ace, *phases[3:]))
    with pytest.raises(ValueError, match="limits keeping an ace"):
        ReplayRules.from_draw_game(odd)


def test_a_draw_hand_shown_down_on_given_values() -> None:
    """Heads-up single draw: the button's small blind completes, the big blind checks, both
    check after the draw; the higher value takes the pot.  An action given for the wrong
    betting round stops the hand, and a draw game's hands need their values."""
    rules = ReplayRules.from_draw_game(game_of("N2L1D"))
    kinds = np.array([2, 1, 1, 1], dtype=np.int8)  # call, check; check, check

    def batch(values: list[int] | None, rounds: list[int]) -> ReplayBatch:
        return ReplayBatch(
            seats=np.array([2]),
            buttons=np.array([1]),
            stacks=np.array([[100, 100]]),
            decks=np.arange(12, dtype=np.int8)[None, :],
            action_offsets=np.array([0, 4]),
            action_kinds=kinds,
            action_totals=np.zeros(4, dtype=np.int64),
            hand_values=None if values is None else np.array([values]),
            action_rounds=np.array(rounds, dtype=np.int8),
        )

    won = replay_games([rules], [0], batch([5, 9], [0, 0, 1, 1]))
    assert won.ok.all() and won.stacks.tolist() == [[98, 102]]
    lost = replay_games([rules], [0], batch([9, 5], [0, 0, 1, 1]))
    assert lost.stacks.tolist() == [[102, 98]]
    tied = replay_games([rules], [0], batch([7, 7], [0, 0, 1, 1]))
    assert tied.stacks.tolist() == [[100, 100]]
    early = replay_games([rules], [0], batch([5, 9], [0, 1, 1, 1]))
    assert early.status.tolist() == [ReplayStatus.WRONG_ROUND]
    assert early.message(0) == (
        "hand 0, action 1 (seat 0): an action of betting round 2 while round 1 is bet: "
        "seat 0 is to act in round 1"
    )
    with pytest.raises(ValueError, match="shows down on given values"):
        replay_games([rules], [0], batch(None, [0, 0, 1, 1]))


def histories(code: str) -> list[PhhHand]:
    """Random hands of ``code`` played by the reference engine, as PHH read back."""
    found = []
    for seed in range(SEEDS):
        try:
            history = hand_history(played(code, seed), code)
        except ValueError:
            continue  # a deck run out: the history cannot be written
        (back,) = loads(dumps(history), f"{code}-{seed}.phh")
        found.append(back)
    return found


@pytest.mark.parametrize("code", DRAW_CODES)
def test_the_kernel_replays_draw_hands_as_the_reference_engine(code: str) -> None:
    """Every random hand the kernel passes, the reference engine passes with the same notes;
    and the kernel passes most of the hands the reference engine does (the comparison is not
    of one engine twice)."""
    hands = histories(code)
    reads = [ReadFile(h.source, (ReadHand(h.name, None, hand=h),)) for h in hands]
    kernel = replay_covered(reads, ReplayOptions())
    passed = 0
    for number, hand in enumerate(hands):
        reference = replay_hand(hand)
        passed += reference.passed
        ours = kernel.get((number, 0))
        if ours is not None:
            assert reference.passed, (hand.source, reference.message)
            assert ours.notes == reference.notes
    assert passed >= SEEDS // 2
    assert len(kernel) >= 0.8 * passed, (code, len(kernel), passed)


def _showdown_hand(code: str) -> PhhHand:
    """A random hand of ``code`` that draws and goes to a showdown."""
    for hand in histories(code):
        if any(" sm " in line for line in hand.actions) and any(" sd" in a for a in hand.actions):
            return hand
    raise AssertionError(f"{code}: no hand with a draw and a showdown")


def _broken(hand: PhhHand) -> dict[str, tuple[str, ...]]:
    """The hand's actions broken in ways the reference engine refuses."""
    actions = list(hand.actions)
    draws = [i for i, a in enumerate(actions) if a.split()[1] == "sd"]
    bets = [i for i, a in enumerate(actions) if a.split()[1] in ("cc", "cbr", "f")]
    first_draw = draws[0]
    last_bet_before = max(i for i in bets if i < first_draw)
    cases: dict[str, list[str]] = {}
    if len(draws) >= 2 and draws[1] == first_draw + 1:
        swapped = list(actions)
        swapped[first_draw], swapped[first_draw + 1] = swapped[first_draw + 1], swapped[first_draw]
        cases["draws out of turn"] = swapped
    cases["a draw left out"] = [a for i, a in enumerate(actions) if i != first_draw]
    late = list(actions)
    moved = late.pop(last_bet_before)
    late.insert(first_draw, moved)  # the round's last bet after the first draw line
    cases["a bet after a draw"] = late
    cases["the history stops at the first draw"] = actions[:first_draw]
    return {name: tuple(value) for name, value in cases.items()}


@pytest.mark.parametrize("code", ["F2L3D", "N2L1D", "FB"])
def test_draw_histories_the_reference_engine_refuses(code: str, tmp_path: Path) -> None:
    """A history broken at its draws is reported alike with and without the kernel, and
    not as replayed: the kernel passes no hand the reference engine refuses."""
    hand = _showdown_hand(code)
    files = []
    for name, actions in _broken(hand).items():
        path = tmp_path / f"{name.replace(' ', '-')}.phh"
        path.write_text(dumps(dataclasses.replace(hand, actions=actions)))
        files.append(path)
    fast = replay_files(files, ReplayOptions(engine=Engine.AUTO))
    reference = replay_files(files, ReplayOptions(engine=Engine.REFERENCE))
    assert len(fast) == len(files) >= 3
    for ours, theirs in zip(fast, reference, strict=True):
        (a,) = ours.results
        (b,) = theirs.results
        assert (a.outcome, a.message, a.differences, a.notes) == (
            b.outcome,
            b.message,
            b.differences,
            b.notes,
        )
        assert a.outcome is not Outcome.PASSED, (ours.path, a.message)
    # The unbroken hand is the kernel's.
    whole = tmp_path / "whole.phh"
    whole.write_text(dumps(hand))
    assert len(replay_covered([read_file(whole)], ReplayOptions())) == 1
