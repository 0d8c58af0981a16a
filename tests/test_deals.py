"""Deals that end without a winner and carry their pot: jackpots passed out and progressive
openers, kill cards (Chernobyl Cowboy, The Bitch), Johnson's switch to lowball, and Q-Ball's
rounds without checking (Rules 000_1a86611de8d3f5f7.txt)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from simulations.cards import Card, Rank, parse_cards
from simulations.engine.actions import Action, IllegalAction
from simulations.engine.deal_rules import KillCards
from simulations.engine.deals import DealSequence, describe_deals, play_deals_plainly
from simulations.engine.events import (
    Awarded,
    Killed,
    PassedOut,
    Posted,
    PostKind,
    Shown,
    Switched,
)
from simulations.engine.game import GameDefinition
from simulations.engine.gamefile import GameFileError, parse_game_text
from simulations.engine.hand import Hand
from simulations.engine.history import play_plainly
from simulations.engine.phases import Bet
from simulations.engine.pots import Pot
from simulations.engine.variants import GAMES_FOLDER, variant
from tests.state import state_of

ALICE, BOB, CAROL, DAVID = range(4)


def _draw_deck(game: GameDefinition, hands: dict[int, str], button: int, stub: str) -> list[int]:
    """A deck order of ``game``'s pack dealing five cards a player one at a time from the
    dealer's left, then ``stub`` in order (the burn card first), then every other card."""
    n = len(hands)
    parsed = {seat: parse_cards(text) for seat, text in hands.items()}
    seats = [(button + 1 + i) % n for i in range(n)]
    order: list[Card] = [parsed[seat][i] for i in range(5) for seat in seats]
    order += parse_cards(stub)
    assert len(set(order)) == len(order)
    return [int(c) for c in order] + [int(c) for c in game.deck.deck().cards if c not in order]


def _stud_deck(button: int, n: int, streets: list[dict[int, str]]) -> list[int]:
    """A 52-card order dealing ``streets[k][seat]`` on the k-th stud street ('down down up'
    first, one card a street after), each later street behind a burn card."""
    used = [c for street in streets for cards in street.values() for c in parse_cards(cards)]
    assert len(set(used)) == len(used)
    spare = iter(c for c in range(52) if c not in set(used))
    order: list[int] = []
    for index, street in enumerate(streets):
        if index:
            order.append(next(spare))
        seats = [(button + 1 + i) % n for i in range(n) if (button + 1 + i) % n in street]
        cards = {seat: parse_cards(street[seat]) for seat in seats}
        for r in range(len(cards[seats[0]])):
            order.extend(int(cards[seat][r]) for seat in seats)
    return order + list(spare)


def _won(hand: Hand) -> dict[int, int]:
    won: dict[int, int] = {}
    for event in hand.events:
        if isinstance(event, Awarded):
            won[event.seat] = won.get(event.seat, 0) + int(event.amount)
    return won


# -- Johnson and Jacks back -------------------------------------------------------------------


def test_johnson_first_sample_deal_plays_as_five_card_draw() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Johnson': 'Bob sees that he has a [6]-high straight
    ... so he checks. Carol opens for $1, David folds, Alice raises to $2, and Bob ...
    reraises to $3, which is called by Carol and Alice. Bob announces that he "stands pat"
    ... Carol draws three cards, and Alice draws two. Bob bets $2, Carol folds, Alice raises,
    and Bob calls. Bob shows his straight, but Alice has made a full house and wins the pot.'"""
    game = variant("FJOHN").game()
    hands = {
        BOB: "6c 5d 4h 3s 2c",
        CAROL: "Qh Qd 9s 7c 3d",
        DAVID: "9h 8c Tc Jd 2d",
        ALICE: "Kh Ks Kd 9c 7d",
    }
    deck = _draw_deck(game, hands, ALICE, "2h Th 8d 4c 8h 8s")  # burn, Carol's 3, Alice's 2
    deals = DealSequence(game, [100] * 4, ALICE, decks=[deck])
    hand = deals.hand
    hand.act(Action.check(), BOB)
    hand.act(Action.bet(1), CAROL)
    hand.act(Action.fold(), DAVID)
    hand.act(Action.raise_to(2), ALICE)
    hand.act(Action.raise_to(3), BOB)
    hand.act(Action.call(), CAROL)
    hand.act(Action.call(), ALICE)
    hand.act(Action.draw(()), BOB)
    hand.act(Action.draw(parse_cards("9s 7c 3d")), CAROL)
    hand.act(Action.draw(parse_cards("9c 7d")), ALICE)
    hand.act(Action.bet(2), BOB)
    hand.act(Action.fold(), CAROL)
    hand.act(Action.raise_to(4), ALICE)
    hand.act(Action.call(), BOB)
    assert deals.finished and deals.won and len(deals.hands) == 1
    assert not any(isinstance(e, Switched) for e in hand.events)
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    assert shown[BOB] == "Six-high straight" and shown[ALICE] == "Kings full of Eights"
    assert _won(hand) == {ALICE: 21}  # four antes, $3 from three players, $4 from two
    assert deals.stacks == [113, 92, 96, 99]


def test_johnson_second_sample_deal_switches_to_california_lowball() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Johnson': 'This time, Carol also checks, as does David,
    and finally Alice. Now it is Bob's turn again, but now they are playing lowball. He opens
    for $1. Carol folds, and David raises to $2. Alice folds, and Bob reraises to $3 ... David
    calls. Bob stands pat, and David draws one card. Bob bets $2 ..., and David calls. Bob
    shows his [6]-5-4-3-2 low, and David shows [7]-5-4-3-A low, and Bob wins' (the captured
    text lost the top cards: Bob's is the six of his straight, David's a higher one)."""
    game = variant("FJOHN").game()
    hands = {
        BOB: "6c 5d 4h 3s 2c",
        CAROL: "Qh Qd 9s 7c 3d",
        DAVID: "7h 5s 4d 3c Kd",
        ALICE: "Kh Ks Tc 9c 7d",
    }
    deck = _draw_deck(game, hands, ALICE, "2h Ah")  # the burn card, David's one card
    deals = DealSequence(game, [100] * 4, ALICE, decks=[deck])
    hand = deals.hand
    for seat in (BOB, CAROL, DAVID, ALICE):
        hand.act(Action.check(), seat)
    assert hand.events[-1] == Switched("California lowball")
    assert hand.actor == BOB and not hand.finished
    hand.act(Action.bet(1), BOB)
    hand.act(Action.fold(), CAROL)
    hand.act(Action.raise_to(2), DAVID)
    hand.act(Action.fold(), ALICE)
    hand.act(Action.raise_to(3), BOB)
    hand.act(Action.call(), DAVID)
    hand.act(Action.draw(()), BOB)
    hand.act(Action.draw(parse_cards("Kd")), DAVID)
    hand.act(Action.bet(2), BOB)
    hand.act(Action.call(), DAVID)
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    assert shown == {BOB: "6-5-4-3-2 low", DAVID: "7-5-4-3-A low"}
    assert _won(hand) == {BOB: 14}
    assert deals.stacks == [99, 108, 99, 94]


def test_johnson_passed_out_twice_is_dealt_again() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Johnson': 'On the rare occasion that the deal is
    passed out yet again, players re-ante and deal again.'"""
    game = variant("FJOHN").game()
    deals = DealSequence(game, [20, 20, 20], 0, rng=np.random.default_rng(5))
    hand = deals.hand
    for _ in range(6):  # checked around twice: high, then lowball
        hand.act(Action.check())
    assert isinstance(hand.events[-1], PassedOut) and hand.events[-1].pot == 3
    assert deals.next_deal()
    second = deals.hand
    assert second.game.name == "Fixed-limit Johnson"  # each deal starts as high draw again
    assert second.pot_total == 6 and deals.buttons == [0, 1]


def test_jacks_back_needs_jacks_to_open_high_but_not_low() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Johnson (and "Jacks back")': 'When the game is played
    that a pair of jacks or better is required to open on the first high-hand round, the game
    is called "Jacks back".'"""
    game = variant("FJBACK").game()
    hands = {BOB: "Tc Td 4h 3s 2c", CAROL: "9h 9d 8s 7c 3d", ALICE: "Kh Qs Jd 9c 7d"}
    deck = _draw_deck(game, {0: hands[ALICE], 1: hands[BOB], 2: hands[CAROL]}, 0, "")
    hand = Hand(game, [50, 50, 50], 0, deck=deck)
    legal = hand.legal_actions()
    assert legal.seat == BOB and legal.wager is None  # tens do not open
    with pytest.raises(IllegalAction, match="pair of Jacks or better"):
        hand.act(Action.bet(1))
    for _ in range(3):
        hand.act(Action.check())
    assert isinstance(hand.events[-1], Switched)
    assert hand.legal_actions().wager == (1, 1)  # lowball: anyone opens


# -- progressive jackpots -----------------------------------------------------------------------


def test_progressive_openers_rise_after_each_deal_passed_out() -> None:
    """Rules 003_6e018542f14946f8.txt, 'Jackpots': 'the qualifier to open is raised to a pair of
    queens. If that deal is passed out, the qualifier is raised to kings, and finally to
    aces.'"""
    phase = Bet(opens_with=Rank.JACK, progressive=True)
    assert [phase.openers(k) for k in range(6)] == [
        Rank.JACK,
        Rank.QUEEN,
        Rank.KING,
        Rank.ACE,
        Rank.ACE,
        Rank.ACE,
    ]
    assert Bet(opens_with=Rank.JACK).openers(3) is Rank.JACK  # plain jackpots stay at jacks
    game = variant("FJACK-PROG").game()
    jacks = {0: "Jh Jd 8s 7c 3d", 1: "2c 4d 6h 9s Kc", 2: "3c 5d 7h Ts Qc"}
    deck = _draw_deck(game, jacks, 2, "")
    deals = DealSequence(game, [30] * 3, 2, decks=[deck, deck])
    first = deals.hand
    assert first.legal_actions().seat == 0 and first.legal_actions().wager == (2, 2)
    for _ in range(3):
        first.act(Action.check())
    assert deals.next_deal()
    second = deals.hand  # the button moved to seat 0: seat 1 acts first; jacks no longer open
    for _ in range(2):
        second.act(Action.check())
    assert second.legal_actions().seat == 0 and second.legal_actions().wager is None
    with pytest.raises(IllegalAction, match="pair of Queens or better"):
        second.act(Action.bet(2))


def test_jackpots_passed_out_carries_the_pot_and_everyone_antes_again() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Gardena jackpots': 'If no player opens, a new deal
    begins and everyone antes again into the same pot.'"""
    game = variant("FJACK").game()
    deals = play_deals_plainly(DealSequence(game, [40] * 4, 0, rng=np.random.default_rng(3)))
    assert len(deals.hands) > 1 and deals.won
    passed = [h for h in deals.hands if h.carried]
    assert passed and all(isinstance(h.events[-1], PassedOut) for h in passed)
    assert sum(deals.stacks) == 160
    last = deals.hand
    antes = [e for e in last.events if isinstance(e, Posted) and e.kind is PostKind.ANTE]
    assert len(antes) == 4
    carried = sum(p.amount for p in last.carried_in)
    assert carried == 4 * (len(deals.hands) - 1)  # every deal passed out: its antes
    assert sum(_won(last).values()) == carried + sum(last.contributed)
    assert deals.buttons == [k % 4 for k in range(len(deals.hands))]
    lines = describe_deals(deals)
    assert lines[0] == "deal 1: seats 0, 1, 2, 3 dealt in, the button on seat 0"


# -- kill cards -----------------------------------------------------------------------------------


def test_chernobyl_cowboy_kills_the_deal_and_folded_players_stay_out() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Chernobyl Cowboy': 'Whenever the King of Hearts appears
    face up in a stud or shared card game the game is dead. All bets remain in the pot and
    the game begins again with a new ante and a new deal. Anyone who has folded is out until
    the game concludes.'"""
    game = variant("F7S-CC").game()
    first = _stud_deck(
        0,
        3,
        [{1: "Ah Ad 2c", 2: "9s 9h 5d", 0: "Jc Tc 7h"}, {1: "Kh", 2: "3d"}],
    )
    # The second deal, heads up: table seats 1 and 2, the button on seat 1 (deal seat 0).
    second = _stud_deck(
        0,
        2,
        [
            {1: "Qs Qd 4c", 0: "8s 8d 6c"},
            {1: "Qc", 0: "2s"},
            {1: "Jh", 0: "3h"},
            {1: "Th", 0: "Kd"},
            {1: "9c", 0: "Jc"},
        ],
    )
    deals = DealSequence(game, [100, 100, 100], 0, decks=[first, second])
    hand = deals.hand
    hand.act(Action.bring_in(), 1)  # the 2♣ is the low card
    hand.act(Action.call(), 2)
    hand.act(Action.fold(), 0)
    assert hand.finished and hand.killed_by == parse_cards("Kh")[0]
    assert hand.events[-1] == Killed(parse_cards("Kh")[0], 1, 7)
    assert deals.next_deal()
    assert deals.seats[-1] == (1, 2) and deals.buttons[-1] == 1
    play_plainly(deals.hand)
    assert deals.finished and deals.won
    assert deals.stacks[0] == 99  # his ante stays in the pot he can no longer win
    assert deals.stacks[2] > deals.stacks[1] and sum(deals.stacks) == 300
    assert _won(deals.hand) == {1: 7 + sum(deals.hand.contributed)}  # deal seat 1: table 2


def test_the_bitch_deals_everyone_again_and_pays_the_queen_of_spades() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'The Bitch': 'the Queen of Spades is designated as the
    highest ranking Spade, followed by the Ace, King, Jack'; 'if the Queen of Spades is ever
    dealt as an upcard to any player, all players turn in their cards, re-ante, and replay'."""
    game = variant("FBITCH").game()
    killed = _stud_deck(0, 3, [{1: "Ah Ad 2c", 2: "9s 9h 5d", 0: "Jc Tc 7h"}, {1: "Qs", 2: "3d"}])
    replay = _stud_deck(
        1,
        3,
        [
            {2: "Qs 3h 4c", 0: "As 8d 6c", 1: "2h 2d 7h"},
            {2: "Kd", 0: "Jd", 1: "5h"},
            {2: "Jc", 0: "Th", 1: "6h"},
            {2: "Tc", 0: "9h", 1: "8h"},
            {2: "4d", 0: "2s", 1: "3c"},
        ],
    )
    deals = DealSequence(game, [100, 100, 100], 0, decks=[killed, replay])
    hand = deals.hand
    hand.act(Action.bring_in(), 1)
    hand.act(Action.call(), 2)
    hand.act(Action.fold(), 0)
    assert isinstance(hand.events[-1], Killed)
    assert deals.next_deal() and deals.seats[-1] == (0, 1, 2)  # the folded player too
    play_plainly(deals.hand)
    shown = {e.seat: e.hand for e in deals.hand.events if isinstance(e, Shown)}
    assert shown[2].endswith("/ Queen of Spades") and shown[0].endswith("/ Ace of Spades")
    won = _won(deals.hand)
    assert set(won) == {1, 2}  # the high hand (a heart flush) and the queen of spades split
    assert sum(deals.stacks) == 300


def test_a_growing_re_ante_and_a_player_all_in_when_the_deal_dies() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'The Bitch': 'especially if the re-ante amount is
    increased on each iteration'; a player all in when the deal is killed is dealt the next
    deal with no chips, for the pot he was in (see docs/readings.md)."""
    base = variant("F7S-CC").game()
    game = replace(base, kill_cards=KillCards(parse_cards("Kh"), reante_step=1))
    first = _stud_deck(0, 3, [{1: "Ah Ad 2c", 2: "9s 9h 5d", 0: "Jc Tc 7h"}, {1: "Kh", 2: "3d"}])
    deals = DealSequence(game, [100, 3, 100], 0, decks=[first], rng=np.random.default_rng(2))
    hand = deals.hand
    hand.act(Action.bring_in(), 1)  # all in: his ante and the bring-in
    hand.act(Action.call(), 2)
    hand.act(Action.call(), 0)
    assert hand.carried == 9
    assert deals.next_deal()
    second = deals.hand
    assert deals.seats[-1] == (0, 1, 2) and second.stacks[1] == 0
    antes = [(e.seat, e.amount) for e in second.events if isinstance(e, Posted)]
    assert sorted(antes)[:2] == [(0, 2), (2, 2)]  # one more than before; seat 1 posts nothing
    assert second.carried_in == (Pot(9, (0, 1, 2)),)


def test_a_carried_pot_is_won_only_by_those_it_was_open_to() -> None:
    """A pot carried from a killed deal stays open to its players: one who is all in for it
    can win it and nothing of the new deal's bets."""
    game = variant("F7S").game()
    deck = _stud_deck(
        0,
        3,
        [
            {1: "As Ad 2c", 2: "9s 9h 5d", 0: "Jc Tc 7h"},
            {1: "Ah", 2: "3d", 0: "8c"},
            {1: "Ac", 2: "4d", 0: "6c"},
            {1: "Kh", 2: "5c", 0: "2h"},
            {1: "Qh", 2: "6d", 0: "3h"},
        ],
    )
    hand = Hand(
        game,
        [50, 0, 50],
        0,
        deck=deck,
        carried_pots=[Pot(30, (0, 1, 2)), Pot(10, (0, 2))],
    )
    play_plainly(hand)
    won = _won(hand)
    assert won[1] == 30  # four aces: the pot he was in, nothing of the new bets
    assert won[2] == 10 + sum(hand.contributed)  # the rest: nines beat jacks
    with pytest.raises(ValueError, match="needs chips"):
        Hand(game, [50, 0, 50], 0, deck=deck, carried_pots=[Pot(10, (0, 2))])


# -- Q-Ball ------------------------------------------------------------------------------------


def test_q_ball_blinds_sizes_and_the_round_without_checking() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Q-Ball': 'three blinds–one unit from the dealer, one
    unit to his left, and two units for the second player'; 'No checking is allowed on this
    round either, despite the fact that there is no bet facing the first player; the first
    player must open or fold'; 'the betting structure be 1-2-2-4'."""
    game = variant("FQB").game()
    hand = Hand(game, [100] * 4, 0, rng=np.random.default_rng(4))
    blinds = [(e.seat, e.amount) for e in hand.events if isinstance(e, Posted)]
    assert blinds == [(0, 1), (1, 1), (2, 2)]
    assert hand.actor == 3 and hand.legal_actions().wager == (4, 4)
    for _ in range(4):
        hand.act(Action.call() if hand.legal_actions().to_call else Action.check())
    assert hand.street == 1 and hand.actor == 1  # the dealer's left opens the second round
    legal = hand.legal_actions()
    assert legal.must_open and not legal.can_check and legal.can_fold
    assert legal.wager == (4, 4)
    before = state_of(hand)
    for action, why in (
        (Action.check(), "no checking in this betting round: open"),
        (Action.call(), "nothing to call: open or fold"),
    ):
        with pytest.raises(IllegalAction, match=why):
            hand.act(action)
        assert state_of(hand) == before
    hand.act(Action.fold())
    hand.act(Action.bet(4))  # the next player must open or fold too
    assert hand.legal_actions().to_call == 4 and not hand.legal_actions().must_open
    hand.act(Action.call())
    hand.act(Action.call())
    assert hand.street == 2 and hand.legal_actions().can_check  # 'checking is allowed'
    assert game.stakes.bet_size(3) == 8


# -- the game file ------------------------------------------------------------------------------


def _johnson_text() -> str:
    return (GAMES_FOLDER / "121-johnson-fixed-limit.toml").read_text()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('[kill]', '[kill]\ncards = "Kx"\n[x]', r"kill\.cards"),
        ("[switch]\n", "[ignored]\n", "ignored"),
        ('{ bet = true, if_passed = "switch" }', "\"bet\"", "switch: no betting round"),
        ('if_passed = "switch"', 'if_passed = "later"', r"phases\[1\]\.if_passed"),
        ('{ bet = true, if_passed = "switch" }', "{ bet = true, progressive = true }",
         r"phases\[1\]\.progressive: progressive openers need opens_with"),
        ('{ bet = true, if_passed = "switch" }', "{ bet = true, checks = false, opens_with = "
         '"J" }', r"phases\[1\]\.checks: a round with openers"),
        ('halves = [{ ranking = "ace-to-five low" }]', 'halves = [{ ranking = "low" }]',
         r"switch\.showdown\.halves\[0\]\.ranking"),
        ("max_bets = 4\n", "max_bets = 4\nsizes = [1, 2]\n", r"stakes\.sizes: give the big bet or"),
    ],
)  # fmt: skip
def test_bad_deal_rules_in_a_game_file_are_named(old: str, new: str, message: str) -> None:
    """A game file's [kill], [switch] and betting-round options are checked, each error naming
    its field."""
    text = _johnson_text()
    if old == "[kill]":
        text += '\n[kill]\ncards = "Kx"\n'
    else:
        assert old in text
        text = text.replace(old, new, 1)
    with pytest.raises(GameFileError, match=message):
        parse_game_text(text, "johnson.toml")


def test_deals_play_plainly_through_the_cli_policy() -> None:
    """Every game with deal rules plays to a won pot (or the deal limit) without an error."""
    for code in ("FJACK", "FJACK-PROG", "FJOHN", "FJBACK", "FQB", "F7S-CC", "FBITCH"):
        game = variant(code).game()
        for seed in range(20):
            deals = play_deals_plainly(
                DealSequence(game, [200] * 5, seed % 5, rng=np.random.default_rng(seed))
            )
            assert deals.finished
            assert sum(deals.stacks) + (0 if deals.won else deals.hand.carried) == 1000


def test_baseballs_rainout_kills_the_deal_and_everyone_plays_again() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous' (Baseball): 'the appearance of the
    queen of spades is called a "rainout" and ends the hand' — the deal is dead, its pot stays
    and everyone is dealt again (see docs/readings.md)."""
    game = variant("F7S-BASE").game()
    queen = parse_cards("Qs")[0]
    rained_out = 0
    for seed in range(30):
        deals = DealSequence(game, [500] * 5, 0, rng=np.random.default_rng(seed))
        play_deals_plainly(deals)
        for hand, seats in zip(deals.hands[:-1], deals.seats, strict=False):
            assert hand.killed_by == queen and seats == (0, 1, 2, 3, 4)
            rained_out += 1
        assert sum(deals.stacks) + (0 if deals.won else deals.hand.carried) == 2500
    assert rained_out >= 3
