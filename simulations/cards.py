"""Cards, their integer encoding, and parsing.

A card is a small integer so that kernels can work on plain ``int8`` arrays:
``rank * 4 + suit`` for the 52 standard cards (rank 0 is the deuce, 12 the ace;
suits in the order clubs, diamonds, hearts, spades), and ``52 + k`` for the k-th
joker.  The suit order is the one the rule texts use to break bring-in ties
(clubs lowest, spades highest); it plays no part in ranking hands.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import NewType

from simulations.spec import echo

Card = NewType("Card", int)

RANK_COUNT = 13
SUIT_COUNT = 4
STANDARD_CARD_COUNT = RANK_COUNT * SUIT_COUNT
FIRST_JOKER = STANDARD_CARD_COUNT
MAX_JOKERS = 4


class Rank(IntEnum):
    """Card ranks, deuce lowest; the ace is high here, and low where a ranking system says so."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def symbol(self) -> str:
        return RANK_SYMBOLS[self]

    @property
    def noun(self) -> str:
        """The rank's name as a card ('Ace', 'Ten', 'Six')."""
        return _RANK_NOUNS[self]

    @property
    def plural(self) -> str:
        """The rank's name for several cards ('Aces', 'Sixes')."""
        return _RANK_PLURALS[self]


class Suit(IntEnum):
    """Suits in bring-in order: clubs lowest, then diamonds, hearts, spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


RANK_SYMBOLS = "23456789TJQKA"
SUIT_SYMBOLS = "cdhs"
_RANK_NOUNS = (
    "Deuce",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
_RANK_PLURALS = (
    "Deuces",
    "Threes",
    "Fours",
    "Fives",
    "Sixes",
    "Sevens",
    "Eights",
    "Nines",
    "Tens",
    "Jacks",
    "Queens",
    "Kings",
    "Aces",
)

# Accepted spellings of a rank: the usual letters and "10" for the ten; lower-case
# letters are accepted for convenience.
_RANK_BY_TOKEN = {s: Rank(i) for i, s in enumerate(RANK_SYMBOLS)}
_RANK_BY_TOKEN.update({s.lower(): Rank(i) for i, s in enumerate(RANK_SYMBOLS)})
_RANK_BY_TOKEN["10"] = Rank.TEN
_SUIT_BY_TOKEN = {s: Suit(i) for i, s in enumerate(SUIT_SYMBOLS)}
_SUIT_BY_TOKEN.update({"♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES})
_JOKER_TOKENS = ("Jk", "JK", "jk", "Joker", "joker", "JOKER", "X", "x", "?")
# A card token is a rank spelling followed by a suit letter, or a joker word.
_TOKEN_SPLIT = re.compile(r"[\s,]+")
_CARD_RUN = re.compile(r"(10|[2-9TJQKAtjqka])([cdhs♣♦♥♠])|(Joker|joker|JOKER|Jk|JK|jk)")


def make_card(rank: Rank | int, suit: Suit | int) -> Card:
    """The card of this rank and suit."""
    if not 0 <= int(rank) < RANK_COUNT:
        raise ValueError(f"rank {rank!r} is not a card rank (0..12)")
    if not 0 <= int(suit) < SUIT_COUNT:
        raise ValueError(f"suit {suit!r} is not a card suit (0..3)")
    return Card(int(rank) * SUIT_COUNT + int(suit))


def joker(index: int = 0) -> Card:
    """The ``index``-th joker (decks carry at most four)."""
    if not 0 <= index < MAX_JOKERS:
        raise ValueError(f"joker index {index} is out of range 0..{MAX_JOKERS - 1}")
    return Card(FIRST_JOKER + index)


def is_joker(card: int) -> bool:
    return card >= FIRST_JOKER


def is_joker_code(code: int) -> bool:
    """Whether ``code`` is one of the joker codes (for messages about bad input)."""
    return FIRST_JOKER <= code < FIRST_JOKER + MAX_JOKERS


def rank_of(card: int) -> Rank:
    """The rank of a standard card; jokers have none."""
    if card >= FIRST_JOKER:
        raise ValueError("a joker has no rank of its own")
    return Rank(card >> 2)


def suit_of(card: int) -> Suit:
    """The suit of a standard card; jokers have none."""
    if card >= FIRST_JOKER:
        raise ValueError("a joker has no suit of its own")
    return Suit(card & 3)


def _check_card(card: int) -> None:
    if not 0 <= card < FIRST_JOKER + MAX_JOKERS:
        raise ValueError(f"{card!r} is not a card code (0..{FIRST_JOKER + MAX_JOKERS - 1})")


def format_card(card: int) -> str:
    """The card as text: 'As', 'Td', or 'Jk' for a joker."""
    _check_card(card)
    if card >= FIRST_JOKER:
        return "Jk"
    return RANK_SYMBOLS[card >> 2] + SUIT_SYMBOLS[card & 3]


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(format_card(c) for c in cards)


def parse_card(token: str) -> Card:
    """Parse one card token: 'As', 'td', '10d', 'A♠', or a joker ('Jk', 'Joker', 'X', '?').

    Raises ``ValueError`` naming the token when it is not a card.
    """
    text = token.strip()
    if text in _JOKER_TOKENS:
        return Card(FIRST_JOKER)
    if len(text) >= 2:
        rank = _RANK_BY_TOKEN.get(text[:-1])
        suit = _SUIT_BY_TOKEN.get(text[-1])
        if rank is not None and suit is not None:
            return make_card(rank, suit)
    raise ValueError(
        f"{echo(token)} is not a card (expected rank 2-9/T/10/J/Q/K/A and suit c/d/h/s)"
    )


def parse_cards(text: str | Sequence[str], *, allow_duplicates: bool = False) -> tuple[Card, ...]:
    """Parse several cards: 'As Kd', 'As,Kd', 'AsKd10c', or a sequence of tokens.

    Several jokers are numbered in order of appearance (the first 'Jk' is joker 0, the
    next joker 1), so a hand may hold more than one.  Duplicated standard cards are an
    error unless ``allow_duplicates`` is set; the message names the repeated card.
    """
    tokens = _split_tokens(text) if isinstance(text, str) else [str(t) for t in text]
    cards: list[Card] = []
    jokers = 0
    for token in tokens:
        card = parse_card(token)
        if card >= FIRST_JOKER:
            if jokers >= MAX_JOKERS:
                raise ValueError(f"too many jokers in {echo(text)}: at most {MAX_JOKERS}")
            card = joker(jokers)
            jokers += 1
        cards.append(card)
    if not allow_duplicates:
        ensure_distinct(cards)
    return tuple(cards)


def _split_tokens(text: str) -> list[str]:
    tokens: list[str] = []
    for chunk in _TOKEN_SPLIT.split(text.strip()):
        if not chunk:
            continue
        if chunk in _JOKER_TOKENS:
            tokens.append(chunk)
            continue
        # Split runs written without spaces ('AsKd'); any leftover text is a bad token.
        pos = 0
        while pos < len(chunk):
            match = _CARD_RUN.match(chunk, pos)
            if match is None:
                where = f" in {echo(chunk)}" if pos else ""
                raise ValueError(
                    f"{echo(chunk[pos:])}{where} is not a card "
                    "(expected rank 2-9/T/10/J/Q/K/A and suit c/d/h/s)"
                )
            tokens.append(match.group(0))
            pos = match.end()
    return tokens


def ensure_distinct(cards: Iterable[int]) -> None:
    """Raise ``ValueError`` naming the first card that appears twice."""
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise ValueError(f"duplicate card {format_card(card)}")
        seen.add(card)
