"""Pictures of the cardroom-economics results (``--plot FILE.png``): the bad-beat jackpot's
frequency by qualifier beside the hands showing one qualifying hand, and its size at a hit
or the hands between hits; rake policies side by side."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from service.pictures import _pyplot, save
from workers.job import Job


def jackpot_picture(job: Job, report: Mapping[str, Any], path: Path) -> None:
    """Every bad-beat job: for each qualifier judged, the share of hands showing one
    qualifying losing hand and the share of jackpot hands (two qualifying hands, the loser's
    beaten), each with its 95 % interval; beside it, with a policy the jackpot's size when it
    hits, else the hands from one hit to the next (quantiles with their intervals)."""
    plt = _pyplot()
    figure, (frequency, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    levels = report["levels"]
    names = [_plain(level["losing_hand"]) for level in levels]
    width = 0.38
    series = (
        ("qualifying", "one qualifying losing hand shown", "#8fb3d9"),
        ("", "jackpot hands: two qualifying hands", "#3b6ea5"),
    )
    shown: list[float] = []
    for j, (prefix, label, colour) in enumerate(series):
        key = f"{prefix}_" if prefix else ""
        share = [100 * level[f"{key}frequency"] for level in levels]
        below = [100 * (level[f"{key}frequency"] - level[f"{key}ci95_low"]) for level in levels]
        above = [100 * (level[f"{key}ci95_high"] - level[f"{key}frequency"]) for level in levels]
        xs = [x + (j - 0.5) * width for x in range(len(levels))]
        frequency.bar(xs, share, width, yerr=[below, above], capsize=3, color=colour, label=label)
        shown += [x for x in share if x > 0]
        for x, level in zip(xs, levels, strict=True):
            if level[f"{key}frequency"]:
                frequency.annotate(
                    f"1 in {1 / level[f'{key}frequency']:,.0f}",
                    (x, 100 * level[f"{key}ci95_high"]),
                    ha="center",
                    va="bottom",
                    fontsize="x-small",
                )
    frequency.set_xticks(range(len(levels)))
    frequency.set_xticklabels(names, rotation=30, ha="right", fontsize="small")
    frequency.set_ylabel("hands (%), 95 % interval")
    if shown and max(shown) > 20 * min(shown):
        frequency.set_yscale("log")
        frequency.set_ylim(top=30 * max(shown))  # room above the bars for the legend
    elif shown:
        frequency.set_ylim(top=1.4 * max(shown))
    frequency.legend(fontsize="small", loc="upper right")
    frequency.set_title("By losing hand: one qualifying hand, and the bad beat")
    policy = report.get("policy")
    if policy:
        _jackpot_size(right, policy)
    else:
        _waits(right, report["hands_between_hits"])
    figure.suptitle(_plain(job.model.describe()), fontsize="small")
    save(figure, path)


def _jackpot_size(size: Any, policy: Mapping[str, Any]) -> None:
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


def _waits(panel: Any, waits: Mapping[str, Any]) -> None:
    """The hands from one hit to the next: each quantile with its 95 % interval, and the
    mean with its interval."""
    quantiles = waits["quantiles"]
    if not quantiles:
        panel.text(0.5, 0.5, "no two hits to measure between", ha="center", va="center")
        panel.set_axis_off()
        return
    ys = [100 * q["q"] for q in quantiles]
    values = [q["value"] for q in quantiles]
    low = [q["value"] - q["ci95_low"] for q in quantiles]
    high = [q["ci95_high"] - q["value"] for q in quantiles]
    panel.errorbar(values, ys, xerr=[low, high], fmt="o", color="#3b6ea5", capsize=3)
    for value, y in zip(values, ys, strict=True):
        panel.annotate(f" {value:,.0f}", (value, y), va="bottom", fontsize="x-small")
    mean = waits["mean"]
    if mean is not None:
        panel.axvline(mean, color="black", linestyle="--", linewidth=1)
        panel.annotate(f" mean {mean:,.0f}", (mean, 2), fontsize="small")
    panel.set_ylim(0, 100)
    panel.set_xlim(left=0)
    from matplotlib import ticker  # matplotlib is optional: imported only to draw

    panel.xaxis.set_major_formatter(ticker.FuncFormatter(lambda x, _: f"{x:,.0f}"))
    panel.tick_params(axis="x", labelsize="small")
    panel.set_xlabel("hands from one jackpot hit to the next (95 % interval)")
    panel.set_ylabel("quantile (%)")
    panel.set_title(f"Hands between hits ({waits['count']:,} waits seen whole)")


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
