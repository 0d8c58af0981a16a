"""Shard planning, seeding, fan-out over Ray, and merging of partial results."""
