"""A scenario once read: the hand to deal and play, and what must come of it.

Seats count from 0 here (PHH's ``p1`` is seat 0); the files and every message name players
``p1``, ``p2``, ... (:func:`~simulations.verify.fields.player_name`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from simulations.cards import Card
from simulations.engine.forced import BlindSeats, Post
from simulations.engine.game import GameDefinition
from simulations.phh.lines import Line
from simulations.verify.fields import Number
from simulations.verify.jackpot import JackpotRules

# The words ``expect.legal.actions`` lists a turn's choices in: the engine's action kinds.
ACTION_WORDS = (
    "fold",
    "check",
    "call",
    "bet",
    "raise",
    "bring-in",
    "draw",
    "discard",
    "expose",
    "pass",
    "declare",
    "arrange",
    "donate",
    "twist",
    "pay",
    "split",
    "draft",
    "bid",
    "designate",
)


@dataclass(frozen=True)
class LegalCheck:
    """``expect.legal[index]``: what the player to act may do after ``after`` player actions
    (None: not checked)."""

    index: int
    after: int
    actor: int | None = None
    actions: frozenset[str] | None = None
    call: int | None = None
    min: int | None = None
    max: int | None = None
    bring_in: int | None = None


@dataclass(frozen=True)
class RefusedCheck:
    """``expect.refused[index]``: an action the engine must refuse after ``after`` player
    actions, leaving the hand as it was; ``reason`` a phrase of its message."""

    index: int
    after: int
    line: Line
    reason: str | None = None


@dataclass(frozen=True)
class PotCheck:
    """``expect.pots[index]``: a pot as the bets made it (before the rake and drop), the
    players who may win it, those who did, and what each won from it."""

    index: int
    amount: int | None = None
    eligible: frozenset[int] | None = None
    winners: frozenset[int] | None = None
    shares: tuple[tuple[int, Number], ...] | None = None


@dataclass(frozen=True)
class JackpotCheck:
    """``expect.jackpot``: whether the bad-beat jackpot is hit, by whom, and what it pays."""

    hit: bool | None = None
    losers: frozenset[int] | None = None
    winners: frozenset[int] | None = None
    pays: tuple[tuple[int, int], ...] | None = None


@dataclass(frozen=True)
class Expectations:
    """Everything ``expect`` (and PHH's ``finishing_stacks``) asks of the hand;
    ``refused_setup``: instead, that the hand is refused before a card is dealt, with a
    message holding this phrase."""

    stacks: tuple[Number, ...] | None = None
    finishing_stacks: tuple[Number, ...] | None = None
    pots: tuple[PotCheck, ...] | None = None
    rake: int | None = None
    jackpot_drop: int | None = None
    events: tuple[str, ...] = ()
    no_events: tuple[str, ...] = ()
    finished: bool = True
    jackpot: JackpotCheck | None = None
    legal: tuple[LegalCheck, ...] = ()
    refused: tuple[RefusedCheck, ...] = ()
    refused_setup: str | None = None


@dataclass(frozen=True)
class Scenario:
    """One hand ready to deal: the game with the house's options and the hand's stakes laid
    on, the stacks and button, the straddles, posts and kill blind, the cards (a deck order or
    a seed) and the action lines (``lines[i]`` is ``actions[i]``); ``blind_seats``, where a
    button rule placed the blinds (None: the seats after the button post them)."""

    file: str
    name: str
    covers: tuple[str, ...]
    game: GameDefinition
    stacks: tuple[int, ...]
    button: int
    straddles: tuple[tuple[int, int], ...]
    posts: tuple[Post, ...]
    kill: tuple[int, Fraction] | None
    deck: tuple[Card, ...] | None
    seed: int | None
    lines: tuple[Line, ...]
    jackpot: JackpotRules | None
    expect: Expectations
    blind_seats: BlindSeats | None = None
