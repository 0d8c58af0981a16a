"""Rules verification: scenarios and hand histories checked against the engine."""

from simulations.engine.compiled import check_fresh

check_fresh()  # before its compiled module (results): a stale build would run old code
