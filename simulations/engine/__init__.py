"""The reference engine: table state, betting, pots and payouts."""
