"""Pictures of job results (``cardroom run --plot FILE.png``): each kind's main distribution,
drawn with matplotlib, an optional dependency (``pip install 'cardroom[plot]'``)."""

from __future__ import annotations

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


def save(figure: Any, path: Path) -> None:
    """Write ``figure`` to ``path`` (PNG), naming the file when that fails."""
    try:
        figure.savefig(path, dpi=110, bbox_inches="tight")
    except OSError as err:
        raise PictureError(f"--plot: cannot write {path}: {err.strerror or err}") from None
    finally:
        _pyplot().close(figure)


def guts_picture(job: Job, report: Mapping[str, Any], path: Path) -> None:
    """Guts: how many deals a game lasts (the histogram), and the mean pot each deal number
    is played for (a log scale: pots grow geometrically)."""
    plt = _pyplot()
    figure, (deals, pots) = plt.subplots(1, 2, figsize=(11, 4))
    histogram = report["deals_histogram"]
    deals.bar([b["value"] for b in histogram], [b["count"] for b in histogram], color="#3b6ea5")
    deals.set_xlabel("deals in a game")
    deals.set_ylabel("games")
    deals.set_title(f"Deals per game ({report['sessions']:,} games)")
    rows = report["pot_by_deal"]
    pots.plot([r["deal"] for r in rows], [r["mean_pot"] for r in rows], marker="o", ms=3)
    pots.set_yscale("log")
    pots.set_xlabel("deal number")
    pots.set_ylabel("mean pot (chips)")
    pots.set_title("The pot each deal is played for")
    figure.suptitle(job.model.describe())
    save(figure, path)


def exhaustion_picture(job: Job, report: Mapping[str, Any], path: Path) -> None:
    """Running out of cards: for each number of players, the share of hands that needed each
    procedure of the rule, with its 95 % interval."""
    plt = _pyplot()
    rows = report["table"]
    events = [e["event"] for e in rows[0]["events"]] if rows else []
    figure, axes = plt.subplots(figsize=(9, 4))
    width = 0.8 / max(1, len(events))
    for k, event in enumerate(events):
        xs = [row["players"] + (k - (len(events) - 1) / 2) * width for row in rows]
        found = [next(e for e in row["events"] if e["event"] == event) for row in rows]
        share = [100 * e["frequency"] for e in found]
        below = [100 * (e["frequency"] - e["ci95_low"]) for e in found]
        above = [100 * (e["ci95_high"] - e["frequency"]) for e in found]
        axes.bar(xs, share, width, yerr=[below, above], capsize=2, label=event.replace("_", " "))
    axes.set_xticks([row["players"] for row in rows])
    axes.set_xlabel("players dealt in")
    axes.set_ylabel("hands needing it (%)")
    axes.set_title(f"{report['game_name']}: running out of cards under {report['rule']}")
    axes.legend()
    figure.suptitle(report["policy"], fontsize="small")
    save(figure, path)
