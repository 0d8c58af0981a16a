"""Settling a finished hand: the uncalled bet, the pots, the rake and drop, and the awards.

A pure function of what each seat put in, who still holds cards and the showdown values,
so that the hand's state machine only applies the result.  The order follows the rule
texts: the uncalled bet goes back first (nobody wins chips no one matched), the main and
side pots are made from the contributions (Rules 002_376df91f076a6501.txt, '"All in"'),
the house takes the rake and the jackpot drop before anything is awarded, and the pots are
awarded from the last side pot back to the main pot, ties split with odd chips by the
game's rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from simulations.engine.declare import Declaration, split_declared
from simulations.engine.game import GameDefinition
from simulations.engine.pots import (
    Chips,
    Pot,
    best_seats,
    seat_mask,
    side_pots,
    split,
    split_high_low,
    tier_for,
)
from simulations.rules.rake_rules import house_take


@dataclass(frozen=True)
class Award:
    pot: int  # 0 is the main pot
    seat: int
    chips: Chips


@dataclass(frozen=True)
class Settlement:
    returned: tuple[tuple[int, int], ...]  # (seat, chips) handed back: the uncalled bet
    pots: tuple[Pot, ...]  # after the rake and drop; one the take emptied stays, empty
    rake: int
    jackpot_drop: int
    awards: tuple[Award, ...]  # from the last side pot back to the main pot


def gather_pots(
    contributed: Sequence[int],
    dead: Sequence[int],
    folded: Sequence[bool],
    carried: Sequence[Pot] = (),
) -> tuple[tuple[tuple[int, int], ...], tuple[Pot, ...]]:
    """The chips handed back (the uncalled bet) and the pots a hand's money makes.  ``dead``
    is the part of each contribution that was dead money (a missed small blind posted dead):
    it counts toward no bet, so it can be neither called nor handed back, and goes into the
    main pot.  ``carried`` are the pots of earlier deals that ended without a winner
    (jackpots passed out, a deal killed), each open to its players still in the hand: one
    open to the main pot's players joins it; one whose players have all folded is dead money
    in the main pot."""
    n = len(contributed)
    if len(dead) != n or len(folded) != n:
        raise ValueError("contributed, dead and folded must cover the same seats")
    live_money = [contributed[s] - dead[s] for s in range(n)]
    alive = [not f for f in folded]
    returned: list[tuple[int, int]] = []
    tier = tier_for(live_money)
    chips = tier.chips(live_money)
    seat, excess = tier.uncalled_bet(chips)
    if seat >= 0:
        chips[seat] -= excess
        returned.append((int(seat), int(excess)))
    # A player all in on forced bets alone, and everyone else folding to him: what the
    # others put in above him nobody still in the hand can win, and it goes back.
    above = tier.chips([0] * n)
    tier.return_above_live(chips, seat_mask(alive), above)
    returned.extend((s, int(back)) for s, back in enumerate(above) if back)
    live_money = [int(c) for c in chips]
    pots = list(side_pots(live_money, alive))
    live = tuple(s for s, a in enumerate(alive) if a)
    dead_money = sum(dead)
    apart: list[Pot] = []  # carried pots open to other players than the main pot's
    for pot in carried:
        eligible = tuple(s for s in pot.eligible if alive[s])
        main = pots[0].eligible if pots else live
        if not eligible or eligible == main:
            dead_money += pot.amount
        else:
            apart.append(Pot(pot.amount, eligible))
    if dead_money:
        if pots:
            pots[0] = Pot(pots[0].amount + dead_money, pots[0].eligible)
        else:
            pots.append(Pot(dead_money, live))
    return tuple(returned), (*pots, *apart)


def settle(
    game: GameDefinition,
    contributed: Sequence[int],
    dead: Sequence[int],
    folded: Sequence[bool],
    values: Mapping[int, Sequence[int | None]],
    *,
    button: int,
    flopped: bool,
    carried: Sequence[Pot] = (),
    declared: Mapping[int, Declaration] | None = None,
) -> Settlement:
    """Settle a hand.  ``values`` holds every live seat's value in each half of the game's
    showdown, None where it does not qualify (empty when one player is left); ``flopped``
    whether the hand reached its second street ('no flop, no drop'); ``contributed``,
    ``dead`` and ``carried`` make the pots (:func:`gather_pots`; jackpots: 'everyone antes
    again into the same pot'); ``declared`` each live seat's declaration in a game of
    declared halves."""
    n = len(contributed)
    returned, pots = gather_pots(contributed, dead, folded, carried)
    rake, drop, remaining = _take_rake_and_drop(game, pots, n, flopped)
    awards: list[Award] = []
    for index in range(len(remaining) - 1, -1, -1):
        pot = remaining[index]
        if not pot.amount:  # emptied by the house's take: nothing to award
            continue
        if len(pot.eligible) == 1 or not values:
            shares = split(pot.amount, pot.eligible, button=button, n_seats=n, rule=game.odd_chips)
        elif game.showdown.declare:
            if declared is None:
                raise ValueError("a game of declared halves is settled with the declarations")
            shares = split_declared(
                pot.amount,
                pot.eligible,
                values,
                declared,
                button=button,
                n_seats=n,
                rule=game.odd_chips,
            )
        elif len(game.showdown.halves) == 1:
            winners = best_seats(pot.eligible, values, 0)
            shares = split(pot.amount, winners, button=button, n_seats=n, rule=game.odd_chips)
        else:  # high and low: cards speak for both halves
            high, low = best_seats(pot.eligible, values, 0), best_seats(pot.eligible, values, 1)
            shares = split_high_low(
                pot.amount, high, low, button=button, n_seats=n, rule=game.odd_chips
            )
        awards.extend(Award(index, winner, chips) for winner, chips in shares.items())
    return Settlement(returned, remaining, rake, drop, tuple(awards))


def _take_rake_and_drop(
    game: GameDefinition, pots: tuple[Pot, ...], dealt_in: int, flopped: bool
) -> tuple[int, int, tuple[Pot, ...]]:
    """The rake (capped by the players dealt in) and the jackpot drop, taken main pot
    first, before anything is awarded.

    A pot the take empties stays in its place with nothing in it, so that every pot keeps
    the number the bets gave it: the side pot after an emptied main pot is still 'a side
    pot that only the players who contributed to it are eligible to win' (Rules
    002_376df91f076a6501.txt, '"All in"'), and is named side pot 1, not the main pot."""
    if game.rake is None and game.jackpot_drop is None:
        return 0, 0, pots  # nothing for the house
    total = sum(p.amount for p in pots)
    rake = 0 if game.rake is None else game.rake.amount(total, dealt_in, flopped)
    drop = 0 if game.jackpot_drop is None else game.jackpot_drop.taken(total, flopped)
    rake, drop = house_take(total, rake, drop)
    take = rake + drop
    if take == 0:
        return 0, 0, pots
    remaining: list[Pot] = []
    for pot in pots:
        cut = min(take, pot.amount)
        take -= cut
        remaining.append(Pot(pot.amount - cut, pot.eligible))
    return rake, drop, tuple(remaining)
