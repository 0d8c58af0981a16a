"""One registry of games, named one way: every job kind names its game by its registry code
with the top-level key ``game`` (simulations/models/job_game.py), refuses the old ``[game]``
table in one line that says what to write, and plays the games its kernel's capabilities
allow, read from each game's definition (simulations/engine/capabilities.py) rather than
from lists of codes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.convert import spec_to_mapping
from service.jobfile import JobFileError, job_from_mapping, load_job
from simulations.engine.capabilities import lacking
from simulations.engine.game import ForcedBets
from simulations.engine.limits import Limit
from simulations.engine.replay import ReplayRules
from simulations.engine.variants import GUTS_VARIANTS, POKER_VARIANTS, VARIANTS, variant
from simulations.models.exhaustion_games import EXHAUSTION_NEEDS, exhaustion_games
from simulations.models.guts import guts_lacks
from simulations.models.table_game import TABLE_NEEDS, table_lacks
from simulations.spec import SpecError

TRIALS = {"bad_beat": "hands", "rake": "hands", "exhaustion": "hands", "guts": "sessions"}
# A code each kind plays, other than its default, and the model field that keeps it.
PLAYED = {"bad_beat": "NO", "rake": "NO", "exhaustion": "F5CD", "guts": "G2"}
DEFAULTS = {"bad_beat": "NT", "rake": "NT", "exhaustion": "F7S", "guts": "G3"}


def _job(kind: str, **settings: Any) -> Any:
    return job_from_mapping({"kind": kind, TRIALS[kind]: 10, "seed": 1, **settings})


def _code(model: Any) -> str:
    return str(model.code if hasattr(model, "code") else model.game)


@pytest.mark.parametrize("kind", sorted(TRIALS))
def test_every_kind_takes_its_game_by_code(kind: str) -> None:
    assert _code(_job(kind).model) == DEFAULTS[kind]
    assert _code(_job(kind, game=PLAYED[kind]).model) == PLAYED[kind]


# The old forms, and the one line each is refused with.
OLD_FORMS = [
    ("bad_beat", {"variant": "holdem", "players": 6}, "game.variant", 'write game = "NT"'),
    ("bad_beat", {"variant": "omaha"}, "game.variant", 'write game = "NO"'),
    ("rake", {"variant": "omaha", "blinds": [1, 2]}, "game.variant", 'write game = "NO"'),
    ("exhaustion", {"code": "F5CD", "players": [5, 8]}, "game.code", 'write game = "F5CD"'),
    ("guts", {"code": "G3-CAP50", "max_deals": 9}, "game.code", 'write game = "G3-CAP50"'),
    ("guts", {"players": 4}, "game", 'write game = "G3"'),
]


@pytest.mark.parametrize(("kind", "old", "field", "says"), OLD_FORMS)
def test_the_old_game_table_is_refused_with_the_new_key(
    kind: str, old: dict[str, Any], field: str, says: str
) -> None:
    with pytest.raises(SpecError) as refused:
        _job(kind, game=old)
    message = str(refused.value)
    assert refused.value.field == field and says in message, message
    moved = [key for key in old if key not in ("variant", "code")]
    if moved:
        assert f"{', '.join(moved)} under [table]" in message, message
    assert "\n" not in message


def test_a_job_file_with_the_old_form_fails_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "job.toml"
    path.write_text('kind = "bad_beat"\nhands = 10\n[game]\nvariant = "holdem"\nplayers = 9\n')
    with pytest.raises(JobFileError) as refused:
        load_job(path)
    assert str(refused.value).endswith(
        'game.variant: is no longer read: write game = "NT", and players under [table]'
    )


@pytest.mark.parametrize(
    ("kind", "wrong", "near"), [("bad_beat", "nt", "NT"), ("guts", "G33", "G3")]
)
def test_an_unknown_code_is_refused_with_the_nearest(kind: str, wrong: str, near: str) -> None:
    with pytest.raises(SpecError) as refused:
        _job(kind, game=wrong)
    assert refused.value.field == "game"
    assert "is not a game code" in str(refused.value) and near in refused.value.problem


@pytest.mark.parametrize(
    ("kind", "code", "missing"),
    [
        ("bad_beat", "FT", "no-limit betting"),
        ("rake", "PO", "no-limit betting"),
        ("bad_beat", "F7S", "hold'em's streets"),
        ("rake", "G2", "a poker game"),
        ("exhaustion", "NT", "plain stud streets"),
        ("exhaustion", "FR", "one plain ranking"),
        ("exhaustion", "FCL", "the 52-card deck"),
        ("guts", "NT", "a guts game"),
    ],
)
def test_a_game_the_kernel_cannot_play_names_what_it_lacks(
    kind: str, code: str, missing: str
) -> None:
    with pytest.raises(SpecError) as refused:
        _job(kind, game=code)
    assert refused.value.field == "game"
    assert code in refused.value.problem and missing in refused.value.problem


# --- the capabilities pick the games the old lists named -------------------------------------

# simulations/models/bad_beat.py and table.py: VARIANTS = ("holdem", "omaha"), the table's
# game built as holdem(Limit.NO) or omaha(Limit.NO).  "omaha" was no registry game: NO is
# its game file, Rules 002_376df91f076a6501.txt, 'Omaha hold 'em': "Omaha can be played
# fixed limit, pot limit (where it is often called "PLO") or no limit".
OLD_TABLE = {"holdem": "NT", "omaha": "NO"}
# simulations/models/exhaustion.py: GAMES, the eight codes of the job as it was.
OLD_EXHAUSTION = ("F7S", "F5S", "F6S", "F5CD", "F2L3D", "FA5L3D", "FB", "FANA")
# The games the capabilities add, each dealt only by the phases the dealer deals, and why the
# texts' exhaustion procedure is theirs.
EXHAUSTION_ADDED = {
    # Stud games of plain down and up cards, one high pot; each file gives exhaustion =
    # "stud-texts": Rules 003_6e018542f14946f8.txt, 'Seven-card stud', "seven cards to eight
    # players plus four burn cards makes 60 cards, and there are only 52 in the deck".
    "FMS": "stud",
    # (FANA-AFTER bets first after a pass; FCROC, FBUF and FMUR cap which cards play.
    # N2L1D and FA5L1D, single draws, and PALL and PZAN, pot-limit stud, deal the same
    # shapes but are refused: their hands disagreed with the reference player's, or its
    # fixed limits are not theirs.)
    # Anaconda's other forms: Rules 000_1a86611de8d3f5f7.txt, 'Anaconda' (seven cards each,
    # then passes); a pass takes no card from the stub, so the deal is FANA's.
    "FANA321": "pass",
}
# The guts job took any registered guts game (GUTS_VARIANTS) as it does now.
OLD_GUTS = (
    "G2",
    "G2-SF",
    "G3",
    "G3-POKER",
    "G3-DEALER",
    "G3-CHALLENGE",
    "G3-WORST",
    "G3-VICIOUS",
    "G3-CAP50",
)
# The batch replay kernel's games before its refusal list became capabilities: hold'em
# with any betting structure, and the draw games whose betting it plays.
OLD_REPLAY = ("NT", "FT", "PT", "ST")
OLD_REPLAY_DRAW = ("F5CD", "N2L1D", "F2L3D", "FA5L1D", "FA5L3D", "FCL", "FA6L1D", "FB", "FCL2D")


def test_the_table_deals_the_old_variants_games() -> None:
    picked = [code for code, found in VARIANTS.items() if not table_lacks(found)]
    assert sorted(picked) == sorted(OLD_TABLE.values())


def test_the_exhaustion_job_deals_the_old_games_and_those_its_shape_adds() -> None:
    picked = exhaustion_games()
    assert set(OLD_EXHAUSTION) <= set(picked)
    assert sorted(set(picked) - set(OLD_EXHAUSTION)) == sorted(EXHAUSTION_ADDED)


def test_the_guts_job_plays_every_guts_game() -> None:
    picked = [code for code, found in VARIANTS.items() if not guts_lacks(found)]
    assert picked == list(OLD_GUTS) == list(GUTS_VARIANTS)


def _replays(code: str, draw: bool) -> bool:
    game = POKER_VARIANTS[code].game()
    try:
        (ReplayRules.from_draw_game if draw else ReplayRules.from_game)(game)
    except ValueError:
        return False
    return True


def test_the_replay_kernel_plays_the_games_it_played() -> None:
    assert [code for code in POKER_VARIANTS if _replays(code, False)] == list(OLD_REPLAY)
    assert [code for code in POKER_VARIANTS if _replays(code, True)] == list(OLD_REPLAY_DRAW)


def test_each_need_refuses_a_game_that_lacks_only_it() -> None:
    """Every capability is read from the definition: one change to NT is refused by exactly
    the need it breaks (the selection can fail, one need at a time)."""
    nt = variant("NT").game()
    assert lacking(nt, TABLE_NEEDS) == []
    assert lacking(replace(nt, limit=Limit.POT), TABLE_NEEDS) == ["no-limit betting"]
    antes = replace(nt, forced=ForcedBets(ante=1, blinds=(1, 2)))
    assert lacking(antes, TABLE_NEEDS) == [
        "two blinds and no other forced bet (the job sets the blinds)"
    ]
    assert lacking(replace(nt, max_players=6), TABLE_NEEDS) == []
    assert lacking(variant("F7S").game(), EXHAUSTION_NEEDS) == []
    # Razz deals as seven-card stud does, but its low hand is no reading of the players'.
    assert lacking(variant("FR").game(), EXHAUSTION_NEEDS) == [
        "one pot to one plain ranking the players read (high; a draw game's deuce-to-seven, "
        "ace-to-five or badugi)",
    ]


def test_an_old_client_setting_the_game_message_is_refused() -> None:
    """Field 1 of a kind's message was the game as a message; its number is reserved, and a
    spec from an older client that still sets it is refused, not run with the default game."""
    old_game = b"\x0a\x05omaha\x10\x06"  # variant = "omaha", players = 6
    spec = pb.JobSpec(trials=10)
    spec.bad_beat.MergeFromString(b"\x0a" + bytes([len(old_game)]) + old_game)
    with pytest.raises(SpecError) as refused:
        spec_to_mapping(spec)
    assert refused.value.field == "game" and "field 1" in refused.value.problem
    current = pb.JobSpec(trials=10)
    current.bad_beat.game = "NO"
    current.bad_beat.table.players = 6
    mapping = spec_to_mapping(current)
    assert mapping["game"] == "NO" and mapping["table"] == {"players": 6}
    assert _job("bad_beat", game=mapping["game"], table=mapping["table"]).model.players == 6
