"""GameService end to end: the built-in games, poker and guts, and game-file checking,
against a real server process on loopback (one for the whole module)."""

from __future__ import annotations

import asyncio
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from prometheus_client import CollectorRegistry

from service import server as server_module
from service.api.cardroom.v1 import game_service_pb2 as game_pb
from service.api.cardroom.v1 import game_service_pb2_grpc as game_pb_grpc
from service.games import MAX_GAME_TEXT_BYTES
from service.interceptors import counted
from service.metrics import ServiceMetrics
from simulations.engine.gamefile import GutsEntry, load_any_game_file
from simulations.engine.guts_game import (
    DealerRule,
    DealerWithoutPair,
    Declaring,
    GutsDeal,
    GutsGame,
    LastCard,
    NobodyIn,
    PotRule,
    SetAside,
    ThreeCardOrder,
    ViciousPayers,
    WorstHandPays,
)
from simulations.engine.phases import describe_phase
from simulations.engine.pots import OddChipRule
from simulations.engine.variants import GUTS_VARIANTS, POKER_VARIANTS, VARIANTS, variant
from tests.harness import REPO, Server, running_server

pytestmark = pytest.mark.slow

EXAMPLE = (REPO / "examples" / "games" / "pineapple-omaha-eight.toml").read_text()
SERVICE = "cardroom.v1.GameService"
# The built-in guts game files (kind = "guts"), in file-name order.
GUTS_FILES = [
    path
    for path in sorted((REPO / "simulations" / "games").glob("*.toml"))
    if isinstance(load_any_game_file(path), GutsEntry)
]
G3_FILE = next(path for path in GUTS_FILES if load_any_game_file(path).code == "G3")
G3_TEXT = G3_FILE.read_text()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("games") / "data", workers=1) as running:
        yield running


@pytest.fixture(scope="module")
def channel(server: Server) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(server.address) as opened:
        yield opened


@pytest.fixture(scope="module")
def stub(channel: grpc.Channel) -> game_pb_grpc.GameServiceStub:
    return game_pb_grpc.GameServiceStub(channel)


def _refused(call: object, request: object) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call(request)  # type: ignore[operator]
    return caught.value


def _edited(old: str, new: str) -> str:
    assert old in EXAMPLE, old
    return EXAMPLE.replace(old, new)


def test_list_games_returns_every_built_in_game(stub: game_pb_grpc.GameServiceStub) -> None:
    games = stub.ListGames(game_pb.ListGamesRequest()).games
    assert [g.code for g in games] == list(VARIANTS)  # poker and guts, `cardroom games`' order
    for game in games:  # the labels `cardroom games` prints
        summary = VARIANTS[game.code].summary()
        assert game.kind == str(VARIANTS[game.code].kind)
        assert game.name == summary["name"]
        assert f"{game.min_players}-{game.max_players}" == summary["players"]
        assert (game.deck, game.structure, game.showdown) == (
            summary["deck"],
            summary["structure"],
            summary["showdown"],
        )


def test_get_game_describes_razz(stub: game_pb_grpc.GameServiceStub) -> None:
    game = stub.GetGame(game_pb.GetGameRequest(code="FR")).game
    razz = variant("FR").game()
    assert game.summary.code == "FR" and "razz" in game.summary.name.lower()
    assert "low" in game.summary.showdown and game.summary.structure == "fixed-limit"
    assert list(game.phases) == [describe_phase(p) for p in razz.phases]
    assert "third street: deal 2 down, 1 up" in game.phases
    assert "betting round" in game.phases
    assert game.forced.bring_in == razz.forced.bring_in > 0 and not game.forced.blinds
    assert game.exhaustion == str(razz.exhaustion) == "stud-texts"


def test_get_game_of_a_blind_game_gives_its_blinds(stub: game_pb_grpc.GameServiceStub) -> None:
    game = stub.GetGame(game_pb.GetGameRequest(code="NT")).game
    assert list(game.forced.blinds) == list(variant("NT").game().forced.blinds)
    assert game.forced.bring_in == 0 and game.exhaustion == "none"
    assert "flop: burn, deal 3 to the board" in game.phases


def test_unknown_or_missing_codes(stub: game_pb_grpc.GameServiceStub) -> None:
    err = _refused(stub.GetGame, game_pb.GetGameRequest(code="ZZ/9"))
    assert err.code() == grpc.StatusCode.NOT_FOUND
    assert err.details().startswith("code: 'ZZ/9' is not a built-in game's code"), err.details()
    long = _refused(stub.GetGame, game_pb.GetGameRequest(code="Q" * 5000))
    assert long.code() == grpc.StatusCode.NOT_FOUND
    assert "(5,000 characters)" in long.details() and len(long.details()) < 200
    missing = _refused(stub.GetGame, game_pb.GetGameRequest())
    assert missing.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert missing.details() == "code: is required"


def test_check_game_describes_the_example_house_game(stub: game_pb_grpc.GameServiceStub) -> None:
    game = stub.CheckGame(game_pb.CheckGameRequest(text=EXAMPLE)).game
    assert game.summary.code == "PPINO/8"
    assert (game.summary.min_players, game.summary.max_players) == (2, 8)
    assert game.summary.structure == "pot-limit"
    assert game.summary.showdown == "high / ace-to-five low, 8 or better"
    assert "discard: discard 1" in game.phases and game.phases[0] == "preflop: deal 5 down"
    assert list(game.forced.blinds) == [1, 2]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            _edited("[stakes]\n", "[stakes]\nsmall_bett = 3\n"),
            "text: stakes.small_bett: is not a known setting",
            id="unknown-field",
        ),
        pytest.param(
            _edited('  { deal = "flop", board = 3, burn = true },\n  "bet",\n', ""),
            "text: showdown.use.exactly: exactly 2 hole cards need 3 on the board, but the "
            "phases leave each player 4 cards and 2 on the board",
            id="impossible-deal",
        ),
        pytest.param(
            _edited("down = 5", "down = 2"),
            "text: showdown.use.exactly: exactly 2 hole cards, but the phases leave each "
            "player 1 cards",
            id="too-few-hole-cards",
        ),
        pytest.param(
            _edited('{ ranking = "high" }', '{ ranking = "highest" }'),
            "text: showdown.halves[0].ranking: must be one of 'high', ",
            id="unknown-ranking",
        ),
        pytest.param(
            _edited('code = "PPINO/8"', 'code = "PPINO/8'),
            "text: not valid TOML: ",
            id="invalid-toml",
        ),
        pytest.param("# nothing but a comment\n", "text: code: is required", id="no-code"),
        pytest.param("", "text: is required", id="empty"),
    ],
)
def test_bad_game_files_are_invalid_argument_naming_the_field(
    stub: game_pb_grpc.GameServiceStub, text: str, message: str
) -> None:
    err = _refused(stub.CheckGame, game_pb.CheckGameRequest(text=text))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert err.details().startswith(message), err.details()
    assert "\n" not in err.details() and "Traceback" not in err.details()


def test_invalid_toml_names_the_line(stub: game_pb_grpc.GameServiceStub) -> None:
    text = _edited('code = "PPINO/8"', 'code = "PPINO/8')
    err = _refused(stub.CheckGame, game_pb.CheckGameRequest(text=text))
    line = 1 + EXAMPLE.splitlines().index('code = "PPINO/8"')
    assert f"(at line {line}, column" in err.details(), err.details()


# --- games of guts ------------------------------------------------------------------------------


def test_list_games_includes_every_guts_game_as_guts(stub: game_pb_grpc.GameServiceStub) -> None:
    games = stub.ListGames(game_pb.ListGamesRequest()).games
    kinds = {game.code: game.kind for game in games}
    assert {"G2", "G3", "G3-POKER", "G3-CAP50"} <= set(GUTS_VARIANTS)
    assert {code: kinds.get(code) for code in GUTS_VARIANTS} == dict.fromkeys(GUTS_VARIANTS, "guts")
    assert {code: kinds.get(code) for code in POKER_VARIANTS} == dict.fromkeys(
        POKER_VARIANTS, "poker"
    )
    g3 = next(game for game in games if game.code == "G3")
    assert (g3.structure, g3.deck, g3.showdown) == ("guts", "52 cards", "three-card guts")
    assert (g3.min_players, g3.max_players) == (2, 10)


def test_get_game_describes_three_card_guts(stub: game_pb_grpc.GameServiceStub) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "The hands are ranked as follows: Three of a
    kind, straight flush, straight, flush, pair"; "the player who stays in with the best hand
    receives the current pot, while all other players who stayed in must match the pot"."""
    game = stub.GetGame(game_pb.GetGameRequest(code="G3")).game
    assert game.summary.code == "G3" and game.summary.kind == "guts"
    assert game.HasField("guts") and not game.HasField("forced")
    assert not game.phases and game.exhaustion == ""
    guts = game.guts
    order = ["three of a kind", "straight flush", "straight", "flush", "pair", "high card"]
    assert list(guts.ranking) == order and guts.ranking_order == "three-of-a-kind-first"
    assert f"ranking: three-card guts ({' > '.join(order)})" in guts.rules
    assert guts.pot_rule == "match"
    assert "pot: the best hand takes the pot; every other player in matches it" in guts.rules
    assert (guts.cards, guts.down_cards, guts.ante) == (3, 3, 1)
    assert (guts.deal, guts.declaring, guts.dealer) == ("all-down", "simultaneous", "none")
    assert not guts.HasField("cap") and "cap: none" in guts.rules
    assert guts.worst_hand_pays == guts.vicious_payers == guts.set_aside == ""
    assert guts.last_card == guts.dealer_without_pair == ""


def test_get_game_tells_the_guts_games_apart(stub: game_pb_grpc.GameServiceStub) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "ranked as in regular 5-card poker" (G3-POKER);
    "the dealer must have a pair or better to win the pot" (G3-DEALER); "cap them at 50x or
    100x the ante" (G3-CAP50); two-card hands, with or without straights and flushes."""
    poker = stub.GetGame(game_pb.GetGameRequest(code="G3-POKER")).game.guts
    assert list(poker.ranking[:2]) == ["straight flush", "three of a kind"]
    assert poker.ranking_order == "straight-flush-first"
    dealer = stub.GetGame(game_pb.GetGameRequest(code="G3-DEALER")).game.guts
    assert (dealer.deal, dealer.down_cards, dealer.last_card) == ("last-card-up", 2, "as-declared")
    assert (dealer.declaring, dealer.dealer) == ("in-turn", "pair-to-win-alone")
    assert dealer.dealer_without_pair == "redeal"
    capped = stub.GetGame(game_pb.GetGameRequest(code="G3-CAP50")).game.guts
    assert capped.HasField("cap") and capped.cap == 50 * capped.ante
    assert capped.set_aside == "next-game-ante"
    two = stub.GetGame(game_pb.GetGameRequest(code="G2")).game.guts
    assert (two.cards, list(two.ranking), two.ranking_order) == (2, ["pair", "high card"], "")
    assert not two.straights_and_flushes
    counted = stub.GetGame(game_pb.GetGameRequest(code="G2-SF")).game.guts
    assert counted.straights_and_flushes and len(counted.ranking) == 5
    worst = stub.GetGame(game_pb.GetGameRequest(code="G3-WORST")).game.guts
    assert (worst.pot_rule, worst.worst_hand_pays) == ("worst-hand-doubles", "twice-the-pot")
    vicious = stub.GetGame(game_pb.GetGameRequest(code="G3-VICIOUS")).game.guts
    assert (vicious.pot_rule, vicious.vicious_payers) == ("vicious", "losers")


def test_poker_games_have_no_guts_rules(stub: game_pb_grpc.GameServiceStub) -> None:
    game = stub.GetGame(game_pb.GetGameRequest(code="NT")).game
    assert game.summary.kind == "poker" and not game.HasField("guts") and game.phases


def _guts_game(game: game_pb.Game) -> GutsGame:
    """The guts game a message describes, its empty choices taking the definition's
    defaults (as a file that leaves them out does): the message says all the game holds."""
    guts = game.guts
    chosen: dict[str, Any] = {
        "order": ThreeCardOrder(guts.ranking_order) if guts.ranking_order else None,
        "last_card": LastCard(guts.last_card) if guts.last_card else None,
        "dealer_without_pair": (
            DealerWithoutPair(guts.dealer_without_pair) if guts.dealer_without_pair else None
        ),
        "worst_hand_pays": WorstHandPays(guts.worst_hand_pays) if guts.worst_hand_pays else None,
        "vicious_payers": ViciousPayers(guts.vicious_payers) if guts.vicious_payers else None,
        "cap": guts.cap if guts.HasField("cap") else None,
        "set_aside": SetAside(guts.set_aside) if guts.set_aside else None,
    }
    return GutsGame(
        name=game.summary.name,
        cards=guts.cards,
        straights_and_flushes=guts.straights_and_flushes,
        deal=GutsDeal(guts.deal),
        declaring=Declaring(guts.declaring),
        dealer=DealerRule(guts.dealer),
        pot_rule=PotRule(guts.pot_rule),
        ante=guts.ante,
        nobody_in=NobodyIn(guts.nobody_in),
        odd_chips=OddChipRule(guts.odd_chips),
        min_players=game.summary.min_players,
        max_players=game.summary.max_players,
        **{key: value for key, value in chosen.items() if value is not None},
    )


@pytest.mark.parametrize("path", GUTS_FILES, ids=lambda path: path.name)
def test_check_game_round_trips_every_guts_file(
    stub: game_pb_grpc.GameServiceStub, path: Path
) -> None:
    entry = load_any_game_file(path)
    assert isinstance(entry, GutsEntry)
    checked = stub.CheckGame(game_pb.CheckGameRequest(text=path.read_text())).game
    assert checked.summary.kind == "guts" and checked.summary.code == entry.code
    assert checked == stub.GetGame(game_pb.GetGameRequest(code=entry.code)).game
    assert _guts_game(checked) == entry.guts
    assert len(checked.guts.rules) >= 8 and all(": " in line for line in checked.guts.rules)


def test_check_game_describes_a_guts_file_of_its_own(stub: game_pb_grpc.GameServiceStub) -> None:
    """A file not among the built-in games: CheckGame reads its text, not a code."""
    text = G3_TEXT.replace('code = "G3"', 'code = "MY-G3"').replace(
        'rule = "match"', 'rule = "vicious"\nvicious_payers = "every-player-in"\ncap = 7'
    )
    assert "MY-G3" in text and "every-player-in" in text
    game = stub.CheckGame(game_pb.CheckGameRequest(text=text)).game
    assert game.summary.code == "MY-G3" and game.summary.kind == "guts"
    guts = game.guts
    assert (guts.pot_rule, guts.vicious_payers) == ("vicious", "every-player-in")
    assert guts.cap == 7 and guts.set_aside == "next-game-ante"
    assert "pot: nobody wins unless alone; the every player in match the pot" in guts.rules


def _guts_edited(old: str, new: str) -> str:
    assert old in G3_TEXT, old
    return G3_TEXT.replace(old, new)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            _guts_edited('rule = "match"', 'rule = "winner-takes-all"'),
            "text: pot.rule: must be one of 'match', 'worst-hand-doubles', 'vicious'; "
            "got 'winner-takes-all'",
            id="unknown-pot-rule",
        ),
        pytest.param(
            _guts_edited("cards = 3", "cards = 4"),
            "text: cards: must be at most 3, got 4",
            id="four-cards",
        ),
        pytest.param(_guts_edited("cards = 3\n", ""), "text: cards: is required", id="no-cards"),
        pytest.param(
            _guts_edited('form = "simultaneous"', 'form = "simultaneous"\ndealer = "challenge"'),
            "text: declare.dealer: means something only with declare.form = 'in-turn'",
            id="dealer-without-turns",
        ),
        pytest.param(
            _guts_edited("ante = 1", "ante = 1\nantes = 2"),
            "text: pot.antes: is not a known setting",
            id="unknown-field",
        ),
        pytest.param(
            _guts_edited("players = [2, 10]", "players = [2, 20]"),
            "text: players: 2 to 20 players; a 3-card game deals 2 to 17 from 52 cards",
            id="too-many-players",
        ),
        pytest.param(
            _guts_edited('kind = "guts"', 'kind = "gutz"'),
            "text: kind: must be one of 'poker', 'guts'",
            id="unknown-kind",
        ),
    ],
)
def test_bad_guts_files_are_invalid_argument_naming_the_field(
    stub: game_pb_grpc.GameServiceStub, text: str, message: str
) -> None:
    err = _refused(stub.CheckGame, game_pb.CheckGameRequest(text=text))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert err.details().startswith(message), err.details()
    assert "\n" not in err.details() and "Traceback" not in err.details()


@pytest.mark.parametrize("code", ["G4", "g3", "G3-POKER-X", "GUTS"])
def test_unknown_guts_like_codes_are_not_found(
    stub: game_pb_grpc.GameServiceStub, code: str
) -> None:
    err = _refused(stub.GetGame, game_pb.GetGameRequest(code=code))
    assert err.code() == grpc.StatusCode.NOT_FOUND
    assert err.details() == f"code: {code!r} is not a built-in game's code (see ListGames)"


def _padded(size: int, pad: str = "x") -> str:
    """The example game after a comment that pads it to ``size`` bytes of UTF-8 (``pad``
    repeated, then ``x`` to make up the rest)."""
    room = size - len(("# \n" + EXAMPLE).encode())
    count = room // len(pad.encode())
    comment = pad * count + "x" * (room - count * len(pad.encode()))
    text = f"# {comment}\n{EXAMPLE}"
    assert len(text.encode()) == size
    return text


def test_oversized_text_is_refused_before_parsing(stub: game_pb_grpc.GameServiceStub) -> None:
    at_limit = stub.CheckGame(game_pb.CheckGameRequest(text=_padded(MAX_GAME_TEXT_BYTES)))
    assert at_limit.game.summary.code == "PPINO/8"
    for text, size in (
        (_padded(MAX_GAME_TEXT_BYTES + 1), MAX_GAME_TEXT_BYTES + 1),
        ("x" * 1_000_000, 1_000_000),  # not TOML either: refused for its size first
        # Fewer than 64 Ki characters, more than 64 KiB: the limit counts bytes.
        (_padded(MAX_GAME_TEXT_BYTES + 3 * 1000, "€"), MAX_GAME_TEXT_BYTES + 3 * 1000),
    ):
        err = _refused(stub.CheckGame, game_pb.CheckGameRequest(text=text))
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert err.details() == f"text: must be at most 65,536 bytes, got {size:,}"


def test_malformed_request_bytes_are_invalid_argument(channel: grpc.Channel) -> None:
    not_utf8 = b"\x0a\x02\xff\xfe"  # field 1 (text) holding two bytes that are not UTF-8
    for method in ("CheckGame", "GetGame", "ListGames"):
        call = channel.unary_unary(f"/{SERVICE}/{method}")
        for data in (b"\xff\xff\xff\xff\x0f", not_utf8):
            if method == "ListGames" and data == not_utf8:
                continue  # an empty message skips an unknown field: a valid request
            with pytest.raises(grpc.RpcError) as caught:
                call(data)
            assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT, method
            assert "not a valid request message" in caught.value.details()


def test_health_and_reflection_list_the_game_service(channel: grpc.Channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    answer = health.Check(health_pb2.HealthCheckRequest(service=SERVICE))
    assert answer.status == health_pb2.HealthCheckResponse.SERVING
    reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
    requests = [
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol=SERVICE),
    ]
    listed, described = reflection.ServerReflectionInfo(iter(requests))
    names = {s.name for s in listed.list_services_response.service}
    assert {SERVICE, "cardroom.v1.JobService", "grpc.health.v1.Health"} <= names
    files = described.file_descriptor_response.file_descriptor_proto
    assert files and any(b"CheckGameRequest" in f for f in files)


def test_calls_are_counted_and_leave_no_traceback(
    server: Server, stub: game_pb_grpc.GameServiceStub
) -> None:
    """Run last: every call above is counted by method and code, and none of them logged a
    traceback on the server."""
    _refused(stub.GetGame, game_pb.GetGameRequest(code="nope"))
    stub.ListGames(game_pb.ListGamesRequest())
    _refused(stub.CheckGame, game_pb.CheckGameRequest(text="code = "))
    wanted = (
        'cardroom_grpc_requests_total{code="NOT_FOUND",method="GetGame"}',
        'cardroom_grpc_requests_total{code="OK",method="ListGames"}',
        'cardroom_grpc_requests_total{code="INVALID_ARGUMENT",method="CheckGame"}',
    )
    with urllib.request.urlopen(f"http://{server.metrics}/metrics", timeout=10) as response:
        lines = response.read().decode().splitlines()
    for series in wanted:
        counts = [float(line.split()[-1]) for line in lines if line.startswith(series + " ")]
        assert counts and counts[0] >= 1, series
    time.sleep(0.5)  # let the server's log catch up before reading it
    log = Path(server.log_path).read_text(errors="replace")
    assert "Traceback" not in log and "game file failed" not in log, log[-3000:]


class _Aborted(Exception):
    pass


class _Context:
    """The part of a grpc.aio.ServicerContext the handlers use."""

    def __init__(self) -> None:
        self.status: tuple[grpc.StatusCode, str] | None = None

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        self.status = (code, details)
        raise _Aborted

    def code(self) -> grpc.StatusCode | None:
        return self.status[0] if self.status else None


def test_an_engine_failure_is_internal_not_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in the game-file reader (none is known) answers INTERNAL with one line, and the
    call is counted with that code; the handler runs in process with a failing reader."""

    def broken(text: str) -> game_pb.Game:
        raise TypeError("a bug")

    monkeypatch.setattr(server_module, "checked_game", broken)
    registry = CollectorRegistry()
    metrics = ServiceMetrics(registry, list)
    context = _Context()
    check = counted(server_module.GameService().CheckGame, "CheckGame", metrics)
    with pytest.raises(_Aborted):
        asyncio.run(check(game_pb.CheckGameRequest(text=EXAMPLE), context))
    assert context.status == (
        grpc.StatusCode.INTERNAL,
        "text: the engine failed while checking this game file",
    )
    labels = {"method": "CheckGame", "code": "INTERNAL"}
    assert registry.get_sample_value("cardroom_grpc_requests_total", labels) == 1
