"""The reference engine: table state, betting, pots and payouts."""

from simulations.engine.compiled import check_fresh

check_fresh()  # before any compiled module is imported: a stale build would run old code
