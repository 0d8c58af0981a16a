"""Readable renderings of job results for a terminal: one renderer per kind, registered
with the kind in :mod:`service.kinds`, and helpers a kind's renderer or plot may use."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from workers.job import Job

BAR_WIDTH = 40


def _percent(x: float) -> str:
    return f"{100 * x:.5g} %"


def bad_beat_progress(estimate: Mapping[str, Any]) -> str:
    """The progress bar's note from a running estimate: how rare the jackpot looks so far."""
    one_in = estimate.get("one_in")
    return f"one in {one_in:,.0f}" if one_in is not None else ""


def render_guts(job: Job, report: Mapping[str, Any]) -> str:
    """Guts sessions: how long the games last, how big the pot grows, what each seat nets."""
    n = report["sessions"]
    lines = [
        f"Guts — {job.model.describe()}",
        f"  games          {n:,}: {report['ended']:,} ended, {report['censored']:,} stopped at "
        f"the deal limit, {report['pot_limit_stopped']:,} past the pot limit",
        f"  deals a game   mean {report['deals_mean']:.3f}, median {report['deals_median']}, "
        f"90 % {report['deals_p90']}, 99 % {report['deals_p99']}, most {report['deals_max']:,}",
        f"  largest pot    {report['largest_pot']:,}",
    ]
    for over in report["pot_over"]:
        lines.append(
            f"  pot > {over['times_ante']:>3}× ante {_percent(over['frequency'])} "
            f"(95 % CI {_percent(over['ci95_low'])} to {_percent(over['ci95_high'])})"
        )
    lines.append(
        f"  over the cap   {report['cap_hit_sessions']:,} games, {report['cap_hits']:,} times; "
        f"{report['set_aside_total']:,} chips set aside"
    )
    lines.append("  pot by deal    " + ", ".join(
        f"{row['deal']}: {row['mean_pot']:,.1f}" for row in report["pot_by_deal"][:10]
    ))  # fmt: skip
    for seat in report["seats"]:
        lines.append(
            f"  seat {seat['seat']:<2}        net {seat['mean_net']:+,.3f} a game "
            f"(sd {seat['sd_net']:,.1f}); {seat['policy']}"
        )
    found = report.get("equilibrium")
    if found is not None:
        lines.append(
            f"  equilibrium    stay with the best {100 * found['top']:.1f} %: "
            f"{found['threshold']}; seat 0 nets {found['value']:+.4f} a game, its best reply (top "
            f"{100 * found['best_reply_top']:.0f} %) {found['gain']:+.4f} more"
        )
    lines.append(f"  seed           {report['seed']}")
    return "\n".join(lines)


def guts_plot(job: Job, report: Mapping[str, Any]) -> str:
    """Deals per game as a text histogram."""
    return "  deals per game\n" + text_histogram(report["deals_histogram"][:30])


# The procedures of running out of cards, as a table's column heads.
_PROCEDURES = {
    "burns_reused": "burns dealt again",
    "community_card": "a community card",
    "burns_scrambled": "burns scrambled in",
    "reshuffled": "discards reshuffled",
    "bottom_card": "bottom card reached",
    "five_consecutive": "five-in-a-row rule",
}


def _share(event: Mapping[str, Any]) -> str:
    """A frequency and its 95 % interval, in per cent: ``12.345 (12.280–12.410)``; below
    0.01 % two significant digits (``0 (0–0.00038)``)."""

    def per_cent(x: float) -> str:
        x *= 100
        return "0" if x == 0 else f"{x:.2g}" if x < 0.01 else f"{x:.3f}"

    bounds = f"{per_cent(event['ci95_low'])}–{per_cent(event['ci95_high'])}"
    return f"{per_cent(event['frequency'])} ({bounds})"


def render_running_out(job: Job, report: Mapping[str, Any]) -> str:
    """How often a game runs out of cards: a row per number of players, the share of hands
    (per cent, with the 95 % interval) that needed each procedure of the rule."""
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
    names = [e["event"] for e in rows[0]["events"]] if rows else []
    cells = [[_share(e) for e in row["events"]] for row in rows]
    widths = [
        max([len(_PROCEDURES.get(name, name))] + [len(c[i]) for c in cells])
        for i, name in enumerate(names)
    ]
    head = "  players  live at last deal"
    head += "".join(f"  {_PROCEDURES.get(n, n):<{w}}" for n, w in zip(names, widths, strict=True))
    lines += ["", head.rstrip()]
    for row, cell in zip(rows, cells, strict=True):
        line = f"  {row['players']:>7}  {row['mean_live_last_deal']:>17.3f}"
        line += "".join(f"  {c:<{w}}" for c, w in zip(cell, widths, strict=True))
        lines.append(line.rstrip())
    if not names:
        lines.append("  (the deck holds every card these players can be dealt: it never runs out)")
    else:
        lines.append("  (per cent of hands, with the 95 % interval)")
    lines.append(f"  seed           {report['seed']}")
    return "\n".join(lines)


def render_plain(job: Job, report: Mapping[str, Any]) -> str:
    """Every report field on a line of its own: for a kind without a renderer of its own."""
    return "\n".join(f"{key:<14} {value}" for key, value in report.items())


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
