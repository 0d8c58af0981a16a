"""Guts pot arithmetic, one compiled source for the session (:mod:`simulations.engine.guts`)
and the simulation kernel (:mod:`simulations.models.guts_kernel`) alike.

Rules 000_1a86611de8d3f5f7.txt, 'Guts': the losers "must match the pot to form the next
pot"; "only the single player with the worst hand (who stayed in) must add to the pot, but
they must double the pot rather than match it"; "nobody wins the pot unless nobody else
stays in"; and the cap, "the pot would now be at $50 and the extra $30 would be set aside as
the ante".  The rules are passed as small integers so that compiled code can take them.
"""

from __future__ import annotations

import numba as nb

# The pot rules (GutsGame.pot_rule), as the compiled functions take them.
MATCH = 0
WORST_HAND_DOUBLES = 1
VICIOUS = 2
NO_CAP = -1


@nb.njit(cache=True)
def over_cap(pot: int, amount: int, cap: int) -> int:
    """How much of ``amount`` paid into ``pot`` is set aside over ``cap`` (``NO_CAP``: none):
    'the pot would now be at $50 and the extra $30 would be set aside'."""
    total = pot + amount
    if cap >= 0 and total > cap:
        return total - cap
    return 0


@nb.njit(cache=True)
def owed(
    rule: int,
    pot: int,
    best: bool,
    worst: bool,
    worst_pays_twice: bool,
    vicious_every_player_in: bool,
) -> int:
    """What a player who stayed in pays into the next pot after a showdown with a loser:
    ``best`` whether he holds the best hand, ``worst`` the worst.  Under the match rule every
    loser matches the pot; under worst-hand-doubles the worst hand pays twice the pot (or
    the pot); under the vicious rule the losers (or every player in) match the pot, which
    nobody takes."""
    if rule == VICIOUS:
        return pot if vicious_every_player_in or not best else 0
    if best:
        return 0
    if rule == MATCH:
        return pot
    if worst:
        return 2 * pot if worst_pays_twice else pot
    return 0
