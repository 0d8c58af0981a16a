"""Readable renderings of the cardroom-economics results: the bad-beat jackpot at a table and
as a policy over time, and rake policies compared on the same hands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from workers.job import Job


def _per_cent(x: float | None, digits: int = 3) -> str:
    return "—" if x is None else f"{100 * x:.{digits}g} %"


def _chips(x: float | None) -> str:
    if x is None:
        return "never"
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:,.2f}"


def _hours(x: float | None) -> str:
    if x is None:
        return "never"
    return f"{x:,.1f} hours" if x < 48 else f"{x / 24:,.1f} days"


def _quantile_name(q: float) -> str:
    return "median" if q == 0.5 else f"{100 * q:g} %"


def _waits(waits: Mapping[str, Any]) -> str:
    """The hands between hits in a line: quantiles and the mean, each with its interval."""
    parts = []
    for q in waits["quantiles"]:
        parts.append(
            f"{_quantile_name(q['q'])} {q['value']:,.0f} ({q['ci95_low']:,.0f} to "
            f"{q['ci95_high']:,.0f})"
        )
    text = "hands at the qualifier: " + ", ".join(parts)
    if waits["mean"] is not None:
        text += (
            f"; mean {waits['mean']:,.0f} ({waits['mean_ci95_low']:,.0f} to "
            f"{waits['mean_ci95_high']:,.0f})"
        )
    return text


def _taken(taken: Mapping[str, Any]) -> str:
    """The take of a hand in a line: its quantiles, its mean with the mean's interval."""
    parts = [f"{_quantile_name(q['q'])} {q['value']:,.0f}" for q in taken["quantiles"]]
    mean = taken["mean"]
    if mean is not None:
        parts.append(
            f"mean {mean:,.3f} ({taken['mean_ci95_low']:,.3f} to {taken['mean_ci95_high']:,.3f})"
        )
    return ", ".join(parts) + f", at most {taken['maximum']:,.0f}"


def table_lines(table: Mapping[str, Any]) -> list[str]:
    """The table's course and each kind of player's tracked statistics."""
    lines = [
        f"  table          {_per_cent(table['flop_share'])} of hands see a flop "
        f"({table['players_per_flop']:.2f} players), {_per_cent(table['showdown_share'])} a "
        f"showdown; mean pot {table['mean_pot_bb']:,.1f} big blinds"
    ]
    for kind in table["kinds"]:
        lines.append(
            f"  {kind['name'][:13]:<13}  {kind['seats']} seats: VPIP {_per_cent(kind['vpip'])}, "
            f"flops {_per_cent(kind['saw_flop'])}, to showdown "
            f"{_per_cent(kind['went_to_showdown'])} of flops, wins {_per_cent(kind['won'])}"
        )
        lines.append(f"  {'':<13}  {kind['model']}")
    return lines


def render_jackpot(job: Job, report: Mapping[str, Any]) -> str:
    """The bad-beat jackpot: its frequency, each qualifier judged, the table's course, and
    the policy over time."""
    model: Any = job.model
    one_in = report["one_in"]
    lines = [
        f"Bad-beat jackpot — {model.describe()}",
        f"  qualifier      {model.describe_qualifier()}",
        f"  hands dealt    {report['hands']:,}",
        f"  jackpot hands  {report['jackpot_hands']:,}",
        f"  frequency      {_per_cent(report['frequency'], 5)}  (95 % CI "
        f"{_per_cent(report['ci95_low'], 5)} to {_per_cent(report['ci95_high'], 5)})",
        f"  one in         {f'{one_in:,.0f} hands' if one_in is not None else 'no jackpot hit'}",
        f"  qualifying     {report['qualifying_hands']:,} hands show a qualifying losing hand, "
        f"{_per_cent(report['qualifying_frequency'], 5)} (95 % CI "
        f"{_per_cent(report['qualifying_ci95_low'], 5)} to "
        f"{_per_cent(report['qualifying_ci95_high'], 5)})",
    ]
    waits = report["hands_between_hits"]
    if waits["count"]:
        lines.append(f"  hit to hit     {_waits(waits)}")
    levels = report.get("levels") or []
    if len(levels) > 1:
        lines.append(
            "  by qualifier   losing hand: jackpot hands, per cent (95 % CI); hands showing one"
        )
        width = max(28, *(len(level["losing_hand"]) for level in levels))
        for level in levels:
            lines.append(
                f"    {level['losing_hand']:<{width}} {level['jackpot_hands']:>9,}  "
                f"{_per_cent(level['frequency'], 4)} ({_per_cent(level['ci95_low'], 3)} to "
                f"{_per_cent(level['ci95_high'], 3)}); {level['qualifying_hands']:,} "
                f"{_per_cent(level['qualifying_frequency'], 4)}"
            )
    table = report.get("table")
    if table is not None:
        lines.append(f"  room           {model.describe_room()}")
        lines.extend(table_lines(table))
        lines.append(
            f"  house          {table['rake_per_hand']:,.3f} raked and "
            f"{table['drop_per_hand']:,.3f} dropped a hand; "
            f"{_per_cent(table['conditions_met'])} of hands meet the room's conditions"
        )
        if table["rake_taken"]["maximum"]:
            lines.append(f"  rake a hand    {_taken(table['rake_taken'])}")
    policy = report.get("policy")
    if policy is not None:
        lines.extend(policy_lines(model.describe_policy(), policy))
    lines.append(f"  seed           {report['seed']}")
    return "\n".join(lines)


def _between(
    mid: float | None, low: float | None, high: float | None, show: Any, bound: Any
) -> str:
    """An estimate with its 95 % interval (``show`` the estimate, ``bound`` its ends); with
    no hit seen (no estimate) the bound the hands dealt give, and an interval with no upper
    end as 'or more'."""
    if mid is None:
        return f"at least {show(low)} (95 %)" if low is not None else "unknown"
    if high is None:
        return f"{show(mid)} ({bound(low)} or more)"
    return f"{show(mid)} ({bound(low)} to {bound(high)})"


def policy_lines(description: str, policy: Mapping[str, Any]) -> list[str]:
    quantiles = {round(q["q"], 3): q["value"] for q in policy["jackpot_quantiles"]}
    hit = policy["hands_between_hits"] is not None
    lines = [f"  policy         {description}"]
    hands = _between(
        policy["hands_between_hits"],
        policy["hands_between_hits_ci95_low"],
        policy["hands_between_hits_ci95_high"],
        lambda x: f"{_chips(x)} hands",
        _chips,
    )
    hours = _between(
        policy["hours_between_hits"],
        policy["hours_between_hits_ci95_low"],
        policy["hours_between_hits_ci95_high"],
        _hours,
        _hours,
    )
    if hit:
        lines.append(f"  between hits   {hands}, {hours}")
    else:
        lines.append(f"  between hits   no hit in the hands dealt: {hands}, {hours}")
    if policy["jackpot_mean"] is not None:
        high = policy["jackpot_ci95_high"]
        upper = f"to {_chips(high)}" if high is not None else "or more"
        lines.append(
            f"  at a hit       mean {_chips(policy['jackpot_mean'])} "
            f"(95 % CI {_chips(policy['jackpot_ci95_low'])} {upper})"
            + (
                f"; median {_chips(quantiles.get(0.5))}, 90 % {_chips(quantiles.get(0.9))}, "
                f"99 % {_chips(quantiles.get(0.99))}"
                if quantiles
                else ""
            )
        )
    elif policy["jackpot_ci95_low"] is not None:
        lines.append(
            f"  at a hit       no hit to measure; the jackpot would average at least "
            f"{_chips(policy['jackpot_ci95_low'])} (95 %)"
        )
    if len(policy["hit_levels"]) > 1 and hit:
        lines.append(
            "  hits come at   "
            + ", ".join(f"{h['losing_hand']} {_per_cent(h['share'])}" for h in policy["hit_levels"])
        )
    returned = policy["returned_share"]
    if returned is not None:
        back = f"{_per_cent(returned)} of it paid back in jackpots"
    elif policy["drop_per_hand"]:
        back = "none of it paid back yet: no hit in the hands dealt"
    else:
        back = "nothing dropped"
    lines.append(
        f"  drop           {policy['drop_per_hand']:,.3f} a hand, {policy['drop_per_hour']:,.1f} "
        f"an hour in the room; {back}"
    )
    for kind in policy["kinds"]:
        lines.append(
            f"  {kind['name'][:13]:<13}  gets {kind['received_bb100']:+.3f} big blinds per 100 "
            f"hands from the jackpot, pays {kind['drop_paid_bb100']:.3f} into it: net "
            f"{kind['net_bb100']:+.3f}"
        )
    return lines


def _interval(row: Mapping[str, Any], key: str, digits: int = 3) -> str:
    mean, half = row[key], row[f"{key}_ci95"]
    return f"{mean:,.{digits}f} ± {half:,.{digits}f}"


def render_policies(job: Job, report: Mapping[str, Any]) -> str:
    """Rake policies on the same hands: each one's take, and its difference from the first
    with the paired interval, and what it costs each kind of player."""
    model: Any = job.model
    lines = [
        f"Rake policies — {model.describe()}",
        f"  hands          {report['hands']:,} (every policy settles the same hands)",
        f"  room           {model.describe_room()}",
    ]
    lines.extend(table_lines(report["table"]))
    policies: Sequence[Mapping[str, Any]] = report["policies"]
    for row in policies:
        lines.append(f"  {row['name']}")
        lines.append(f"    {row['rule']}")
        lines.append(
            f"    a hand {_interval(row, 'per_hand')}; per 100 hands "
            f"{row['per_100_hands']:,.1f}; {row['bb_per_100_per_player']:.3f} big blinds per 100 "
            f"per player; {_per_cent(row['raked_share'])} of pots raked, "
            f"{_per_cent(row['capped_share'])} capped"
        )
        if row["rake_taken"]["maximum"]:
            lines.append(f"    rake a hand {_taken(row['rake_taken'])}")
        if row["drop_per_hour"]:
            lines.append(f"    jackpot drop {row['drop_per_hour']:,.1f} an hour in the room")
        if row is not policies[0]:
            lines.append(
                f"    against {policies[0]['name']}: {_interval(row, 'difference')} a hand "
                f"(paired; unpaired ± {row['difference_unpaired_ci95']:,.3f})"
            )
        for kind in row["kinds"]:
            extra = ""
            if row is not policies[0]:
                extra = f", {kind['difference_bb100']:+.3f} ± {kind['difference_bb100_ci95']:.3f}"
            lines.append(
                f"    {kind['name'][:13]:<13} pays {kind['paid_bb100']:.3f} big blinds per 100 "
                f"hands{extra}"
            )
    lines.append(f"  seed           {report['seed']}")
    return "\n".join(lines)
