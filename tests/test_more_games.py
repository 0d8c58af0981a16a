"""Games of the rule texts added as game files: Canadian stud, Dr Pepper, Skinny Minnie,
Chowaha high-low, Manila's and Pinatubo's three-card forms, Spanish hold'em and Indian poker —
their hand values, hand-built deals where the rule decides the winner, the 28-card deck's
counts by an independent enumeration, and every new file dealt by ``cardroom deal``."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from service.cli import main
from simulations.cards import Rank, parse_cards
from simulations.engine.gamefile import GameFileError, parse_game_text
from simulations.engine.showdown import Half, Showdown
from simulations.engine.variants import GAMES_FOLDER, variant
from simulations.evaluators.ranking import Ranking
from simulations.evaluators.small_hands import evaluate_one_card
from simulations.evaluators.stripped import (
    FLUSH_OVER_FULL_HOUSE,
    SPANISH_HOLDEM,
    category_counts,
    rarity_order,
)
from simulations.evaluators.systems import (
    CANADIAN_STUD,
    STANDARD_ORDER,
    Shape,
    evaluate_system_batch,
)
from tests.stacking import play_stacked

NEW = {  # code: file number
    "FCROC": 82,
    "FBUF": 83,
    "FMUR": 84,
    "PALL": 85,
    "PZAN": 86,
    "FCAN": 87,
    "F7S-DRP": 88,
    "FSKIN/8": 89,
    "FSKIN": 100,
    "FCHOW/8": 101,
    "FMAN3": 102,
    "PPIN3": 103,
    "FMAN3-36": 104,
    "FSPAN": 105,
    "FIND": 106,
}
GAMES = Path(str(GAMES_FOLDER))


def _rank(code: str, hole: str, board: str = "", half: int = 0) -> Ranking | None:
    game = variant(code).game()
    assert game.selection is not None
    return game.showdown.halves[half].rank(game.selection, parse_cards(hole), parse_cards(board))


def _value(code: str, hole: str) -> int:
    ranked = _rank(code, hole)
    assert ranked is not None
    return ranked.value


def _name(code: str, hole: str, board: str = "", half: int = 0) -> str:
    ranked = _rank(code, hole, board, half)
    return "no low" if ranked is None else ranked.name


# --- every new file -------------------------------------------------------------------------


@pytest.mark.parametrize("code", list(NEW))
def test_each_new_file_loads_and_cardroom_deals_it(code: str) -> None:
    """Each game's file is in the registry under its number, and ``cardroom deal CODE`` plays
    a hand of it to the end at the fewest and the most players."""
    found = variant(code)
    assert Path(found.source).name.startswith(f"{NEW[code]}-")
    game = found.game()
    assert main(["deal", code, "--players", str(game.min_players), "--seed", "3"]) == 0
    cardroom = Path(sys.executable).parent / "cardroom"
    args = [str(cardroom), "deal", code, "--players", str(game.max_players), "--seed", "7"]
    run = subprocess.run(args, capture_output=True, text=True, env=dict(os.environ), check=False)
    assert run.returncode == 0, run.stderr
    assert " wins " in run.stdout


# --- Canadian stud --------------------------------------------------------------------------


def test_canadian_stud_order() -> None:
    """Rules 000, 'Miscellaneous': "a four-card straight beats one pair, a four-card flush
    beats a four-card straight, and two pair beats both of the above"."""
    ladder = [
        "Ac Kd 9h 7s 2c",  # high card
        "Ac Ad Kh 9s 2c",  # a pair of aces
        "Ac 2d 3h 4s 9c",  # the lowest four-card straight (the ace low)
        "5c 6d 7h 8s Kc",  # a four-card straight
        "Jc Qd Kh As 9c",  # the highest four-card straight
        "2c 5c 7c 9c Kd",  # a four-card flush
        "2c 5c 9c Jc Kd",
        "2c 2d 3h 3s 4c",  # the lowest two pair
        "2c 2d 2h 3s 4c",  # three of a kind
        "5c 6d 7h 8s 9c",  # a straight
    ]
    values = [_value("FCAN", hand) for hand in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert [_name("FCAN", h) for h in ladder[2:7:2]] == [
        "Four-high four-card straight",
        "Ace-high four-card straight",
        "Jack-high four-card flush",
    ]
    # Equal four-card straights are decided by the fifth card; suits never decide.
    assert _value("FCAN", "5c 6d 7h 8s Kc") > _value("FCAN", "5d 6c 7s 8h Qc")
    assert _rank("FCAN", "5c 6d 7h 8s Kc") == _rank("FCAN", "5d 6c 7s 8h Kd")
    # A pair and a four-card flush in one hand: the four-card flush.
    assert _name("FCAN", "2c 5c 9c Jc Jd") == "Jack-high four-card flush"
    system = variant("FCAN").game().showdown.halves[0].system
    assert system is not None and system.order == CANADIAN_STUD.order


def test_canadian_stud_four_flush_beats_aces_at_the_table() -> None:
    """Rules 000, 'Miscellaneous': Canadian stud is five-card stud where "a four-card flush
    beats a four-card straight, and two pair beats both" — so beats one pair; the same deal
    in five-card stud goes to the aces."""
    seats = {0: "2c 5c 9c Jc Kd", 1: "Ac Ad 3h 7s 8d"}
    out = play_stacked(variant("FCAN").game(), seats)
    assert out.shown == {0: "Jack-high four-card flush", 1: "Pair of Aces"}
    assert list(out.won) == [0]
    assert list(play_stacked(variant("F5S").game(), seats).won) == [1]


# --- Dr Pepper ------------------------------------------------------------------------------


def test_dr_pepper_tens_deuces_and_fours_wild() -> None:
    """Rules 000, 'Miscellaneous': "Dr Pepper is a stud variant where 10's, 2's, and 4's are
    wild": a deuce makes a third ace, three wild cards five aces."""
    assert _name("F7S-DRP", "Ah Ad 2c 5s 9h Jc Kd") == "Three Aces"
    assert _name("F7S-DRP", "Ah Ad Ac Tc 4d 2s 9s") == "Five Aces"
    seats = {0: "Ah Ad 2c 5s 9h Jc Kd", 1: "Qh Qd 7c 7s 3h 8d 6c"}
    assert list(play_stacked(variant("F7S-DRP").game(), seats).won) == [0]
    assert list(play_stacked(variant("F7S").game(), seats).won) == [1]


# --- Skinny Minnie --------------------------------------------------------------------------


def test_skinny_minnie_splits_high_and_low() -> None:
    """Rules 000, 'Shotgun': "plays best at high-low split, in which case it is called "Skinny
    Minnie"": a nine-low takes half the pot with no qualifier (FSKIN), and nothing under the
    eight-or-better reading (FSKIN/8), where the pair of kings scoops."""
    seats = {0: "9h 7c 5d 3s 2h", 1: "Kh Kd 8c 6s 4d"}
    eight = play_stacked(variant("FSKIN/8").game(), seats)
    assert eight.shown[0] == "Nine-high / no low" and list(eight.won) == [1]
    home = play_stacked(variant("FSKIN").game(), seats)
    assert sorted(home.won) == [0, 1] and home.won[0] == home.won[1]
    eights = play_stacked(variant("FSKIN/8").game(), {0: "8h 7c 5d 3s 2h", 1: "Kh Kd 8c 6s 4d"})
    assert sorted(eights.won) == [0, 1]


# --- Chowaha high-low -----------------------------------------------------------------------


def test_chowaha_high_and_low_on_different_boards() -> None:
    """Rules 002, 'Chowaha': "often played as a high-low split game in which case you can use
    one board for the high hand and another for the low hand."  Seat 0 makes a flush on F1
    (with T1 and R1) and the wheel on F3 (with T2 and R1); no one board holds both."""
    board = "Qh Jh Th  Kc Kh 9s  2c 3d 5s  9c 7d Kd"  # F1, F2, F3, T1, T2, R1
    assert _name("FCHOW/8", "Ah 4h", board) == "Ace-high flush"
    assert _name("FCHOW/8", "Ah 4h", board, half=1) == "5-4-3-2-A low"
    out = play_stacked(variant("FCHOW/8").game(), {0: "Ah 4h", 1: "Ks Qs"}, board)
    assert out.shown[1].startswith("Four Kings") and list(out.won) == [1, 0]
    pot = sum(out.won.values())
    assert out.won == {1: pot // 2 + pot % 2, 0: pot // 2}
    assert list(play_stacked(variant("FCHOW").game(), {0: "Ah 4h", 1: "Ks Qs"}, board).won) == [1]


# --- Manila's and Pinatubo's three-card forms -----------------------------------------------


@pytest.mark.parametrize("code", ["FMAN3", "PPIN3", "FMAN3-36"])
def test_three_card_manila_plays_exactly_two(code: str) -> None:
    """Rules 002, 'Manila': three cards to each player, "the requirement that each player play
    exactly two of his own cards with exactly three of the board" (004, 'Pinatubo': "exactly two
    of his three hole cards"): three hearts in the hand are no royal flush."""
    assert _name(code, "Ah Kh Qh", "Jh Th 7c 8d 9s") == "King-high straight"
    out = play_stacked(variant(code).game(), {0: "Ah Kh Qh", 1: "7h 7d Qc"}, "Jh Th 7c 8d 9s")
    assert out.shown[0] == "King-high straight" and list(out.won) == [0]
    assert _name(code, "Ah Kh 9c", "Qh Jh 8c 8d 8h") == "Ace-high flush"  # beats eights full


def test_manila_with_sixes_restored() -> None:
    """Rules 002, 'Manila': "sometimes played with 6s being restored to the deck, making it 36
    cards"; Manila's rule that "an ace may not be played low for a straight" stands."""
    game = variant("FMAN3-36").game()
    assert game.deck.size == 36 and game.deck.ranks[0] is Rank.SIX
    assert _name("FMAN3-36", "6c 7d Kh", "8h 9s Ts Jc Ac") == "Ten-high straight"
    assert _name("FMAN3-36", "Ac 6d Kh", "7c 8h 9s Jd Qd") == "Ace-high"
    assert variant("FMAN3").game().deck.size == variant("PPIN3").game().deck.size == 32


# --- Spanish hold'em ------------------------------------------------------------------------


def _classify(hand: tuple[int, ...], runs: set[frozenset[int]]) -> Shape:
    """A five-card hand's category, by counting its ranks and suits (nothing shared with the
    evaluators)."""
    shape = sorted(Counter(c >> 2 for c in hand).values(), reverse=True)
    flush = len({c & 3 for c in hand}) == 1
    straight = frozenset(c >> 2 for c in hand) in runs
    if straight and flush:
        return Shape.STRAIGHT_FLUSH
    if shape[0] == 4:
        return Shape.FOUR_OF_A_KIND
    if shape[:2] == [3, 2]:
        return Shape.FULL_HOUSE
    if flush:
        return Shape.FLUSH
    if straight:
        return Shape.STRAIGHT
    if shape[0] == 3:
        return Shape.THREE_OF_A_KIND
    if shape[:2] == [2, 2]:
        return Shape.TWO_PAIR
    return Shape.ONE_PAIR if shape[0] == 2 else Shape.HIGH_CARD


_EIGHT_UP = list(range(Rank.EIGHT, Rank.ACE + 1))
SPANISH_COUNTS = {
    Shape.STRAIGHT_FLUSH: 12,
    Shape.FLUSH: 72,
    Shape.FOUR_OF_A_KIND: 168,
    Shape.FULL_HOUSE: 1_008,
    Shape.STRAIGHT: 3_060,
    Shape.THREE_OF_A_KIND: 6_720,
    Shape.TWO_PAIR: 15_120,
    Shape.HIGH_CARD: 18_360,
    Shape.ONE_PAIR: 53_760,
}


def test_spanish_deck_category_counts_by_enumeration() -> None:
    """Rules 002, 'A popular poker game in Spain is played with cards 8-A': every one of the
    98,280 five-card hands of the 28-card deck, classified by counting ranks and suits (the ace
    high only: three runs, 8-Q, 9-K, T-A), gives these counts; so does the stripped-deck
    module's count over rank multisets; the rarer the category the higher it ranks, high card
    apart, and the file lists that order."""
    deck = [r * 4 + s for r in _EIGHT_UP for s in range(4)]
    runs = {frozenset(range(low, low + 5)) for low in range(Rank.EIGHT, Rank.TEN + 1)}
    hands = list(itertools.combinations(deck, 5))
    counted = Counter(_classify(hand, runs) for hand in hands)
    assert len(hands) == 98_280 and dict(counted) == SPANISH_COUNTS
    ranks = tuple(Rank)[Rank.EIGHT :]
    assert {s: n for s, n in category_counts(ranks, ace_low=False).items() if n} == SPANISH_COUNTS
    by_rarity = sorted(set(SPANISH_COUNTS) - {Shape.HIGH_CARD}, key=lambda s: -SPANISH_COUNTS[s])
    expected = (Shape.HIGH_CARD, *by_rarity, Shape.FIVE_OF_A_KIND)
    assert rarity_order(ranks, ace_low=False) == expected == SPANISH_HOLDEM.order
    assert expected.index(Shape.FLUSH) > expected.index(Shape.FOUR_OF_A_KIND)
    assert variant("FSPAN").game().showdown.halves[0].system == SPANISH_HOLDEM
    # The rarity order of the full deck is the standard one, and of Manila's, a flush over a
    # full house (and, by rarity, over four of a kind too, which Manila's text does not say).
    assert rarity_order(tuple(Rank)) == STANDARD_ORDER
    manila = rarity_order(tuple(Rank)[Rank.SEVEN :], ace_low=False)
    assert manila.index(Shape.FLUSH) > manila.index(Shape.FULL_HOUSE)
    # Every hand's value under the system: its category's place in the order.
    values = evaluate_system_batch(SPANISH_HOLDEM, np.array(hands, dtype=np.int8))
    places = [expected.index(_classify(hand, runs)) for hand in hands]
    assert (values >> 20).tolist() == places


def test_spanish_holdem_hands() -> None:
    """Rules 002: "you must use both of your hole cards"; the 28-card deck's values: a flush
    beats four of a kind, and A-8-9-T-J is no straight (the ace plays high only)."""
    assert _name("FSPAN", "As 8c", "Ks Qs Js Ts 9d") == "Ace-high"  # no royal flush
    assert _name("FSPAN", "Ah Jc", "8d 9s Tc Kd Kh") == "Pair of Kings"
    seats = {0: "Ah Kh", 1: "9s 8c"}
    board = "Qh Jh 9h 9c 9d"
    game = variant("FSPAN").game()
    out = play_stacked(game, seats, board)
    assert out.shown == {0: "Ace-high flush", 1: "Four Nines"} and list(out.won) == [0]
    high = game.showdown.halves[0]
    assert high.system is not None
    manila_order = replace(high, system=replace(high.system, order=FLUSH_OVER_FULL_HOUSE))
    other = replace(game, showdown=Showdown((manila_order,)))
    assert list(play_stacked(other, seats, board).won) == [1]


# --- Indian poker ---------------------------------------------------------------------------


def test_one_card_high() -> None:
    """Rules 000, 'Blind man's bluff': "simply high card": aces high, every rank above the one
    below it, suits not ranked (Rules 002, 'General rules')."""
    ladder = [evaluate_one_card(f"{symbol}s") for symbol in "23456789TJQKA"]
    assert [r.value for r in ladder] == list(range(13))
    assert ladder[-1].name == "Ace high" and ladder[0].name == "Deuce high"
    assert evaluate_one_card("Kc") == evaluate_one_card("Ks")
    for bad in ("Ac Kd", "", "Jk"):
        with pytest.raises(ValueError):
            evaluate_one_card(bad)


def test_indian_poker_at_the_table() -> None:
    """Rules 000, 'Blind man's bluff': "Each player is dealt one card ... and a round of
    betting occurs"; the highest card wins, equal cards split the pot."""
    game = variant("FIND").game()
    assert game.selection is not None and game.selection.size == 1
    out = play_stacked(game, {0: "Ks", 1: "Ah", 2: "9d"})
    assert out.shown == {0: "King high", 1: "Ace high", 2: "Nine high"} and list(out.won) == [1]
    tie = play_stacked(game, {0: "Ks", 1: "Kc", 2: "9d"})
    assert sorted(tie.won) == [0, 1] and abs(tie.won[0] - tie.won[1]) <= 1
    half = game.showdown.halves[0]
    assert half.rank(game.selection, parse_cards("2c"), ()) == Half(half.ranking).rank(
        game.selection, parse_cards("2d"), ()
    )


# --- the game files' keys -------------------------------------------------------------------


_FIND = (GAMES / "106-indian-poker-fixed-limit.toml").read_text()
_SPAN = (GAMES / "105-spanish-holdem-fixed-limit.toml").read_text()
_CAN = (GAMES / "87-canadian-stud-fixed-limit.toml").read_text()


@pytest.mark.parametrize(
    ("text", "old", "new", "field", "message"),
    [
        (_FIND, 'use = "any"', "use = { exactly = 1 }", "showdown.use", "'any' 1 of one board"),
        (_FIND, '"high card" }', '"high card", name = "x" }', "showdown.halves[0].name", "system"),
        (_SPAN, '"two pair",\n', "", "showdown.halves[0].order", "missing two pair"),
        (_SPAN, '"two pair",', '"two pairs",', "showdown.halves[0].order[2]", "one of"),
        (_SPAN, '"two pair",', '"one pair",', "showdown.halves[0].order[2]", "listed twice"),
        (_SPAN, '"high card",\n', "", "showdown.halves[0].order", "missing high card"),
        (
            _SPAN,
            "ace_low = false,",
            "ace_low = false, flush_beats_full_house = true,",
            "showdown.halves[0].flush_beats_full_house",
            "one or the other",
        ),
        (_SPAN, "order = [", "order = 3, x = [", "showdown.halves[0].order", "must be a list"),
        (
            _CAN,
            '"high card",\n    "one pair",',
            '"one pair",\n    "high card",',
            "showdown.halves[0].order",
            "list it first",
        ),
    ],
)
def test_bad_keys_name_their_field(text: str, old: str, new: str, field: str, message: str) -> None:
    """A mistake in the order of categories or the one-card hand is an error naming the
    field."""
    assert old in text
    with pytest.raises(GameFileError, match=message) as caught:
        parse_game_text(text.replace(old, new, 1), "g.toml")
    assert caught.value.field == field


def test_a_stripped_deck_needs_an_order_or_the_flush_rule() -> None:
    """The order answers 'does a flush beat a full house' for a stripped deck; without either
    the file is refused, naming the key."""
    start = _SPAN.index(", order = [")
    end = _SPAN.index("] }", start) + 1
    with pytest.raises(GameFileError, match="say whether a flush beats") as caught:
        parse_game_text(_SPAN[:start] + _SPAN[end:], "g.toml")
    assert caught.value.field == "showdown.halves[0].flush_beats_full_house"
