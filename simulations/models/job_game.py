"""The game a job plays: one key, ``game``, at the top of every job file, whose value is a
code of the registry (:mod:`simulations.engine.variants`; ``cardroom games`` lists them).

The seats, blinds and the kind's own dealing settings are the job's ``[table]``.  The forms
this replaced — a ``[game]`` table naming the game by ``variant = "holdem"`` (bad_beat,
rake) or by ``code = "F7S"`` (exhaustion, guts) — are refused in one line that says what to
write instead.
"""

from __future__ import annotations

from collections.abc import Callable

from simulations.engine.variants import VARIANTS, Variant, close_codes
from simulations.spec import Fields, SpecError, echo

# The old [game].variant words, and the registry codes of the games they dealt.
OLD_VARIANTS = {"holdem": "NT", "omaha": "NO"}


def read_game(job: Fields, default: str, lacks: Callable[[Variant], list[str]]) -> Variant:
    """The registry game of ``job``'s ``game`` key (``default`` when absent); a SpecError
    for an old ``[game]`` table, a code not in the registry (naming the nearest codes), or
    a game whose definition lacks what the kind's kernel plays (``lacks``: what it
    misses, in words)."""
    try:
        code = job.string("game", default)
    except SpecError as wrong:
        try:
            old = job.table("game")
        except SpecError:
            raise wrong from None  # neither a code nor the old table
        _refuse_old_table(old, default)
        raise
    found = VARIANTS.get(code)
    if found is None:
        near = close_codes(code)
        hint = f"; did you mean {' or '.join(near)}?" if near else ""
        raise SpecError(
            "game", f"{echo(code)} is not a game code (`cardroom games` lists them){hint}"
        )
    missing = lacks(found)
    if missing:
        raise SpecError(
            "game", f"{code} ({found.name}) cannot be played here: {'; '.join(missing)}"
        )
    return found


# The other settings the old [game] table held, now the job's [table].
_OLD_KEYS = (
    "players",
    "blinds",
    "exhaustion",
    "deals_bottom_card",
    "five_consecutive",
    "max_deals",
)


def _refuse_old_table(old: Fields, default: str) -> None:
    """Refuse ``[game]`` given as a table, in one line naming ``game = CODE`` and
    ``[table]`` for the settings it held."""
    moved = [key for key in _OLD_KEYS if old.has(key)]
    rest = f", and {', '.join(moved)} under [table]" if moved else ""
    for key in ("variant", "code"):
        if old.has(key):
            try:
                value = old.string(key)
            except SpecError:
                value = default
            code = OLD_VARIANTS.get(value, value if value in VARIANTS else default)
            raise SpecError(old.path(key), f"is no longer read: write game = {_quoted(code)}{rest}")
    raise SpecError(
        "game", f"is a game's code now, not a table: write game = {_quoted(default)}{rest}"
    )


def _quoted(code: str) -> str:
    return '"' + code.replace("\\", "\\\\").replace('"', '\\"') + '"'
