"""Player models for the cardroom-economics jobs (bad-beat jackpots, rake): how often each
kind of player plays a hand, how far he goes with it, and how much he bets — shared by the
job kinds, and set from a room's own statistics.

A job lists its kinds of player under ``[[players]]``, each with the seats it fills::

    [[players]]
    name = "regular"   # the kind, as results name it
    seats = 6          # how many seats play so (one entry may leave it out: the rest)
    vpip = 0.18        # the share of starting hands played (tracked VPIP)
    hand = "pair"      # the weakest made hand he continues with on flop, turn and river
    river = "two pair" # ... a street of its own (flop, turn, river)
    chance = 0.1       # otherwise he continues with this chance (floats, bluff-catches)
    bet = 0.66         # his bet, as a share of the pot
    open = 3.0         # his opening raise, in big blinds (raise to)

**Starting hands** (:func:`~simulations.models.starting_hands.plays`): a seat plays the best
``vpip`` of all starting hands by their equity against a random hand
(:mod:`simulations.models.starting_hands`); ``vpip = 1`` plays every hand.

**Continuing** (:func:`continues`): on each street a seat still in continues when his best
hand so far (two hole cards and the board in hold'em; exactly two and three in Omaha) is at
least the street's made hand (written as a bad-beat floor: ``"pair"``, ``"TT"`` — a pair of
tens or better —, ``"two pair"``, ``"any"``; ``"none"``: never by strength), or else when his
uniform for the street is below ``chance``.  ``chance = 1`` always continues: a seat with
``vpip = 1`` and ``chance = 1`` sees every river, the bad-beat job's classic assumption.

**Betting** (:func:`bet_size`, and the hand's course in :mod:`simulations.models.table_kernel`):
the first seat in turn that continues bets ``bet`` of the pot (at least the big blind), the
others who continue call and the rest fold; before the flop the first to play raises to
``open`` big blinds and the others who play call.

**Defaults** (:data:`TYPICAL`), used for a ``[[players]]`` entry's unset keys and for a
rake job without any, are an *assumption* calibrated to published figures of full-ring
no-limit hold'em (docs/jobs.md, "Player models", gives the sources and what the defaults
produce): a VPIP of 25 % (between the 15–20 % of winning full-ring regulars,
pokersoftware.com, 'Interpreting HUD Stats 101: VPIP', and the 30 % and more of loose
players); continuing with a pair of tens or better on the flop and turn and two pair or
better on the river, else with chance 0.2, which takes a player who sees a flop to the
showdown 26–27 % of the time ('a good No Limit Hold'em cash game player will be reaching
showdown around 25 % of the time after seeing a flop', 888poker.com, 'Showdown'); an opening
raise of three big blinds and bets of two thirds of the pot (the usual sizes: an assumption).
An entry that sets ``hand`` has its streets follow it unless it sets them too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numba as nb
import numpy as np
import numpy.typing as npt

from simulations.evaluators.floors import describe_floor, hand_floor
from simulations.spec import Fields, SpecError, echo

STREETS = ("flop", "turn", "river")
NEVER = -1  # no made hand is enough: only the chance continues
MAX_BET = 2.0  # a bet of at most twice the pot (stacks stay deep)
MIN_OPEN, MAX_OPEN = 2.0, 20.0  # big blinds
MAX_SEAT_TYPES = 10


@dataclass(frozen=True)
class SeatModel:
    """One kind of player: see the module's text for each setting.  ``flop``, ``turn`` and
    ``river`` are the made hands he continues with on each street (None: ``hand``'s)."""

    name: str = "player"
    seats: int | None = None
    vpip: float = 0.25
    hand: str = "TT"
    flop: str | None = None
    turn: str | None = None
    river: str | None = "two pair"
    chance: float = 0.2
    bet: float = 0.66
    open: float = 3.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.vpip <= 1.0 or not 0.0 <= self.chance <= 1.0:
            raise ValueError("vpip and chance are shares: 0 to 1")
        if not 0.0 < self.bet <= MAX_BET:
            raise ValueError(f"bet is a share of the pot above 0 and at most {MAX_BET:g}")
        if not MIN_OPEN <= self.open <= MAX_OPEN:
            raise ValueError(f"open is {MIN_OPEN:g} to {MAX_OPEN:g} big blinds")
        for text in self.street_hands:
            made_hand_floor(text)

    @property
    def street_hands(self) -> tuple[str, str, str]:
        """The made hand he continues with on the flop, turn and river."""
        return (self.flop or self.hand, self.turn or self.hand, self.river or self.hand)

    @property
    def floors(self) -> tuple[int, int, int]:
        a, b, c = self.street_hands
        return made_hand_floor(a), made_hand_floor(b), made_hand_floor(c)

    @property
    def sees_every_river(self) -> bool:
        return self.vpip >= 1.0 and self.chance >= 1.0

    def open_to(self, big_blind: int) -> int:
        """His opening raise in chips (raise to), at least twice the big blind."""
        return max(2 * big_blind, round(self.open * big_blind))

    def describe(self) -> str:
        if self.sees_every_river:
            return "plays every hand to the river"
        flop, turn, river = (_floor_words(t) for t in self.street_hands)
        if flop == turn == river:
            made = f"continues with {flop}"
        elif flop == turn:
            made = f"continues with {flop} on the flop and turn, {river} on the river"
        else:
            made = f"continues with {flop} on the flop, {turn} on the turn, {river} on the river"
        chance = f", else with chance {self.chance:g}" if self.chance else ""
        return (
            f"plays {100 * self.vpip:g} % of hands (opens to {self.open:g} BB), {made}{chance}; "
            f"bets {100 * self.bet:g} % of the pot"
        )


def made_hand_floor(text: str) -> int:
    """A street's made hand as the packed value a hand must reach (``NEVER`` for "none",
    0 for "any"); ``ValueError`` for one that is not a hand."""
    words = text.strip().lower()
    if words == "none":
        return NEVER
    if words == "any":
        return 0
    return hand_floor(text)


def _floor_words(text: str) -> str:
    words = text.strip().lower()
    if words == "none":
        return "no made hand"
    if words == "any":
        return "any hand"
    described = describe_floor(text)
    return f"{described[0].lower()}{described[1:]} or better"


TYPICAL = SeatModel(name="typical")
EVERY_RIVER = SeatModel(name="every seat", vpip=1.0, hand="none", chance=1.0)


# -- the compiled decisions, for the kernel and the reference player alike ------------------


@nb.njit(cache=True, inline="always")
def continues(value: int, floor: int, u: float, chance: float) -> bool:
    """Whether a seat whose best hand so far is worth ``value`` continues on a street whose
    made hand is ``floor`` (``NEVER``: none is enough), his uniform for it being ``u``."""
    return (floor >= 0 and value >= floor) or u < chance


@nb.njit(cache=True, inline="always")
def bet_size(pot: int, share: float, big_blind: int) -> int:
    """A bet of ``share`` of ``pot``, in whole chips, at least the big blind."""
    amount = int(pot * share)
    return amount if amount > big_blind else big_blind


# -- reading ``[[players]]`` ------------------------------------------------------------------


def read_seat_models(job: Fields, players: int, default: SeatModel) -> tuple[SeatModel, ...]:
    """The ``[[players]]`` entries of a job for a table of ``players`` seats (``default``'s
    one kind when there are none); errors name the field."""
    entries = job.tables("players")
    if not entries:
        return (default,)
    if len(entries) > MAX_SEAT_TYPES:
        raise SpecError(job.path("players"), f"at most {MAX_SEAT_TYPES} kinds of player")
    models: list[SeatModel] = []
    names: set[str] = set()
    for i, entry in enumerate(entries):
        model = _read_entry(entry, i)
        if model.name in names:
            raise SpecError(entry.path("name"), f"{echo(model.name)} is given twice")
        names.add(model.name)
        models.append(model)
    counted = [m.seats for m in models if m.seats is not None]
    open_entries = [i for i, m in enumerate(models) if m.seats is None]
    if len(open_entries) > 1:
        where = entries[open_entries[1]].path("seats")
        raise SpecError(where, "is required: only one kind of player may fill the rest")
    rest = players - sum(counted)
    if (open_entries and rest < 1) or (not open_entries and rest != 0):
        raise SpecError(
            job.path("players"),
            f"the seats add up to {sum(counted)}{' and leave none' if open_entries else ''}; "
            f"the table has {players} (game.players)",
        )
    return tuple(replace(m, seats=rest) if m.seats is None else m for m in models)


def _read_entry(entry: Fields, index: int) -> SeatModel:
    base = TYPICAL
    name = entry.string("name", f"players {index + 1}")
    seats = entry.optional_integer("seats", low=1, high=10)
    vpip = _share(entry, "vpip", base.vpip)
    texts: dict[str, str | None] = {}
    own_hand = entry.has("hand")  # a hand of his own: the streets not given follow it
    for key in ("hand", *STREETS):
        if key == "hand":
            text: str | None = entry.string(key, base.hand)
        elif entry.has(key) or own_hand:
            text = entry.optional_string(key)
        else:
            text = getattr(base, key)
            entry.optional_string(key)
        if text is not None:
            try:
                made_hand_floor(text)
            except ValueError as err:
                raise SpecError(entry.path(key), f"{err} (or 'any', 'none')") from None
        texts[key] = text
    chance = _share(entry, "chance", base.chance)
    bet = entry.number("bet", base.bet)
    if not 0.0 < bet <= MAX_BET:
        raise SpecError(entry.path("bet"), f"must lie above 0 and at most {MAX_BET:g}, got {bet:g}")
    opening = entry.number("open", base.open)
    if not MIN_OPEN <= opening <= MAX_OPEN:
        raise SpecError(
            entry.path("open"),
            f"must lie in {MIN_OPEN:g}..{MAX_OPEN:g} big blinds, got {opening:g}",
        )
    entry.finish()
    return SeatModel(
        name,
        seats,
        vpip,
        texts["hand"] or base.hand,
        texts["flop"],
        texts["turn"],
        texts["river"],
        chance,
        bet,
        opening,
    )


def _share(entry: Fields, key: str, default: float) -> float:
    value = entry.number(key, default)
    if not 0.0 <= value <= 1.0:
        raise SpecError(entry.path(key), f"must lie in 0..1, got {value:g}")
    return value


# -- the seats as the compiled loop takes them ------------------------------------------------


@dataclass(frozen=True, eq=False)
class Seating:
    """Every seat's settings, seat 0 first, with the kind of player each seat plays."""

    kind: npt.NDArray[np.int64]
    vpip: npt.NDArray[np.float64]
    floors: npt.NDArray[np.int64]  # [seat, street]
    chance: npt.NDArray[np.float64]
    bet: npt.NDArray[np.float64]
    open_to: npt.NDArray[np.int64]


def seating(models: tuple[SeatModel, ...], players: int, big_blind: int) -> Seating:
    """The seats filled kind by kind in the order listed (the button moves every hand, so the
    order seats no one anywhere in particular)."""
    order = [k for k, m in enumerate(models) for _ in range(m.seats or players)][:players]
    chosen = [models[k] for k in order]
    return Seating(
        np.array(order, dtype=np.int64),
        np.array([m.vpip for m in chosen], dtype=np.float64),
        np.array([m.floors for m in chosen], dtype=np.int64).reshape(players, 3),
        np.array([m.chance for m in chosen], dtype=np.float64),
        np.array([m.bet for m in chosen], dtype=np.float64),
        np.array([m.open_to(big_blind) for m in chosen], dtype=np.int64),
    )
