"""Draw games: the draw, its house limits, the five-consecutive and bottom-card rules, and
running out of cards during a draw (Rules 003_6e018542f14946f8.txt, 'Five-card draw')."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from simulations.cards import Card, Rank, format_cards, parse_cards
from simulations.engine.actions import Action, ActionKind, IllegalAction
from simulations.engine.events import (
    Awarded,
    Burned,
    Discarded,
    HoleDealt,
    PassedOut,
    Reshuffled,
    Shown,
)
from simulations.engine.game import ExhaustionRule, ForcedBets, GameDefinition
from simulations.engine.hand import Hand
from simulations.engine.history import play_plainly
from simulations.engine.limits import Limit, Stakes
from simulations.engine.phases import Bet, Deal, Draw, FirstToAct
from simulations.engine.variants import variant
from simulations.evaluators.selection import FIVE_CARDS
from tests.state import state_of


def five_card_draw(
    *,
    draw: Draw | None = None,
    exhaustion: ExhaustionRule = ExhaustionRule.DRAW_OTHERS_DISCARDS,
    five_consecutive: bool = False,
    deals_bottom_card: bool = False,
) -> GameDefinition:
    """Five-card draw with an ante of 1 and a fixed limit of 4 before the draw and 12 after
    (the sample deal's $.25, $1 and $3 in quarters)."""
    return GameDefinition(
        name="five-card draw",
        phases=(Deal("deal", down=5), Bet(), draw or Draw("draw"), Bet()),
        forced=ForcedBets(ante=1),
        limit=Limit.FIXED,
        stakes=Stakes(4, 12, big_bet_round=1),
        selection=FIVE_CARDS,
        exhaustion=exhaustion,
        five_consecutive=five_consecutive,
        deals_bottom_card=deals_bottom_card,
        max_players=8,
    )


def _deck(hands: dict[int, str], dealing: list[int], stub: str) -> list[int]:
    """A deck order dealing ``hands`` one card at a time around ``dealing``, then ``stub``
    in order, then every other card."""
    order: list[Card] = []
    parsed = {seat: parse_cards(text) for seat, text in hands.items()}
    for i in range(5):
        order += [parsed[seat][i] for seat in dealing]
    order += parse_cards(stub)
    rest = [Card(c) for c in range(52) if c not in order]
    return [int(c) for c in order + rest]


def _received(hand: Hand, seat: int) -> list[Card]:
    """Every card dealt to ``seat`` after the first deal (its replacements)."""
    dealt = [e for e in hand.events if isinstance(e, HoleDealt) and e.seat == seat]
    return [c for e in dealt[1:] for c in e.cards]


def test_the_sample_deal() -> None:
    """Rules 003_6e018542f14946f8.txt, 'Sample deal' (five-card draw): 'Bob now declares that
    he wishes to replace three of his cards ... deals a burn card, then deals three cards
    directly to Bob ... David discards one card ... Alice now discards three of her own
    cards ... David shows a flush, and Alice shows two pair, so David takes the pot.'
    Seats: Alice deals (0), Bob 1, Carol 2, David 3; a chip is a quarter."""
    alice, bob, carol, david = 0, 1, 2, 3
    deck = _deck(
        {
            bob: "As Kd 7c 4h 2s",
            carol: "9c 9d 5s 3c 2c",
            david: "Ah Qh 8h 5h Jc",
            alice: "Qs Qc 6d 4c 3d",
        },
        [bob, carol, david, alice],
        "Ts 8d 8c 7s 2h 6s 6h Kc",  # burn; Bob's three; David's one; Alice's three
    )
    hand = Hand(five_card_draw(), [100] * 4, button=alice, deck=deck)
    assert hand.pot_total == 4  # 'All four players ante $.25'
    hand.act(Action.bet(4), bob)  # 'Bob opens the betting round by betting $1'
    hand.act(Action.fold(), carol)
    hand.act(Action.call(), david)
    hand.act(Action.call(), alice)
    legal = hand.legal_actions()
    assert legal.seat == bob and legal.choice is not None and legal.choice.kind is ActionKind.DRAW
    hand.act(Action.draw(parse_cards("7c 4h 2s")), bob)
    hand.act(Action.draw(parse_cards("Jc")), david)
    hand.act(Action.draw(parse_cards("6d 4c 3d")), alice)
    burned = [e.card for e in hand.events if isinstance(e, Burned)]
    assert format_cards(burned) == "Ts"  # one burn card, before Bob's replacements
    assert format_cards(_received(hand, bob)) == "8d 8c 7s"
    assert format_cards(_received(hand, david)) == "2h"
    assert format_cards(_received(hand, alice)) == "6s 6h Kc"
    hand.act(Action.check(), bob)  # 'Bob checks, David bets $3, Alice calls, and Bob folds'
    hand.act(Action.bet(12), david)
    hand.act(Action.call(), alice)
    hand.act(Action.fold(), bob)
    assert hand.finished
    awards = [e for e in hand.events if isinstance(e, Awarded)]
    assert [(e.seat, e.amount) for e in awards] == [(david, 4 + 3 * 4 + 2 * 12)]


def _to_the_draw(hand: Hand, folds: tuple[int, ...] = ()) -> None:
    while hand.legal_actions().choice is None:
        legal = hand.legal_actions()
        if legal.seat in folds and legal.can_fold:
            hand.act(Action.fold())
        elif legal.can_check:
            hand.act(Action.check())
        else:
            hand.act(Action.call())


def test_draw_order_and_cards_received() -> None:
    """Each live player draws in turn from the dealer's left, is dealt as many cards as he
    discards, and keeps five; standing pat is a draw of none."""
    hand = Hand(five_card_draw(), [100] * 4, button=2, rng=np.random.default_rng(3))
    hand.act(Action.bet(4))
    hand.act(Action.fold())  # seat 0
    hand.act(Action.call())  # seat 1
    hand.act(Action.call())  # seat 2 (the button)
    order = []
    while hand.legal_actions().choice is not None:
        legal = hand.legal_actions()
        order.append(legal.seat)
        assert legal.choice is not None
        hand.act(Action.draw(legal.choice.cards[: legal.seat % 3]))
    assert order == [3, 1, 2]
    assert [len(hand.hole[s]) for s in (1, 2, 3)] == [5, 5, 5]
    discards = [e for e in hand.events if isinstance(e, Discarded)]
    assert [(e.seat, len(e.cards)) for e in discards] == [(3, 0), (1, 1), (2, 2)]


@pytest.mark.parametrize("asked", [True, False], ids=["legal actions asked", "not asked"])
def test_bad_draws_are_refused_and_leave_the_hand_unchanged(asked: bool) -> None:
    """Whether or not the player asked for his legal actions first (act() then checks the
    draw on its own), a bad draw is refused and nothing changes; so is a draw on a betting
    turn."""
    hand = Hand(five_card_draw(), [100] * 2, button=0, rng=np.random.default_rng(1))
    betting = state_of(hand)
    with pytest.raises(IllegalAction, match="a betting turn, not a draw"):
        hand.act(Action.draw([hand.hole[hand.actor or 0][0]]))
    assert state_of(hand) == betting
    _to_the_draw(hand)
    seat = hand.actor
    assert seat is not None
    mine = tuple(hand.hole[seat])
    if asked:
        legal = hand.legal_actions()
        assert legal.choice is not None and legal.choice.cards == mine
    theirs = hand.hole[1 - seat][0]
    before = state_of(hand)
    for action, message in [
        (Action.draw([theirs]), "not one of the player's cards"),
        (Action.draw([mine[0], mine[0]]), "named twice"),
        (Action.check(), "a draw is due"),
        (Action.discard([mine[0]]), "a draw is due"),
        (Action.raise_to(8), "a draw is due"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            hand.act(action)
        assert state_of(hand) == before


def test_a_draw_with_an_amount_is_refused() -> None:
    """A draw names cards (Rules 003_6e018542f14946f8.txt, 'Five-card draw': the player
    'discards' and is dealt as many): one that carries a bet amount is refused, naming it,
    and the hand is unchanged."""
    hand = Hand(five_card_draw(), [100] * 2, button=0, rng=np.random.default_rng(1))
    _to_the_draw(hand)
    seat = hand.actor
    assert seat is not None
    before = state_of(hand)
    with pytest.raises(
        IllegalAction, match=r"a draw names cards, not an amount \(got a total of 5\)"
    ):
        hand.act(Action(ActionKind.DRAW, total=5, cards=(hand.hole[seat][0],)))
    assert state_of(hand) == before
    hand.act(Action.draw([hand.hole[seat][0]]))  # the same draw without the amount is taken
    assert hand.actor != seat


def test_no_more_than_three_unless_keeping_an_ace() -> None:
    """Rules 003_6e018542f14946f8.txt: 'a player may not replace more than three cards,
    unless he draws four cards while keeping an ace (or wild card)'."""
    game = five_card_draw(draw=Draw("draw", most=3, most_keeping_ace=4))
    deck = _deck({1: "As 9d 7c 4h 2s", 0: "Kc 9c 5s 3c 2c"}, [1, 0], "")
    hand = Hand(game, [100, 100], button=0, deck=deck)
    _to_the_draw(hand)
    seat = hand.legal_actions().seat
    assert seat == 1
    with pytest.raises(IllegalAction, match="unless an ace or wild card is kept"):
        hand.act(Action.draw(parse_cards("As 9d 7c 4h")))
    with pytest.raises(IllegalAction, match="0 to 4 cards, got 5"):
        hand.act(Action.draw(parse_cards("As 9d 7c 4h 2s")))
    hand.act(Action.draw(parse_cards("9d 7c 4h 2s")))  # keeps the ace: four allowed
    with pytest.raises(IllegalAction, match="unless an ace or wild card is kept"):
        hand.act(Action.draw(parse_cards("Kc 9c 5s 3c")))  # no ace kept
    hand.act(Action.draw(parse_cards("9c 5s 3c")))


def test_no_five_consecutive_cards_from_the_stub() -> None:
    """Rules 003_6e018542f14946f8.txt: 'if a player wishes to replace all five of his cards,
    he is given four of them in turn, the other players are given their draws, and then the
    dealer returns to that player to give him his fifth replacement (if no later player
    drew, it is necessary to deal a burn card first)'."""
    deck = _deck({1: "As 9d 7c 4h 2s", 2: "Kc 9c 5s 3c 2c", 0: "Qd Qh 8s 8c 3h"}, [1, 2, 0], "")
    burn, stub = deck[15], deck[16:]  # 15 cards dealt; then the burn and the replacements
    hand = Hand(five_card_draw(), [100] * 3, button=0, deck=deck)
    _to_the_draw(hand)
    hand.act(Action.draw(parse_cards("As 9d 7c 4h 2s")), 1)
    hand.act(Action.draw(parse_cards("Kc")), 2)
    hand.act(Action.stand_pat(), 0)
    assert _received(hand, 1) == stub[0:4] + stub[5:6]  # four, then the fifth after seat 2
    assert _received(hand, 2) == stub[4:5]
    # Nobody after him draws: a burn card before his fifth.
    hand = Hand(five_card_draw(), [100] * 3, button=0, deck=deck)
    _to_the_draw(hand)
    hand.act(Action.stand_pat(), 1)
    hand.act(Action.stand_pat(), 2)
    hand.act(Action.draw(parse_cards("Qd Qh 8s 8c 3h")), 0)
    assert _received(hand, 0) == stub[0:4] + stub[5:6]
    assert [e.card for e in hand.events if isinstance(e, Burned)] == [burn, stub[4]]
    # Where the game allows it, five in a row.
    hand = Hand(five_card_draw(five_consecutive=True), [100] * 3, button=0, deck=deck)
    _to_the_draw(hand)
    hand.act(Action.draw(parse_cards("As 9d 7c 4h 2s")), 1)
    assert _received(hand, 1) == stub[0:5]


def _eight_handed(game: GameDefinition, draws: list[int]) -> Hand:
    """Eight players of five-card draw (40 cards dealt, a stub of 12), everyone calling,
    each seat from the dealer's left discarding its first ``draws[i]`` cards."""
    hand = Hand(game, [100] * 8, button=7, deck=list(range(52)))
    _to_the_draw(hand)
    for count in draws:
        legal = hand.legal_actions()
        assert legal.choice is not None
        hand.act(Action.draw(legal.choice.cards[:count]))
    return hand


def test_three_replacements_but_two_cards_left() -> None:
    """Rules 003_6e018542f14946f8.txt: 'if the last player to draw wants three replacements
    but there are only two cards remaining in the deck stub, the dealer gives the player the
    one top card he can give, then shuffles together the bottom card of the deck, the burn
    card, and the earlier players' discards (but not the player's own discards!), and finally
    deals two more replacements to the last player.'  Eight players: after the burn, 11 stub
    cards; three players draw three each, leaving two (the top and the bottom card)."""
    hand = _eight_handed(five_card_draw(), [3, 3, 3, 3, 0, 0, 0, 0])
    burn = next(e.card for e in hand.events if isinstance(e, Burned))
    stub = list(range(41, 52))  # 40 dealt, the burn is 40
    assert burn == 40
    earlier = [c for e in hand.events if isinstance(e, Discarded) and e.seat != 3 for c in e.cards]
    own = [c for e in hand.events if isinstance(e, Discarded) and e.seat == 3 for c in e.cards]
    assert len(earlier) == 9 and len(own) == 3
    received = _received(hand, 3)
    assert received[0] == stub[-2]  # the one top card he can give; the bottom card is kept
    reshuffles = [e for e in hand.events if isinstance(e, Reshuffled)]
    assert reshuffles == [Reshuffled("draw", 1, 11)]  # the bottom card, the burn, 9 discards
    assert set(received[1:]) <= {stub[-1], burn, *earlier}
    assert not set(received) & set(own)
    assert len(hand.hole[3]) == 5


@pytest.mark.parametrize(
    ("rule", "pile"),
    [
        # Only earlier draws' discards: none in a one-draw game, so the bottom card and burn.
        (ExhaustionRule.DRAW_EARLIER_ROUNDS, 2),
        (ExhaustionRule.DRAW_ALL_DISCARDS, 14),  # his own three as well
    ],
)
def test_other_readings_of_what_is_reshuffled(rule: ExhaustionRule, pile: int) -> None:
    """The house readings: 'the current round's discards never', and 'all discards'."""
    hand = _eight_handed(five_card_draw(exhaustion=rule), [3, 3, 3, 3, 0, 0, 0, 0])
    assert [e.cards for e in hand.events if isinstance(e, Reshuffled)] == [pile]
    assert len(hand.hole[3]) == 5
    cards = [c for h in hand.hole for c in h]
    assert len(cards) == len(set(cards)) == 40


def test_the_bottom_card_is_never_dealt_unless_the_game_says() -> None:
    """Rules 003_6e018542f14946f8.txt: 'the bottom card of the deck is never given as a
    replacement'.  Eleven stub cards after the burn: ten replacements come from the stub,
    an eleventh from a reshuffle under the rule, from the bottom without it."""
    hand = _eight_handed(five_card_draw(), [3, 3, 3, 1, 0, 0, 0, 0])
    assert not any(isinstance(e, Reshuffled) for e in hand.events)
    assert 51 not in [c for h in hand.hole for c in h]
    hand = _eight_handed(five_card_draw(), [3, 3, 3, 2, 0, 0, 0, 0])
    assert len([e for e in hand.events if isinstance(e, Reshuffled)]) == 1
    hand = _eight_handed(five_card_draw(deals_bottom_card=True), [3, 3, 3, 2, 0, 0, 0, 0])
    assert not any(isinstance(e, Reshuffled) for e in hand.events)
    assert 51 in hand.hole[3]


def test_a_draw_game_without_an_exhaustion_rule_is_refused() -> None:
    """With no rule for running out, the deck must hold every card a hand could need."""
    with pytest.raises(ValueError, match="may need"):
        Hand(
            replace(five_card_draw(), exhaustion=ExhaustionRule.NONE),
            [100] * 6,
            button=0,
            rng=np.random.default_rng(0),
        )


def jackpots() -> GameDefinition:
    """Rules 000_1a86611de8d3f5f7.txt, 'Gardena jackpots': five-card draw with an ante, jacks
    or better to open, and the opener first after the draw."""
    return replace(
        five_card_draw(),
        name="jackpots",
        phases=(
            Deal("deal", down=5),
            Bet(opens_with=Rank.JACK),
            Draw("draw"),
            Bet(first=FirstToAct.FIRST_ROUND_OPENER),
        ),
    )


def test_only_jacks_or_better_may_open() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Gardena jackpots': 'no player is allowed to open the
    betting unless his hand already contains a pair of jacks or a better hand.  Other players
    who checked on the first round may subsequently call or raise if someone else opens'."""
    deck = _deck({1: "Ts Td 7c 4h 2s", 2: "Jc Jd 5s 3c 2c", 0: "Ad Kh Qs 9c 3h"}, [1, 2, 0], "")
    hand = Hand(jackpots(), [100] * 3, button=0, deck=deck)
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.wager is None and legal.can_check  # tens cannot open
    with pytest.raises(IllegalAction, match="pair of Jacks or better"):
        hand.act(Action.bet(4))
    hand.act(Action.check())
    assert hand.legal_actions().wager == (4, 4)  # seat 2's jacks open
    hand.act(Action.bet(4))
    assert hand.legal_actions().wager is not None  # seat 0 may raise once it is opened
    hand.act(Action.call())
    hand.act(Action.raise_to(8))  # seat 1 checked, and raises now
    hand.act(Action.call())
    hand.act(Action.call())
    for _ in range(3):
        hand.act(Action.stand_pat())
    assert hand.legal_actions().seat == 2  # 'beginning with the player who opened'


def test_a_deal_nobody_opens_is_passed_out_and_its_pot_carried() -> None:
    """Rules 000_1a86611de8d3f5f7.txt: 'If no player opens, a new deal begins and everyone
    antes again into the same pot'."""
    deck = _deck({1: "Ts Td 7c 4h 2s", 2: "9c 9d 5s 3c 2c", 0: "Ad Kh Qs 9h 3h"}, [1, 2, 0], "")
    hand = Hand(jackpots(), [100] * 3, button=0, deck=deck)
    for _ in range(3):
        hand.act(Action.check())
    assert hand.finished and hand.carried == 3
    assert [e for e in hand.events if isinstance(e, PassedOut)] == [PassedOut(3)]
    assert hand.stacks == [99, 99, 99]
    again = Hand(jackpots(), hand.stacks, button=1, rng=np.random.default_rng(1), carried_pot=3)
    assert again.pot_total == 6
    chooser = 0
    while not again.finished:
        legal = again.legal_actions()
        if legal.choice is not None:
            again.act(Action.stand_pat())
        elif legal.wager is not None and chooser == 0:
            chooser += 1
            again.act(legal.wager_action(legal.wager[0]))
        else:
            again.act(Action.check() if legal.can_check else Action.call())
    assert sum(again.stacks) + again.carried == 297 + 3


def test_badugi_ranking_examples_at_the_table() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Badugi': 'The following is the ranking of several
    example of hands from best to worst' — five players holding the five examples stand pat
    through the three draws and check or call to the showdown: the four-card 4-high badugi
    takes the pot, and each hand is shown as the text names it."""
    examples = ["As 2c 3h 4d", "4s 6h 8d Jc", "Tc Jh Qd Ks", "Ah Ad 4c 5s", "Ac As 4s 6s"]
    examples[4] = "3c 3s 7c 7s"  # the text's fifth shares cards with the others: same shape
    seats = [1, 2, 3, 4, 0]  # from the dealer's left, the button on seat 0
    hands = {seat: parse_cards(text) for seat, text in zip(seats, examples, strict=True)}
    order = [hands[seat][i] for i in range(4) for seat in seats]
    deck = [int(c) for c in order] + [c for c in range(52) if c not in order]
    hand = play_plainly(Hand(variant("FB").game(), [50] * 5, button=0, deck=deck))
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    assert shown == {
        1: "four-card badugi, 4 high (4-3-2-A)",
        2: "four-card badugi, J high (J-8-6-4)",
        3: "four-card badugi, K high (K-Q-J-T)",
        4: "three-card hand, 5 high (5-4-A)",
        0: "two-card hand, 7 high (7-3)",
    }
    assert [(e.seat, e.amount) for e in hand.events if isinstance(e, Awarded)] == [(1, 10)]


def test_openers_and_the_first_round_opener_only_where_they_mean_something() -> None:
    """A round opened by blinds needs no openers; openers are a high hand of five cards; the
    first round has no earlier opener to start from."""
    game = jackpots()
    with pytest.raises(ValueError, match=r"phases\[1\].opens_with: a round opened by blinds"):
        replace(game, forced=ForcedBets(blinds=(1, 2)))
    with pytest.raises(ValueError, match=r"phases\[1\].opens_with: openers are judged on five"):
        replace(game, phases=(Deal("deal", down=4), *game.phases[1:], Deal("last", down=1)))
    with pytest.raises(ValueError, match=r"phases\[1\].first: the first betting round"):
        replace(
            game,
            phases=(game.phases[0], Bet(first=FirstToAct.FIRST_ROUND_OPENER), *game.phases[2:]),
        )


def test_four_before_deals_one_more_card_than_discarded() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Four-before': 'only four cards are dealt to each
    player. A betting round follows, then each player draws one more card than he discards,
    completing his hand to five cards.'"""
    hand = Hand(variant("FA5L4B").game(), [100] * 3, button=0, rng=np.random.default_rng(3))
    assert [len(h) for h in hand.hole] == [4, 4, 4]
    while hand.legal_actions().choice is None:
        legal = hand.legal_actions()
        hand.act(Action.check() if legal.can_check else Action.call())
    drawn = {}
    for discards in (0, 2, 4):
        seat = hand.actor
        assert seat is not None
        hand.act(Action.draw(hand.hole[seat][:discards]))
        drawn[seat] = discards
    dealt = {0: 0, 1: 0, 2: 0}
    for event in [e for e in hand.events if isinstance(e, HoleDealt)][3:]:  # the draw's cards
        dealt[event.seat] += len(event.cards)  # five come as four, then one after a burn
    assert dealt == {s: d + 1 for s, d in drawn.items()}
    assert [len(h) for h in hand.hole] == [5, 5, 5]
