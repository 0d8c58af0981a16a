"""Stripped decks (simulations/evaluators/stripped.py): Manila, Mexican stud, Royal hold'em.

Exhaustive five-card enumerations are checked two ways: hand by hand against the plain
reference of ``tests/poker_reference.py`` and per category against counts derived by
combinatorics from the deck's size and its list of straights.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from math import comb

import numpy as np
import numpy.typing as npt
import pokerkit
import pytest

from simulations.cards import parse_cards
from simulations.dealing import deal
from simulations.evaluators import selection as sel
from simulations.evaluators.high import evaluate_high, evaluate_high_batch
from simulations.evaluators.ranking import Ranking
from simulations.evaluators.selection import best_of
from simulations.evaluators.stripped import (
    FLUSH_OVER_FULL_HOUSE,
    MANILA,
    MANILA_WITH_SIXES,
    MEXICAN_STUD,
    MEXICAN_STUD_JOKER_UP,
    PINATUBO,
    ROYAL_HOLDEM,
    evaluate_stripped,
    evaluate_stripped_batch,
    mexican_stud,
    shifting_sands,
)
from simulations.evaluators.system_census import system_census
from simulations.evaluators.systems import RankingSystem, Shape, evaluate_system_high
from tests import poker_reference as ref

S = Shape
SHORT_ORDER = (
    ref.HIGH_CARD,
    ref.ONE_PAIR,
    ref.TWO_PAIR,
    ref.TRIPS,
    ref.STRAIGHT,
    ref.FULL_HOUSE,
    ref.FLUSH,
    ref.QUADS,
    ref.STRAIGHT_FLUSH,
    ref.FIVE_KIND,
)
# The straights each text allows, written out by hand.
MANILA_RULES = ref.Rules(("789TJ", "89TJQ", "9TJQK", "TJQKA"), SHORT_ORDER, deck_ranks="789TJQKA")
SIXES_RULES = ref.Rules(
    ("6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA"), SHORT_ORDER, deck_ranks="6789TJQKA"
)
MEXICAN_RULES = ref.Rules(
    ("A2345", "23456", "34567", "4567J", "567JQ", "67JQK", "7JQKA"),
    SHORT_ORDER,
    deck_ranks="234567JQKA",
)
ROYAL_RULES = ref.Rules(("TJQKA",), ref.STANDARD_ORDER, deck_ranks="TJQKA")


def name(system: RankingSystem, text: str) -> str:
    return evaluate_stripped(system, text).name


def category_counts(ranks: int, straights: int) -> dict[str, tuple[int, int]]:
    """Five-card hands and distinct values per category for ``ranks`` ranks of four suits with
    ``straights`` five-rank runs, by counting."""
    no_run_sets = comb(ranks, 5) - straights
    return {
        ref.STRAIGHT_FLUSH: (4 * straights, straights),
        ref.QUADS: (ranks * (ranks - 1) * 4, ranks * (ranks - 1)),
        ref.FULL_HOUSE: (ranks * 4 * (ranks - 1) * 6, ranks * (ranks - 1)),
        ref.FLUSH: (4 * no_run_sets, no_run_sets),
        ref.STRAIGHT: (straights * (4**5 - 4), straights),
        ref.TRIPS: (ranks * 4 * comb(ranks - 1, 2) * 16, ranks * comb(ranks - 1, 2)),
        ref.TWO_PAIR: (comb(ranks, 2) * 36 * (ranks - 2) * 4, comb(ranks, 2) * (ranks - 2)),
        ref.ONE_PAIR: (ranks * 6 * comb(ranks - 1, 3) * 64, ranks * comb(ranks - 1, 3)),
        ref.HIGH_CARD: (no_run_sets * (4**5 - 4), no_run_sets),
        ref.FIVE_KIND: (0, 0),
    }


def every_hand(deck: Sequence[int]) -> npt.NDArray[np.int8]:
    return np.array(list(itertools.combinations(deck, 5)), dtype=np.int8)


def reference_of(hands: npt.NDArray[np.int8], rules: ref.Rules) -> npt.NDArray[np.int64]:
    codes = hands.astype(np.int64)
    return ref.reference_values(codes >> 2, codes & 3, rules)


# --- rule texts -----------------------------------------------------------------------------------


def test_manila_ace_not_low() -> None:
    """Rules 002_376df91f076a6501.txt, 'Manila': "an ace may not be played low for a straight
    (that is, the hand A-7-8-9-10 is not a straight in Manila)"."""
    assert name(MANILA, "As 7d 8c 9h Th") == "Ace-high"
    assert evaluate_stripped(MANILA, "As 7d 8c 9h Th").category == "high card"
    assert name(MANILA, "7d 8c 9h Th Js") == "Jack-high straight"
    assert name(MANILA, "Ts Jd Qc Kh As") == "Ace-high straight"
    assert name(MANILA_WITH_SIXES, "As 6d 7c 8h 9h") == "Ace-high"
    assert name(MANILA_WITH_SIXES, "6d 7c 8h 9h Ts") == "Ten-high straight"


def test_manila_flush_beats_full_house() -> None:
    """Rules 002_376df91f076a6501.txt, 'Manila': "Because of the stripped deck, a flush beats a
    full house"."""
    flush = evaluate_stripped(MANILA, "7h 8h 9h Jh Kh")
    full_house = evaluate_stripped(MANILA, "As Ad Ah Ks Kd")
    quads = evaluate_stripped(MANILA, "7s 7d 7h 7c 8d")
    assert full_house < flush < quads
    assert (flush.category, full_house.category) == ("flush", "full house")
    assert FLUSH_OVER_FULL_HOUSE.index(S.FLUSH) == FLUSH_OVER_FULL_HOUSE.index(S.FULL_HOUSE) + 1
    assert evaluate_stripped(PINATUBO, "7h 8h 9h Jh Kh").name == flush.name


def test_manila_both_hole_cards_three_board() -> None:
    """Rules 002_376df91f076a6501.txt, 'Manila': "each player makes the best hand he can from both
    of his hole cards with exactly three of the five community cards"; Manila hand values."""
    hole, board = "Ah Kh", "Qh Jh 7h 7s 7d"
    hand = best_of(sel.MANILA, hole, board, lambda five: evaluate_stripped(MANILA, five))
    assert hand.name == "Ace-high flush"  # beats sevens full, and two hole cards must play
    row = np.array([parse_cards(hole + " " + board)], dtype=np.int8)
    assert evaluate_stripped_batch(MANILA, row, sel.MANILA).tolist() == [hand.value]


def test_mexican_stud_seven_and_jack_consecutive() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Mexican stud': 8s, 9s and 10s stripped; "the 7-spot and
    the J become consecutive, so that 5-6-7-J-Q is a straight. A flush beats a full house"."""
    assert name(MEXICAN_STUD, "5c 6d 7h Js Qc") == "Queen-high straight"
    assert name(MEXICAN_STUD, "7c Jd Qh Ks As") == "Ace-high straight"
    assert name(MEXICAN_STUD, "Ac 2d 3h 4s 5c") == "Five-high straight"
    assert evaluate_stripped(MEXICAN_STUD, "2h 5h 7h Jh Kh") > evaluate_stripped(
        MEXICAN_STUD, "Ks Kd Kh 7s 7d"
    )
    assert MEXICAN_STUD.deck.size == 41  # "the deck therefore contains 41 cards"


def test_mexican_stud_joker_bug_up_wild_down() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Mexican stud': "The joker plays as a bug if it is face up,
    and fully wild if it is face down"."""
    up = mexican_stud(parse_cards("Kd")[0])  # joker among the upcards
    down = mexican_stud(parse_cards("Jk")[0])  # joker in the hole
    assert up is MEXICAN_STUD_JOKER_UP and down is MEXICAN_STUD
    assert name(down, "Jk Ac Kd Kh 2s") == "Three Kings"
    assert name(up, "Jk Ac Kd Kh 2s") == "Two pair, Aces and Kings"  # the bug is an ace
    assert name(up, "Jk 5c 6d Jh Qs") == "Queen-high straight"  # or completes 5-6-7-J-Q
    assert name(up, "Jk 2h 5h 7h Kh") == "Ace-high flush"
    assert name(down, "Jk Ac Ad Ah As") == "Five Aces"


def test_shifting_sands_hole_rank_wild() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Shifting sands': "each player's hole card (and all others
    of that rank) are wild for that player only"."""
    system = shifting_sands(parse_cards("3c")[0])
    assert name(system, "3c 3d Kh Ks 2c") == "Four Kings"
    assert name(shifting_sands(parse_cards("Kh")[0]), "3c 3d Kh Ks 2c") == "Four Threes"


def test_royal_holdem_standard_values() -> None:
    """Rules 002_376df91f076a6501.txt, 'Royal hold 'em': "the deck only contains tens, jacks,
    queens, kings and aces"; hand values are unchanged, so every hand is a high hand."""
    hands = deal(np.random.default_rng(1), ROYAL_HOLDEM.deck.as_array(), 20_000, 7)
    assert np.array_equal(evaluate_stripped_batch(ROYAL_HOLDEM, hands), evaluate_high_batch(hands))
    hand = evaluate_system_high(ROYAL_HOLDEM, "Ts Jd Kc Kh As Ad Ac")
    assert hand == evaluate_high("Ts Jd Kc Kh As Ad Ac") and hand.name == "Aces full of Kings"
    assert name(ROYAL_HOLDEM, "Ts Jd Qc Kh As") == "Ace-high straight"


# --- exhaustive enumerations ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("system", "rules", "ranks", "straights"),
    [
        (MANILA, MANILA_RULES, 8, 4),
        (MANILA_WITH_SIXES, SIXES_RULES, 9, 5),
        (ROYAL_HOLDEM, ROYAL_RULES, 5, 1),
    ],
    ids=["Manila", "Manila with sixes", "Royal"],
)
def test_every_five_card_hand(
    system: RankingSystem, rules: ref.Rules, ranks: int, straights: int
) -> None:
    census = system_census(system, 5)
    expected = category_counts(ranks, straights)
    assert [s.label for s in system.order] == list(rules.order)
    for shape in system.order:
        assert (census.hands[shape], census.distinct_values[shape]) == expected[shape.label]
    assert census.total_hands == comb(4 * ranks, 5)
    hands = every_hand(list(system.deck.cards))
    assert np.array_equal(evaluate_stripped_batch(system, hands), reference_of(hands, rules))


@pytest.mark.slow
def test_mexican_stud_every_natural_hand() -> None:
    """All 658,008 hands without the joker, and the census of all 749,398 with it."""
    natural = [c for c in MEXICAN_STUD.deck.cards if c < 52]
    hands = every_hand(natural)
    ours = evaluate_stripped_batch(MEXICAN_STUD, hands)
    assert np.array_equal(ours, reference_of(hands, MEXICAN_RULES))
    expected = category_counts(10, 7)
    for place, shape in enumerate(MEXICAN_STUD.order):
        assert int(np.count_nonzero(ours >> 20 == place)) == expected[shape.label][0]
    census = system_census(MEXICAN_STUD, 5)
    assert census.total_hands == comb(41, 5)
    # Four of a rank and the joker: one five of a kind per rank.
    assert census.hands[S.FIVE_OF_A_KIND] == 10


@pytest.mark.parametrize("system", [MEXICAN_STUD, MEXICAN_STUD_JOKER_UP], ids=["down", "up"])
def test_mexican_stud_joker_hands_brute_force(system: RankingSystem) -> None:
    """Hands holding the joker, against every substitution of a card of the stripped deck."""
    rng = np.random.default_rng(5)
    natural = [c for c in system.deck.cards if c < 52]
    hands = deal(rng, np.array(natural, dtype=np.int8), 400, 4)
    rows = np.hstack([hands, np.full((400, 1), 52, dtype=np.int8)])
    ours = evaluate_stripped_batch(system, rows)
    wild = frozenset({52}) if system is MEXICAN_STUD else frozenset()
    bugs = frozenset({52}) - wild
    for row, value in zip(rows.tolist(), ours.tolist(), strict=True):
        assert value == ref.brute_force(row, MEXICAN_RULES, wild, bugs), row


def test_short_deck_against_pokerkit() -> None:
    """The engine with the 36-card deck, the ace low below the six (A-6-7-8-9), and a flush over
    a full house, orders 30,000 seven-card hands as pokerkit's short-deck hold'em does."""
    system = RankingSystem(
        name="short deck", ranks=MANILA_WITH_SIXES.ranks, order=FLUSH_OVER_FULL_HOUSE
    )
    hands = deal(np.random.default_rng(6), system.deck.as_array(), 30_000, 7)
    lookup = pokerkit.ShortDeckHoldemHand.lookup
    multipliers = lookup._Lookup__multipliers
    cards = {
        c: pokerkit.Card.clean(f"{'23456789TJQKA'[c >> 2]}{'cdhs'[c & 3]}")[0] for c in range(52)
    }
    primes = np.zeros(52, dtype=np.int64)
    for code, card in cards.items():
        primes[code] = multipliers[card.rank]
    entries = lookup._Lookup__entries
    table = {2 * product + suited: entry.index for (product, suited), entry in entries.items()}
    codes = hands.astype(np.int64)
    theirs = np.full(len(hands), -1, dtype=np.int64)
    for five in itertools.combinations(range(7), 5):
        part = codes[:, list(five)]
        keys = 2 * np.prod(primes[part], axis=1) + (part & 3 == part[:, :1] & 3).all(axis=1)
        theirs = np.maximum(theirs, [table[k] for k in keys.tolist()])
    ours = evaluate_stripped_batch(system, hands)
    order = np.argsort(ours, kind="stable")
    assert np.all(np.diff(theirs[order]) >= 0)
    assert np.array_equal(np.diff(ours[order]) == 0, np.diff(theirs[order]) == 0)
    assert name(system, "As 6d 7c 8h 9h") == "Nine-high straight"


# --- bad input ------------------------------------------------------------------------------------


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="hand 0 holds 2c, which the Manila deck does not have"):
        evaluate_stripped(MANILA, "2c 7d 8h 9s Tc")
    with pytest.raises(ValueError, match="a joker, which the Manila deck does not have"):
        evaluate_stripped(MANILA, "Jk 7d 8h 9s Tc")
    with pytest.raises(ValueError, match="holds 8c, which the Mexican stud deck"):
        evaluate_stripped(MEXICAN_STUD, "8c 7d Jh Qs Kc")
    with pytest.raises(ValueError, match="at least five cards, got 4"):
        evaluate_stripped(MANILA, "7d 8h 9s Tc")
    with pytest.raises(ValueError, match="duplicate card 7d"):
        evaluate_stripped(MANILA, "7d 7d 8h 9s Tc")
    rows = np.array([parse_cards("7d 8h 9s Tc Jc Qd As")], dtype=np.int8)
    with pytest.raises(ValueError, match="rows hold 7 cards"):
        evaluate_stripped_batch(MANILA, rows[:, :6], sel.MANILA)
    with pytest.raises(ValueError, match="standard high order"):
        evaluate_system_high(MANILA, "7d 8h 9s Tc Jc")
    assert isinstance(evaluate_stripped(MANILA, "7d 8h 9s Tc Jc"), Ranking)


def test_reference_can_fail() -> None:
    """The Manila reference rejects the standard order (flush under full house) on some hand."""
    hands = every_hand(list(MANILA.deck.cards))[:50_000]
    wrong = ref.Rules(MANILA_RULES.straights, ref.STANDARD_ORDER)
    assert not np.array_equal(evaluate_stripped_batch(MANILA, hands), reference_of(hands, wrong))
    assert evaluate_high("As 7d 8c 9h Th").name == "Ace-high"
    assert evaluate_high("Ad 2c 3h 4s 5d").name == "Five-high straight"
