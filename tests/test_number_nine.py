"""Number Nine: seven-card stud with 9s wild and wild cards made by adding two number cards to
nine (Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'any two number cards that add up to 9
may make one wild card, at the player's option'; simulations/evaluators/addition.py,
simulations/evaluators/systems.py), checked against an independent brute force that chooses
the five units of a hand (single cards and adding pairs) and tries every card for each wild
one (tests/poker_reference.py)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from simulations.cards import Rank, parse_cards
from simulations.engine.events import Awarded, Shown
from simulations.engine.gamefile import GameFileError, parse_game_text
from simulations.engine.hand import Hand
from simulations.engine.history import play_plainly
from simulations.engine.variants import GAMES_FOLDER, variant
from simulations.evaluators.addition import adding_pairs, made_wild_hands, number_value
from simulations.evaluators.systems import (
    JokerRole,
    RankingSystem,
    evaluate_system,
    evaluate_system_batch,
)
from tests import poker_reference as ref

GAMES = Path(str(GAMES_FOLDER))
NUMBER_NINE = variant("F7S-NINE").game().showdown.halves[0].system
BY_ADDITION = variant("F7S-NINE-ADD").game().showdown.halves[0].system
assert NUMBER_NINE is not None and BY_ADDITION is not None
RULE = "Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Number Nine"


def _name(system: RankingSystem, text: str) -> str:
    return evaluate_system(system, text).name


# --- the oracle -----------------------------------------------------------------------------


def _adds(first: int, second: int) -> bool:
    """Two number cards adding up to nine, the ace one, as the text says, written anew."""
    values = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10}
    one, two = ref.SYMBOLS[first >> 2], ref.SYMBOLS[second >> 2]
    return one in values and two in values and values[one] + values[two] == 9


def oracle(cards: list[int], nines_wild: bool) -> int:
    """The best hand by choosing its five units outright: some disjoint pairs adding to nine
    (each one wild card) and single cards, five in all, every wild card tried as every card."""
    pairs = [
        p for p in itertools.combinations(range(len(cards)), 2) if _adds(*map(cards.__getitem__, p))
    ]
    best = -1
    for made in range(3):
        for chosen in itertools.combinations(pairs, made):
            used = [i for pair in chosen for i in pair]
            if len(set(used)) != len(used):
                continue  # 'Cards used to make wild cards may not figure ... twice'
            singles = [i for i in range(len(cards)) if i not in used]
            for kept in itertools.combinations(singles, 5 - made):
                row = [cards[i] for i in kept] + [52 + k for k in range(made)]
                wild = {52, 53, 54, 55}
                if nines_wild:
                    wild |= {c for c in row if c < 52 and c >> 2 == Rank.NINE}
                best = max(best, ref.brute_force(row, ref.Rules(), frozenset(wild)))
    return best


def _wild_units(cards: list[int], nines_wild: bool) -> int:
    """The most wild cards a five could hold (made and natural): the brute force's cost."""
    nines = sum(c >> 2 == Rank.NINE for c in cards) if nines_wild else 0
    return nines + min(2, len(adding_pairs(cards, 9)))


@pytest.mark.parametrize(("system", "nines_wild"), [(NUMBER_NINE, True), (BY_ADDITION, False)])
def test_number_nine_equals_the_brute_force(system: RankingSystem, nines_wild: bool) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'The player is not obliged to make any
    wild cards ... Cards used to make wild cards may not figure in the resulting hand twice.
    The player cannot add three or more cards.'  Random seven-card hands, and hands dealt from
    the number cards alone (rich in pairs adding to nine), each valued as the oracle values
    it."""
    rng = np.random.default_rng(9)
    uniform = [rng.permutation(52)[:7].tolist() for _ in range(150)]
    numbers = [c for c in range(52) if c >> 2 <= Rank.EIGHT or c >> 2 == Rank.ACE]
    rich = [rng.permutation(numbers)[:7].tolist() for _ in range(150)]
    hands = [h for h in uniform + rich if _wild_units(h, nines_wild) <= 3][:220]
    assert sum(len(adding_pairs(h, 9)) >= 2 for h in hands) > 40  # two wild cards made
    ours = evaluate_system_batch(system, np.array(hands, dtype=np.int8))
    for hand, value in zip(hands, ours.tolist(), strict=True):
        expected = oracle(hand, nines_wild)
        assert value == expected, (
            f"{ref.SYMBOLS} {hand}: {system.describe(value)} != {system.describe(expected)}"
        )


def test_the_oracle_can_tell_addition_from_none() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'any two number cards that add up to 9 may
    make one wild card'. The brute force sees the made wild card: 4-5 with three kings is four
    kings."""
    cards = list(parse_cards("Kh Kd Ks 4c 5d 2s 3h"))
    assert oracle(cards, False) > ref.brute_force(cards, ref.Rules())


# --- the rule, hand by hand ------------------------------------------------------------------


def test_what_adds_up_to_nine() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Number Nine: 'Aces count as 1 for wild card
    purposes'; picture cards are no number cards, and a ten adds up to nine with nothing."""
    assert [number_value(c) for c in parse_cards("Ah 2h 9h Th Jh Qh Kh")] == [
        1,
        2,
        9,
        10,
        None,
        None,
        None,
    ]
    cards = parse_cards("Ah 8d 2c 7s 3h 6d 4c 5s 9h Th Kd")
    assert adding_pairs(cards, 9) == [(0, 1), (2, 3), (4, 5), (6, 7)]
    # With seven cards at most two pairs are made (five units are left), each card once.
    hands = made_wild_hands(parse_cards("Ah 8d 8c Kd Ks Qh Jh"), 9)
    assert hands[0] == tuple(parse_cards("Ah 8d 8c Kd Ks Qh Jh"))  # face value: the option
    assert len(hands) == 3 and all(hand.count(52) == 1 for hand in hands[1:])  # A+8d or A+8c
    assert not any(
        len(hand) < 5 for hand in made_wild_hands(parse_cards("Ah 8d 2c 7s 3h 6d 4c"), 9)
    )


@pytest.mark.parametrize(
    ("cards", "nine", "addition"),
    [
        # 4+5 make a third king; under 9s wild the same
        ("Kh Kd 4c 5d Qs 8c 3h", "Three Kings", "Three Kings"),
        # two made wild cards: A+8 and 2+7 with a pair of queens, four queens
        ("Qh Qd As 8c 2d 7h Kc", "Four Queens", "Four Queens"),
        # the 9 wild makes five kings; by addition alone the 9 is a nine
        ("Kh Kd Ks Kc 9h 2c 3d", "Five Kings", "Four Kings"),
        # 'can play cards that could make 9s at face value': the straight 2-3-4-5-6 beats
        # anything two made wild cards would make of the other three
        ("2h 3d 4c 5s 6h Jd Qc", "Six-high straight", "Six-high straight"),
        # three cards may not be added: 2+3+4 make no wild card
        ("2h 3d 4c Kh Ks Qd Jc", "Pair of Kings", "Pair of Kings"),
        # a card of two adding pairs plays in one: 4 with a 5 or with the other 5
        ("4h 5d 5c Ah Ad Qh Jh", "Three Aces", "Three Aces"),
    ],
)
def test_hands(cards: str, nine: str, addition: str) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'any two number cards that add up to 9
    may make one wild card ... The player cannot add three or more cards.'"""
    assert _name(NUMBER_NINE, cards) == nine
    assert _name(BY_ADDITION, cards) == addition


def test_a_made_wild_card_makes_a_better_hand_than_the_cards_alone() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Number Nine: 'Cards used to make wild cards
    may not figure in the resulting hand twice': 4-5 as a wild card gives up the 4 and the 5, so a
    flush of 4-5 and three others is no flush."""
    # clubs K Q 4 5 and the 3c: a flush at face value; 4+5 as a wild card: K Q W 3 + Ad, less
    assert _name(BY_ADDITION, "Kc Qc 4c 5c 3c Ad 2h") == "King-high flush"


# --- the game ---------------------------------------------------------------------------------


def _deck(cards: str) -> list[int]:
    order = list(parse_cards(cards))
    return order + [c for c in range(52) if c not in order]


# Two players, the button on seat 0: each street's cards go to seat 1, then seat 0.  Seat 1
# holds K-K with 4c 5d; seat 0 aces and queens.  third street (down, down, up), then a burn
# before each street.
DEAL = "4c Ah 5d Ad Kh Qc  2s Kd Qd  2h 8c 3s  2d Jh Jc  6s 3c Tc"


@pytest.mark.parametrize(("code", "winner", "shown"), [
    ("F7S", 0, "Pair of Kings"),
    ("F7S-NINE-ADD", 1, "Three Kings"),
    ("F7S-NINE", 1, "Three Kings"),
])  # fmt: skip
def test_the_made_wild_card_wins_the_pot(code: str, winner: int, shown: str) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'any two number cards that add up to 9
    may make one wild card'.  Seat 1's pair of kings loses to seat 0's aces and queens in
    seven-card stud; in Number Nine his 4 and 5 make a third king, and he wins."""
    hand = play_plainly(Hand(variant(code).game(), [100, 100], button=0, deck=_deck(DEAL)))
    names = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    assert names == {0: "Two pair, Aces and Queens", 1: shown}
    assert {e.seat for e in hand.events if isinstance(e, Awarded)} == {winner}
    assert sum(hand.stacks) == 200


def test_the_game_files() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': '9s are wild' and 'Sometimes, 9s themselves
    are not wild, and wild cards can be made only by addition'. The two readings of the text: 9s
    wild with addition (F7S-NINE), addition alone (F7S-NINE-ADD); both seven-card stud, any five."""
    assert NUMBER_NINE.wild_ranks == frozenset({Rank.NINE}) and NUMBER_NINE.adds_to == 9
    assert BY_ADDITION.wild_ranks == frozenset() and BY_ADDITION.adds_to == 9
    assert variant("F7S-NINE").game().phases == variant("F7S").game().phases


# --- bad input ----------------------------------------------------------------------------------

FILE = (GAMES / "130-number-nine-fixed-limit.toml").read_text()
HALF = '{ ranking = "high", wild_ranks = "9", adds_to = 9, name = "Number Nine" }'


@pytest.mark.parametrize(
    ("old", "new", "field", "message"),
    [
        (
            HALF,
            HALF.replace("adds_to = 9", "adds_to = 2"),
            "showdown.halves[0].adds_to",
            "at least 3, got 2",
        ),
        (
            HALF,
            HALF.replace("adds_to = 9", 'adds_to = "9"'),
            "showdown.halves[0].adds_to",
            "integer",
        ),
        (
            'use = "any"',
            'use = "any"\nrestrict = [{ cards = [0, 1], at_most = 1 }]',
            "showdown.halves[0].adds_to",
            "no restrict",
        ),
        (
            'exhaustion = "stud-texts"',
            'exhaustion = "stud-texts"\njokers = 1',
            "showdown.halves[0].adds_to",
            "not defined with jokers",
        ),
        (
            HALF,
            '{ ranking = "ace-to-five low", adds_to = 9 }',
            "showdown.halves[0].adds_to",
            "high half",
        ),
    ],
)
def test_bad_number_nine_files_name_the_field(old: str, new: str, field: str, message: str) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'any two number cards that add up to 9 may
    make one wild card'. A wild card made by addition plays any five of a standard deck's cards."""
    text = FILE.replace(old, new)
    if "jokers = 1" in new:
        text = text.replace(HALF, HALF.replace("adds_to", 'jokers = "wild", adds_to'))
    assert text != FILE
    with pytest.raises(GameFileError) as caught:
        parse_game_text(text, "nine.toml")
    assert caught.value.field == field, caught.value
    assert message in str(caught.value), caught.value


def test_bad_systems_are_refused() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous': 'two number cards that add up to 9' (3 to 19
    is what two of ace to ten can add up to); no jokers, no given combos."""
    with pytest.raises(ValueError, match=r"add up to 3\.\.19"):
        RankingSystem(name="x", adds_to=20)
    with pytest.raises(ValueError, match="not defined with jokers"):
        RankingSystem(name="x", adds_to=9, jokers=JokerRole.WILD, joker_count=1)
    with pytest.raises(ValueError, match="not given combos"):
        evaluate_system_batch(BY_ADDITION, np.arange(7).reshape(1, 7), [[0, 1, 2, 3, 4]])
