"""Guts game files, the command line, and random play of every built-in guts game
(simulations/engine/gamefile_guts.py, simulations/engine/guts.py, service/cli.py)."""

from __future__ import annotations

import copy
import random
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from service.cli import main
from service.games import built_in_game, checked_game
from simulations.cards import parse_cards
from simulations.engine.gamefile import (
    GameFileError,
    GutsEntry,
    load_any_game_file,
    parse_any_game,
    parse_game_text,
)
from simulations.engine.guts import GutsSession
from simulations.engine.guts_events import (
    CardsDealt,
    DealStarted,
    Decided,
    GameEnded,
    GutsDecision,
    Stopped,
    StopReason,
)
from simulations.engine.guts_game import (
    DealerRule,
    Declaring,
    GutsDeal,
    PotRule,
    ThreeCardOrder,
)
from simulations.engine.guts_history import describe_guts_events, play_guts_plainly
from simulations.engine.variants import GAMES_FOLDER, GUTS_VARIANTS, variant

GAMES = Path(str(GAMES_FOLDER))
G3_FILE = GAMES / "192-guts-three-card.toml"
DELETE = object()

SESSIONS = 500  # random sessions of each guts game
DEALS = 40  # each stopped after this many deals at most


# --- the files ----------------------------------------------------------------------------------


def test_the_guts_games_read_as_the_texts_write_them() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "Each player’s hand usually consists of a
    reduced poker hand of either 2 or 3 cards"; three-card guts "ranked as follows: Three of
    a kind, straight flush"; "Each player receives two cards face down. In turn"; "challenge
    the dealer"; "double the pot"; "especially vicious"; "cap them at 50x"."""
    assert list(GUTS_VARIANTS) == [
        "G2",
        "G2-SF",
        "G3",
        "G3-POKER",
        "G3-DEALER",
        "G3-CHALLENGE",
        "G3-WORST",
        "G3-VICIOUS",
        "G3-CAP50",
    ]
    games = {code: found.guts() for code, found in GUTS_VARIANTS.items()}
    assert [g.cards for g in games.values()] == [2, 2, 3, 3, 3, 3, 3, 3, 3]
    assert games["G2-SF"].straights_and_flushes and not games["G2"].straights_and_flushes
    assert games["G3"].order is ThreeCardOrder.THREE_OF_A_KIND_FIRST
    assert games["G3-POKER"].order is ThreeCardOrder.STRAIGHT_FLUSH_FIRST
    dealer = games["G3-DEALER"]
    assert (dealer.deal, dealer.declaring, dealer.dealer) == (
        GutsDeal.LAST_CARD_UP,
        Declaring.IN_TURN,
        DealerRule.PAIR_TO_WIN_ALONE,
    )
    assert games["G3-CHALLENGE"].dealer is DealerRule.CHALLENGE
    assert games["G3-WORST"].pot_rule is PotRule.WORST_HAND_DOUBLES
    assert games["G3-VICIOUS"].pot_rule is PotRule.VICIOUS
    assert games["G3-CAP50"].cap == 50 * games["G3-CAP50"].ante
    plain = [c for c in ("G2", "G2-SF", "G3", "G3-POKER", "G3-CAP50")]
    assert all(games[c].declaring is Declaring.SIMULTANEOUS for c in plain)
    with pytest.raises(ValueError, match="G3 is a guts game, not a poker game"):
        variant("G3").game()
    with pytest.raises(ValueError, match="NT is a poker game, not a guts game"):
        variant("NT").guts()


def _mapping() -> dict[str, Any]:
    with G3_FILE.open("rb") as stream:
        return tomllib.load(stream)


def _with(changes: dict[tuple[str, ...], Any]) -> dict[str, Any]:
    data = copy.deepcopy(_mapping())
    for path, value in changes.items():
        target = data
        for key in path[:-1]:
            target = target.setdefault(key, {})
        if value is DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value
    return data


MISTAKES = [
    # (changes, the field the message names, what else it says)
    ({("colour",): "red"}, "colour", "is not a known setting (known: kind, code"),
    ({("kind",): "gutz"}, "kind", "must be one of 'poker', 'guts'; got 'gutz'"),
    ({("cards",): 4}, "cards", "must be at most 3, got 4"),
    ({("cards",): DELETE}, "cards", "is required"),
    ({("cards",): 2}, "ranking", "means something only with cards = 3"),
    ({("ranking",): "best"}, "ranking", "must be one of 'three-of-a-kind-first'"),
    ({("straights_and_flushes",): True}, "straights_and_flushes", "only with cards = 2"),
    ({("players",): [2, 20]}, "players", "a 3-card game deals 2 to 17 from 52 cards"),
    ({("declare",): 3}, "declare", "must be a table, not an integer"),
    ({("declare", "form"): "shouted"}, "declare.form", "'simultaneous', 'in-turn'"),
    ({("declare", "dealer"): "challenge"}, "declare.dealer", "only with declare.form"),
    (
        {("declare", "form"): "in-turn", ("declare", "dealer_without_pair"): "matches"},
        "declare.dealer_without_pair",
        "only with declare.dealer = 'pair-to-win-alone'",
    ),
    ({("deal", "last_card"): "as-declared"}, "deal.last_card", "only with deal.form"),
    ({("deal", "cards"): 3}, "deal.cards", "is not a known setting"),
    ({("pot", "ante"): 0}, "pot.ante", "must be at least 1"),
    ({("pot", "rule"): "double"}, "pot.rule", "'match', 'worst-hand-doubles', 'vicious'"),
    ({("pot", "worst_hand_pays"): "the-pot"}, "pot.worst_hand_pays", "only with pot.rule"),
    ({("pot", "vicious_payers"): "losers"}, "pot.vicious_payers", "only with pot.rule"),
    ({("pot", "cap"): 0}, "pot.cap", "must be at least 1"),
    ({("pot", "ante"): 5, ("pot", "cap"): 4}, "pot.cap", "4 is less than one ante (5)"),
    ({("pot", "cap"): 50, ("pot", "cap_times_ante"): 50}, "pot.cap_times_ante", "give the cap"),
    ({("pot", "set_aside"): "last-winner"}, "pot.set_aside", "only with a cap"),
    ({("pot", "nobody_in"): "pass"}, "pot.nobody_in", "'redeal', 're-ante'"),
    ({("pot", "odd_chips"): "exact"}, "pot.odd_chips", "guts pays whole chips"),
    ({("pot", "antes"): 1}, "pot.antes", "is not a known setting"),
    ({("code",): "G 3"}, "code", "is not a code"),
]


@pytest.mark.parametrize(("changes", "field", "says"), MISTAKES)
def test_a_bad_guts_file_is_refused_naming_the_field(
    changes: dict[tuple[str, ...], Any], field: str, says: str
) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "There are many variations": each is a
    setting, and a setting misspelt, out of its list or meaningless beside the others is
    refused, naming it."""
    with pytest.raises(GameFileError) as caught:
        parse_any_game(_with(changes), "my-guts.toml")
    err = caught.value
    assert str(err).startswith("my-guts.toml: "), err
    assert err.field == field, err
    assert says in str(err), err
    assert "\n" not in str(err)


def test_the_unchanged_file_and_the_other_readings_are_games() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': the mistakes above are mistakes only because
    of their one change; the other readings are settings ("double the pot", the dealer
    "must have a pair", "set aside as the ante")."""
    assert isinstance(parse_any_game(_with({})), GutsEntry)
    entry = parse_any_game(
        _with(
            {
                ("deal", "form"): "last-card-up",
                ("deal", "last_card"): "after-declarations",
                ("declare", "form"): "in-turn",
                ("declare", "dealer"): "pair-to-win-alone",
                ("declare", "dealer_without_pair"): "matches",
                ("pot", "rule"): "worst-hand-doubles",
                ("pot", "worst_hand_pays"): "the-pot",
                ("pot", "cap"): 30,
                ("pot", "set_aside"): "last-winner",
                ("pot", "nobody_in"): "re-ante",
            }
        )
    )
    assert isinstance(entry, GutsEntry) and entry.guts.cap == 30


def test_the_poker_readers_refuse_a_guts_file() -> None:
    """Rules 002_376df91f076a6501.txt, 'Guts': "Guts is a family of games that are cousins of
    poker rather than poker variants": a reader of poker games says so, naming ``kind``."""
    with pytest.raises(GameFileError, match=r"g\.toml: kind: is 'guts': a guts game"):
        parse_game_text(G3_FILE.read_text(), "g.toml")
    # The game service reads either kind (tests/test_game_service.py describes them).
    assert checked_game(G3_FILE.read_text()) == built_in_game("G3")
    assert checked_game(G3_FILE.read_text()).HasField("guts")
    entry = load_any_game_file(G3_FILE)
    assert isinstance(entry, GutsEntry) and entry.guts == GUTS_VARIANTS["G3"].guts()


# --- the command line ---------------------------------------------------------------------------


def test_games_lists_and_shows_the_guts_games(capsys: pytest.CaptureFixture[str]) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "The dealer declares last; if no other player
    has stayed in, then the dealer must have a pair or better to win the pot"."""
    assert main(["games"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    guts = [row[0] for row in rows if "guts" in row[1:] and row[0] in GUTS_VARIANTS]
    assert guts == list(GUTS_VARIANTS)
    assert main(["games", "show", "G3-DEALER"]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("G3-DEALER  Three-card guts")
    assert "structure  guts" in shown
    assert "three of a kind > straight flush > straight > flush > pair > high card" in shown
    assert "the dealer alone in needs a pair or better to win" in shown
    assert main(["games", "show", "G3-CAP50"]) == 0
    assert "cap        50 (50× the ante)" in capsys.readouterr().out


@pytest.mark.parametrize("code", list(GUTS_VARIANTS))
def test_deal_plays_a_whole_game(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "The game ends when only a single player has
    the guts to stay “in”": `cardroom deal` plays deals until it does, or to its deal limit."""
    assert main(["deal", code, "--players", "5", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{variant(code).name}, 5 players, seed 3; seat 0 deals first")
    assert "deal 1: seat 0 deals, the pot is 5" in out
    assert "the game ends: a winner" in out or "stopped after 1000 deals" in out
    assert "net chips: seat 0 " in out


def test_a_plain_session_stops_at_its_deal_limit_and_says_so() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "Thus the game continues indefinitely": two
    pairs stay in under the vicious rule, nobody wins, and the deal limit stops the session."""
    vicious = variant("G3-VICIOUS").guts()
    deck = list(dict.fromkeys([*parse_cards("Qc 7c Qd 7d 2h 3h"), *range(52)]))
    session = play_guts_plainly(GutsSession(vicious, 2, decks=[deck], max_deals=1))
    assert session.stopped is StopReason.DEAL_LIMIT
    assert describe_guts_events(session.events)[-1] == (
        "stopped after 1 deals: the deal limit was reached"
    )
    assert session.pot == 4 and session.nets == (-3, -1)  # the sevens match the pot of 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["games", "--file", "BAD"], "BAD: pot.rule: must be one of"),
        (["deal", "--file", "BAD", "--players", "3"], "BAD: pot.rule: must be one of"),
        (["deal", "G3", "--players", "20"], "--players: G3 is for 2 to 10 players, got 20"),
    ],
)
def test_a_bad_guts_file_exits_2_with_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "In the most common version, the player who
    stays in with the best hand receives the current pot": a file naming no such rule is one
    line and exit 2."""
    bad = tmp_path / "bad.toml"
    bad.write_text(G3_FILE.read_text().replace('rule = "match"', 'rule = "matching"'))
    argv = [str(bad) if arg == "BAD" else arg for arg in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert message.replace("BAD", str(bad)) in err


def test_a_guts_file_shows_and_deals(capsys: pytest.CaptureFixture[str]) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': a game of guts written as a file plays as the
    built-in one does."""
    assert main(["games", "--file", str(G3_FILE)]) == 0
    assert capsys.readouterr().out.startswith("G3  Three-card guts")
    assert main(["deal", "--file", str(G3_FILE), "--players", "4", "--seed", "1"]) == 0
    assert "seat 1 is dealt" in capsys.readouterr().out


# --- random play --------------------------------------------------------------------------------


def _play_at_random(session: GutsSession, chooser: random.Random, staying: float) -> None:
    """Random decisions, in a random order where they are made all at once; after each, the
    chips add up, and each deal's cards are distinct, as many as the deal gives."""
    game = session.game
    while not session.finished:
        legal = session.legal_actions()
        seat = chooser.choice(legal.seats)
        session.act(seat, GutsDecision.IN if chooser.random() < staying else GutsDecision.OUT)
        assert sum(session.nets) + session.pot + session.set_aside == 0
        assert session.pot >= 0 and session.set_aside >= 0
        assert game.cap is None or session.pot <= game.cap
    deals: list[list[object]] = []
    for event in session.events:
        if isinstance(event, DealStarted):
            deals.append([])
        elif deals:
            deals[-1].append(event)
    for events in deals:
        dealt = [c for e in events if isinstance(e, CardsDealt) for c in e.cards]
        assert len(dealt) == len(set(dealt))
        down = [e for e in events if isinstance(e, CardsDealt) and not e.face_up]
        assert len(down) == session.n and all(len(e.cards) == game.down_cards for e in down)
        ins = {e.seat for e in events if isinstance(e, Decided) and e.decision is GutsDecision.IN}
        up = [e.seat for e in events if isinstance(e, CardsDealt) and e.face_up]
        assert set(up) <= ins and len(up) == len(set(up))


@pytest.mark.parametrize("code", list(GUTS_VARIANTS))
def test_random_play_keeps_the_cards_and_the_chips(code: str) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "the player who stays in with the best hand
    receives the current pot, while all other players who stayed in must match the pot":
    every chip paid is in the pot, set aside, or taken, in every game played at random; no
    card is dealt twice in a deal; the game ends with a winner and no loser, or stops at the
    deal limit (or when the pot passes the most chips a session counts)."""
    game = GUTS_VARIANTS[code].guts()
    endings: Counter[str] = Counter()
    for seed in range(SESSIONS):
        chooser = random.Random(seed)
        n = chooser.randint(game.min_players, game.max_players)
        session = GutsSession(
            game,
            n,
            button=chooser.randrange(n),
            rng=np.random.default_rng(seed),
            max_deals=DEALS,
        )
        _play_at_random(session, chooser, chooser.uniform(0.1, 0.7))
        if session.ended:
            assert isinstance(session.events[-1], GameEnded) and session.pot == 0
            endings["ended"] += 1
        else:  # the deal limit, or a pot past the most chips a session counts
            assert session.events[-1] == Stopped(session.stopped, session.deals)
            assert session.deals == DEALS or session.stopped is StopReason.POT_LIMIT
            endings[str(session.stopped)] += 1
    assert endings["ended"] > SESSIONS // 2, endings
