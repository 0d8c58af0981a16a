"""The exhaustion job (``kind = "exhaustion"``): how often games run out of cards, and which
procedure of the exhaustion rule the dealer needs — the texts' certainties, the frequency
against the reference engine, determinism over workers, the job file's errors, the API and
the rendering."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from service.api.cardroom.v1 import job_service_pb2 as pb
from service.convert import mapping_to_spec, report_to_result, result_to_report, spec_to_mapping
from service.jobfile import job_from_mapping, read_job_mapping
from service.kinds import render
from simulations.engine.game import ExhaustionRule
from simulations.models import exhaustion_kernel as k
from simulations.models.exhaustion import ExhaustionModel
from simulations.models.exhaustion_policy import (
    Family,
    keep_cards,
    parse_threshold,
    round_folds,
    start_score,
)
from simulations.models.exhaustion_reference import play_reference
from simulations.spec import SpecError
from workers.job import Job, tally_to_dict
from workers.runner import InlineRunner

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "exhaustion.toml"


def _job(**settings: Any) -> Job:
    mapping: dict[str, Any] = {"kind": "exhaustion", "hands": 4_000, "seed": 3}
    mapping.update(settings)
    return job_from_mapping(mapping)


def _report(job: Job) -> dict[str, Any]:
    return job.report(InlineRunner().run(job))


def _row(report: dict[str, Any], players: int) -> dict[str, Any]:
    row: dict[str, Any] = next(r for r in report["table"] if r["players"] == players)
    return row


def _event(row: dict[str, Any], name: str) -> dict[str, Any]:
    event: dict[str, Any] = next(e for e in row["events"] if e["event"] == name)
    return event


# -- the texts' certainties -----------------------------------------------------------------


def test_eight_handed_stud_with_nobody_folding_always_reaches_the_community_card() -> None:
    """Rules 003_6e018542f14946f8.txt, 'seven cards to eight players plus four burn cards
    makes 60 cards ... a single community card is dealt': every hand, under both stud rules,
    and once only — a community card dealt from a burn card is a community card, not also
    burns dealt again (the outcomes partition the hands)."""
    report = _report(_job(game="F7S", table={"players": 8}))
    texts = _row(report, 8)
    assert _event(texts, "community_card")["hands"] == texts["hands"] == 4_000
    assert _event(texts, "burns_reused")["hands"] == 0
    assert texts["mean_live_last_deal"] == 8.0
    # WSOP Rule 228: one stub card, 'two or fewer: scramble the stub and the burn cards,
    # burn one, and deal a community card'.
    wsop = _report(_job(game="F7S", table={"players": 8, "exhaustion": "stud-wsop"}))
    assert _event(_row(wsop, 8), "community_after_scramble")["hands"] == 4_000
    assert report["exclusive"] and texts["reached_last_deal"]["hands"] == 4_000


def test_seven_handed_stud_always_needs_exactly_the_burns() -> None:
    """Rules 003_6e018542f14946f8.txt, 'previously-dealt burn cards can be used when only a
    few cards are needed to complete the deal': seven players of seven cards and four burns
    make 53: one burn card again on seventh street, every hand, and never a community card;
    six players never run out."""
    report = _report(_job(game="F7S", table={"players": [6, 7]}))
    seven = _row(report, 7)
    assert _event(seven, "burns_reused")["hands"] == seven["hands"] == 4_000
    assert _event(seven, "community_card")["hands"] == 0
    assert _event(seven, "community_card")["ci95_high"] < 0.001
    six = _row(report, 6)
    assert [e["hands"] for e in six["events"]] == [4_000, 0, 0]
    # The engine agrees: exactly one burn card dealt again.
    table = ExhaustionModel("F7S", (7, 7)).table(7)
    for seed in range(5):
        outcome, numbers, _ = play_reference(table, seed)
        assert (outcome, numbers[0]) == (k.BURNS_REUSED, 7)


def test_a_threshold_and_a_fold_chance_thin_the_table() -> None:
    stays = _report(_job(game="F7S", table={"players": 8}))
    folds = _report(_job(game="F7S", table={"players": 8}, policy={"fold_chance": 0.1}))
    picky = _report(_job(game="F7S", table={"players": 8}, policy={"threshold": "99"}))
    live = [_row(r, 8)["mean_live_last_deal"] for r in (stays, folds, picky)]
    assert live[0] == 8.0 > live[1] > live[2] >= 1.0
    # Each round 10 % fold, four rounds before seventh street: 8 × 0.9⁴ ≈ 5.25 still in.
    assert abs(live[1] - 8 * 0.9**4) < 0.1


def test_draw_games_report_their_procedures() -> None:
    """Eight-handed draw games run the stub out; the five-consecutive rule binds only where
    a player may not draw five in a row; badugi draws four at most."""
    report = _report(_job(game="F2L3D", table={"players": 8}))
    row = _row(report, 8)
    assert [e["event"] for e in row["events"]] == [
        "reshuffled",
        "bottom_card_withheld",
        "five_consecutive",
        "five_consecutive_burn",
    ]
    assert not report["exclusive"]
    assert _event(row, "reshuffled")["frequency"] > 0.5
    assert _event(row, "five_consecutive")["hands"] > 0
    free = _report(_job(game="F2L3D", table={"players": 8, "five_consecutive": True}))
    assert _event(_row(free, 8), "five_consecutive")["hands"] == 0
    badugi = _report(_job(game="FB", table={"players": 8}))
    assert _event(_row(badugi, 8), "five_consecutive")["hands"] == 0
    assert _event(_row(badugi, 8), "reshuffled")["hands"] > 0


def test_anaconda_and_six_card_stud_never_run_out() -> None:
    anaconda = _report(_job(game="FANA", policy={"threshold": "JJ"}))
    assert anaconda["rule"] == "none" and [r["players"] for r in anaconda["table"]] == [
        *range(2, 8)
    ]
    assert all(r["events"] == [] for r in anaconda["table"])
    six = _report(_job(game="F6S", table={"players": 8, "exhaustion": "stud-texts"}))
    assert [e["hands"] for e in _row(six, 8)["events"]] == [4_000, 0, 0]


# -- the players ----------------------------------------------------------------------------


def _cards(text: str) -> np.ndarray[Any, np.dtype[np.int64]]:
    from simulations.cards import parse_cards

    return np.array([int(c) for c in parse_cards(text)], dtype=np.int64)


def _kept(text: str, family: Family, rank: str) -> str:
    from simulations.cards import format_cards
    from simulations.models.exhaustion_policy import parse_draw_rank

    cards = _cards(text)
    keep = np.empty(16, dtype=np.bool_)
    keep_cards(cards, len(cards), int(family), parse_draw_rank(rank), keep)
    return format_cards([int(c) for i, c in enumerate(cards) if keep[i]])  # type: ignore[misc]


def test_the_draw_policies() -> None:
    high = Family.DRAW_HIGH
    assert _kept("9s 9d Kc 4h 2s", high, "A") == "9s 9d"
    assert _kept("As Kd 7c 4h 2s", high, "K") == "As Kd"
    assert _kept("Qs Jd 7c 4h 2s", high, "A") == ""  # draws five
    assert _kept("5s 6d 7c 8h 9s", high, "A") == "5s 6d 7c 8h 9s"  # a straight stands pat
    assert _kept("As 2d 3c 4h 5s", high, "A") == "As 2d 3c 4h 5s"
    assert _kept("Ks 9s 7s 4s 2s", high, "A") == "Ks 9s 7s 4s 2s"
    assert _kept("7s 7d 7c Kh Ks", high, "A") == "7s 7d 7c Kh Ks"
    assert _kept("As 2d 7c 7h Ks", Family.DEUCE_TO_SEVEN, "8") == "2d 7c"  # aces high
    assert _kept("As 2d 7c 7h Ks", Family.ACE_TO_FIVE, "8") == "As 2d 7c"  # aces low
    assert _kept("Ks 9s 2c 3d", Family.BADUGI, "K") == "9s 2c 3d"
    assert _kept("As 2s 3h 4d", Family.BADUGI, "K") == "As 3h 4d"
    assert _kept("Kc 2s 3h 4d", Family.BADUGI, "T") == "2s 3h 4d"


def test_starting_hands_and_thresholds() -> None:
    assert start_score(_cards("Qs 7d 2c"), 3) == parse_threshold("Q", Family.STUD, 3, 3)
    assert start_score(_cards("Js Jd 2c"), 3) == parse_threshold("JJ", Family.STUD, 3, 3)
    assert start_score(_cards("3s 3d 3c"), 3) > start_score(_cards("As Ad Kc"), 3)
    assert start_score(_cards("As Kd Qc"), 3) < parse_threshold("22", Family.STUD, 3, 3)
    assert parse_threshold("3 cards", Family.BADUGI, 4, 4) == 3
    folds = np.empty(3, dtype=np.bool_)
    live = np.array([True, True, True])
    # Everyone would fold: the highest uniform stays, whatever the order of acting.
    u = np.array([0.01, 0.03, 0.02])
    assert round_folds(live, u, 0.5, False, np.zeros(3, np.int64), 0, folds) == 2
    assert folds.tolist() == [True, False, True]


# -- determinism ----------------------------------------------------------------------------


def _cardroom(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=REPO,
        env=env,
    )


@pytest.mark.slow
def test_one_and_two_workers_give_byte_identical_json(tmp_path: Path) -> None:
    """The same job in-process and on the embedded Ray with two CPUs: the same bytes."""
    job = tmp_path / "job.toml"
    job.write_text(
        'kind = "exhaustion"\nhands = 300_000\nseed = 11\nshard_size = 40_000\n'
        'game = "F7S"\n[table]\nplayers = [6, 8]\n[policy]\nfold_chance = 0.05\n'
    )
    outputs = {}
    for mode in (["--in-process"], ["--workers", "2"]):
        done = _cardroom("run", str(job), "--json", *mode)
        assert done.returncode == 0, done.stderr
        outputs[" ".join(mode)] = done.stdout
    assert len(set(outputs.values())) == 1, outputs
    result = json.loads(outputs["--in-process"])
    assert result["hands"] == 300_000 and [r["players"] for r in result["table"]] == [6, 7, 8]


def test_the_shards_merge_to_the_same_tally_in_any_order() -> None:
    job = _job(hands=50_000, shard_size=7_000, game="F5CD", table={"players": [7, 8]})
    shards = [job.run_shard(i) for i in range(job.plan.count)]
    forward = shards[0]
    for shard in shards[1:]:
        forward = forward.merge(shard)
    backward = shards[-1]
    for shard in reversed(shards[:-1]):
        backward = shard.merge(backward)
    assert (
        tally_to_dict(forward) == tally_to_dict(backward) == tally_to_dict(InlineRunner().run(job))
    )
    assert json.dumps(job.report(forward)) == json.dumps(job.report(backward))


# -- the job file ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "field", "words"),
    [
        ({"game": "F7S", "table": {"players": 9}}, "table.players", "2..8"),
        ({"game": "F7S", "table": {"players": [1, 8]}}, "table.players", "2..8"),
        ({"game": "FANA", "table": {"players": 8}}, "table.players", "2..7"),
        ({"game": "F7S", "table": {"players": [8, 2]}}, "table.players", "decrease"),
        ({"game": "F7S", "table": {"players": [2, 5, 8]}}, "table.players", "[first, last]"),
        ({"game": "FT"}, "game", "stud streets"),
        ({"game": "F7S/8"}, "game", "one plain ranking"),
        ({"game": "F7"}, "game", "F7S"),
        ({"game": "F7S", "table": {"exhaustion": "draw-texts"}}, "table.exhaustion", "stud-wsop"),
        ({"game": "F7S", "table": {"exhaustion": "stud-vegas"}}, "table.exhaustion", "stud-texts"),
        ({"game": "F7S", "table": {"exhaustion": "none"}}, "table.exhaustion", "deck holds"),
        ({"game": "F5CD", "table": {"exhaustion": "stud-texts"}}, "table.exhaustion", "draw-"),
        ({"game": "F7S", "table": {"deals_bottom_card": True}}, "table.deals_bottom_card", "draw"),
        ({"game": "F7S", "table": {"five_consecutive": False}}, "table.five_consecutive", "draw"),
        ({"policy": {"threshold": "AAAA"}}, "policy.threshold", "three of a kind"),
        ({"policy": {"threshold": "QK"}}, "policy.threshold", "'QK'"),
        ({"policy": {"threshold": "3 cards"}}, "policy.threshold", "'3 cards'"),
        ({"game": "F5S", "policy": {"threshold": "QQQ"}}, "policy.threshold", "2 cards"),
        (
            {"game": "FB", "policy": {"threshold": "5 cards"}},
            "policy.threshold",
            "0 to 4",
        ),
        ({"game": "F2L3D", "policy": {"threshold": "JJ"}}, "policy.threshold", "cards"),
        ({"policy": {"fold_chance": 1.5}}, "policy.fold_chance", "0..1"),
        ({"policy": {"fold_chance": "often"}}, "policy.fold_chance", "number"),
        ({"policy": {"folds": 0.1}}, "policy.folds", "(known: "),
        ({"draw": {"rank": "8"}}, "draw.rank", "no draw"),
        ({"game": "F5CD", "draw": {"rank": "Z"}}, "draw.rank", "one rank"),
        ({"game": "F5CD", "draw": {"law": [1.0]}}, "draw.law", "6 numbers"),
    ],
)
def test_bad_settings_name_the_field(settings: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(SpecError) as refused:
        _job(**settings)
    assert refused.value.field == field, refused.value
    assert words in str(refused.value), refused.value


def test_a_bad_job_file_exits_2_naming_the_field(tmp_path: Path) -> None:
    job = tmp_path / "job.toml"
    job.write_text('kind = "exhaustion"\nhands = 10\ngame = "F7S"\n[table]\nplayers = 9\n')
    done = _cardroom("run", str(job), "--in-process")
    assert done.returncode == 2
    assert done.stderr.strip() == f"cardroom: {job}: table.players: must lie in 2..8, got 9"


def test_the_defaults() -> None:
    model = _job().model
    assert isinstance(model, ExhaustionModel)
    assert (model.code, model.players, model.rule) == ("F7S", (2, 8), ExhaustionRule("stud-texts"))
    draw = _job(game="F5CD").model
    assert isinstance(draw, ExhaustionModel)
    assert (draw.rule, draw.deals_bottom_card, draw.five_consecutive) == (
        ExhaustionRule.DRAW_OTHERS_DISCARDS,
        False,
        False,
    )


# -- the API and the rendering --------------------------------------------------------------


def test_the_example_crosses_the_api_setting_for_setting() -> None:
    mapping = read_job_mapping(EXAMPLE)
    assert spec_to_mapping(mapping_to_spec(mapping)) == mapping
    job = job_from_mapping(mapping)
    assert job.model.describe().startswith("Fixed-limit seven-card stud (F7S), 2 to 8 players")


def test_one_number_of_players_crosses_the_api_as_a_list_of_one() -> None:
    mapping = {"kind": "exhaustion", "hands": 10, "game": "FB", "table": {"players": 6}}
    back = spec_to_mapping(mapping_to_spec(mapping))
    assert back["table"]["players"] == [6]
    assert job_from_mapping(back).model == job_from_mapping(mapping).model


def test_the_report_crosses_the_api_and_renders() -> None:
    job = _job(game="F5CD", table={"players": [7, 8]}, policy={"fold_chance": 0.05})
    report = _report(job)
    result = report_to_result("exhaustion", report, pb.JobResult())
    assert json.dumps(result_to_report(result, job.seed)) == json.dumps(report)
    text = render(job, report)
    assert text.startswith("Running out of cards — Fixed-limit five-card draw (F5CD)")
    for words in ("discards reshuffled", "bottom card withheld", "fifth card held back", "seed"):
        assert words in text, text
    assert len([line for line in text.splitlines() if line.startswith("        ")]) == 4


def test_the_docs_show_what_the_stud_example_prints() -> None:
    """docs/jobs.md, 'Running out of cards', and the README's example of the kind: the example
    table is the committed job's output."""
    page = (REPO / "docs" / "jobs.md").read_text(encoding="utf-8")
    section = page[page.index("## Running out of cards") :]
    shown = section.split("`examples/exhaustion.toml` (seven-card stud", 1)[1].split("```\n")[1]
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    in_readme = readme.split("[Running out of cards](docs/jobs.md#running-out-of-cards)):", 1)[1]
    job = job_from_mapping(read_job_mapping(EXAMPLE))
    printed = render(job, _report(job)) + "\n"
    assert printed.startswith("Running out of cards — Fixed-limit seven-card stud (F7S)")
    assert printed == shown
    assert printed == in_readme.split("```\n")[1]
