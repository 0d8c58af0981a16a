"""Seven-card stud running out of cards: the burn cards dealt again, then a community card
(Rules 003_6e018542f14946f8.txt, 'If the deck does become exhausted during play'); and the
tournament form, WSOP Live-Action Rules (2024), Rule 228."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from simulations.engine.events import Burned, Exhausted, Folded, HoleDealt, Reshuffled
from simulations.engine.game import ExhaustionRule
from simulations.engine.hand import Action, Hand
from simulations.engine.history import play_plainly
from tests.factories import seven_card_stud


def _dealt(hand: Hand) -> list[int]:
    cards = [c for e in hand.events if isinstance(e, HoleDealt) for c in e.cards]
    return [int(c) for c in cards + list(hand.board)]


def _exhaustion(hand: Hand) -> list[Exhausted]:
    return [e for e in hand.events if isinstance(e, Exhausted)]


def test_eight_players_nobody_folding_reach_the_community_card() -> None:
    """Rules 003_6e018542f14946f8.txt, 'seven cards to eight players plus four burn cards
    makes 60 cards ... If even those are not sufficient, then on the final round instead of
    dealing a downcard to each player, a single community card is dealt to the center of
    the table, and is shared by everyone'."""
    for seed in range(20):
        hand = Hand(seven_card_stud(), [100] * 8, button=seed % 8, rng=np.random.default_rng(seed))
        play_plainly(hand)
        assert _exhaustion(hand) == [Exhausted("seventh street", 0, 1, True)]
        burns = [int(e.card) for e in hand.events if isinstance(e, Burned)]
        assert len(burns) == 4 and [int(c) for c in hand.board] == burns[:1]
        assert all(len(cards) == 6 for cards in hand.hole)  # the seventh card is shared
        dealt = _dealt(hand)
        assert len(dealt) == len(set(dealt)) == 49  # 48 to players, one to the board
        assert sum(hand.stacks) == 800


def test_seven_players_need_the_burn_cards() -> None:
    """Rules 003_6e018542f14946f8.txt, 'previously-dealt burn cards can be used when only a few
    cards are needed to complete the deal': seven players of seven cards and four burns make
    53, so seventh street takes one burn card again, and every player gets his own card."""
    hand = Hand(seven_card_stud(), [100] * 7, button=3, rng=np.random.default_rng(5))
    play_plainly(hand)
    assert _exhaustion(hand) == [Exhausted("seventh street", 6, 1, False)]
    assert all(len(cards) == 7 for cards in hand.hole) and not hand.board
    burns = [int(e.card) for e in hand.events if isinstance(e, Burned)]
    seventh = {int(e.cards[0]) for e in hand.events[-30:] if isinstance(e, HoleDealt)}
    assert burns[0] in seventh  # the first burn card came back as a seventh-street card
    dealt = _dealt(hand)
    assert len(dealt) == len(set(dealt)) == 49


def test_folded_cards_never_come_back() -> None:
    """Rules 003_6e018542f14946f8.txt, 'Under no circumstances can any discarded card from a
    folded hand be "recycled" for later use': with one of eight folding on third street,
    seventh street has three stub cards and three earlier burns for seven players: a
    community card from the stub, and none of the folded cards anywhere."""
    hand = Hand(seven_card_stud(), [100] * 8, button=0, rng=np.random.default_rng(11))
    legal = hand.legal_actions()
    hand.act(Action.bring_in())
    folder = hand.legal_actions().seat
    hand.act(Action.fold())
    assert any(isinstance(e, Folded) and e.seat == folder for e in hand.events)
    folded_cards = {int(c) for c in hand.hole[folder]}
    play_plainly(hand)
    assert legal.bring_in is not None
    assert _exhaustion(hand) == [Exhausted("seventh street", 3, 0, True)]
    assert not folded_cards & {int(c) for c in hand.board}
    live_cards = [int(c) for s in range(8) if s != folder for c in hand.hole[s]]
    assert not folded_cards & set(live_cards)


def test_six_players_never_run_out() -> None:
    """Rules 003_6e018542f14946f8.txt, 'seven cards to eight players plus four burn cards
    makes 60 cards': six players need 46, so nothing is reused."""
    hand = Hand(seven_card_stud(), [100] * 6, button=0, rng=np.random.default_rng(2))
    play_plainly(hand)
    assert _exhaustion(hand) == [] and all(len(cards) == 7 for cards in hand.hole)


def test_rule_228_burns_and_deals_a_community_card_off_a_stub_of_more_than_two() -> None:
    """WSOP Live-Action Rules (2024), Rule 228, 'If not, and the stub has more
    than two cards: burn and deal a community card': one of eight folding on third street
    leaves four stub cards for seven players — short of nine, and of nine with the three
    burns too — so the dealer burns and deals one community card off the stub, with no
    scramble (Rules 003's reading would take the burn cards first)."""
    game = replace(seven_card_stud(), exhaustion=ExhaustionRule.STUD_WSOP)
    hand = Hand(game, [100] * 8, button=0, rng=np.random.default_rng(11))
    hand.act(Action.bring_in())
    folder = hand.legal_actions().seat
    hand.act(Action.fold())
    play_plainly(hand)
    assert not any(isinstance(e, Reshuffled) for e in hand.events)
    assert _exhaustion(hand) == [Exhausted("seventh street", 3, 0, True)]
    burns = [int(e.card) for e in hand.events if isinstance(e, Burned)]
    assert len(burns) == 4 and len(hand.board) == 1 and int(hand.board[0]) not in burns
    assert all(len(cards) == 6 for s, cards in enumerate(hand.hole) if s != folder)
