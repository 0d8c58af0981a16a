"""Pictures of job results (``cardroom run --plot FILE.png``): each kind's main distribution,
drawn with matplotlib, an optional dependency (``pip install 'cardroom[plot]'``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workers.job import Job


class PictureError(ValueError):
    """A picture cannot be drawn (no matplotlib, a kind without one, an unwritable file)."""


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        raise PictureError(
            "--plot: drawing needs matplotlib: pip install 'cardroom[plot]'"
        ) from None
    return plt


def check_target(path: Path) -> None:
    """Refuse a ``--plot`` target before the job runs, rather than after it: matplotlib
    missing, a format matplotlib does not write, or a folder that is not there or not
    writable."""
    plt = _pyplot()
    suffix = path.suffix.lower().removeprefix(".")
    formats = plt.figure().canvas.get_supported_filetypes()
    plt.close("all")
    if suffix not in formats:
        wanted = "a file name ending in .png" if not suffix else f"not .{suffix}"
        raise PictureError(f"--plot: {path}: {wanted} (it draws .png, .svg or .pdf)")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise PictureError(f"--plot: {path}: no folder {folder}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise PictureError(f"--plot: {path}: not writable")


def save(figure: Any, path: Path) -> None:
    """Write ``figure`` to ``path`` (PNG), naming the file when that fails."""
    try:
        figure.savefig(path, dpi=110, bbox_inches="tight")
    except OSError as err:
        raise PictureError(f"--plot: cannot write {path}: {err.strerror or err}") from None
    finally:
        _pyplot().close(figure)


def guts_picture(job: Job, report: Mapping[str, Any], path: Path) -> None:
    """Guts: how many deals a game lasts (the histogram), and the pot a game ends on as a
    survival curve on log-log axes (a straight line is a power-law tail: its slope is minus
    the tail index), with the tail's verdict written under it."""
    plt = _pyplot()
    figure, (deals, pots) = plt.subplots(1, 2, figsize=(12, 4.5))
    histogram = report["deals"]["histogram"]
    deals.bar([b["value"] for b in histogram], [b["count"] for b in histogram], color="#3b6ea5")
    deals.set_xlabel("deals in a game")
    deals.set_ylabel("games")
    deals.set_title(f"Deals per game ({report['sessions']:,} games)")
    final = report["final_pot"]
    bins = final["log_histogram"]
    total = sum(b["count"] for b in bins)
    xs: list[float] = []
    ys: list[float] = []
    left = total
    for b in bins:
        if b["low"] > 0 and left > 0:
            xs.append(b["low"])
            ys.append(left / total)
        left -= b["count"]
    pots.step(xs, ys, where="post", color="#a5503b")
    if xs and max(xs) > 100 * min(xs):  # a pot spread over decades: log-log axes
        pots.set_xscale("log")
    pots.set_yscale("log")
    pots.set_xlabel("final pot (chips)")
    pots.set_ylabel("share of games with at least this pot")
    pots.set_title(f"The pot a game ends on: {final['tail']}")
    note = final["tail_note"]
    pots.text(
        0.02, 0.02, _wrap(note, 70), transform=pots.transAxes, fontsize="x-small", va="bottom"
    )
    figure.suptitle(job.model.describe())
    save(figure, path)


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


def exhaustion_picture(job: Job, report: Mapping[str, Any], path: Path) -> None:
    """Running out of cards: for each number of players, the share of hands that reached
    the last deal and that had each outcome (stud) or needed each procedure (draw) of the
    rule, with its 95 % interval."""
    plt = _pyplot()
    rows = report["table"]
    names = [e["event"] for e in rows[0]["events"]] if rows else []
    series = ["reached_last_deal", *names]
    figure, axes = plt.subplots(figsize=(10, 4))
    width = 0.8 / len(series)
    for k, name in enumerate(series):
        xs = [row["players"] + (k - (len(series) - 1) / 2) * width for row in rows]
        found = [
            row["reached_last_deal"]
            if name == "reached_last_deal"
            else next(e for e in row["events"] if e["event"] == name)
            for row in rows
        ]
        share = [100 * e["frequency"] for e in found]
        below = [100 * (e["frequency"] - e["ci95_low"]) for e in found]
        above = [100 * (e["ci95_high"] - e["frequency"]) for e in found]
        axes.bar(xs, share, width, yerr=[below, above], capsize=2, label=name.replace("_", " "))
    axes.set_xticks([row["players"] for row in rows])
    axes.set_xlabel("players dealt in")
    axes.set_ylabel("hands (%)")
    counting = "one outcome per hand" if report["exclusive"] else "each counted apart"
    axes.set_title(
        f"{report['game_name']}: running out of cards under {report['rule']} ({counting})"
    )
    axes.legend(fontsize="small")
    figure.suptitle(report["policy"], fontsize="small")
    save(figure, path)
