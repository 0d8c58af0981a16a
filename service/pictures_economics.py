"""Pictures of the cardroom-economics results (``--plot FILE.png``): the bad-beat jackpot's
frequency by qualifier and its size at a hit; rake policies side by side."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from service.pictures import _pyplot, save
from workers.job import Job


def jackpot_picture(job: Job, report: Mapping[str, Any], path: Path) -> None:
    """The jackpot's frequency for each qualifier judged (a sweep: one in N hands, with the
    95 % interval), and with a policy the jackpot's size when it hits."""
    plt = _pyplot()
    policy = report.get("policy")
    figure, panels = plt.subplots(1, 2 if policy else 1, figsize=(12 if policy else 7, 4.5))
    frequency = panels[0] if policy else panels
    levels = report["levels"]
    names = [_plain(level["losing_hand"]) for level in levels]
    share = [100 * level["frequency"] for level in levels]
    below = [100 * (level["frequency"] - level["ci95_low"]) for level in levels]
    above = [100 * (level["ci95_high"] - level["frequency"]) for level in levels]
    frequency.bar(range(len(levels)), share, yerr=[below, above], capsize=3, color="#3b6ea5")
    frequency.set_xticks(range(len(levels)))
    frequency.set_xticklabels(names, rotation=30, ha="right", fontsize="small")
    frequency.set_ylabel("hands that hit (%)")
    shown = [x for x in share if x > 0]
    if shown and max(shown) > 50 * min(shown):
        frequency.set_yscale("log")
    frequency.set_title("Frequency by losing hand (or better)")
    for x, level in enumerate(levels):
        if level["frequency"]:
            frequency.annotate(
                f"1 in {1 / level['frequency']:,.0f}",
                (x, 100 * level["ci95_high"]),
                ha="center",
                va="bottom",
                fontsize="x-small",
            )
    if policy:
        size = panels[1]
        bars = policy["jackpot_histogram"]
        if bars:
            size.bar(
                [b["low"] for b in bars],
                [100 * b["share"] for b in bars],
                width=[b["high"] - b["low"] for b in bars],
                align="edge",
                color="#a55b3b",
            )
        mean = policy["jackpot_mean"]
        if mean is not None:
            size.axvline(mean, color="black", linestyle="--", linewidth=1)
            size.annotate(f" mean {mean:,.0f}", (mean, 0), va="bottom", fontsize="small")
        size.set_xlabel("jackpot when it hits (chips)")
        size.set_ylabel("hits (%)")
        hours = policy["hours_between_hits"]
        when = f"a hit every {hours:,.0f} hours" if hours is not None else "no hit expected"
        size.set_title(f"Jackpot size at a hit ({when})")
    figure.suptitle(_plain(job.model.describe()), fontsize="small")
    save(figure, path)


def _plain(text: str) -> str:
    """``text`` as matplotlib should print it: a dollar sign is not the start of a formula."""
    return text.replace("$", r"\$")


def policies_picture(job: Job, report: Mapping[str, Any], path: Path) -> None:
    """Each policy's take in big blinds per 100 hands per player, with its 95 % interval, and
    what it costs each kind of player."""
    plt = _pyplot()
    rows = report["policies"]
    figure, (take, kinds) = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    names = [_plain(row["name"]) for row in rows]
    values = [row["bb_per_100_per_player"] for row in rows]
    take.barh(range(len(rows)), values, color="#3b6ea5")
    take.set_yticks(range(len(rows)))
    take.set_yticklabels(names, fontsize="small")
    take.invert_yaxis()
    take.set_xlabel("big blinds per 100 hands per player")
    take.set_title("The house's take, each policy on the same hands")
    for y, v in enumerate(values):
        take.annotate(f" {v:.2f}", (v, y), va="center", fontsize="small")
    take.set_xlim(0, 1.15 * max([*values, 1e-9]))
    labels = [k["name"] for k in rows[0]["kinds"]]
    width = 0.8 / max(1, len(labels))
    for j, label in enumerate(labels):
        ys = [i + (j - (len(labels) - 1) / 2) * width for i in range(len(rows))]
        paid = [row["kinds"][j]["paid_bb100"] for row in rows]
        kinds.barh(ys, paid, width, label=label)
    kinds.set_xlabel("paid by each kind of player (big blinds per 100 hands)")
    kinds.set_title("Who pays it")
    kinds.legend(fontsize="small")
    figure.suptitle(_plain(job.model.describe()), fontsize="small")
    save(figure, path)
