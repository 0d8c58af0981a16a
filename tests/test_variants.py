"""The registry of named variants and the command line that shows them: `cardroom games`,
`cardroom games show CODE` and `cardroom deal CODE`."""

from __future__ import annotations

import pytest

from service.cli import main
from simulations.engine.game import ActingOrder, ExhaustionRule
from simulations.engine.showdown import HIGH_LOW_EIGHT
from simulations.engine.variants import GUTS_VARIANTS, POKER_VARIANTS, variant

# The codes are part of the public format: a change here is a change of what a file means.
# PHH's codes where PHH names the game (NT, FT, PO, FO/8, F7S, F7S/8, FR, N2L1D, F2L3D, FB),
# the project's own in the same pattern otherwise; listed in `cardroom games` order.
STABLE = {
    "NT": ("no-limit", "high"),
    "FT": ("fixed-limit", "high"),
    "PT": ("pot-limit", "high"),
    "ST": ("spread-limit", "high"),
    "PO": ("pot-limit", "high"),
    "FO/8": ("fixed-limit", "high / ace-to-five low, 8 or better"),
    "PO/8": ("pot-limit", "high / ace-to-five low, 8 or better"),
    "P5O": ("pot-limit", "high"),
    "PCO": ("pot-limit", "high"),
    "FPIN": ("fixed-limit", "high"),
    "FCPIN/8": ("fixed-limit", "high / ace-to-five low, 8 or better"),
    "FTAH/8": ("fixed-limit", "high / ace-to-five low, 8 or better"),
    "FSUP": ("fixed-limit", "high"),
    "NRH": ("no-limit", "high (Royal hold'em)"),
    "FMAN": ("fixed-limit", "high (Manila)"),
    "PPIN": ("pot-limit", "high (Pinatubo)"),
    "FDB": ("fixed-limit", "high on board 1 / high on board 2"),
    "NO": ("no-limit", "high"),
    "F7S": ("fixed-limit", "high"),
    "F7S/8": ("fixed-limit", "high / ace-to-five low, 8 or better"),
    "FR": ("fixed-limit", "ace-to-five low"),
    "PLL": ("pot-limit", "ace-to-six low"),
    "F5S": ("fixed-limit", "high"),
    "F6S": ("fixed-limit", "high"),
    "FMS": ("fixed-limit", "high"),
    "FMX": ("fixed-limit", "high (Mexican stud)"),
    "F5CD": ("fixed-limit", "high"),
    "N2L1D": ("no-limit", "deuce-to-seven low"),
    "F2L3D": ("fixed-limit", "deuce-to-seven low"),
    "FA5L1D": ("fixed-limit", "ace-to-five low"),
    "FA5L3D": ("fixed-limit", "ace-to-five low"),
    "FCL": ("fixed-limit", "ace-to-five low"),
    "FA6L1D": ("fixed-limit", "ace-to-six low"),
    "FB": ("fixed-limit", "badugi"),
    "FJACK": ("fixed-limit", "high (Joker as the bug)"),
    "FANA": ("fixed-limit", "high"),
    "FANA-AFTER": ("fixed-limit", "high"),
    "FANA321": ("fixed-limit", "high"),
    "FANA321J": ("fixed-limit", "high (Jokers wild)"),
    "F5CD-HLD": ("fixed-limit", "high / ace-to-five low"),
    "FSHOT": ("fixed-limit", "high"),
    "FANA-ROLL": ("fixed-limit", "high"),
    "FFTQ": ("fixed-limit", "high (Follow the Queen)"),
    "F7S-LHW": ("fixed-limit", "high (Low hole card wild)"),
    "FSPIT": ("fixed-limit", "high (Spit in the ocean)"),
    "FCIN": ("fixed-limit", "high"),
    "FIRX": ("fixed-limit", "high"),
    "FTTT": ("fixed-limit", "high"),
    "FCHOW": ("fixed-limit", "high"),
    "FSIX": ("fixed-limit", "high"),
    "FLBP": ("fixed-limit", "high (Low board card wild)"),
    "FOTIS": ("fixed-limit", "high"),
    "F7S-BLIND": ("fixed-limit", "high"),
    "F7S-BLIND-HL": (
        "fixed-limit",
        "high (Bugs, double-ace flush) / ace-to-five low",
    ),
    "FOX/8": ("fixed-limit", "high / ace-to-five low, 8 or better"),
    "FOX": ("fixed-limit", "high"),
    "FBILL": ("fixed-limit", "high"),
    "FSHANG": ("fixed-limit", "high"),
    "FAUS": ("fixed-limit", "high"),
    "FCHI": ("fixed-limit", "high / high spade in the hole"),
    "FCHI-LOW": ("fixed-limit", "high / low spade in the hole"),
    "FA5L4B": ("fixed-limit", "ace-to-five low"),
    "FCHL/8": (
        "fixed-limit",
        "high (Joker as the bug) / ace-to-five low, 8 or better",
    ),
    "FCL2D": ("fixed-limit", "ace-to-five low"),
    "F7FLIP": ("fixed-limit", "high"),
    "FKEN/8": ("fixed-limit", "high / ace-to-five low, 8 or better"),
    "FSS": ("fixed-limit", "high (Shifting sands)"),
    "FCROC": ("fixed-limit", "high"),
    "FBUF": ("fixed-limit", "high"),
    "FMUR": ("fixed-limit", "high"),
    "PALL": ("pot-limit", "high"),
    "PZAN": ("pot-limit", "high"),
    "FCAN": ("fixed-limit", "high (Canadian stud)"),
    "F7S-DRP": ("fixed-limit", "high (Dr Pepper)"),
    "FSKIN/8": ("fixed-limit", "high / ace-to-five low, 8 or better"),
    "FSKIN": ("fixed-limit", "high / ace-to-five low"),
    "FCHOW/8": ("fixed-limit", "high / ace-to-five low, 8 or better"),
    "FMAN3": ("fixed-limit", "high (Manila)"),
    "PPIN3": ("pot-limit", "high (Pinatubo)"),
    "FMAN3-36": ("fixed-limit", "high (Manila with sixes)"),
    "FSPAN": ("fixed-limit", "high (Spanish hold'em)"),
    "FIND": ("fixed-limit", "high card"),
    "FEV/8": ("fixed-limit", "high / ace-to-five low, 8 or better"),
    "F5S-OPT/8": ("fixed-limit", "high / ace-to-five low, 8 or better"),
    "F5S-TIT/8": ("fixed-limit", "high / ace-to-five low, 8 or better"),
    "F6S-OPT": ("fixed-limit", "high"),
    "F7S-ENG": ("fixed-limit", "high"),
    "F7S-BASE": ("fixed-limit", "high (Baseball)"),
    "FJACK-PROG": ("fixed-limit", "high (Joker as the bug)"),
    "FJOHN": ("fixed-limit", "high (Joker as the bug)"),
    "FJBACK": ("fixed-limit", "high (Joker as the bug)"),
    "FQB": ("fixed-limit", "ace-to-five low"),
    "F7S-CC": ("fixed-limit", "high"),
    "FBITCH": ("fixed-limit", "high / high spade in the hole, queen first"),
    "F7S-NINE": ("fixed-limit", "high (Number Nine)"),
    "F7S-NINE-ADD": ("fixed-limit", "high (Number Nine, by addition)"),
    "F7S-COW": ("fixed-limit", "high / two-card"),
    "F7S-DRAFT": ("fixed-limit", "high"),
    "F7S-AUC/8": ("fixed-limit", "high / ace-to-five low, 8 or better"),
    "F7S-AUC-SB/8": ("fixed-limit", "high / ace-to-five low, 8 or better"),
}


# The guts games (kind = "guts"), after the poker games in `cardroom games` order: the
# structure column says guts, the showdown column the ranking.
GUTS_STABLE = {
    "G2": "two-card",
    "G2-SF": "two-card, straights and flushes",
    "G3": "three-card guts",
    "G3-POKER": "three-card guts, straight flush first",
    "G3-DEALER": "three-card guts",
    "G3-CHALLENGE": "three-card guts",
    "G3-WORST": "three-card guts",
    "G3-VICIOUS": "three-card guts",
    "G3-CAP50": "three-card guts",
}


def test_codes_are_stable_and_build_their_games() -> None:
    assert {code: (v.summary()["structure"], v.summary()["showdown"])
            for code, v in POKER_VARIANTS.items()} == STABLE  # fmt: skip
    guts = {code: (v.summary()["structure"], v.summary()["showdown"])
            for code, v in GUTS_VARIANTS.items()}  # fmt: skip
    assert guts == {code: ("guts", showdown) for code, showdown in GUTS_STABLE.items()}
    assert variant("F7S/8").game().showdown == HIGH_LOW_EIGHT
    assert variant("FR").game().acting_order is ActingOrder.LOW_SHOWING
    assert variant("F7S").game().exhaustion is ExhaustionRule.STUD_BURNS_THEN_COMMUNITY
    with pytest.raises(ValueError, match="'NLHE' is not a game code; the codes are NT, FT"):
        variant("NLHE")


def test_games_lists_and_shows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["CODE", "NAME", "PLAYERS"]
    assert [line.split()[0] for line in lines[1:]] == [*STABLE, *GUTS_STABLE]
    assert main(["games", "show", "F7S/8"]) == 0
    shown = capsys.readouterr().out
    assert "seventh street: burn, deal 1 down" in shown and "8 or better" in shown
    assert main(["games", "show", "FMAN"]) == 0
    shown = capsys.readouterr().out
    assert "32 cards (7 to A)" in shown and "high (Manila)" in shown


def test_deal_prints_a_hand_of_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    """Eight players of razz nobody folds in run out of cards: the log says so."""
    assert main(["deal", "FR", "--players", "8", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Fixed-limit razz, 8 players, seed 3")
    assert "the deck runs out on seventh street: 0 cards left, 1 burn cards dealt again, one " \
        "community card for everyone" in out  # fmt: skip
    assert "pays the bring-in" not in out and "posts the bring-in of 2" in out
    assert " wins " in out and " low" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["deal", "XX"], "'XX' is not a game code"),
        (["deal", "NT", "--players", "12"], "--players: NT is for 2 to 10 players, got 12"),
        (["games", "show"], "games show: which game?"),
        (["games", "show", "ZZ"], "'ZZ' is not a game code"),
    ],
)
def test_bad_codes_and_counts_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
