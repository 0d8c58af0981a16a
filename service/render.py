"""Readable renderings of job results for a terminal: one renderer per kind, registered
with the kind in :mod:`service.kinds`, and helpers a kind's renderer or plot may use."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from simulations.models.distribution import describe, mean_words
from workers.job import Job

BAR_WIDTH = 40


def _percent(x: float) -> str:
    return f"{100 * x:.5g} %"


def bad_beat_progress(estimate: Mapping[str, Any]) -> str:
    """The progress bar's note from a running estimate: how rare the jackpot looks so far."""
    one_in = estimate.get("one_in")
    return f"one in {one_in:,.0f}" if one_in is not None else ""


def render_guts(job: Job, report: Mapping[str, Any]) -> str:
    """Guts sessions: how games end and how long they last, the pot they end on and its tail,
    the thresholds asked about, and what each seat nets."""
    n = report["sessions"]
    lines = [f"Guts — {job.model.describe()}", f"  games          {n:,}"]
    for ending in report["endings"]:
        lines.append(f"    {ending['ending']:<26} {ending['sessions']:>12,}  {_share(ending)} %")
    if report["inexact_sessions"]:
        lines.append(f"  note           {report['inexact_note']}")
    lines.append("  " + describe("deals a game", report["deals"]).replace("\n", "\n  "))
    for over in report["deals_over"]:
        lines.append(f"    deals > {over['deals']:<6,}  {_share(over)} %")
    lines.append("  " + describe("final pot", report["final_pot"], "chips").replace("\n", "\n  "))
    index = report.get("pot_tail_index")
    if index is not None:
        lines.append(
            f"    Hill tail index of the final pot {index['alpha']:.3g} "
            f"(95 % {index['ci95_low']:.3g}–{index['ci95_high']:.3g}, from the {index['k']:,} "
            "largest): below 1 no finite mean, below 2 no finite variance"
        )
    largest = report["largest_pot"]
    if largest["count"]:
        lines.append(f"  largest pot    {largest['maximum']:,.4g} chips")
    for over in report["pot_over"]:
        lines.append(f"    pot > {over['times_ante']:>5,}× ante  {_share(over)} %")
    lines.append(
        f"  over the cap   {report['cap_hit_sessions']:,} games, {report['cap_hits']:,} times; "
        f"{report['set_aside_total']:,} chips set aside"
    )
    lines.append("  pot by deal    " + ", ".join(
        f"{row['deal']}: {row['mean_pot']:,.4g}" for row in report["pot_by_deal"][:10]
    ))  # fmt: skip
    for seat in report["seats"]:
        net = seat["net"]
        median = next((q for q in net["quantiles"] if q["q"] == 0.5), None)
        said = f"median {median['value']:+,.4g}" if median else "no games"
        said += ", " + mean_words(net, lambda x: f"{x:+,.4g}")
        lines.append(f"  seat {seat['seat']:<2}        net {said}; {seat['policy']}")
    found = report.get("equilibrium")
    if found is not None:
        lines.append(
            f"  equilibrium    stay with the best {100 * found['top']:.1f} %: "
            f"{found['threshold']}; seat 0 nets {_chips(found['value'])} a game, its best reply "
            f"(top {100 * found['best_reply_top']:.0f} %) {_chips(found['gain'])} more"
        )
        unsettled = _unsettled(report["seats"])
        if unsettled:
            lines.append(f"                 {unsettled}")
    lines.append(f"  seed           {report['seed']}")
    return "\n".join(lines)


def _chips(x: float) -> str:
    """Chips a game, signed: whole chips with separators from a hundred up, else four
    significant digits (``+205,257,171``, ``+12.35``, ``-0.004321``)."""
    return f"{x:+,.0f}" if abs(x) >= 100 else f"{x:+.4g}"


def _unsettled(seats: Sequence[Mapping[str, Any]]) -> str:
    """What the equilibrium's figures are worth when the nets have a heavy tail: they are
    means over the search's games, and such a mean has no interval (or no limit)."""
    tails = {seat["net"].get("tail") for seat in seats}
    for tail in ("no finite mean", "finite mean, infinite variance", "undetermined"):
        if tail in tails:
            return (
                f"(the seats' nets: {tail}; these are means over the search's games, with no "
                "interval, and another search may give others far apart)"
            )
    return ""


def guts_plot(job: Job, report: Mapping[str, Any]) -> str:
    """Deals per game as a text histogram."""
    return "  deals per game\n" + text_histogram(report["deals"]["histogram"][:30])


# The procedures and outcomes of running out of cards, as a table's column heads.
_PROCEDURES = {
    "dealt_normally": "dealt from the stub",
    "burns_reused": "burns dealt again",
    "community_card": "a community card",
    "burns_scrambled": "burns scrambled in",
    "community_from_stub": "community off the stub",
    "community_after_scramble": "scrambled, then community",
    "reshuffled": "discards reshuffled",
    "bottom_card_withheld": "bottom card withheld",
    "five_consecutive": "fifth card held back",
    "five_consecutive_burn": "burn before a fifth",
    "reached_last_deal": "reached last deal",
}
# The numbers of the hand, as the second table's column heads.
_NUMBERS = {
    "live_last_deal": "live at last deal",
    "stub_last_deal": "stub then",
    "cards_needed_last_deal": "cards needed",
    "cards_short_last_deal": "cards short",
    "new_stubs": "new stubs",
}


def _share(event: Mapping[str, Any]) -> str:
    """A frequency and its 95 % interval, in per cent: ``12.345 (12.280–12.410)``; below
    0.01 % two significant digits (``0 (0–0.00038)``)."""

    def per_cent(x: float) -> str:
        x *= 100
        return "0" if x == 0 else f"{x:.2g}" if x < 0.01 else f"{x:.3f}"

    bounds = f"{per_cent(event['ci95_low'])}–{per_cent(event['ci95_high'])}"
    return f"{per_cent(event['frequency'])} ({bounds})"


def _spread(report: Mapping[str, Any]) -> str:
    """A bounded count's distribution in a cell: its mean and range, ``5.249 (1–8)``."""
    if not report["count"]:
        return "—"
    low, high = int(report["minimum"]), int(report["maximum"])
    return f"{report['mean']:.3f} ({low}–{high})"


def _columns(
    heads: Sequence[str], rows: Sequence[Sequence[str]], first: Sequence[int]
) -> list[str]:
    """A table: ``players`` right-aligned, then a column per head, as wide as it needs."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(heads)]
    lines = [
        ("  players" + "".join(f"  {h:<{w}}" for h, w in zip(heads, widths, strict=True))).rstrip()
    ]
    for players, row in zip(first, rows, strict=True):
        line = f"  {players:>7}" + "".join(f"  {c:<{w}}" for c, w in zip(row, widths, strict=True))
        lines.append(line.rstrip())
    return lines


def render_running_out(job: Job, report: Mapping[str, Any]) -> str:
    """How often a game runs out of cards: a row per number of players, the share of hands
    (per cent, with the 95 % interval) that reached the last deal and that had each outcome
    (stud: one per hand) or needed each procedure (draw: counted apart); then the hand's
    numbers at the last deal, each its mean and range."""
    house = []
    if report["draw_policy"]:
        house.append(
            "the bottom card " + ("dealt" if report["deals_bottom_card"] else "never dealt")
        )
        house.append(
            "five in a row " + ("allowed" if report["five_consecutive"] else "not allowed")
        )
    lines = [
        f"Running out of cards — {report['game_name']} ({report['game']})",
        f"  rule           {report['rule']}" + (f" ({', '.join(house)})" if house else ""),
        f"  policy         {report['policy']}",
    ]
    if report["draw_policy"]:
        lines.append(f"  draws          {report['draw_policy']}")
    lines.append(f"  hands          {report['hands']:,} at each number of players")
    rows = report["table"]
    players = [row["players"] for row in rows]
    names = [e["event"] for e in rows[0]["events"]] if rows else []
    heads = [_PROCEDURES["reached_last_deal"]] + [_PROCEDURES.get(n, n) for n in names]
    cells = [
        [_share(row["reached_last_deal"])] + [_share(e) for e in row["events"]] for row in rows
    ]
    lines += ["", *_columns(heads, cells, players)]
    if not names:
        lines.append("  (the deck holds every card these players can be dealt: it never runs out)")
    elif report["exclusive"]:
        lines.append("  (per cent of hands, with the 95 % interval; one outcome per hand)")
    else:
        lines.append("  (per cent of hands, with the 95 % interval; a hand may need several)")
    numbers = [[_spread(row[key]) for key in _NUMBERS] for row in rows]
    lines += ["", *_columns(list(_NUMBERS.values()), numbers, players)]
    lines.append("  (mean, with the range; at the last deal, of the hands that reached it)")
    lines.append(f"  seed           {report['seed']}")
    return "\n".join(lines)


def text_histogram(buckets: Sequence[Mapping[str, int]], width: int = BAR_WIDTH) -> str:
    """A histogram as a report holds it (``Counts.as_list()``: ``{"value", "count"}`` pairs)
    drawn one bar per value, the longest ``width`` characters; for a kind's plot function."""
    if not buckets:
        return "  (no values)"
    most = max(bucket["count"] for bucket in buckets)
    label = max(len(f"{bucket['value']:,}") for bucket in buckets)
    lines = []
    for bucket in buckets:
        bar = "█" * max(1, round(width * bucket["count"] / most))
        lines.append(f"  {bucket['value']:>{label},}  {bar} {bucket['count']:,}")
    return "\n".join(lines)
