"""Golden hands: the rule texts' sample deals for stud and hold'em, replayed card by card and
action by action through the hand engine to the outcome the text states.

The texts' players sit Alice (the dealer), Bob to her left, Carol to his left and David to
Carol's left; here they are seats 0-3 with the button on Alice, so the cards go out from Bob.
The hold'em 'Sample hand' and 'Kickers and ranks' deals are replayed in tests/test_hand.py.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simulations.cards import parse_cards
from simulations.decks import Deck
from simulations.engine.events import Posted, PostKind, Shown
from simulations.engine.hand import Action, Hand
from simulations.engine.limits import Limit, Stakes
from simulations.engine.pots import Pot
from simulations.evaluators.high import evaluate_high_batch
from tests.factories import holdem, razz, seven_card_stud

ALICE, BOB, CAROL, DAVID = range(4)


def _stud_deck(button: int, n: int, streets: list[dict[int, str]]) -> list[int]:
    """A deck order dealing ``streets[k][seat]`` on the k-th stud street to the seats listed
    there (those still in): third street's three cards as 'down down up', one card a street
    after it, each later street behind a burn card taken from the cards nobody is dealt."""
    used = [c for street in streets for cards in street.values() for c in parse_cards(cards)]
    assert len(set(used)) == len(used), "a card is dealt twice"
    spare = iter(c for c in Deck.standard().cards if c not in set(used))
    order: list[int] = []
    for index, street in enumerate(streets):
        if index:
            order.append(next(spare))  # the burn card
        seats = [(button + 1 + i) % n for i in range(n) if (button + 1 + i) % n in street]
        cards = {seat: parse_cards(street[seat]) for seat in seats}
        for r in range(len(cards[seats[0]])):  # one card at a time, clockwise from the left
            order.extend(cards[seat][r] for seat in seats)
    order.extend(spare)
    return order


def _holdem_deck(button: int, holes: list[str], board: str) -> list[int]:
    """A deck order dealing ``holes[seat]`` and ``board``, burns from the undealt cards."""
    n = len(holes)
    hole_cards = [parse_cards(h) for h in holes]
    board_cards = parse_cards(board)
    used = {c for h in hole_cards for c in h} | set(board_cards)
    spare = iter(c for c in Deck.standard().cards if c not in used)
    order: list[int] = [hole_cards[(button + 1 + i) % n][r] for r in range(2) for i in range(n)]
    for street in (board_cards[:3], board_cards[3:4], board_cards[4:5]):
        order.append(next(spare))
        order.extend(street)
    order.extend(spare)
    return order


def _shown(hand: Hand) -> dict[int, str]:
    return {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}


# Seven-card stud, Rules 003_6e018542f14946f8.txt (and 001_af8fb40237a5ae1f.txt, the same
# deal, where Carol's fourth-street club was lost in the capture as 'J?'; 003 gives it as J♣,
# which also keeps 001's A-K-Q-J-T straight, and is the card used here).
#
# The text names no betting structure; its amounts are a $1 bring-in, a raise to $3 on third
# street, $5 bets on fifth and sixth streets and $10 on seventh.  Two readings fit, and the
# deal is replayed under both.  Chips are quarters (1 chip = $0.25) for the $.25 antes: the
# $1 bring-in is 4 chips, $3 is 12, $5 is 20 and $10 is 40.
#  - 'fixed-3-5-10': a fixed limit of $3 on third and fourth streets, $5 on fifth and sixth,
#    $10 on seventh; Carol's 'raises to $3' completes the $1 bring-in to the $3 bet.  The
#    engine's fixed-limit Stakes has two tiers only, so the three are spreads whose two ends
#    are equal (a spread of one amount is a fixed bet).
#  - 'spread-1-5-10-on-the-end': Rules 002_376df91f076a6501.txt, 'Spread limit': 'early
#    betting rounds allow bets of $1 to $5, and the last betting round allows bets of $1 to
#    $10'.  The $1 bring-in then equals the minimum bet, and the engine treats it as live
#    (002, 'Bring-in': 'or else the bring-in must be treated as live in the same way as a
#    blind'): it is posted for David, who is not asked first.
STUD_STRUCTURES = {
    "fixed-3-5-10": Stakes(12, spreads=((12, 12), (12, 12), (20, 20), (20, 20), (40, 40))),
    "spread-1-5-10-on-the-end": Stakes(4, spreads=((4, 20), (4, 20), (4, 20), (4, 20), (4, 40))),
}


@pytest.mark.parametrize("structure", list(STUD_STRUCTURES))
def test_seven_card_stud_sample_deal(structure: str) -> None:
    """Rules 003_6e018542f14946f8.txt, 'Sample deal' (seven-card stud): 'All players ante
    $.25', 'David is required to start the betting with a $1 bring-in (his 4♦ is lower than
    Bob's 4♠ by suit)', 'Carol raises to $3. David folds, and Alice calls'; K-J against K-9
    'so it is Carol's turn to bet'; then 'Alice now has a pair of kings showing ... so Alice
    bets first'; 'Alice shows her cards: 9♥ 5♦ 9♣ K♥ K♣ 3♠ 5♠ ... two pair, kings and
    nines. Carol shows Q♠ 2♥ K♦ J♣ T♥ T♦ A♦ ... an ace-high straight, and so Carol wins the
    pot'.  Bob's and David's downcards are never named: any cards nobody else holds."""
    game = seven_card_stud(
        ante=1, bring_in=4, limit=Limit.SPREAD, stakes=STUD_STRUCTURES[structure]
    )
    deck = _stud_deck(
        ALICE,
        4,
        [
            {BOB: "7c 8d 4s", CAROL: "Qs 2h Kd", DAVID: "2c 6h 4d", ALICE: "9h 5d 9c"},
            {CAROL: "Jc", ALICE: "Kh"},
            {CAROL: "Th", ALICE: "Kc"},
            {CAROL: "Td", ALICE: "3s"},
            {CAROL: "Ad", ALICE: "5s"},
        ],
    )
    hand = Hand(game, [400] * 4, button=ALICE, deck=deck)
    live_bring_in = structure.startswith("spread")
    assert hand.pot_total == 4 + 4 * live_bring_in  # the four $.25 antes (and a live $1)
    if live_bring_in:
        # Posted for him as a live bet: the $1 bring-in is the spread's $1 minimum.
        assert Posted(DAVID, PostKind.BRING_IN, 4, False) in hand.events
    else:
        legal = hand.legal_actions()
        assert legal.seat == DAVID and legal.bring_in == 4  # 'a $1 bring-in'
        assert legal.wager == (12, 12)  # 'He had the option to open the betting for more'
        assert not legal.can_check and not legal.can_fold
        hand.act(Action.bring_in(), DAVID)  # 'he chose to bet only the required $1'
    legal = hand.legal_actions()
    assert legal.seat == ALICE and not legal.can_check and legal.to_call == 4  # 'cannot check'
    hand.act(Action.call(), ALICE)
    hand.act(Action.fold(), BOB)
    hand.act(Action.raise_to(12), CAROL)  # 'Carol raises to $3'
    hand.act(Action.fold(), DAVID)
    hand.act(Action.call(), ALICE)
    assert hand.street == 1 and hand.pot_total == 4 + 4 + 12 + 12  # $8 (the text gives none)
    assert [len(hand.hole[s]) for s in range(4)] == [4, 3, 4, 3]  # no cards to the folded

    # Fourth street: Carol K♦ J♣ (K-J high) against Alice 9♣ K♥ (K-9 high): Carol first.
    assert hand.legal_actions().seat == CAROL
    hand.act(Action.check(), CAROL)  # 'She checks, as does Alice'
    hand.act(Action.check(), ALICE)
    # Fifth street: Alice 9-K-K against Carol K-J-T: 'Alice bets first. She bets $5'.
    assert hand.legal_actions().seat == ALICE
    hand.act(Action.bet(20), ALICE)
    hand.act(Action.call(), CAROL)
    # Sixth street: 9-K-K-3 against K-J-T-T: 'the pair of kings is still higher'.
    assert hand.up[CAROL] == list(parse_cards("Kd Jc Th Td"))  # 'her upcards K-J-T-T'
    assert hand.legal_actions().seat == ALICE
    hand.act(Action.bet(20), ALICE)
    hand.act(Action.call(), CAROL)
    # Seventh street: 'It is still Alice's turn to bet because the downcard did not change
    # either hand. She checks, Carol bets $10, and Alice calls.'
    assert hand.legal_actions().seat == ALICE
    hand.act(Action.check(), ALICE)
    hand.act(Action.bet(40), CAROL)
    hand.act(Action.call(), ALICE)

    assert hand.finished
    assert hand.hole[ALICE] == list(parse_cards("9h 5d 9c Kh Kc 3s 5s"))
    assert hand.hole[CAROL] == list(parse_cards("Qs 2h Kd Jc Th Td Ad"))
    shown = _shown(hand)
    assert shown[ALICE] == "Two pair, Kings and Nines"
    assert shown[CAROL] == "Ace-high straight"
    # $48: $1 of antes, David's $1, $3 each from Alice and Carol, then $5, $5 and $10 each.
    assert hand.pots == (Pot(192, (ALICE, CAROL)),)
    assert hand.payoffs == (-93, -1, 99, -5)  # 'Carol wins the pot'


def test_razz_sample_deal() -> None:
    """Rules 004_53770b236994c31b.txt, 'sample Razz deal' (the same deal as 000_1a86611de8d3f5f7
    .txt's 'Razz (and London lowball)', whose capture lost most ranks): 'Bob's J is the high
    card (David's A is low), so he pays a $1 bring-in'; 'The best low hand showing is now
    David's 4-A'; 'Bob folds his J-9'; 'The low hand showing is now Alice's 8-4-2, so she bets
    $2. Carol raises $2, and David folds'; 'Now the lowest hand showing is Carol's 3-3-6-A';
    'Alice ... 8-7-4-2-A. Carol ... 7-6-4-3-A, which wins the pot'.

    No ante is mentioned, so none is taken.  The amounts are a $1 bring-in, $1 on fourth street
    and $2 after it: fixed limit $1/$2 with the big bet from fifth street, 1 chip = $1.  The
    bring-in equals the $1 bet, so the engine posts it live (Rules 002_376df91f076a6501.txt,
    'Bring-in': 'the bring-in must be treated as live in the same way as a blind'); the text
    says only that the others called, and Bob then checks his option.  'suits are omitted
    here because they are never of consequence in Razz': any suits will do.  The order of
    each player's three downcards is not given ('7-J-A', '4-6-7'): the first two named are
    dealt on third street and the last on seventh.  Bob's and David's downcards are never
    named."""
    game = razz(ante=0, bring_in=1, stakes=Stakes(1, 2, big_bet_round=2))
    deck = _stud_deck(
        ALICE,
        4,
        [
            {BOB: "Tc Qd Js", CAROL: "4c 6d 3h", DAVID: "9h Qh Ad", ALICE: "7c Jh 4s"},
            {BOB: "9c", CAROL: "3d", DAVID: "4h", ALICE: "2d"},
            {CAROL: "Ac", DAVID: "Kd", ALICE: "8h"},
            {CAROL: "6h", ALICE: "8s"},
            {CAROL: "7h", ALICE: "As"},
        ],
    )
    hand = Hand(game, [100] * 4, button=ALICE, deck=deck)
    # 'aces are always low cards in Razz, even for the purpose of assigning the bring-in'
    assert Posted(BOB, PostKind.BRING_IN, 1, False) in hand.events
    for seat in (CAROL, DAVID, ALICE):  # 'Carol, David, and Alice all call'
        hand.act(Action.call(), seat)
    assert hand.legal_actions().seat == BOB and hand.legal_actions().can_check  # his option
    hand.act(Action.check(), BOB)
    assert hand.street == 1 and hand.pot_total == 4

    # Fourth street: Bob J-9, Carol 3-3, David A-4, Alice 4-2: 'David bets $1, Alice calls.
    # Bob folds his J-9, and Carol calls'.
    assert hand.legal_actions().seat == DAVID
    hand.act(Action.bet(1), DAVID)
    hand.act(Action.call(), ALICE)
    hand.act(Action.fold(), BOB)
    hand.act(Action.call(), CAROL)
    assert hand.pot_total == 7
    # Fifth street: Carol 3-3-A, David A-4-K, Alice 4-2-8.
    assert hand.legal_actions().seat == ALICE
    hand.act(Action.bet(2), ALICE)
    hand.act(Action.raise_to(4), CAROL)  # 'Carol raises $2'
    hand.act(Action.fold(), DAVID)
    hand.act(Action.call(), ALICE)  # 'Alice calls, ending the round'
    assert hand.pot_total == 15
    # Sixth street: Carol 3-3-A-6 against Alice 4-2-8-8: 'a pair of 3s being lower than
    # Alice's pair of 8s'.
    assert hand.legal_actions().seat == CAROL
    hand.act(Action.bet(2), CAROL)
    hand.act(Action.call(), ALICE)
    # Seventh street: 'A final downcard is dealt, Carol again best [sic: bets] $2, and Alice
    # calls.'
    assert hand.legal_actions().seat == CAROL
    hand.act(Action.bet(2), CAROL)
    hand.act(Action.call(), ALICE)

    assert hand.finished
    shown = _shown(hand)
    assert shown[ALICE] == "8-7-4-2-A low"
    assert shown[CAROL] == "7-6-4-3-A low"
    assert hand.pots == (Pot(23, (ALICE, CAROL)),)  # the text states no amount
    assert hand.payoffs == (-10, -1, 13, -2)  # 'which wins the pot'


def test_bad_beat_story() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'bad beat' ('A typical example of the first type of bad
    beat, in No Limit Texas hold 'em'): 'Alice (the hero) holds A♦ A♣', 'Bob (the villain)
    holds Q♣ 8♥'; 'Alice raises to 15 times the big blind, placing a fifth of her stack in the
    pot, and only Bob calls. The flop comes A♥ 8♠ 7♠' and Alice 'goes all-in with a bet that is
    twice the size of the pot', Bob calls; 'Bob's chances of winning are precisely 1 in 990.
    He can only win if both the turn card and the river card are eights', and they are: 'Bob
    scoops the pot'.

    The text gives no blinds, seats or other players.  Blinds of 1 and 2 chips; 'The players
    have the same amount of chips', 150 each, so 30 is 15 big blinds and a fifth of the stack.
    A third player, Carol, deals and folds; Alice and Bob are the blinds, so the pot on the
    flop holds only their 30 each and the remaining 120 is exactly 'twice the size of the
    pot'.  The turn and river are the two other eights, 8♣ then 8♦; Carol's cards are any."""
    carol, alice, bob = range(3)
    flop = "Ah 8s 7s"
    deck = _holdem_deck(carol, ["2c 3d", "Ad Ac", "Qc 8h"], f"{flop} 8c 8d")
    hand = Hand(holdem(Limit.NO, blinds=(1, 2)), [150] * 3, button=carol, deck=deck)
    hand.act(Action.fold(), carol)
    hand.act(Action.raise_to(30), alice)  # 15 big blinds, a fifth of 150
    hand.act(Action.call(), bob)
    assert hand.street == 1 and hand.pot_total == 60
    assert hand.legal_actions().seat == alice and hand.stacks[alice] == 2 * hand.pot_total
    hand.act(Action.bet(120), alice)  # all in: twice the pot
    assert hand.stacks[alice] == 0
    hand.act(Action.call(), bob)
    assert hand.finished and hand.board == list(parse_cards(f"{flop} 8c 8d"))
    shown = _shown(hand)
    assert shown[alice] == "Aces full of Eights"
    assert shown[bob] == "Four Eights"
    assert hand.pots == (Pot(300, (alice, bob)),)
    assert hand.payoffs == (0, -150, 150)  # 'Bob scoops the pot'

    # 'precisely 1 in 990': of the C(45, 2) turn-and-river pairs, only the last two eights
    # give Bob the better hand.
    seen = set(parse_cards(f"Ad Ac Qc 8h {flop}"))
    unseen = [c for c in Deck.standard().cards if c not in seen]
    pairs = list(itertools.combinations(unseen, 2))
    assert len(pairs) == 990
    board = parse_cards(flop)
    alice_hands = np.array([[*parse_cards("Ad Ac"), *board, *p] for p in pairs], dtype=np.int8)
    bob_hands = np.array([[*parse_cards("Qc 8h"), *board, *p] for p in pairs], dtype=np.int8)
    bob_wins = evaluate_high_batch(bob_hands) > evaluate_high_batch(alice_hands)
    assert [set(p) for p, won in zip(pairs, bob_wins, strict=True) if won] == [
        set(parse_cards("8c 8d"))
    ]
