"""The shipped high-hand tables are exactly what the hand rules build."""

from __future__ import annotations

import numpy as np

from simulations.evaluators.high import TABLES
from simulations.evaluators.high_tables import (
    TABLE_FIELDS,
    TABLE_FILE,
    build_high_tables,
    load_high_tables,
)


def test_shipped_tables_equal_a_fresh_build() -> None:
    """Regenerate with `python -m simulations.evaluators.high_tables` after changing a rule."""
    assert TABLE_FILE.exists()
    built = build_high_tables()
    shipped = load_high_tables()
    for name in TABLE_FIELDS:
        ours, theirs = getattr(built, name), getattr(shipped, name)
        assert ours.dtype == theirs.dtype, name
        assert np.array_equal(ours, theirs), name


def test_tables_are_read_only() -> None:
    for name in TABLE_FIELDS:
        assert not getattr(TABLES, name).flags.writeable, name
