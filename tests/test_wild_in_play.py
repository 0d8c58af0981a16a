"""Wild cards decided by the deal: Follow the Queen, low hole card wild and Spit in the ocean
(simulations/rules/wild_rules.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from simulations.cards import Card, Rank, parse_cards
from simulations.engine.actions import Action
from simulations.engine.events import Awarded, Shown
from simulations.engine.game import ForcedBets
from simulations.engine.gamefile import GameFileError, load_game_file
from simulations.engine.hand import Hand
from simulations.engine.history import play_plainly
from simulations.engine.limits import Stakes
from simulations.engine.variants import variant
from simulations.rules.wild_rules import follow_the_queen, low_board_card, low_hole_card


def _up(text: str) -> list[Card]:
    return parse_cards(text)


@pytest.mark.parametrize(
    ("upcards", "wild"),
    [
        ("7c Kd 2h 9s", frozenset()),  # 'If no queens are dealt (exposed), then there are no wilds'
        ("Qc 7d 2h 9s", frozenset({Rank.SEVEN})),  # the card after the queen
        ("Qc 7d 2h Qs 9s 4c", frozenset({Rank.NINE})),  # 'the previous wild card loses its status'
        ("3c Qd 7h 4s Qh", frozenset({Rank.QUEEN})),  # 'the final card dealt ... is itself a queen'
        ("Qc Qd 5h", frozenset({Rank.FIVE})),  # a queen after a queen: the five follows the last
    ],
)
def test_follow_the_queen(upcards: str, wild: frozenset[Rank]) -> None:
    """Rules 002_376df91f076a6501.txt, 'Follow the Queen': 'whichever card is immediately
    dealt (exposed, or face-up) after any queen previously dealt (exposed). In the event that
    the final card dealt (exposed) is itself a queen, then all queens are wild'; Rules 000:
    'if a second Q appears among the upcards, the previous wild card loses its status'."""
    assert follow_the_queen(_up(upcards)) == wild


def test_lame_brain_petes_wild_card_is_the_lowest_on_the_board() -> None:
    """Rules 002_376df91f076a6501.txt, 'Lame-brain Pete': 'the lowest-ranking card on the
    board, and all cards of that same rank ... play as wild cards (thus, it is not possible to
    know exactly which cards will be wild until the end, unless a deuce appears on the board
    earlier than that)'."""
    assert low_board_card(parse_cards("Kc 9d Ah 9s")) == frozenset({Rank.NINE})
    assert low_board_card(parse_cards("2c Ad")) == frozenset({Rank.TWO})
    hand = play_plainly(
        Hand(
            variant("FLBP").game(),
            [100] * 3,
            button=0,
            # dealt round by round to seats 1, 2, 0; then the board
            deck=_deck("Ac Kc 7h  Ad Kd 8h  5c 5d 3s  9c 9d Js 9h"),
        )
    )
    # the board's lowest card is a nine: three nines make five of a kind of each pair, and
    # fill seat 0's 7-8 of hearts to a jack-high straight flush
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    assert shown == {1: "Five Aces", 2: "Five Kings", 0: "Jack-high straight flush"}, shown
    assert {e.seat for e in hand.events if isinstance(e, Awarded)} == {1}


def test_low_hole_card_is_the_lowest_down_card_aces_high() -> None:
    """Rules 000_1a86611de8d3f5f7.txt: 'each player's lowest-ranking downcard (and all other
    cards of that same rank) are wild in that player's hand only'."""
    assert low_hole_card(parse_cards("Ah 5c 9d")) == frozenset({Rank.FIVE})
    assert low_hole_card(parse_cards("Ah Kc")) == frozenset({Rank.KING})


def _deck(cards: str) -> list[int]:
    order = list(parse_cards(cards))
    return order + [c for c in range(52) if c not in order]


# Three players, the button on seat 0 (the deal goes 1, 2, 0).  Fourth street's queen (seat 1)
# is followed by seat 2's seven: sevens are wild.  Seat 2 holds K-K-3-3 and the seven (kings
# full with it, two pair without); seat 0 holds nines full of tens with no wild card.
_FFTQ_DECK = _deck(
    "Ac Kc 9d  Ad Ks Th  2c 3d 4h"  # third street: two down, one up each
    " 8s Qs 7d 9c"  # fourth: a burn, then an up card each
    " 8c 5c 8d Ts"  # fifth
    " 7c 6c Jd 2s"  # sixth
    " 6d Kh 3h 9h"  # seventh: a burn, one down each
)


def test_follow_the_queen_decides_the_showdown() -> None:
    """Rules 002_376df91f076a6501.txt, 'Follow the Queen': the card 'immediately dealt
    (exposed, or face-up) after any queen' is wild, 'and all others of that rank' (Rules
    000): the seven after the queen makes seat 2's kings full beat seat 0's nines full,
    which win the same deal played as plain seven-card stud."""
    hand = play_plainly(Hand(variant("FFTQ").game(), [500] * 3, button=0, deck=_FFTQ_DECK))
    assert tuple(hand.upcards_dealt) == parse_cards("2c 3d 4h Qs 7d 9c 5c 8d Ts 6c Jd 2s")
    assert follow_the_queen(hand.upcards_dealt) == frozenset({Rank.SEVEN})
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    assert shown[2].startswith("Kings full") and shown[0].startswith("Nines full"), shown
    assert {e.seat for e in hand.events if isinstance(e, Awarded)} == {2}
    plain = play_plainly(Hand(variant("F7S").game(), [500] * 3, button=0, deck=_FFTQ_DECK))
    assert {e.seat for e in plain.events if isinstance(e, Awarded)} == {0}


def test_a_low_hole_card_is_wild_for_its_player_alone() -> None:
    """Rules 000_1a86611de8d3f5f7.txt: 'each player's lowest-ranking downcard (and all other
    cards of that same rank) are wild in that player's hand only'.  On the same deal: seat 0's
    lowest down card is a nine, so his three nines are wild (five tens); seat 2's a three (his
    two threes fill 7-8-J of diamonds to a jack-high straight flush); seat 1's a king (aces
    high), one wild card to an ace-high flush.  Five of a kind ranks on top."""
    hand = play_plainly(Hand(variant("F7S-LHW").game(), [500] * 3, button=0, deck=_FFTQ_DECK))
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    assert shown == {0: "Five Tens", 1: "Ace-high flush", 2: "Jack-high straight flush"}
    assert {e.seat for e in hand.events if isinstance(e, Awarded)} == {0}


def test_spit_in_the_ocean_sample_deal() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Spit in the ocean': 'Bob opens for $1, Carol raises to
    $2, David folds, Alice and Bob call. Bob discards two cards, and receives two replacements.
    Carol draws one card, and Alice draws one. Bob checks, Carol bets $2, Alice raises to $4,
    Bob folds, Carol reraises to $6, and Alice calls. The cards in Carol's hand are Q-Q-6-4.
    Because the [wild card] in her hand and the one on the board are wild, her hand is four
    queens. Alice's hand contains K-J-9-7, all spades. With the shared wild card, this gives
    her a flush, which loses to Carol's four queens.'  The captured text lost the spit card's
    rank (six or four of diamonds fit every word); both are played."""
    for spit in ("6d", "4d"):
        bob, carol, david, alice = "2h 3h 8c 9d", "Qc Qh 6s 2c", "5c 5d Tc Jc", "Ks Js 9s 3d"
        dealt = [parse_cards(h) for h in (bob, carol, david, alice)]
        order = [dealt[p][i] for i in range(4) for p in range(4)]
        order += parse_cards(f"{spit} 8h Th Jh 4h 7s")  # the spit, a burn, Bob's two, Carol, Alice
        deck = order + [c for c in range(52) if c not in order]
        game = replace(
            variant("FSPIT").game(), forced=ForcedBets(), stakes=Stakes(1, 2, big_bet_round=1)
        )
        hand = Hand(game, [100] * 4, button=0, deck=deck)  # Alice deals: Bob is seat 1
        for action in (Action.bet(1), Action.raise_to(2), Action.fold(), Action.call()):
            hand.act(action)
        hand.act(Action.call())  # Bob
        hand.act(Action.draw(parse_cards("8c 9d")))
        hand.act(Action.draw(parse_cards("2c")))
        hand.act(Action.draw(parse_cards("3d")))
        assert sorted(hand.hole[2]) == sorted(parse_cards("Qc Qh 6s 4h"))
        assert sorted(hand.hole[0]) == sorted(parse_cards("Ks Js 9s 7s"))
        for action in (
            Action.check(),
            Action.bet(2),
            Action.raise_to(4),
            Action.fold(),
            Action.raise_to(6),
            Action.call(),
        ):
            hand.act(action)
        shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
        assert shown[2].startswith("Four Queens") and "flush" in shown[0].lower(), shown
        assert [(e.seat, e.amount) for e in hand.events if isinstance(e, Awarded)] == [(2, 18)]
        assert hand.payoffs == (-8, -2, 10, 0)


def test_a_dealt_wild_rule_is_a_high_halfs_and_named_in_full(tmp_path: Path) -> None:
    text = Path(variant("FFTQ").source).read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('"follow-the-queen"', '"follow-the-king"'))
    with pytest.raises(GameFileError, match=r"dealt_wild: .*follow-the-queen"):
        load_game_file(bad)
    low = text.replace('ranking = "high", dealt_wild', 'ranking = "ace-to-five low", dealt_wild')
    bad.write_text(low)
    with pytest.raises(GameFileError, match=r"dealt_wild: belongs to a high half"):
        load_game_file(bad)
