"""The house's take from a pot: the rake and the jackpot drop, one compiled source for the
reference engine's settlement (:mod:`simulations.engine.settle`, through
:class:`~simulations.engine.game_parts.Rake` and
:class:`~simulations.engine.game_parts.JackpotDrop`) and the economics kernel
(:mod:`simulations.models.table_kernel`) alike, so that the two cannot drift apart.

Rules 003_6e018542f14946f8.txt: 'The casino makes their profit off of the game by taking a
percentage of the pots as their rake'; Rules 000_1a86611de8d3f5f7.txt, 'Bad beat jackpot':
'often with a small rake being taken out of each pot to fund the jackpot (in addition to the
regular rake)'.  Where the texts stop, the arithmetic follows posted card-room schedules:

* **linear** rake (:func:`linear_rake`): a percentage of the pot, rounded to whole units by
  the room's rounding rule — down (most live rooms), half to even (PokerStars: 'Ring game
  rake is calculated as a true percentage using the round half to even method of
  rounding', pokerstars.com/poker/room/rake), half up, or up;
* **per-increment** rake (:func:`increment_rake`): so much for each full increment of the pot
  ('$0.25 for each $5.00 in pot, maximum $2.00', the fixed-limit schedule of
  vegaspoker247.com; PokerStars' schedule before 2012, '5 cents per dollar ... a $0.99 pot
  ... would be rake-free', rakeback.com/pokerstars/rake-structure);
* a **cap** by the players dealt in (:func:`applicable_cap`): the entry with the most players
  not above the count ('2 Player Cap, 3-4 Player Cap, 5+ Player Cap');
* the **drop** (:func:`drop_amount`): a fixed amount, or a percentage with a cap, from a pot
  that reaches the threshold, once the flop is out ('$1-$2 will be taken out ... when the pot
  reaches 10 times the small blind, at least four players are dealt in, and there is a
  flop', acehighpoker.com/bad-beat);
* together (:func:`house_take`): the rake first, the drop from what is left.

Amounts are whole chips; a percentage is an exact fraction (numerator, denominator).
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

# The rounding rules of a linear rake (RakeRounding, as the compiled functions take it).
ROUND_DOWN = 0
ROUND_HALF_EVEN = 1
ROUND_HALF_UP = 2
ROUND_UP = 3
NO_CAP = -1


@nb.njit(cache=True)
def rounded_quotient(numerator: int, denominator: int, rounding: int) -> int:
    """``numerator / denominator`` (both at least 0, the denominator positive) rounded to an
    integer by ``rounding``: down, half to even, half up or up."""
    whole = numerator // denominator
    rest = numerator - whole * denominator
    if rest == 0 or rounding == ROUND_DOWN:
        return whole
    if rounding == ROUND_UP:
        return whole + 1
    twice = 2 * rest
    if twice > denominator:
        return whole + 1
    if twice < denominator:
        return whole
    if rounding == ROUND_HALF_UP:
        return whole + 1
    return whole + (whole & 1)  # half to even


@nb.njit(cache=True)
def linear_rake(pot: int, numerator: int, denominator: int, unit: int, rounding: int) -> int:
    """A percentage (``numerator / denominator``) of ``pot``, in whole ``unit`` chips rounded
    by ``rounding``: 5 % of 30 in units of 1 is 1.5, 1 rounded down, 2 half to even."""
    return rounded_quotient(pot * numerator, denominator * unit, rounding) * unit


@nb.njit(cache=True)
def increment_rake(pot: int, increment: int, per_increment: int) -> int:
    """``per_increment`` chips for each full ``increment`` of ``pot``: '$0.25 for each $5.00 in
    pot' takes 25 from a pot of 999 (one full 500) and 50 from 1,000."""
    return pot // increment * per_increment


@nb.njit(cache=True)
def applicable_cap(
    players: int, cap_players: npt.NDArray[np.int64], caps: npt.NDArray[np.int64]
) -> int:
    """The cap for a hand of ``players`` dealt in: the entry with the most players not above
    the count (``cap_players`` increasing); ``NO_CAP`` when none applies."""
    found = NO_CAP
    for i in range(cap_players.shape[0]):
        if cap_players[i] <= players:
            found = caps[i]
    return found


@nb.njit(cache=True)
def rake_amount(
    pot: int,
    players: int,
    flopped: bool,
    no_flop_no_drop: bool,
    numerator: int,
    denominator: int,
    unit: int,
    rounding: int,
    increment: int,
    per_increment: int,
    cap: int,
) -> int:
    """The rake of a pot: nothing before the flop under 'no flop, no drop'; per increment when
    ``increment`` is positive, else linear; at most ``cap`` (``NO_CAP``: none)."""
    if no_flop_no_drop and not flopped:
        return 0
    if increment > 0:
        raked = increment_rake(pot, increment, per_increment)
    else:
        raked = linear_rake(pot, numerator, denominator, unit, rounding)
    if cap >= 0 and raked > cap:
        return cap
    return raked


@nb.njit(cache=True)
def drop_amount(
    pot: int,
    flopped: bool,
    amount: int,
    numerator: int,
    denominator: int,
    cap: int,
    threshold: int,
) -> int:
    """The jackpot drop of a pot: none before the flop or below ``threshold``; ``amount``
    chips, or (``amount`` 0) the percentage rounded down, at most ``cap`` (``NO_CAP``: none)."""
    if not flopped or pot < threshold:
        return 0
    if amount > 0:
        return amount
    dropped = pot * numerator // denominator
    if cap >= 0 and dropped > cap:
        return cap
    return dropped


@nb.njit(cache=True)
def house_take(pot: int, rake: int, drop: int) -> tuple[int, int]:
    """The rake and drop actually taken from ``pot``: the rake first (a fraction of the pot, it
    always fits), the drop from what is left."""
    if rake >= pot:
        return pot, 0
    if rake + drop > pot:
        return rake, pot - rake
    return rake, drop
