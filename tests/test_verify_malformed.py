"""Malformed scenarios and files: each reported MALFORMED with a message naming the file,
the scenario and the field, the exit status 2, and every other scenario and file still
checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulations.phh.results import FileReport, Outcome, exit_code
from simulations.verify.run import verify_paths, verify_text

GOOD = """
[[scenario]]
name = "good"
game = "NT"
starting_stacks = [100, 100, 100]
seed = 1
actions = ["p3 f", "p1 f"]
[scenario.expect]
stacks = [99, 101, 100]
"""

BASE = """
game = "NT"
starting_stacks = [100, 100, 100]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
"""

# A table under a button rule: seats 1, 3 and 4 of four, Bob's seat 2 empty.
SEATED = """
game = "NT"
starting_stacks = [100, 100, 100]
seed = 1
button_rule = "dead-button"
seat_count = 4
seats = [1, 3, 4]
"""
LAST_HAND = "last_hand = { button = 4, small_blinds = [1], big_blinds = [2] }"

# (what is wrong, the scenario's keys after name, the field named, a phrase of the problem)
CASES = [
    (
        "unknown button rule",
        SEATED.replace("dead-button", "dead") + LAST_HAND,
        "button_rule",
        "'dead' is not a button rule",
    ),
    (
        "button beside a button rule",
        SEATED + LAST_HAND + '\nbutton = "p1"',
        "button",
        "not with button_rule",
    ),
    (
        "blinds beside a button rule",
        SEATED + LAST_HAND + "\nblinds_or_straddles = [1, 2, 0]",
        "blinds_or_straddles",
        "options.forced.blinds",
    ),
    ("a button rule without the last hand", SEATED, "last_hand", "is required"),
    ("the last hand without a button rule", BASE + LAST_HAND, "last_hand", "goes with button_rule"),
    (
        "seats not rising",
        SEATED.replace("[1, 3, 4]", "[1, 4, 3]") + LAST_HAND,
        "seats[2]",
        "each in a higher seat",
    ),
    (
        "a seat off the table",
        SEATED.replace("[1, 3, 4]", "[1, 3, 5]") + LAST_HAND,
        "seats[2]",
        "seat 5 of a table of 4 seats",
    ),
    (
        "a seat for each player",
        SEATED.replace("[1, 3, 4]", "[1, 3]") + LAST_HAND,
        "seats",
        "2 seats for 3 players",
    ),
    (
        "no seat count",
        SEATED.replace("seat_count = 4\n", "") + LAST_HAND,
        "seat_count",
        "is required",
    ),
    (
        "the last big blind off the table",
        SEATED + LAST_HAND.replace("[2] }", "[7] }"),
        "last_hand.big_blinds[0]",
        "seat 7 of a table of 4 seats",
    ),
    (
        "no last big blind",
        SEATED + LAST_HAND.replace("big_blinds = [2]", "big_blinds = []"),
        "last_hand.big_blinds",
        "is required",
    ),
    (
        "a table too large",
        SEATED.replace("seat_count = 4", "seat_count = 1000000000000") + LAST_HAND,
        "seat_count",
        "a table has at most 64",
    ),
    (
        "a last hand the moving button cannot move on from",
        SEATED.replace("dead-button", "moving-button").replace("[1, 3, 4]", "[1, 3, 4]")
        + "last_hand = { button = 1, big_blinds = [1, 3, 4] }",
        "last_hand",
        "to two blinds for seat",
    ),
    (
        "three blinds under a button rule",
        SEATED.replace('"NT"', '"FQB"') + LAST_HAND,
        "button_rule",
        "posts 3",
    ),
    ("bad card", BASE + 'deck = "AsXx"', "deck", "'Xx'"),
    ("repeated card", BASE + 'deck = "AsKdAs"', "deck", "duplicate card As"),
    ("joker in a deck without", BASE + 'deck = "AsJk"', "deck", "not a card of"),
    (
        "card dealt twice",
        BASE + 'actions = ["d dh p1 AsKs", "d dh p2 AsQc", "d dh p3 7h7d"]',
        "actions",
        "As is dealt twice",
    ),
    (
        "more cards than the game deals",
        BASE + 'actions = ["d dh p1 AsKsQs", "d dh p2 2c3c4c", "d dh p3 7h7d8d"]',
        "actions",
        "the game deals 2",
    ),
    ("bad card in a line", BASE + 'actions = ["d dh p1 AsXx"]', "actions[0]", "not a card"),
    ("unknown game", 'game = "XYZ"\nstarting_stacks = [100, 100]\nseed = 1', "game", "XYZ"),
    ("no game", "starting_stacks = [100, 100]\nseed = 1", "game", "is required"),
    (
        "unknown option",
        BASE + 'seed = 1\n[scenario.options.house]\nodd_chip = "exact"',
        "options.house.odd_chip",
        "not a known setting",
    ),
    (
        "option out of its list",
        BASE + 'seed = 1\n[scenario.options.house]\nodd_chips = "nobody"',
        "options.house.odd_chips",
        "nobody",
    ),
    ("unknown key", BASE + "seed = 1\nstack = 3", "stack", "not a known setting"),
    (
        "unknown expectation",
        BASE + "seed = 1\n[scenario.expect]\npot = 3",
        "expect.pot",
        "not a known setting",
    ),
    (
        "unknown key of a pot",
        BASE + 'seed = 1\n[scenario.expect]\npots = [{ amount = 3, winner = "p1" }]',
        "expect.pots[0].winner",
        "not a known setting",
    ),
    (
        "a player not at the table",
        BASE + 'seed = 1\n[scenario.expect]\npots = [{ winners = ["p4"] }]',
        "expect.pots[0].winners",
        "p4 is not at this table",
    ),
    (
        "a word that is not an action",
        BASE + 'seed = 1\n[[scenario.expect.legal]]\nafter = 0\nactions = ["shove"]',
        "expect.legal[0].actions[0]",
        "'shove' is not an action",
    ),
    (
        "a point past the hand",
        BASE + 'seed = 1\nactions = ["p3 f", "p1 f"]\n[[scenario.expect.legal]]\nafter = 5',
        "expect.legal[0].after",
        "2 player actions",
    ),
    ("out of turn", BASE + 'seed = 1\nactions = ["p1 f"]', "actions[0]", "p3 is to act"),
    (
        "an illegal action not listed as refused",
        BASE + 'seed = 1\nactions = ["p3 cbr 3"]',
        "actions[0]",
        "must be to 4..100",
    ),
    (
        "a post from a player not at the table",
        BASE + 'seed = 1\nposts = [{ player = "p4" }]',
        "posts[0].player",
        "p4 is not at this table",
    ),
    (
        "a post without its player",
        BASE + "seed = 1\nposts = [{ missed_small_blind = true }]",
        "posts[0].player",
        "is required",
    ),
    (
        "a post with an unknown key",
        BASE + 'seed = 1\nposts = [{ player = "p3", dead = true }]',
        "posts[0].dead",
        "not a known setting",
    ),
    (
        "two posts from one player",
        BASE + 'seed = 1\nposts = [{ player = "p3" }, { player = "p3" }]',
        "posts[1].player",
        "posts once",
    ),
    (
        "a post the engine refuses",
        BASE + 'seed = 1\nposts = [{ player = "p1" }]',
        "posts",
        "p1 has already posted",
    ),
    (
        "a kill of no size",
        BASE + 'seed = 1\nkill = { player = "p3", size = "double" }',
        "kill.size",
        "'double'",
    ),
    (
        "a kill without its player",
        BASE + 'seed = 1\nkill = { size = "half" }',
        "kill.player",
        "is required",
    ),
    (
        "a kill the engine refuses",
        BASE + 'seed = 1\nkill = { player = "p2" }',
        "kill",
        "p2 has already posted a blind",
    ),
    (
        "three blinds with a player outside them",
        'game = "FQB"\nstarting_stacks = [100, 100, 100, 100]\nseed = 1\n'
        "blinds_or_straddles = [1, 2, 3, 1]",
        "blinds_or_straddles[2]",
        "p3 posts no blind",
    ),
    (
        "three blinds with one of them 0",
        'game = "FQB"\nstarting_stacks = [100, 100, 100, 100]\nseed = 1\n'
        "blinds_or_straddles = [1, 2]",
        "blinds_or_straddles[3]",
        "p4 posts one of the three blinds",
    ),
    (
        "blinds in a game with a bring-in",
        'game = "F7S"\nstarting_stacks = [100, 100, 100]\nseed = 1\nblinds_or_straddles = [1, 2]',
        "blinds_or_straddles",
        "blinds or with a bring-in",
    ),
    (
        "a refused setup with something else expected",
        BASE + '[scenario.expect]\nrefused_setup = "x"\nstacks = [1, 2, 3]',
        "expect.stacks",
        "is never played",
    ),
    (
        "a refused setup with lines to play",
        BASE + 'actions = ["p3 f"]\nseed = 1\n[scenario.expect]\nrefused_setup = "x"',
        "actions",
        "plays no lines",
    ),
    (
        "a refused setup of no phrase",
        BASE + 'seed = 1\n[scenario.expect]\nrefused_setup = " "',
        "expect.refused_setup",
        "not empty",
    ),
    ("no cards", BASE, "actions", "none of them"),
    ("cards twice", BASE + 'seed = 1\ndeck = "AsKs"', "deck", "deck and seed"),
    ("wrong type", BASE + 'seed = "one"', "seed", "must be an integer"),
    (
        "too many players",
        'game = "NT"\nstarting_stacks = [' + "100, " * 10 + "100]\nseed = 1",
        "starting_stacks",
        "11 players",
    ),
    ("no stacks", 'game = "NT"\nseed = 1', "starting_stacks", "is required"),
    (
        "a stack of nothing",
        'game = "NT"\nstarting_stacks = [100, 0]\nseed = 1',
        "starting_stacks[1]",
        "at least 1",
    ),
    (
        "wrong number of stacks expected",
        BASE + "seed = 1\n[scenario.expect]\nstacks = [1, 2]",
        "expect.stacks",
        "2 stacks for 3 players",
    ),
    (
        "settled expectations on a hand expected to stop",
        BASE + "seed = 1\n[scenario.expect]\nfinished = false\nrake = 0",
        "expect.rake",
        "finished = false",
    ),
    (
        "a jackpot expected without one",
        BASE + "seed = 1\n[scenario.expect.jackpot]\nhit = false",
        "expect.jackpot",
        "no jackpot table",
    ),
    (
        "a jackpot's losing hand that is no hand",
        BASE + 'seed = 1\n[scenario.jackpot]\nmin_losing_hand = "AAAAA"',
        "jackpot.min_losing_hand",
        "AAAAA",
    ),
    (
        "a jackpot in a game it is not judged in",
        'game = "PO"\nstarting_stacks = [100, 100]\nseed = 1\n[scenario.jackpot]\n'
        'min_losing_hand = "quads"',
        "jackpot",
        "hold'em",
    ),
    ("a file named in a scenario sent as text", BASE + 'phh = "hand.phh"', "phh", "as text"),
    (
        "stakes the game cannot take",
        'game = "NT"\nstarting_stacks = [100, 100]\nseed = 1\nsmall_bet = 2',
        "small_bet",
        "give min_bet",
    ),
]


@pytest.mark.parametrize(
    ("title", "keys", "field", "phrase"), CASES, ids=[case[0] for case in CASES]
)
def test_malformed_scenario_names_file_scenario_and_field(
    title: str, keys: str, field: str, phrase: str
) -> None:
    """The scenario is MALFORMED, its message naming the file, the scenario and the field;
    the good scenario after it in the same file still passes."""
    text = f'[[scenario]]\nname = "{title}"\n{keys}\n{GOOD}'
    report = verify_text(text, "house.toml")
    assert report.error == ""
    bad, good = report.results
    assert bad.outcome is Outcome.MALFORMED, bad.differences
    assert bad.message.startswith(f'house.toml: scenario "{title}": {field}: '), bad.message
    assert phrase in bad.message
    assert good.outcome is Outcome.PASSED, good.message or good.differences
    assert exit_code([report]) == 2


def test_a_scenario_without_a_name_and_a_name_used_twice() -> None:
    """A scenario without a name is named by its place; a second scenario of one name is
    refused, naming the first."""
    text = f'[[scenario]]\ngame = "NT"\n{GOOD}{GOOD}'
    results = verify_text(text, "house.toml").results
    assert [r.outcome for r in results] == [Outcome.MALFORMED, Outcome.PASSED, Outcome.MALFORMED]
    assert results[0].message == 'house.toml: scenario "scenario[0]": name: is required'
    assert results[2].message == 'house.toml: scenario "good": name: scenario[1] has this name too'


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[[scenario]\nname = 1", "not valid TOML"),
        ('title = "house rules"\n' + GOOD, "'title': unknown key"),
        ('[defaults]\ngame = "NT"', "no [[scenario]] tables"),
        ('[defaults]\nname = "x"\n' + GOOD, "defaults.name"),
        ("defaults = 3\n" + GOOD, "defaults: must be a table"),
    ],
)
def test_a_malformed_file_is_reported_as_a_whole(text: str, problem: str) -> None:
    """A file that is not TOML or not a scenario file: the report's error names the file."""
    report = verify_text(text, "house.toml")
    assert report.results == ()
    assert report.error.startswith("house.toml: ")
    assert problem in report.error
    assert report.malformed and exit_code([report]) == 2


def test_other_files_are_still_checked(tmp_path: Path) -> None:
    """A folder with an unreadable file, a file with a malformed scenario and a good file:
    every one is reported, in order, and the run exits 2."""
    (tmp_path / "a.toml").write_text("[[scenario]\n")
    (tmp_path / "b.toml").write_text('[[scenario]]\nname = "bad"\ngame = "XYZ"\n' + GOOD)
    (tmp_path / "c.toml").write_text(GOOD)
    seen: list[FileReport] = []
    reports = verify_paths([tmp_path], seen.append)
    assert seen == reports
    assert [Path(r.path).name for r in reports] == ["a.toml", "b.toml", "c.toml"]
    assert "not valid TOML" in reports[0].error
    assert [r.outcome for r in reports[1].results] == [Outcome.MALFORMED, Outcome.PASSED]
    message = reports[1].results[0].message
    assert message.startswith(f"{tmp_path / 'b.toml'}: scenario \"bad\": game: 'XYZ' is not")
    assert [r.outcome for r in reports[2].results] == [Outcome.PASSED]
    assert exit_code(reports) == 2


def test_paths_that_are_not_there_or_hold_nothing(tmp_path: Path) -> None:
    """A missing path, a folder without scenarios and a TOML file named that is not a
    scenario file are each an error; a game file in a folder is passed over."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "house.toml").write_text('code = "H"\n')
    (tmp_path / "games" / "README.md").write_text("# not a scenario\n")
    missing = tmp_path / "missing.toml"
    reports = verify_paths(
        [missing, tmp_path / "empty", tmp_path / "games", tmp_path / "games" / "house.toml"]
    )
    errors = [r.error for r in reports]
    assert errors == [
        f"{missing}: no such file or folder",
        f"{tmp_path / 'empty'}: no scenario or PHH files in this folder",
        f"{tmp_path / 'games'}: no scenario or PHH files in this folder",
        f"{tmp_path / 'games' / 'house.toml'}: not a scenario file: no [[scenario]] tables",
    ]
