"""The exhaustion job's statistics against exact values worked out here from the rule texts —
plain arithmetic over the numbers of players still in (a Markov chain of folds) for stud, and
an enumeration of every player's draw count under a draw-count law for five-card draw — not
against the kernel or the reference engine.  Each simulated share must lie within four
standard errors of its exact value (|z| < 4), on a fixed seed."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from typing import Any

import pytest

from service.jobfile import job_from_mapping
from simulations.engine.game import ExhaustionRule
from simulations.models.exhaustion import ExhaustionModel
from simulations.spec import SpecError
from workers.job import Job
from workers.runner import InlineRunner

Z = 4.0  # a simulated share further than this many standard errors from exact fails


def _report(model: ExhaustionModel, hands: int, seed: int) -> dict[str, Any]:
    job = Job(model, hands, seed, hands)
    report: dict[str, Any] = job.report(InlineRunner().run(job))
    return report


def _row(report: dict[str, Any], players: int) -> dict[str, Any]:
    row: dict[str, Any] = next(r for r in report["table"] if r["players"] == players)
    return row


def _events(row: dict[str, Any]) -> dict[str, int]:
    return {e["event"]: e["hands"] for e in row["events"]}


def _z(hits: int, hands: int, exact: float) -> float:
    """How many standard errors ``hits`` in ``hands`` lies from the exact chance."""
    if exact in (0.0, 1.0):
        return 0.0 if hits == exact * hands else math.inf
    return (hits - hands * exact) / math.sqrt(hands * exact * (1 - exact))


def _histogram(report: dict[str, Any]) -> dict[int, int]:
    return {h["value"]: h["count"] for h in report["histogram"]}


# -- seven-card stud ------------------------------------------------------------------------

BURNS = 3  # fourth, fifth and sixth street's burn cards, before seventh street


def _stud_texts(stub: int, live: int) -> str:
    """Rules 003, 'Seven-card stud', seventh street for ``live`` players with ``stub`` cards
    left before its burn: the stub; else 'previously-dealt burn cards can be used'; 'If even
    those are not sufficient ... a single community card is dealt'."""
    after_burn = stub - 1
    if live <= after_burn:
        return "dealt_normally"
    if live <= after_burn + BURNS:
        return "burns_reused"
    return "community_card"


def _stud_wsop(stub: int, live: int) -> str:
    """WSOP Rule 228 as the note paraphrases it: 'counts the players remaining plus two'."""
    wanted = live + 2
    if stub >= wanted:
        return "dealt_normally"
    if stub + BURNS >= wanted:
        return "burns_scrambled"
    if stub > 2:
        return "community_from_stub"
    return "community_after_scramble"


def _stud_exact(players: int, fold: float, rule: str) -> tuple[dict[str, float], dict[int, float]]:
    """The exact chance of each outcome, and the law of the players still in at seventh
    street (one for a hand won before it): each live player folds on each of the four rounds
    before seventh street with chance ``fold``, the last one staying should all fold.  The
    stub then is 52 less third street's three cards a player, a card to each player still in
    on fourth, fifth and sixth street, and their three burn cards."""
    decide = _stud_texts if rule == "stud-texts" else _stud_wsop

    def step(live: int) -> dict[int, float]:
        out: dict[int, float] = {}
        for stay in range(live + 1):
            chance = math.comb(live, stay) * (1 - fold) ** stay * fold ** (live - stay)
            out[max(stay, 1)] = out.get(max(stay, 1), 0.0) + chance
        return out

    paths: dict[tuple[int, ...], float] = {(players,): 1.0}
    for _ in range(4):
        grown: dict[tuple[int, ...], float] = {}
        for path, chance in paths.items():
            nexts = {1: 1.0} if path[-1] == 1 else step(path[-1])
            for nxt, p in nexts.items():
                grown[(*path, nxt)] = grown.get((*path, nxt), 0.0) + chance * p
        paths = grown
    outcomes: dict[str, float] = Counter()
    live_law: dict[int, float] = Counter()
    for path, chance in paths.items():
        live = path[4]
        live_law[live] += chance
        if live == 1:
            outcomes["dealt_normally"] += chance  # won before seventh street
            continue
        stub = 52 - 3 * players - sum(path[1:4]) - BURNS
        outcomes[decide(stub, live)] += chance
    return dict(outcomes), dict(live_law)


@pytest.mark.parametrize("rule", ["stud-texts", "stud-wsop"])
def test_stud_where_everyone_stays_has_one_certain_outcome_per_player_count(rule: str) -> None:
    """Rules 003_6e018542f14946f8.txt, 'seven cards to eight players plus four burn cards
    makes 60 cards, and there are only 52 in the deck': with nobody folding the stub at
    seventh street is 52 - 6n - 3, so each number of players has exactly one outcome, and
    the shares sum to 1 exactly."""
    report = _report(ExhaustionModel("F7S", (2, 8), ExhaustionRule(rule)), 3_000, 1)
    decide = _stud_texts if rule == "stud-texts" else _stud_wsop
    for players in range(2, 9):
        row = _row(report, players)
        expected = decide(52 - 6 * players - BURNS, players)
        events = _events(row)
        assert events[expected] == row["hands"] == 3_000, (players, events)
        assert sum(events.values()) == row["hands"]
        assert sum(e["frequency"] for e in row["events"]) == 1.0
        assert row["reached_last_deal"]["hands"] == 3_000
        assert _histogram(row["live_last_deal"]) == {players: 3_000}
        assert _histogram(row["stub_last_deal"]) == {52 - 6 * players - BURNS: 3_000}
    # the texts: seven players need one burn card again, eight a community card
    assert _stud_texts(52 - 42 - 3, 7) == "burns_reused"
    assert _stud_texts(52 - 48 - 3, 8) == "community_card"
    # Rule 228: seven players scramble and finish; eight scramble, burn and share a card
    assert _stud_wsop(52 - 42 - 3, 7) == "burns_scrambled"
    assert _stud_wsop(52 - 48 - 3, 8) == "community_after_scramble"


@pytest.mark.parametrize("rule", ["stud-texts", "stud-wsop"])
def test_stud_with_folding_matches_the_exact_chain(rule: str) -> None:
    """Rules 003_6e018542f14946f8.txt, 'In most games this is not a problem because several
    players will have folded in early betting rounds': eight players folding 8 % a round —
    each outcome's share, the share reaching seventh street and the whole law of the players
    still in then lie within four standard errors of the exact chain; the outcomes partition
    the hands (WSOP Rule 228's four ways included)."""
    hands = 200_000
    report = _report(
        ExhaustionModel("F7S", (8, 8), ExhaustionRule(rule), fold_chance=0.08), hands, 7
    )
    row = _row(report, 8)
    outcomes, live_law = _stud_exact(8, 0.08, rule)
    events = _events(row)
    assert sum(events.values()) == hands
    assert set(events) == set(outcomes) | {"dealt_normally"}
    for name, hits in events.items():
        assert abs(_z(hits, hands, outcomes.get(name, 0.0))) < Z, (name, hits, outcomes)
    reached = 1.0 - live_law.get(1, 0.0)
    assert abs(_z(row["reached_last_deal"]["hands"], hands, reached)) < Z
    live = _histogram(row["live_last_deal"])
    for value, chance in live_law.items():
        assert abs(_z(live.get(value, 0), hands, chance)) < Z, (value, live, live_law)
    mean = sum(v * c for v, c in live_law.items())
    assert row["live_last_deal"]["mean_ci95_low"] - 0.01 < mean
    assert mean < row["live_last_deal"]["mean_ci95_high"] + 0.01
    # the comparison can fail: the chain of another fold chance is far outside
    other, _ = _stud_exact(8, 0.12, rule)
    assert any(abs(_z(hits, hands, other.get(name, 0.0))) > Z for name, hits in events.items())


def test_rule_228_deals_a_community_card_where_the_stub_and_burns_are_one_short() -> None:
    """WSOP Live-Action Rules (2024), Rule 228: 'if the stub plus the three burn
    cards is enough, scramble ...; If not, and the stub has more than two cards: burn and
    deal a community card' — with eight players folding, Rule 228 deals some community cards
    off the stub without a scramble, which the texts' rule would have dealt from the burns."""
    report = _report(
        ExhaustionModel("F7S", (8, 8), ExhaustionRule.STUD_WSOP, fold_chance=0.08), 50_000, 3
    )
    events = _events(_row(report, 8))
    assert events["community_from_stub"] > 0 and events["community_after_scramble"] > 0
    # the case itself: seven players, a stub of five: five is short of nine, eight too
    assert _stud_wsop(5, 7) == "community_from_stub" and _stud_texts(5, 7) == "burns_reused"


# -- five-card draw under a draw-count law ---------------------------------------------------

LAW = (0.15, 0.15, 0.2, 0.2, 0.1, 0.2)


def _draw_exact(players: int, law: tuple[float, ...]) -> dict[str, Any]:
    """Five-card draw, every player in, one draw: enumerate every player's count (seat 0,
    on the dealer's left, first) and deal the stub as Rules 003_6e018542f14946f8.txt says —
    a burn card; 'he is given four of them in turn, the other players are given their
    draws, and then the dealer returns to that player ... (if no later player drew, it is
    necessary to deal a burn card first)'; 'the bottom card of the deck is never given as a
    replacement': with only it left, 'shuffles together the bottom card of the deck, the
    burn card, and the earlier players' discards (but not the player's own discards!)'.
    Returns the chance of each event and the laws of the cards asked and of new stubs."""
    found: dict[str, float] = Counter()
    asked: dict[int, float] = Counter()
    stubs: dict[int, float] = Counter()
    short: dict[int, float] = Counter()
    start = 52 - 5 * players
    for counts in itertools.product(range(len(law)), repeat=players):
        chance = math.prod(law[c] for c in counts)
        stub, burns, rebuilt, new_stubs = start - 1, 1, False, 0
        discarded = 0  # earlier players' discards, not yet back in a stub
        after_bottom = -1
        five_burn = False

        def deal(own: int) -> None:
            nonlocal stub, burns, rebuilt, new_stubs, discarded, after_bottom
            if stub == 0 or (stub == 1 and not rebuilt):
                if stub == 1 and not rebuilt:
                    after_bottom = 0
                stub, burns, discarded = stub + burns + discarded - own, 0, own
                rebuilt, new_stubs = True, new_stubs + 1
            stub -= 1
            if after_bottom >= 0:
                after_bottom += 1

        owed: list[tuple[int, int]] = []
        last = -1
        for seat, count in enumerate(counts):
            discarded += count
            now = min(count, 4)
            if count == 5:
                owed.append((seat, 1))
            for _ in range(now):
                deal(count)
            if now:
                last = seat
        for seat, count in owed:
            if last == seat and stub > 0:
                stub, burns, five_burn = stub - 1, burns + 1, True
            for _ in range(count):
                deal(0)
            last = seat
        total = sum(counts)
        found["reshuffled"] += chance if new_stubs else 0.0
        found["bottom_card_withheld"] += chance if after_bottom == 1 else 0.0
        found["five_consecutive"] += chance if 5 in counts else 0.0
        found["five_consecutive_burn"] += chance if five_burn else 0.0
        found["bottom_card_reached"] += chance if after_bottom >= 0 else 0.0
        asked[total] += chance
        stubs[new_stubs] += chance
        short[max(0, total - (start - 2))] += chance
    return {"events": dict(found), "asked": dict(asked), "stubs": dict(stubs), "short": dict(short)}


def test_five_card_draw_with_a_law_matches_the_enumeration() -> None:
    """Rules 003_6e018542f14946f8.txt, 'Five-card draw': 'If the deck stub is depleted during
    the draw', 'the bottom card of the deck is never given as a replacement' and 'a player is
    not allowed to draw five consecutive cards' — seven players drawing by a law: the share
    of hands reshuffled, of new stubs caused by withholding the bottom card, of fifth cards
    held back and of the burn card before one, and the whole laws of the cards asked, the
    cards short and the new stubs, each within four standard errors of the enumeration."""
    hands = 200_000
    model = ExhaustionModel("F5CD", (7, 7), ExhaustionRule.DRAW_OTHERS_DISCARDS, law=LAW)
    row = _row(_report(model, hands, 11), 7)
    exact = _draw_exact(7, LAW)
    events = _events(row)
    for name in ("reshuffled", "bottom_card_withheld", "five_consecutive", "five_consecutive_burn"):
        chance = exact["events"][name]
        assert 0.0 < chance < 1.0, name
        assert abs(_z(events[name], hands, chance)) < Z, (name, events[name] / hands, chance)
    # the test can fail: every new stub made with the bottom card left is a different count
    reached = exact["events"]["bottom_card_reached"]
    assert abs(_z(events["bottom_card_withheld"], hands, reached)) > Z
    for key, law in (
        ("cards_needed_last_deal", exact["asked"]),
        ("new_stubs", exact["stubs"]),
        ("cards_short_last_deal", exact["short"]),
    ):
        seen = _histogram(row[key])
        assert set(seen) <= set(law), key
        for value, chance in law.items():
            assert abs(_z(seen.get(value, 0), hands, chance)) < Z, (key, value)
    assert _histogram(row["stub_last_deal"]) == {52 - 35: hands}


def test_the_bottom_card_never_withheld_when_it_is_dealt() -> None:
    """Rules 003_6e018542f14946f8.txt, 'Another common house rule is that the bottom card of
    the deck is never given as a replacement': without the house rule no new stub is caused
    by it, and one fewer hand needs a new stub than the enumeration with it gives."""
    model = ExhaustionModel(
        "F5CD", (7, 7), ExhaustionRule.DRAW_OTHERS_DISCARDS, deals_bottom_card=True, law=LAW
    )
    row = _row(_report(model, 20_000, 5), 7)
    assert _events(row)["bottom_card_withheld"] == 0
    with_rule = _draw_exact(7, LAW)["events"]
    without = with_rule["reshuffled"] - with_rule["bottom_card_withheld"]
    assert abs(_z(_events(row)["reshuffled"], 20_000, without)) < Z


# -- the job file ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("law", "words"),
    [
        ([0.5, 0.5], "0 to 5 cards: 6 numbers, got 2"),
        ([0.2, 0.2, 0.2, 0.2, 0.2, 0.1], "sum to 1"),
        ([1.2, -0.2, 0, 0, 0, 0], "drawing 1 must be 0 or more"),
        ([0.5, 0.5, 0, 0, 0, "x"], "list of numbers"),
        ("even", "list of numbers"),
    ],
)
def test_a_bad_law_is_refused_naming_the_field(law: Any, words: str) -> None:
    """A draw-count law: right length, non-negative, summing to 1 (within 1e-9)."""
    mapping = {"kind": "exhaustion", "hands": 10, "game": "F5CD", "draw": {"law": law}}
    with pytest.raises(SpecError) as refused:
        job_from_mapping(mapping)
    assert refused.value.field == "draw.law" and words in str(refused.value), refused.value
    assert "\n" not in str(refused.value)


def test_a_law_where_it_does_not_apply_is_refused() -> None:
    for mapping, field in (
        ({"game": "F7S", "draw": {"law": [1.0]}}, "draw.law"),
        ({"game": "FANA", "draw": {"law": [1.0]}}, "draw.law"),
        ({"game": "F5CD", "draw": {"law": [1, 0, 0, 0, 0, 0], "rank": "K"}}, "draw.rank"),
    ):
        with pytest.raises(SpecError) as refused:
            job_from_mapping({"kind": "exhaustion", "hands": 10, **mapping})
        assert refused.value.field == field, refused.value
    # badugi draws four at most: five numbers
    job = job_from_mapping(
        {"kind": "exhaustion", "hands": 10, "game": "FB", "draw": {"law": [0.2] * 5}}
    )
    assert job.model.law == (0.2,) * 5
