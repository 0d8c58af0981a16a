"""Specification errors (simulations/spec.py): a value of any size is echoed short."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from simulations.cards import parse_card, parse_cards
from simulations.checked import ECHO_LIMIT, digit_count, echo, number
from simulations.decks import Deck
from simulations.evaluators.floors import hand_floor
from simulations.models.bad_beat import BadBeatModel
from simulations.spec import Fields, SpecError

LONG = "x" * 100_000


def test_echo_shows_short_values_whole() -> None:
    assert echo("holdem") == "'holdem'"
    assert echo("x" * ECHO_LIMIT) == repr("x" * ECHO_LIMIT)
    assert echo(12) == "12"
    assert echo(None) == "None"


def test_echo_shortens_long_strings_to_a_prefix_and_the_length() -> None:
    assert echo(LONG) == f"'{'x' * 40}…' (100,000 characters)"
    assert echo("ab" * 30, limit=4) == "'abab…' (60 characters)"


def test_echo_shortens_other_long_values() -> None:
    assert echo(b"a" * 100) == "b'" + "a" * 38 + "… (103 characters)"
    assert echo(list(range(1000))).endswith("… (4,890 characters)")
    # repr() of this integer raises (sys.get_int_max_str_digits); echo describes it instead.
    assert echo(10**5000) == "a 5,001-digit number"


def test_digit_count_and_number() -> None:
    for value in (0, 7, 9, 10, 99, 100, 10**30 - 1, 10**30, -(10**18)):
        assert digit_count(value) == len(str(abs(value)))
    assert digit_count(10**6000) == 6001 and digit_count(10**6000 - 1) == 6000
    assert number(1_000_000) == "1,000,000"
    assert number(-(10**5000)) == "a 5,001-digit number"


def test_choice_error_echoes_a_prefix() -> None:
    """game.variant = 'x' * 100,000 was quoted whole in the message."""
    with pytest.raises(SpecError) as caught:
        Fields({"variant": LONG}, "game").string("variant", choices=("holdem",))
    assert str(caught.value) == (
        f"game.variant: must be one of 'holdem'; got '{'x' * 40}…' (100,000 characters)"
    )


def test_range_error_on_a_huge_integer_names_its_length() -> None:
    with pytest.raises(SpecError) as caught:
        Fields({"hands": 10**5000}).integer("hands", high=10)
    assert str(caught.value) == "hands: must be at most 10, got a 5,001-digit number"


def test_unknown_long_key_is_shortened() -> None:
    fields = Fields({LONG: 1}, "game")
    with pytest.raises(SpecError) as caught:
        fields.finish()
    assert caught.value.field == f"game.'{'x' * 40}…' (100,000 characters)"


@pytest.mark.parametrize(
    "parse",
    [
        hand_floor,
        parse_card,
        parse_cards,
        lambda text: parse_cards("As " + text),
        lambda text: parse_cards("As" + text),
        lambda text: Deck.stripped([text]),
        lambda text: BadBeatModel(game=text),
    ],
)
def test_parse_errors_echo_a_prefix(parse: Callable[[str], object]) -> None:
    """Hand floors, cards, ranks and variants quoted a 100 kB text whole in their errors."""
    with pytest.raises(ValueError) as caught:
        parse(LONG)
    message = str(caught.value)
    assert "x" * 41 not in message and "(100,000 characters)" in message, message[:300]
    assert len(message) < 400


def test_hand_floor_with_many_ranks_echoes_a_prefix() -> None:
    with pytest.raises(ValueError) as caught:
        hand_floor("A" * 100_000)
    assert str(caught.value) == (
        f"'{'A' * 40}…' (100,000 characters) has 100,000 cards; a hand has at most five"
    )
