"""Why an action or a straddle is refused, in one line: one message per status code of
:mod:`simulations.rules.codes`.

The reference engine raises ``IllegalAction`` with these words; the replay kernel returns
only the code and up to three numbers (:data:`~simulations.rules.codes.DETAIL_WIDTH`), and
its results (:meth:`simulations.engine.replay.ReplayResult.reason`) word them here, so that
a hand refused by either tier reads the same.  The engine's own refusals that the kernel
never meets (openers, a round without checking, the bring-in) stay with the engine.
"""

from __future__ import annotations

from simulations.rules import codes

# The named numbers: ``seat`` the seat whose action failed (or that is to act), ``a`` and
# ``b`` the code's two numbers (codes.DETAIL_A, DETAIL_B), ``total`` the total the action
# named, ``word`` bet or raise, ``side`` where a re-straddle sits (:func:`straddle_side`),
# ``code`` an action code the kernel does not know, ``round`` and ``given`` betting rounds
# counted from 1.
REASONS: dict[int, str] = {
    codes.HAND_OVER: "no one is to act: the hand is over",
    codes.FOLD_WITHOUT_BET: "nothing to call: check instead of folding",
    codes.CHECK_FACING_BET: "a check cannot answer a bet: {a} to call",
    codes.CALL_WITHOUT_BET: "nothing to call: check",
    codes.BET_FACING_BET: "there is a bet: raise",
    codes.RAISE_WITHOUT_BET: "there is no bet: bet",
    codes.NO_CHIPS_TO_RAISE: "no chips left to raise with: call or fold",
    codes.NOT_REOPENED: "the betting was not reopened since this player acted: call or fold",
    codes.NO_OPPONENT_CAN_CALL: "no opponent can call a raise: call or fold",
    codes.CAPPED: "the betting is capped",
    codes.OUT_OF_RANGE: "a {word} must be to {a}..{b}, got {total}",
    codes.OFF_UNIT: "bets come in units of {a}; {total} is not one",
    codes.UNKNOWN_ACTION: "unknown action code {code}",
    codes.TOO_FEW_ACTIONS: "the actions ran out: seat {seat} is to act",
    codes.STRADDLE_OUT_OF_ORDER: "this straddle must come from seat {a}, {side} of seat {b}",
    codes.STRADDLE_AFTER_POST: "seat {seat} has already posted a blind or straddle",
    codes.STRADDLE_NOT_A_RAISE: "a straddle must be a raise: at least {a}, got {b}",
    codes.STRADDLE_NOT_COVERED: "seat {seat} cannot cover a straddle of {b}",
    codes.OUT_OF_TURN: "seat {seat} acted out of turn: seat {a} is to act",
    codes.WRONG_ROUND: (
        "an action of betting round {given} while round {round} is bet: "
        "seat {seat} is to act in round {round}"
    ),
}


def reason(status: int, **numbers: object) -> str:
    """The one-line reason for ``status`` (a refusal code of :mod:`simulations.rules.codes`)
    with its named numbers filled in."""
    return REASONS[status].format(**numbers)


def straddle_side(rule: int) -> str:
    """Where a re-straddle sits from the last straddle: left under live straddles
    (codes.STRADDLES_LIVE), right under Mississippi straddles."""
    return "left" if rule == codes.STRADDLES_LIVE else "right"
