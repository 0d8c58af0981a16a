"""pokerkit, set up once for the oracle tests that hold our evaluators and engine to it.

pokerkit is a declared test dependency (the ``test`` extra): without it these tests fail
rather than skip, so that a broken install cannot pass for a green run.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pokerkit

from simulations.cards import format_card
from simulations.engine.events import Awarded, Shown
from simulations.engine.hand import Action, Hand, LegalActions

# pokerkit's card for each of our codes, parsed from our own formatting ('As', 'Td', ...).
PK_CARDS = [pokerkit.Card.clean(format_card(code))[0] for code in range(52)]

# Everything but the dealing of the cards and the players' choices is left to pokerkit.
AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.CARD_BURNING,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
    pokerkit.Automation.RUNOUT_COUNT_SELECTION,
)


def pk_cards(codes: Iterable[int]) -> list[Any]:
    return [PK_CARDS[code] for code in codes]


# --- evaluators ---------------------------------------------------------------------------------


def assert_same_order(ours: npt.NDArray[np.int32], theirs: npt.NDArray[np.int64]) -> None:
    """Sorted by our value, pokerkit's keys never decrease and ties coincide exactly.

    Along that order both sequences are non-decreasing, so when neighbours tie in one exactly
    when they tie in the other, the two rankings are the same total preorder.
    """
    order = np.argsort(ours, kind="stable")
    ours_sorted, theirs_sorted = ours[order], theirs[order]
    steps = np.diff(theirs_sorted)
    falls = np.flatnonzero(steps < 0)
    assert falls.size == 0, f"pokerkit ranks hand {order[falls[0] + 1]} below the one before it"
    mismatch = np.flatnonzero((np.diff(ours_sorted) == 0) != (steps == 0))
    assert mismatch.size == 0, f"tie disagreement at hands {order[mismatch[0] : mismatch[0] + 2]}"


def assert_from_game_indices(
    hand_type: Any, hands: npt.NDArray[np.int8], keys: npt.NDArray[np.int64], hole: int
) -> None:
    """Each hand's ``hand_type.from_game(hole cards, board)`` has ``keys``' entry index."""
    for row, key in zip(hands.tolist(), keys.tolist(), strict=True):
        assert hand_type.from_game(pk_cards(row[:hole]), pk_cards(row[hole:])).entry.index == key


# --- the hand state machine ---------------------------------------------------------------------


def remembering(hand_type: Any) -> Any:
    """``hand_type`` with its ``from_game`` remembered for one game: pokerkit values a
    player's cards again for every pot and to decide whether he shows or mucks, by the
    best of every five-card hand each time, which was most of these tests' time.  The
    value is pokerkit's own (its method, called once per distinct set of cards), and a
    fresh class for each game keeps the memory to one hand."""
    seen: dict[tuple[tuple[Any, ...], tuple[Any, ...]], Any] = {}
    evaluate = hand_type.from_game

    class Remembering(hand_type):
        @classmethod
        def from_game(cls, hole_cards: Iterable[Any], board_cards: Iterable[Any] = ()) -> Any:
            key = (tuple(hole_cards), tuple(board_cards))
            if key not in seen:  # a ValueError (no hand of these cards) is not remembered
                seen[key] = evaluate(*key)
            return seen[key]

    Remembering.__name__ = Remembering.__qualname__ = hand_type.__name__
    return Remembering


def cash_game(
    streets: Sequence[Any],
    betting_structure: Any,
    stacks: Sequence[int],
    *,
    ante: int = 0,
    blinds_or_straddles: Any = 0,
    bring_in: int = 0,
    hand_types: tuple[Any, ...] = (pokerkit.StandardHighHand,),
) -> Any:
    """A pokerkit cash game (of high hands unless ``hand_types`` says otherwise) on a standard
    deck with :data:`AUTOMATIONS`, so that the test deals the cards and plays the actions."""
    return pokerkit.State(
        AUTOMATIONS,
        pokerkit.Deck.STANDARD,
        tuple(remembering(hand_type) for hand_type in hand_types),
        streets,
        betting_structure,
        True,
        ante,
        blinds_or_straddles,
        bring_in,
        stacks,
        len(stacks),
        mode=pokerkit.Mode.CASH_GAME,
    )


def assert_same_wager(state: Any, legal: LegalActions, seed: int) -> None:
    """pokerkit offers the same smallest and largest bet, raise or completion as ours, or
    none when ours has none."""
    if state.can_complete_bet_or_raise_to():
        theirs = (
            state.min_completion_betting_or_raising_to_amount,
            state.max_completion_betting_or_raising_to_amount,
        )
        assert legal.wager == theirs, (seed, legal, theirs)
    else:
        assert legal.wager is None, (seed, legal)


def play_on(state: Any, action: Action) -> None:
    """Our ``action``, played on pokerkit's ``state``."""
    if action.kind.value == "bring-in":
        state.post_bring_in()
    elif action.kind.value == "fold":
        state.fold()
    elif action.total is None:
        state.check_or_call()
    else:
        state.complete_bet_or_raise_to(action.total)


def assert_same_final_stacks(
    hand: Hand, state: Any, seat_of: Sequence[int], stacks: Sequence[int], seed: int
) -> None:
    """Both hands are over with the same final stacks; ``seat_of`` is our seat of pokerkit's
    player ``i``, ``stacks`` the starting stacks."""
    assert hand.finished
    ours = [hand.stacks[s] for s in seat_of]
    theirs = list(state.stacks)
    assert sum(ours) == sum(theirs) == sum(stacks)
    awarded = [e.pot for e in hand.events if isinstance(e, Awarded)]
    if len(awarded) == len(set(awarded)):
        assert ours == theirs, (seed, ours, theirs)
    else:
        # A split pot: pokerkit merges pots whose contenders end up the same before it
        # divides them, where we divide each pot on its own; the odd chips may then land
        # differently, one chip a pot at most.
        assert all(abs(a - b) <= len(hand.pots) for a, b in zip(ours, theirs, strict=True))


def pokerkit_splits_a_pot_nobody_qualifies_for(hand: Hand) -> bool:
    """Where pokerkit parts from the rule text: in a high-low hand where some player has a
    qualifying low, a side pot none of whose contenders qualifies has its low half split
    among them by pokerkit, while Rules 000_1a86611de8d3f5f7.txt says 'If there is no
    qualifying low hand, high hand takes the entire pot' (per pot, as we settle it).  Such
    hands are compared turn by turn but not on their final stacks."""
    if len(hand.game.showdown.halves) < 2:
        return False
    lows = {e.seat for e in hand.events if isinstance(e, Shown) and not e.hand.endswith("no low")}
    return bool(lows) and any(
        len(pot.eligible) > 1 and not lows & set(pot.eligible) for pot in hand.pots
    )


# --- a deck order of ours, dealt by pokerkit ----------------------------------------------------

# Our code of each pokerkit card.
CODES = {card: code for code, card in enumerate(PK_CARDS)}


def our_cards(cards: Iterable[Any]) -> list[int]:
    """Our codes of pokerkit's ``cards``."""
    return [CODES[card] for card in cards]


def install_deck(state: Any, order: Sequence[int]) -> None:
    """Make pokerkit's own deck our ``order`` (its top, ``deck_cards[0]``, is our first card),
    so that ``deal_hole(n)`` and ``burn_card()`` take the cards our dealer would: pokerkit then
    deals from our order by itself rather than being told each card.  Call it before the first
    card is dealt (with hole dealing left to the test, the constructor deals none)."""
    state.deck_cards.clear()
    state.deck_cards.extend(pk_cards(order))


def pokerkit_refills_a_short_stub_its_own_way(stub: int, needed: int) -> bool:
    """Where pokerkit parts from the rule text: a draw needing more cards (its burn and the
    replacements) than the ``stub`` holds.  Rules 003_6e018542f14946f8.txt, 'Five-card draw':
    'the dealer gives the player the one top card he can give, then shuffles together the
    bottom card of the deck, the burn card, and the earlier players' discards (but not the
    player's own discards!), and finally deals' the rest -- as we do (``ExhaustionRule``) --
    while pokerkit serves nobody until everyone has discarded, then refills its deck with every
    burn, mucked hand and discard, the drawing player's own and later players' included, in
    an order of its own (Python's global ``random``).  From there on the cards cannot be
    compared: such a hand is played on with pokerkit told our cards, compared turn by turn and
    on its final stacks, but not counted among the hands compared card for card."""
    return needed > stub
