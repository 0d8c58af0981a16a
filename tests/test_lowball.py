"""Lowball: ace-to-five with its qualifiers, ace-to-six, deuce-to-seven
(simulations/evaluators/lowball.py and lowball_reference.py)."""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulations.cards import parse_cards
from simulations.dealing import deal
from simulations.evaluators.hand_enumeration import all_hands
from simulations.evaluators.hand_value import Category
from simulations.evaluators.high import TABLES as HIGH_TABLES
from simulations.evaluators.high import evaluate_high_batch
from simulations.evaluators.lowball import (
    LOW_CEILING,
    NO_LOW,
    TABLES,
    Lowball,
    Qualifier,
    ace_to_five_values,
    evaluate_ace_to_five,
    evaluate_ace_to_six,
    evaluate_deuce_to_seven,
    evaluate_low,
    evaluate_low_batch,
    low_ranking,
)
from simulations.evaluators.lowball_reference import reference_low_values
from simulations.evaluators.ranking import Ranking

A5, A6, D27 = Lowball.ACE_TO_FIVE, Lowball.ACE_TO_SIX, Lowball.DEUCE_TO_SEVEN
EIGHT, NINE = Qualifier.EIGHT_OR_BETTER, Qualifier.NINE_OR_BETTER
C = Category
DECK = np.arange(52, dtype=np.int8)


def a5(text: str, qualifier: Qualifier | None = None) -> Ranking:
    return evaluate_ace_to_five(text, qualifier=qualifier)


def batch_one(text: str, system: Lowball, qualifier: Qualifier | None = None) -> int:
    return int(evaluate_low_batch(np.array([parse_cards(text)]), system, qualifier=qualifier)[0])


def badness_category(values: npt.NDArray[np.int32]) -> npt.NDArray[np.int64]:
    return (LOW_CEILING - values.astype(np.int64)) >> 20


# --- worked examples in the rule texts ----------------------------------------------------------


def test_countdown() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'countdown': 8-6-5-3-2 versus 8-6-5-3-A, the ace being
    the lowest card in ace-to-five and ace-to-six; in deuce-to-seven the ace is high."""
    for system in (A5, A6):
        deuce = evaluate_low("8s 6d 5h 3c 2d", system)
        ace = evaluate_low("8c 6h 5d 3s Ad", system)
        assert ace > deuce
        assert (ace.name, deuce.name) == ("8-6-5-3-A low", "8-6-5-3-2 low")
    assert evaluate_deuce_to_seven("8s 6d 5h 3c 2d") > evaluate_deuce_to_seven("8c 6h 5d 3s Ad")
    assert evaluate_deuce_to_seven("8c 6h 5d 3s Ad").name == "A-8-6-5-3 low"


def test_razz_sample_deal_showdown() -> None:
    """Rules 004_53770b236994c31b.txt, 'sample Razz deal' (complete there; 000 lost ranks):
    Alice's upcards 4, 2, 8, 8 and downcards 7-J-A make 8-7-4-2-A; Carol's upcards 3, 3, A, 6
    and downcards 4-6-7 make 7-6-4-3-A, 'which wins the pot'.  Suits are never of
    consequence in Razz, so any suits will do."""
    alice = a5("4c 2d 8h 8s 7c Jd Ah")
    carol = a5("3c 3d Ac 6h 4s 6d 7h")
    assert alice.name == "8-7-4-2-A low"
    assert carol.name == "7-6-4-3-A low"
    assert carol > alice
    for suited in ("4h 2h 8h 8s 7h Jh Ah", "4s 2c 8d 8c 7s Jh As", "4d 2d 8c 8h 7d Js Ad"):
        assert a5(suited).value == alice.value


def test_razz_london_lowball_flush_cannot_play() -> None:
    """Rules 004_53770b236994c31b.txt, 'a flush cannot play as a low hand' (London lowball,
    ace-to-six): the five lowest cards are suited, so the seven replaces the six."""
    cards = "Ah 2h 3h 4h 6h 7c 9d"
    assert evaluate_ace_to_six(cards).name == "7-4-3-2-A low"
    assert evaluate_ace_to_five(cards).name == "6-4-3-2-A low"


def test_stud_eight_examples() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Eight-or-better high-low stud': A-A-8-6-6-4-3 plays
    a low of 8-6-4-3-A; 8-7-6-5-4 'is the worst possible qualifying low, but it does
    qualify'; K-9-8-7-7-6-5 'cannot play any low hand'."""
    assert a5("Ac Ad 8h 6s 6c 4d 3h", EIGHT).name == "8-6-4-3-A low"
    worst = a5("8c 7d 6h 5s 4c", EIGHT)
    assert worst.category == "high card" and worst.value > NO_LOW
    # Every qualifying low is at least as good: the five-card census below has them all.
    assert a5("9c 7d 6h 5s 4c", EIGHT).value == NO_LOW
    assert a5("8c 7d 6h 5s 5c", EIGHT).value == NO_LOW
    no_low = a5("Kc 9d 8h 7s 7c 6d 5h", EIGHT)
    assert (no_low.value, no_low.category, no_low.name) == (NO_LOW, "no low", "no low")
    assert batch_one("Kc 9d 8h 7s 7c 6d 5h", A5, EIGHT) == NO_LOW


def test_omaha_low_qualifier_sentences() -> None:
    """Rules 002_376df91f076a6501.txt: 'must be able to play an 8-7-6-5-4 or lower'; 'Paired
    cards lower than eight don't qualify'; 'Straights or flushes may be used for the low hand
    if all the cards are 8 or below'; 'A wheel (A-2-3-4-5) is the best possible low and
    neither straights nor flushes count against you for low'."""
    assert a5("8s 7d 6c 5h 4s", EIGHT).value > NO_LOW
    assert a5("8s 7d 6c 5h 4s", EIGHT).value == a5("8s 7d 6c 5h 4s").value
    assert a5("7s 7d 4c 3h 2s", EIGHT).value == NO_LOW
    assert a5("Ah Ad 2c 3s 4d", EIGHT).value == NO_LOW
    for straight_or_flush in ("8h 7h 6h 5h 4h", "8s 7d 6c 5h 4s", "8h 6h 4h 2h Ah"):
        assert a5(straight_or_flush, EIGHT).value > NO_LOW
    wheel = a5("As 2s 3s 4s 5s", EIGHT)
    assert wheel.value == a5("Ad 2c 3h 4s 5d", EIGHT).value
    every_five_low = [
        a5(" ".join(f"{r}{s}" for r, s in zip(ranks, "cdhsc", strict=True)), EIGHT).value
        for ranks in itertools.combinations("A2345678", 5)
    ]
    assert max(every_five_low) == wheel.value and len(set(every_five_low)) == comb(8, 5)


def test_nine_low_qualifier() -> None:
    """Rules 002_376df91f076a6501.txt, 'low qualifier instead, but this is rare': with a
    9-low qualifier K-9-8-7-7-6-5 (no eight-low) plays 9-8-7-6-5."""
    assert a5("Kc 9d 8h 7s 7c 6d 5h", NINE).name == "9-8-7-6-5 low"
    assert a5("Tc 8d 7h 6s 5c", NINE).value == NO_LOW
    nine = a5("9c 8d 7h 6s 5c", NINE)
    assert nine.system == "ace-to-five low, 9 or better" and nine.value > NO_LOW


def test_ace_to_five_ignores_straights_and_flushes() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'can win both high and low': ace-to-five low values make a
    low straight or flush a low hand; 002_376df91f076a6501.txt, 'suited or not': the best low
    is 5-4-3-2-A."""
    assert a5("As 2s 3s 4s 5s").name == "5-4-3-2-A low"
    assert a5("As 2s 3s 4s 5s") == a5("Ad 2c 3h 4s 5d")
    assert a5("6h 5h 4h 3h 2h").name == "6-5-4-3-2 low"


def test_johnson_six_high_low() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Johnson': Bob stands pat with a straight to the six,
    6-5-4-3-2 ('much better, in fact, than a 6-high straight would be for high'), and wins
    against David's low ending 5-4-3-A (its top card was lost in the capture: a seven or an
    eight would lose either way)."""
    bob = a5("6s 5d 4c 3h 2s")
    for top in "78":
        assert bob > a5(f"{top}d 5h 4s 3c Ad")
    assert evaluate_ace_to_six("6s 5d 4c 3h 2s").category == "straight"
    assert evaluate_deuce_to_seven("6s 5d 4c 3h 2s").category == "straight"


def test_names_from_the_glossary() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'eight-six-a-b-c' (8-6-3-2-A) and 'to draw for the wheel'
    (a 9-high 9-5-4-2-A)."""
    assert a5("8s 6d 3c 2h As").name == "8-6-3-2-A low"
    nine = a5("9s 5d 4c 2h As")
    assert nine.name == "9-5-4-2-A low" and a5("5s 4d 3c 2h As") > nine


def test_deuce_to_seven() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Kansas City': deuce-to-seven low hand values; aces are
    high and straights and flushes count against, so the best hand is 7-5-4-3-2 and
    A-2-3-4-5 is an ace-high hand, not a straight."""
    best = evaluate_deuce_to_seven("7c 5d 4h 3s 2c")
    assert best.name == "7-5-4-3-2 low" and best.category == "high card"
    assert (
        best > evaluate_deuce_to_seven("7c 6d 4h 3s 2c") > evaluate_deuce_to_seven("8c 5d 4h 3s 2c")
    )
    wheel = evaluate_deuce_to_seven("Ac 2d 3h 4s 5c")
    assert wheel.category == "high card" and wheel.name == "A-5-4-3-2 low"
    assert evaluate_deuce_to_seven("Kc Qd Jh 9s 8c") > wheel  # any king-high beats ace-high
    assert evaluate_deuce_to_seven("6c 5d 4h 3s 2c").category == "straight"
    assert evaluate_deuce_to_seven("2c 2d 7h 8s 9c") > evaluate_deuce_to_seven("6c 5d 4h 3s 2c")
    assert evaluate_deuce_to_seven("7h 5h 4h 3h 2h").name == "Seven-high flush (7-5-4-3-2)"
    assert evaluate_deuce_to_seven("Ah 2h 3h 4h 5h").category == "flush"
    assert evaluate_deuce_to_seven("Ts Js Qs Ks As").name == "Ace-high straight flush (A-K-Q-J-T)"


def test_ace_to_six() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'ace-to-six low hand values are common' and 'London
    lowball': aces low, straights and flushes count against; the best hand is 6-4-3-2-A and
    no straight goes round the ace (K-A-2-3-4 is king-high)."""
    best = evaluate_ace_to_six("6c 4d 3h 2s Ac")
    assert best.name == "6-4-3-2-A low"
    wheel = evaluate_ace_to_six("Ac 2d 3h 4s 5c")
    assert wheel.name == "Five-high straight (5-4-3-2-A)"
    assert evaluate_ace_to_six("Ac Ad 2h 3s 4c") > wheel  # a pair beats a straight
    assert evaluate_ace_to_six("Kc Ad 2h 3s 4c").category == "high card"
    assert evaluate_ace_to_six("Tc Jd Qh Ks Ac").name == "K-Q-J-T-A low"
    assert evaluate_ace_to_six("Ah 2h 3h 4h 6h").category == "flush"


@pytest.mark.parametrize(
    ("text", "name", "category"),
    [
        ("2c 2d 7h 8s 9c", "Pair of Deuces (2-2-9-8-7)", "one pair"),
        ("Ac Ad 2h 2s 3c", "Two pair, Deuces and Aces (2-2-A-A-3)", "two pair"),
        ("Ac Ad Ah 2s 3c", "Three Aces (A-A-A-3-2)", "three of a kind"),
        ("Ac Ad 2h 2s 2c", "Deuces full of Aces (2-2-2-A-A)", "full house"),
        ("Ac Ad Ah As Kc", "Four Aces (A-A-A-A-K)", "four of a kind"),
        # Seven cards of three ranks: two pair of the two lowest ranks, not trips.
        ("Kc Kd Kh 9s 9d 9h 2c", "Two pair, Kings and Nines (K-K-9-9-2)", "two pair"),
        ("Ac Ad Ah 2s 2c 2h 3c", "Two pair, Deuces and Aces (2-2-A-A-3)", "two pair"),
        ("Ac Ad Ah As 2c 2d 2h", "Aces full of Deuces (A-A-A-2-2)", "full house"),
        ("3c 3d 3h 3s 2c 2d", "Threes full of Deuces (3-3-3-2-2)", "full house"),
        ("Qc Qd Qh Qs Kc Kd", "Queens full of Kings (Q-Q-Q-K-K)", "full house"),
        ("Qc Qd Qh Qs Kc Kd Kh", "Queens full of Kings (Q-Q-Q-K-K)", "full house"),
        ("Ac Ad 5h 5s 9c 9d Kh", "Pair of Aces (A-A-K-9-5)", "one pair"),
        ("Kc Kd Qh Qs Jc Jd Th", "Pair of Jacks (J-J-K-Q-T)", "one pair"),
    ],
)
def test_paired_lows(text: str, name: str, category: str) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'ace-to-five low hand values': with fewer than five
    ranks the pairs play as cheaply as they can, ranked like high hands turned upside down."""
    hand = a5(text)
    assert (hand.name, hand.category) == (name, category)
    assert batch_one(text, A5) == hand.value


def test_category_order_within_each_system() -> None:
    """Any unpaired low beats any pair, a pair two pair, and so on; in ace-to-six and
    deuce-to-seven a straight is worse than trips and a flush worse than a straight."""
    a5_ladder = ["Kc Qd Jh 9s 8c", "Ac Ad 2h 3s 4c", "Ac Ad 2h 2s 3c", "Ac Ad Ah 2s 3c"]
    a5_ladder += ["Ac Ad Ah 2s 2c", "Ac Ad Ah As 2c"]
    values = [a5(t).value for t in a5_ladder]
    assert values == sorted(values, reverse=True)
    d27_ladder = ["Ac Kd Qh Js 9c", "2c 2d 3h 4s 5c", "2c 2d 3h 3s 4c", "2c 2d 2h 3s 4c"]
    d27_ladder += ["2c 3d 4h 5s 6c", "2h 3h 4h 5h 7h", "2c 2d 2h 3s 3c", "2c 2d 2h 2s 3c"]
    d27_ladder += ["2h 3h 4h 5h 6h"]
    values = [evaluate_deuce_to_seven(t).value for t in d27_ladder]
    assert values == sorted(values, reverse=True)


# --- exhaustive five-card enumerations ----------------------------------------------------------


@pytest.fixture(scope="module")
def five_card_values() -> dict[str, npt.NDArray[np.int32]]:
    hands = np.concatenate([chunk.copy() for chunk in all_hands(5)])
    values = {system.value: evaluate_low_batch(hands, system, check=False) for system in Lowball}
    values["high"] = evaluate_high_batch(hands, check=False)
    values["8"] = evaluate_low_batch(hands, A5, qualifier=EIGHT, check=False)
    return values


# notes/reference-numbers.md, 'Ace-to-five low': top card -> (5-card hands, best 5 of 7).
ACE_TO_FIVE_BY_TOP = {
    "5": (1_024, 781_824),
    "6": (5_120, 3_151_360),
    "7": (15_360, 7_426_560),
    "8": (35_840, 13_171_200),
    "9": (71_680, 19_174_400),
    "T": (129_024, 23_675_904),
    "J": (215_040, 24_837_120),
    "Q": (337_920, 21_457_920),
    "K": (506_880, 13_939_200),
}


def tops_of_unpaired(values: npt.NDArray[np.int32]) -> dict[str, int]:
    badness = LOW_CEILING - values.astype(np.int64)
    unpaired = badness[badness >> 20 == 0]
    tops = np.bincount((unpaired >> 16) & 15, minlength=13)
    return {"A23456789TJQK"[top]: int(n) for top, n in enumerate(tops) if n}


def test_reference_table_is_transcribed_consistently() -> None:
    """notes/reference-numbers.md, 'Ace-to-five low': the columns sum to the totals given,
    1,317,888 = C(13,5) * 4**5 five-card hands and 127,615,488 seven-card ones."""
    assert sum(f for f, _ in ACE_TO_FIVE_BY_TOP.values()) == 1_317_888 == comb(13, 5) * 4**5
    assert sum(s for _, s in ACE_TO_FIVE_BY_TOP.values()) == 127_615_488


def test_ace_to_five_five_card_census(five_card_values: dict[str, npt.NDArray[np.int32]]) -> None:
    """notes/reference-numbers.md, 'Ace-to-five low': the 5-card column by top card, exactly;
    and the categories of all C(52,5) hands match the high-hand table's rank shapes (a
    straight or flush is an unpaired low), with one value per rank multiset (6,175)."""
    values = five_card_values[A5.value]
    assert tops_of_unpaired(values) == {top: f for top, (f, _) in ACE_TO_FIVE_BY_TOP.items()}
    hands = Counter(badness_category(values).tolist())
    assert hands == {
        C.HIGH_CARD: 1_302_540 + 10_200 + 5_108 + 40,
        C.ONE_PAIR: 1_098_240,
        C.TWO_PAIR: 123_552,
        C.THREE_OF_A_KIND: 54_912,
        C.FULL_HOUSE: 3_744,
        C.FOUR_OF_A_KIND: 624,
    }
    distinct = Counter(badness_category(np.unique(values)).tolist())
    assert distinct == {0: 1_287, 1: 2_860, 2: 858, 3: 858, 6: 156, 7: 156}
    assert sum(distinct.values()) == 6_175


def test_eight_or_better_five_card_census(
    five_card_values: dict[str, npt.NDArray[np.int32]],
) -> None:
    """notes/reference-numbers.md, 'Ace-to-five low': the qualifying lows are the rows 5 to 8,
    1,024 + 5,120 + 15,360 + 35,840 = 57,344 hands over C(8,5) = 56 values; the rest have
    no low, and a qualifying low is worth exactly its ace-to-five value."""
    eight, plain = five_card_values["8"], five_card_values[A5.value]
    qualifying = eight != NO_LOW
    assert int(qualifying.sum()) == 57_344 == sum(ACE_TO_FIVE_BY_TOP[t][0] for t in "5678")
    assert len(np.unique(eight[qualifying])) == 56
    assert np.array_equal(eight[qualifying], plain[qualifying])
    assert plain[qualifying].min() == a5("8c 7d 6h 5s 4c").value


def test_deuce_to_seven_is_high_upside_down(
    five_card_values: dict[str, npt.NDArray[np.int32]],
) -> None:
    """notes/reference-numbers.md, 'Five-card high hands': deuce-to-seven ranks every five-card
    hand exactly as the high table does, upside down, except A-2-3-4-5: not a straight (flush)
    but ace-high (an ace-high flush).  So its counts are the high table's with the 1,020
    wheels moved to high card and the 4 suited ones to flush."""
    low, high = five_card_values[D27.value], five_card_values["high"]
    wheel = (high == (C.STRAIGHT << 20 | 3 << 16)) | (high == (C.STRAIGHT_FLUSH << 20 | 3 << 16))
    assert int(wheel.sum()) == 1_024
    assert np.array_equal(LOW_CEILING - low[~wheel], high[~wheel])
    counts = Counter(badness_category(low).tolist())
    assert counts == {
        C.STRAIGHT_FLUSH: 40 - 4,
        C.FOUR_OF_A_KIND: 624,
        C.FULL_HOUSE: 3_744,
        C.FLUSH: 5_108 + 4,
        C.STRAIGHT: 10_200 - 1_020,
        C.THREE_OF_A_KIND: 54_912,
        C.TWO_PAIR: 123_552,
        C.ONE_PAIR: 1_098_240,
        C.HIGH_CARD: 1_302_540 + 1_020,
    }
    distinct = Counter(badness_category(np.unique(low)).tolist())
    assert distinct[C.STRAIGHT] == distinct[C.STRAIGHT_FLUSH] == 9
    assert distinct[C.HIGH_CARD] == distinct[C.FLUSH] == 1_278
    assert sum(distinct.values()) == 7_462


def test_ace_to_six_mirrors_deuce_to_seven(
    five_card_values: dict[str, npt.NDArray[np.int32]],
) -> None:
    """Ace-to-six is deuce-to-seven with the ace moved from the top of the ranks to the bottom,
    so the two have the same counts per category and distinct values (9 straights each:
    A-2-3-4-5 .. 9-T-J-Q-K against 2-3-4-5-6 .. T-J-Q-K-A)."""
    a6, d27 = five_card_values[A6.value], five_card_values[D27.value]
    assert Counter(badness_category(a6).tolist()) == Counter(badness_category(d27).tolist())
    assert Counter(badness_category(np.unique(a6)).tolist()) == Counter(
        badness_category(np.unique(d27)).tolist()
    )
    assert a6.max() == evaluate_ace_to_six("6c 4d 3h 2s Ac").value


@pytest.mark.slow
def test_ace_to_five_best_five_of_seven_census() -> None:
    """notes/reference-numbers.md, 'Ace-to-five low': the best-5-of-7 column by top card,
    over all 133,784,560 seven-card hands, and the 8-or-better qualifying count it implies."""
    t, h = TABLES, HIGH_TABLES
    tally = np.zeros(16 * 16, dtype=np.int64)
    out = np.empty(1 << 16, dtype=np.int32)
    for chunk in all_hands(7):
        values = out[: chunk.shape[0]]
        ace_to_five_values(
            chunk,
            t.rank_bits,
            t.rank_nibbles,
            t.unpaired,
            t.ace_low_keys,
            h,
            values,
        )
        badness = LOW_CEILING - values
        tally += np.bincount((badness >> 20) * 16 + ((badness >> 16) & 15), minlength=256)
    assert int(tally.sum()) == comb(52, 7)
    by_top = {"A23456789TJQK"[top]: int(tally[top]) for top in range(13) if tally[top]}
    assert by_top == {top: s for top, (_, s) in ACE_TO_FIVE_BY_TOP.items()}
    assert sum(by_top[t] for t in "5678") == 24_530_944


# --- batch kernels against the plainly written reference ----------------------------------------


def mixed_hands(seed: int) -> list[npt.NDArray[np.int8]]:
    """1,000,000 random hands: 300,000 of five cards, 300,000 of six, 400,000 of seven."""
    rng = np.random.default_rng(seed)
    return [deal(rng, DECK, n, k) for n, k in ((300_000, 5), (300_000, 6), (400_000, 7))]


@pytest.mark.parametrize("system", list(Lowball), ids=lambda s: s.value)
def test_batch_agrees_with_reference_on_a_million_hands(system: Lowball) -> None:
    """The table-driven kernels (and, for ace-to-five, both qualifier kernels) give exactly the
    reference's value on a million random hands of 5, 6 and 7 cards."""
    qualifiers = [None, EIGHT, NINE] if system is A5 else [None]
    for hands in mixed_hands(20240611 + system.code):
        reference = np.empty(hands.shape[0], dtype=np.int32)
        reference_low_values(hands, system.code, -1, reference)
        for qualifier in qualifiers:
            ours = evaluate_low_batch(hands, system, qualifier=qualifier, check=False)
            expected = reference
            if qualifier is not None:
                badness = LOW_CEILING - reference
                top = int(qualifier.top) + 1  # on the ace-low scale
                fails = (badness >> 20 != 0) | ((badness >> 16) > top)
                expected = np.where(fails, NO_LOW, reference)
            mismatch = np.flatnonzero(ours != expected)
            assert mismatch.size == 0, (system, qualifier, hands[mismatch[0]].tolist())


def test_reference_qualifier_matches_the_post_filter() -> None:
    """The reference's own qualifier agrees with the filter used just above."""
    rng = np.random.default_rng(7)
    hands = deal(rng, DECK, 20_000, 7)
    for qualifier in (EIGHT, NINE):
        ref = np.empty(hands.shape[0], dtype=np.int32)
        reference_low_values(hands, A5.code, int(qualifier.top) + 1, ref)
        assert np.array_equal(ref, evaluate_low_batch(hands, A5, qualifier=qualifier))


def test_scalar_api_is_the_reference() -> None:
    rng = np.random.default_rng(8)
    for k in (5, 6, 7):
        hands = deal(rng, DECK, 300, k)
        for system in Lowball:
            batch = evaluate_low_batch(hands, system)
            scalar = [evaluate_low(row.tolist(), system).value for row in hands]
            assert batch.tolist() == scalar


@settings(deadline=None, max_examples=200)
@given(st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True))
def test_best_of_seven_is_the_best_five(cards: list[int]) -> None:
    """The best low of six or seven cards is the best of its five-card lows, under every system,
    and the card order never matters."""
    hand = np.array([cards], dtype=np.int8)
    for system in Lowball:
        for k in (6, 7):
            fives = [
                evaluate_low_batch(hand[:, list(s)], system)[0]
                for s in itertools.combinations(range(k), 5)
            ]
            assert evaluate_low_batch(hand[:, :k], system)[0] == max(fives)
        shuffled = hand[:, ::-1].copy()
        assert evaluate_low_batch(shuffled, system)[0] == evaluate_low_batch(hand, system)[0]


# --- the value and its description ------------------------------------------------------------


def test_rankings_compare_within_a_system_only() -> None:
    low = evaluate_ace_to_five("5c 4d 3h 2s Ac")
    assert low.system == "ace-to-five low" and low > evaluate_ace_to_five("6c 4d 3h 2s Ac")
    with pytest.raises(TypeError):
        _ = low < evaluate_ace_to_six("6c 4d 3h 2s Ac")
    with pytest.raises(TypeError):
        _ = low < a5("5c 4d 3h 2s Ac", EIGHT)


def test_low_ranking_round_trip() -> None:
    for system in Lowball:
        for text in ("7c 5d 4h 3s 2c", "Kc Kd Kh 2s 2c", "9h 8h 7h 6h 5h"):
            ranking = evaluate_low(text, system)
            assert low_ranking(ranking.value, system) == ranking
            assert low_ranking(ranking.value, system).name == ranking.name
    with pytest.raises(ValueError, match="not a value of the ace-to-five low ranking"):
        low_ranking(0, A5)
    with pytest.raises(ValueError, match="not a value of the deuce-to-seven low ranking"):
        low_ranking(LOW_CEILING, D27)
    with pytest.raises(ValueError, match="not a value"):
        low_ranking(LOW_CEILING - (9 << 20), A6)


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["As Kd Qh Js", "As Kd Qh Js Ts 9s 8s 7s", ""])
def test_wrong_card_counts(text: str) -> None:
    for system in Lowball:
        with pytest.raises(ValueError, match=rf"{system.value} low hand needs 5 to 7 cards"):
            evaluate_low(text, system)


def test_wrong_batch_shapes() -> None:
    with pytest.raises(ValueError, match="5 to 7 cards each, got 4"):
        evaluate_low_batch(np.zeros((3, 4), dtype=np.int8), A5)
    with pytest.raises(ValueError, match="2-D array"):
        evaluate_low_batch(np.arange(5), D27)
    with pytest.raises(ValueError, match="integer card codes"):
        evaluate_low_batch(np.zeros((2, 5)), A6)


def test_duplicates_and_jokers() -> None:
    with pytest.raises(ValueError, match="duplicate card As"):
        evaluate_ace_to_five("As Kd Qh Js As")
    with pytest.raises(ValueError, match="duplicate card 2c"):
        evaluate_deuce_to_seven([0, 4, 8, 12, 0])
    with pytest.raises(ValueError, match="a joker cannot be ranked by the ace-to-six low"):
        evaluate_ace_to_six("As Kd Qh Js Jk")
    with pytest.raises(ValueError, match="card code 60"):
        evaluate_ace_to_five([0, 4, 8, 12, 60])
    with pytest.raises(ValueError, match="hand 1 holds a joker"):
        evaluate_low_batch(np.array([[0, 4, 8, 12, 16], [0, 4, 8, 12, 52]]), A5)
    with pytest.raises(ValueError, match="hand 0 holds 2c twice"):
        evaluate_low_batch(np.array([[0, 4, 8, 12, 0]]), D27, check=True)
    with pytest.raises(ValueError, match=r"card codes must lie in 0\.\.51"):
        evaluate_low_batch(np.array([[0, 4, 8, 12, 300]]), A5)


def test_qualifier_only_for_ace_to_five() -> None:
    with pytest.raises(ValueError, match="8 or better qualifier applies to ace-to-five"):
        evaluate_low("7c 5d 4h 3s 2c", D27, qualifier=EIGHT)
    with pytest.raises(ValueError, match="9 or better qualifier applies to ace-to-five"):
        evaluate_low_batch(np.array([[0, 4, 8, 12, 20]]), A6, qualifier=NINE)
