"""Readable renderings of job results for a terminal."""

from __future__ import annotations

from typing import Any

from workers.job import Job


def _percent(x: float) -> str:
    return f"{100 * x:.5g} %"


def render_bad_beat(job: Job, report: dict[str, Any]) -> str:
    rules = getattr(job.model, "rules", None)
    one_in = report["one_in"]
    lines = [
        f"Bad-beat jackpot — {job.model.describe()}",
        f"  qualifier      {rules.describe() if rules is not None else ''}",
        f"  hands dealt    {report['hands']:,}",
        f"  jackpot hands  {report['jackpot_hands']:,}",
        f"  frequency      {_percent(report['frequency'])}"
        f"  (95 % CI {_percent(report['ci95_low'])} to {_percent(report['ci95_high'])})",
        f"  one in         {f'{one_in:,.0f} hands' if one_in is not None else 'no jackpot hit'}",
        f"  seed           {report['seed']}",
    ]
    return "\n".join(lines)


RENDERERS = {"bad_beat": render_bad_beat}


def render(job: Job, report: dict[str, Any]) -> str:
    renderer = RENDERERS.get(job.kind)
    if renderer is None:
        return "\n".join(f"{k:<14} {v}" for k, v in report.items())
    return renderer(job, report)
