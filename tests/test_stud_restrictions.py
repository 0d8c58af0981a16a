"""Stud with extra downcards and a limit on how many of them play (Rules
000_1a86611de8d3f5f7.txt, 'One can also vary any stud game by dealing extra downcards'):
Crocodile, Buffalo, Murrumbidgee and Zanetti stud — hand-built deals where the limit changes the
winner, a brute force over every allowed five, and the game files' ``restrict``."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from simulations.engine.game import GameDefinition
from simulations.engine.gamefile import GameFileError, parse_game_text
from simulations.engine.showdown import Half, HandRanking, Showdown
from simulations.engine.variants import GAMES_FOLDER, variant
from simulations.evaluators.high import evaluate_high
from simulations.evaluators.lowball import NO_LOW, Lowball, Qualifier, evaluate_low
from simulations.evaluators.ranking import Ranking
from simulations.evaluators.selection import (
    Cap,
    Selection,
    any_five,
    capped,
    evaluate_selection,
    evaluate_selection_batch,
)
from tests.stacking import play_stacked

RESTRICTED = ("FCROC", "FBUF", "FMUR", "PZAN")


def _selection(code: str) -> Selection:
    selection = variant(code).game().selection
    assert selection is not None
    return selection


def _value(ranked: Ranking | None) -> int:
    assert ranked is not None
    return ranked.value


def _unrestricted(code: str) -> Selection:
    return any_five("no restriction", _selection(code).hole_cards, 0)


def _without_restriction(code: str) -> GameDefinition:
    return replace(variant(code).game(), selection=_unrestricted(code))


# --- the rule at the table ------------------------------------------------------------------


def test_crocodile_pair_in_the_hole_is_no_pair() -> None:
    """Rules 000, 'Crocodile stud': "each player may only use one of his two downcards in
    his final hand".  Seat 1's kings are both down: he plays King-high and loses to seat 0's
    fours; with both downcards playing he would win."""
    seats = {0: "3c 7d 4h 4d 9c Tc", 1: "Kh Kd 2c 5d 9s Js"}
    game = variant("FCROC").game()
    out = play_stacked(game, seats)
    assert out.shown == {0: "Pair of Fours", 1: "King-high"}
    assert list(out.won) == [0]
    free = play_stacked(_without_restriction("FCROC"), seats)
    assert free.shown[1] == "Pair of Kings" and list(free.won) == [1]


def test_crocodile_plays_one_downcard_with_the_upcards() -> None:
    """Rules 000, 'Crocodile stud': one of the two downcards does play: a king down with a
    king up is a pair."""
    out = play_stacked(variant("FCROC").game(), {0: "3c 7d 4h 4d 9c Tc", 1: "Kh 2d Kc 5d 9s Js"})
    assert out.shown[1] == "Pair of Kings" and list(out.won) == [1]


def test_buffalo_two_of_the_three_first_downcards() -> None:
    """Rules 000, 'Buffalo stud': "three downcards instead of two on the first round, but
    adding the restriction that a player may use no more than two of those cards".  Three
    kings dealt down on the first round play as a pair: seat 1's two pair wins."""
    seats = {0: "Kh Kd Kc 2c 5d 9s Js 3h", 1: "4c 7d 8h 4h 9c 9d Tc 2d"}
    out = play_stacked(variant("FBUF").game(), seats)
    assert out.shown == {0: "Pair of Kings", 1: "Two pair, Nines and Fours"}
    assert list(out.won) == [1]
    free = play_stacked(_without_restriction("FBUF"), seats)
    assert free.shown[0] == "Three Kings" and list(free.won) == [0]


def test_buffalo_seventh_street_downcard_plays_freely() -> None:
    """Rules 000, 'Buffalo stud': the restriction is on "those cards", the three downcards of
    the first round (the reading of the file); the seventh-street downcard plays with two of
    them, so two kings from the first round and the king on seventh street make three kings.
    Were all four downcards limited to two, seat 0 would have a pair and lose."""
    seats = {0: "Kh Kd 3c 2c 5d 9s Js Kc", 1: "4c 7d 8h 4h 9c 9d Tc 2d"}
    game = variant("FBUF").game()
    out = play_stacked(game, seats)
    assert out.shown[0] == "Three Kings" and list(out.won) == [0]
    four_down = capped(_unrestricted("FBUF"), (Cap((0, 1, 2, 7), 2),))
    other = play_stacked(replace(game, selection=four_down), seats)
    assert other.shown[0] == "Pair of Kings" and list(other.won) == [1]


def test_murrumbidgee_three_downcards_two_play() -> None:
    """Rules 000, 'Mississippi stud': "If three downcards are dealt initially instead of two,
    with the restriction that no more than two of them can be used in the final hand, this
    variation is called Murrumbidgee stud."  Three kings down are a pair of kings."""
    seats = {0: "Kh Kd Kc 2c 5d 9s Js 7h", 1: "3c 6d 8h 4h 4c 9c 9d Tc"}
    out = play_stacked(variant("FMUR").game(), seats)
    assert out.shown == {0: "Pair of Kings", 1: "Two pair, Nines and Fours"}
    assert list(out.won) == [1]
    free = play_stacked(_without_restriction("FMUR"), seats)
    assert list(free.won) == [0]


def test_zanetti_only_one_downcard() -> None:
    """Rules 000, 'Six-card stud': Zanetti stud, "each player initially dealt two downcards and
    one upcard, and restricted to using only one of his downcards in his final hand"."""
    seats = {0: "3c 6d 4h 4c 9c Tc 8d", 1: "Kh Kd 2c 5d 9s Js 7h"}
    out = play_stacked(variant("PZAN").game(), seats)
    assert out.shown == {0: "Pair of Fours", 1: "King-high"}
    assert list(out.won) == [0]


def test_alligator_plays_the_best_five_of_six() -> None:
    """Rules 000, 'Six-card stud': Alligator stud "starts with one hole card and one upcard
    ... then two upcards ... then a fourth upcard ... and finally a fifth upcard": six cards,
    the hole card playing freely (a king down pairs a king up)."""
    game = variant("PALL").game()
    assert game.selection is not None and game.selection.plays_any_five
    out = play_stacked(game, {0: "3c 4h 4c 9c Tc 8d", 1: "Kh 2c Kd 5d 9s Js"})
    assert out.shown[1] == "Pair of Kings" and list(out.won) == [1]


# --- a brute force over every allowed five --------------------------------------------------


def _allowed(width: int, caps: tuple[Cap, ...]) -> list[tuple[int, ...]]:
    """Every five of ``width`` cards within the caps, filtered here without the selection."""
    return [
        five
        for five in itertools.combinations(range(width), 5)
        if all(len(set(five) & set(cap.positions)) <= cap.most for cap in caps)
    ]


def _selections() -> dict[str, Selection]:
    found = {}
    for code in RESTRICTED:
        selection = variant(code).game().selection
        assert selection is not None
        found[code] = selection
    # and caps elsewhere in the hand: two of the last four; one of two and one of three
    found["seven"] = capped(any_five("seven", 7, 0), (Cap((3, 4, 5, 6), 2),))
    found["eight"] = capped(any_five("eight", 8, 0), (Cap((1, 5), 1), Cap((0, 2, 7), 1)))
    return found


@pytest.mark.parametrize("selection", _selections().values(), ids=list(_selections()))
def test_at_most_k_downcards_equals_brute_force(selection: Selection) -> None:
    """Rules 000, 'adding a restriction on how many of those hole cards may be played in the
    final hand': every path the engine values a restricted hand by (one player, the batch,
    the showdown of several, a stud community card) gives the best of every allowed five
    valued by the plain high evaluator; and the restriction bites in some hands."""
    rng = np.random.default_rng(11)
    width = selection.hole_cards
    fives = _allowed(width, selection.caps)
    assert sorted(fives) == sorted(selection.combos)
    rows = np.array([rng.choice(52, width, replace=False) for _ in range(300)], dtype=np.int8)
    expected = [max(evaluate_high([int(row[j]) for j in f]).value for f in fives) for row in rows]
    every = list(itertools.combinations(range(width), 5))
    anything = [max(evaluate_high([int(row[j]) for j in f]).value for f in every) for row in rows]
    assert any(e < a for e, a in zip(expected, anything, strict=True))  # the cap matters
    holes = [[int(c) for c in row] for row in rows]
    half = Half()
    assert [_value(half.rank(selection, hole, ())) for hole in holes] == expected
    assert evaluate_selection_batch(selection, rows).tolist() == expected
    assert [evaluate_selection(selection, hole, []).value for hole in holes] == expected
    ranked = Showdown().rank_players(selection, holes[:40], [])
    assert [_value(r[0]) for r in ranked] == expected[:40]
    # The stud community card stands for every player's last card.
    assert [_value(half.rank(selection, hole[:-1], hole[-1:])) for hole in holes] == expected
    shared = holes[0][-1]
    others = [hole for hole in holes if shared not in hole[:-1]][:20]
    together = Showdown().rank_players(selection, [hole[:-1] for hole in others], [shared])
    for hole, (ranking,) in zip(others, together, strict=True):
        best = max(evaluate_high([[*hole[:-1], shared][j] for j in f]).value for f in fives)
        assert ranking is not None and ranking.value == best


def test_a_low_half_keeps_the_restriction() -> None:
    """The cap holds in a low half too (a Crocodile stud played high-low would need it): the
    best ace-to-five low, eight or better, of every allowed five; and it bites."""
    selection = variant("FCROC").game().selection
    assert selection is not None
    rng = np.random.default_rng(5)
    half = Half(HandRanking.ACE_TO_FIVE_LOW, Qualifier.EIGHT_OR_BETTER)
    fives = _allowed(6, selection.caps)
    bites = 0
    for _ in range(400):
        hole = [int(c) for c in rng.choice(52, 6, replace=False)]
        values = [_low([hole[j] for j in five]) for five in fives]
        best = max(values)
        ranked = half.rank(selection, hole, ())
        assert (None if ranked is None else ranked.value) == (None if best == NO_LOW else best)
        bites += _low(hole) != best
    assert bites > 0


def _low(cards: list[int]) -> int:
    return evaluate_low(cards, Lowball.ACE_TO_FIVE, qualifier=Qualifier.EIGHT_OR_BETTER).value


# --- the selection and the file -------------------------------------------------------------


def test_restricted_selections_count_their_fives() -> None:
    """Crocodile stud: six cards, one of the two downcards: two fives.  Buffalo and
    Murrumbidgee: C(8,5) less the ten fives holding all three first downcards.  Zanetti:
    C(7,5) less the ten holding both downcards."""
    counts = {code: len(_selection(code).combos) for code in RESTRICTED}
    assert counts == {"FCROC": 2, "FBUF": 46, "FMUR": 46, "PZAN": 11}
    for code in RESTRICTED:
        selection = variant(code).game().selection
        assert selection is not None
        assert not selection.plays_any_five and selection.board_triples is None
    assert _selection("FCROC").caps == (Cap((0, 1), 1),)
    assert _selection("FBUF").caps == (Cap((0, 1, 2), 2),)


@pytest.mark.parametrize(
    ("positions", "most", "message"),
    [
        ((0, 1), 2, "all of them is no cap"),
        ((), 0, "one or more distinct"),
        ((1, 1), 0, "one or more distinct"),
        ((-1, 2), 1, "count from 0"),
    ],
)
def test_bad_caps_are_refused(positions: tuple[int, ...], most: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Cap(positions, most)


def test_a_cap_outside_the_row_or_leaving_no_hand_is_refused() -> None:
    with pytest.raises(ValueError, match="names card 7 of a row of 6"):
        capped(any_five("six", 6, 0), (Cap((0, 6), 1),))
    with pytest.raises(ValueError, match="no allowed combination"):
        capped(any_five("six", 6, 0), (Cap((0, 1, 2), 0),))


_CROCODILE = (Path(str(GAMES_FOLDER)) / "82-crocodile-stud-fixed-limit.toml").read_text()
_LINE = "restrict = [{ cards = [0, 1], at_most = 1 }]"


@pytest.mark.parametrize(
    ("restrict", "field", "message"),
    [
        (
            "restrict = [{ cards = [0, 6], at_most = 1 }]",
            "showdown.restrict[0].cards[1]",
            "at most 5, got 6",
        ),
        (
            "restrict = [{ cards = [0, 1], at_most = 2 }]",
            "showdown.restrict[0].at_most",
            "restricts nothing",
        ),
        ("restrict = [{ cards = [], at_most = 0 }]", "showdown.restrict[0].cards", "distinct"),
        ("restrict = [{ cards = [1, 1], at_most = 0 }]", "showdown.restrict[0].cards", "distinct"),
        ("restrict = []", "showdown.restrict", "one or more"),
        ("restrict = { cards = [0, 1], at_most = 1 }", "showdown.restrict", "must be a list"),
        ("restrict = [{ cards = [0, 1], most = 1 }]", "showdown.restrict[0].at_most", "required"),
        (
            "restrict = [{ cards = [0, 1], at_most = 1, of = 2 }]",
            "showdown.restrict[0].of",
            "known",
        ),
        ("restrict = [{ cards = [0, 1, 2, 3], at_most = 0 }]", "showdown.restrict", "no allowed"),
    ],
)
def test_bad_restrictions_name_their_field(restrict: str, field: str, message: str) -> None:
    """A mistake in ``showdown.restrict`` is an error naming the field."""
    assert _LINE in _CROCODILE
    with pytest.raises(GameFileError, match=message) as caught:
        parse_game_text(_CROCODILE.replace(_LINE, restrict), "croc.toml")
    assert caught.value.field == field


def test_the_restriction_is_read_from_the_file() -> None:
    """The file's restriction is the game's: dropping the line gives any five of six."""
    entry = parse_game_text(_CROCODILE.replace(_LINE, ""), "croc.toml")
    assert entry.game.selection is not None and entry.game.selection.plays_any_five
    assert parse_game_text(_CROCODILE, "croc.toml").game == variant("FCROC").game()
