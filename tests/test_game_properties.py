"""Properties of every built-in game over random play (2,000 hands each): no card is in two
places at once and none comes back unless a reshuffle brought it (never a folded hand's),
each player ends with the cards the game deals, chips are conserved, and the shares of
every pot add up to the pot — whatever the phases and the showdown's halves.

East Village's pile (Rules 002_376df91f076a6501.txt, '= East Village =': 'The dealer then
adds cards from the stub until there are a total of 7 donation cards'): its cards are the
donations and cards never dealt before, and the board comes from it alone.  Baseball's extra
upcards (Rules 000_1a86611de8d3f5f7.txt, 'being dealt an extra upcard') count toward the
cards a player ends with.  Cards dealt to the centre (Draft: 'one upcard is dealt to the
center of the table (not to any specific player)'; Auction: 'the first card is dealt to the
center') are cards never dealt before, and every card a player takes from the centre was
there; Cowpie's split ('split their hands into a five-card hand and a two-card hand') is of
the cards the player holds, all of them."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from simulations.cards import Card
from simulations.engine.deck_order import cards_needed
from simulations.engine.events import (
    Awarded,
    BoardDealt,
    Burned,
    CentreDealt,
    Designated,
    Discarded,
    Donated,
    Drafted,
    Exhausted,
    Folded,
    HandSplit,
    HoleDealt,
    OutOfCards,
    Passed,
    PileMade,
    Reshuffled,
)
from simulations.engine.game import ExhaustionRule, GameDefinition
from simulations.engine.hand import Hand
from simulations.engine.history import play_plainly
from simulations.engine.phases import Deal, cards_held
from simulations.engine.variants import POKER_VARIANTS
from tests.random_play import random_action

HANDS = 2_000
PLAIN = 20  # and hands at the most players played to the end by play_plainly


def _check_cards(hand: Hand, name: str, seed: int) -> dict[int, int]:
    """Walk the log: no card is dealt while someone holds it, a card comes back only after a
    reshuffle and never from a folded hand; a donation pile holds the donations and unseen
    cards, and the board comes from it.  Returns each folded seat's card count."""
    held: dict[int, set[Card]] = {s: set() for s in range(hand.n)}
    folded: dict[int, int] = {}
    gone: set[Card] = set()  # folded hands: never dealt again
    away: set[Card] = set()  # burned or discarded: dealt again only after a reshuffle
    returned: set[Card] = set()  # back in the stub by a reshuffle
    seen: set[Card] = set()
    donated: set[Card] = set()
    pile: set[Card] = set()  # the donation pile's cards not yet on the board
    piled = False
    centre: set[Card] = set()  # a draft's or auction's cards not yet taken
    for event in hand.events:
        if isinstance(event, BoardDealt) and piled:
            assert set(event.cards) <= pile, (name, seed, "a board card not from the pile")
            pile -= set(event.cards)
            continue
        if isinstance(event, HoleDealt | BoardDealt | CentreDealt):
            for card in event.cards:
                assert card not in gone, (name, seed, "a folded card came back")
                if card in seen or card in away:
                    assert card in returned, (name, seed, "a card dealt twice")
                    returned.discard(card)
                    away.discard(card)
                seen.add(card)
                if isinstance(event, HoleDealt):
                    held[event.seat].add(card)
                elif isinstance(event, CentreDealt):
                    centre.add(card)
        elif isinstance(event, Drafted | Designated):
            taker = event.seat if isinstance(event, Drafted) else event.to
            assert event.card in centre, (name, seed, "a card taken that is not in the centre")
            assert taker not in folded, (name, seed, "a centre card to a folded player")
            centre.discard(event.card)
            held[taker].add(event.card)
        elif isinstance(event, HandSplit):
            parts = set(event.five) | set(event.two)
            assert (len(event.five), len(event.two)) == (5, 2), (name, seed, "not five and two")
            assert parts == held[event.seat], (name, seed, "a split not of the cards held")
        elif isinstance(event, Burned):
            away.add(event.card)
        elif isinstance(event, Passed):
            assert set(event.cards) <= held[event.seat], (name, seed, "passed a card not held")
            assert event.to not in folded, (name, seed, "a pass to a folded player")
            held[event.seat] -= set(event.cards)
            held[event.to] |= set(event.cards)
        elif isinstance(event, Discarded):
            held[event.seat] -= set(event.cards)
            away |= set(event.cards)
        elif isinstance(event, Donated):
            assert set(event.cards) <= held[event.seat], (name, seed, "donated a card not held")
            held[event.seat] -= set(event.cards)
            donated |= set(event.cards)
        elif isinstance(event, PileMade):
            added = set(event.from_stub)
            assert not added & (seen | away | gone), (name, seed, "a pile card dealt before")
            assert set(event.cards) == donated | added, (name, seed, "not the donations")
            assert len(event.cards) == len(donated) + len(added), (name, seed)
            pile, piled = set(event.cards), True
            seen |= added
        elif isinstance(event, Reshuffled) or (isinstance(event, Exhausted) and event.reused_burns):
            returned |= away  # stud's rule deals earlier burn cards again
        elif isinstance(event, Folded):
            folded[event.seat] = len(held[event.seat])
            gone |= held[event.seat]
    every = [c for h in hand.hole for c in h] + list(hand.board) + list(pile)
    assert len(every) == len(set(every)), (name, seed)
    assert not centre and not hand.centre, (name, seed, "a centre card left untaken")
    # each hand is what the log dealt and passed to it, less what it gave away
    assert [held[s] for s in range(hand.n)] == [set(h) for h in hand.hole], (name, seed)
    return folded


@pytest.mark.parametrize("code", list(POKER_VARIANTS))
def test_random_play_keeps_the_cards_and_the_chips(code: str) -> None:
    game = POKER_VARIANTS[code].game()
    seen: Counter[str] = Counter()
    for seed in range(HANDS + PLAIN):
        chooser = random.Random(seed)
        n = chooser.randint(game.min_players, game.max_players)
        stacks = [
            chooser.choice([chooser.randint(5, 40), chooser.randint(40, 400)]) for _ in range(n)
        ]
        if seed >= HANDS:  # the most players, nobody folding: the deck's hardest case
            n, stacks = game.max_players, [400] * game.max_players
        hand = Hand(game, stacks, button=chooser.randrange(n), rng=np.random.default_rng(seed))
        if seed >= HANDS:
            play_plainly(hand)
        while not hand.finished:
            hand.act(random_action(hand, chooser))
        folded_at = _check_cards(hand, code, seed)
        community = any(isinstance(e, Exhausted) and e.community for e in hand.events)
        expected = (
            cards_held(game.phases[: hand.phase + 1])[0] - community
        )  # the shared card is on the board
        # Baseball: the extra upcards dealt, less what running out left undealt
        more = Counter(
            e.seat for e in hand.events if isinstance(e, HoleDealt) and e.extra for _ in e.cards
        )
        for event in hand.events:
            if isinstance(event, OutOfCards):
                more.subtract(event.short)
        for seat in range(n):
            if seat in folded_at:  # a folded hand gets no more cards
                assert len(hand.hole[seat]) == folded_at[seat], (code, seed)
            else:
                assert len(hand.hole[seat]) == expected + more[seat], (code, seed)
        assert sum(hand.stacks) + hand.carried == sum(stacks), (code, seed)  # or passed out
        awarded: Counter[int] = Counter()
        for event in hand.events:
            if isinstance(event, Awarded):
                awarded[event.pot] += int(event.amount)
        assert [awarded[i] for i in range(len(hand.pots))] == [p.amount for p in hand.pots]
        seen["exhausted"] += any(isinstance(e, Exhausted | Reshuffled) for e in hand.events)
        seen["community"] += community
        seen["split"] += any(c > 1 for c in Counter(
            e.pot for e in hand.events if isinstance(e, Awarded)).values())  # fmt: skip
        seen["folds"] += bool(folded_at)
        seen["showdown"] += hand.pots != () and len(folded_at) < n - 1
    assert seen["folds"] > 0 and seen["showdown"] > 0, seen
    shares_cards = any(isinstance(p, Deal) and p.board for p in game.phases)
    if len(game.showdown.halves) > 1 or shares_cards:  # where pots are often split
        assert seen["split"] > 0, seen
    if game.exhaustion is not ExhaustionRule.NONE:
        assert seen["exhausted"] > 0, seen
    if game.exhaustion.for_stud and _needs_community(game):
        assert seen["community"] > 0, seen


def _needs_community(game: GameDefinition) -> bool:
    """Whether the most players staying to the end need more cards than the deck and the
    burn cards before the last street hold (so the last street is one community card)."""
    deals = [p for p in game.phases if isinstance(p, Deal)]
    spare = sum(p.burn for p in deals[:-1])
    return cards_needed(game, game.max_players) - spare > game.deck.size
