"""The readings a replay applies where a hand history follows a convention the rule texts
settle another way, each an option, and the notes that say which one a hand needed.

* **Odd chips.**  The texts give a pot's odd chip to the first winner left of the button
  (Rules 000_1a86611de8d3f5f7.txt, 'any extra chips going to the person closest to the
  button in clockwise order').  Some histories split pots to the half chip (the Pluribus
  hands record ``10112.5``): no whole-chip rule reaches those stacks.  ``auto`` applies the
  texts' rule, and the exact split only to a hand whose ``finishing_stacks`` hold a fraction
  of a chip, with a note.
* **Short all-in raises.**  The game's rule (for every PHH variant the texts' full-bet rule:
  an all-in raise short of a full raise does not reopen the betting, Rules
  002_376df91f076a6501.txt, 'Incomplete bet or raise'), or the half-bet rule; and whether a
  run of short all-ins adds up to reopen it.  A hand with a short all-in is noted.
* **Heads-up with equal blinds.**  Heads-up the button posts the small blind and acts first
  before the flop (Rules 002_376df91f076a6501.txt, 'When there are only two players'); with
  two equal blinds some engines take the button's as the big blind, so that the other player
  acts first in every round.  ``auto`` follows the history's first action, with a note.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from simulations.engine.limits import IncompleteRaiseRule, ShortAllInRule
from simulations.engine.pots import OddChipRule


class OddChips(StrEnum):
    """Who gets a split pot's odd chips in a replay."""

    AUTO = "auto"  # the texts' rule, exact shares where finishing_stacks holds fractions
    FIRST_LEFT_OF_BUTTON = "first-left-of-button"
    ONE_EACH_LEFT_OF_BUTTON = "one-each-left-of-button"
    EXACT = "exact"

    def rule(self, fractions: bool) -> OddChipRule:
        """The engine's rule for a hand (``fractions``: its finishing stacks hold some)."""
        if self is OddChips.AUTO:
            return OddChipRule.EXACT if fractions else OddChipRule.FIRST_LEFT_OF_BUTTON
        return OddChipRule(self.value)


class HeadsUpBlinds(StrEnum):
    """Heads-up with two equal blinds: which of them is the small blind."""

    AUTO = "auto"  # as the history's first action shows
    BUTTON_ACTS_FIRST = "button-acts-first"  # the texts: the button's is the small blind
    BUTTON_ACTS_LAST = "button-acts-last"  # the button's is the big blind


class Engine(StrEnum):
    """Which engine replays a file's hands."""

    # The compiled replay kernel for the hands it covers (hold'em without straddles, whole
    # chips); any hand it does not end at the history's stacks is replayed again by the
    # reference engine, whose verdict is the one reported.
    AUTO = "auto"
    REFERENCE = "reference"  # the reference engine for every hand


@dataclass(frozen=True)
class ReplayOptions:
    """How a replay reads the conventions (None: the game's own rule)."""

    odd_chips: OddChips = OddChips.AUTO
    incomplete_raise: IncompleteRaiseRule | None = None
    short_all_ins: ShortAllInRule | None = None
    heads_up_blinds: HeadsUpBlinds = HeadsUpBlinds.AUTO
    engine: Engine = Engine.AUTO


DEFAULT_OPTIONS = ReplayOptions()

# The kind of each note: the words before its first colon (the command line counts them).
ODD_CHIPS = "odd chips"
SHORT_ALL_IN = "short all-in"
HEADS_UP = "heads-up blinds"
DEALING = "dealing"
IDLE_CHECK = "idle check"
UNCHECKED = "no finishing stacks"


def note_kind(note: str) -> str:
    return note.split(":", 1)[0]
