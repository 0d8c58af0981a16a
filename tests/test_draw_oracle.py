"""Deuce-to-seven triple draw, badugi and five-card draw against pokerkit on random hands:
the draws (who draws, the burn, the replacements off the stub), the betting between them
and the showdown.

Both engines play the same seeded hands from the same deck order: ours is handed the order,
pokerkit's own deck is made that order (``install_deck``) and pokerkit deals from its top by
itself, so that every card it deals -- the first five or four, each draw's burn, each
player's replacements -- must be the card our dealer dealt.  Betting actions are chosen at
random among ours, discards at random among the player's cards.  At every betting turn the
two must agree on who acts, what a call costs, whether a fold is allowed and the bet or raise;
at every draw on who draws and with what cards; at the end on every stack.

pokerkit serves a draw's replacements only once everybody has discarded, ours as each player
discards; off a stub that suffices the two orders are the same card for card.  Where they
differ is set up away or excluded by name:

* Our games deal the bottom card and let a player draw five in a row
  (``deals_bottom_card``, ``five_consecutive``): pokerkit has neither house rule.
* The cap: half the hands play 'an initial bet plus three raises' a round (Rules
  002_376df91f076a6501.txt, 'Limits'), half uncapped.  pokerkit counts the bets and raises
  made in a round, the blind not among them, where ours counts the blind as the first bet:
  pokerkit's first round is capped one lower when there are blinds.  pokerkit never lifts
  the cap heads-up ('It is common to suspend this rule when there are only two players'):
  ours keeps it here too (``cap_lifted_heads_up=False``).
* A short all-in raise is never chosen.  Rules 002_376df91f076a6501.txt, 'Incomplete bet or
  raise': under the full bet rule such a raise 'does not constitute a "real" raise, and
  therefore does not reopen the betting action' -- nor, in ours, count toward the cap --
  where pokerkit lets it reopen the betting and counts it (the golden tests hold ours to the
  texts).  All-ins still come, on calls and on full raises.
* Everyone covers his ante and blind.  Rules 002, 'All in before the deal': 'Players to act
  must call the complete amount of the big blind to call, even if the all-in player has
  posted less than a full big blind'; pokerkit has them call what was posted.
* A hand whose stub runs out during a draw (:func:`pokerkit_refills_a_short_stub_its_own_way`)
  is played on, pokerkit told our cards, and compared turn by turn and on its stacks, but
  not counted among the hands compared card for card.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass
from typing import Any

import pokerkit
import pytest
from pokerkit import BettingStructure, Opening, State, Street

from simulations.engine.events import Burned, HoleDealt, Reshuffled
from simulations.engine.game import ExhaustionRule, ForcedBets, GameDefinition
from simulations.engine.hand import Action, ActionKind, Hand, LegalActions
from simulations.engine.limits import Limit, Stakes
from simulations.engine.phases import Bet, Deal, Draw, Phase
from simulations.engine.showdown import DEUCE_TO_SEVEN_ONLY, Half, HandRanking, Showdown
from simulations.evaluators.selection import FIVE_CARDS
from tests.pokerkit_oracle import (
    AUTOMATIONS,
    assert_same_final_stacks,
    assert_same_wager,
    install_deck,
    our_cards,
    pk_cards,
    play_on,
    pokerkit_refills_a_short_stub_its_own_way,
)

HANDS = 2000  # compared card for card, per game

# pokerkit deals and burns only what the test tells it to: the burn is left out too, so that
# a short stub is caught before pokerkit refills it (its automatic burn would do so at once).
DRAW_AUTOMATIONS = tuple(a for a in AUTOMATIONS if a is not pokerkit.Automation.CARD_BURNING)


@dataclass(frozen=True)
class Variant:
    """One draw game on both sides: its cards, draws and betting rounds, and its hand."""

    cards: int  # dealt to each player, and the most he may draw
    draws: int
    big_bet_round: int  # the first betting round at the big bet
    hand_types: tuple[Any, ...]
    showdown: Showdown
    antes_only_too: bool = False  # played with blinds (and maybe an ante), or antes only


VARIANTS = {
    # pokerkit's FixedLimitDeuceToSevenLowballTripleDraw: small, small, big, big.
    "deuce-to-seven triple draw": Variant(
        5, 3, 2, (pokerkit.StandardLowHand,), DEUCE_TO_SEVEN_ONLY
    ),
    # pokerkit's FixedLimitBadugi; Rules 000_1a86611de8d3f5f7.txt: 'Badougi is usually played
    # triple-draw, with a 1-1-2-2 betting structure'.
    "badugi": Variant(4, 3, 2, (pokerkit.BadugiHand,), Showdown((Half(HandRanking.BADUGI),))),
    # No pokerkit preset: built from State.  Blinds (the casino game) or antes (home games).
    "five-card draw": Variant(
        5, 1, 1, (pokerkit.StandardHighHand,), Showdown(), antes_only_too=True
    ),
}


def _our_game(
    variant: Variant, forced: ForcedBets, small: int, big: int, cap: int | None
) -> GameDefinition:
    phases: list[Phase] = [Deal("deal", down=variant.cards), Bet()]
    for number in range(variant.draws):
        phases += [Draw(f"draw {number + 1}", most=variant.cards), Bet()]
    return GameDefinition(
        name="oracle draw game",
        phases=tuple(phases),
        forced=forced,
        limit=Limit.FIXED,
        stakes=Stakes(
            small,
            big,
            big_bet_round=variant.big_bet_round,
            max_bets=cap,
            cap_lifted_heads_up=False,
        ),
        selection=FIVE_CARDS if variant.cards == 5 else None,
        showdown=variant.showdown,
        exhaustion=ExhaustionRule.DRAW_OTHERS_DISCARDS,
        # pokerkit deals the bottom card and a draw of five in one go.
        deals_bottom_card=True,
        five_consecutive=True,
        max_players=6,
    )


def _pokerkit_state(
    variant: Variant,
    stacks: list[int],
    ante: int,
    blinds: tuple[int, ...],
    stakes: tuple[int, int],
    cap: int | None,
) -> State:
    small, big = stakes

    def size(round_index: int) -> int:
        return big if round_index >= variant.big_bet_round else small

    # The blind is the first bet of our count, none of pokerkit's.
    first_cap = None if cap is None else cap - bool(blinds)
    streets = [
        Street(False, (False,) * variant.cards, 0, False, Opening.POSITION, small, first_cap)
    ]
    streets += [
        Street(True, (), 0, True, Opening.POSITION, size(r), cap)
        for r in range(1, variant.draws + 1)
    ]
    return State(
        DRAW_AUTOMATIONS,
        pokerkit.Deck.STANDARD,
        variant.hand_types,
        tuple(streets),
        BettingStructure.FIXED_LIMIT,
        True,
        ante,
        blinds or 0,
        0,
        stacks,
        len(stacks),
        mode=pokerkit.Mode.CASH_GAME,
    )


@dataclass
class Outcome:
    compared: bool  # card for card, every turn and the final stacks
    excluded: str | None = None  # the named exclusion that kept it from being compared


def _betting_options(legal: LegalActions) -> list[Action]:
    options = [Action.check() if legal.can_check else Action.call()]
    if legal.can_fold:
        options.append(Action.fold())
    # A short all-in raise is left out (see the module docstring); an all-in for a full raise
    # or more is in.
    if legal.wager is not None and legal.full_total is not None:
        low, _ = legal.wager
        if low >= legal.full_total:
            options.append(legal.wager_action(low))
    return options


def _play_one(name: str, seed: int) -> Outcome:
    """Play one hand in both engines, comparing them at every turn and at the end."""
    variant = VARIANTS[name]
    chooser = random.Random(seed)
    n = chooser.randint(2, 6)
    small, big = chooser.choice([(2, 4), (4, 8), (10, 20)])
    if variant.antes_only_too and chooser.random() < 0.5:
        ante, blinds = chooser.choice([1, 2]), ()
    else:
        ante, blinds = chooser.choice([0, 0, 1]), (small // 2, small)
    forced = ForcedBets(ante=ante, blinds=blinds)
    cap = chooser.choice([4, None])  # a bet and three raises, or uncapped
    # Short stacks go all in on a call or a raise; everyone covers his ante and blind.
    floor = ante + small + 1
    stacks = [
        chooser.choice([chooser.randint(floor, 6 * small), chooser.randint(6 * small, 60 * small)])
        for _ in range(n)
    ]
    button = chooser.randrange(n)
    order = list(range(52))
    chooser.shuffle(order)
    hand = Hand(_our_game(variant, forced, small, big, cap), stacks, button, deck=order)
    # pokerkit numbers players from the first seat left of the button; the button is last.
    seat_of = [(button + 1 + i) % n for i in range(n)]
    pk_stacks = [stacks[s] for s in seat_of]
    state = _pokerkit_state(variant, pk_stacks, ante, blinds, (small, big), cap)
    install_deck(state, order)

    excluded: str | None = None
    replaced: dict[int, list[int]] = {}  # this draw: each seat's replacements (ours)
    reshuffled = False  # this draw: our dealer ran out and reshuffled
    while state.status:
        if state.stand_patter_or_discarder_index is not None:
            # 'each player in turn beginning at the dealer's left' discards
            legal = hand.legal_actions()
            player = state.stand_patter_or_discarder_index
            assert legal.choice is not None and legal.choice.kind is ActionKind.DRAW, (seed, legal)
            assert legal.seat == seat_of[player], (seed, legal.seat, seat_of[player])
            mine = list(legal.choice.cards)
            assert mine == our_cards(state.hole_cards[player]), (seed, legal.seat)
            assert (legal.choice.fewest, legal.choice.most) == (0, variant.cards)
            discards = chooser.sample(mine, chooser.randint(0, variant.cards))
            before = len(hand.events)
            hand.act(Action.draw(discards))
            state.stand_pat_or_discard(pk_cards(discards))
            events = hand.events[before:]
            reshuffled |= any(isinstance(e, Reshuffled) for e in events)
            dealt = [e for e in events if isinstance(e, HoleDealt) and e.seat == legal.seat]
            replaced[legal.seat] = [c for e in dealt[:1] for c in e.cards]
            assert len(replaced[legal.seat]) == len(discards), (seed, events)
        elif state.card_burning_status:
            # Everyone has discarded: 'after a burn card is dealt, each player in turn
            # beginning at the dealer's left is dealt from the stub the same number of
            # cards he discarded'.
            draw = state.street_index - 1
            owed = sum(len(statuses) for statuses in state.hole_dealing_statuses)
            burns = [e.card for e in hand.events if isinstance(e, Burned)]
            if excluded is None:
                short = pokerkit_refills_a_short_stub_its_own_way(len(state.deck_cards), 1 + owed)
                # Ours runs out at the same point: no card to burn, or a reshuffle.
                assert short == (len(burns) <= draw or reshuffled), (seed, draw, short)
                if short:
                    excluded = pokerkit_refills_a_short_stub_its_own_way.__name__
            if excluded is None:
                burned = state.burn_card().card
                assert our_cards([burned]) == [burns[draw]], (seed, draw)
                while state.can_deal_hole():
                    player = state.hole_dealee_index
                    count = len(state.hole_dealing_statuses[player])
                    cards = state.deal_hole(count).cards
                    assert our_cards(cards) == replaced[seat_of[player]], (seed, draw, player)
            else:
                _tell_pokerkit_our_cards(state, hand, seat_of, replaced)
            for player in range(n):
                if state.statuses[player]:
                    ours = hand.hole[seat_of[player]]
                    assert our_cards(state.hole_cards[player]) == ours, (seed, player)
            replaced, reshuffled = {}, False
        elif state.can_deal_hole():
            # The first deal, 'one at a time, all face down', from the dealer's left.
            player = state.hole_dealee_index
            dealt = len(state.hole_cards[player])
            (card,) = state.deal_hole(1).cards
            assert our_cards([card]) == [hand.hole[seat_of[player]][dealt]], (seed, player)
        elif state.actor_index is not None and (
            hand.actor is None or hand.legal_actions().choice is not None
        ):
            # pokerkit still offers a check where no bet could be answered (everyone else
            # all in); ours skips it: 'no more betting once at most one player can act'.
            assert state.checking_or_calling_amount == 0, seed
            assert not state.can_complete_bet_or_raise_to(), seed
            state.check_or_call()
        elif state.actor_index is not None:
            legal = hand.legal_actions()
            assert legal.choice is None, (seed, legal)
            assert seat_of[state.actor_index] == legal.seat, (seed, state.actor_index, legal)
            assert state.checking_or_calling_amount == legal.to_call, (seed, legal)
            assert state.can_fold() == legal.can_fold, (seed, legal)
            assert_same_wager(state, legal, seed)
            action = chooser.choice(_betting_options(legal))
            hand.act(action)
            play_on(state, action)
        else:
            pytest.fail(f"pokerkit waits for something unexpected: {state}")
    assert_same_final_stacks(hand, state, seat_of, stacks, seed)
    return Outcome(excluded is None, excluded)


def _tell_pokerkit_our_cards(
    state: State, hand: Hand, seat_of: list[int], replaced: dict[int, list[int]]
) -> None:
    """After a short stub: pokerkit burns a card that is in no one's hand and deals each
    player the replacements we dealt him (it takes them from wherever it keeps them)."""
    held = {c for h in hand.hole for c in h}
    spare = next(c for c in range(52) if c not in held)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit: 'A card being dealt .. is not recommended'
        state.burn_card(pk_cards([spare]))
        while state.can_deal_hole():
            player = state.hole_dealee_index
            state.deal_hole(pk_cards(replaced[seat_of[player]]))


def _run(name: str) -> tuple[int, dict[str, int], int]:
    """Play seeds from 0 until ``HANDS`` hands are compared card for card: the compared
    count, the excluded hands by reason and the seeds played."""
    compared, excluded, seed = 0, {}, 0
    while compared < HANDS:
        outcome = _play_one(name, seed)
        seed += 1
        if outcome.compared:
            compared += 1
        else:
            assert outcome.excluded is not None
            excluded[outcome.excluded] = excluded.get(outcome.excluded, 0) + 1
        assert seed < 2 * HANDS, (name, compared, excluded)  # exclusions stay the exception
    return compared, excluded, seed


@pytest.mark.slow
@pytest.mark.filterwarnings("error")  # pokerkit deals our order from its own top: no warnings
@pytest.mark.parametrize("name", list(VARIANTS))
def test_random_draw_hands_match_pokerkit(name: str) -> None:
    """Rules 003_6e018542f14946f8.txt, 'Five-card draw': 'each player in turn beginning at
    the dealer's left is dealt from the stub the same number of cards he discarded', after 'a
    burn card is dealt'; 'the first betting round thus begins with the player to the left of
    the big blind, and subsequent rounds begin with the player to the dealer's left' (with
    antes, 'starting with the player to the dealer's left').  Rules 000_1a86611de8d3f5f7.txt,
    'Badugi' ('A Badougi is a four card hand where all the cards are of different ranks and
    suits', 'usually played triple-draw, with a 1-1-2-2 betting structure') and 'Double-draw
    and Triple-draw' ('Triple draw lowball, either ace-to-five or deuce-to-seven').  2,000
    random hands of each game compared card for card, turn by turn and on the final stacks."""
    compared, excluded, seeds = _run(name)
    print(f"{name}: {compared} hands compared, {seeds - compared} excluded: {excluded}")
    assert compared >= HANDS
    assert sum(excluded.values()) == seeds - compared
