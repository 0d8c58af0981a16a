"""The compiled reading of PHH files (simulations.phh.scan, count, quick) against the Python
reader and the reference engine: every file it settles must be reported exactly as the
reference engine reports it, and a file outside the plain form it reads, or a hand the
reference engine would not pass, must not be settled by it.

The oracle is ``replay_files`` with ``Engine.REFERENCE`` (the Python reader, then the
reference engine for every hand); the corpus is ``../shared/phh`` or ``$CARDROOM_PHH``.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from simulations.engine.hand import Hand
from simulations.engine.replay import ReplayRules
from simulations.engine.variants import POKER_VARIANTS
from simulations.phh.batch import replay_files
from simulations.phh.fast import KernelGames, replay_covered
from simulations.phh.model import PhhHand
from simulations.phh.options import Engine, HeadsUpBlinds, ReplayOptions
from simulations.phh.quick import replay_quick
from simulations.phh.read import read_file
from simulations.phh.record import hand_history
from simulations.phh.replay import lay_game
from simulations.phh.results import FileReport, Outcome, ScenarioResult
from simulations.phh.stakes import HandStakes
from simulations.phh.write import dumps, dumps_all
from tests.random_play import random_action

REPOSITORY = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CARDROOM_PHH") or REPOSITORY.parent / "shared" / "phh")

HAND = """variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 6s8h', 'd dh p2 Ah8s', 'd dh p3 4h3d', 'p3 f', 'p1 cc', 'p2 cc', \
'd db JcQh3s', 'p1 cc', 'p2 cbr 300', 'p1 cc', 'd db 2d', 'p1 cc', 'p2 cc', 'd db Qs', \
'p1 cc', 'p2 cc', 'p1 sm 6s8h', 'p2 sm Ah8s']
hand = 7
players = ['Ann', 'Bob', 'Cy']
finishing_stacks = [9600, 10400, 10000]
"""


def _summary(reports: list[FileReport]) -> list[tuple[object, ...]]:
    return [
        (report.path, report.error, *(_result(r) for r in report.results)) for report in reports
    ]


def _result(r: ScenarioResult) -> tuple[object, ...]:
    return (r.name, r.outcome, r.notes, repr(r.differences), r.message)


def _files(folder: Path, text: str) -> list[Path]:
    """Three files of the same hand: the kernel takes a game's hands three at a time at
    least (a game laid out for fewer costs more than the reference engine)."""
    paths = [folder / f"{name}.phh" for name in "abc"]
    for path in paths:
        path.write_text(text)
    return paths


def _corpus() -> Path:
    if not (CORPUS / "pluribus").is_dir() or not (CORPUS / "generated").is_dir():
        missing = f"the PHH corpus is missing: expected {CORPUS}/generated and {CORPUS}/pluribus"
        if os.environ.get("CARDROOM_REQUIRE_PHH"):
            pytest.fail(missing)
        pytest.skip(missing)
    return CORPUS


def _both(paths: list[Path]) -> tuple[list[FileReport], list[FileReport]]:
    reference = replay_files(paths, ReplayOptions(engine=Engine.REFERENCE))
    return reference, replay_files(paths, ReplayOptions(engine=Engine.AUTO))


def _settled(paths: list[Path]) -> int:
    found = replay_quick(paths, ReplayOptions())
    return sum(1 for file in found.values() for r in file.results if r is not None)


def test_plain_hand_is_settled_and_reported_as_the_reference(tmp_path: Path) -> None:
    """A plain hold'em hand is read and replayed by the kernel, and reported as passed with
    the reference engine's report."""
    paths = _files(tmp_path, HAND)
    assert _settled(paths) == 3
    reference, auto = _both(paths)
    assert reference[0].results[0].outcome is Outcome.PASSED
    assert _summary(reference) == _summary(auto)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("[9600, 10400, 10000]", "[9500, 10500, 10000]"),  # other finishing stacks
        ("'d dh p3 4h3d'", "'d dh p3 4h8h'"),  # a card dealt twice
        ("'p2 sm Ah8s'", "'p2 sm Ah3d'"),  # a card shown that is not his
        ("'p3 f'", "'p4 f'"),  # no p4 at a table of three
        ("'p2 cbr 300'", "'p2 cbr 300.5'"),  # half a chip
        ("'p2 cbr 300'", "'p2 cbr 50'"),  # a raise below the bet
        ("'d db Qs'", "'d db Qs # river'"),  # a comment in a line
        ("'d db 2d'", "'d db ??'"),  # a hidden card
        ("hand = 7", "hand = 7\nevent = 'x'"),  # a field of the writer's own
        ("hand = 7", "hand = 07"),  # not TOML
        ("antes = [0, 0, 0]", "antes = [0, 0]"),  # too few antes
        ("min_bet = 100\n", ""),  # a stake missing
        ("players = ['Ann', 'Bob', 'Cy']", "players = ['Ann', 'Bob', 3]"),  # a name not text
        ("variant = 'NT'", "variant = 'XX'"),  # no such variant
        ("'p3 f', 'p1 cc'", "'p3 f', 'p3 cc', 'p1 cc'"),  # out of turn
        # Two players' actions swapped, every player's chips as before: out of turn.
        ("'d db 2d', 'p1 cc', 'p2 cc'", "'d db 2d', 'p2 cc', 'p1 cc'"),  # checks, turn
        ("'d db Qs', 'p1 cc', 'p2 cc'", "'d db Qs', 'p2 cc', 'p1 cc'"),  # checks, river
        ("'p3 f', 'p1 cc', 'p2 cc'", "'p3 f', 'p2 cc', 'p1 cc'"),  # a call and a check
        ("'p3 f', 'p1 cc'", "'p1 cc', 'p3 f'"),  # a fold and a call, first street
        ("'p1 sm 6s8h', ", ""),  # one player shows, the other wins uncontested
    ],
)
def test_changed_hand_is_reported_as_the_reference(tmp_path: Path, old: str, new: str) -> None:
    """A hand outside the plain form, or one the reference engine does not pass, is reported
    exactly as the reference engine (and the Python reader) report it."""
    assert old in HAND
    paths = _files(tmp_path, HAND.replace(old, new, 1))
    reference, auto = _both(paths)
    assert _summary(reference) == _summary(auto)
    if reference[0].error or reference[0].results[0].outcome is not Outcome.PASSED:
        assert _settled(paths) == 0


def test_several_hands_partly_settled(tmp_path: Path) -> None:
    """A .phhs file of hands the kernel settles and hands it leaves to the reference engine
    gives every hand in its place, as the reference engine reports them."""
    broken = HAND.replace("[9600, 10400, 10000]", "[9500, 10500, 10000]")
    text = "".join(f"[{n}]\n{broken if n in (2, 4) else HAND}\n" for n in range(1, 6))
    path = tmp_path / "some.phhs"
    path.write_text(text)
    assert _settled([path]) == 3
    reference, auto = _both([path])
    outcomes = [r.outcome for r in reference[0].results]
    assert outcomes.count(Outcome.PASSED) == 3
    assert _summary(reference) == _summary(auto)


def test_several_hands_with_a_file_error(tmp_path: Path) -> None:
    """A .phhs file that is not TOML as a whole (a table named twice) is one error, as the
    Python reader reports it, even where the kernel could play its hands."""
    path = tmp_path / "twice.phhs"
    path.write_text(f"[1]\n{HAND}\n[1]\n{HAND}")
    reference, auto = _both([path])
    assert reference[0].error
    assert _summary(reference) == _summary(auto)


def test_pluribus_hands_as_the_reference() -> None:
    """The first 3,000 Pluribus hands: most settled by the kernel, every report as the
    reference engine's."""
    files = sorted((_corpus() / "pluribus").rglob("*.phh"))[:3000]
    reference, auto = _both(files)
    assert len(reference) == 3000
    assert _settled(files) > 2900
    assert _summary(reference) == _summary(auto)


@pytest.mark.parametrize("name", ["NT", "FT"])
def test_generated_hold_em_as_the_reference(name: str) -> None:
    """The generated no-limit and fixed-limit hold'em hands: some settled by the kernel,
    the others in their places, every report as the reference engine's."""
    files = [_corpus() / "generated" / f"{name}.phhs"]
    reference, auto = _both(files)
    assert _settled(files) > 50
    assert _summary(reference) == _summary(auto)


def _random_hold_em(code: str, seeds: range) -> list[PhhHand]:
    """Hands of ``code`` played with random legal actions at a new stakes each (blinds, an
    ante now and then), stacks from a few blinds deep (short all-ins) to a hundred."""
    hands = []
    for seed in seeds:
        chooser = random.Random(seed)
        big = chooser.choice([2, 4, 10, 20, 50, 100, 200]) * chooser.randint(1, 3)
        ante = chooser.choice([0, 0, 0, big // 10])
        base = POKER_VARIANTS[code].game()
        fixed = base.stakes.big_bet is not None
        game = replace(
            base,
            forced=replace(base.forced, ante=ante, blinds=(big // 2, big)),
            stakes=replace(base.stakes, small_bet=big, big_bet=2 * big if fixed else None),
        )
        n = chooser.randint(2, 9)
        stacks = [
            big * chooser.choice([1, 3, 8, 30, 100]) + chooser.randint(1, big) for _ in range(n)
        ]
        hand = Hand(game, stacks, n - 1, rng=np.random.default_rng(seed))
        while not hand.finished:
            hand.act(random_action(hand, chooser))
        hands.append(hand_history(hand, code, number=seed))
    return hands


@pytest.mark.parametrize("code", ["NT", "FT"])
def test_hands_of_many_stakes_in_one_file(tmp_path: Path, code: str) -> None:
    """A .phhs file whose every hand has its own stakes, and one-hand files of them: every
    hand the kernel plays is played in one call under its own stakes, short all-ins noted
    as the reference engine notes them, and every report is the reference engine's."""
    hands = _random_hold_em(code, range(60))
    path = tmp_path / f"{code}.phhs"
    path.write_text(dumps_all(hands))
    singles = []
    for number, hand in enumerate(hands[:12]):
        single = tmp_path / f"{number}.phh"
        single.write_text(dumps(hand))
        singles.append(single)
    paths = [path, *singles]
    games = KernelGames(ReplayOptions())
    found = replay_quick(paths, ReplayOptions(), games)
    settled = sum(1 for file in found.values() for r in file.results if r is not None)
    reference, auto = _both(paths)
    assert _summary(reference) == _summary(auto)
    outcomes = [r.outcome for report in reference for r in report.results]
    assert settled >= outcomes.count(Outcome.PASSED) - 12  # heads-up with equal blinds aside
    assert len(games.games) > 20  # one game laid out per stakes and table size
    noted = [r for file in found.values() for r in file.results if r is not None and r.notes]
    assert noted and all(n.startswith("short all-in: ") for r in noted for n in r.notes)


def test_hands_the_scan_leaves_are_played_in_one_call_too(tmp_path: Path) -> None:
    """Hands outside the plain form the scan reads (a field of the writer's own) are read
    by the Python reader and still played by the kernel, every stakes in one call, and
    reported as the reference engine reports them."""
    hands = [replace(h, extra=(("event", "x"),)) for h in _random_hold_em("NT", range(60, 100))]
    path = tmp_path / "event.phhs"
    path.write_text(dumps_all(hands))
    assert _settled([path]) == 0
    covered = replay_covered([read_file(path)], ReplayOptions())
    reference, auto = _both([path])
    assert _summary(reference) == _summary(auto)
    passed = [i for i, r in enumerate(reference[0].results) if r.outcome is Outcome.PASSED]
    assert len(covered) > len(passed) // 2
    assert any(r.notes for r in covered.values())


def _full_layout(
    variant: str, stakes: HandStakes, players: int, first_by_p1: bool
) -> tuple[ReplayRules, tuple[tuple[int, int], ...]] | None:
    """The kernel's rules of the game laid out in full for ``stakes``, and its straddles,
    or None where the kernel does not play it; heads-up with equal blinds, the blinds left
    of the button where p1 acts first (a big-blind ante then aside)."""
    base = POKER_VARIANTS[variant].game()
    try:
        game, straddles, notes = lay_game(base, stakes, players, False, ReplayOptions())
        rules = ReplayRules.from_game(game)
    except ValueError:
        return None
    blinds = game.forced.blinds
    if notes or len(blinds) > players:
        return None
    if players == 2 and len(blinds) == 2 and blinds[0] == blinds[1] and first_by_p1:
        if game.forced.big_blind_ante:
            return None
        rules = replace(rules, heads_up_blinds_left=True)
    return rules, straddles


@pytest.mark.parametrize("variant", ["NT", "FT"])
def test_each_stakes_gets_the_rules_a_full_layout_gives(variant: str) -> None:
    """The kernel's games of many stakes, laid out in full once per form and otherwise by
    their forced bets and stakes alone, are the very rules (and straddles) each game laid
    out in full gives: antes, blinds (one, two, equal heads-up), straddles, big-blind antes,
    sizes; and where one is not the kernel's, neither is the other."""
    chooser = random.Random(variant)
    games = KernelGames(ReplayOptions())
    seen = {True: 0, False: 0}
    for _ in range(400):
        players = chooser.randint(2, 9)
        big = chooser.choice([2, 4, 5, 10, 100])
        small = chooser.choice([1, big // 2, big])
        blinds = [small, big] + [0] * (players - 2)
        if chooser.random() < 0.15 and players > 2:
            blinds[2] = 2 * big  # a straddle
        ante = chooser.choice([0, 0, 1, big // 2])
        antes = [ante] * players
        if chooser.random() < 0.15:
            antes = [0] * players
            antes[1 if players > 2 else 0] = big  # a big-blind ante
        elif chooser.random() < 0.05:
            antes[0] += 1  # antes that differ: the reader names them
        if variant == "FT":
            sizes: dict[str, int | None] = {"small_bet": big, "big_bet": 2 * big}
        else:
            sizes = {"min_bet": chooser.choice([big, 2 * big])}
        stakes = HandStakes(antes=tuple(antes), blinds_or_straddles=tuple(blinds), **sizes)
        first_by_p1 = chooser.random() < 0.5
        key = (variant, stakes, players, first_by_p1)
        row = games.row(key, variant, stakes, players, first_by_p1)
        expected = _full_layout(variant, stakes, players, first_by_p1)
        assert (row >= 0) == (expected is not None), stakes
        if expected is not None:
            assert (games.games[row].rules, games.games[row].straddles) == expected, stakes
        seen[expected is not None] += 1
    assert seen[True] > 100 and seen[False] > 15
    assert any(game.rules.heads_up_blinds_left for game in games.games)


# Heads-up with equal blinds: p1 raises first (the button's blind taken as the big one, the
# other player first in every round), or p2, on the button, does (the texts' order).
_HEADS_UP = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [50, 50]
min_bet = 50
starting_stacks = [1000, 1200]
actions = ['d dh p1 6s8h', 'd dh p2 Ah8s', '{first} cbr 150', '{second} cc', 'd db JcQh3s', \
'p1 cc', 'p2 cbr 200', 'p1 cc', 'd db 2d', 'p1 cc', 'p2 cc', 'd db Qs', 'p1 cc', 'p2 cc', \
'p1 sm 6s8h', 'p2 sm Ah8s']
finishing_stacks = [650, 1550]
"""


@pytest.mark.parametrize("blinds", list(HeadsUpBlinds))
def test_heads_up_with_equal_blinds_by_the_kernel(tmp_path: Path, blinds: HeadsUpBlinds) -> None:
    """Heads-up hands with equal blinds, p1 or p2 first: read by the scan and by the Python
    reader, the kernel takes those whose first turn the options' blinds give to the player
    the history has act first (with the reference engine's note where it took the button's
    blind as the big one), and every report is the reference engine's."""
    p1_first = _HEADS_UP.format(first="p1", second="p2")
    p2_first = _HEADS_UP.format(first="p2", second="p1")
    singles = [*_files(tmp_path, p1_first)]
    for name in "def":
        singles.append(tmp_path / f"{name}.phh")
        singles[-1].write_text(p2_first)
    several = tmp_path / "both.phhs"
    several.write_text("".join(f"[{n}]\n{(p1_first, p2_first)[n % 2]}\n" for n in range(6)))
    event = tmp_path / "event.phhs"  # a field of the writer's own: the Python reader's
    event.write_text(f"[1]\n{p1_first}event = 'x'\n[2]\n{p2_first}event = 'x'\n")
    paths = [*singles, several, event]
    options = ReplayOptions(heads_up_blinds=blinds)
    reference = replay_files(paths, replace(options, engine=Engine.REFERENCE))
    auto = replay_files(paths, options)
    assert _summary(reference) == _summary(auto)
    passed = [r for report in reference for r in report.results if r.passed]
    settled = replay_quick(paths, options)
    by_kernel = [r for file in settled.values() for r in file.results if r is not None]
    covered = replay_covered([read_file(event)], options)
    noted = [r for r in passed if r.notes]
    if blinds is HeadsUpBlinds.AUTO:
        assert len(passed) == 14 and len(noted) == 7
        assert all(r.notes[0].startswith("heads-up blinds: ") for r in noted)
        assert len(by_kernel) == 12 and len(covered) == 2
    else:
        assert len(passed) == 7 and not noted  # the others' first line is out of turn
        assert len(by_kernel) == 6 and len(covered) == 1
