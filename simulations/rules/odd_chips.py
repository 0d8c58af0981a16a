"""Odd chips: what each tied winner of a pot receives, one compiled source for the reference
engine (:func:`simulations.engine.pots.split`) and the replay kernel alike.

Winners are ranked clockwise from the button: rank 0 is the first winner left of it.  Under
the rule texts' reading every chip that does not divide evenly goes to that first winner
(Rules 000_1a86611de8d3f5f7.txt, 'with any extra chips going to the person closest to the
button in clockwise order'); the named option hands them out one chip a winner, clockwise
from the button.
"""

from __future__ import annotations

import numba as nb

ALL_TO_FIRST = 0  # the texts: all odd chips to the first winner left of the button
ONE_EACH = 1  # one odd chip to each winner in turn, clockwise from the button


@nb.njit(cache=True)
def winner_chips(amount: int, winners: int, rank: int, rule: int) -> int:
    """The chips of the winner at clockwise ``rank`` among ``winners`` sharing ``amount``."""
    share = amount // winners
    odd = amount - share * winners
    if rule == ONE_EACH:
        return share + (1 if rank < odd else 0)
    return share + (odd if rank == 0 else 0)
