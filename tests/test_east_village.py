"""East Village: Omaha eight or better with the board dealt from the players' donations
(Rules 002_376df91f076a6501.txt, '= East Village ='; simulations/engine/dealer.py,
card_phases.py)."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import numpy as np
import pytest

from simulations.cards import Card, parse_cards
from simulations.engine.actions import Action, ActionKind, IllegalAction
from simulations.engine.events import (
    Awarded,
    Burned,
    Discarded,
    Donated,
    HoleDealt,
    PileMade,
    Shown,
)
from simulations.engine.gamefile import GameFileError, load_game_file, parse_game_text
from simulations.engine.hand import Hand
from simulations.engine.history import describe_events, play_plainly
from simulations.engine.variants import GAMES_FOLDER, variant
from tests.random_play import random_action
from tests.state import state_of

FILE = Path(str(GAMES_FOLDER)) / "110-east-village-eight-fixed-limit.toml"

# Three players, the button on seat 0: the deal goes to seats 1, 2, 0, one card at a time.
# Each keeps a pocket pair and a pair, donates one card and discards two.
DEALT = {
    1: "As Ah 3c 3d 9s 6c 6d",  # keeps As Ah 3c 3d, donates 9s, discards 6c 6d
    2: "Ks Kh 4c 4d 9h 7c 7d",  # keeps Ks Kh 4c 4d, donates 9h, discards 7c 7d
    0: "Qs Qh 5c 5d Tc 8c 8d",  # keeps Qs Qh 5c 5d, donates Tc, discards 8c 8d
}
STUB = "Td Jh Js 2c"  # the four cards the dealer adds to the three donations


def _deck() -> list[int]:
    hands = {seat: parse_cards(text) for seat, text in DEALT.items()}
    order: list[Card] = []
    for i in range(7):
        order += [hands[seat][i] for seat in (1, 2, 0)]
    order += parse_cards(STUB)
    return order + [c for c in range(52) if c not in order]


def _to_the_donation(hand: Hand) -> None:
    for seat in (1, 2, 0):  # the discard, every player at once
        assert hand.actor == seat
        hand.act(Action.discard(parse_cards(DEALT[seat])[5:]))


def _donate_all(hand: Hand) -> None:
    for seat in (1, 2, 0):
        assert hand.actor == seat
        hand.act(Action.donate(parse_cards(DEALT[seat])[4:5]))


def _check_down(hand: Hand) -> None:
    while not hand.finished:
        legal = hand.legal_actions()
        hand.act(Action.check() if legal.can_check else Action.call())


def _pile(hand: Hand) -> PileMade:
    piles = [e for e in hand.events if isinstance(e, PileMade)]
    assert len(piles) == 1
    return piles[0]


def test_the_board_comes_from_the_donations_and_the_stub() -> None:
    """Rules 002_376df91f076a6501.txt, '= East Village =': 'each player "donates" one of his
    cards ... The dealer then adds cards from the stub until there are a total of 7 donation
    cards ... 5 of these cards will then make up the three card flop, the one card turn, and
    the one card river. 2 of these cards will remain face down, and thus unused', and 'there
    are no "burn cards" used in this game'.  The pile holds two nines, two tens, two jacks
    and a deuce: whichever five come, the pocket aces take the high half, and no low can
    qualify — the mechanic alone decides the board."""
    deck = _deck()
    hand = Hand(variant("FEV/8").game(), [100] * 3, button=0, deck=deck)
    _to_the_donation(hand)
    assert not any(isinstance(e, PileMade) for e in hand.events)
    _donate_all(hand)
    pile = _pile(hand)
    donated = {card for e in hand.events if isinstance(e, Donated) for card in e.cards}
    assert donated == set(parse_cards("9s 9h Tc"))
    assert pile.from_stub == tuple(parse_cards(STUB))  # the stub's next four, in order
    assert set(pile.cards) == donated | set(parse_cards(STUB)) and len(pile.cards) == 7
    _check_down(hand)
    # every player ends with four hole cards: the seven dealt, less two discarded and one
    # donated
    for seat, text in DEALT.items():
        assert sorted(hand.hole[seat]) == sorted(parse_cards(text)[:4])
    assert hand.board == list(pile.cards[:5])  # the flop, the turn and the river, in order
    unused = set(pile.cards[5:])
    assert len(unused) == 2 and not unused & set(hand.board)
    every = [*hand.board, *unused, *(c for h in hand.hole for c in h)]
    assert len(every) == len(set(every)) == 19  # no card in two places
    assert not any(isinstance(e, Burned) for e in hand.events)
    shown = {e.seat: e.hand for e in hand.events if isinstance(e, Shown)}
    assert all(text.endswith("/ no low") for text in shown.values()), shown
    assert {e.seat for e in hand.events if isinstance(e, Awarded)} == {1}
    assert sum(hand.stacks) == 300 and hand.payoffs[1] == 4  # both blinds and a call


def test_the_scramble_follows_the_deck_order_and_the_rng() -> None:
    """Rules 002_376df91f076a6501.txt, '= East Village =': 'the dealer "shuffles" these cards
    with a scramble ... then "shuffles" these seven cards with a scramble'.  From a given deck
    order the scrambles draw from the generator a reshuffle would (seeded by a digest of the
    order), so a replay scrambles the same; from an rng they continue it."""
    deck = _deck()
    hand = Hand(variant("FEV/8").game(), [100] * 3, button=0, deck=deck)
    _to_the_donation(hand)
    _donate_all(hand)
    digest = hashlib.blake2b(bytes(deck), digest_size=16).digest()
    rng = np.random.default_rng(int.from_bytes(digest, "little"))
    donations = parse_cards("9s 9h Tc")  # in the order given, from the dealer's left
    scrambled = [donations[i] for i in rng.permutation(3)]
    first = [*scrambled, *parse_cards(STUB)]
    assert _pile(hand).cards == tuple(first[i] for i in rng.permutation(7))
    again = Hand(variant("FEV/8").game(), [100] * 3, button=0, deck=deck)
    _to_the_donation(again)
    _donate_all(again)
    assert _pile(again) == _pile(hand)

    def dealt(seed: int) -> tuple[Card, ...]:
        hand = Hand(variant("FEV/8").game(), [100] * 5, 0, rng=np.random.default_rng(seed))
        return _pile(play_plainly(hand)).cards

    assert dealt(11) == dealt(11)
    # the scramble mixes the donations with the stub's cards: the pile is not the donations
    # followed by the stub's cards in every deal
    orders = []
    for seed in range(5):
        hand = play_plainly(
            Hand(variant("FEV/8").game(), [100] * 5, 0, rng=np.random.default_rng(seed))
        )
        donated = [c for e in hand.events if isinstance(e, Donated) for c in e.cards]
        orders.append(_pile(hand).cards[:5] == tuple(donated))
    assert not all(orders)


def test_a_donation_is_one_of_the_players_own_down_cards() -> None:
    """Rules 002_376df91f076a6501.txt, '= East Village =': 'with 5 hole cards left in his hand,
    each player "donates" one of his cards'.  A card he discarded, another player's card, two
    cards or a discard instead is refused, and the hand is unchanged; nothing is shown until
    every player has donated."""
    hand = Hand(variant("FEV/8").game(), [100] * 3, button=0, deck=_deck())
    _to_the_donation(hand)
    legal = hand.legal_actions()
    assert legal.choice is not None and legal.choice.kind is ActionKind.DONATE
    assert (legal.choice.fewest, legal.choice.most) == (1, 1)
    assert sorted(legal.choice.cards) == sorted(parse_cards(DEALT[1])[:5])
    before = (state_of(hand.hole), len(hand.events), hand.actor, list(hand.stacks))
    for bad in (
        Action.donate(parse_cards("6c")),  # discarded
        Action.donate(parse_cards("9h")),  # seat 2's
        Action.donate(parse_cards("9s As")),  # two
        Action.discard(parse_cards("9s")),  # not a donation
        Action.check(),
    ):
        with pytest.raises(IllegalAction):
            hand.act(bad)
        assert (state_of(hand.hole), len(hand.events), hand.actor, list(hand.stacks)) == before
    hand.act(Action.donate(parse_cards("As")))  # any of his five, even an ace
    assert not any(isinstance(e, Donated) for e in hand.events)  # all at once, at the end
    hand.act(Action.donate(parse_cards("9h")))
    hand.act(Action.donate(parse_cards("Tc")))
    assert [e.seat for e in hand.events if isinstance(e, Donated)] == [1, 2, 0]
    assert parse_cards("As")[0] in _pile(hand).cards
    assert hand.legal_actions().choice is None  # the first betting round


def test_fewer_players_draw_more_from_the_stub() -> None:
    """Rules 002_376df91f076a6501.txt, '= East Village =': 'If it is played with less than
    seven players, extra cards must be pulled from the stub to be added to the community
    cards, so that there are always seven community cards'; seven players donate all seven."""
    for players, added in ((2, 5), (5, 2), (7, 0)):
        hand = play_plainly(
            Hand(variant("FEV/8").game(), [100] * players, 0, rng=np.random.default_rng(3))
        )
        pile = _pile(hand)
        assert len(pile.cards) == 7 and len(pile.from_stub) == added
        assert all(len(cards) == 4 for cards in hand.hole)
        assert len(hand.board) == 5 and set(hand.board) <= set(pile.cards)


def test_random_play_keeps_every_card_in_one_place() -> None:
    """Rules 002_376df91f076a6501.txt, '= East Village =': 'Each player plays the best five-card
    hand he can make from exactly two of his hole cards plus three of the five community
    cards'.  Over random play: the pile is the donations and unseen stub cards, the board is
    five of its seven, a discard never returns, every player still in holds four, chips are
    conserved."""
    game = variant("FEV/8").game()
    for seed in range(300):
        chooser = random.Random(seed)
        n = chooser.randint(2, 7)
        stacks = [chooser.randint(5, 200) for _ in range(n)]
        hand = Hand(game, stacks, chooser.randrange(n), rng=np.random.default_rng(seed))
        while not hand.finished:
            hand.act(random_action(hand, chooser))
        dealt = [c for e in hand.events if isinstance(e, HoleDealt) for c in e.cards]
        assert len(dealt) == len(set(dealt)) == 7 * n
        discarded = {c for e in hand.events if isinstance(e, Discarded) for c in e.cards}
        donated = [c for e in hand.events if isinstance(e, Donated) for c in e.cards]
        assert len(discarded) == 2 * n and len(donated) == n
        pile = _pile(hand)
        assert set(pile.cards) == set(donated) | set(pile.from_stub)
        assert not set(pile.from_stub) & set(dealt)
        assert set(hand.board) <= set(pile.cards)
        assert not discarded & (set(hand.board) | {c for h in hand.hole for c in h})
        for seat in range(n):
            assert len(hand.hole[seat]) == 4
        assert sum(hand.stacks) == sum(stacks)
    lines = describe_events(hand.events)
    assert any("donates" in line for line in lines) and any("scrambled" in line for line in lines)


@pytest.mark.parametrize(
    ("old", "new", "field", "problem"),
    [
        (
            '{ donate = "donate", count = 1, pile = 7 }',
            '{ donate = "donate", count = 6, pile = 7 }',
            "phases[2].count",
            "donates 6 cards but a player holds 5 down cards",
        ),
        (
            '{ donate = "donate", count = 1, pile = 7 }',
            '{ donate = "donate", count = 1, pile = 4 }',
            "phases[8].board",
            "the pile holds 4 cards",
        ),
        (
            '{ donate = "donate", count = 1, pile = 7 }',
            '{ discard = "donate", count = 1 }',
            "phases[4].from_pile",
            "no donate phase",
        ),
        (
            '{ deal = "flop", board = 3, from_pile = true }',
            '{ deal = "flop", board = 3, from_pile = true, burn = true }',
            "phases[4].burn",
            "burns no card",
        ),
        ("players = [2, 7]", "players = [2, 8]", "players", "overfill the pile of 7"),
        (
            '{ donate = "donate", count = 1, pile = 7 }',
            '{ donate = "donate", count = 1, pile = 0 }',
            "phases[2].pile",
            "must be at least 1",
        ),
    ],
)
def test_bad_east_village_files_are_refused_naming_the_field(
    old: str, new: str, field: str, problem: str
) -> None:
    """Rules 002_376df91f076a6501.txt, '= East Village =': 'with 5 hole cards left in his hand,
    each player "donates" one of his cards' — a donation larger than the hand, a pile too
    small for the board, a board from a pile never made, a burn, or more players than the
    pile holds donations from is refused, naming the field."""
    text = FILE.read_text()
    assert old in text
    with pytest.raises(GameFileError) as caught:
        parse_game_text(text.replace(old, new), "ev.toml")
    assert caught.value.field == field, caught.value
    assert problem in caught.value.problem, caught.value


def test_the_shipped_file_reads_as_the_rule_text_says() -> None:
    """Rules 002_376df91f076a6501.txt, '= East Village =': 'Each player is dealt seven hole
    cards. The player then discards two of these cards'; 'the game is played high-low split
    with the 8-or-better qualifier'."""
    entry = load_game_file(FILE)
    assert entry.code == "FEV/8" and entry.game.max_players == 7
    assert entry.game.selection is not None and entry.game.selection.hole_cards == 4
    assert len(entry.game.showdown.halves) == 2
