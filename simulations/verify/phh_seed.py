"""A PHH hand's fields as the starting point of a scenario (``phh = "FILE"``, ``hand = N``).

A ``.phh`` file is one TOML hand; a ``.phhs`` file holds several, each under a table
named by its number (``[1]``, ``[2]``, ...).  The PHH reader reads and checks the hand; the
fields that set it up and settle it come over as they are, and the others (the event, the
players' names, user fields such as ``_name``) are left behind.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simulations.phh.model import PHH_FIELDS
from simulations.phh.read import SEVERAL, ReadFile, read_file
from simulations.verify.fields import ScenarioError

# Fields of a PHH hand that set up or settle it (the standard's list up to the actions, and
# the finishing stacks): a scenario's keys of the same names.
PHH_HAND = (*PHH_FIELDS[: PHH_FIELDS.index("actions") + 1], "finishing_stacks")
# The others describe the event, not the hand: kept, never checked.
PHH_INFORMATION = tuple(key for key in PHH_FIELDS if key not in PHH_HAND)


def phh_fields(
    path: Path, hand: int | None, read: dict[Path, ReadFile] | None = None
) -> dict[str, Any]:
    """The fields of the hand in ``path`` (``hand``: which hand of a ``.phhs`` file), read
    and checked by the PHH reader (:func:`simulations.phh.read.read_file`); ``read`` keeps
    the files already read, for the scenarios of one file that start from several hands of
    one history."""
    if read is None:
        read = {}
    if path not in read:
        read[path] = read_file(path)
    history = read[path]
    if history.error is not None:
        raise ScenarioError("phh", str(history.error))
    several = path.suffix == SEVERAL
    if hand is not None and not several:
        raise ScenarioError("hand", f"{path} is a single hand (.phh): hand picks one of a .phhs")
    if hand is None:
        if len(history.hands) != 1:
            raise ScenarioError("hand", f"{path} holds {len(history.hands)} hands: say which")
        found = history.hands[0]
    else:
        matches = [h for h in history.hands if h.section == str(hand)]
        if not matches:
            raise ScenarioError("hand", f"{path} has no hand [{hand}]")
        found = matches[0]
    if found.error is not None:
        raise ScenarioError("phh", str(found.error))
    assert found.hand is not None
    fields = found.hand.fields()
    return {key: value for key, value in fields.items() if key in PHH_HAND}
