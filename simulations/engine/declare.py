"""High-low split with declaration: who wins a pot when the players have declared.

Rules 000_1a86611de8d3f5f7.txt, 'High/low with declare': 'If any player shows two chips, and
his hand is the best low and the best high, he scoops the pot. Otherwise, half of the pot goes
to the player with the highest hand who declared high, and the other half to the player with
the lowest hand of those who declared low. There is no qualifying hand to win either high or
low, and if no one declares in one direction, the full pot is awarded in the other ... A player
who declares for a scoop must win both ends outright, with no ties ... he wins nothing.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum

from simulations.engine.pots import Chips, OddChipRule, best_seats, split, split_high_low


class Declaration(StrEnum):
    """What a player declares he plays for: the high half, the low half, or both (a scoop)."""

    HIGH = "high"
    LOW = "low"
    BOTH = "both"

    @property
    def high(self) -> bool:
        return self is not Declaration.LOW

    @property
    def low(self) -> bool:
        return self is not Declaration.HIGH


def _scoops(
    seat: int,
    eligible: Sequence[int],
    values: Mapping[int, Sequence[int | None]],
    declared: Mapping[int, Declaration],
) -> bool:
    """Whether ``seat``, declaring both ways, beats outright every other player contesting
    each half: those who declared that way (a player who declared only low does not contest
    the high half)."""
    mine = values[seat]
    for other in eligible:
        if other == seat:
            continue
        theirs, says = values[other], declared[other]
        for half, contests in ((0, says.high), (1, says.low)):
            mine_half, theirs_half = mine[half], theirs[half]
            if not contests or theirs_half is None:
                continue
            if mine_half is None or theirs_half >= mine_half:
                return False
    return True


def split_declared(
    amount: int,
    eligible: Sequence[int],
    values: Mapping[int, Sequence[int | None]],
    declared: Mapping[int, Declaration],
    *,
    button: int,
    n_seats: int,
    rule: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON,
) -> dict[int, Chips]:
    """Award a pot of ``amount`` among the ``eligible`` seats by their declarations.

    ``values`` holds each seat's (high, low) values, larger better.  A player declaring both
    ways scoops if he wins both halves outright; one who does not wins nothing, and the pot
    goes to the others as if he had not been in it.  The high half goes to the best high hand
    among those who declared high, the low half to the best low among those who declared low
    (ties split, odd chips by ``rule``, the odd chip between the halves to the high); with no
    one declaring one way, the other takes the whole pot.  Should every player in the pot
    have declared both ways and failed, no declaration stands and the cards speak for both
    halves (the texts are silent; see docs/readings.md).
    """
    for seat in eligible:
        if declared[seat] is Declaration.BOTH and _scoops(seat, eligible, values, declared):
            return {seat: amount}
    left = [s for s in eligible if declared[s] is not Declaration.BOTH]
    if not left:
        high, low = best_seats(eligible, values, 0), best_seats(eligible, values, 1)
        return split_high_low(amount, high, low, button=button, n_seats=n_seats, rule=rule)
    high = best_seats([s for s in left if declared[s].high], values, 0)
    low = best_seats([s for s in left if declared[s].low], values, 1)
    if not high or not low:
        return split(amount, high or low, button=button, n_seats=n_seats, rule=rule)
    return split_high_low(amount, high, low, button=button, n_seats=n_seats, rule=rule)
