"""Exact histograms for tallies (simulations/models/tally.py) and the generic tally codec
(workers/job.py): merges are exact in any grouping and order, quantiles agree with numpy on
the expanded data, and any tally of the supported field types survives the codec and JSON."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulations.models.bad_beat import BadBeatTally
from simulations.models.tally import Counts, merge_each
from tests.dice_kind import DiceModel, DiceTally
from workers.job import Job, TallyCodecError, tally_from_dict, tally_to_dict
from workers.runner import InlineRunner, merge_in_order

values = st.lists(st.integers(-(2**40), 2**40) | st.integers(-3, 3), max_size=60)
quantile_levels = st.floats(0.0, 1.0, allow_nan=False) | st.sampled_from([0.0, 0.1, 0.5, 0.9, 1.0])


@given(values, values, values)
def test_merge_is_exact_associative_and_commutative(
    a: list[int], b: list[int], c: list[int]
) -> None:
    ca, cb, cc = Counts.of(a), Counts.of(b), Counts.of(c)
    assert ca.merge(cb) == cb.merge(ca) == Counts.of(a + b)
    assert ca.merge(cb).merge(cc) == ca.merge(cb.merge(cc)) == Counts.of(a + b + c)
    assert ca.merge(Counts()) == ca == Counts().merge(ca)
    assert ca.merge(cb).total == len(a) + len(b)


@given(values, st.integers(-5, 5), st.integers(0, 4))
def test_add_is_a_merge_of_one_value(a: list[int], value: int, count: int) -> None:
    assert Counts.of(a).add(value, count) == Counts.of(a + [value] * count)
    assert Counts.of(a).add(value, count).count(value) == a.count(value) + count


@given(values.filter(bool), quantile_levels)
def test_quantiles_equal_numpy_on_the_expanded_data(a: list[int], q: float) -> None:
    counts = Counts.of(a)
    expanded = np.array(a, dtype=np.int64)
    assert np.array_equal(counts.expand(), np.sort(expanded))
    assert counts.quantile(q) == int(np.quantile(expanded, q, method="inverted_cdf"))
    assert counts.mean() == float(Fraction(sum(a), len(a)))  # the exact mean, rounded once
    assert counts.mean() == pytest.approx(float(np.mean(expanded)), rel=1e-12, abs=1e-12)
    assert (counts.minimum, counts.maximum, counts.sum()) == (min(a), max(a), sum(a))


def test_quantiles_on_a_large_histogram_without_expanding_it() -> None:
    """Counts of 10¹² trials answer quantiles exactly, from the pairs alone."""
    counts = Counts(((0, 4 * 10**11), (1, 5 * 10**11), (7, 10**11)))
    assert counts.total == 10**12
    assert counts.quantiles((0.0, 0.4, 0.40001, 0.9, 0.90001, 1.0)) == (0, 0, 1, 1, 7, 7)
    assert counts.mean() == 1.2


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=1, max_size=400), st.randoms(use_true_random=False))
def test_shard_merges_in_any_order_give_the_histogram_of_all(
    data: list[int], shuffler: random.Random
) -> None:
    shards = [Counts.of(data[i : i + 7]) for i in range(0, len(data), 7)]
    shuffler.shuffle(shards)
    total = Counts()
    for shard in shards:
        total = total.merge(shard)
    assert total == Counts.of(data) == Counts.of_array(np.array(data))


def test_counts_refuse_what_is_not_a_histogram() -> None:
    for pairs, problem in (
        (((2, 1), (1, 1)), "must increase"),
        (((1, 1), (1, 2)), "must increase"),
        (((1, 0),), "must be positive"),
        (((1, -2),), "must be positive"),
        (((1.5, 2),), "hold integers"),
        (((True, 2),), "hold integers"),
        (((1, 2, 3),), "(value, count)"),
    ):
        with pytest.raises(ValueError, match=re.escape(problem)):
            Counts(pairs)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="undefined"):
        Counts().quantile(0.5)
    with pytest.raises(ValueError, match=r"0\.\.1"):
        Counts.of([1]).quantile(1.5)
    with pytest.raises(ValueError, match="integers"):
        Counts.of_array(np.array([0.5, 1.0]))


def test_counts_as_list_and_merge_each() -> None:
    counts = Counts.from_mapping({3: 2, -1: 1, 8: 0})
    assert counts.as_list() == [{"value": -1, "count": 1}, {"value": 3, "count": 2}]
    assert len(counts) == 2 and counts.count(8) == 0 and not Counts()
    merged = merge_each((Counts.of([1]),), (Counts.of([1]), Counts.of([2])))
    assert merged == (Counts(((1, 2),)), Counts(((2, 1),)))


# -- the codec ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Inner:
    label: str = ""
    pair: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class EveryFieldTally:
    """One field of each type the codec supports."""

    trials: int = 0
    share: float = 0.0
    seen: bool = False
    per_seat: tuple[int, ...] = ()
    counts: Counts = field(default_factory=Counts)
    per_round: tuple[Counts, ...] = ()
    inner: Inner = field(default_factory=Inner)
    inners: tuple[Inner, ...] = ()
    best: int | None = None
    added_later: int = 0  # absent from older stored data: takes its default


counts_st = st.lists(st.integers(-(2**62), 2**62), max_size=12).map(Counts.of)
inner_st = st.builds(
    Inner, st.text(max_size=5), st.tuples(st.integers(-(2**63), 2**63), st.integers())
)
tally_st = st.builds(
    EveryFieldTally,
    st.integers(0, 2**63),
    st.floats(allow_nan=False),
    st.booleans(),
    st.lists(st.integers(), max_size=4).map(tuple),
    counts_st,
    st.lists(counts_st, max_size=3).map(tuple),
    inner_st,
    st.lists(inner_st, max_size=3).map(tuple),
    st.none() | st.integers(),
)


@given(tally_st)
def test_any_tally_round_trips_through_the_codec_and_json(tally: EveryFieldTally) -> None:
    stored = json.dumps(tally_to_dict(tally))
    assert tally_from_dict(EveryFieldTally, json.loads(stored)) == tally


def test_the_codec_writes_plain_json_shapes() -> None:
    tally = EveryFieldTally(
        trials=np.int64(5),  # type: ignore[arg-type]  # a kernel's numpy integer
        counts=Counts.of([2, 2, 9]),
        per_round=(Counts.of([1]),),
        inner=Inner("x", (1, 2)),
    )
    data = tally_to_dict(tally)
    assert data["trials"] == 5 and type(data["trials"]) is int
    assert data["counts"] == {"pairs": [[2, 2], [9, 1]]}
    assert data["per_round"] == [{"pairs": [[1, 1]]}]
    assert data["inner"] == {"label": "x", "pair": [1, 2]} and data["best"] is None
    # A bad-beat tally stored before it counted qualifying hands and waits still reads, the
    # new counts at zero.
    stored = tally_to_dict(BadBeatTally(10, 2))
    assert stored["hands"] == 10 and stored["jackpot_hands"] == 2
    assert tally_from_dict(BadBeatTally, {"hands": 10, "jackpot_hands": 2}) == BadBeatTally(10, 2)
    older = {k: v for k, v in data.items() if k != "added_later"}
    assert tally_from_dict(EveryFieldTally, older).added_later == 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"trials": "5"}, r"EveryFieldTally\.trials: must be int, got str"),
        ({"trials": True}, r"EveryFieldTally\.trials: must be int, got bool"),
        ({"share": "x"}, r"EveryFieldTally\.share: must be float"),
        ({"extra": 1}, r"EveryFieldTally\.extra: is not a field of EveryFieldTally"),
        ({"counts": {"pairs": [[3, 1], [2, 1]]}}, r"EveryFieldTally\.counts: .*must increase"),
        ({"counts": {"pairs": [[3, "1"]]}}, r"EveryFieldTally\.counts\.pairs\[0\]\[1\]: must be"),
        ({"per_round": [{"pairs": 5}]}, r"EveryFieldTally\.per_round\[0\]\.pairs: must be a list"),
        ({"inner": {"pair": [1, 2, 3]}}, r"EveryFieldTally\.inner\.pair: must hold 2 items"),
        ({"inner": []}, r"EveryFieldTally\.inner: must be an object"),
    ],
)
def test_stored_data_that_is_not_the_tally_names_the_field(
    change: dict[str, object], message: str
) -> None:
    data = {**tally_to_dict(EveryFieldTally()), **change}
    with pytest.raises(TallyCodecError, match=message):
        tally_from_dict(EveryFieldTally, data)


def test_a_missing_field_without_a_default_is_named() -> None:
    @dataclass(frozen=True)
    class Strict:
        hands: int

    with pytest.raises(TallyCodecError, match=r"Strict\.hands: is missing"):
        tally_from_dict(Strict, {})


def test_a_field_type_the_codec_cannot_store_is_named() -> None:
    @dataclass(frozen=True)
    class Unsupported:
        table: dict[str, int]

    with pytest.raises(TallyCodecError, match=r"Unsupported\.table: a tally field cannot be"):
        tally_to_dict(Unsupported({"a": 1}))


def test_a_histogram_tally_from_shards_in_any_order_equals_the_whole_and_survives_storage() -> None:
    """The dice kind's tally (Counts and a tuple of Counts) merged from shards in shuffled
    order equals the in-order run, and each shard round-trips through JSON."""
    job = Job(DiceModel(dice=3, rolls=12, target=10), 3_000, seed=9, shard_size=250)
    shards = [(i, job.run_shard(i)) for i in range(job.plan.count)]
    for _, tally in shards:
        assert job.tally_from_dict(json.loads(json.dumps(job.tally_to_dict(tally)))) == tally
    expected = InlineRunner().run(job)
    random.Random(4).shuffle(shards)
    merged = merge_in_order(job, shards, None)
    assert merged == expected and isinstance(merged, DiceTally)
    assert merged.hits.total == 3_000 and len(merged.faces) == 3
    assert all(face.total == 3_000 * 12 for face in merged.faces)
    assert job.report(merged) == job.report(expected)
