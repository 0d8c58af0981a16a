"""Wild cards decided by the deal: which ranks are wild in a hand depends on the cards dealt.

Rules 000_1a86611de8d3f5f7.txt, 'Any game can also be changed by adding one or more jokers':
'Low hole card wild, in which each player's lowest-ranking downcard (and all other cards of
that same rank) are wild in that player's hand only, and Follow the queen, in which each time
a Q is dealt face up to anyone, the next face up card (and all others of that rank) become
wild ... if a second Q appears among the upcards, the previous wild card loses its status to
the new one'; Rules 002_376df91f076a6501.txt, 'Follow the Queen': 'In the event that the
final card dealt (exposed) is itself a queen, then all queens are wild. If no queens are dealt
(exposed), then there are no wilds for that hand'; Rules 000, 'Spit in the ocean': the card in
the centre 'is also a wild card, and every other card of its rank is also wild'.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from simulations.cards import Card, Rank, is_joker, rank_of


class DealtWild(StrEnum):
    """A rule naming wild ranks from the cards dealt."""

    FOLLOW_THE_QUEEN = "follow-the-queen"  # the rank dealt face up after the last queen up
    LOW_HOLE_CARD = "low-hole-card"  # each player's lowest down card, for him alone
    BOARD_CARD = "board-card"  # the ranks of the cards in the centre (Spit in the ocean)
    LOW_BOARD_CARD = "low-board-card"  # the lowest rank on the board (Lame-brain Pete)


def follow_the_queen(upcards: Sequence[Card]) -> frozenset[Rank]:
    """The wild rank of Follow the Queen from every card dealt face up, in the order dealt:
    the rank of the card after the last queen; queens when a queen was the last card up;
    none when no queen was dealt up."""
    wild: frozenset[Rank] = frozenset()
    follows = False  # the previous card up was a queen
    for card in upcards:
        if is_joker(card):
            follows = False
            continue
        if follows:
            wild = frozenset({rank_of(card)})
        follows = rank_of(card) is Rank.QUEEN
    return frozenset({Rank.QUEEN}) if follows else wild


def low_hole_card(down: Sequence[Card]) -> frozenset[Rank]:
    """The rank of a player's lowest down card (aces high), wild in his hand alone."""
    ranks = [rank_of(card) for card in down if not is_joker(card)]
    return frozenset({min(ranks)}) if ranks else frozenset()


def board_card(board: Sequence[Card]) -> frozenset[Rank]:
    """The ranks of the cards on the board, wild for every player."""
    return frozenset(rank_of(card) for card in board if not is_joker(card))


def low_board_card(board: Sequence[Card]) -> frozenset[Rank]:
    """Rules 002_376df91f076a6501.txt, 'Lame-brain Pete': 'the lowest-ranking card on the
    board, and all cards of that same rank either on the board or in players' hole cards,
    play as wild cards' (aces high: 'unless a deuce appears on the board earlier')."""
    ranks = [rank_of(card) for card in board if not is_joker(card)]
    return frozenset({min(ranks)}) if ranks else frozenset()


def dealt_wild_ranks(
    rule: DealtWild, *, upcards: Sequence[Card], down: Sequence[Card], board: Sequence[Card]
) -> frozenset[Rank]:
    """The ranks ``rule`` makes wild for a player holding ``down`` face down, with every
    card dealt face up at the table in ``upcards`` (in the order dealt) and ``board``."""
    if rule is DealtWild.FOLLOW_THE_QUEEN:
        return follow_the_queen(upcards)
    if rule is DealtWild.LOW_HOLE_CARD:
        return low_hole_card(down)
    if rule is DealtWild.LOW_BOARD_CARD:
        return low_board_card(board)
    return board_card(board)
