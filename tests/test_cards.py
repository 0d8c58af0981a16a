"""Cards: the integer encoding, parsing and formatting (simulations/cards.py)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulations.cards import (
    FIRST_JOKER,
    MAX_JOKERS,
    RANK_SYMBOLS,
    STANDARD_CARD_COUNT,
    SUIT_SYMBOLS,
    Rank,
    Suit,
    ensure_distinct,
    format_card,
    format_cards,
    is_joker,
    joker,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)

ALL_CODES = range(STANDARD_CARD_COUNT)
UNICODE_SUITS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}


def code(rank_symbol: str, suit_symbol: str) -> int:
    """The card code computed from the documented encoding ``rank * 4 + suit``."""
    return RANK_SYMBOLS.index(rank_symbol) * 4 + SUIT_SYMBOLS.index(suit_symbol)


# --- the encoding -------------------------------------------------------------------------------


def test_encoding_is_rank_times_four_plus_suit() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2d") == 1
    assert parse_card("3c") == 4
    assert parse_card("Ah") == 50
    assert parse_card("As") == 51
    assert FIRST_JOKER == STANDARD_CARD_COUNT == 52


@pytest.mark.parametrize("card", ALL_CODES)
def test_all_52_cards_round_trip(card: int) -> None:
    text = format_card(card)
    assert len(text) == 2
    assert text == RANK_SYMBOLS[card // 4] + SUIT_SYMBOLS[card % 4]
    assert parse_card(text) == card
    assert parse_cards(text) == (card,)
    assert make_card(rank_of(card), suit_of(card)) == card


def test_formats_cover_the_deck_exactly_once() -> None:
    texts = [format_card(c) for c in ALL_CODES]
    assert sorted(texts) == sorted(r + s for r in RANK_SYMBOLS for s in SUIT_SYMBOLS)


def test_format_cards_joins_with_spaces() -> None:
    assert format_cards([51, 42, 0]) == "As Qh 2c"
    assert format_cards([]) == ""


def test_whole_deck_text_round_trips() -> None:
    text = format_cards(ALL_CODES)
    assert parse_cards(text) == tuple(ALL_CODES)
    assert parse_cards(text.replace(" ", "")) == tuple(ALL_CODES)


# --- spellings ----------------------------------------------------------------------------------


@pytest.mark.parametrize("suit", SUIT_SYMBOLS)
def test_ten_written_as_10(suit: str) -> None:
    assert parse_card(f"10{suit}") == parse_card(f"T{suit}") == code("T", suit)


def test_ten_written_as_10_in_texts_and_runs() -> None:
    assert parse_cards("10d 10s") == (code("T", "d"), code("T", "s"))
    assert parse_cards("As10dKc") == (code("A", "s"), code("T", "d"), code("K", "c"))


@pytest.mark.parametrize("rank", "tjqka")
def test_lower_case_ranks(rank: str) -> None:
    for suit in SUIT_SYMBOLS:
        assert parse_card(rank + suit) == code(rank.upper(), suit)


def test_lower_case_ranks_in_runs() -> None:
    assert parse_cards("askd") == (code("A", "s"), code("K", "d"))


@pytest.mark.parametrize(("symbol", "letter"), UNICODE_SUITS.items())
def test_unicode_suits(symbol: str, letter: str) -> None:
    assert parse_card("A" + symbol) == code("A", letter)
    assert parse_card("10" + symbol) == code("T", letter)


def test_unicode_suits_in_texts() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Sample hand': boards are written like '9♣ K♣ 3♥'."""
    assert parse_cards("9♣ K♣ 3♥ 5♠ 9♦") == parse_cards("9c Kc 3h 5s 9d")
    assert parse_cards("Q♠9♥") == (code("Q", "s"), code("9", "h"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AsKd", ("As", "Kd")),
        ("AsKdQhJcTs", ("As", "Kd", "Qh", "Jc", "Ts")),
        ("As,Kd", ("As", "Kd")),
        ("As, Kd  Qh", ("As", "Kd", "Qh")),
        ("  As\tKd\n", ("As", "Kd")),
        ("2c3c 4c5c", ("2c", "3c", "4c", "5c")),
    ],
)
def test_separators_and_runs_without_spaces(text: str, expected: tuple[str, ...]) -> None:
    assert parse_cards(text) == tuple(parse_card(t) for t in expected)


def test_sequence_of_tokens() -> None:
    assert parse_cards(["As", "10d", "k♥"]) == (code("A", "s"), code("T", "d"), code("K", "h"))


# --- jokers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["Jk", "JK", "jk", "Joker", "joker", "JOKER"])
def test_joker_tokens(token: str) -> None:
    assert parse_card(token) == FIRST_JOKER
    assert parse_cards(token) == (FIRST_JOKER,)
    assert is_joker(parse_card(token))


def test_several_jokers_are_numbered_in_order() -> None:
    assert parse_cards("Jk As Joker") == (52, code("A", "s"), 53)
    assert parse_cards("Jk Jk Jk Jk") == (52, 53, 54, 55)
    assert parse_cards("AsJkKdJoker") == (code("A", "s"), 52, code("K", "d"), 53)
    assert parse_cards(["Jk", "Jk"]) == (52, 53)


def test_too_many_jokers() -> None:
    with pytest.raises(ValueError, match="too many jokers"):
        parse_cards(" ".join(["Jk"] * (MAX_JOKERS + 1)))


def test_joker_codes_and_format() -> None:
    assert [joker(i) for i in range(MAX_JOKERS)] == [52, 53, 54, 55]
    assert all(format_card(joker(i)) == "Jk" for i in range(MAX_JOKERS))
    assert not any(is_joker(c) for c in ALL_CODES)
    for bad in (-1, MAX_JOKERS):
        with pytest.raises(ValueError, match="joker index"):
            joker(bad)
    with pytest.raises(ValueError, match="joker"):
        rank_of(joker(0))
    with pytest.raises(ValueError, match="joker"):
        suit_of(joker(1))


def test_jokers_round_trip_through_text() -> None:
    cards = (code("A", "s"), joker(0), code("2", "c"), joker(1))
    assert parse_cards(format_cards(cards)) == cards


# --- bad tokens ---------------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["1x", "Zs", "A", "", "AsK", "Ax", "11s", "Kz", "Jk2"])
def test_bad_single_token_names_itself(token: str) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(token))):
        parse_card(token)


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("1x", "1x"),
        ("Zs", "Zs"),
        ("A", "A"),
        ("As Zs Kd", "Zs"),
        ("As 1x", "1x"),
        ("AsK", "K"),
        ("AsKdQ", "Q"),
        ("As Kd 9", "9"),
    ],
)
def test_bad_token_in_text_is_named(text: str, bad: str) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(bad)) + r"( in '\w+')? is not a card"):
        parse_cards(text)


def test_blanks_around_a_token_are_stripped() -> None:
    assert parse_card(" As\t") == code("A", "s")


def test_empty_token_in_sequence() -> None:
    with pytest.raises(ValueError, match=re.escape("''")):
        parse_cards(["As", ""])


# --- duplicates ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "card"),
    [("As As", "As"), ("Kd Qh 10d Td", "Td"), ("AsKdAs", "As"), ("A♠ As", "As"), ("ks Ks", "Ks")],
)
def test_duplicate_cards_are_named(text: str, card: str) -> None:
    with pytest.raises(ValueError, match=f"duplicate card {card}"):
        parse_cards(text)


def test_duplicates_allowed_on_request() -> None:
    assert parse_cards("As As", allow_duplicates=True) == (51, 51)


def test_ensure_distinct() -> None:
    ensure_distinct([0, 1, 2, 51, 52, 53])
    with pytest.raises(ValueError, match="duplicate card 3c"):
        ensure_distinct([4, 0, 4])


# --- make_card, rank_of, suit_of ----------------------------------------------------------------


def test_make_card_rank_of_suit_of() -> None:
    assert make_card(Rank.ACE, Suit.SPADES) == 51
    assert make_card(Rank.TWO, Suit.CLUBS) == 0
    assert make_card(Rank.TEN, Suit.DIAMONDS) == parse_card("Td")
    assert make_card(9, 2) == parse_card("Jh")
    assert rank_of(parse_card("Qh")) is Rank.QUEEN
    assert suit_of(parse_card("Qh")) is Suit.HEARTS
    for rank in Rank:
        for suit in Suit:
            card = make_card(rank, suit)
            assert (rank_of(card), suit_of(card)) == (rank, suit)
            assert format_card(card) == rank.symbol + suit.symbol


@pytest.mark.parametrize(("rank", "suit"), [(13, 0), (-1, 0), (0, 4), (0, -1)])
def test_make_card_rejects_out_of_range(rank: int, suit: int) -> None:
    with pytest.raises(ValueError, match="rank" if not 0 <= rank < 13 else "suit"):
        make_card(rank, suit)


@pytest.mark.parametrize("bad", [-1, 56, 100])
def test_format_card_rejects_non_codes(bad: int) -> None:
    with pytest.raises(ValueError, match=str(bad)):
        format_card(bad)


def test_rank_names() -> None:
    assert Rank.ACE.noun == "Ace" and Rank.ACE.plural == "Aces"
    assert Rank.SIX.plural == "Sixes"
    assert Rank.TWO.noun == "Deuce"
    assert [r.symbol for r in Rank] == list("23456789TJQKA")


def test_suit_order_clubs_diamonds_hearts_spades() -> None:
    """Rules 003_6e018542f14946f8.txt, 'required to start the betting': 4♦ is lower than 4♠ by suit.

    The codes follow the same order: clubs < diamonds < hearts < spades.
    """
    assert Suit.CLUBS < Suit.DIAMONDS < Suit.HEARTS < Suit.SPADES
    assert parse_card("4♦") < parse_card("4♠")
    assert [s.symbol for s in sorted(Suit)] == ["c", "d", "h", "s"]
    assert parse_card("2c") < parse_card("2d") < parse_card("2h") < parse_card("2s")


# --- properties ---------------------------------------------------------------------------------


@given(st.lists(st.integers(0, STANDARD_CARD_COUNT - 1), unique=True, max_size=20))
def test_format_then_parse_round_trips(cards: list[int]) -> None:
    text = format_cards(cards)
    assert parse_cards(text) == tuple(cards)
    assert parse_cards(text.replace(" ", "")) == tuple(cards)
    assert parse_cards(text.split()) == tuple(cards)


@given(st.lists(st.integers(0, STANDARD_CARD_COUNT - 1), unique=True, max_size=10))
def test_unicode_and_ten_spellings_round_trip(cards: list[int]) -> None:
    letters = {v: k for k, v in UNICODE_SUITS.items()}
    tokens = [format_card(c) for c in cards]
    fancy = [(("10" + t[1]) if t[0] == "T" else t[0].lower() + t[1]) for t in tokens]
    fancy = [t[:-1] + letters[t[-1]] for t in fancy]
    assert parse_cards(" ".join(fancy)) == tuple(cards)
    assert parse_cards("".join(fancy)) == tuple(cards)
