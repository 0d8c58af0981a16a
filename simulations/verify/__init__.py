"""Rules verification: scenarios and hand histories checked against the engine."""
