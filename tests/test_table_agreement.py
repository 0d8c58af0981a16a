"""The economics kernel against the reference engine, hand for hand: the same seeded decks,
the same decisions, the same outcome — every seat's net, the rake, the drop, the flop and the
showdown, the pot, and the bad-beat verdict at every level of the schedule with the seats of
its roles — and, with every seat to the river, the classic bad-beat kernel's verdicts.

Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot' ('a sufficiently strong hand is shown down
and loses to an even stronger hand'), Rules 003_6e018542f14946f8.txt ('taking a percentage of
the pots as their rake')."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest

from simulations.engine.game import RakeRounding
from simulations.evaluators.floors import hand_floor
from simulations.models import players as player_models
from simulations.models import starting_hands, table_kernel, table_reference
from simulations.models.bad_beat import count_jackpots
from simulations.models.players import EVERY_RIVER, SeatModel
from simulations.models.table import Conditions, DropRule, Jackpot, RakePolicy, RakeRule, Table
from simulations.models.table_kernel import CONDITIONS_MET, FLOPPED, SHOWDOWN, awards
from simulations.models.table_reference import Reference
from simulations.rules import rake_rules, settle
from simulations.rules.jackpot import BadBeatRules

SEED = 20_260_201
HOUSE = RakePolicy(
    "10 % capped",
    RakeRule(Fraction(1, 10), caps=((2, 2), (3, 4), (5, 6)), rounding=RakeRounding.HALF_EVEN),
    DropRule(1, 20),
)
KINDS = (
    SeatModel("tight", 3, 0.16, "pair", river="two pair", chance=0.05, bet=0.75, open=3.0),
    SeatModel("loose", None, 0.45, "pair", chance=0.35, bet=0.5, open=2.5),
)


def _seeds(count: int, seed: int = SEED) -> npt.NDArray[np.uint64]:
    return np.random.default_rng(seed).integers(0, 2**64, size=count, dtype=np.uint64)


def _table(variant: str, players: int, rules: BadBeatRules, floors: tuple[str, ...]) -> Table:
    return Table(
        variant,
        players,
        (1, 2),
        KINDS,
        (HOUSE,),
        Jackpot(rules, tuple(hand_floor(f) for f in floors), Conditions(min_players=2, min_pot=12)),
    )


def _mismatches(table: Table, seeds: npt.NDArray[np.uint64]) -> tuple[list[int], int, int]:
    """The hands the kernel and the engine end differently, the jackpot hits seen, and the
    showdowns."""
    hands = table.play(seeds)
    reference = Reference(table, HOUSE)
    n = table.players
    out = np.empty(n, dtype=np.int64)
    bad, hits, showdowns = [], 0, 0
    for i, seed in enumerate(seeds):
        played = reference.play(int(seed))
        kept = int(hands.pots[i] - hands.rakes[i, 0] - hands.drops[i, 0])
        awards(kept, int(hands.masks[i, 3]), int(hands.button[i]), n, out)
        kernel = (
            tuple(int(out[s] - hands.contributed[i, s]) for s in range(n)),
            int(hands.rakes[i, 0]),
            int(hands.drops[i, 0]),
            bool(hands.flags[i] & FLOPPED),
            bool(hands.flags[i] & SHOWDOWN),
            int(hands.pots[i]),
            int(hands.card_level[i]),
            int(hands.qualified_level[i]),
        )
        engine = (
            played.payoffs,
            played.rake,
            played.drop,
            played.flopped,
            played.showdown,
            played.pot,
            played.level,
            played.qualified if hands.flags[i] & CONDITIONS_MET else -1,
        )
        if kernel == engine and played.level >= 0:
            hits += 1
            roles = tuple(tuple(int(x) for x in row) for row in hands.roles[i])
            if roles != played.roles:
                bad.append(i)
        elif kernel != engine:
            bad.append(i)
        showdowns += played.showdown
    return bad, hits, showdowns


def test_the_kernel_and_the_reference_player_share_the_decisions_and_the_arithmetic() -> None:
    assert table_kernel.plays is starting_hands.plays is table_reference.plays
    assert table_kernel.continues is player_models.continues is table_reference.continues
    assert table_kernel.bet_size is player_models.bet_size is table_reference.bet_size
    assert table_kernel.award_clockwise is settle.award_clockwise
    assert table_kernel.uncalled_bet is settle.uncalled_bet
    for name in ("rake_amount", "drop_amount", "house_take", "applicable_cap"):
        assert getattr(table_kernel, name) is getattr(rake_rules, name), name


@pytest.mark.slow
def test_a_hundred_thousand_holdem_hands_end_alike() -> None:
    """Six-handed no-limit hold'em, three tight and three loose seats, a 10 % rake rounded half
    to even and capped by the players dealt in, a drop of 1 from pots of 20; the jackpot
    judged at three levels (quads, aces full of kings, any full house) with one hole card
    playing and four of a kind from a pocket pair, on pots of 12 or more."""
    rules = BadBeatRules("full house", hole_cards_play=1, quads_need_pocket_pair=True)
    table = _table("NT", 6, rules, ("quads", "AAAKK", "full house"))
    bad, hits, showdowns = _mismatches(table, _seeds(100_000))
    assert not bad, bad[:10]
    assert hits > 300 and showdowns > 20_000


def test_omaha_hands_end_alike() -> None:
    """Omaha: exactly two hole cards play; the quads' rank in both hole cards, and no full
    house whose three of a kind is all on the board."""
    rules = BadBeatRules("full house", quads_need_pocket_pair=True, board_trips_full_house=False)
    table = _table("NO", 6, rules, ("quads", "AAAKK", "full house"))
    bad, hits, showdowns = _mismatches(table, _seeds(4_000, SEED + 1))
    assert not bad, bad[:10]
    assert hits > 20 and showdowns > 1_000


def test_omaha_bands_end_alike() -> None:
    """Rules 000, 'Bad beat jackpot': 'the losing hand may be required to be four-of-a-kind':
    Omaha with the losing hand a band (a full house up to four of a kind, at every level) and
    the winning hand at most four of a kind — the kernel and the engine judge the same hits,
    the same roles and the same strictest level showing a qualifying losing hand."""
    rules = BadBeatRules(
        "full house", max_losing_hand="quads", max_winning_hand="quads", quads_need_pocket_pair=True
    )
    table = _table("NO", 6, rules, ("quads", "AAAKK", "full house"))
    bad, hits, _ = _mismatches(table, _seeds(4_000, SEED + 4))
    assert not bad, bad[:10]
    assert hits > 20


def test_hands_at_the_river_count_when_no_showdown_is_required() -> None:
    """'Hand must go to showdown' switched off: the hands still in when the river was dealt
    are judged, a hand folded to a river bet too (here two pair, folded by seats that call a
    river bet only with a straight or better)."""
    rules = BadBeatRules("two pair", hole_cards_play=0)
    kinds = (SeatModel("river-shy", None, 0.4, "pair", river="straight", chance=0.1),)
    floors = (hand_floor("full house"), hand_floor("two pair"))
    hits = {}
    for required in (True, False):
        table = Table(
            "NT",
            6,
            (1, 2),
            kinds,
            (HOUSE,),
            Jackpot(rules, floors, Conditions(showdown_required=required)),
        )
        bad, hits[required], _ = _mismatches(table, _seeds(3_000, SEED + 2))
        assert not bad, bad[:10]
    assert hits[False] > hits[True] > 0


@pytest.mark.parametrize(
    "rules",
    [
        BadBeatRules(),
        BadBeatRules("full house", hole_cards_play=2, quads_need_pocket_pair=True),
        BadBeatRules("full house", hole_cards_play=1, board_trips_full_house=False),
        BadBeatRules("TTT22", hole_cards_play=0, min_winning_hand="quads"),
        BadBeatRules("flush", hole_cards_play=1),
    ],
    ids=["default", "fh-2-pocket", "fh-1-noboardtrips", "ttt22-0-winquads", "flush-1"],
)
def test_every_seat_to_the_river_gives_the_classic_verdicts(rules: BadBeatRules) -> None:
    """With every seat to the river and no conditions, the table judges each hand as the
    classic bad-beat kernel does on the same cards (its verdict at its one level)."""
    players = 10
    table = Table(
        "NT",
        players,
        (1, 2),
        (replace(EVERY_RIVER, seats=players),),
        (),
        Jackpot(rules, (rules.losing_floor,), Conditions(flop_seen=False)),
    )
    seeds = _seeds(20_000, SEED + 3)
    verdicts = table.play(seeds).hit_level >= 0
    dealt = np.empty((len(seeds), 5 + 2 * players), dtype=np.int8)
    deck = np.empty(52, dtype=np.int64)
    uniforms = np.empty((4, players))
    holes = np.empty((players, 2), dtype=np.int64)
    board = np.empty(5, dtype=np.int64)
    for i, seed in enumerate(seeds):
        button = table_kernel.hand_draws(seed, players, 2, deck, uniforms)
        table_kernel.seat_cards(deck, players, 2, button, holes, board)
        dealt[i, :5] = board
        dealt[i, 5:] = holes.reshape(-1)
    classic = np.empty(len(seeds), dtype=np.bool_)
    count_jackpots(dealt, players, rules, flags=classic)
    assert np.array_equal(verdicts, classic)
    if rules != BadBeatRules():
        assert classic.any()
