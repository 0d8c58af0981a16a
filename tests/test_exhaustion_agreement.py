"""The exhaustion kernel against the reference engine, hand for hand: the same seeded decks,
the same decisions, the same outcome (which procedures the dealer needed) and the same
numbers (the players still in, the stub, the cards needed and short at the last deal, the
new stubs) — and the rule arithmetic that both take from one compiled source
(simulations/rules/exhaustion_rules.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from simulations.engine import card_phases, dealer
from simulations.engine.events import Exhausted, Reshuffled
from simulations.engine.game import ExhaustionRule
from simulations.engine.variants import POKER_VARIANTS
from simulations.models import exhaustion_kernel as k
from simulations.models.exhaustion import ExhaustionModel, Table, count_events, rules_of
from simulations.models.exhaustion_games import exhaustion_games, family_of
from simulations.models.exhaustion_policy import Family
from simulations.models.exhaustion_reference import play_reference
from simulations.rules import exhaustion_rules
from simulations.rules.exhaustion_rules import (
    DRAW_ALL_DISCARDS,
    DRAW_EARLIER_ROUNDS,
    DRAW_OTHERS_DISCARDS,
    WSOP_COMMUNITY,
    WSOP_NORMAL,
    WSOP_SCRAMBLE,
    WSOP_SCRAMBLE_COMMUNITY,
    discard_returns,
    held_back,
    must_reshuffle,
    stud_shortfall,
    wsop_last_street,
)

SEED = 20_260_101


def _seeds(count: int, seed: int = SEED) -> npt.NDArray[np.uint64]:
    return np.random.default_rng(seed).integers(0, 2**64, size=count, dtype=np.uint64)


def _reference(
    table: Table, seeds: npt.NDArray[np.uint64]
) -> tuple[list[int], list[tuple[int, ...]]]:
    outcomes, numbers = [], []
    for seed in seeds:
        outcome, found, _ = play_reference(table, int(seed))
        outcomes.append(outcome)
        numbers.append(tuple(found))
    return outcomes, numbers


def _mismatches(table: Table, seeds: npt.NDArray[np.uint64]) -> list[tuple[int, Any, Any]]:
    """(index, kernel's, reference's) of every hand the two play differently: the outcome
    bits and the hand's numbers (live players, stub, cards needed and short at the last
    deal, new stubs)."""
    outcomes, stats = table.play(seeds)
    kernel = [(int(o), tuple(int(x) for x in row)) for o, row in zip(outcomes, stats, strict=True)]
    found, numbers = _reference(table, seeds)
    reference = list(zip(found, numbers, strict=True))
    return [(i, a, b) for i, (a, b) in enumerate(zip(kernel, reference, strict=True)) if a != b]


# -- the shared arithmetic ------------------------------------------------------------------


def test_the_dealer_and_the_kernel_call_the_same_rule_functions() -> None:
    for name in ("stud_shortfall", "wsop_last_street", "must_reshuffle", "discard_returns"):
        shared = getattr(exhaustion_rules, name)
        assert getattr(dealer, name) is shared and getattr(k, name) is shared, name
    # the five-consecutive rule: the hand's draw and the kernel's
    assert card_phases.held_back is exhaustion_rules.held_back is k.held_back


def test_the_rule_arithmetic_reads_the_texts() -> None:
    """Rules 003, 'Seven-card stud': eight players who all stay have one stub card and three
    earlier burns for seventh street: a community card (off the stub), no burn needed; seven
    players have six and need seven: one burn card again; one of eight folded: three in the
    stub, three burns, seven players: a community card off the stub."""
    assert stud_shortfall(0, 3, 8, 1) == (1, True)
    assert stud_shortfall(6, 3, 7, 1) == (1, False)
    assert stud_shortfall(3, 3, 7, 1) == (0, True)
    assert stud_shortfall(10, 2, 10, 1) == (0, False)
    # WSOP Rule 228, 'the players remaining plus two': eight players and one stub card
    # scramble, burn and share a card; seven and seven scramble and finish; seven and four
    # burn and share a card off the stub; ten cards for eight are enough
    assert wsop_last_street(1, 8, 3) == WSOP_SCRAMBLE_COMMUNITY
    assert wsop_last_street(7, 7, 3) == WSOP_SCRAMBLE
    assert wsop_last_street(4, 7, 3) == WSOP_COMMUNITY
    assert wsop_last_street(5, 7, 3) == WSOP_COMMUNITY  # the texts: burns dealt again
    assert wsop_last_street(10, 8, 3) == WSOP_NORMAL
    # 'the bottom card of the deck is never given as a replacement'
    assert must_reshuffle(1, False, False) and not must_reshuffle(1, True, False)
    assert not must_reshuffle(1, False, True) and must_reshuffle(0, True, True)
    # 'the earlier players' discards (but not the player's own discards!)'
    assert discard_returns(DRAW_OTHERS_DISCARDS, 0, 3, 0, 4)
    assert not discard_returns(DRAW_OTHERS_DISCARDS, 0, 4, 0, 4)
    assert discard_returns(DRAW_OTHERS_DISCARDS, 0, 4, 1, 4)
    assert not discard_returns(DRAW_EARLIER_ROUNDS, 1, 3, 1, 4)
    assert discard_returns(DRAW_ALL_DISCARDS, 1, 4, 1, 4)
    # 'he is given four of them in turn ... and then the dealer returns to that player'
    assert [held_back(c, False) for c in range(7)] == [0, 0, 0, 0, 0, 1, 2]
    assert held_back(5, True) == 0


# -- hand for hand --------------------------------------------------------------------------


def _tables() -> list[tuple[str, Table]]:
    """Every game the job deals (chosen by its capabilities) under every rule it takes, at
    its most players, with folding, a threshold, and the draw's house rules both ways."""
    found = []
    for code in exhaustion_games():
        family = family_of(POKER_VARIANTS[code].game())
        assert family is not None
        for rule in rules_of(family):
            base = ExhaustionModel(code, (2, 2), rule)
            most = base.base_game.max_players
            while True:  # without a rule, only as many as the deck serves
                try:
                    replace(base, players=(most, most))
                    break
                except ValueError:
                    most -= 1
            settings = [dict(fold_chance=0.08)]
            settings.append(dict(threshold="2 cards" if family.low else "TT", fold_chance=0.05))
            if family.draws:
                settings.append(dict(deals_bottom_card=True, five_consecutive=True))
                settings.append(dict(deals_bottom_card=True, fold_chance=0.02, draw_rank="Q"))
                drawn = 4 if family is Family.BADUGI else 5
                law = tuple([0.1] * drawn + [1 - 0.1 * drawn])
                settings.append(dict(law=law, fold_chance=0.03))
            for extra in settings:
                model = replace(base, players=(most, most), **extra)
                found.append((f"{code} {rule.value} {extra}", model.table(most)))
    return found


def test_every_game_and_rule_agrees_hand_for_hand() -> None:
    """A few hundred hands of each game under each rule and setting: the same outcome and
    the same players still in, hand for hand — and every procedure turns up somewhere."""
    seen = 0
    for label, table in _tables():
        seeds = _seeds(250)
        assert _mismatches(table, seeds) == [], label
        seen |= int(np.bitwise_or.reduce(table.play(seeds)[0]))
    every = (
        k.BURNS_REUSED,
        k.COMMUNITY_CARD,
        k.BURNS_SCRAMBLED,
        k.RESHUFFLED,
        k.BOTTOM_CARD,
        k.FIVE_CONSECUTIVE,
        k.FIVE_BURN,
    )
    assert all(seen & bit for bit in every), bin(seen)


def test_the_comparison_can_fail() -> None:
    """A kernel told another rule than the engine plays is caught hand by hand."""
    texts = ExhaustionModel("F7S", (8, 8), fold_chance=0.1).table(8)
    wsop = ExhaustionModel("F7S", (8, 8), ExhaustionRule.STUD_WSOP, fold_chance=0.1).table(8)
    wrong = Table(texts.game, 8, texts.family, 0.1, -1, 0, texts.program, wsop.settings)
    assert len(_mismatches(wrong, _seeds(200))) > 50
    reversed_ = Table(wsop.game, 8, wsop.family, 0.1, -1, 0, wsop.program, texts.settings)
    assert len(_mismatches(reversed_, _seeds(200))) > 50
    draw = ExhaustionModel("F5CD", (8, 8), ExhaustionRule.DRAW_OTHERS_DISCARDS).table(8)
    settings = draw.settings.copy()
    settings[k.S_FIVE] = 1  # the kernel deals five in a row, the engine does not
    five = Table(draw.game, 8, draw.family, 0.0, -1, draw.draw_rank, draw.program, settings)
    assert len(_mismatches(five, _seeds(200))) > 50


VOLUME = 100_000  # hands in each volume test, in BLOCKS cases (run side by side)
BLOCKS = 4


def _agree_at_volume(model: ExhaustionModel, block: int) -> dict[str, int]:
    """Block ``block`` of :data:`VOLUME` hands through the kernel and through the reference
    engine; the outcomes must agree hand for hand.  Returns how many hands needed each
    procedure."""
    table = model.table(model.players[0])
    size = VOLUME // BLOCKS
    seeds = _seeds(VOLUME)[block * size : (block + 1) * size]
    outcomes, stats = table.play(seeds)
    found, numbers = _reference(table, seeds)
    reference = np.array(found, dtype=np.int64)
    same = np.array(numbers, dtype=np.int64) == stats
    differ = np.flatnonzero((reference != outcomes) | ~same.all(axis=1))
    assert differ.size == 0, f"{differ.size} hands differ, the first {differ[:5].tolist()}"
    return dict(
        zip((e.name for e in model.events), count_events(model.rule, outcomes), strict=True)
    )


@pytest.mark.slow
@pytest.mark.parametrize("block", range(BLOCKS))
def test_eight_handed_stud_with_folding_agrees_for_100_000_hands(block: int) -> None:
    model = ExhaustionModel("F7S", (8, 8), fold_chance=0.1)
    counts = _agree_at_volume(model, block)
    # Every outcome of the rule is exercised, and none always.
    assert all(0 < c < VOLUME // BLOCKS for c in counts.values()), counts
    assert sum(counts.values()) == VOLUME // BLOCKS


@pytest.mark.slow
@pytest.mark.parametrize("block", range(BLOCKS))
def test_eight_handed_five_card_draw_agrees_for_100_000_hands(block: int) -> None:
    model = ExhaustionModel("F5CD", (8, 8), ExhaustionRule.DRAW_OTHERS_DISCARDS, fold_chance=0.1)
    counts = _agree_at_volume(model, block)
    assert all(0 < c < VOLUME // BLOCKS for c in counts.values()), counts


def test_the_reference_hand_shows_the_procedures() -> None:
    """The reference hands behind the outcome bits: eight who stay to seventh street get a
    community card and a burn dealt again; a draw that runs the stub out reshuffles."""
    stud = ExhaustionModel("F7S", (8, 8)).table(8)
    _, numbers, hand = play_reference(stud, 7)
    assert numbers == (8, 1, 8, 8, 0)  # eight in, one stub card, eight needed, all short
    assert [e for e in hand.events if isinstance(e, Exhausted)] == [
        Exhausted("seventh street", 0, 1, True)
    ]
    draw = ExhaustionModel("F2L3D", (8, 8), ExhaustionRule.DRAW_OTHERS_DISCARDS).table(8)
    outcome, _, hand = play_reference(draw, 7)
    assert outcome & k.RESHUFFLED and any(isinstance(e, Reshuffled) for e in hand.events)
