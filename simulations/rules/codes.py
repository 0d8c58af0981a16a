"""The rules core's vocabulary: the codes its functions and the batch kernels speak.

Actions as a batch history encodes them, betting structures, the status a replayed hand ends
with (completed, or why it stopped), straddle rules and the columns of a stopped hand's
detail.  Plain integers so that numba kernels and plain Python read the same constants.
"""

from __future__ import annotations

# Action codes (the batch encoding's ``action_kinds``).
FOLD = 0
CHECK = 1
CALL = 2
BET = 3
RAISE = 4

# Betting structures.
LIMIT_FIXED = 0
LIMIT_SPREAD = 1
LIMIT_POT = 2
LIMIT_NO = 3
NO_LIMIT_HIGH = 1 << 62  # the rule's "no upper bound" (the engine's raise bounds use the same)

# Status codes: 0 completed, else why the hand stopped.
COMPLETED = 0
HAND_OVER = 1  # an action after the hand ended
FOLD_WITHOUT_BET = 2
CHECK_FACING_BET = 3
CALL_WITHOUT_BET = 4
BET_FACING_BET = 5
RAISE_WITHOUT_BET = 6
NO_CHIPS_TO_RAISE = 7
NOT_REOPENED = 8
NO_OPPONENT_CAN_CALL = 9
CAPPED = 10
OUT_OF_RANGE = 11
OFF_UNIT = 12
UNKNOWN_ACTION = 13
TOO_FEW_ACTIONS = 14
# The reference engine refuses the hand's straddles as it sets the hand up (no action).
STRADDLE_OUT_OF_ORDER = 15
STRADDLE_AFTER_POST = 16
STRADDLE_NOT_A_RAISE = 17
STRADDLE_NOT_COVERED = 18
OUT_OF_TURN = 19  # an action given for a seat other than the one to act
# An action the history places in another betting round than the one being bet (a draw
# game's betting line before or after the draw that closes its round).
WRONG_ROUND = 20

# Straddle rules (simulations.engine.game.StraddleRule).
STRADDLES_NONE = 0
STRADDLES_LIVE = 1  # left of the big blind; a re-straddle left of the last straddle
STRADDLES_MISSISSIPPI = 2  # any seat; a re-straddle right of the last straddle

# Columns of the per-hand ``detail`` output: the numbers a status message quotes.
DETAIL_SEAT = 0  # the seat whose action failed, or the seat still to act
DETAIL_A = 1  # to call (a check facing a bet), the low end of the legal range, the unit,
# a straddle's seat due or its minimum, the seat to act (an action out of turn)
DETAIL_B = 2  # the high end of the legal range, a straddle's total or the seat before it
DETAIL_WIDTH = 3
