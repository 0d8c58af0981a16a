"""Posts: a new player's live big blind, a returning player's dead small blind."""

from __future__ import annotations

import numpy as np
import pytest

from simulations.engine.events import Posted, PostKind
from simulations.engine.forced import Post
from simulations.engine.hand import Action, Hand
from simulations.engine.limits import Limit
from tests.factories import holdem
from tests.test_hand import _deck


def _hand(*posts: Post, stacks: list[int] | None = None) -> Hand:
    game = holdem(Limit.NO, blinds=(1, 2))
    # Six seats, the button at 0: 1 and 2 post the blinds, 3 is first to act.
    return Hand(game, stacks or [100] * 6, button=0, rng=np.random.default_rng(4), posts=posts)


def test_new_player_post_is_live_with_the_option() -> None:
    """Rules 002_376df91f076a6501.txt, 'Post': 'putting an amount equal to the big blind into
    the pot before the deal. The post is a live bet, meaning that the amount can be applied
    towards a call or raise'."""
    hand = _hand(Post(4))
    assert hand.contributed == [0, 1, 2, 0, 2, 0]
    hand.act(Action.call(), seat=3)
    legal = hand.legal_actions()
    assert legal.seat == 4 and legal.can_check  # his post already calls the big blind
    hand.act(Action.check(), seat=4)
    for seat in (5, 0):
        hand.act(Action.fold(), seat=seat)
    hand.act(Action.call(), seat=1)
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.can_check  # the big blind's option, as ever
    hand.act(Action.raise_to(8), seat=2)
    assert hand.legal_actions().seat == 3
    hand.act(Action.call(), seat=3)
    assert hand.legal_actions().to_call == 6  # the post counts toward the call


def test_missed_blinds_post_small_blind_dead() -> None:
    """Rules 002_376df91f076a6501.txt, 'Post': a player who missed both blinds posts 'the sum
    of the big and small blinds ... The big blind amount is live, but the small blind amount
    is dead, meaning that it cannot be applied towards a call or raise'."""
    hand = _hand(Post(4, missed_small_blind=True))
    assert hand.contributed[4] == 3 and hand.round_bets[4] == 2 and hand.pot_total == 6
    kinds = [(e.seat, e.kind, e.amount) for e in hand.events if isinstance(e, Posted)]
    assert (4, PostKind.POST, 2) in kinds and (4, PostKind.DEAD, 1) in kinds
    hand.act(Action.raise_to(6), seat=3)
    assert hand.legal_actions().seat == 4 and hand.legal_actions().to_call == 4  # not 3


def test_dead_money_stays_in_the_pot() -> None:
    """Rules 002_376df91f076a6501.txt, 'Post': dead money belongs to the pot — it is neither
    an uncalled bet handed back nor the poster's alone to win back."""
    holes = ["2c 3d", "4c 5d", "As Ad", "7c 8d", "9c Td", "Jc 2h"]
    deck = _deck(holes, "Kh Qs 3c 6h 7s", 6, button=0)
    game = holdem(Limit.NO, blinds=(1, 2))
    post = (Post(4, missed_small_blind=True),)
    hand = Hand(game, [100] * 6, button=0, deck=deck, posts=post)
    hand.act(Action.fold(), seat=3)
    hand.act(Action.check(), seat=4)
    for seat in (5, 0, 1):
        hand.act(Action.fold(), seat=seat)
    hand.act(Action.check(), seat=2)
    while not hand.finished:
        hand.act(Action.check())
    # The big blind's aces take 1 (small blind) + 2 + 2 live + 1 dead.
    assert hand.payoffs == (0, -1, 4, 0, -3, 0)


def test_bad_posts() -> None:
    """Rules 002_376df91f076a6501.txt, 'Post': 'Posting is not required if the player due the
    post happens to be in the big blind.'"""
    with pytest.raises(ValueError, match="already posted"):
        _hand(Post(2))
    with pytest.raises(ValueError, match="not a seat"):
        _hand(Post(9))
    with pytest.raises(ValueError, match="already posted"):
        _hand(Post(4), Post(4))
    with pytest.raises(ValueError, match="no blinds"):
        game = holdem(Limit.NO, blinds=(), ante=1)
        Hand(game, [10] * 3, button=0, rng=np.random.default_rng(1), posts=(Post(1),))


def test_a_post_short_of_chips_is_all_in() -> None:
    """Rules 002_376df91f076a6501.txt, 'All in before the deal': 'If a player does not have
    sufficient money to cover the ante and blinds due, that player is automatically all in for
    the coming hand ... Players to act must call the complete amount of the big blind'.  A
    post is the big blind's amount before the deal: one of 1 against a big blind of 2 puts
    its poster all in, the others still call 2, and he wins only what he matched."""
    holes = ["2c 3d", "4c 5d", "7h 8d", "Kc Kd", "As Ad", "Jc 2h"]
    deck = _deck(holes, "Qh 9s 3c 6h 2s", 6, button=0)
    game = holdem(Limit.NO, blinds=(1, 2))
    stacks = [100, 100, 100, 100, 1, 100]
    hand = Hand(game, stacks, button=0, deck=deck, posts=(Post(4),))
    posted = [e for e in hand.events if isinstance(e, Posted) and e.seat == 4]
    assert [(e.kind, e.amount, e.all_in) for e in posted] == [(PostKind.POST, 1, True)]
    assert hand.legal_actions().seat == 3 and hand.legal_actions().to_call == 2
    hand.act(Action.call(), seat=3)
    assert hand.legal_actions().seat == 5  # the poster, all in, is passed over
    for seat in (5, 0, 1):
        hand.act(Action.fold(), seat=seat)
    hand.act(Action.check(), seat=2)
    while not hand.finished:
        hand.act(Action.check())
    # Main pot 1 each from seats 1 to 4, to the aces; the side pot of 1 + 1 to the kings.
    assert hand.payoffs == (0, -1, -2, 0, 3, 0)


def test_a_returning_player_short_of_both_blinds_posts_the_live_one_first() -> None:
    """Rules 002_376df91f076a6501.txt, 'All in before the deal' and 'Post': a returning
    player owes 'the sum of the big and small blinds'; with only the big blind's 2 he posts
    it live and is all in, with nothing left for the dead small blind (the reading in
    docs/readings.md: the live post first, as the post is the big blind's amount)."""
    hand = _hand(Post(4, missed_small_blind=True), stacks=[100, 100, 100, 100, 2, 100])
    kinds = [(e.seat, e.kind, e.amount) for e in hand.events if isinstance(e, Posted)]
    assert (4, PostKind.POST, 2) in kinds and not any(k is PostKind.DEAD for _, k, _ in kinds)
    assert hand.contributed[4] == 2 and hand.dead[4] == 0 and hand.stacks[4] == 0
    hand = _hand(Post(4, missed_small_blind=True), stacks=[100, 100, 100, 100, 3, 100])
    assert hand.dead[4] == 1 and hand.stacks[4] == 0  # exactly both: the dead one too


def test_a_small_blind_above_the_big_blind_is_refused() -> None:
    """Rules 002_376df91f076a6501.txt, 'Blinds': 'the player after the dealer blinds about
    half of what would be a normal bet, and the next player blinds what would be a whole
    bet', and 'Players to act must call the complete amount of the big blind': the last
    blind is the largest.  Blinds of 2 and 1 once left the small blind a call of -1."""
    from simulations.engine.game import ForcedBets

    with pytest.raises(ValueError, match="the largest blind"):
        ForcedBets(blinds=(2, 1))
    with pytest.raises(ValueError, match="the largest blind"):
        holdem(Limit.NO, blinds=(1, 3, 2))
    assert ForcedBets(blinds=(2, 2)).blinds == (2, 2)  # equal blinds are blinds
    assert ForcedBets(blinds=(1, 1, 2), first_blind_on_button=True).blinds == (1, 1, 2)
