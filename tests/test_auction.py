"""Auction: each upcard round of seven-card stud begins with one card dealt to the centre and
bid for; the buyer pays his bid into the pot and keeps the card or designates who must take
it; the others are dealt their upcards as usual (Rules 000_1a86611de8d3f5f7.txt,
'Miscellaneous': 'the player who bids the highest amount places that amount into the pot,
and then has the right to either keep the auction card as his own upcard, or designate
another player who is required to take it as his'; simulations/engine/centre_phases.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulations.cards import Card, parse_cards
from simulations.engine.actions import Action, ActionKind, IllegalAction
from simulations.engine.events import (
    Awarded,
    Bid,
    Bought,
    CentreDealt,
    Designated,
    HoleDealt,
    Shown,
)
from simulations.engine.gamefile import GameFileError, parse_game_text
from simulations.engine.hand import Hand
from simulations.engine.history import describe_events, play_plainly
from simulations.engine.phases import Auction
from simulations.engine.variants import GAMES_FOLDER, variant
from tests.state import state_of

FILE = Path(str(GAMES_FOLDER)) / "134-auction-eight-fixed-limit.toml"
SEALED = Path(str(GAMES_FOLDER)) / "135-auction-sealed-bids-eight-fixed-limit.toml"


def _card(text: str) -> Card:
    return parse_cards(text)[0]


def _deck(cards: str) -> list[int]:
    order = list(parse_cards(cards))
    return order + [c for c in range(52) if c not in order]


# Three players, the button on seat 0: seats 1, 2, 0 are dealt two down cards each, then the
# auction card Kd goes to the centre; the next cards (Ac, 2c) are the others' upcards.
THREE = "4h 5h 6h  4d 5d 6d  Kd  Ac 2c"


def _three(code: str = "F7S-AUC/8", stacks: list[int] | None = None) -> Hand:
    return Hand(variant(code).game(), stacks or [100] * 3, button=0, deck=_deck(THREE))


def test_open_bids_the_buyer_pays_and_designates() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Auction: 'all players bid on it; the player
    who bids the highest amount places that amount into the pot, and then has the right to either
    keep the auction card as his own upcard, or designate another player who is required to take it
    as his. After the first card is auctioned off and placed, the remaining players are dealt a
    random upcard as usual'. Open bids in turn from the dealer's left: seat 1 bids 1, seat 2 3, seat
    0 passes, seat 1 5, seat 2 passes; seat 1 pays 5 into the pot and gives the Kd to seat 2; seats
    1 and 0 are dealt the Ac and the 2c."""
    hand = _three()
    assert isinstance(hand.game.phases[hand.phase], Auction)
    assert [len(h) for h in hand.hole] == [2, 2, 2] and hand.centre == [_card("Kd")]
    assert CentreDealt("third street", (_card("Kd"),)) in hand.events
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.choice is not None
    assert legal.choice.kind is ActionKind.BID and legal.choice.bids == (1, 99)
    assert legal.choice.cards == (_card("Kd"),)
    assert not legal.can_check and not legal.can_fold
    hand.act(Action.bid(1))
    assert hand.legal_actions().choice.bids == (2, 99)  # type: ignore[union-attr]
    hand.act(Action.bid(3))
    hand.act(Action.bid())  # seat 0 passes, and is out of this auction
    assert hand.actor == 1 and hand.legal_actions().choice.bids == (4, 99)  # type: ignore[union-attr]
    pot, stack = hand.pot_total, hand.stacks[1]
    hand.act(Action.bid(5))
    assert (hand.pot_total, hand.stacks[1]) == (pot, stack)  # only the buyer pays, and last
    hand.act(Action.bid())  # seat 2
    assert hand.pot_total == pot + 5 and hand.stacks[1] == stack - 5 and hand.dead[1] == 5
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.choice is not None
    assert legal.choice.kind is ActionKind.DESIGNATE and legal.choice.seats == (1, 2, 0)
    hand.act(Action.designate(2))
    events = hand.events[-9:]
    assert events[:7] == [
        Bid(1, 1),
        Bid(2, 3),
        Bid(0, None),
        Bid(1, 5),
        Bid(2, None),
        Bought(1, _card("Kd"), 5, False),
        Designated(1, 2, _card("Kd")),
    ]
    assert [(e.seat, e.cards, e.face_up) for e in events[7:] if isinstance(e, HoleDealt)] == [
        (1, (_card("Ac"),), True),
        (0, (_card("2c"),), True),
    ]
    assert hand.up == [[_card("2c")], [_card("Ac")], [_card("Kd")]]
    # The bid is dead money, no bet: the first round opens with the bring-in (seat 0's 2c).
    assert hand.round_bets == [0, 0, 0] and hand.actor == 0
    assert hand.legal_actions().bring_in == 2
    lines = describe_events(hand.events)
    assert "seat 1 buys Kd for 5, into the pot" in lines
    assert "seat 1 gives Kd to seat 2" in lines and "seat 0 passes" in lines


@pytest.mark.parametrize(
    ("bids", "action", "seat", "message"),
    [
        ([], Action.bid(100), None, "a bid of 100 is more than the player has \\(99\\)"),
        ([], Action.bid(0), None, "a bid must be at least 1, got 0"),
        ([3], Action.bid(3), None, "a bid must be at least 4, got 3"),
        ([3], Action.bid(4), 0, "seat 0 acted out of turn: seat 2 is to act"),
        ([], Action.check(), None, "a bid is due: bid for Kd or pass"),
        ([], Action.call(), None, "a bid is due"),
        ([], Action.designate(1), None, "a bid is due"),
        ([], Action(ActionKind.BID, 2, cards=(_card("Kd"),)), None, "nothing else"),
    ],
)
def test_an_illegal_bid_is_refused_and_changes_nothing(
    bids: list[int], action: Action, seat: int | None, message: str
) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Auction: 'all players bid on it'. More than
    the player has, below the least bid (the minimum, or the standing bid and the minimum), out of
    turn, or not a bid: refused, the hand as it was."""
    hand = _three()
    for amount in bids:
        hand.act(Action.bid(amount))
    before = state_of(hand)
    with pytest.raises(IllegalAction, match=message):
        hand.act(action, seat=seat)
    assert state_of(hand) == before


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Action.designate(5), "not 5"),
        (Action(ActionKind.DESIGNATE), "not None"),
        (Action.bid(3), "designate a player"),
        (Action.check(), "designate a player"),
    ],
)
def test_an_illegal_designation_is_refused(action: Action, message: str) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Auction: 'designate another player who is
    required to take it as his'. The card goes to a player still in the hand: no other seat, and
    nothing but a designation."""
    hand = _three()
    hand.act(Action.bid(2))
    hand.act(Action.bid())
    hand.act(Action.bid())
    assert hand.legal_actions().choice.kind is ActionKind.DESIGNATE  # type: ignore[union-attr]
    before = state_of(hand)
    with pytest.raises(IllegalAction, match=message):
        hand.act(action)
    assert state_of(hand) == before
    hand.act(Action.designate(1))  # he keeps it
    assert hand.up[1] == [_card("Kd")] and Designated(1, 1, _card("Kd")) in hand.events
    assert "seat 1 keeps Kd" in describe_events(hand.events)


def test_nobody_bidding_deals_the_card_to_the_dealers_left() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Auction: 'the first card is dealt to the
    center and all players bid on it'. Where the text is silent: everyone passing, the card goes for
    nothing to the first player from the dealer's left, as it would have been dealt."""
    hand = _three()
    for _ in range(3):
        hand.act(Action.bid())
    assert Designated(-1, 1, _card("Kd")) in hand.events
    assert hand.up == [[_card("2c")], [_card("Kd")], [_card("Ac")]]
    assert hand.pot_total == 3 and hand.dead == [0, 0, 0]
    assert "no bid: Kd goes to seat 1" in describe_events(hand.events)


def test_a_player_who_cannot_bid_the_least_is_not_asked() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Auction: 'the player who bids the highest
    amount places that amount into the pot'. Seat 2, all in on his ante, is not asked; seat 0, with
    3 left, cannot top seat 1's bid of 3 and is passed over: seat 1 buys."""
    hand = _three(stacks=[4, 100, 1])
    assert hand.stacks == [3, 99, 0]
    assert hand.actor == 1
    hand.act(Action.bid(1))
    assert hand.actor == 0  # seat 2 passed over
    hand.act(Action.bid(2))
    hand.act(Action.bid(3))  # seat 1: seat 0 cannot bid 4
    assert hand.legal_actions().choice.kind is ActionKind.DESIGNATE  # type: ignore[union-attr]
    assert [e for e in hand.events if isinstance(e, Bid)] == [Bid(1, 1), Bid(0, 2), Bid(1, 3)]
    hand.act(Action.designate(2))  # the all-in player must take it
    assert hand.up[2] == [_card("Kd")]


def test_sealed_bids_are_shown_together() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Auction: 'all players bid on it'. The option
    (F7S-AUC-SB/8): one sealed bid each, shown together once all are in; the highest buys, the first
    from the dealer's left of equal bids."""
    hand = _three("F7S-AUC-SB/8")
    assert hand.legal_actions().choice.bids == (1, 99)  # type: ignore[union-attr]
    hand.act(Action.bid(3))
    assert hand.legal_actions().choice.bids == (1, 99)  # type: ignore[union-attr]
    hand.act(Action.bid(5))
    assert not any(isinstance(e, Bid) for e in hand.events)  # sealed until all are in
    before = state_of(hand)
    with pytest.raises(IllegalAction, match="at least 1, got 0"):
        hand.act(Action.bid(0))
    assert state_of(hand) == before
    hand.act(Action.bid(5))  # seat 0 ties seat 2
    assert [e for e in hand.events if isinstance(e, Bid | Bought)] == [
        Bid(1, 3),
        Bid(2, 5),
        Bid(0, 5),
        Bought(2, _card("Kd"), 5, False),
    ]
    assert hand.actor == 2 and hand.stacks == [99, 99, 94]


# Heads-up, the button on seat 0: seat 1 is dealt first.  Third street: Ac 2c 3d 4d down, the
# 7s to the centre (seat 1 buys and keeps it), 6h to seat 0; a burn; fourth street's auction
# card Kd, the other card 5h; fifth 8c (seat 1's) and 8d; sixth Jh and 9s; seventh Qs, Tc.
HEADS_UP = "Ac 2c 3d 4d 7s 6h  2h Kd 5h  2d 8c 8d  2s Jh 9s  3c Qs Tc"


def _play_heads_up(fourth: int) -> Hand:
    """Seat 1 bids 1 for every auction card and seat 0 passes; seat 1 keeps each card but
    fourth street's, which goes to ``fourth``; everyone checks and calls."""
    hand = Hand(variant("F7S-AUC/8").game(), [100, 100], button=0, deck=_deck(HEADS_UP))
    auctions = 0
    while not hand.finished:
        legal = hand.legal_actions()
        choice = legal.choice
        if choice is not None and choice.kind is ActionKind.BID:
            hand.act(Action.bid(1 if legal.seat == 1 else None))
        elif choice is not None:
            auctions += 1
            hand.act(Action.designate(fourth if auctions == 2 else 1))
        elif legal.bring_in is not None:
            hand.act(Action.bring_in())
        else:
            hand.act(Action.check() if legal.can_check else Action.call())
    return hand


def test_forcing_the_king_on_the_low_hand_scoops() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Auction: 'it is common for a player to
    "purchase" a high card to force it upon an opponent seeking low': seat 1 keeping the Kd leaves
    seat 0 the 5h and a low (8-6-5-4-2) — the pot is split; giving him the Kd, seat 1 gets the 5h,
    his own low (8-7-5-3-A), and seat 0 no low: seat 1 scoops. The pot: antes 2, seat 1's four bids
    of 1, the bring-in 2 and its call, 10 in all."""
    kept = _play_heads_up(1)
    assert [e.amount for e in kept.events if isinstance(e, Bought)] == [1, 1, 1, 1]
    assert kept.dead == [0, 4] and kept.contributed == [3, 7]
    shown = {e.seat: e.hand for e in kept.events if isinstance(e, Shown)}
    assert shown[0].endswith("8-6-5-4-2 low") and shown[1].endswith("no low")
    assert {e.seat: e.amount for e in kept.events if isinstance(e, Awarded)} == {1: 5, 0: 5}
    assert kept.payoffs == (2, -2)
    given = _play_heads_up(0)
    assert Designated(1, 0, _card("Kd")) in given.events
    shown = {e.seat: e.hand for e in given.events if isinstance(e, Shown)}
    assert shown[1].endswith("8-7-5-3-A low") and shown[0].endswith("no low")
    assert {e.seat for e in given.events if isinstance(e, Awarded)} == {1}
    assert given.payoffs == (-3, 3) and sum(given.stacks) == 200


def test_plain_play_opens_with_the_least_bid_and_keeps() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Auction: 'has the right to either keep the
    auction card as his own upcard'. The plain policy opens each auction with the least bid, the
    others pass, and the buyer keeps the card."""
    hand = play_plainly(Hand(variant("F7S-AUC/8").game(), [100] * 8, button=0, deck=_deck(THREE)))
    bought = [e for e in hand.events if isinstance(e, Bought)]
    assert len(bought) == 4 and all(e.seat == 1 and e.amount == 1 for e in bought)
    assert all(e.seat == e.to == 1 for e in hand.events if isinstance(e, Designated))
    assert sum(hand.stacks) == 800


def test_auctions_from_fourth_street_are_a_game_file() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Auction. The text's other reading ('or
    possibly just those after the first'): third street dealt as usual, the auctions on fourth,
    fifth and sixth streets — a game file, no code."""
    text = FILE.read_text().replace(
        '{ auction = "third street", down = 2, minimum = 1, sealed = false }',
        '{ deal = "third street", down = 2, up = 1 }',
    )
    game = parse_game_text(text, "later.toml").game
    hand = play_plainly(Hand(game, [100] * 4, button=0, deck=_deck(THREE)))
    streets = [e.street for e in hand.events if isinstance(e, CentreDealt)]
    assert streets == ["fourth street", "fifth street", "sixth street"]
    assert all(len(h) == 7 for h in hand.hole)


# --- bad input -----------------------------------------------------------------------------------

TEXT = FILE.read_text()
FOURTH = '{ auction = "fourth street", burn = true, minimum = 1, sealed = false }'


@pytest.mark.parametrize(
    ("old", "new", "field", "message"),
    [
        (FOURTH, FOURTH.replace("minimum = 1", "minimum = 0"), "phases[2].minimum", "at least 1"),
        (FOURTH, FOURTH.replace("minimum = 1", "minimum = -5"), "phases[2].minimum", "at least 1"),
        (FOURTH, FOURTH.replace("sealed = false", 'sealed = "no"'), "phases[2].sealed", "true"),
        (FOURTH, FOURTH.replace("burn = true", "up = 2"), "phases[2].up", "not a known"),
        (FOURTH, FOURTH.replace("burn = true", "board = 1"), "phases[2].board", "not a known"),
        (
            '{ deal = "seventh street", down = 1, burn = true }',
            '{ auction = "seventh street", burn = true }',
            "phases[8]",
            "not the hand's last deal",
        ),
        (
            '  "bet",\n  { auction = "fifth street"',
            '  { pay = "fourth street", rank = "3" },\n  "bet",\n  { auction = "fifth street"',
            "phases[3]",
            "a payment comes right after the deal",
        ),
        (
            '{ auction = "third street", down = 2, minimum = 1, sealed = false }',
            '{ deal = "third street", down = 2, up = 1, extra_up = "4" }',
            "phases[0].extra_up",
            "extra upcards are not dealt in a game with a draft or an auction",
        ),
    ],
)
def test_bad_auction_files_name_the_field(old: str, new: str, field: str, message: str) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Auction: 'each upcard round (or possibly
    just those after the first) begins with an "auction" phase'. An auction's least bid is a chip or
    more; it deals one upcard a player (down cards first if any), never the last deal."""
    assert old in TEXT
    with pytest.raises(GameFileError) as caught:
        parse_game_text(TEXT.replace(old, new), "auction.toml")
    assert caught.value.field == field, caught.value
    assert message in str(caught.value), caught.value


def test_the_sealed_file_differs_only_in_its_bids() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Miscellaneous', Auction: 'all players bid on it' — open bids
    (F7S-AUC/8) or sealed (F7S-AUC-SB/8), the game otherwise the same."""
    open_bids = variant("F7S-AUC/8").game()
    sealed = variant("F7S-AUC-SB/8").game()
    assert [getattr(p, "sealed", None) for p in sealed.phases] == [
        True if isinstance(p, Auction) else None for p in open_bids.phases
    ]
    assert SEALED.exists()
