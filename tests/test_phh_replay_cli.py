"""``cardroom replay`` on small hand histories written here: bad input is named (file, hand,
field) with exit 2, a wrong finishing stack is reported as a difference with exit 1, and the
readings the options choose show in the notes.

Every expected stack is worked out by hand from the hand's actions (named in each test).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import main

# Fixed-limit hold'em, three players: p1 posts 1, p2 posts 2, p3 raises to 4 and both fold:
# 2 of his 4 come back uncalled and he wins the blinds: 100 + 1 + 2 = 103.
FT_HAND = """\
variant = 'FT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'd dh p3 9h9d', 'p3 cbr 4', 'p1 f', 'p2 f']
finishing_stacks = [99, 98, 103]
"""

# No-limit hold'em: p1 (small blind 1) folds, p2 and p3 see a royal flush on the board and
# split the 5 chips: 2.5 each, 100.5; with whole chips the first left of the button, p2,
# takes the odd one (101 and 100).
SPLIT_HAND = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 2c3d', 'd dh p2 4c5d', 'd dh p3 6c7d', 'p3 cc', 'p1 f', 'p2 cc', \
'd db AsKsQs', 'p2 cc', 'p3 cc', 'd db Js', 'p2 cc', 'p3 cc', 'd db Ts', 'p2 cc', 'p3 cc']
finishing_stacks = [99, 100.5, 100.5]
"""

# Heads-up with equal blinds of 1: p1 acts first in every round, as pokerkit deals it; p2's
# pair of aces beats p1's king-high: 100 - 1 = 99 and 101.
EQUAL_BLINDS = """\
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 1]
min_bet = 1
starting_stacks = [100, 100]
actions = ['d dh p1 Kc2d', 'd dh p2 AcAd', 'p1 cc', 'p2 cc', 'd db 3h4h8s', 'p1 cc', \
'p2 cc', 'd db 9c', 'p1 cc', 'p2 cc', 'd db Jd', 'p1 cc', 'p2 cc']
finishing_stacks = [99, 101]
"""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["replay", *args])
    out, err = capsys.readouterr()
    return code, out + err


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def several(*hands: str) -> str:
    return "".join(f"[{n}]\n{hand}\n" for n, hand in enumerate(hands, start=1))


def test_a_good_hand_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fixed-limit hand ends at [99, 98, 103]: exit 0 and one hand replayed."""
    code, out = run(capsys, str(write(tmp_path, "ok.phh", FT_HAND)))
    assert code == 0, out
    assert "1 hand in 1 file: 1 replayed to their finishing stacks, 0 differ, 0 unreadable" in out


def test_a_wrong_finishing_stack_is_a_difference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """p3 is recorded at 104 where the hand leaves him 103: exit 1, the difference shown."""
    path = write(tmp_path, "wrong.phhs", several(FT_HAND, FT_HAND.replace("103]", "104]")))
    code, out = run(capsys, str(path))
    assert code == 1, out
    assert f"{path}#2: differs: finishing_stacks: expected [99, 98, 104], got [99, 98, 103]" in out
    assert "2 hands, 1 replayed to their finishing stacks, 1 differ, 0 unreadable" in out


def test_each_hand_gets_a_line_with_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --each only the hand that differs is listed; with it the replayed hand is
    listed too, each hand once, and the totals are the same."""
    path = write(tmp_path, "two.phhs", several(FT_HAND, FT_HAND.replace("103]", "104]")))
    code, plain = run(capsys, str(path))
    code_each, each = run(capsys, str(path), "--each")
    assert code == code_each == 1
    replayed = f"{path}#1: replayed to its finishing stacks"
    differs = f"{path}#2: differs: finishing_stacks"
    assert replayed not in plain and differs in plain
    assert each.count(replayed) == 1 and each.count(differs) == 1
    assert plain.splitlines()[-1].split(" (")[0] == each.splitlines()[-1].split(" (")[0]


BAD = [
    (
        "missing starting_stacks",
        ("starting_stacks = [100, 100, 100]\n", ""),
        "starting_stacks",
        "missing",
    ),
    ("unknown variant", ("variant = 'FT'", "variant = 'QQ'"), "variant", "'QQ'"),
    ("wrong type", ("antes = [0, 0, 0]", "antes = [0, 'x', 0]"), "antes[1]", "'x'"),
    ("bad action line", ("'p3 cbr 4'", "'p3 raise 4'"), "actions[3]", "'raise'"),
    (
        "repeated card",
        ("'d dh p2 7c2d'", "'d dh p2 7cAs'"),
        "actions[1]",
        "As is dealt again while in play (p1, actions[0])",
    ),
    (
        "more cards than the deck",
        ("'d dh p3 9h9d', ", "'d dh p3 9h9d', " + ", ".join(["'d db ??????????'"] * 10) + ", "),
        "actions[12]",
        "56 cards in play, more than the 52",
    ),
    (
        "out of turn",
        ("'p3 cbr 4', 'p1 f'", "'p1 f', 'p3 cbr 4'"),
        "actions[3]",
        "'p1 f': out of turn: p3 is to act",
    ),
    (
        "a bet the rules refuse",
        ("'p3 cbr 4'", "'p3 cbr 5'"),
        "actions[3]",
        "a raise must be to 4..4, got 5",
    ),
    (
        "actions that stop early",
        (", 'p1 f', 'p2 f'", ""),
        "actions",
        "the actions end before the hand does: p1 is to act",
    ),
]


@pytest.mark.parametrize(("case", "change", "field", "words"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_names_file_hand_and_field(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    case: str,
    change: tuple[str, str],
    field: str,
    words: str,
) -> None:
    """The second hand of a .phhs file is broken one way: exit 2, and the line names the
    file, the hand (#2), the field and the problem; the first hand still replays."""
    old, new = change
    assert old in FT_HAND, case
    path = write(tmp_path, "bad.phhs", several(FT_HAND, FT_HAND.replace(old, new)))
    code, out = run(capsys, str(path))
    assert code == 2, out
    assert f"{path}#2: {field}: " in out, out
    assert words in out, out
    assert "1 replayed to their finishing stacks" in out
    assert "Traceback" not in out


def test_a_file_that_is_not_toml_does_not_stop_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One file is not TOML, one path does not exist, a third file is good: the first two
    are named, the third is replayed, exit 2."""
    broken = write(tmp_path, "a.phh", "variant = 'FT\n")
    good = write(tmp_path, "b.phh", FT_HAND)
    code, out = run(capsys, str(broken), str(tmp_path / "nowhere"), str(good))
    assert code == 2
    assert f"{broken}: is not valid TOML" in out
    assert f"{tmp_path / 'nowhere'}: no such file or folder" in out
    assert "1 hand in 3 files: 1 replayed to their finishing stacks" in out
    assert "2 files unreadable" in out


def test_a_folder_is_searched(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Files in sub-folders are found; other files are ignored; --json reports each hand."""
    (tmp_path / "deep" / "er").mkdir(parents=True)
    write(tmp_path / "deep" / "er", "x.phh", FT_HAND)
    write(tmp_path / "deep", "y.phhs", several(FT_HAND, FT_HAND))
    write(tmp_path, "notes.txt", "not a hand")
    code, out = run(capsys, str(tmp_path), "--json")
    assert code == 0
    report = json.loads(out)
    assert report["summary"]["hands"] == 3 and report["summary"]["replayed"] == 3
    names = [hand["name"] for file in report["files"] for hand in file["hands"]]
    assert sorted(names) == sorted(
        [str(tmp_path / "deep" / "er" / "x.phh"), "y.phhs#1", "y.phhs#2"]
    )


def test_half_chips_are_split_exactly_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """finishing_stacks records 100.5 twice: auto splits the pot exactly and says so; the
    texts' rule gives p2 the odd chip (101, 100), a difference noted as an odd chip."""
    path = write(tmp_path, "split.phh", SPLIT_HAND)
    code, out = run(capsys, str(path), "--notes")
    assert code == 0, out
    assert "note: odd chips: finishing_stacks holds fractions of a chip" in out
    code, out = run(capsys, str(path), "--odd-chips", "first-left-of-button")
    assert code == 1, out
    assert "expected [99, 100.5, 100.5], got [99, 101, 100]" in out
    assert "note: odd chips: the stacks differ only by odd chips" in out
    assert "--odd-chips" in out


def test_heads_up_with_equal_blinds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """p1 acts first in every round: auto takes the button's blind as the big one (noted);
    the texts' reading makes p2, the button, act first, so p1's first check is out of turn."""
    path = write(tmp_path, "hu.phh", EQUAL_BLINDS)
    code, out = run(capsys, str(path), "--notes")
    assert code == 0, out
    assert "note: heads-up blinds: heads-up with equal blinds" in out
    code, out = run(capsys, str(path), "--heads-up-blinds", "button-acts-first")
    assert code == 2
    assert f"{path}: actions[2]: 'p1 cc': out of turn: p2 is to act" in out


def test_both_engines_report_alike(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--engine reference and the default (the kernel where it applies) give the same JSON
    report but for the time taken."""
    path = write(tmp_path, "two.phhs", several(FT_HAND, FT_HAND.replace("103]", "104]")))
    reports = []
    for engine in ("auto", "reference"):
        code, out = run(capsys, str(path), "--json", "--engine", engine)
        assert code == 1
        report = json.loads(out)
        for file in report["files"]:
            for hand in file["hands"]:
                hand.pop("seconds")
        report["summary"].pop("seconds")
        reports.append(report)
    assert reports[0] == reports[1]


# Fixed-limit hold'em, bets of 2 before the flop: p3 raises to 4, p1 goes all in to 5 (one
# chip over 4: half a bet), p2 calls, and p3 raises again to 7.  Under the full-bet rule the
# short all-in did not reopen the betting for p3, who had acted; under the half-bet rule it
# did.  p2 folds; p1's aces beat p3: p1 wins the 15 chips of the pot (p3's 2 uncalled come
# back), p2 and p3 each lose 5.
SHORT_ALL_IN = """\
variant = 'FT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [5, 100, 100]
actions = ['d dh p1 AsAh', 'd dh p2 KdQd', 'd dh p3 7c2d', 'p3 cbr 4', 'p1 cbr 5', 'p2 cc', \
'p3 cbr 7', 'p2 f', 'd db 3h8s9c', 'd db Jd', 'd db 4c']
finishing_stacks = [15, 95, 95]
"""


def test_the_incomplete_raise_rule_is_an_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rules 002, 'Incomplete bet or raise': by the full-bet rule (the default) p3's raise
    after the short all-in is refused, naming the line; --incomplete-raise half-bet replays
    the hand to its stacks, noting the short all-in and the rule applied."""
    path = write(tmp_path, "short.phh", SHORT_ALL_IN)
    code, out = run(capsys, str(path))
    assert code == 2
    assert f"{path}: actions[6]: 'p3 cbr 7': the betting was not reopened" in out
    code, out = run(capsys, str(path), "--incomplete-raise", "half-bet", "--notes")
    assert code == 0, out
    assert "note: short all-in: p1 went all in to 5, short of a full bet or raise to 6" in out
    assert "replayed by the half-bet rule" in out


@pytest.mark.parametrize("engine", ["auto", "reference"])
def test_hostile_files_each_get_a_line_and_the_good_ones_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str
) -> None:
    """A 36-digit stack, a bet of 1e400, a value nested 100,000 deep and a finishing stack
    of nan, each in a file beside two good ones: each bad file gets one line naming its
    field (the amounts are read exactly from their text, never through a float), the good
    files replay, no traceback, exit 2."""
    write(tmp_path, "good1.phh", FT_HAND)
    write(tmp_path, "good2.phh", FT_HAND)
    write(tmp_path, "big.phh", FT_HAND.replace("[100, 100, 100]", "[" + "9" * 36 + ", 100, 100]"))
    write(tmp_path, "inf.phh", FT_HAND.replace("'p3 cbr 4'", "'p3 cbr 1e400'"))
    write(tmp_path, "deep.phh", "variant = 'FT'\nx = " + "[" * 100_000 + "]" * 100_000 + "\n")
    write(tmp_path, "nan.phh", FT_HAND.replace("[99, 98, 103]", "[nan, 98, 103]"))
    code, out = run(capsys, str(tmp_path), "--engine", engine)
    assert code == 2, out
    assert "Traceback" not in out
    assert "big.phh: starting_stacks[0]: a 36-digit number is more than" in out, out
    assert "inf.phh: actions[3]: 'p3 cbr 1e400': '1e400' is more than" in out, out
    assert "deep.phh: is not valid TOML: nested too deeply" in out, out
    assert "nan.phh: finishing_stacks[0]: nan is not a stack of chips" in out, out
    assert "2 replayed to their finishing stacks" in out, out
