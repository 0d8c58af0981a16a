"""Hand histories in PHH, the Poker Hand History standard: reading, writing and replaying.

``model`` (PhhHand, PhhError), ``read`` (.phh and .phhs files, checked), ``write`` (PHH text),
``record`` (a hand the engine played, as a PhhHand), ``replay`` (one hand through the
reference engine), ``batch`` (many files, one report each), ``fast`` (the hands the compiled
replay kernel covers: hold'em's, and the draw games' with ``fast_draw``), ``quick`` (whole
files of hold'em hands read by compiled code: ``scan`` reads the bytes, ``count`` encodes
the actions), ``options`` (the readings where
the texts and a history's conventions differ), ``lines`` (the action-line notation and the
deck order), ``stakes`` (a history's stakes laid onto a game), ``toml_subset`` (the TOML PHH
files are written in).
"""

from simulations.engine.compiled import check_fresh

check_fresh()  # before any compiled module of the package: a stale build would run old code
