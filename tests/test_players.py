"""Player models: read from a job's ``[[players]]`` with errors naming the field, seated kind
by kind, and the defaults calibrated to the published share of flops that reach a showdown."""

from __future__ import annotations

import numpy as np
import pytest

from simulations.evaluators.floors import hand_floor
from simulations.models.players import (
    NEVER,
    TYPICAL,
    SeatModel,
    bet_size,
    continues,
    read_seat_models,
    seating,
)
from simulations.models.table import Table
from simulations.models.table_tally import simulate_table
from simulations.spec import Fields, SpecError


def _read(entries: list[dict[str, object]], players: int = 9) -> tuple[SeatModel, ...]:
    return read_seat_models(Fields({"players": entries}), players, TYPICAL)


def test_kinds_fill_the_seats() -> None:
    kinds = _read([{"name": "regular", "seats": 6, "vpip": 0.18}, {"name": "fish", "vpip": 0.4}])
    assert [(m.name, m.seats) for m in kinds] == [("regular", 6), ("fish", 3)]
    seats = seating(kinds, 9, 2)
    assert seats.kind.tolist() == [0] * 6 + [1] * 3
    assert seats.open_to.tolist() == [6] * 9  # three big blinds of 2
    assert _read([]) == (TYPICAL,)


def test_a_hand_of_his_own_sets_every_street() -> None:
    """Unset keys take the calibrated defaults; an entry that sets ``hand`` has its streets
    follow it unless it sets them too."""
    (own,) = _read([{"hand": "pair"}])
    assert own.street_hands == ("pair", "pair", "pair")
    (mixed,) = _read([{"hand": "pair", "river": "flush"}])
    assert mixed.street_hands == ("pair", "pair", "flush")
    (default,) = _read([{}])
    assert default.street_hands == TYPICAL.street_hands == ("TT", "TT", "two pair")
    assert default.floors == (hand_floor("TT"), hand_floor("TT"), hand_floor("two pair"))


@pytest.mark.parametrize(
    ("entries", "field", "words"),
    [
        ([{"seats": 6}, {"seats": 6}], "players", "add up to 12"),
        ([{"seats": 3}, {}, {}], "players[2].seats", "only one kind"),
        ([{"vpip": 1.5}], "players[0].vpip", "0..1"),
        ([{"hand": "AAAAA"}], "players[0].hand", "not a poker hand"),
        ([{"river": "pear"}], "players[0].river", "'any', 'none'"),
        ([{"bet": 0}], "players[0].bet", "above 0"),
        ([{"open": 1}], "players[0].open", "big blinds"),
        ([{"name": "a"}, {"name": "a"}], "players[1].name", "given twice"),
        ([{"colour": "red"}], "players[0].colour", "not a known setting"),
    ],
)
def test_bad_settings_name_the_field(
    entries: list[dict[str, object]], field: str, words: str
) -> None:
    with pytest.raises(SpecError) as refused:
        _read(entries)
    assert refused.value.field == field and words in str(refused.value)


def test_the_decisions() -> None:
    """A seat continues with its street's made hand or better, or else with its chance; a bet
    is its share of the pot in whole chips, at least the big blind."""
    pair = hand_floor("pair")
    assert continues(pair, pair, 0.99, 0.0) and not continues(pair - 1, pair, 0.99, 0.5)
    assert continues(0, NEVER, 0.49, 0.5) and not continues(10**9, NEVER, 0.5, 0.5)
    assert bet_size(30, 0.66, 2) == 19 and bet_size(2, 0.5, 2) == 2


def test_the_defaults_reach_the_published_showdown_share() -> None:
    """888poker, 'Showdown': 'a good No Limit Hold'em cash game player will be reaching
    showdown around 25 % of the time after seeing a flop'; the defaults' VPIP is 25 %."""
    table = Table("NT", 9, (1, 2), (TYPICAL,), (), None)
    tally = simulate_table(table, 60_000, np.random.default_rng(5))
    (kind,) = tally.kinds
    assert abs(kind.played / kind.seat_hands - 0.25) < 0.005
    assert 0.22 < kind.showdowns / kind.saw_flop < 0.31
