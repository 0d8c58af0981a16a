"""The economics kernel's shortcuts against the direct computations they stand for: an Omaha
seat's value carried from street to street over the board's new three-card choices against
every two-and-three choice evaluated afresh (Rules 002_376df91f076a6501.txt, 'Omaha hold 'em':
'exactly three of the five cards on the board, plus exactly two of his own cards'), and a
job's batches, which keep no seat's chips in the pot, against the same hands played whole."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from simulations.evaluators.hand_value import Category
from simulations.evaluators.high import TABLES, evaluate_high, rank_classes
from simulations.evaluators.omaha import OMAHA_TABLES
from simulations.models.players import SeatModel
from simulations.models.table import DropRule, RakePolicy, RakeRule, Table
from simulations.models.table_eval import (
    STREET_TRIPLES,
    board_key,
    holdem_value,
    omaha_best,
    omaha_pairs,
    omaha_value,
    street_triples,
)
from simulations.models.table_tally import simulate_table, tally_hands

DEALS = 4_000


def test_an_omaha_value_carried_over_the_streets_is_the_value_evaluated_afresh() -> None:
    t = OMAHA_TABLES
    rng = np.random.default_rng(41)
    pairs = np.empty((1, 6, 3), dtype=np.int64)
    triples = np.empty((10, 3), dtype=np.int64)
    flushes = 0
    for _ in range(DEALS):
        cards = rng.permutation(52)[:9].astype(np.int64)
        holes, board = cards[:4].reshape(1, 4), cards[4:]
        omaha_pairs(holes, 0, t.pair_class, pairs)
        street_triples(board, t.triple_class, triples)
        carried = 0
        low = 0
        for street, shown in enumerate((3, 4, 5)):
            high = STREET_TRIPLES[street]
            afresh = omaha_value(
                holes, 0, board, shown, t.pair_class, t.triple_class, t.values, t.flush_values
            )
            carried = omaha_best(pairs, 0, triples, low, high, carried, t.values, t.flush_values)
            from_nothing = omaha_best(pairs, 0, triples, 0, high, 0, t.values, t.flush_values)
            assert carried == afresh == from_nothing
            flushes += afresh >> 20 in (Category.FLUSH, Category.STRAIGHT_FLUSH)
            low = high
    assert flushes > 0  # the flush table's path was taken


def test_a_holdem_value_through_the_rank_classes_is_the_evaluators_value() -> None:
    classes = rank_classes()
    assert classes.classes.dtype == np.uint16 and len(classes.values) < 1 << 16
    rng = np.random.default_rng(43)
    flushes = 0
    for _ in range(DEALS):
        cards = rng.permutation(52)[:7].astype(np.int64)
        holes, board = cards[:2].reshape(1, 2), cards[2:]
        for shown in (3, 4, 5):
            key = board_key(board, shown, TABLES.card_keys)
            value = holdem_value(
                holes, 0, board, shown, key, TABLES.card_keys, TABLES.flush_values,
                TABLES.row_offsets, classes.classes, classes.values,
            )  # fmt: skip
            assert value == evaluate_high([*cards[:2], *board[:shown]]).value
            flushes += value >> 20 in (Category.FLUSH, Category.STRAIGHT_FLUSH)
    assert flushes > 0  # the flush table's path was taken


def test_a_jobs_batches_tally_as_the_hands_played_whole() -> None:
    house = RakePolicy(
        "10 % capped at 3", RakeRule(Fraction(1, 10), caps=((2, 3),)), DropRule(1, 20)
    )
    table = Table(
        "NT",
        6,
        (1, 2),
        (SeatModel("a", 2, 0.3), SeatModel("b", None, 0.5, chance=0.4)),
        (house, RakePolicy("1 per 10", RakeRule(increment=10, per_increment=1))),
    )
    count = 5_000
    seeds = np.random.default_rng(3).integers(0, 2**64, size=count, dtype=np.uint64)
    whole = table.play(seeds)
    assert whole.contributed.shape == (count, 6)
    assert int(whole.contributed.sum()) == int(whole.pots.sum())  # every chip was kept
    batched = simulate_table(table, count, np.random.default_rng(3))
    assert batched == tally_hands(table, whole, count)
    assert batched.pot_total == int(whole.pots.sum()) > 0
    assert batched.policies[0].capped > 0  # the cut to the cap was counted
