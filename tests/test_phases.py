"""Decision phases other than the draw — the pineapple discard and a chosen exposure — and
the tournament form of running out of cards in stud."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from simulations.cards import parse_cards
from simulations.engine.actions import Action, ActionKind, IllegalAction
from simulations.engine.events import (
    Discarded,
    Exhausted,
    Exposed,
    HoleDealt,
    Reshuffled,
    Shown,
)
from simulations.engine.forced import showing_opener
from simulations.engine.game import (
    HOLDEM_PHASES,
    ActingOrder,
    ExhaustionRule,
    ForcedBets,
    GameDefinition,
)
from simulations.engine.hand import Hand
from simulations.engine.history import play_plainly
from simulations.engine.limits import Limit, Stakes
from simulations.engine.phases import Bet, Deal, Discard, Expose
from simulations.engine.showdown import Half, Showdown
from simulations.engine.variants import variant
from simulations.evaluators.lowball import Lowball
from simulations.evaluators.selection import FIVE_CARDS, any_five
from tests.factories import holdem, seven_card_stud


def pineapple() -> GameDefinition:
    """Rules 002_376df91f076a6501.txt, 'Pineapple': three hole cards, one discarded before the
    flop."""
    return replace(
        holdem(Limit.FIXED),
        name="pineapple",
        phases=(Deal("preflop", down=3), Bet(), Discard("discard"), *HOLDEM_PHASES[2:]),
    )


def test_pineapple_discards_take_effect_together() -> None:
    """Rules 002_376df91f076a6501.txt, 'Pineapple': 'Players are initially dealt three cards.
    Each player then discards one of the three cards'.  Every live player discards one card,
    in turn from the dealer's left; no discard is shown (or takes effect) until all have
    chosen."""
    hand = Hand(pineapple(), [100] * 3, button=0, rng=np.random.default_rng(2))
    while hand.legal_actions().choice is None:
        legal = hand.legal_actions()
        hand.act(Action.check() if legal.can_check else Action.call())
    legal = hand.legal_actions()
    assert legal.choice is not None and legal.choice.kind is ActionKind.DISCARD
    assert (legal.choice.fewest, legal.choice.most) == (1, 1)
    with pytest.raises(IllegalAction, match="exactly 1 cards, got 2"):
        hand.act(Action.discard(legal.choice.cards[:2]))
    with pytest.raises(IllegalAction, match="a discard is due"):
        hand.act(Action.stand_pat())
    order = []
    for _ in range(3):
        legal = hand.legal_actions()
        assert legal.choice is not None
        order.append(legal.seat)
        hand.act(Action.discard(legal.choice.cards[:1]))
        if len(order) < 3:
            assert not any(isinstance(e, Discarded) for e in hand.events)
    assert order == [1, 2, 0]
    # shown together, from the dealer's left as every simultaneous phase
    assert [e.seat for e in hand.events if isinstance(e, Discarded)] == [1, 2, 0]
    assert all(len(h) == 2 for h in hand.hole)
    play_plainly(hand)
    assert hand.finished and len(hand.board) == 5


def roll_stud() -> GameDefinition:
    """A stud game in which each player turns up one of his two down cards by choice (the
    roll of Mexican stud), then bets with the best hand showing opening."""
    return GameDefinition(
        name="roll stud",
        phases=(
            Deal("second street", down=2),
            Expose("roll"),
            Bet(),
            Deal("third street", down=1, burn=True),
            Expose("roll"),
            Bet(),
            Deal("fourth street", down=1, burn=True),
            Expose("roll"),
            Bet(),
            Deal("fifth street", down=1, burn=True),
            Expose("roll"),
            Bet(),
        ),
        forced=ForcedBets(ante=1),
        limit=Limit.FIXED,
        stakes=Stakes(2, 4),
        selection=FIVE_CARDS,
        acting_order=ActingOrder.HIGH_SHOWING,
        max_players=8,
    )


def test_an_exposure_is_chosen_and_opens_the_betting() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Mexican stud': 'roll your own' — the exposed cards
    are the player's own down cards, turned up all at once; the best one showing opens."""
    # Round by round to seats 1, 2, 0: seat 1 holds 2c Ah, seat 2 Ks 7s, seat 0 3d 9c.
    deck = [int(c) for c in parse_cards("2c Ks 3d Ah 7s 9c")]
    deck += [c for c in range(52) if c not in deck]
    hand = Hand(roll_stud(), [50] * 3, button=0, deck=deck)
    legal = hand.legal_actions()
    assert legal.choice is not None and legal.choice.kind is ActionKind.EXPOSE
    assert legal.seat == 1 and set(legal.choice.cards) == set(parse_cards("2c Ah"))
    with pytest.raises(IllegalAction, match="not one of the player's cards"):
        hand.act(Action.expose(parse_cards("Ks")))
    hand.act(Action.expose(parse_cards("2c")))
    hand.act(Action.expose(parse_cards("Ks")))
    assert not any(isinstance(e, Exposed) for e in hand.events)  # not until all have chosen
    hand.act(Action.expose(parse_cards("9c")))
    # turned up together, shown from the dealer's left as every simultaneous phase
    assert [(e.seat, e.cards) for e in hand.events if isinstance(e, Exposed)] == [
        (1, parse_cards("2c")),
        (2, parse_cards("Ks")),
        (0, parse_cards("9c")),
    ]
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.choice is None  # the king showing opens
    play_plainly(hand)
    assert all(len(h) == 5 and len(u) == 4 for h, u in zip(hand.hole, hand.up, strict=True))


def test_wsop_scrambles_the_burn_cards_then_deals_a_community_card() -> None:
    """The tournament form: before seventh street eight live players need a card each, the
    burn and one more — ten; the one stub card and three burns are scrambled together, a
    card burned, and the three left are too few: one community card."""
    game = replace(seven_card_stud(), exhaustion=ExhaustionRule.STUD_WSOP)
    for seed in range(10):
        hand = Hand(game, [100] * 8, button=seed % 8, rng=np.random.default_rng(seed))
        play_plainly(hand)
        assert [e for e in hand.events if isinstance(e, Reshuffled)] == [
            Reshuffled("before the last street", 1, 4)
        ]
        assert [e for e in hand.events if isinstance(e, Exhausted)] == [
            Exhausted("seventh street", 3, 0, True)
        ]
        assert len(hand.board) == 1 and all(len(h) == 6 for h in hand.hole)
        dealt = [c for e in hand.events if isinstance(e, HoleDealt) for c in e.cards]
        assert len({*dealt, *hand.board}) == 49


def test_wsop_with_seven_players_scrambles_and_deals_every_card() -> None:
    """Seven live players: the stub (8 after sixth street) is short of nine, so the burns go
    in; then a burn and seven cards come from the ten."""
    game = replace(seven_card_stud(), exhaustion=ExhaustionRule.STUD_WSOP)
    hand = Hand(game, [100] * 7, button=2, rng=np.random.default_rng(4))
    play_plainly(hand)
    assert [e for e in hand.events if isinstance(e, Reshuffled)] == [
        Reshuffled("before the last street", 7, 10)
    ]
    assert not any(isinstance(e, Exhausted) for e in hand.events)
    assert all(len(h) == 7 for h in hand.hole) and not hand.board


def double_board() -> GameDefinition:
    """Double-board hold'em (Rules 002_376df91f076a6501.txt, 'Double-board hold 'em'): each
    street deals to two boards — flop A, flop B, turn A, turn B, river A, river B."""
    return replace(
        holdem(Limit.FIXED),
        name="double-board hold'em",
        phases=tuple(  # each board dealt twice over: flop A then B, turn A then B, ...
            replace(p, board=2 * p.board) if isinstance(p, Deal) and p.board else p
            for p in HOLDEM_PHASES
        ),
        selection=any_five("Double-board hold'em", 2, 10, ((0, 1, 2, 6, 8), (3, 4, 5, 7, 9))),
        showdown=Showdown((Half(board=0), Half(board=1))),
    )


def test_double_board_splits_the_pot_between_the_boards() -> None:
    """Rules 002_376df91f076a6501.txt: 'two separate five-card boards are dealt, and the high
    hand using each board takes half of the pot'; the odd chip goes to the first board's
    half."""
    # Seat 1 (left of the button) holds the aces, seat 0 the kings; board A pairs neither,
    # board B gives the kings a set.
    cards = "As Ks Ad Kd"  # dealt seat 1, seat 0, seat 1, seat 0
    burn, flops, burn2, turns, burn3, rivers = (
        "2c",
        "7h 8c 2d Kh 3s 4s",
        "5c",
        "9d Jc",
        "6c",
        "Tc 5d",
    )
    order = parse_cards(" ".join((cards, burn, flops, burn2, turns, burn3, rivers)))
    deck = [int(c) for c in order] + [c for c in range(52) if c not in order]
    hand = Hand(double_board(), [101, 101], button=0, deck=deck)
    play_plainly(hand)
    assert hand.pot_total == 4
    shown = [e for e in hand.events if isinstance(e, Shown)]
    assert len(shown) == 2
    assert hand.stacks == [101, 101]  # each wins one board's half of 4
    odd = Hand(double_board(), [101, 101], button=0, deck=deck, carried_pot=1)
    play_plainly(odd)
    assert odd.stacks == [101, 102]  # 5 chips: the first board's half (3) to the aces


def test_five_upcards_count_straights_and_flushes() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Mississippi stud': 'Because each player has five
    upcards on the last round, straights, flushes, and full houses count as "high hand
    exposed" for the purpose of determining who must bet first'."""
    straight, aces = parse_cards("5c 6d 7h 8s 9c"), parse_cards("Ac Ad Kh 7d 2s")
    assert showing_opener([aces, straight], [0, 1], ActingOrder.HIGH_SHOWING) == 1
    four_up = [aces[:4], straight[:4]]
    assert showing_opener(four_up, [0, 1], ActingOrder.HIGH_SHOWING) == 0  # pairs only
    # In a low game, five upcards rank by the game's low: ace-to-six counts the straight.
    wheel, eight = parse_cards("Ac 2d 3h 4s 5c"), parse_cards("8c 6d 4h 3s 2c")
    low = ActingOrder.LOW_SHOWING
    assert showing_opener([eight, wheel], [0, 1], low) == 1
    assert showing_opener([eight, wheel], [0, 1], low, Lowball.ACE_TO_SIX) == 0


def _mexican(hands: dict[int, str]) -> list[int]:
    """A Mexican stud deck order dealing each seat's five cards (second street's two, then
    one a street behind a burn) to seats 1, 2, 0 with the button on seat 0."""
    cards = {seat: parse_cards(text) for seat, text in hands.items()}
    order = [cards[s][i] for i in range(2) for s in (1, 2, 0)]
    rest = [c for c in variant("FMX").game().deck.deck().cards if c not in set(order)]
    spare = [c for c in rest if all(c not in h for h in cards.values())]
    for street in range(2, 5):
        order.append(spare.pop())  # the burn
        order += [cards[s][street] for s in (1, 2, 0)]
    return [int(c) for c in order] + [int(c) for c in spare]


def test_mexican_stud_joker_is_the_bug_face_up_and_wild_face_down() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Mexican stud': 'The joker plays as a bug if it is face
    up, and fully wild if it is face down', and 'the high card on the first round pays the
    bring-in'."""
    deck = _mexican({1: "Jk Kc Kd Kh Ks", 2: "Ac 2d 3h 5s 7c", 0: "Qc Qd Jh 6s 4c"})
    for joker_up in (True, False):
        hand = Hand(variant("FMX").game(), [100] * 3, button=0, deck=deck)
        while not hand.finished:
            legal = hand.legal_actions()
            if legal.choice is not None:
                down = [c for c in legal.choice.cards if c != JOKER or joker_up]
                # Seat 1 turns up the joker at once, or keeps it down to the end.
                pick = [JOKER] if joker_up and JOKER in down else down[:1]
                hand.act(legal.choice.action(pick))
            elif legal.bring_in is not None:
                # The highest card showing pays: the ace, or the joker (the bug) above it.
                assert legal.seat == (1 if joker_up else 2)
                hand.act(Action.bring_in())
            else:
                hand.act(Action.check() if legal.can_check else Action.call())
        shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
        assert shown[1] == ("Four Kings" if joker_up else "Five Kings"), shown


JOKER = parse_cards("Jk")[0]
