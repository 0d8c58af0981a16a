"""Game files: every shipped game loads and plays, the seven factory games come out identical,
a house game written only as a file plays end to end, and each kind of mistake in a file is
one GameFileError naming the file and the field."""

from __future__ import annotations

import copy
import fnmatch
import random
import re
import tomllib
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from service.cli import main
from simulations.cards import Rank
from simulations.engine.events import Discarded, HoleDealt
from simulations.engine.game import GameDefinition
from simulations.engine.gamefile import (
    GameFileError,
    GutsEntry,
    load_any_game_file,
    load_game_file,
    parse_game,
    parse_game_text,
)
from simulations.engine.hand import Hand
from simulations.engine.history import play_plainly
from simulations.engine.phases import Bet, Discard, FirstToAct
from simulations.engine.showdown import HandRanking
from simulations.engine.variants import GAMES_FOLDER, POKER_VARIANTS, VARIANTS, load_games
from simulations.evaluators.stripped import MANILA, PINATUBO, ROYAL_HOLDEM
from tests.random_play import random_action

REPO = Path(__file__).resolve().parent.parent
GAMES = Path(str(GAMES_FOLDER))
# In the order of the files' numbers, as the registry reads them.
SHIPPED = sorted(GAMES.glob("*.toml"), key=lambda p: (int(p.name.split("-", 1)[0]), p.name))
EXAMPLE = REPO / "examples" / "games" / "pineapple-omaha-eight.toml"

# --- the shipped files --------------------------------------------------------------------------


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_file_loads_and_cites_its_rule_text(path: Path) -> None:
    entry = load_any_game_file(path)
    definition = entry.guts if isinstance(entry, GutsEntry) else entry.game
    assert VARIANTS[entry.code].definition == definition
    assert definition.name == entry.name
    head = path.read_text().split("\ncode = ")[0]
    # Each file says which rule text it follows: a file name and a quoted phrase.
    assert re.search(r"00\d_[0-9a-f]{16}\.txt", head), path.name
    assert '"' in head, path.name


def test_the_registry_holds_every_file_once() -> None:
    assert len(VARIANTS) == len(SHIPPED) >= 30
    assert list(VARIANTS) == [load_any_game_file(p).code for p in SHIPPED]


def test_stripped_deck_games_rank_with_the_engine_systems() -> None:
    assert VARIANTS["FMAN"].game().showdown.halves[0].system == MANILA
    assert VARIANTS["PPIN"].game().showdown.halves[0].system == PINATUBO
    assert VARIANTS["NRH"].game().showdown.halves[0].system == ROYAL_HOLDEM


def test_the_games_folder_ships_in_the_wheel() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    patterns = project["tool"]["setuptools"]["package-data"]["simulations"]
    for path in SHIPPED:
        inside = path.relative_to(REPO / "simulations").as_posix()
        assert any(fnmatch.fnmatch(inside, pattern) for pattern in patterns), inside


# --- playing them -------------------------------------------------------------------------------


def _play(game: GameDefinition, hands: int) -> Counter[str]:
    """Half the hands played plainly to the showdown, half at random; every one keeps the
    chips and deals no card twice."""
    seen: Counter[str] = Counter()
    for seed in range(hands):
        chooser = random.Random(seed)
        n = (
            game.max_players
            if seed % 4 < 2
            else chooser.randint(game.min_players, game.max_players)
        )
        stacks = [chooser.choice([chooser.randint(5, 40), 400]) for _ in range(n)]
        hand = Hand(game, stacks, button=chooser.randrange(n), rng=np.random.default_rng(seed))
        if seed % 2:
            while not hand.finished:
                hand.act(random_action(hand, chooser))
        else:
            play_plainly(hand)
        assert sum(hand.stacks) + hand.carried == sum(stacks), seed  # or passed out
        dealt = [c for e in hand.events if isinstance(e, HoleDealt) for c in e.cards]
        discarded = [c for e in hand.events if isinstance(e, Discarded) for c in e.cards]
        assert len(set(dealt) | set(hand.board)) == len(dealt) + len(hand.board) or discarded
        seen["showdowns"] += sum(not f for f in hand.folded) > 1
        seen["discards"] += bool(discarded)
    return seen


@pytest.mark.parametrize("code", list(POKER_VARIANTS))
def test_every_shipped_game_plays_to_the_end(code: str) -> None:
    seen = _play(VARIANTS[code].game(), 40)
    assert seen["showdowns"] > 0


def test_the_example_house_game_plays_end_to_end() -> None:
    """examples/games: Omaha eight or better dealt five cards, one discarded after the flop
    betting; whoever reaches the showdown holds four."""
    entry = load_game_file(EXAMPLE)
    game = entry.game
    assert entry.code == "PPINO/8" and any(isinstance(p, Discard) for p in game.phases)
    seen = _play(game, 300)
    assert seen["showdowns"] > 0 and seen["discards"] > 0
    hand = play_plainly(Hand(game, [100] * 8, button=0, rng=np.random.default_rng(5)))
    assert all(len(cards) == 4 for cards in hand.hole) and len(hand.board) == 5


# --- mistakes -----------------------------------------------------------------------------------

_DELETE = object()


def _mapping(name: str) -> dict[str, Any]:
    with (GAMES / name).open("rb") as stream:
        return tomllib.load(stream)


def _with(data: dict[str, Any], changes: dict[tuple[Any, ...], Any]) -> dict[str, Any]:
    """``data`` with each path set to its value (or removed)."""
    changed = copy.deepcopy(data)
    for path, value in changes.items():
        target: Any = changed
        for key in path[:-1]:
            target = target.setdefault(key, {}) if isinstance(key, str) else target[key]
        if value is _DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value
    return changed


HOLDEM = "01-holdem-no-limit.toml"
STUD = "20-seven-card-stud-fixed-limit.toml"
BADUGI = "37-badugi-fixed-limit.toml"
DOUBLE_BOARD = "17-double-board-holdem-fixed-limit.toml"
JACKPOTS = "38-jackpots-fixed-limit.toml"
MISTAKES = [
    # (file, changes, the field the message names, what else it says)
    (HOLDEM, {("colour",): "red"}, "colour", "is not a known setting"),
    (HOLDEM, {("stake",): {"small_bet": 2}}, "stake", "is not a known setting (known: code"),
    (HOLDEM, {("stakes", "small_bett"): 2}, "stakes.small_bett", "is not a known setting"),
    (HOLDEM, {("players",): "2-10"}, "players", "must be a list, not a string"),
    (HOLDEM, {("players",): [6, 2]}, "players", "the fewest (6) is more than the most (2)"),
    (HOLDEM, {("stakes", "small_bet"): "2"}, "stakes.small_bet", "must be an integer"),
    (HOLDEM, {("stakes", "small_bet"): _DELETE}, "stakes.small_bet", "is required"),
    (HOLDEM, {("structure",): "table-stakes"}, "structure", "'fixed-limit', 'spread-limit'"),
    (
        HOLDEM,
        {("showdown", "halves", 0, "ranking"): "highest"},
        "showdown.halves[0].ranking",
        "must be one of 'high', 'ace-to-five low', 'ace-to-six low', 'deuce-to-seven low', "
        "'badugi', 'high spade in the hole', 'low spade in the hole', 'high card', "
        "'high spade in the hole, queen first', 'two-card'; got 'highest'",
    ),
    (
        STUD,
        {("deck", "exhaustion"): "reshuffle"},
        "deck.exhaustion",
        "must be one of 'none', 'stud-texts', 'stud-wsop', 'draw-texts'",
    ),
    (HOLDEM, {("deck", "exhaustion"): "draw-texts"}, "deck.exhaustion", "for draw games"),
    (HOLDEM, {("deck", "exhaustion"): "stud-texts"}, "deck.exhaustion", "for stud games"),
    (HOLDEM, {("deck", "deals_bottom_card"): True}, "deck.deals_bottom_card", "no draw"),
    # Too few cards for the selection: exactly three of two hole cards.
    (HOLDEM, {("showdown", "use"): {"exactly": 3}}, "showdown.use.exactly", "leave each player 2"),
    (HOLDEM, {("showdown", "use"): {"exactly": 6}}, "showdown.use.exactly", "must be at most 5"),
    (HOLDEM, {("showdown", "use"): "best"}, "showdown.use", "must be 'any', 'whole'"),
    (HOLDEM, {("phases",): [{"deal": "preflop", "down": 2}, "bet"]}, "showdown.use", "five cards"),
    # Too many cards for badugi's whole hand.
    (BADUGI, {("phases", 0, "down"): 6}, "", "badugi is four cards in the hand"),
    (HOLDEM, {("showdown", "use"): "whole"}, "showdown.use", "a badugi half plays the hand"),
    (
        STUD,
        {("deck", "exhaustion"): "none"},
        "players",
        "8 players are too many for the 52 cards deck with deck.exhaustion = 'none'",
    ),
    (HOLDEM, {("deck", "ranks"): "23456789TJQKX"}, "deck.ranks", "'X' (at 13 in"),
    (HOLDEM, {("deck", "ranks"): "AKQJT"}, "deck.ranks", "out of order or repeated"),
    (HOLDEM, {("deck", "ranks"): "A-7"}, "deck.ranks", "must go from low to high"),
    (HOLDEM, {("deck", "ranks"): "7-A"}, "showdown.halves[0].ace_low", "below 7 in a straight"),
    (
        HOLDEM,
        {("deck", "ranks"): "7-A", ("showdown", "halves", 0, "ace_low"): False},
        "showdown.halves[0].flush_beats_full_house",
        "the deck is stripped (32 cards (7 to A))",
    ),
    (HOLDEM, {("deck", "jokers"): 1}, "showdown.halves[0].jokers", "'wild' or 'bug'"),
    (HOLDEM, {("showdown", "halves", 0, "jokers"): "wild"}, "showdown.halves[0].jokers", "no jok"),
    (
        HOLDEM,
        {("showdown", "halves", 0, "qualifier"): "eight-or-better"},
        "showdown.halves[0].qualifier",
        "qualifies an ace-to-five low",
    ),
    (
        HOLDEM,
        {("showdown", "halves"): [{"ranking": "ace-to-five low"}, {"ranking": "high"}]},
        "showdown.halves",
        "a high half, then a low half",
    ),
    (HOLDEM, {("house", "incomplete_raise"): "half-bet"}, "house.incomplete_raise", "full bet"),
    (HOLDEM, {("house", "pot_limit_blinds"): "small-blind-as-big"}, "house.pot_limit_blinds", ""),
    (HOLDEM, {("house", "heads_up_cap"): "start-of-round"}, "house.heads_up_cap", "cap lifted"),
    (
        "02-holdem-fixed-limit.toml",
        {("stakes", "cap_lifted_heads_up"): False, ("house", "heads_up_cap"): "start-of-round"},
        "house.heads_up_cap",
        "only a cap lifted heads-up",
    ),
    (
        "02-holdem-fixed-limit.toml",
        {("house", "heads_up_cap"): "at-the-start"},
        "house.heads_up_cap",
        "start-of-round",
    ),
    (HOLDEM, {("stakes", "spreads"): [[1, 5]]}, "stakes.spreads", "only spread limit"),
    (
        HOLDEM,
        {("stakes", "big_bet"): 4, ("stakes", "big_bet_round"): 4},
        "stakes.big_bet_round",
        "never comes",
    ),
    (HOLDEM, {("phases", 1): "bett"}, "phases[1]", "the word 'bet'"),
    (HOLDEM, {("phases", 0, "draw"): "x"}, "phases[0]", "names both deal and draw"),
    (HOLDEM, {("phases", 0, "down"): 0}, "phases[0]", "a deal deals at least one card"),
    (HOLDEM, {("phases", 2, "burn"): "yes"}, "phases[2].burn", "must be true or false"),
    (HOLDEM, {("acting_order",): "high-showing"}, "", "showing order needs upcards"),
    (HOLDEM, {("forced", "blinds"): [1, 2, 4], ("players",): [2, 9]}, "players", "3 blinds"),
    (HOLDEM, {("code",): "N T"}, "code", "is not a code"),
    (HOLDEM, {("phases", 1): {"bet": True, "opens_with": "JQ"}}, "phases[1].opens_with", "one"),
    (BADUGI, {("phases", 2, "most"): 5}, "phases[2]", "may replace 5 cards but a player holds 4"),
    # Double board: boards = [[0, 1, 2, 6, 8], [3, 4, 5, 7, 9]], halves on board 0 and 1.
    (DOUBLE_BOARD, {("showdown", "boards", 1, 4): 10}, "showdown.boards[1][4]", "most 9, got 10"),
    (HOLDEM, {("showdown", "boards"): [[0, 1, 2, 3, 4]]}, "showdown.boards", "two or more"),
    (DOUBLE_BOARD, {("showdown", "boards", 0, 1): 0}, "showdown.boards[0]", "distinct positions"),
    (
        DOUBLE_BOARD,
        {("showdown", "halves", 1, "board"): 2},
        "showdown.halves[1].board",
        "2 is not one of the 2 boards listed",
    ),
    (
        HOLDEM,
        {("showdown", "halves", 0, "board"): 0},
        "showdown.halves[0].board",
        "0 is not one of the 0 boards listed",
    ),
    (DOUBLE_BOARD, {("showdown", "halves", 1, "board"): 0}, "showdown.halves", "different boards"),
    (DOUBLE_BOARD, {("showdown", "use"): "whole"}, "showdown.boards", "played whole uses no board"),
    # Boards the selection cannot use: too short for five with two hole cards, or no board.
    (HOLDEM, {("showdown", "boards"): [[0, 1], [2, 3]]}, "showdown.boards", "2 hole and 5 board"),
    (STUD, {("showdown", "boards"): [[0], [0]]}, "showdown.boards", "7 cards and 0 on the board"),
    # Jackpots: { bet = true, opens_with = "J" }, then { bet = true, first = ... }.
    (
        JACKPOTS,
        {("phases", 3, "first"): "opener"},
        "phases[3].first",
        "must be one of 'game', 'first-round-opener'; got 'opener'",
    ),
    (JACKPOTS, {("phases", 1, "opens_with"): "X"}, "phases[1].opens_with", "'X' (at 1 in 'X')"),
    (JACKPOTS, {("phases", 1, "opens_with"): 11}, "phases[1].opens_with", "must be a string"),
]


@pytest.mark.parametrize(("name", "changes", "field", "says"), MISTAKES)
def test_each_mistake_names_its_field(
    name: str, changes: dict[tuple[Any, ...], Any], field: str, says: str
) -> None:
    with pytest.raises(GameFileError) as caught:
        parse_game(_with(_mapping(name), changes), "my-game.toml")
    err = caught.value
    assert str(err).startswith("my-game.toml: "), err
    assert err.field == field, err
    assert says in str(err), err
    assert "\n" not in str(err)


def test_the_unmodified_mapping_is_a_game() -> None:
    """The mistakes above are mistakes only because of their one change."""
    for name in (HOLDEM, STUD, BADUGI, DOUBLE_BOARD, JACKPOTS):
        parse_game(_with(_mapping(name), {}), name)


def test_the_double_board_and_jackpots_files_read_their_keys() -> None:
    double = load_game_file(GAMES / DOUBLE_BOARD).game
    assert [(h.ranking, h.board) for h in double.showdown.halves] == [
        (HandRanking.HIGH, 0),
        (HandRanking.HIGH, 1),
    ]
    assert double.selection is not None
    assert double.selection.boards == ((0, 1, 2, 6, 8), (3, 4, 5, 7, 9))
    jackpots = load_game_file(GAMES / JACKPOTS).game
    bets = [p for p in jackpots.phases if isinstance(p, Bet)]
    assert bets == [Bet(opens_with=Rank.JACK), Bet(first=FirstToAct.FIRST_ROUND_OPENER)]


def test_text_that_is_not_a_game_file() -> None:
    with pytest.raises(GameFileError, match=r"^g\.toml: not valid TOML: "):
        parse_game_text("code = ", "g.toml")
    with pytest.raises(GameFileError, match=r"^g\.toml: game: must be a table"):
        parse_game([], "g.toml")  # type: ignore[arg-type]
    with pytest.raises(GameFileError, match="cannot read"):
        load_game_file(REPO / "no-such-game.toml")


def test_two_files_with_one_code_are_refused(tmp_path: Path) -> None:
    text = (GAMES / HOLDEM).read_text()
    (tmp_path / "a.toml").write_text(text)
    (tmp_path / "b.toml").write_text(text.replace("No-limit Texas", "My no-limit Texas"))
    with pytest.raises(GameFileError) as caught:
        load_games(tmp_path)
    assert caught.value.field == "code"
    assert str(caught.value).startswith(str(tmp_path / "b.toml"))
    assert f"'NT' is already the code of {tmp_path / 'a.toml'}" in str(caught.value)
    (tmp_path / "b.toml").write_text(text.replace('code = "NT"', 'code = "MYNT"'))
    assert list(load_games(tmp_path)) == ["NT", "MYNT"]


# --- the command line ---------------------------------------------------------------------------


def test_a_game_file_shows_and_deals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--file", str(EXAMPLE)]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("PPINO/8  Pot-limit pineapple Omaha eight or better")
    assert "discard: discard 1" in shown
    assert main(["deal", "--file", str(EXAMPLE), "--players", "4", "--seed", "2"]) == 0
    dealt = capsys.readouterr().out
    assert dealt.startswith("Pot-limit pineapple Omaha eight or better, 4 players, seed 2")
    assert " discards " in dealt and " wins " in dealt


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["games", "--file", "BAD"], "BAD: showdown.halves[0].ranking: must be one of"),
        (["deal", "--file", "BAD"], "BAD: showdown.halves[0].ranking: must be one of"),
        (["games", "show", "NT", "--file", "GOOD"], "games show: give a game's code or --file"),
        (["deal"], "deal: which game?"),
        (["deal", "--file", "MISSING"], "cannot read"),
    ],
)
def test_a_bad_game_file_exits_2_with_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text((GAMES / HOLDEM).read_text().replace('ranking = "high"', 'ranking = "hi"'))
    paths = {"BAD": str(bad), "GOOD": str(EXAMPLE), "MISSING": str(tmp_path / "none.toml")}
    argv = [paths.get(arg, arg) for arg in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert message.replace("BAD", str(bad)) in err


def test_the_catalogue_lists_the_games_as_the_command_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """docs/games.md, 'The listing': the listing there is `cardroom games` verbatim (the page
    is generated by `python -m service.games_page`)."""
    page = (REPO / "docs" / "games.md").read_text(encoding="utf-8")
    shown = page.split("$ cardroom games\n", 1)[1].split("```", 1)[0]
    assert main(["games"]) == 0
    listed = capsys.readouterr().out
    assert listed == shown
    assert "\nFR " in listed and "\nG3-CAP50 " in listed


def test_phases_may_be_written_as_tables() -> None:
    """`[[phases]]` tables, with `bet = true` for a betting round, are the same phases."""
    text = (GAMES / HOLDEM).read_text()
    head = text.split("phases = [")[0]
    tables = "".join(
        f"\n[[phases]]\n{line}\n"
        for line in (
            'deal = "preflop"\ndown = 2',
            "bet = true",
            'deal = "flop"\nboard = 3\nburn = true',
            "bet = true",
            'deal = "turn"\nboard = 1\nburn = true',
            "bet = true",
            'deal = "river"\nboard = 1\nburn = true',
            "bet = true",
        )
    )
    rest = text.split("\n]\n", 1)[1]
    assert parse_game_text(head + rest + tables).game == VARIANTS["NT"].game()


def test_house_options_reach_the_definition() -> None:
    data = _with(
        _mapping("02-holdem-fixed-limit.toml"),
        {
            ("house", "incomplete_raise"): "half-bet",
            ("house", "straddles"): "live",
            ("house", "odd_chips"): "one-each-left-of-button",
            ("house", "jackpot_drop"): {"amount": 1, "threshold": 20},
            ("house", "rake"): {"percent": 2.5, "caps": [{"players": 2, "cap": 3}]},
            ("forced", "big_blind_ante"): 2,
            ("house", "big_blind_ante_order"): "ante-first",
            ("house", "heads_up_cap"): "start-of-round",
        },
    )
    game = parse_game(data).game
    assert game.heads_up_cap.value == "start-of-round"
    assert str(game.incomplete_raise) == "half-bet" and str(game.straddles) == "live"
    assert game.odd_chips.value == "one-each-left-of-button"
    assert game.rake is not None and game.rake.percent == Fraction(1, 40)
    assert game.rake.caps == ((2, 3),) and game.jackpot_drop is not None
    assert game.forced.big_blind_ante == 2 and str(game.forced.big_blind_ante_order) == "ante-first"
