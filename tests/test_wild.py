"""Wild cards (simulations/evaluators/wild.py): jokers wild and as the bug, wild ranks, a
player's own wild rank, five of a kind, the double-ace flush; every hand checked against a
brute force that tries every substitution (tests/poker_reference.py)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from math import comb

import numpy as np
import numpy.typing as npt
import pytest

from simulations.cards import Rank, parse_cards
from simulations.dealing import deal
from simulations.evaluators import selection as sel
from simulations.evaluators.hand_value import Category, HandValue
from simulations.evaluators.high import evaluate_high
from simulations.evaluators.lowball import evaluate_ace_to_five
from simulations.evaluators.selection import best_of
from simulations.evaluators.system_census import system_census
from simulations.evaluators.systems import (
    JokerRole,
    RankingSystem,
    Shape,
    evaluate_system_batch,
)
from simulations.evaluators.wild import (
    DEUCES_WILD,
    DR_PEPPER,
    JOKER_BUG,
    JOKER_WILD,
    TWO_BUGS_DOUBLE_ACE,
    bug_low_card,
    evaluate_wild,
    follow_the_queen,
    low_hole_card_wild,
    lowest_board_rank,
    substitute_low_bugs,
    with_wild_card,
    with_wild_rank,
)
from tests import poker_reference as ref

C = Category
S = Shape
STANDARD = RankingSystem(name="high")
JOKER_DOUBLE_ACE = replace(JOKER_WILD, name="joker, double-ace flush", double_ace_flush=True)


def ev(system: RankingSystem, text: str) -> HandValue:
    return evaluate_wild(system, text)


def wild_codes(system: RankingSystem) -> tuple[frozenset[int], frozenset[int]]:
    t = system.tables
    codes = range(56)
    return (
        frozenset(c for c in codes if t.wild_mask >> c & 1),
        frozenset(c for c in codes if t.bug_mask >> c & 1),
    )


def check_brute_force(system: RankingSystem, hands: npt.NDArray[np.int8]) -> None:
    rules = ref.Rules(double_ace=system.double_ace_flush)
    wild, bugs = wild_codes(system)
    ours = evaluate_system_batch(system, hands)
    for row, value in zip(hands.tolist(), ours.tolist(), strict=True):
        expected = ref.brute_force(row, rules, wild, bugs)
        assert value == expected, f"{row}: {system.describe(value)} != {system.describe(expected)}"


def with_jokers(rng: np.random.Generator, n: int, k: int, jokers: int) -> npt.NDArray[np.int8]:
    natural = deal(rng, np.arange(52, dtype=np.int8), n, k - jokers)
    extra = np.tile(np.arange(52, 52 + jokers, dtype=np.int8), (n, 1))
    return np.hstack([natural, extra])


# --- rule texts -----------------------------------------------------------------------------------


def test_five_of_a_kind_beats_everything() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'five of a kind': "A hand possible only in games with wild
    cards, defeating all other hands, comprising five cards of equal rank"."""
    five = ev(DEUCES_WILD, "2c 3d 3h 3s 3c")
    royal = ev(DEUCES_WILD, "As Ks Qs Js Ts")
    assert five.name == "Five Threes" and five.category is C.FIVE_OF_A_KIND
    assert five > royal and royal.name == "Royal flush"
    assert ev(JOKER_WILD, "Jk Ac Ad Ah As").name == "Five Aces"
    assert ev(DEUCES_WILD, "2c 2d 2h 2s 7c").name == "Five Sevens"


def test_spit_in_the_ocean_sample_deal() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Spit in the ocean': the center card and every other card
    of its rank are wild; Carol holds Q-Q-6-4 and "because the [wild rank] in her hand and the
    one on the board are wild, her hand is four queens.  Alice's hand contains K-J-9-7, all
    spades.  With the shared wild card, this gives her a flush, which loses to Carol's four
    queens."  (The capture lost the center card's rank; it is one of Carol's 6 or 4.)"""
    for center in ("6d", "4d"):
        rank = Rank(parse_cards(center)[0] >> 2)
        system = with_wild_rank(STANDARD, rank, name="Spit in the ocean")
        carol = ev(system, f"Qh Qc 6c 4h {center}")
        alice = ev(system, f"Ks Js 9s 7s {center}")
        assert carol.name == "Four Queens"
        assert alice.name == "Ace-high flush"
        assert carol > alice


def test_double_ace_flush() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'double-ace flush': "a flush with one or more wild cards in
    which they play as aces, even if an ace is already present"; rules 000 'Blind stud': two
    jokers acting as bugs, with the double-ace flush rule."""
    double = ev(TWO_BUGS_DOUBLE_ACE, "Jk Ah Kh Qh 9h")
    plain = ev(JOKER_BUG, "Jk Ah Kh Qh 9h")
    assert double.category is plain.category is C.FLUSH
    assert double > plain  # A-A-K-Q-9 against A-K-Q-J-9
    assert double > ev(TWO_BUGS_DOUBLE_ACE, "Ac Kc Qc Jc 9c")
    assert plain == ev(JOKER_BUG, "Jh Ah Kh Qh 9h")  # the bug is the best missing heart
    # A wild card still completes the straight flush when that is better.
    assert ev(TWO_BUGS_DOUBLE_ACE, "Jk Ah Kh Qh Jh").name == "Royal flush"
    assert ev(TWO_BUGS_DOUBLE_ACE, "Jk Jk Ah 7h 3h").value > ev(JOKER_BUG, "Jk Ah Kh 7h 3h").value


def test_jacks_to_open_with_the_bug() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Gardena jackpots': "a single joker in the deck acting as a
    bug ... no player is allowed to open the betting unless his hand already contains a pair of
    jacks or a better hand" — the bug pairs an ace but not a jack."""
    jacks = evaluate_high("Jc Jd 7h 5s 2c")
    assert ev(JOKER_BUG, "Jk Ac 7h 5s 2c") >= jacks  # a pair of aces opens
    assert ev(JOKER_BUG, "Jk Jc 7h 5s 2c") < jacks  # the bug is no jack
    assert ev(JOKER_BUG, "Jk Jc 7h 5s 2c").name == "Ace-high"
    assert ev(JOKER_BUG, "Jk 6c 7h 8s 9c").name == "Ten-high straight"
    assert ev(JOKER_BUG, "Jk 2h 7h 9h Kh").name == "Ace-high flush"
    assert ev(JOKER_BUG, "Jk Ac Ad Ah Kc").name == "Four Aces"
    assert ev(JOKER_WILD, "Jk Jc 7h 5s 2c").name == "Pair of Jacks"


def test_low_hole_card_wild() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Low hole card wild': "each player's lowest-ranking
    downcard (and all other cards of that same rank) are wild in that player's hand only"."""
    downcards, upcards = "5c Kd 9s", "5h Ks Kh 2d"
    rank = low_hole_card_wild(downcards)
    assert rank is Rank.FIVE
    system = with_wild_rank(STANDARD, rank, name="Low hole card wild")
    assert ev(system, f"{downcards} {upcards}").name == "Five Kings"
    other = with_wild_rank(STANDARD, low_hole_card_wild("Kc 9d 3s"))
    assert ev(other, f"{downcards} {upcards}").name == "Kings full of Fives"
    assert low_hole_card_wild("Jk 9d") is Rank.NINE and low_hole_card_wild("Jk") is None


def test_lame_brain_pete_low_board_card() -> None:
    """Rules 002_376df91f076a6501.txt, 'Lame-brain Pete': "the lowest-ranking card on the board,
    and all cards of that same rank either on the board or in players' hole cards, play as wild
    cards"; best five of three hole and four board cards."""
    board = "9c 4d Kh Ks"
    rank = lowest_board_rank(board)
    assert rank is Rank.FOUR
    system = with_wild_rank(STANDARD, rank, name="Lame-brain Pete")
    hand = best_of(sel.LAME_BRAIN_PETE, "4s Kd 2c", board, lambda five: evaluate_wild(system, five))
    assert hand.name == "Five Kings"
    row = np.array([parse_cards("4s Kd 2c " + board)], dtype=np.int8)
    assert evaluate_system_batch(system, row).tolist() == [hand.value]


def test_follow_the_queen() -> None:
    """Rules 002_376df91f076a6501.txt, 'Follow the Queen': the card dealt right after an exposed
    queen is wild; "in the event that the final card dealt (exposed) is itself a queen, then all
    queens are wild. If no queens are dealt (exposed), then there are no wilds"."""
    assert follow_the_queen("3c Qd 7h 9s") is Rank.SEVEN
    assert follow_the_queen("3c Qd 7h Qs 9c") is Rank.NINE  # the later queen moves it
    assert follow_the_queen("3c 7h 9s Qd") is Rank.QUEEN
    assert follow_the_queen("3c 7h 9s") is None


def test_iron_cross_center_card_wild() -> None:
    """Rules 002_376df91f076a6501.txt, 'Iron cross': "make the center card wild, or the center card
    and all of the same rank wild"."""
    center = parse_cards("9d")[0]
    card_only = with_wild_card(STANDARD, center, name="Iron cross, center wild")
    whole_rank = with_wild_rank(STANDARD, Rank.NINE, name="Iron cross, nines wild")
    hand = "9d 9c Kc Kh 2s"
    assert ev(card_only, hand).name == "Three Kings"
    assert ev(whole_rank, hand).name == "Four Kings"
    assert ev(STANDARD, hand).name == "Two pair, Kings and Nines"
    with pytest.raises(ValueError, match="joker"):
        with_wild_card(STANDARD, 52)


def test_dr_pepper() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Dr Pepper': "10's, 2's, and 4's are wild"."""
    assert ev(DR_PEPPER, "Tc 2d 4h Ks 7c").name == "Four Kings"
    assert ev(DR_PEPPER, "Tc 2d 4h 4s 7c").name == "Five Sevens"


# --- censuses and brute force ---------------------------------------------------------------------

# The published five-card frequencies for deuces wild and for a 53-card deck with one wild joker
# (video-poker tables: a natural and a wild royal flush are both straight flushes here, four
# deuces with any card are five of a kind).
DEUCES_WILD_COUNTS = {
    S.FIVE_OF_A_KIND: 48 + 624,
    S.STRAIGHT_FLUSH: 4 + 480 + 2_068,
    S.FOUR_OF_A_KIND: 31_552,
    S.FULL_HOUSE: 12_672,
    S.FLUSH: 14_472,
    S.STRAIGHT: 62_232,
    S.THREE_OF_A_KIND: 355_080,
    S.TWO_PAIR: 95_040,
    S.ONE_PAIR: 1_225_008,
    S.HIGH_CARD: 799_680,
}
JOKER_WILD_COUNTS = {
    S.FIVE_OF_A_KIND: 13,
    S.STRAIGHT_FLUSH: 4 + 20 + 180,
    S.FOUR_OF_A_KIND: 3_120,
    S.FULL_HOUSE: 6_552,
    S.FLUSH: 7_804,
    S.STRAIGHT: 20_532,
    S.THREE_OF_A_KIND: 137_280,
    S.TWO_PAIR: 123_552,
    S.ONE_PAIR: 1_268_088,
    S.HIGH_CARD: 1_302_540,
}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("system", "published"),
    [(DEUCES_WILD, DEUCES_WILD_COUNTS), (JOKER_WILD, JOKER_WILD_COUNTS)],
    ids=["deuces wild", "joker wild"],
)
def test_census_and_sample_brute_force(system: RankingSystem, published: dict[Shape, int]) -> None:
    census = system_census(system, 5)
    assert census.hands == published
    assert census.total_hands == comb(system.deck.size, 5)
    # Five of a kind by counting: k natural cards of a rank with 5 - k wild cards.
    wild_cards = len(wild_codes(system)[0])
    naturals = 12 if system is DEUCES_WILD else 13
    assert census.hands[S.FIVE_OF_A_KIND] == naturals * sum(
        comb(4, k) * comb(wild_cards, 5 - k) for k in range(1, 5)
    )
    # A uniform sample and one rich in wild cards, each hand against the brute force.
    rng = np.random.default_rng(11)
    sample = deal(rng, system.deck.as_array(), 800, 5)
    check_brute_force(system, sample)
    wild, _ = wild_codes(system)
    rich = deal(rng, system.deck.as_array(), 40_000, 5)
    counts = np.isin(rich, list(wild)).sum(axis=1)
    picked = np.vstack([rich[counts == k][:n] for k, n in ((1, 600), (2, 300), (3, 15))])
    check_brute_force(system, picked)


def test_bug_census_by_counting() -> None:
    """With the bug: five aces once (four aces and the joker); four of a kind as the 624 natural
    hands, the 12 non-ace quads with the bug as an ace kicker, and three aces, the bug and any
    other card (4 x 48)."""
    census = system_census(JOKER_BUG, 5)
    assert census.hands[S.FIVE_OF_A_KIND] == 1
    assert census.hands[S.FOUR_OF_A_KIND] == 624 + 12 + 4 * 48
    assert census.hands[S.STRAIGHT_FLUSH] == JOKER_WILD_COUNTS[S.STRAIGHT_FLUSH]
    assert census.hands[S.FLUSH] == JOKER_WILD_COUNTS[S.FLUSH]
    assert census.total_hands == comb(53, 5)


@pytest.mark.parametrize(
    ("system", "jokers", "cards", "n"),
    [
        (JOKER_BUG, 1, 5, 500),
        (JOKER_WILD, 1, 5, 300),
        (JOKER_DOUBLE_ACE, 1, 5, 300),
        (TWO_BUGS_DOUBLE_ACE, 1, 5, 300),
        (TWO_BUGS_DOUBLE_ACE, 2, 5, 150),
        (TWO_BUGS_DOUBLE_ACE, 2, 7, 20),
        (JOKER_BUG, 1, 7, 40),
    ],
)
def test_jokers_brute_force(system: RankingSystem, jokers: int, cards: int, n: int) -> None:
    rng = np.random.default_rng(cards * 10 + jokers)
    check_brute_force(system, with_jokers(rng, n, cards, jokers))


@pytest.mark.parametrize("system", [JOKER_BUG, JOKER_WILD, TWO_BUGS_DOUBLE_ACE, DEUCES_WILD])
def test_suited_and_ace_rich_hands_brute_force(system: RankingSystem) -> None:
    """Hands drawn from the hearts and the aces, where flushes, straight flushes, the double-ace
    rule and five aces live."""
    rng = np.random.default_rng(12)
    pool = np.array(sorted({*range(2, 52, 4), 48, 49, 50, 51, 0, 1}), dtype=np.int8)
    natural = deal(rng, pool, 150, 4)
    wild, bugs = wild_codes(system)
    extra = min(wild | bugs)
    rows = natural[~np.isin(natural, [extra]).any(axis=1)]
    rows = np.hstack([rows, np.full((rows.shape[0], 1), extra, dtype=np.int8)])
    check_brute_force(system, rows)


def test_deuces_wild_seven_cards_brute_force() -> None:
    rng = np.random.default_rng(13)
    hands = deal(rng, np.arange(52, dtype=np.int8), 3_000, 7)
    counts = np.isin(hands, [0, 1, 2, 3]).sum(axis=1)
    check_brute_force(DEUCES_WILD, hands[(counts >= 1) & (counts <= 2)][:40])


def test_brute_force_can_fail() -> None:
    """The brute force tells the bug from a fully wild joker, and the double-ace rule from none."""
    rules = ref.Rules()
    hand = [int(c) for c in parse_cards("Jk Jc 7h 5s 2c")]
    assert ref.brute_force(hand, rules, bugs=frozenset({52})) != ref.brute_force(
        hand, rules, wild=frozenset({52})
    )
    flush = [int(c) for c in parse_cards("Jk Ah Kh 7h 3h")]
    assert ref.brute_force(flush, ref.Rules(double_ace=True), wild=frozenset({52})) > (
        ref.brute_force(flush, rules, wild=frozenset({52}))
    )


# --- the bug in ace-to-five low -------------------------------------------------------------------


def ace_to_five_key(ranks: Sequence[int]) -> tuple[int, ...]:
    """A key for one five-card ace-to-five low (smaller is better): pairs count against a hand,
    then the ranks from the top, ace as one; straights and flushes do not count."""
    low = [1 if r == 12 else r + 2 for r in ranks]
    counts = Counter(low)
    groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return (5 - len(counts), *(counts[r] for r in groups), *groups)


def best_low(cards: Sequence[int]) -> tuple[int, ...]:
    return min(ace_to_five_key([c >> 2 for c in five]) for five in itertools.combinations(cards, 5))


@pytest.mark.parametrize("size", [5, 7])
def test_bug_in_low_brute_force(size: int) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'California lowball': ace-to-five low with a joker; the bug
    is the lowest rank not already in the hand — no substitution does better."""
    rng = np.random.default_rng(14 + size)
    for row in deal(
        rng, np.arange(52, dtype=np.int8), 600 if size == 5 else 120, size - 1
    ).tolist():
        hand = [*row, 52]
        substituted = substitute_low_bugs(hand)
        assert substituted[:-1] == tuple(row)
        assert bug_low_card(hand) == substituted[-1]
        brute = min(best_low([*row, card]) for card in range(52))
        assert best_low(substituted) == brute


def test_bug_in_low_feeds_the_low_evaluator() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'California lowball': with the substitution the project's
    ace-to-five evaluator ranks a joker hand as well as any card in the joker's place could."""
    rng = np.random.default_rng(15)
    for row in deal(rng, np.arange(52, dtype=np.int8), 60, 4).tolist():
        hand = [*row, 52]
        ours = evaluate_ace_to_five(list(substitute_low_bugs(hand)))
        others = [evaluate_ace_to_five([*row, card]) for card in range(52) if card not in row]
        assert ours.value == max(r.value for r in others)
    assert evaluate_ace_to_five(list(substitute_low_bugs("Jk 2c 3d 4h 6s"))).value == (
        evaluate_ace_to_five("Ac 2c 3d 4h 6s").value
    )


def test_bug_in_low_examples() -> None:
    assert bug_low_card("Jk 2c 3d 4h 5s") == parse_cards("Ac")[0]  # the wheel
    assert bug_low_card("Jk Ac 2d 3h 4s") == parse_cards("5c")[0]
    assert bug_low_card("2c Jk 3d 4h Kd") == parse_cards("Ac")[0]
    assert bug_low_card("Ac Ad 2h Jk 9s") == parse_cards("3c")[0]
    assert substitute_low_bugs("Jk Jk Ac 3d 7h") == parse_cards("2c 4c Ac 3d 7h")
    with pytest.raises(ValueError, match="holds no joker"):
        bug_low_card("Ac 2d 3h 4s 5c")
    with pytest.raises(ValueError, match="duplicate card Ac"):
        bug_low_card("Ac Ac 3h 4s Jk")


# --- bad input ------------------------------------------------------------------------------------


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="a joker, which the Deuces wild deck does not have"):
        ev(DEUCES_WILD, "Jk 2c 3d 4h 5s")
    with pytest.raises(ValueError, match="a joker, which the Joker as the bug deck does not have"):
        ev(JOKER_BUG, "Jk Jk 3d 4h 5s")  # one joker in that deck
    with pytest.raises(ValueError, match="at least five cards, got 4"):
        ev(JOKER_WILD, "Jk 3d 4h 5s")
    with pytest.raises(ValueError, match="duplicate card 3d"):
        ev(JOKER_WILD, "Jk 3d 3d 4h 5s")
    rows = np.array([[52, 0, 4, 8, 12]], dtype=np.int8)
    with pytest.raises(ValueError, match="hand 0 holds a joker"):
        evaluate_system_batch(DEUCES_WILD, rows)
    with pytest.raises(ValueError, match="four-card categories"):
        RankingSystem(
            name="x", order=(*ref_order(), S.FOUR_FLUSH), wild_ranks=frozenset({Rank.TWO})
        )
    with pytest.raises(ValueError, match="jokers exactly when"):
        RankingSystem(name="x", jokers=JokerRole.WILD)
    with pytest.raises(ValueError, match="need aces in the deck"):
        RankingSystem(name="x", ranks=tuple(Rank)[:8], jokers=JokerRole.BUG, joker_count=1)
    with pytest.raises(ValueError, match="wild rank is not in the deck"):
        RankingSystem(name="x", ranks=tuple(Rank)[5:], wild_ranks=frozenset({Rank.TWO}))


def ref_order() -> tuple[Shape, ...]:
    return tuple(S(i) for i in range(10))
