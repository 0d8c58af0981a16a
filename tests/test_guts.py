"""A session of guts played by the rule texts (simulations/engine/guts.py): the pot's
arithmetic, the cap, the dealer's rule and the challenge, redeals, the end of the game, the
hidden decision, and illegal decisions.  Every deal here is dealt from a given deck order,
so that each test knows every hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pytest

from simulations.cards import parse_cards
from simulations.engine.actions import IllegalAction
from simulations.engine.guts import GutsSession
from simulations.engine.guts_events import (
    AnteCarried,
    Anted,
    CardsDealt,
    ChallengeOffered,
    DealStarted,
    Decided,
    GameEnded,
    GutsDecision,
    NobodyWon,
    NobodyWonReason,
    PaidIn,
    PotTaken,
    SetAsideOverCap,
    Stopped,
    StopReason,
)
from simulations.engine.guts_game import (
    DealerWithoutPair,
    GutsGame,
    LastCard,
    NobodyIn,
    SetAside,
    ViciousPayers,
    WorstHandPays,
)
from simulations.engine.variants import variant
from simulations.evaluators.small_hands import evaluate_three_card

IN, OUT = GutsDecision.IN, GutsDecision.OUT
G3 = variant("G3").guts()
DEALER = variant("G3-DEALER").guts()
CHALLENGE = variant("G3-CHALLENGE").guts()
CAP50 = variant("G3-CAP50").guts()

# Hands of known strength, best first (the texts' order); no two tie.
TRIPS, STRAIGHT, PAIR, HIGH = "7c 7d 7h", "8s 9d Tc", "Qc Qd 2h", "Kh 9c 4d"
LOW, LOWER, LOWEST = "Jd 8h 3c", "Td 6h 3s", "9h 5s 2c"


def _deck(n: int, dealer: int, hands: dict[int, str], up: str = "") -> list[int]:
    """A deck order dealing ``hands[seat]`` (down cards) to those seats, one card at a time
    from the dealer's left, then the cards of ``up`` in order, then the rest of the pack;
    seats not named get cards from the rest."""
    parsed = {seat: list(parse_cards(text)) for seat, text in hands.items()}
    named = {card for cards in parsed.values() for card in cards} | set(parse_cards(up) or ())
    spare = iter(c for c in range(52) if c not in named)
    down = len(next(iter(parsed.values())))
    for seat in range(n):
        parsed.setdefault(seat, [next(spare) for _ in range(down)])
    order = [parsed[(dealer + k) % n][r] for r in range(down) for k in range(1, n + 1)]
    order += parse_cards(up) if up else []
    return order + [c for c in range(52) if c not in order]


def _conserved(session: GutsSession) -> bool:
    return sum(session.nets) + session.pot + session.set_aside == session.carried


def _decide(session: GutsSession, decisions: dict[int, GutsDecision]) -> None:
    """Every seat decides this deal, in the order ``legal_actions`` names them (out unless
    given), up to the next deal, the end, or the challenge."""
    deal = session.deals
    while session.deals == deal and not session.finished:
        if session.legal_actions().challenge:
            return
        seat = session.legal_actions().seats[0]
        session.act(seat, decisions.get(seat, OUT))
        assert _conserved(session)


def _since_last_deal(session: GutsSession) -> list[object]:
    starts = [i for i, e in enumerate(session.events) if isinstance(e, DealStarted)]
    return session.events[starts[-2] if len(starts) > 1 else 0 :]


# --- the pot ------------------------------------------------------------------------------------


def test_three_stay_in_one_takes_the_pot_two_match_it() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "if the pot is $5 and three people stay in,
    then one player will receive the $5 pot and two players will be forced to add $5 each to
    the next pot"."""
    decks = [_deck(5, 0, {1: PAIR, 2: TRIPS, 3: HIGH})]
    session = GutsSession(G3, 5, button=0, decks=decks)
    assert session.pot == 5 and session.nets == (-1,) * 5
    _decide(session, {1: IN, 2: IN, 3: IN})
    taken = [e for e in session.events if isinstance(e, PotTaken)]
    paid = [e for e in session.events if isinstance(e, PaidIn)]
    assert taken == [PotTaken(2, 5)]
    assert paid == [PaidIn(1, 5), PaidIn(3, 5)]
    assert session.pot == 10 and session.nets == (-1, -6, 4, -6, -1)
    assert session.stopped is StopReason.NO_DECK_ORDER  # the one deck order is used up
    assert isinstance(session.events[-1], Stopped) and _conserved(session)


def test_the_cap_sets_the_excess_aside_as_the_texts_example_does() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "if there are 5 players with an ante of $1,
    the pot started at $5. If there were 3 doublings, the pot is now at $40 ... each loser
    would pay $40, but the pot would now be at $50 and the extra $30 would be set aside as
    the ante once there’s a hand with a winner and no loser"."""
    assert CAP50.cap == 50 and CAP50.ante == 1
    three_in = {0: TRIPS, 1: PAIR, 2: HIGH}
    decks = [_deck(5, d % 5, three_in) for d in range(4)] + [_deck(5, 4, {3: TRIPS})]
    session = GutsSession(CAP50, 5, button=0, decks=decks)
    pots = [session.pot]
    for _ in range(4):
        _decide(session, {0: IN, 1: IN, 2: IN})
        pots.append(session.pot)
    assert pots == [5, 10, 20, 40, 50]  # three doublings, then the capped fourth
    last = _since_last_deal(session)
    assert [e for e in last if isinstance(e, PaidIn)] == [PaidIn(1, 40), PaidIn(2, 40)]
    assert SetAsideOverCap(30, 50) in last
    assert session.set_aside == 30 and _conserved(session)
    _decide(session, {3: IN})  # a hand with a winner and no loser
    assert session.ended and session.events[-1] == GameEnded((3,), 30)
    assert session.pot == 0 and session.set_aside == 30 and _conserved(session)
    # ... set aside as the ante: the next game starts from it, and nobody antes
    following = GutsSession(CAP50, 5, rng=np.random.default_rng(1), carried=30)
    assert following.events[0] == AnteCarried(30)
    assert not any(isinstance(e, Anted) for e in following.events)
    assert following.pot == 30 and following.nets == (0,) * 5 and _conserved(following)


def test_the_set_aside_may_go_to_the_last_winner() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "set aside as the ante once there’s a hand
    with a winner and no loser" — under the other reading the winner takes it with the pot."""
    game = replace(CAP50, set_aside=SetAside.LAST_WINNER, cap=6)
    decks = [_deck(5, 0, {0: TRIPS, 1: PAIR, 2: HIGH}), _deck(5, 1, {4: TRIPS})]
    session = GutsSession(game, 5, decks=decks)
    _decide(session, {0: IN, 1: IN, 2: IN})
    assert (session.pot, session.set_aside) == (6, 4)
    _decide(session, {4: IN})
    assert session.events[-2:] == [PotTaken(4, 10), GameEnded((4,), 0)]
    assert session.set_aside == 0 and _conserved(session)


def test_everyone_always_in_grows_the_pot_by_the_match_rule() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "all other players who stayed in must match
    the pot to form the next pot": with everyone in, each deal's pot is the last one times
    the number of players without the best hand, worked out here from the dealt cards."""
    n, deals = 4, 8
    session = GutsSession(G3, n, button=2, rng=np.random.default_rng(5), max_deals=deals)
    expected_pot, expected_nets = n * G3.ante, [-G3.ante] * n
    while not session.finished:
        dealer = session.dealer
        hands = {e.seat: e.cards for e in _since_last_deal(session) if isinstance(e, CardsDealt)}
        assert session.pot == expected_pot
        values = {seat: evaluate_three_card(cards).value for seat, cards in hands.items()}
        best = max(values.values())
        winners = sorted(
            (s for s in values if values[s] == best), key=lambda s: (s - dealer - 1) % n
        )
        losers = [s for s in values if values[s] != best]
        for seat in losers:
            expected_nets[seat] -= expected_pot
        for k, seat in enumerate(winners):
            expected_nets[seat] += expected_pot // len(winners) + (
                expected_pot % len(winners) if k == 0 else 0
            )
        _decide(session, dict.fromkeys(range(n), IN))
        assert list(session.nets) == expected_nets
        expected_pot = expected_pot * len(losers)
        if not losers:
            break
    assert session.deals == deals and session.stopped is StopReason.DEAL_LIMIT
    assert session.pot == expected_pot > n


def test_tied_best_hands_split_the_pot_odd_chip_left_of_the_dealer() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Texas hold ‘em': "any extra chips going to the person
    closest to the button in clockwise order"; tied best hands in guts split the pot so."""
    decks = [_deck(5, 2, {1: "Ac Kd 7h", 4: "Ad Kh 7c", 0: LOWEST})]
    session = GutsSession(G3, 5, button=2, decks=decks)
    _decide(session, {1: IN, 4: IN, 0: IN})
    taken = [e for e in session.events if isinstance(e, PotTaken)]
    assert taken == [PotTaken(4, 3), PotTaken(1, 2)]  # seat 4 is first left of the dealer
    assert [e for e in session.events if isinstance(e, PaidIn)] == [PaidIn(0, 5)]
    assert session.pot == 5 and _conserved(session)


def test_every_player_in_tied_ends_the_game() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "the pot is taken without replenishment": two
    players in with equal hands split it, nobody pays, and the game is over."""
    decks = [_deck(3, 0, {1: "Ac Kd 7h", 2: "Ad Kh 7c"})]
    session = GutsSession(G3, 3, decks=decks)
    _decide(session, {1: IN, 2: IN})
    assert session.ended and session.events[-1] == GameEnded((1, 2), 0)
    assert session.nets == (-1, 1, 0) and session.pot == 0


def test_the_worst_hand_alone_doubles_the_pot() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "only the single player with the worst hand
    (who stayed in) must add to the pot, but they must double the pot rather than match it"."""
    worst = variant("G3-WORST").guts()
    decks = [_deck(4, 0, {1: TRIPS, 2: PAIR, 3: HIGH})]
    session = GutsSession(worst, 4, decks=decks)
    _decide(session, {1: IN, 2: IN, 3: IN})
    assert [e for e in session.events if isinstance(e, PaidIn)] == [PaidIn(3, 8)]
    assert session.pot == 8 and session.nets == (-1, 3, -1, -9)


def test_the_other_readings_of_double_the_pot() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "they must double the pot rather than match
    it": under the other reading the worst hand pays the pot's amount; players tied for the
    worst hand each pay."""
    worst = variant("G3-WORST").guts()
    once = replace(worst, worst_hand_pays=WorstHandPays.THE_POT)
    session = GutsSession(once, 4, decks=[_deck(4, 0, {1: TRIPS, 2: PAIR, 3: HIGH})])
    _decide(session, {1: IN, 2: IN, 3: IN})
    assert [e for e in session.events if isinstance(e, PaidIn)] == [PaidIn(3, 4)]
    tied = _deck(4, 0, {1: TRIPS, 2: "Kh 9c 4d", 3: "Ks 9d 4c"})
    session = GutsSession(worst, 4, decks=[tied])
    _decide(session, {1: IN, 2: IN, 3: IN})
    assert [e for e in session.events if isinstance(e, PaidIn)] == [PaidIn(2, 8), PaidIn(3, 8)]
    assert session.pot == 16 and _conserved(session)


def test_the_vicious_pot_is_won_only_alone() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "nobody wins the pot unless nobody else stays
    in": with two in the best hand takes nothing, the other matches, and the pot stays."""
    vicious = variant("G3-VICIOUS").guts()
    decks = [_deck(3, 0, {1: TRIPS, 2: HIGH}), _deck(3, 1, {1: LOWEST})]
    session = GutsSession(vicious, 3, decks=decks)
    _decide(session, {1: IN, 2: IN})
    assert NobodyWon(NobodyWonReason.VICIOUS, 3) in session.events
    assert not any(isinstance(e, PotTaken) for e in session.events)
    assert session.pot == 6 and session.nets == (-1, -1, -4)
    _decide(session, {1: IN})  # alone, even with the weakest hand
    assert session.ended and session.nets == (-1, 5, -4)
    everyone = replace(vicious, vicious_payers=ViciousPayers.EVERY_PLAYER_IN)
    session = GutsSession(everyone, 3, decks=[_deck(3, 0, {1: TRIPS, 2: HIGH})])
    _decide(session, {1: IN, 2: IN})
    assert [e for e in session.events if isinstance(e, PaidIn)] == [PaidIn(1, 3), PaidIn(2, 3)]
    assert session.pot == 9 and _conserved(session)


# --- redeals and the end ------------------------------------------------------------------------


def test_nobody_in_deals_again_with_the_same_pot() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "Then the hand is re-dealt, and all players
    (even those who were “out” in the last round) can participate again"; nobody in, the
    same pot is dealt again, by the next dealer to the left."""
    session = GutsSession(G3, 4, button=3, rng=np.random.default_rng(2))
    _decide(session, {})
    assert NobodyWon(NobodyWonReason.NOBODY_IN, 4) in session.events
    assert session.events[-5] == DealStarted(2, 0, 4)
    assert session.pot == 4 and session.nets == (-1,) * 4
    re_ante = GutsSession(replace(G3, nobody_in=NobodyIn.RE_ANTE), 4, rng=np.random.default_rng(2))
    _decide(re_ante, {})
    assert re_ante.pot == 8 and re_ante.nets == (-2,) * 4 and _conserved(re_ante)


def test_the_game_ends_when_one_alone_stays_in() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "The game ends when only a single player has
    the guts to stay “in”, and thus the pot is taken without replenishment"."""
    session = GutsSession(G3, 4, decks=[_deck(4, 0, {2: HIGH})])
    _decide(session, {2: IN})
    assert session.ended and session.finished and session.stopped is None
    assert session.events[-2:] == [PotTaken(2, 4), GameEnded((2,), 0)]
    assert session.nets == (-1, -1, 3, -1) and session.pot == 0
    with pytest.raises(IllegalAction, match="the game is over"):
        session.legal_actions()
    with pytest.raises(IllegalAction, match="the game is over"):
        session.act(0, IN)


# --- the dealer ---------------------------------------------------------------------------------


def test_in_turn_the_third_card_comes_face_up_as_each_declares() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "Each player receives two cards face down. In
    turn, each player declares whether they’re in or out. If they’re in, they receive their
    third card face up. The dealer declares last"."""
    deck = _deck(3, 0, {1: "7c 7d", 2: "Kh 9c", 0: "Qc Qd"}, up="7h 2s")
    session = GutsSession(DEALER, 3, decks=[deck])
    assert [len(session.cards(s)) for s in range(3)] == [2, 2, 2]
    assert session.legal_actions().seats == (1,)
    session.act(1, IN)
    assert session.events[-2:] == [Decided(1, IN), CardsDealt(1, parse_cards("7h"), True)]
    assert session.up_cards(1) == parse_cards("7h") and session.legal_actions().seats == (2,)
    assert session.seats_in == (1,)  # in turn, each declaration is seen at once
    with pytest.raises(IllegalAction, match="it is seat 2's turn to declare, not seat 0's"):
        session.act(0, IN)
    session.act(2, OUT)
    assert session.legal_actions().seats == (0,)  # the dealer last
    session.act(0, IN)
    assert CardsDealt(0, parse_cards("2s"), True) in session.events
    assert [e.seat for e in session.events if isinstance(e, PotTaken)] == [1]  # trip sevens


def test_the_dealer_alone_needs_a_pair_to_win() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "if no other player has stayed in, then the
    dealer must have a pair or better to win the pot"; without one the same pot is dealt
    again, and with one he takes it and the game ends."""
    without = _deck(4, 0, {0: "Kh 9c"}, up="4d")
    with_pair = _deck(4, 1, {1: "Qc Qd"}, up="2h")
    session = GutsSession(DEALER, 4, decks=[without, with_pair])
    _decide(session, {0: IN})
    assert NobodyWon(NobodyWonReason.DEALER_WITHOUT_PAIR, 4) in session.events
    assert session.pot == 4 and session.nets == (-1,) * 4 and session.dealer == 1
    _decide(session, {1: IN})
    assert session.ended and session.events[-1] == GameEnded((1,), 0)
    assert session.nets == (-1, 3, -1, -1)


def test_the_dealer_without_a_pair_may_match_the_pot() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "the dealer must have a pair or better to win
    the pot"; under the other reading of a dealer alone without one, he matches it."""
    game = replace(DEALER, dealer_without_pair=DealerWithoutPair.MATCHES)
    session = GutsSession(game, 4, decks=[_deck(4, 0, {0: "Kh 9c"}, up="4d")])
    _decide(session, {0: IN})
    assert [e for e in session.events if isinstance(e, PaidIn)] == [PaidIn(0, 4)]
    assert session.pot == 8 and session.nets == (-5, -1, -1, -1) and not session.ended


def test_the_third_card_may_wait_for_every_declaration() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "In turn, each player declares whether they’re
    in or out. If they’re in, they receive their third card face up": under the other reading
    the cards come once everyone has declared, so none is seen before a decision."""
    game = replace(DEALER, last_card=LastCard.AFTER_DECLARATIONS)
    deck = _deck(3, 0, {1: "7c 7d", 2: "Kh 9c", 0: "Qc Qd"}, up="7h 2s")
    session = GutsSession(game, 3, decks=[deck])
    session.act(1, IN)
    session.act(2, OUT)
    assert not session.up_cards(1) and session.events[-1] == Decided(2, OUT)
    session.act(0, IN)
    up = [e for e in session.events if isinstance(e, CardsDealt) and e.face_up]
    assert up == [CardsDealt(1, parse_cards("7h"), True), CardsDealt(0, parse_cards("2s"), True)]


def test_the_rule_binds_the_dealer_alone() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "The dealer declares last; if no other player
    has stayed in": another player alone in wins with any hand."""
    session = GutsSession(DEALER, 3, decks=[_deck(3, 0, {2: "Kh 9c"}, up="4d")])
    _decide(session, {2: IN})
    assert session.ended and session.events[-1] == GameEnded((2,), 0)


def test_nobody_challenges_the_dealer_who_wins_with_any_hand() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "Another variation is for the other players to
    have another chance to declare and challenge the dealer. With this variation, there is no
    requirement for the dealer’s hand; if no one challenges him, the dealer wins"."""
    session = GutsSession(CHALLENGE, 3, decks=[_deck(3, 0, {0: "Kh 9c"}, up="4d")])
    _decide(session, {0: IN})
    assert session.events[-1] == ChallengeOffered(0)
    legal = session.legal_actions()
    assert legal.challenge and legal.seats == (1,)
    session.act(1, OUT)
    with pytest.raises(IllegalAction, match="it is seat 2's turn to challenge the dealer"):
        session.act(0, IN)  # the dealer does not challenge himself
    session.act(2, OUT)
    assert [e for e in session.events if isinstance(e, Decided) and e.challenge] == [
        Decided(1, OUT, True),
        Decided(2, OUT, True),
    ]
    assert session.ended and session.events[-1] == GameEnded((0,), 0)


def test_a_challenger_shows_down_against_the_dealer() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "for the other players to have another chance
    to declare and challenge the dealer": the challenger who loses matches the pot."""
    deck = _deck(3, 0, {0: "Kh 9c", 1: "Qc Qd"}, up="4d 2h")
    session = GutsSession(CHALLENGE, 3, decks=[deck])
    _decide(session, {0: IN})
    session.act(1, IN)  # challenges, and gets his third card face up
    assert session.events[-2:] == [Decided(1, IN, True), CardsDealt(1, parse_cards("2h"), True)]
    session.act(2, OUT)
    assert [e for e in session.events if isinstance(e, PotTaken)] == [PotTaken(1, 3)]
    assert [e for e in session.events if isinstance(e, PaidIn)] == [PaidIn(0, 3)]
    assert session.nets == (-4, 2, -1) and session.pot == 3


# --- decisions ----------------------------------------------------------------------------------


def test_decisions_made_at_once_are_hidden_until_all_are_made() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "the players simultaneously open their hands
    to reveal their decision": any player may decide first, and the log shows no decision
    until the last is made, then all of them together."""
    session = GutsSession(G3, 4, button=1, decks=[_deck(4, 1, {0: PAIR, 3: TRIPS})])
    assert session.legal_actions().seats == (2, 3, 0, 1)
    before = len(session.events)
    session.act(3, IN)
    session.act(1, OUT)
    session.act(0, IN)
    assert session.legal_actions().seats == (2,)
    assert len(session.events) == before and session.seats_in == ()  # nothing told yet
    session.act(2, OUT)
    shown = [e for e in session.events if isinstance(e, Decided)]
    assert shown == [Decided(2, OUT), Decided(3, IN), Decided(0, IN), Decided(1, OUT)]
    assert [e for e in session.events if isinstance(e, PotTaken)] == [PotTaken(3, 4)]


def _state(session: GutsSession) -> tuple[object, ...]:
    legal = None if session.finished else session.legal_actions()
    return (list(session.events), session.nets, session.pot, session.set_aside, legal)


@pytest.mark.parametrize(
    ("game", "moves", "seat", "decision", "message"),
    [
        (G3, [(1, IN)], 1, OUT, "seat 1 has already decided this deal"),
        (G3, [], 7, IN, "seat: 7 is not a seat"),
        (G3, [], 1, "maybe", "decision: 'maybe' is not a decision: 'in' or 'out'"),
        (DEALER, [], 2, IN, "it is seat 1's turn to declare, not seat 2's"),
        (DEALER, [(1, OUT)], 1, OUT, "it is seat 2's turn"),
    ],
)
def test_an_illegal_decision_changes_nothing(
    game: GutsGame,
    moves: Sequence[tuple[int, GutsDecision]],
    seat: int,
    decision: str,
    message: str,
) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "In turn, each player declares whether they’re
    in or out": one decision each, in or out, in turn where the game says so."""
    session = GutsSession(game, 3, rng=np.random.default_rng(4))
    for who, what in moves:
        session.act(who, what)
    before = _state(session)
    with pytest.raises(IllegalAction, match=message):
        session.act(seat, decision)
    assert _state(session) == before


def test_a_stopped_session_refuses_decisions() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "Thus the game continues indefinitely": a deal
    limit stops it, the pot left where it is."""
    session = GutsSession(G3, 3, rng=np.random.default_rng(1), max_deals=2)
    _decide(session, {})
    _decide(session, {})
    assert session.stopped is StopReason.DEAL_LIMIT and session.events[-1] == Stopped(
        StopReason.DEAL_LIMIT, 2
    )
    assert session.pot == 3 and _conserved(session)
    before = _state(session)
    with pytest.raises(IllegalAction, match="the session has stopped: the deal limit"):
        session.act(0, IN)
    assert _state(session) == before


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 11}, "players: Three-card guts is for 2 to 10 players, got 11"),
        ({"button": 3}, "button: seat 3 is not at a table of 3"),
        ({"rng": None}, "deal from given deck orders"),
        ({"decks": [[0, 1, 2, 3, 4, 5, 6, 7, 7]]}, r"decks\[0\]: 3s is given twice"),
        ({"decks": [[0, 1, 2]]}, r"decks\[0\]: 3 cards; a deal may need 9"),
        ({"decks": [[60] * 9]}, r"decks\[0\]: 60 is not a card of the 52-card pack"),
        ({"carried": -1}, "carried: cannot be negative"),
        ({"max_deals": 0}, "max_deals: must be at least 1"),
    ],
)
def test_a_bad_session_is_refused_naming_the_field(kwargs: dict[str, object], message: str) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "Each player’s hand usually consists of a
    reduced poker hand of either 2 or 3 cards": a session needs seats and cards to deal."""
    settings: dict[str, object] = {"players": 3, "rng": np.random.default_rng(0)} | kwargs
    players = settings.pop("players")
    with pytest.raises(ValueError, match=message):
        GutsSession(G3, players, **settings)  # type: ignore[arg-type]
