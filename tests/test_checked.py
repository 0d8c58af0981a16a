"""The strict reader of TOML tables (simulations/checked.py): every error form names the
field by its dotted path, and a subclass's error type reaches the tables within."""

from __future__ import annotations

import enum
import math
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulations.checked import CheckedTable, FieldError, echo, integer_value, shown_key


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class HouseError(FieldError):
    root = "house"


class House(CheckedTable):
    error = HouseError


def refused(read: Any, table: dict[str, Any], prefix: str = "room") -> FieldError:
    """The error of ``read`` (a getter call on the table), which must raise."""
    with pytest.raises(FieldError) as caught:
        read(CheckedTable(table, prefix))
    return caught.value


@pytest.mark.parametrize(
    ("table", "read", "field", "problem"),
    [
        ({}, lambda t: t.integer("seats"), "room.seats", "is required"),
        (
            {"seats": True},
            lambda t: t.integer("seats"),
            "room.seats",
            "must be an integer, not a boolean",
        ),
        (
            {"seats": 9.0},
            lambda t: t.integer("seats"),
            "room.seats",
            "must be an integer, not a number",
        ),
        (
            {"seats": "9"},
            lambda t: t.integer("seats"),
            "room.seats",
            "must be an integer, not a string",
        ),
        (
            {"seats": 1},
            lambda t: t.integer("seats", low=2),
            "room.seats",
            "must be at least 2, got 1",
        ),
        (
            {"seats": 10**6},
            lambda t: t.integer("seats", high=10),
            "room.seats",
            "must be at most 10, got 1,000,000",
        ),
        (
            {"seats": 10**5000},
            lambda t: t.optional_integer("seats", high=10),
            "room.seats",
            "must be at most 10, got a 5,001-digit number",
        ),
        (
            {"rake": False},
            lambda t: t.number("rake"),
            "room.rake",
            "must be a number, not a boolean",
        ),
        ({"rake": math.nan}, lambda t: t.number("rake"), "room.rake", "must be a number, not NaN"),
        (
            {"open": 1},
            lambda t: t.boolean("open"),
            "room.open",
            "must be true or false, not an integer",
        ),
        ({"name": 1}, lambda t: t.string("name"), "room.name", "must be a string, not an integer"),
        (
            {"game": "bridge"},
            lambda t: t.string("game", choices=("holdem", "stud")),
            "room.game",
            "must be one of 'holdem', 'stud'; got 'bridge'",
        ),
        (
            {"felt": "green"},
            lambda t: t.choice("felt", Colour),
            "room.felt",
            "must be one of 'red', 'blue'; got 'green'",
        ),
        ({"felt": 3}, lambda t: t.choice("felt", Colour), "room.felt", "got an integer"),
        (
            {"tips": 3},
            lambda t: t.optional_list("tips", integer_value),
            "room.tips",
            "must be a list, not an integer",
        ),
        (
            {"tips": [1, "2"]},
            lambda t: t.optional_list("tips", integer_value),
            "room.tips[1]",
            "must be an integer, not a string",
        ),
        ({"bar": [1]}, lambda t: t.table("bar"), "room.bar", "must be a table, not a list"),
        ({}, lambda t: t.table("bar", required=True), "room.bar", "is required"),
        (
            {"bar": "x"},
            lambda t: t.optional_table("bar"),
            "room.bar",
            "must be a table, not a string",
        ),
        (
            {"seat": {}},
            lambda t: t.tables("seat"),
            "room.seat",
            "must be a list of tables, not a table",
        ),
        (
            {"seat": [{}, 2]},
            lambda t: t.tables("seat"),
            "room.seat[1]",
            "must be a table, not an integer",
        ),
    ],
)
def test_each_error_names_its_field(
    table: dict[str, Any], read: Any, field: str, problem: str
) -> None:
    """Each getter refuses a value of the wrong type or range, or a missing one, with a
    one-line message whose field is the value's dotted path."""
    error = refused(read, table)
    assert error.field == field, error
    assert problem in error.problem, error
    assert str(error) == f"{error.field}: {error.problem}"
    assert "\n" not in str(error)


def test_defaults_and_optional_values() -> None:
    """An absent value takes its default (optional getters: None); a present one is read
    as written, the enum's member for its value."""
    table = CheckedTable({"seats": 9, "felt": "red", "tips": [1, 2], "open": False})
    assert table.integer("seats", low=2, high=10) == 9
    assert table.integer("tables", 3) == 3
    assert table.optional_integer("chairs") is None
    assert table.choice("felt", Colour) is Colour.RED
    assert table.optional_list("tips", integer_value) == [1, 2]
    assert table.optional_boolean("open") is False
    assert table.optional_string("name") is None
    assert table.optional_table("bar") is None
    assert table.tables("seat") == []
    table.finish()  # every key read


def test_an_unknown_key_is_refused_with_the_keys_read() -> None:
    """A key no getter asked for is a misspelling: refused, naming it and the keys read."""
    table = CheckedTable({"seats": 9, "seatz": 8}, "room")
    table.integer("seats")
    table.optional_string("name")
    with pytest.raises(FieldError) as caught:
        table.finish()
    assert caught.value.field == "room.seatz"
    assert caught.value.problem == "is not a known setting (known: name, seats)"
    assert caught.value.unknown_key
    nothing_read = CheckedTable({"x": 1})
    with pytest.raises(FieldError, match=r"^x: is not a known setting$"):
        nothing_read.finish()


def test_a_readers_error_type_reaches_the_tables_within() -> None:
    """A subclass's error type is raised by its nested tables too; a top level that is not
    a table is named by the error's root."""
    with pytest.raises(HouseError, match=r"^house: must be a table, not a list$"):
        House([])
    inner = House({"bar": {"stool": True}}).table("bar")
    assert isinstance(inner, House)
    with pytest.raises(HouseError, match=r"^bar\.stool: must be an integer, not a boolean$"):
        inner.integer("stool")


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=50),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


@given(key=st.text(max_size=60), value=_VALUES.filter(lambda v: not isinstance(v, dict)))
def test_any_non_table_is_refused_with_its_path(key: str, value: object) -> None:
    """Whatever the key and whatever value that is not a table, reading it as a table is
    refused naming its path, one line, however odd the key."""
    with pytest.raises(FieldError) as caught:
        CheckedTable({key: value}, "top").table(key)
    assert caught.value.field == f"top.{shown_key(key)}"
    assert caught.value.problem.startswith("must be a table, not ")
    assert "\n" not in str(caught.value)


@given(
    known=st.dictionaries(st.sampled_from(["a", "b", "c"]), st.integers(), max_size=3),
    unknown=st.text(max_size=60).filter(lambda k: k not in ("a", "b", "c")),
    value=_VALUES,
)
def test_any_unknown_key_is_refused_with_its_path(
    known: dict[str, int], unknown: str, value: object
) -> None:
    """Whatever the other keys, a key no getter read is refused at finish, naming its
    path (an odd key quoted and shortened, so the message stays one line)."""
    table = CheckedTable({**known, unknown: value}, "top")
    for key in known:
        table.integer(key)
    with pytest.raises(FieldError) as caught:
        table.finish()
    assert caught.value.field == f"top.{shown_key(unknown)}"
    assert caught.value.unknown_key
    assert "\n" not in str(caught.value)
    if re.fullmatch(r"[A-Za-z0-9_-]{1,40}", unknown):
        assert caught.value.field == f"top.{unknown}"  # a plain word as written
    else:
        assert echo(unknown) in caught.value.field
