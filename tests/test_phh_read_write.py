"""Reading and writing PHH hand histories (simulations.phh.read, .write, .toml_subset).

The oracles are tomllib (what a TOML text means) and pokerkit's own PHH reader
(``pokerkit.HandHistory.loads``): a hand written by the writer must mean, to both, exactly
the fields it was written from.
"""

from __future__ import annotations

import datetime
import tomllib
from pathlib import Path

import pytest
from pokerkit import HandHistory

from simulations.cards import parse_card
from simulations.phh import toml_subset
from simulations.phh.lines import DEAL_BOARD, DEAL_HOLE
from simulations.phh.model import PhhError, PhhHand
from simulations.phh.read import load, load_all, loads, read_text
from simulations.phh.write import dump, dump_all, dumps, dumps_all

PLURIBUS_LIKE = """\
variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [50, 100, 0, 0, 0, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000, 10000, 10000, 10000]
actions = ['d dh p1 TcQc', 'd dh p2 8s4c', 'd dh p3 9c3d', 'd dh p4 Ah4h', 'd dh p5 Th5s', \
'd dh p6 6c7s', 'p3 f', 'p4 cbr 210', 'p5 f', 'p6 f', 'p1 cc', 'p2 f', 'd db 7d5h9d', \
'p1 cc', 'p4 cc', 'd db 7c', 'p1 cc', 'p4 cc', 'd db Qh', 'p1 cbr 230', 'p4 f']
hand = 0
players = ['MrBlue', 'MrBlonde', 'MrWhite', 'MrPink', 'MrBrown', 'Pluribus']
finishing_stacks = [10310, 9900, 10000, 9790, 10000, 10112.5]
"""

EXTRAS = """\
variant = 'FT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'd dh p3 9h9d', 'p3 cbr 4', 'p1 f', 'p2 f']
event = "Friday's game \\"deep\\""
time = 20:30:00
day = 5
_venue_notes = ['back room', 'table 2']
_rating = {stars = 4, checked = true}
finishing_stacks = [99, 98, 103]
"""


def test_a_pluribus_hand_reads_every_field() -> None:
    """Each PHH field of a Pluribus-style file, as tomllib reads it; half chips kept."""
    (hand,) = loads(PLURIBUS_LIKE, "x.phh")
    table = tomllib.loads(PLURIBUS_LIKE)
    assert hand.variant == "NT"
    assert hand.ante_trimming_status is True
    assert list(hand.antes or ()) == table["antes"]
    assert list(hand.blinds_or_straddles or ()) == table["blinds_or_straddles"]
    assert hand.min_bet == 100 and hand.small_bet is None and hand.big_bet is None
    assert list(hand.starting_stacks) == table["starting_stacks"]
    assert list(hand.actions) == table["actions"]
    assert hand.hand == 0
    assert list(hand.players or ()) == table["players"]
    assert hand.finishing_stacks == (10310, 9900, 10000, 9790, 10000, 10112.5)
    assert isinstance(hand.finishing_stacks[-1], float)
    assert hand.name == "x.phh" and hand.source == "x.phh" and hand.section is None


def test_the_parsed_lines_are_the_history_s_cards() -> None:
    """The reader's parsed lines deal the cards the text names (hand-read from the file)."""
    (hand,) = loads(PLURIBUS_LIKE, "x.phh")
    assert hand.lines is not None
    holes = {line.seat: line.cards for line in hand.lines if line.verb == DEAL_HOLE}
    board = [c for line in hand.lines if line.verb == DEAL_BOARD for c in line.cards or ()]
    assert holes[3] == (parse_card("Ah"), parse_card("4h"))
    assert board == [parse_card(t) for t in ("7d", "5h", "9d", "7c", "Qh")]


def test_other_fields_are_kept_and_round_trip() -> None:
    """Fields PhhHand has no attribute for (strings with escapes, a time, user-defined
    arrays and tables) are kept in order and written back to the same TOML values."""
    (hand,) = loads(EXTRAS, "x.phh")
    assert [key for key, _ in hand.extra] == ["event", "time", "day", "_venue_notes", "_rating"]
    text = dumps(hand)
    assert tomllib.loads(text) == tomllib.loads(EXTRAS)
    (again,) = loads(text, "y.phh")
    assert again == hand
    assert dict(again.extra)["time"] == datetime.time(20, 30)


def test_the_writer_s_text_means_the_same_to_tomllib_and_pokerkit() -> None:
    """A hand written out: tomllib reads the very fields; pokerkit's PHH reader reads the
    same stakes, stacks and actions."""
    (hand,) = loads(PLURIBUS_LIKE, "x.phh")
    text = dumps(hand)
    assert tomllib.loads(text) == tomllib.loads(PLURIBUS_LIKE)
    theirs = HandHistory.loads(text)
    assert theirs.variant == "NT"
    assert list(theirs.starting_stacks) == list(hand.starting_stacks)
    assert list(theirs.actions) == list(hand.actions)
    assert list(theirs.finishing_stacks or ()) == list(hand.finishing_stacks or ())
    assert theirs.min_bet == 100


def test_several_hands_write_and_read_as_tables(tmp_path: Path) -> None:
    """A .phhs file: hands under [1], [2]; read back equal, each named file#section."""
    (first,) = loads(PLURIBUS_LIKE, "a.phh")
    (second,) = loads(EXTRAS, "b.phh")
    path = tmp_path / "two.phhs"
    dump_all([first, second], path)
    text = path.read_text()
    assert text.startswith("[1]\n") and "\n[2]\n" in text
    assert sorted(tomllib.loads(text)) == ["1", "2"]
    back = load_all(path)
    assert back == (first, second)
    assert [h.name for h in back] == ["two.phhs#1", "two.phhs#2"]
    single = tmp_path / "one.phh"
    dump(second, single)
    assert load(single) == second
    assert dumps_all([second]).startswith("[1]\n")


def test_a_bad_hand_does_not_stop_the_others() -> None:
    """In a .phhs file the second hand lacks starting_stacks: the first and third are read,
    the second's error names the file, the hand and the field."""
    good = "\n".join(f"  {line}" for line in EXTRAS.splitlines())
    bad = good.replace("  starting_stacks = [100, 100, 100]\n", "")
    text = f"[1]\n{good}\n[2]\n{bad}\n[3]\n{good}\n"
    read = read_text(text, "some.phhs", several=True)
    assert read.error is None
    assert [entry.hand is not None for entry in read.hands] == [True, False, True]
    error = read.hands[1].error
    assert error is not None
    assert (error.file, error.hand, error.field) == ("some.phhs", "2", "starting_stacks")
    assert str(error) == "some.phhs#2: starting_stacks: missing"


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (("variant = 'FT'", "variant = 'XYZ'"), "variant", "'XYZ'"),
        (("variant = 'FT'", "variant = 7"), "variant", "7"),
        (("antes = [0, 0, 0]", "antes = 'none'"), "antes", "'none'"),
        (
            ("starting_stacks = [100, 100, 100]", "starting_stacks = [100, 'a', 100]"),
            "starting_stacks[1]",
            "'a'",
        ),
        (
            ("starting_stacks = [100, 100, 100]", "starting_stacks = [100, 100.5, 100]"),
            "starting_stacks[1]",
            "whole",
        ),
        (("small_bet = 2\n", ""), "small_bet", "missing"),
        (("'p3 cbr 4'", "'p3 cbr four'"), "actions[3]", "'four'"),
        (("'p3 cbr 4'", "'p7 cbr 4'"), "actions[3]", "p7"),
        (("'d dh p2 7c2d'", "'d dh p2 7cAs'"), "actions[1]", "As"),
        (("'d dh p2 7c2d'", "'d dh p2 7c2x'"), "actions[1]", "'2x'"),
        (
            ("finishing_stacks = [99, 98, 103]", "finishing_stacks = [99, 98]"),
            "finishing_stacks",
            "2 entries for 3 players",
        ),
        (("day = 5", "hand = 'first'"), "hand", "'first'"),
    ],
)
def test_bad_fields_are_named(change: tuple[str, str], field: str, words: str) -> None:
    """Each kind of bad field: a PhhError naming the file, the field and the bad token."""
    old, new = change
    assert old in EXTRAS
    with pytest.raises(PhhError) as caught:
        loads(EXTRAS.replace(old, new), "bad.phh")
    error = caught.value
    assert error.file == "bad.phh" and error.field == field, str(error)
    assert words in str(error)
    assert str(error).startswith(f"bad.phh: {field}: ")


def test_a_card_dealt_after_it_left_play_is_read() -> None:
    """A draw's discard dealt again later is readable (some dealers reshuffle the discards);
    a card dealt while still held is not (above), nor one discarded that was not held."""
    base = (
        "variant = 'F2L3D'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nsmall_bet = 2\n"
        "big_bet = 4\nstarting_stacks = [50, 50]\nactions = ['d dh p1 2c3c4c5c7d', "
        "'d dh p2 AsKsQsJs9s', 'p2 cc', 'p1 cc', 'p1 sd 7d', 'p2 sd {discard}', "
        "'d dh p1 8h', 'd dh p2 {card}']\n"
    )
    (hand,) = loads(base.format(discard="As", card="7d"), "ok.phh")
    assert hand.actions[-1] == "d dh p2 7d"
    with pytest.raises(PhhError, match=r"actions\[5\]: p2 discards 2c, a card not in his hand"):
        loads(base.format(discard="2c", card="7d"), "bad.phh")


def test_toml_subset_reads_as_tomllib() -> None:
    """The fast reader against tomllib on texts inside and outside its subset: comments,
    escapes, multi-line arrays, dates, decimals, signs, inline tables, blank lines."""
    texts = [
        PLURIBUS_LIKE,
        EXTRAS,
        "a = 1\nb = -2\nc = +3\nd = 1.5\ne = 1e3\nf = 'x # y'\ng = \"q\"\n",
        "# a comment\n\n[1]\nx = [1, 2, 3,]  # trailing\ny = ['a', 'b']\n[2]\nx = []\n",
        "a = [\n  1,\n  2,\n]\nb = 1979-05-27T07:32:00Z\nc = {d = 1}\n",
        "a = \"tab\\there\"\nb = 'it''s'\n",
        "a = 0\nb = 0.0\nc = true\nd = false\ne = [true, 1, 'x', 2.5]\n",
        "a = 1\r\nb = 'x'\r\n",
    ]
    for text in texts:
        try:
            expected = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            with pytest.raises(tomllib.TOMLDecodeError):
                toml_subset.loads(text)
            continue
        assert toml_subset.loads(text) == expected, text


@pytest.mark.parametrize(
    "text",
    ["a = 1\na = 2\n", "a = 01\n", "a = 'x\n", "[1]\nx = 1\n[1]\nx = 2\n", "a = [1, 2\n", "= 3\n"],
)
def test_toml_subset_reports_what_tomllib_reports(text: str) -> None:
    """Invalid TOML (a repeated key or table, a leading zero, an open string or array, no
    key) is refused as tomllib refuses it."""
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(text)
    with pytest.raises(tomllib.TOMLDecodeError):
        toml_subset.loads(text)


def test_hands_compare_by_their_fields_not_their_file() -> None:
    """Two hands read from different files compare equal when every field is the same."""
    (a,) = loads(EXTRAS, "a.phh")
    (b,) = loads(EXTRAS, "b.phh")
    assert a == b and a.source != b.source
    assert a != PhhHand(variant="FT", starting_stacks=a.starting_stacks, actions=a.actions)
