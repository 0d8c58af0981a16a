"""Wild cards: jokers fully wild or as the bug, wild ranks, a player's own wild rank.

Wild-card high hands keep the standard order with five of a kind on top (rules 000 glossary,
'five of a kind': "a hand possible only in games with wild cards, defeating all other hands"),
so :func:`evaluate_wild` returns high-hand values.  A fully wild card may stand for any card of
the deck, a held card included, so four of a rank and a wild card make five of a kind.

The bug: the texts play a joker "as a bug" (rules 000, 'Gardena jackpots', 'Mexican stud',
'Blind stud') without defining it; the card-room meaning is used: an ace, or any card that
completes a straight, a flush or a straight flush.  In ace-to-five low the bug is the lowest
rank not already in the hand (:func:`bug_low_card`), so that substitution feeds any low
evaluator.

Double-ace flush (rules 000 glossary): "a flush with one or more wild cards in which they play
as aces, even if an ace is already present" — a joker with A-K-9-5 of one suit is the flush
A-A-K-9-5, which beats A-K-Q-J-9.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from simulations.cards import (
    FIRST_JOKER,
    MAX_JOKERS,
    Card,
    Rank,
    format_card,
    format_cards,
    is_joker,
    make_card,
    rank_of,
)
from simulations.evaluators.hand_value import HandValue
from simulations.evaluators.systems import (
    JokerRole,
    RankingSystem,
    evaluate_system_high,
    parse_hand,
)

# Rules 000, 'deuces wild for high-hand games'.
DEUCES_WILD = RankingSystem(name="Deuces wild", wild_ranks=frozenset({Rank.TWO}))
# Rules 000, 'Dr Pepper': tens, deuces and fours are wild.
DR_PEPPER = RankingSystem(name="Dr Pepper", wild_ranks=frozenset({Rank.TEN, Rank.TWO, Rank.FOUR}))
# Rules 000, 'Incorporating Joker cards': one joker, fully wild.
JOKER_WILD = RankingSystem(name="Joker wild", jokers=JokerRole.WILD, joker_count=1)
# Rules 000, 'Gardena jackpots': standard hand values with a single joker acting as a bug.
JOKER_BUG = RankingSystem(name="Joker as the bug", jokers=JokerRole.BUG, joker_count=1)
# Rules 000, 'Blind stud': two jokers in the deck acting as bugs, with the double-ace flush rule.
TWO_BUGS_DOUBLE_ACE = RankingSystem(
    name="Two bugs, double-ace flush",
    jokers=JokerRole.BUG,
    joker_count=2,
    double_ace_flush=True,
)


def evaluate_wild(system: RankingSystem, cards: str | Sequence[int]) -> HandValue:
    """The best five of ``cards`` with the system's wild cards placed at their best."""
    return evaluate_system_high(system, cards)


def with_wild_rank(
    system: RankingSystem, rank: Rank | None, name: str | None = None
) -> RankingSystem:
    """``system`` with every card of ``rank`` wild as well (``None``: unchanged)."""
    if rank is None:
        return system
    return replace(
        system, name=name or system.name, wild_ranks=system.wild_ranks | frozenset({rank})
    )


def with_wild_card(system: RankingSystem, card: int, name: str | None = None) -> RankingSystem:
    """``system`` with one particular card wild (rules 002, 'Iron cross': the center card)."""
    if is_joker(card):
        raise ValueError("a joker is wild or the bug by the system's joker rule, not by itself")
    return replace(
        system, name=name or system.name, wild_cards=system.wild_cards | frozenset({Card(card)})
    )


def _ranks_of(cards: Iterable[int]) -> list[Rank]:
    return [rank_of(c) for c in cards if not is_joker(c)]


def low_hole_card_wild(downcards: str | Sequence[int]) -> Rank | None:
    """Rules 000, 'Low hole card wild': the rank of the player's lowest-ranking downcard (deuce
    lowest, ace highest), wild with all other cards of that rank in his hand only.  A joker has
    no rank; ``None`` when no downcard has one."""
    ranks = _ranks_of(_codes(downcards))
    return min(ranks) if ranks else None


def lowest_board_rank(board: str | Sequence[int]) -> Rank | None:
    """Rules 002, 'Lame-brain Pete': the lowest-ranking card on the board, and all cards of that
    rank on the board or in the hole cards, play as wild cards."""
    ranks = _ranks_of(_codes(board))
    return min(ranks) if ranks else None


def follow_the_queen(upcards: str | Sequence[int]) -> Rank | None:
    """Rules 002, 'Follow the Queen': the rank of the upcard dealt right after the last exposed
    queen; queens themselves if the final upcard is a queen; ``None`` if no queen was exposed."""
    wild: Rank | None = None
    after_queen = False
    codes = _codes(upcards)
    for code in codes:
        rank = None if is_joker(code) else rank_of(code)
        if after_queen and rank is not None:
            wild = rank
        after_queen = rank == Rank.QUEEN
    if codes and not is_joker(codes[-1]) and rank_of(codes[-1]) == Rank.QUEEN:
        wild = Rank.QUEEN
    return wild


def _codes(cards: str | Sequence[int]) -> list[int]:
    codes = parse_hand(cards)
    for code in codes:
        if not 0 <= code < FIRST_JOKER + MAX_JOKERS:
            raise ValueError(f"{code!r} is not a card code (0..55)")
    return codes


# Ace-to-five order: the ace is the lowest rank.
_LOW_ORDER = (Rank.ACE, *tuple(Rank)[: Rank.ACE])


def bug_low_card(cards: str | Sequence[int]) -> Card:
    """The card the (first) bug stands for in an ace-to-five low hand: the lowest rank not
    already in the hand (ace lowest).  Suits do not count in low, so the clubs card is given."""
    cards_out = substitute_low_bugs(cards)
    codes = _codes(cards)
    for original, card in zip(codes, cards_out, strict=True):
        if is_joker(original):
            return card
    raise ValueError(f"{format_cards(codes) or 'the hand'} holds no joker")


def substitute_low_bugs(cards: str | Sequence[int]) -> tuple[Card, ...]:
    """The hand with each bug replaced for ace-to-five low: the lowest rank not already in the
    hand, then the next such rank for a second bug."""
    codes = _codes(cards)
    seen: set[int] = set()
    for code in codes:
        if code in seen:
            raise ValueError(f"duplicate card {format_card(code)}")
        seen.add(code)
    present = {rank_of(c) for c in codes if not is_joker(c)}
    missing = iter(r for r in _LOW_ORDER if r not in present)
    out = []
    for code in codes:
        if is_joker(code):
            rank = next(missing, None)
            if rank is None:
                raise ValueError("every rank is already in the hand; the bug has no low card")
            out.append(make_card(rank, 0))
        else:
            out.append(Card(code))
    return tuple(out)
