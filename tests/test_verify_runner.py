"""The scenario runner on hand-made scenarios: each kind of expectation holding, and not
holding with the Difference that names it.

The hand most tests play: no-limit hold'em, blinds 5 and 10, p1 1,000 (small blind), p2
1,000 (big blind), p3 45 on the button.  p3 raises to 30, both call (pot 90); on the flop p1
bets 10, p2 calls, p3 goes all in for 15 — 5 more, short of a full raise (Rules
002_376df91f076a6501.txt, 'Incomplete bet or raise': it does not reopen the betting for
those who acted) — and both call: 135.  The turn and river are checked through and p2's
queens beat p3's sevens and p1's ace-king on 2c 8d 9h Jd 4s: stacks 955, 1,090, 0.  Every
amount is worked out by hand from the rule texts, not read from the engine.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simulations.phh.results import Difference, Outcome, ScenarioResult
from simulations.verify.run import verify_text

HEADER = """
[defaults]
game = "NT"
starting_stacks = [1000, 1000, 45]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
actions = [
  "d dh p1 AsKs", "d dh p2 QdQc", "d dh p3 7h7d",
  "p3 cbr 30", "p1 cc", "p2 cc",
  "d db 2c8d9h",
  "p1 cbr 10", "p2 cc", "p3 cbr 15",
  "p1 cc", "p2 cc",
  "d db Jd", "p1 cc", "p2 cc",
  "d db 4s", "p1 cc", "p2 cc",
]
"""


def run(body: str, header: str = HEADER, base: Path | None = None) -> ScenarioResult:
    """The one scenario of ``header`` + ``body``."""
    report = verify_text(header + body, "t.toml", base)
    assert report.error == ""
    assert len(report.results) == 1
    return report.results[0]


def differences(body: str, header: str = HEADER) -> list[Difference]:
    result = run(body, header)
    assert result.outcome is Outcome.FAILED, result.message or result
    return list(result.differences)


def passes(body: str, header: str = HEADER, base: Path | None = None) -> None:
    result = run(body, header, base)
    assert result.outcome is Outcome.PASSED, result.message or result.differences


def scenario(expect: str, name: str = "s") -> str:
    return f'[[scenario]]\nname = "{name}"\n{expect}'


# --- stacks ------------------------------------------------------------------------------------


def test_stacks_hold() -> None:
    """Final stacks as worked out by hand: p2's queens take the 135 pot."""
    passes(scenario("[scenario.expect]\nstacks = [955, 1090, 0]"))


def test_stacks_differ_named_by_player() -> None:
    """Wrong final stacks: one Difference on expect.stacks listing both, naming who differs."""
    found = differences(scenario("[scenario.expect]\nstacks = [955, 1000, 90]"))
    assert found == [
        Difference("expect.stacks", "[955, 1000, 90]", "[955, 1090, 0] (p2, p3 differ)")
    ]


def test_finishing_stacks_are_checked_like_expect_stacks() -> None:
    """PHH's finishing_stacks: the same check, under its own name."""
    passes(scenario("finishing_stacks = [955, 1090, 0]"))
    found = differences(scenario("finishing_stacks = [955, 1090, 1]"))
    assert [d.field for d in found] == ["finishing_stacks"]
    assert found[0].actual == "[955, 1090, 0] (p3 differ)"


# --- pots --------------------------------------------------------------------------------------

SIDE_POT = """
[defaults]
game = "NT"
starting_stacks = [1000, 1000, 45]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
actions = [
  "d dh p1 KsKh", "d dh p2 QdQc", "d dh p3 AhAd",
  "p3 cbr 45", "p1 cbr 200", "p2 cc",
  "d db 2c8d9h", "p1 cc", "p2 cc",
  "d db Jd", "p1 cc", "p2 cc",
  "d db 4s", "p1 cc", "p2 cc",
]
"""
# p3 is all in for 45: the main pot is 3 x 45 = 135, open to all three ('"All in"': he "may
# not win any more money from any player above the amount of his bet"); the side pot is the
# 155 more each of p1 and p2 put in, 310, open to them alone.  Aces take the main pot, kings
# the side pot: p1 1,000 - 200 + 310 = 1,110, p2 800, p3 135.


def test_main_and_side_pot_with_their_players_and_winners() -> None:
    """Rules 002_376df91f076a6501.txt, '"All in"': a side pot for the chips above the all-in
    player's bet, which he is not eligible to win."""
    passes(
        scenario(
            """[scenario.expect]
stacks = [1110, 800, 135]
pots = [
  { amount = 135, eligible = ["p1", "p2", "p3"], winners = "p3", shares = { p3 = 135 } },
  { amount = 310, eligible = ["p1", "p2"], winners = ["p1"] },
]"""
        ),
        SIDE_POT,
    )


def test_each_pot_field_that_differs_is_named() -> None:
    """A wrong amount, wrong eligible players, wrong winners and wrong shares: one
    Difference each, under the pot's index."""
    found = differences(
        scenario(
            """[scenario.expect]
pots = [
  { amount = 130, eligible = ["p1", "p2", "p3"], winners = ["p3"] },
  { amount = 310, eligible = ["p1", "p2", "p3"], winners = ["p2"], shares = { p1 = 300 } },
]"""
        ),
        SIDE_POT,
    )
    assert found == [
        Difference("expect.pots[0].amount", "130", "135"),
        Difference("expect.pots[1].eligible", "p1, p2, p3", "p1, p2"),
        Difference("expect.pots[1].winners", "p2", "p1"),
        Difference("expect.pots[1].shares", "p1 300", "p1 310"),
    ]


def test_a_missing_side_pot_is_a_difference_in_the_count() -> None:
    """One pot expected where the hand makes a main pot and a side pot."""
    found = differences(scenario("[scenario.expect]\npots = [{ amount = 135 }]"), SIDE_POT)
    assert found == [Difference("expect.pots", "1 pot", "2 pots (135, 310)")]


# --- the rake and the drop -----------------------------------------------------------------------

RAKED = """
[scenario.options.house]
rake = { percent = 5 }
jackpot_drop = { amount = 1, threshold = 20 }
"""
# 5 per cent of 135 is 6.75, rounded down to 6; the drop is 1 (the pot reached 20 after the
# flop).  They come out of the pot before it is awarded: p2 takes 128 of the 135.


def test_rake_and_drop_are_taken_before_the_award() -> None:
    """The house's rake and jackpot drop as the house options set them; the pot is still
    given as the bets made it, its share after the take."""
    passes(
        scenario(
            RAKED
            + """[scenario.expect]
rake = 6
jackpot_drop = 1
stacks = [955, 1083, 0]
pots = [{ amount = 135, winners = ["p2"], shares = { p2 = 128 } }]
events = ["the house takes a rake of 6 and a jackpot drop of 1"]"""
        )
    )


def test_rake_and_drop_that_differ() -> None:
    """Wrong rake and drop: a Difference each."""
    found = differences(scenario(RAKED + "[scenario.expect]\nrake = 5\njackpot_drop = 2"))
    assert found == [
        Difference("expect.rake", "5", "6"),
        Difference("expect.jackpot_drop", "2", "1"),
    ]


# --- the log -------------------------------------------------------------------------------------


def test_events_and_no_events_hold() -> None:
    """Log lines name players p1, p2, ...: p3's all-in for 15 is in the log, a deck running
    out is not."""
    passes(
        scenario(
            '[scenario.expect]\nevents = ["p3 bets or raises to 15 (all in)", "p2 wins 135"]\n'
            'no_events = ["the deck runs out", "p3 wins"]'
        )
    )


def test_events_missing_and_present_when_they_should_not_be() -> None:
    """An expected line not in the log, and a forbidden one that is: the actual shows the
    nearest line, and the line found."""
    found = differences(
        scenario(
            '[scenario.expect]\nevents = ["p3 bets or raises to 20 (all in)"]\n'
            'no_events = ["p2 wins"]'
        )
    )
    assert [d.field for d in found] == ["expect.events[0]", "expect.no_events[0]"]
    assert found[0].actual.startswith("not in the log")
    assert "p3 bets or raises to 15 (all in)" in found[0].actual
    assert found[1].actual == "'p2 wins 135 from the main pot'"


# --- finished ------------------------------------------------------------------------------------

STOPS = """
[defaults]
game = "NT"
starting_stacks = [1000, 1000, 45]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
seed = 3
actions = ["p3 cbr 30"]
"""


def test_a_hand_expected_to_stop_may_stop() -> None:
    """finished = false: the hand stops with p1 to act; the stacks are as they stand."""
    passes(scenario("[scenario.expect]\nfinished = false\nstacks = [995, 990, 15]"), STOPS)


def test_a_hand_that_stops_is_not_finished_by_default() -> None:
    """Without finished = false, a hand left mid-way fails, saying who is to act."""
    found = differences(scenario(""), STOPS)
    assert found == [Difference("expect.finished", "true", "false (p1 is to act)")]


# --- legal actions -------------------------------------------------------------------------------


def test_legal_actions_at_the_first_turn_and_after_a_short_all_in() -> None:
    """Rules 002_376df91f076a6501.txt, 'Incomplete bet or raise': p3's all-in raise of 5
    over p1's bet of 10 does not reopen the betting, so p1, who acted, may call the 5 and
    not raise.  At the first turn p3 faces the big blind: call 10, raise to 20 (the big
    blind again) up to his 45."""
    passes(
        scenario(
            """[[scenario.expect.legal]]
after = 0
actor = "p3"
actions = ["fold", "call", "raise"]
call = 10
min = 20
max = 45

[[scenario.expect.legal]]
after = 6
actor = "p1"
actions = ["call", "fold"]
call = 5"""
        )
    )


def test_legal_actions_that_differ() -> None:
    """A raise expected where none is allowed, another actor, another call."""
    found = differences(
        scenario(
            """[[scenario.expect.legal]]
after = 6
actor = "p2"
actions = ["fold", "call", "raise"]
call = 10
min = 20"""
        )
    )
    assert found == [
        Difference("expect.legal[0].actor", "p2", "p1"),
        Difference("expect.legal[0].actions", "fold, call, raise", "fold, call"),
        Difference("expect.legal[0].call", "10", "5"),
        Difference("expect.legal[0].min", "20", "no bet or raise is allowed"),
    ]


def test_legal_actions_after_the_hand_is_over() -> None:
    """A point after the last action: nobody is to act."""
    found = differences(scenario('[[scenario.expect.legal]]\nafter = 12\nactor = "p1"'))
    assert found == [
        Difference("expect.legal[0]", "a player to act", "no one is to act: the hand is over")
    ]


STUD = """
[defaults]
game = "F7S"
starting_stacks = [100, 100, 100]
antes = [1, 1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
actions = ["d dh p1 AsKs2c", "d dh p2 QdQc9h", "d dh p3 JdTdKd"]
"""


def test_the_bring_in_may_be_paid_or_completed() -> None:
    """Rules 002_376df91f076a6501.txt, 'Bring-in': the lowest upcard (p1's deuce) opens by
    paying the bring-in of 2 or completing to the full bet of 4; he may not check or fold."""
    passes(
        scenario(
            """[scenario.expect]
finished = false
[[scenario.expect.legal]]
after = 0
actor = "p1"
actions = ["bring-in", "bet"]
bring_in = 2
min = 4
max = 4"""
        ),
        STUD,
    )


# --- refused actions -----------------------------------------------------------------------------


def test_refused_raise_after_a_short_all_in() -> None:
    """Rules 002_376df91f076a6501.txt, 'Incomplete bet or raise': p1 may not re-raise; the
    engine says the betting was not reopened, and the hand plays on unchanged."""
    passes(
        scenario(
            """[scenario.expect]
stacks = [955, 1090, 0]
[[scenario.expect.refused]]
after = 6
action = "p1 cbr 40"
reason = "NOT REOPENED"
[[scenario.expect.refused]]
after = 0
action = "p2 f"
reason = "p2 acted out of turn: p3 is to act"
"""
        )
    )


def test_a_refused_action_may_stand_in_the_actions_where_it_is_tried() -> None:
    """The refused line written among the actions at its point is tried, not played."""
    header = HEADER.replace('"p3 cbr 15",\n', '"p3 cbr 15",\n  "p1 cbr 40",\n')
    assert header != HEADER
    passes(
        scenario(
            """[scenario.expect]
stacks = [955, 1090, 0]
[[scenario.expect.refused]]
after = 6
action = "p1 cbr 40"
"""
        ),
        header,
    )


def test_refusals_that_do_not_hold() -> None:
    """Another reason than the engine's, and an action the engine takes (the hand is dealt
    again to that point, so the rest still plays and the stacks still hold)."""
    found = differences(
        scenario(
            """[scenario.expect]
stacks = [955, 1090, 0]
[[scenario.expect.refused]]
after = 6
action = "p1 cbr 40"
reason = "the betting is capped"
[[scenario.expect.refused]]
after = 6
action = "p1 cc"
"""
        )
    )
    assert found == [
        Difference(
            "expect.refused[0].reason",
            "'the betting is capped'",
            "'the betting was not reopened since this player acted: call or fold'",
        ),
        Difference("expect.refused[1].action", "'p1 cc' refused", "the engine took it"),
    ]


# --- the cards -----------------------------------------------------------------------------------


def test_a_deck_order_deals_a_round_at_a_time_from_the_buttons_left() -> None:
    """`deck`: the top cards go one at a time to p1, p2, p3, then round again."""
    header = """
[defaults]
game = "NT"
starting_stacks = [100, 100, 100]
deck = "As Kd Qh Ac Kh Qd"
actions = ["p3 f", "p1 f"]
"""
    passes(
        scenario(
            '[scenario.expect]\nevents = ["p1 is dealt As Ac", "p2 is dealt Kd Kh", '
            '"p3 is dealt Qh Qd"]\nstacks = [99, 101, 100]'
        ),
        header,
    )


def test_a_dealing_line_the_hand_never_reaches_fails_on_that_line() -> None:
    """Everyone folds before the flop: the flop's line is never dealt."""
    header = """
[defaults]
game = "NT"
starting_stacks = [100, 100, 100]
actions = ["d dh p1 AsKs", "d dh p2 QdQc", "d dh p3 7h7d", "p3 f", "p1 f", "d db 2c8d9h"]
"""
    found = differences(scenario(""), header)
    assert found == [Difference("actions[5]", "the board gets 2c 8d 9h", "no board was dealt")]


def test_a_check_nobody_could_answer_is_skipped_with_a_note() -> None:
    """p2 is all in before the flop: a PHH writer's idle checks by p1 are skipped."""
    header = """
[defaults]
game = "NT"
starting_stacks = [1000, 40, 1000]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
actions = [
  "d dh p1 AsKs", "d dh p2 QdQc", "d dh p3 7h2d",
  "p3 f", "p1 cbr 40", "p2 cc",
  "d db 2c8d9h", "p1 cc", "d db Jd", "p1 cc", "d db 4s", "p1 cc",
]
"""
    result = run(scenario("[scenario.expect]\nstacks = [960, 80, 1000]"), header)
    assert result.outcome is Outcome.PASSED, result.differences
    assert len(result.notes) == 3
    assert "every other player still in is all in" in result.notes[0]


# --- the house's options, the button, game files and PHH hands -----------------------------------

ODD_CHIPS = """
[defaults]
game = "NT"
starting_stacks = [100, 100, 100, 100]
blinds_or_straddles = [1, 2, 0, 0]
min_bet = 2
actions = [
  "d dh p1 2c3d", "d dh p2 4h5c", "d dh p3 6h7c", "d dh p4 8d9c",
  "p3 cc", "p4 cc", "p1 cc", "p2 cc",
  "d db AsKsQs", "p1 cbr 2", "p2 cc", "p3 cc", "p4 f",
  "d db Js", "p1 cc", "p2 cc", "p3 cc",
  "d db Ts", "p1 cc", "p2 cc", "p3 cc",
]
"""
# p1, p2 and p3 each put in 4, p4 2 before folding: a pot of 14.  All three play the royal
# flush on the board, so it splits three ways: 4 each and 2 odd chips.  p4 is on the button,
# p1 the first player left of it.


@pytest.mark.parametrize(
    ("rule", "stacks"),
    [
        # Rules 000_1a86611de8d3f5f7.txt: 'any extra chips going to the person closest to the
        # button in clockwise order': both odd chips to p1.
        ("first-left-of-button", "[102, 100, 100, 98]"),
        # The house's alternative: one odd chip each, clockwise from the button.
        ("one-each-left-of-button", "[101, 101, 100, 98]"),
        # No rounding: a third of 14 each, written to two places.
        ("exact", "[100.67, 100.67, 100.67, 98]"),
    ],
)
def test_house_odd_chip_rules(rule: str, stacks: str) -> None:
    """options.house.odd_chips decides who gets the odd chips of a split pot."""
    passes(
        scenario(
            f'[scenario.options.house]\nodd_chips = "{rule}"\n[scenario.expect]\nstacks = {stacks}'
        ),
        ODD_CHIPS,
    )


def test_the_default_odd_chip_rule_is_not_the_houses_alternative() -> None:
    """Without the option the game file's rule applies: the one-each stacks do not hold."""
    found = differences(scenario("[scenario.expect]\nstacks = [101, 101, 100, 98]"), ODD_CHIPS)
    assert found == [
        Difference("expect.stacks", "[101, 101, 100, 98]", "[102, 100, 100, 98] (p1, p2 differ)")
    ]


def test_the_button_placed_elsewhere_moves_the_blinds() -> None:
    """button = "p1": p2 posts the small blind, p3 the big blind, and p1 acts first."""
    header = """
[defaults]
game = "NT"
starting_stacks = [100, 100, 100]
blinds_or_straddles = [0, 1, 2]
min_bet = 2
button = "p1"
seed = 5
"""
    passes(
        scenario(
            """[scenario.expect]
finished = false
stacks = [100, 99, 98]
events = ["p2 posts the blind of 1", "p3 posts the blind of 2"]
[[scenario.expect.legal]]
after = 0
actor = "p1"
call = 2"""
        ),
        header,
    )


GAME_FILE = """# no-limit hold'em with a house rake
code = "HOUSE"
name = "House hold'em"
players = [2, 10]
structure = "no-limit"
phases = [
  { deal = "preflop", down = 2 }, "bet",
  { deal = "flop", board = 3, burn = true }, "bet",
  { deal = "turn", board = 1, burn = true }, "bet",
  { deal = "river", board = 1, burn = true }, "bet",
]
[stakes]
small_bet = 10
[forced]
blinds = [5, 10]
[showdown]
use = "any"
halves = [{ ranking = "high" }]
[house]
rake = { percent = 5 }
"""


def test_a_game_file_beside_the_scenarios(tmp_path: Path) -> None:
    """game_file names a game file relative to the scenario file; its house rake applies
    (5 per cent of 135: 6)."""
    (tmp_path / "house.toml").write_text(GAME_FILE)
    header = HEADER.replace('game = "NT"', 'game_file = "house.toml"')
    passes(scenario("[scenario.expect]\nrake = 6\nstacks = [955, 1084, 0]"), header, tmp_path)


PHH = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [1000, 1000, 45]
actions = ['d dh p1 AsKs', 'd dh p2 QdQc', 'd dh p3 7h7d', 'p3 cbr 30', 'p1 cc', 'p2 cc', \
'd db 2c8d9h', 'p1 cbr 10', 'p2 cc', 'p3 cbr 15', 'p1 cc', 'p2 cc', 'd db Jd', 'p1 cc', \
'p2 cc', 'd db 4s', 'p1 cc', 'p2 cc', 'p3 sm 7h7d', 'p2 sm QdQc']
finishing_stacks = [955, 1090, 0]
"""


def test_a_scenario_starts_from_a_phh_hand(tmp_path: Path) -> None:
    """phh = FILE: the hand's fields seed the scenario (its finishing_stacks checked), and
    the scenario's own keys lie over them (here, a rake)."""
    (tmp_path / "hand.phh").write_text(PHH.replace("\\\n", ""))
    passes(scenario('phh = "hand.phh"'), "", tmp_path)
    found = differences_in(
        scenario('phh = "hand.phh"\n[scenario.options.house]\nrake = { percent = 5 }'),
        tmp_path,
    )
    assert [d.field for d in found] == ["finishing_stacks"]
    assert found[0].actual == "[955, 1084, 0] (p2 differ)"


def differences_in(body: str, base: Path) -> list[Difference]:
    result = run(body, "", base)
    assert result.outcome is Outcome.FAILED, result.message or result
    return list(result.differences)


REFUSED_SETUP = """
[[scenario]]
name = "refused"
game = "NT"
starting_stacks = [100, 100, 100, 100]
blinds_or_straddles = [1, 2, {straddle}]
[scenario.expect]
refused_setup = "{phrase}"
"""


@pytest.mark.parametrize(
    ("straddle", "phrase", "outcome", "shown"),
    [
        ("3", "a straddle must be a raise", Outcome.PASSED, ""),
        ("3", "BLINDS_OR_STRADDLES: the hand cannot be dealt", Outcome.PASSED, ""),
        ("3", "cannot cover", Outcome.FAILED, "at least 4, got 3"),
        ("4", "a straddle must be a raise", Outcome.FAILED, "the hand was dealt"),
    ],
)
def test_a_setup_expected_refused(straddle: str, phrase: str, outcome: Outcome, shown: str) -> None:
    """expect.refused_setup: passed when the setup is refused with the phrase (any case, the
    field named included); failed, showing the refusal or that the hand was dealt, else."""
    report = verify_text(REFUSED_SETUP.format(straddle=straddle, phrase=phrase), "x.toml")
    [result] = report.results
    assert result.outcome is outcome, result
    if shown:
        assert any(shown in d.actual for d in result.differences), result.differences


def test_a_setup_refused_by_the_game_file_reader() -> None:
    """A house configuration the game-file reader refuses is a refused setup too."""
    text = """
[[scenario]]
name = "too many players"
game = "NT"
starting_stacks = [100, 100]
options.players = [2, 23]
[scenario.expect]
refused_setup = "may need 54"
"""
    [result] = verify_text(text, "x.toml").results
    assert result.outcome is Outcome.PASSED, result
