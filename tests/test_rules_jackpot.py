"""The bad-beat qualifier and the high hand value, each written once.

:func:`simulations.rules.jackpot.qualifies` is checked against the rule texts by hand
(golden cases) and against :mod:`tests.jackpot_oracle`, a brute force over the five-card
choices written from the rule definitions alone, on many random deals; every caller is
shown to bind the one function.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import numpy as np
import pytest

from simulations.cards import parse_cards
from simulations.evaluators import high
from simulations.evaluators.high import TABLES, card_bit, evaluate_high, high_value
from simulations.evaluators.omaha import evaluate_omaha
from simulations.rules import jackpot
from simulations.rules.jackpot import BadBeatRules, qualifies
from tests import jackpot_oracle as oracle

ROOT = Path(__file__).resolve().parent.parent
TABLE_ARGS = (TABLES.card_keys, TABLES.flush_values, TABLES.row_offsets, TABLES.rank_values)


def _value(hole: list[int], board: list[int], omaha: bool) -> int:
    if omaha:
        return evaluate_omaha(hole, board).value
    return evaluate_high([*hole, *board]).value


def _qualifies(hole: list[int], board: list[int], rules: BadBeatRules, omaha: bool) -> bool:
    value = _value(hole, board, omaha)
    return bool(
        qualifies(
            np.array(hole, dtype=np.int64),
            np.array(board, dtype=np.int64),
            value,
            rules.qualifier(omaha=omaha),
            *TABLE_ARGS,
        )
    )


def _both(hole: str, board: str, rules: BadBeatRules, omaha: bool = False) -> tuple[bool, bool]:
    """(the rule's verdict, the oracle's) on one hand."""
    h, b = parse_cards(hole), parse_cards(board)
    return _qualifies(h, b, rules, omaha), oracle.card_conditions(h, b, rules, omaha)


# --- golden cases from the rule texts -----------------------------------------------------


def test_both_hole_cards_play() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot': 'in Texas hold 'em there is
    usually a requirement that both hole cards play in both the losing and winning hands'.
    Aces full of tens from one hole ace (the 3 plays no part) qualify only when one hole
    card is enough; pocket tens making four tens use both."""
    board = "As Ad Tc Th 2c"
    assert _both("Ah 3d", board, BadBeatRules(hole_cards_play=2)) == (False, False)
    assert _both("Ah 3d", board, BadBeatRules(hole_cards_play=1)) == (True, True)
    assert _both("Ts Td", board, BadBeatRules("quads", hole_cards_play=2)) == (True, True)


def test_the_board_may_play() -> None:
    """Rules 000, 'Bad beat jackpot': 'These rules vary from one cardroom to the next': with
    no hole card required, a royal flush on the board is the player's hand."""
    board = "As Ks Qs Js Ts"
    assert _both("2c 3d", board, BadBeatRules(hole_cards_play=0)) == (True, True)
    assert _both("2c 3d", board, BadBeatRules(hole_cards_play=1)) == (False, False)


def test_four_of_a_kind_needs_a_pocket_pair() -> None:
    """Rules 000, 'Bad beat jackpot': 'the losing hand may be required to be four-of-a-kind
    or better.  There may be additional requirements as well': four tens from one hole ten
    and three on the board, against four tens from a pocket pair."""
    strict = BadBeatRules("quads", hole_cards_play=1, quads_need_pocket_pair=True)
    loose = BadBeatRules("quads", hole_cards_play=1, quads_need_pocket_pair=False)
    assert _both("Td 2c", "Ts Th Tc 8h 9h", strict) == (False, False)
    assert _both("Td 2c", "Ts Th Tc 8h 9h", loose) == (True, True)
    assert _both("Tc Td", "Ts Th 9h 8h 2c", strict) == (True, True)


def test_full_house_on_board_trips() -> None:
    """Rules 000, 'Bad beat jackpot': 'These rules vary from one cardroom to the next':
    pocket kings with three aces on the board make aces full, the three aces all shared."""
    board = "As Ac Ad Ks Qs"
    assert _both("Kh Kd", board, BadBeatRules(board_trips_full_house=True)) == (True, True)
    assert _both("Kh Kd", board, BadBeatRules(board_trips_full_house=False)) == (False, False)
    # A hole ace among the three: the full house holds a hole card of its trips.
    assert _both("Ah Kd", "As Ac Ks Qs 2d", BadBeatRules(board_trips_full_house=False)) == (
        True,
        True,
    )


def test_omaha_plays_exactly_two_hole_cards() -> None:
    """Rules 002_376df91f076a6501.txt, 'Omaha hold 'em': 'the best five-card hand he can make
    from exactly three of the five cards on the board, plus exactly two of his own cards'.
    Four aces need two hole aces; one hole ace with three on the board is no four of a kind
    in Omaha, and a pocket pair of the quads' rank is the pair that plays."""
    rules = BadBeatRules("quads", quads_need_pocket_pair=True)
    assert _both("Ah Ad 2c 7d", "As Ac Kh 9s 3c", rules, omaha=True) == (True, True)
    # Four of a kind from two hole kings and two board kings: no pocket pair of... kings is
    # the pair, so it qualifies; the aces in the hand play no part.
    assert _both("Kh Kd Ah 2c", "Ks Kc Qh 9s 3c", rules, omaha=True) == (True, True)
    # One hole king: Omaha's best is not four kings, and a full house needs its trips' rank
    # in the two hole cards that play when board trips are refused.
    no_board_trips = BadBeatRules("full house", board_trips_full_house=False)
    assert _both("Qh Qd 2c 7d", "Ks Kc Kh 9s 3c", no_board_trips, omaha=True) == (False, False)
    assert _both("Kd Qd 2c 7d", "Ks Kc Qh 9s 3c", no_board_trips, omaha=True) == (True, True)


# --- the oracle against the rule on random deals -------------------------------------------

HOLDEM_RULES = [
    BadBeatRules(
        "high card", hole_cards_play=need, quads_need_pocket_pair=q, board_trips_full_house=t
    )
    for need in (0, 1, 2)
    for q in (False, True)
    for t in (True, False)
]


def _rich_deck(rng: np.random.Generator, kind: int) -> list[int]:
    """A deck from which a few cards make big hands often: the whole pack (``kind`` 0);
    three ranks and seven more cards (1: full houses and quads); one whole suit and seven
    more cards (2: flushes and straight flushes)."""
    if kind == 0:
        return list(range(52))
    if kind == 1:
        ranks = rng.choice(13, size=3, replace=False)
        cards = {int(r) * 4 + s for r in ranks for s in range(4)}
    else:
        suit = int(rng.integers(4))
        cards = {r * 4 + suit for r in range(13)}
    rest = [c for c in range(52) if c not in cards]
    cards |= {int(c) for c in rng.choice(rest, size=7, replace=False)}
    return sorted(cards)


def _deals(seed: int, count: int, hole: int, players: int) -> list[tuple[list[int], ...]]:
    rng = np.random.default_rng(seed)
    deals = []
    for i in range(count):
        deck = _rich_deck(rng, i % 3)
        cards = [int(c) for c in rng.choice(deck, size=5 + hole * players, replace=False)]
        deals.append(
            (cards[:5], *(cards[5 + hole * p : 5 + hole * (p + 1)] for p in range(players)))
        )
    return deals


def test_holdem_qualifier_matches_the_oracle_on_random_deals() -> None:
    """800 hold'em deals (two in three from decks rich in full houses, quads or flushes), three
    players each, under all twelve settings of the card conditions."""
    seen = {"yes": 0, "no": 0, "quads": 0, "full house": 0, "settings differ": 0}
    for board, *holes in _deals(2026, 800, 2, 3):
        for hole in holes:
            value = evaluate_high([*hole, *board]).value
            assert value == oracle.best_value(hole, board), (hole, board)
            seen["quads"] += value >> 20 == oracle.QUADS
            seen["full house"] += value >> 20 == oracle.FULL_HOUSE
            verdicts = set()
            for rules in HOLDEM_RULES:
                want = oracle.card_conditions(hole, board, rules)
                assert _qualifies(hole, board, rules, omaha=False) == want, (hole, board, rules)
                seen["yes" if want else "no"] += 1
                verdicts.add(want)
            seen["settings differ"] += len(verdicts) > 1
    # The deals must reach what the settings are about, or the agreement proves little.
    assert seen["quads"] >= 20 and seen["full house"] >= 100, seen
    assert min(seen["yes"], seen["no"], seen["settings differ"]) >= 500, seen


def test_omaha_qualifier_matches_the_oracle_on_random_deals() -> None:
    """500 Omaha deals, three players each, under the four settings of the pocket pair and
    the board trips (exactly two hole cards play)."""
    seen = {"yes": 0, "no": 0, "quads": 0, "full house": 0}
    settings = [
        BadBeatRules("high card", quads_need_pocket_pair=q, board_trips_full_house=t)
        for q in (False, True)
        for t in (True, False)
    ]
    for board, *holes in _deals(7, 500, 4, 3):
        for hole in holes:
            value = evaluate_omaha(hole, board).value
            assert value == oracle.best_value(hole, board, omaha=True), (hole, board)
            seen["quads"] += value >> 20 == oracle.QUADS
            seen["full house"] += value >> 20 == oracle.FULL_HOUSE
            for rules in settings:
                want = oracle.card_conditions(hole, board, rules, omaha=True)
                assert _qualifies(hole, board, rules, omaha=True) == want, (hole, board, rules)
                seen["yes" if want else "no"] += 1
    assert min(seen.values()) > 20, seen


def test_the_qualifier_runs_as_plain_python() -> None:
    """``qualifies.py_func`` (no compilation) gives the compiled verdicts."""
    for board, *holes in _deals(11, 150, 2, 2):
        for hole in holes:
            value = evaluate_high([*hole, *board]).value
            for rules in HOLDEM_RULES[::3]:
                args = (
                    np.array(hole, dtype=np.int64),
                    np.array(board, dtype=np.int64),
                    value,
                    rules.qualifier(),
                    *TABLE_ARGS,
                )
                assert qualifies.py_func(*args) == qualifies(*args)


def test_high_value_matches_the_oracle() -> None:
    """The one reading of the high tables against the brute force: 3,000 random hands of
    five to seven cards, two in three from the rich decks, read directly and through the rank
    classes."""
    rng = np.random.default_rng(5)
    classes = high.rank_classes()
    categories = set()
    for i in range(3000):
        deck = _rich_deck(rng, i % 3)
        cards = [int(c) for c in rng.choice(deck, size=5 + i % 3, replace=False)]
        key = sum(int(TABLES.card_keys[c]) for c in cards)
        suited = 0
        for c in cards:
            suited |= card_bit(c)
        want = oracle.best_value(cards[:2], cards[2:]) if len(cards) > 5 else 0
        if len(cards) == 5:
            want = oracle.five_card_value(cards)
        got = high_value(key, suited, TABLES.flush_values, TABLES.row_offsets, TABLES.rank_values)
        through = high_value(
            key, suited, TABLES.flush_values, TABLES.row_offsets, classes.values, classes.classes
        )
        assert got == through == want, cards
        categories.add(want >> 20)
    assert categories == set(range(9))


# --- every caller reaches the one function -------------------------------------------------


@pytest.mark.parametrize(
    "module",
    [
        "simulations.models.bad_beat",
        "simulations.models.table_jackpot",
        "simulations.models.table_reference",
        "simulations.verify.jackpot",
    ],
)
def test_every_judge_calls_the_one_qualifier(module: str) -> None:
    assert importlib.import_module(module).qualifies is jackpot.qualifies


@pytest.mark.parametrize(
    "module",
    [
        "simulations.engine.replay_kernel",
        "simulations.models.bad_beat",
        "simulations.models.table_eval",
        "simulations.evaluators.selection",
        "simulations.evaluators.lowball",
        "simulations.rules.jackpot",
    ],
)
def test_every_kernel_reads_the_one_high_value(module: str) -> None:
    assert importlib.import_module(module).high_value is high.high_value


@pytest.mark.parametrize(
    "module",
    [
        "simulations.models.bad_beat",
        "simulations.models.bad_beat_room",
        "simulations.models.table",
        "simulations.models.table_reference",
        "simulations.verify.jackpot",
        "simulations.verify.setup",
    ],
)
def test_the_rules_are_one_class(module: str) -> None:
    assert importlib.import_module(module).BadBeatRules is jackpot.BadBeatRules


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at the top or anywhere inside (a deferred import, or one
    under ``TYPE_CHECKING``, is still an edge of the graph)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_models_import_no_loop() -> None:
    """The qualifier sits below the models: no module of :mod:`simulations.models` reaches
    itself through the imports of the others (the bad-beat job and the table used to, held
    apart by an import under ``TYPE_CHECKING``)."""
    folder = ROOT / "simulations" / "models"
    graph = {
        f"simulations.models.{path.stem}": {
            name for name in _imports(path) if name.startswith("simulations.models.")
        }
        for path in folder.glob("*.py")
        if path.stem != "__init__"
    }
    for start in graph:
        stack, seen = list(graph[start]), set()
        while stack:
            name = stack.pop()
            assert name != start, f"{start} imports itself through {sorted(seen)}"
            if name not in seen:
                seen.add(name)
                stack.extend(graph.get(name, ()))
    assert "simulations.models.table_jackpot" in graph["simulations.models.table"]
    for name in ("table.py", "bad_beat_room.py"):
        assert "TYPE_CHECKING" not in (folder / name).read_text()
