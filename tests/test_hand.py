"""The hand state machine, through the rule texts' worked examples and random play."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulations.cards import parse_cards
from simulations.decks import Deck
from simulations.engine.game import JackpotDrop, Rake
from simulations.engine.hand import Action, Hand, IllegalAction
from simulations.engine.limits import (
    HeadsUpCap,
    IncompleteRaiseRule,
    Limit,
    PotLimitBlinds,
    Stakes,
)
from simulations.engine.pots import Pot
from tests.factories import holdem
from tests.state import state_of


def _deck(holes: list[str], board: str, n: int, button: int) -> list[int]:
    """A deck order dealing ``holes[seat]`` and ``board`` (burns taken from the rest)."""
    hole_cards = [parse_cards(h) for h in holes]
    flop, turn, river = parse_cards(board)[:3], parse_cards(board)[3:4], parse_cards(board)[4:5]
    used = {c for h in hole_cards for c in h} | set(parse_cards(board))
    spare = iter(c for c in Deck.standard().cards if c not in used)
    order: list[int] = []
    for round_ in range(2):
        for i in range(n):
            order.append(hole_cards[(button + 1 + i) % n][round_])
    for street in (flop, turn, river):
        order.append(next(spare))
        order.extend(street)
    order.extend(spare)
    return order


def test_holdem_sample_hand() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Sample hand': Alice deals, Bob and Carol post $1 and
    $2; Ted folds; ... Bob's three nines beat Carol's kings and nines for the $26 pot."""
    alice, bob, carol, ted = range(4)
    game = holdem(Limit.FIXED, blinds=(1, 2), stakes=Stakes(2, 4))
    deck = _deck(["Ac 7c", "Qs 9h", "Ks Jh", "2d 3d"], "9c Kc 3h 5s 9d", 4, button=alice)
    hand = Hand(game, [100] * 4, button=alice, deck=deck)
    for seat, action in [
        (ted, Action.fold()),
        (alice, Action.call()),
        (bob, Action.call()),
        (carol, Action.check()),
        (bob, Action.check()),
        (carol, Action.bet(2)),
        (alice, Action.raise_to(4)),
        (bob, Action.call()),
        (carol, Action.call()),
        (bob, Action.check()),
        (carol, Action.check()),
        (alice, Action.check()),
        (bob, Action.bet(4)),
        (carol, Action.call()),
        (alice, Action.fold()),
    ]:
        if seat == bob and action == Action.check() and hand.street == 1:
            assert hand.pot_total == 6  # 'The pot now contains $6'
        hand.act(action, seat)
    assert hand.finished
    assert hand.pots == (Pot(26, (bob, carol)),)
    assert hand.payoffs == (-6, 16, -10, 0)


def test_all_in_before_the_deal() -> None:
    """Rules 002_376df91f076a6501.txt, 'All in before the deal': $1 ante, $4/$8 blinds, Alice
    has $8 in the big blind; Bob calls $8, Carol raises to $16, all fold; main pot $35 and the
    $10 above it to Carol."""
    button, small, alice, bob, carol = 9, 0, 1, 2, 3
    stacks = [500] * 10
    stacks[alice] = 8
    holes = ["7c 2d"] * 10
    cards = [
        "3c 4d",
        "As Ah",
        "5c 6d",
        "Kd Qc",
        "8c 9d",
        "Th Jh",
        "2h 3h",
        "4h 5h",
        "6h 7h",
        "8h 9h",
    ]
    holes = cards
    deck = _deck(holes, "2s 7s Ts Js 4s", 10, button)
    game = holdem(Limit.NO, blinds=(4, 8), ante=1)
    hand = Hand(game, stacks, button=button, deck=deck)
    assert hand.stacks[alice] == 0  # the $1 ante first, then $7 toward the blind
    legal = hand.legal_actions()
    assert legal.seat == bob and legal.to_call == 8  # the complete big blind
    hand.act(Action.call(), bob)
    hand.act(Action.raise_to(16), carol)
    for seat in [4, 5, 6, 7, 8, 9, small, bob]:
        hand.act(Action.fold(), seat)
    assert hand.finished
    assert hand.pots[0] == Pot(35, (alice, carol))
    assert hand.stacks[alice] == 35  # aces hold
    assert hand.stacks[carol] == 500 - 17 + 10  # the side pot and her unmatched raise
    assert sum(hand.stacks) == sum(stacks)


def test_pot_limit_ten_forty_one_forty_in_play() -> None:
    """Rules 002_376df91f076a6501.txt, 'Pot limit': $10 in the pot; $10, then $40, then $140."""
    game = holdem(Limit.POT, blinds=(), ante=2, stakes=Stakes(2))
    hand = Hand(game, [1000] * 5, button=4, rng=np.random.default_rng(1))
    assert hand.pot_total == 10
    assert hand.legal_actions().wager == (2, 10)
    hand.act(Action.bet(10))
    assert hand.legal_actions().wager == (20, 40)
    hand.act(Action.raise_to(40))
    assert hand.legal_actions().wager == (70, 140)
    with pytest.raises(IllegalAction, match=r"to 70\.\.140"):
        hand.act(Action.raise_to(150))


@pytest.mark.parametrize("rule", list(IncompleteRaiseRule))
def test_full_and_half_bet_rules_in_play(rule: IncompleteRaiseRule) -> None:
    """Rules 002_376df91f076a6501.txt, 'Incomplete bet or raise': one opens for $20; the next,
    with $30, goes all in; a third calls $30; the opener may call $10 but re-raise only under
    the half bet rule."""
    game = holdem(Limit.FIXED, blinds=(), ante=1, stakes=Stakes(20, 40), incomplete_raise=rule)
    hand = Hand(game, [1000, 31, 1000], button=2, rng=np.random.default_rng(2))
    hand.act(Action.bet(20), 0)
    assert hand.legal_actions().wager == (30, 30)  # all in for $30: less than a full raise
    hand.act(Action.raise_to(30), 1)
    hand.act(Action.call(), 2)
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.to_call == 10
    if rule is IncompleteRaiseRule.FULL_BET:
        assert legal.wager is None
        with pytest.raises(IllegalAction, match="not reopened"):
            hand.act(Action.raise_to(50), 0)
    else:
        assert legal.wager == (50, 50)


def test_action_only() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'action only': Alice bets $100, Bob calls, Carol all in
    for $119: Alice and Bob may only call the extra $19."""
    game = holdem(Limit.NO, blinds=(), ante=1, stakes=Stakes(10))
    alice, bob, carol = 0, 1, 2
    hand = Hand(game, [1000, 1000, 120], button=2, rng=np.random.default_rng(3))
    hand.act(Action.bet(100), alice)
    hand.act(Action.call(), bob)
    hand.act(Action.raise_to(119), carol)
    for seat in (alice, bob):
        legal = hand.legal_actions()
        assert legal.seat == seat and legal.to_call == 19 and legal.wager is None
        hand.act(Action.call(), seat)
    assert hand.street == 1


def test_half_bet_rule_completion() -> None:
    """Rules 002_376df91f076a6501.txt, 'a player may complete an incomplete raise': a $20
    round; Alice and Bob check, Carol is all in for $5; David may fold, call $5 or complete to
    $20; a call leaves Alice and Bob only calling, a completion lets them raise."""
    game = holdem(
        Limit.FIXED,
        blinds=(),
        ante=1,
        stakes=Stakes(20, 40),
        incomplete_raise=IncompleteRaiseRule.HALF_BET,
    )
    alice, bob, carol, david = range(4)
    for completes in (False, True):
        hand = Hand(game, [1000, 1000, 6, 1000], button=3, rng=np.random.default_rng(4))
        hand.act(Action.check(), alice)
        hand.act(Action.check(), bob)
        hand.act(Action.bet(5), carol)
        legal = hand.legal_actions()
        assert legal.seat == david and legal.to_call == 5 and legal.wager == (20, 20)
        hand.act(Action.raise_to(20) if completes else Action.call(), david)
        legal = hand.legal_actions()
        assert legal.seat == alice
        assert (legal.wager is not None) == completes


def test_heads_up_order() -> None:
    """Rules 002_376df91f076a6501.txt, 'When there are only two players': the button posts
    the small blind, acts first before the flop and last after."""
    game = holdem(Limit.NO, blinds=(1, 2))
    hand = Hand(game, [100, 100], button=1, rng=np.random.default_rng(5))
    assert hand.contributed == [2, 1]
    assert hand.legal_actions().seat == 1
    hand.act(Action.call(), 1)
    assert hand.legal_actions().seat == 0  # the big blind's option
    hand.act(Action.check(), 0)
    assert hand.street == 1 and hand.legal_actions().seat == 0


def test_big_blind_option_and_fixed_limit_cap() -> None:
    """Rules 002_376df91f076a6501.txt, 'the big blind has the option to raise or check' and
    'Maximum number of raises' (a bet and three raises)."""
    game = holdem(Limit.FIXED, blinds=(1, 2), stakes=Stakes(2, 4, max_bets=4))
    hand = Hand(game, [100] * 4, button=0, rng=np.random.default_rng(6))
    hand.act(Action.call(), 3)
    hand.act(Action.call(), 0)
    hand.act(Action.call(), 1)
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.can_check and legal.wager == (4, 4)
    hand.act(Action.raise_to(4), 2)  # bets made: the blind, then this raise
    hand.act(Action.raise_to(6), 3)
    hand.act(Action.raise_to(8), 0)  # the fourth bet caps the round
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.wager is None
    with pytest.raises(IllegalAction, match="capped"):
        hand.act(Action.raise_to(10), 1)


def test_illegal_actions_leave_the_hand_unchanged() -> None:
    game = holdem(Limit.NO, blinds=(5, 10), stakes=Stakes(10, unit=5))
    hand = Hand(game, [1000] * 3, button=0, rng=np.random.default_rng(7))
    hand.legal_actions()  # fills the per-turn cache, so that only real changes would show
    before = state_of(hand)
    for action, seat, message in [
        (Action.call(), 1, "out of turn"),
        (Action.call(), 7, "no seat 7"),
        (Action.call(), -1, "no seat -1"),
        (Action.check(), None, "cannot answer a bet"),
        (Action.bet(20), None, "there is a bet"),
        (Action.raise_to(15), None, r"to 20\.\.1000"),
        (Action.raise_to(2000), None, r"to 20\.\.1000"),
        (Action.raise_to(27), None, "units of 5"),
        (Action(Action.raise_to(20).kind), None, "needs a total"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            hand.act(action, seat)
        assert state_of(hand) == before
    with pytest.raises(ValueError, match="positive"):
        Hand(game, [100, 0, 100], button=0, rng=np.random.default_rng(1))
    with pytest.raises(ValueError, match="button"):
        Hand(game, [100, 100], button=5, rng=np.random.default_rng(1))


@settings(max_examples=150, deadline=None)
@given(
    limit=st.sampled_from(list(Limit)),
    stacks=st.lists(st.integers(1, 400), min_size=2, max_size=10),
    button=st.integers(0, 9),
    seed=st.integers(0, 2**32 - 1),
    choices=st.lists(st.integers(0, 99), min_size=200, max_size=200),
    house=st.booleans(),
)
def test_random_play_conserves_chips(
    limit: Limit, stacks: list[int], button: int, seed: int, choices: list[int], house: bool
) -> None:
    """Property: any sequence of legal actions ends the hand with every chip accounted for
    (stacks, rake and jackpot drop), and no player wins more from an opponent than he risked."""
    rake = Rake(Fraction(5, 100), caps=((2, 3),)) if house else None
    drop = JackpotDrop(1, 20) if house else None
    game = holdem(limit, blinds=(1, 2), ante=0, rake=rake, jackpot_drop=drop)
    hand = Hand(game, stacks, button=button % len(stacks), rng=np.random.default_rng(seed))
    picks = iter(choices)
    while not hand.finished:
        legal = hand.legal_actions()
        options = [Action.check() if legal.can_check else Action.call()]
        if legal.can_fold:
            options.append(Action.fold())
        if legal.wager is not None:
            low, high = legal.wager
            options += [legal.wager_action(low), legal.wager_action(high)]
        hand.act(options[next(picks, 0) % len(options)])
    assert sum(hand.stacks) + hand.rake + hand.jackpot_drop == sum(stacks)
    for seat, payoff in enumerate(hand.payoffs):
        others = sorted(s for i, s in enumerate(stacks) if i != seat)
        assert payoff <= sum(others)
        assert payoff >= -stacks[seat]


def test_kickers_split_pot_through_the_engine() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Kickers and ranks': on the A♠ river the ace plays as
    the fifth card for both Bob and Carol (Queens and Eights), so they split the pot."""
    alice, bob, carol, ted = range(4)
    game = holdem(Limit.FIXED, blinds=(1, 2), stakes=Stakes(2, 4))
    holes = ["Tc 9c", "Kh Qs", "Qh Td", "Jc 2c"]
    hand = Hand(game, [100] * 4, button=alice, deck=_deck(holes, "8s Qc 8h 4c As", 4, alice))
    hand.act(Action.call(), ted)
    hand.act(Action.call(), alice)
    hand.act(Action.call(), bob)
    hand.act(Action.check(), carol)
    while not hand.finished:
        hand.act(Action.check())
    assert hand.pots == (Pot(8, (alice, bob, carol, ted)),)
    assert hand.payoffs == (-2, 2, 2, -2)


def test_everyone_folds_to_a_player_all_in_on_the_ante() -> None:
    """Rules 002_376df91f076a6501.txt, '"All in"': the all-in player 'may not win any more money
    from any player above the amount of his bet'; here he is all in for 3 of a 5 ante and all
    fold to him: he wins 3 from each, and the chips above, which no one called and no one
    left can win, go back to those who put them in."""
    game = holdem(Limit.NO, blinds=(1, 2), ante=5)
    hand = Hand(game, [100, 100, 3], button=0, deck=list(range(52)))
    hand.act(Action.fold())
    hand.act(Action.fold())
    assert hand.finished and hand.payoffs == (-3, -3, 6)
    assert [p.amount for p in hand.pots] == [9]


def _fixed_three_handed_flop(heads_up_cap: HeadsUpCap = HeadsUpCap.AT_CAPPING_RAISE) -> Hand:
    """$20/$40 with blinds 10/20, three players who all call to see the flop; seat 0 (the
    small blind) acts first on it."""
    game = holdem(Limit.FIXED, blinds=(10, 20), stakes=Stakes(20, 40, max_bets=4))
    game = replace(game, heads_up_cap=heads_up_cap)
    hand = Hand(game, [1000] * 3, button=2, rng=np.random.default_rng(3))
    hand.act(Action.call(), 2)
    hand.act(Action.call(), 0)
    hand.act(Action.check(), 1)
    assert hand.street == 1 and hand.actor == 0
    return hand


def test_a_fold_after_the_cap_does_not_lift_it() -> None:
    """Rules 002_376df91f076a6501.txt, 'Maximum number of raises': unlimited raising heads up
    'when only two players are in the hand at the start of the betting round'; Rules
    000_1a86611de8d3f5f7.txt, 'cap': or two 'at the time that what would have otherwise been
    the last raise is made'.  The cap reached three-handed stays when one then folds."""
    hand = _fixed_three_handed_flop()
    hand.act(Action.bet(20), 0)
    hand.act(Action.raise_to(40), 1)
    hand.act(Action.raise_to(60), 2)
    hand.act(Action.raise_to(80), 0)  # the fourth bet, three players in: capped
    hand.act(Action.fold(), 1)
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.to_call == 20 and legal.wager is None
    with pytest.raises(IllegalAction, match="capped"):
        hand.act(Action.raise_to(100), 2)


def test_a_cap_reached_heads_up_is_lifted() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'cap': 'the cap is removed if there are only two
    players remaining ... at the time that what would have otherwise been the last raise is
    made' -- here the round began three-handed, and one folded before the fourth bet."""
    hand = _fixed_three_handed_flop()
    hand.act(Action.bet(20), 0)
    hand.act(Action.fold(), 1)
    hand.act(Action.raise_to(40), 2)
    hand.act(Action.raise_to(60), 0)
    hand.act(Action.raise_to(80), 2)  # the fourth bet, made heads-up
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.wager == (100, 100)
    hand.act(Action.raise_to(100), 0)
    assert hand.legal_actions().wager == (120, 120)


def test_the_start_of_round_reading_keeps_a_cap_reached_after_a_fold() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'cap', first case, and Rules 002_376df91f076a6501.txt:
    heads up 'when only two players are in the hand at the start of the betting round'.
    Under the house option ``heads_up_cap = "start-of-round"`` a round begun three-handed
    stays capped though the fourth bet is made heads-up; the default lifts it."""
    hand = _fixed_three_handed_flop(HeadsUpCap.START_OF_ROUND)
    hand.act(Action.bet(20), 0)
    hand.act(Action.fold(), 1)
    hand.act(Action.raise_to(40), 2)
    hand.act(Action.raise_to(60), 0)
    hand.act(Action.raise_to(80), 2)
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.to_call == 20 and legal.wager is None
    with pytest.raises(IllegalAction, match="capped"):
        hand.act(Action.raise_to(100), 0)
    hand.act(Action.call(), 0)
    # The next round begins heads-up: no cap under either reading.
    for total in (40, 80, 120, 160):
        hand.act(Action.raise_to(total) if total > 40 else Action.bet(total))
    assert hand.legal_actions().wager == (200, 200)


def test_a_sub_minimum_big_blind_is_no_bet_toward_the_cap() -> None:
    """Rules 001_af8fb40237a5ae1f.txt: a big blind below the small bet 'is treated the same way
    a sub-minimum bring-in is treated in stud poker'; Rules 002_376df91f076a6501.txt,
    'Blinds': after blinds of $1 and $2 in a $5 game players 'may either call the $2, or
    raise to $5', and the cap counts three raises 'not including the opening bet'.  So 5 (the
    completion), 10, 15 and 20 are allowed, and 20 caps the round."""
    game = holdem(Limit.FIXED, blinds=(1, 2), stakes=Stakes(5, 10, max_bets=4))
    hand = Hand(game, [100] * 4, button=3, rng=np.random.default_rng(4))
    assert hand.legal_actions().wager == (5, 5)
    hand.act(Action.raise_to(5), 2)
    hand.act(Action.raise_to(10), 3)
    hand.act(Action.raise_to(15), 0)
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.to_call == 13 and legal.wager == (20, 20)
    hand.act(Action.raise_to(20), 1)
    assert hand.legal_actions().wager is None
    with pytest.raises(IllegalAction, match="capped"):
        hand.act(Action.raise_to(25), 2)


def test_a_sub_minimum_big_blind_is_completed_in_spread_limit() -> None:
    """Rules 002_376df91f076a6501.txt, 'Blinds': 'In some fixed-limit and spread-limit games,
    the big blind amount may be less than the normal betting minimum' and players 'may raise
    the amount needed to bring the current bet up to the normal minimum': with blinds 1/2
    and a $5-$10 spread the first raise is to 5 up to 12, not from 2 + 5."""
    game = holdem(Limit.SPREAD, blinds=(1, 2), stakes=Stakes(5, spreads=((5, 10),)))
    hand = Hand(game, [100] * 4, button=3, rng=np.random.default_rng(4))
    assert hand.legal_actions().wager == (5, 12)
    hand.act(Action.raise_to(5), 2)
    assert hand.legal_actions().wager == (10, 15)


def test_the_small_blind_counted_as_big_counts_until_it_calls() -> None:
    """Rules 002_376df91f076a6501.txt, 'Pot limit': 'Subsequent players also treat the $5 as
    if it were $10 in computing the pot size, until the big blind is through acting'.  The
    credit stands for the others until the small blind calls, and never for himself: his
    call already makes up the $5.  Blinds 5/10, two callers: each may raise to 50 -- the
    small blind too (call 5 into 35, raise 40) -- and after his call the big blind may raise
    to 50 on the real pot of 40, not 55."""
    game = holdem(
        Limit.POT,
        blinds=(5, 10),
        stakes=Stakes(10),
        pot_limit_blinds=PotLimitBlinds.SMALL_AS_BIG,
    )
    hand = Hand(game, [1000] * 4, button=3, rng=np.random.default_rng(2))
    assert hand.legal_actions().wager == (20, 40)  # 'open for a maximum of four times'
    hand.act(Action.call(), 2)
    assert hand.legal_actions().wager == (20, 50)
    hand.act(Action.call(), 3)
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.to_call == 5 and legal.wager == (20, 50)
    hand.act(Action.call(), 0)
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.wager == (20, 50)


def test_a_folded_small_blind_still_counts_as_big_until_the_big_blind_acts() -> None:
    """Rules 002_376df91f076a6501.txt, 'Pot limit': the $5 counts as $10 'until the big blind
    is through acting'.  A small blind that folds leaves his $5 in the pot as posted: the big
    blind still counts it as 10 (pot 40, raise to 50); once he has acted the pot is real."""
    game = holdem(
        Limit.POT,
        blinds=(5, 10),
        stakes=Stakes(10),
        pot_limit_blinds=PotLimitBlinds.SMALL_AS_BIG,
    )
    hand = Hand(game, [1000] * 4, button=3, rng=np.random.default_rng(2))
    hand.act(Action.call(), 2)
    hand.act(Action.call(), 3)
    hand.act(Action.fold(), 0)
    assert hand.legal_actions().wager == (20, 50)
    hand.act(Action.raise_to(30), 1)
    # 5 + 30 + 10 + 10 = 55 in the pot; seat 2 calls 20 (75) and may raise 75 more.
    assert hand.legal_actions().wager == (50, 105)
