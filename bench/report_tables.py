"""The benchmark report's tables, each made from one script's JSON alone (bench/report.py).

A table is the median of the repeats with the range (lowest–highest) in brackets, computed
here from the times the script kept, beside the baselines timed in the same rounds.  The same
lines are the report's and the documentation's (the ``<!-- bench:NAME -->`` blocks of its pages).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from common import markdown_table
from common import rate as si

Data = Mapping[str, Any]
Lines = list[str]


def spread(values: Sequence[float], show: Callable[[float], str] = si) -> str:
    """The median and, in brackets, the lowest and the highest."""
    return f"{show(statistics.median(values))} ({show(min(values))}–{show(max(values))})"


def stored_spread(s: Data, show: Callable[[float], str] = si) -> str:
    """A spread the script kept as ``{median, low, high}``."""
    return f"{show(s['median'])} ({show(s['low'])}–{show(s['high'])})"


def times(ratio: float) -> str:
    if ratio >= 100:
        return f"{ratio:,.0f}×"
    if ratio >= 10:
        return f"{ratio:.1f}×"
    return f"{ratio:.2f}×" if ratio >= 0.01 else f"{ratio:.4f}×"


def rates(count: float, seconds: Sequence[float]) -> list[float]:
    return [count / s for s in seconds]


def met(ok: bool) -> str:
    return "met" if ok else "**not met**"


def evaluators(data: Data) -> Lines:
    rows = []
    for e in data["evaluators"]:
        count = f"{e['hands_timed']:,}" + (
            " (prefix)" if e["hands_timed"] < data["config"]["hands"] else ""
        )
        name = e["name"].replace("ours, batch", "cardroom, batch")
        rows.append((name, f"`{e['call']}`", count, stored_spread(e["rate"]),
                     times(e["ratio_to_fastest_other"])))  # fmt: skip
    header = ("library", "call", "hands timed", "hands/s: median (range)",
              f"× {data['fastest_other']} (medians)")  # fmt: skip
    return markdown_table(header, "llrrr", rows)


def bad_beat(data: Data) -> Lines:
    one_core = data["bad_beat"][0]["seconds"]

    def by_round(r: Data) -> str:
        # The runners took turns, so each round's ratio compares two runs under one load.
        paired = [one / seconds for one, seconds in zip(one_core, r["seconds"], strict=True)]
        return spread(paired, times)

    rows = [
        (f"`{r['runner']}`", r["cpus"], f"{r['hands']:,}", stored_spread(r["rate"]), by_round(r))
        for r in data["bad_beat"]
    ]
    header = ("runner", "CPUs", "hands", "hands/s: median (range)", "× one core, by round")
    return markdown_table(header, "lrrrr", rows)


def rankings_low(data: Data) -> Lines:
    rows = []
    for r in data["results"]:
        target = "" if r["target_per_s"] is None else f"≥ {si(r['target_per_s'])}/s: "
        target += "" if r["met"] is None else met(r["met"])
        rows.append((r["system"], r["cards"], stored_spread(r["ours"]),
                     stored_spread(r["ours_checked"]), f"`{r['pokerkit_call']}`",
                     stored_spread(r["pokerkit"]), times(r["ratio"]), target))  # fmt: skip
    header = ("system", "cards", "cardroom, hands/s", "checked", "pokerkit call",
              "pokerkit, hands/s", "× pokerkit", "target")  # fmt: skip
    return markdown_table(header, "lrrrlrrl", rows)


def rankings_high(data: Data) -> Lines:
    rows = []
    for r in data["rows"]:
        ours = next(o for o in data["rows"] if o["hole"] == r["hole"] and o["name"] == "cardroom")
        ratio = ours["rate"]["median"] / r["rate"]["median"]
        ratio_cell = "" if r["name"] == "cardroom" else times(ratio)
        count = f"{r['hands']:,}"
        rows.append((r["hole"], r["name"], f"`{r['call']}`", count, stored_spread(r["rate"]),
                     ratio_cell, r["agrees"]))  # fmt: skip
    header = ("hole cards", "evaluator", "call", "hands timed", "hands/s: median (range)",
              "cardroom × (medians)", "same order")  # fmt: skip
    return markdown_table(header, "rlllrrl", rows)


def engine(data: Data) -> Lines:
    base = next(c for c in data["contenders"] if c["name"] == "pokerkit")
    base_rate = statistics.median(rates(base["hands"], base["seconds"]))
    rows = []
    for c in data["contenders"]:
        per = rates(c["hands"], c["seconds"])
        rows.append((c["name"], f"`{c['call']}`", f"{c['hands']:,}", spread(per),
                     times(statistics.median(per) / base_rate)))  # fmt: skip
    header = ("engine", "what is timed", "hands a pass", "hands/s: median (range)", "× pokerkit")
    return markdown_table(header, "llrrr", rows)


def guts(data: Data) -> Lines:
    found = data["times"]
    reference = next(v for k, v in found.items() if k.startswith("reference"))
    base = statistics.median(rates(reference["deals"], reference["times"]))
    rows = []
    for name, c in found.items():
        per = rates(c["deals"], c["times"])
        rows.append((name, f"{c['deals']:,}", spread(per), times(statistics.median(per) / base)))
    return markdown_table(("contender", "deals a pass", "deals/s: median (range)",
                           "× reference"), "lrrr", rows)  # fmt: skip


def exhaustion(data: Data) -> Lines:
    rows = []
    for s in data["scenarios"]:
        ref = next(c for c in s["contenders"] if c["name"] == "reference engine")
        base = statistics.median(rates(ref["hands"], ref["times"]))
        for c in s["contenders"]:
            per = rates(c["hands"], c["times"])
            rows.append((s["name"], c["name"], f"`{c['call']}`", f"{c['hands']:,}", spread(per),
                         times(statistics.median(per) / base)))  # fmt: skip
    header = ("model", "contender", "what is timed", "hands a pass", "hands/s: median (range)",
              "× engine")  # fmt: skip
    return markdown_table(header, "lllrrr", rows)


def economics(data: Data) -> Lines:
    found = data["times"]
    classic = found["classic|loop"]
    models = [k.split("|")[0] for k in found if k.endswith("|loop") and k != "classic|loop"]
    rows = []
    for name in models:
        loop, ref = found[f"{name}|loop"], found[f"{name}|reference"]
        per_loop = rates(loop["hands"], loop["times"])
        per_ref = rates(ref["hands"], ref["times"])
        # The loop against the classic kernel round by round: both met the same load.
        paired = [k / t for k, t in zip(classic["times"], loop["times"], strict=True)]
        ratio = statistics.median(per_loop) / statistics.median(per_ref)
        rows.append((name, spread(per_loop), spread(per_ref), times(ratio),
                     spread(paired, lambda x: f"{x:.3f}")))  # fmt: skip
    rows.append(("classic bad-beat kernel, nine to the river (for scale)",
                 spread(rates(classic["hands"], classic["times"])), "", "", "1"))  # fmt: skip
    header = ("model", "loop, hands/s", "reference (`Hand`), hands/s", "× reference",
              "× classic, by round")  # fmt: skip
    return markdown_table(header, "lrrrr", rows)


def ratio(x: float) -> str:
    """A ratio to pokerkit in the PHH tables."""
    return f"{x:.1f}×"


def phh(data: Data) -> Lines:
    rows = []
    for r in data["results"]:
        blocks, by_hand = r["methods"]["blocks"], r["methods"]["hand by hand"]
        per = 1e6 / r["hands"]
        rows.append((r["variant"], f"{r['hands']:,} of {r['total']:,}",
                     f"{per * statistics.median(blocks['pokerkit_seconds']):,.0f}",
                     f"{per * statistics.median(blocks['ours_seconds']):,.0f}",
                     f"**{spread(blocks['ratios'], ratio)}**",
                     f"≥ {r['target']:.0f}×, {met(blocks['met'])}",
                     spread(by_hand["ratios"], ratio)))  # fmt: skip
    header = ("variant", "hands", "pokerkit µs/hand", "ours µs/hand", "× pokerkit, in blocks",
              "target", "× pokerkit, hand by hand")  # fmt: skip
    left_out = [
        f"- {r['variant']}: " + "; ".join(f"{count} {why}" for why, count in r["left_out"].items())
        for r in data["results"]
        if r["left_out"]
    ]
    return [*markdown_table(header, "lrrrrlr", rows), "", "Hands left out, by reason:",
            *(left_out or ["- none"])]  # fmt: skip


def replay(data: Data) -> Lines:
    rows = []
    for r in data["results"]:
        per = 1e6 / r["hands"]
        us = {k: f"{per * statistics.median(v):,.0f}" for k, v in r["seconds"].items()}
        # 100x where the compiled path (read by compiled code, played by the kernel) takes
        # most hands; a report from before that column read the kernel's share.
        compiled = r.get("compiled_hands", r["kernel_hands"])
        target = 100.0 if compiled > 0.5 * r["hands"] else 10.0
        auto = statistics.median(r["ratio_auto"])
        rows.append((r["corpus"], f"{r['hands']:,}", f"{r['kernel_hands']:,}", f"{compiled:,}",
                     us["pokerkit"],
                     us["reference"], spread(r["ratio_reference"], ratio), us["auto"],
                     f"**{spread(r['ratio_auto'], ratio)}**",
                     f"≥ {target:.0f}×: {met(auto >= target)}"))  # fmt: skip
    header = ("corpus", "hands", "kernel", "read compiled", "pokerkit µs/hand",
              "reference µs/hand", "× pokerkit", "`auto` µs/hand", "× pokerkit",
              "target (median)")  # fmt: skip
    return markdown_table(header, "lrrrrrrrrl", rows)


def seconds(value: float) -> str:
    return f"{value:.2f} s"


def service(data: Data) -> Lines:
    hands, cpus = data["config"]["hands"], data["config"]["cpus"]
    direct, through = data["in_process"], data["service"][str(cpus)]
    rows = [
        (f"`RayRunner` in process, {cpus} CPUs", spread(direct, seconds),
         f"{si(hands / statistics.median(direct))} hands/s"),
        ("submitted to a running service and followed to the end", spread(through, seconds),
         f"{si(hands / statistics.median(through))} hands/s: overhead "
         f"{100 * (statistics.median(through) / statistics.median(direct) - 1):+.1f} %"),
    ]  # fmt: skip
    if "1" in data["service"] and cpus > 1:
        one = data["service"]["1"]
        rows.append(("the service with 1 worker CPU", spread(one, seconds),
                     f"{cpus} CPUs run {statistics.median(one) / statistics.median(through):.2f}×"
                     " as fast as 1"))  # fmt: skip
    memory = data.get("memory") or {}
    if memory:
        samples = ", ".join(f"{m:.0f} MiB at {100 * d:.0f} %" for d, m in memory["samples"])
        rows.append((f"server memory over a {memory['hands']:,}-hand job",
                     f"{memory['seconds']:.0f} s", samples))  # fmt: skip
    header = (f"measurement ({hands:,} hands)", "time: median (range)", "figure (medians)")
    return markdown_table(header, "lrl", rows)


def milliseconds(value: float) -> str:
    return f"{value * 1e3:.3f} ms"


def store(data: Data) -> Lines:
    shards = data["config"]["shards"]
    rows = [
        (f"`GetJob` now (one row), {shards:,} shards", f"{len(data['now']):,}",
         spread(data["now"], milliseconds)),
        ("the previous read (every shard row)", f"{len(data['before']):,}",
         spread(data["before"], milliseconds)),
    ]  # fmt: skip
    return markdown_table(("read", "calls", "server work a call: median (range)"), "lrr", rows)


def load(data: Data) -> Lines:
    servers = data["servers"]
    big, small = servers["stored"], servers["baseline"]

    def cells(kind: str, method: str) -> tuple[str, ...]:
        found = []
        for server in (big, small):
            m = server[kind][method]
            found += [spread(m["rate"], lambda x: f"{x:,.0f} /s"),
                      spread(m["p99"], lambda x: f"{x * 1e3:.0f} ms")]  # fmt: skip
        return tuple(found)

    rows = [
        ("SubmitJob, with WatchJob and GetJob", *cells("mixed", "SubmitJob")),
        ("GetJob, beside the jobs", *cells("mixed", "GetJob")),
        ("GetJob alone", *cells("alone", "GetJob")),
    ]
    mib = [f"{min(s['rss_bytes']) / 2**20:.0f}–{max(s['rss_bytes']) / 2**20:.0f} MiB"
           for s in (big, small)]  # fmt: skip
    rows.append(("server memory (VmRSS) over the rounds", mib[0], "", mib[1], ""))
    b, s = f"{big['stored']:,}", f"{small['stored']:,}"
    header = (f"calls ({data['config']['clients']} clients)", f"rate, {b} stored",
              f"p99, {b} stored", f"rate, {s} stored", f"p99, {s} stored")  # fmt: skip
    return markdown_table(header, "lrrrr", rows)


def scaling_costs(data: Data) -> Lines:
    def ms(x: float) -> str:
        return f"{x * 1e3:.2f} ms"

    config = data["config"]
    rows = [
        (f"c: one shard's compute ({config['shard_size']:,} hands)", spread(data["compute"], ms)),
        (f"o: Ray's cost per task ({config['tiny_shards']:,} tiny tasks, "
         f"{config['in_flight']} in flight)", spread(data["overhead"], ms)),
        ("d: the server's serial cost per shard", spread(data["serial"], ms)),
    ]  # fmt: skip
    return markdown_table(("per shard", "cost: median (range)"), "lr", rows)


def model(data: Data) -> tuple[float, float, float, int]:
    c, o, d = (statistics.median(data[k]) for k in ("compute", "overhead", "serial"))
    return c, o, d, data["config"]["shard_size"]


def scaling_prediction(data: Data) -> Lines:
    c, o, d, size = model(data)
    saturation = (c + o) / (d + o)
    rows = [
        (f"{n:,}", f"{si(min(n / (c + o), 1 / (d + o)) * size)} hands/s",
         "the server" if n > saturation else "the workers")
        for n in data["config"]["cores"]
    ]  # fmt: skip
    rows.append((f"n* = (c + o) / (d + o) = {saturation:,.0f}", "", "past it, the server"))
    return markdown_table(("worker cores", "predicted (medians of c, o, d)", "bound"), "rrl", rows)


def scaling_check(data: Data) -> Lines:
    c, o, d, size = model(data)
    predicted = 2 / (c + o + d) * size
    measured = data["rates"]
    job = f"{data['config']['hands']:,} hands, two nodes of one CPU"
    ratio = f"{statistics.median(measured) / predicted:.2f}"
    rows = [(job, f"{si(predicted)} hands/s", f"{spread(measured)} hands/s", ratio)]
    header = ("job", "predicted, 2 / (c + o + d) × S", "measured: median (range)", "of predicted")
    return markdown_table(header, "lrrr", rows)


BLOCKS: dict[str, tuple[str, Callable[[Data], Lines]]] = {
    "evaluators": ("run", evaluators),
    "bad-beat": ("run", bad_beat),
    "rankings-low": ("rankings-low", rankings_low),
    "rankings-high": ("rankings-high", rankings_high),
    "engine": ("engine", engine),
    "guts": ("guts", guts),
    "exhaustion": ("exhaustion", exhaustion),
    "economics": ("economics", economics),
    "phh": ("phh", phh),
    "replay": ("replay", replay),
    "service": ("service", service),
    "store": ("store", store),
    "load": ("load", load),
    "scaling-costs": ("scaling", scaling_costs),
    "scaling-prediction": ("scaling", scaling_prediction),
    "scaling-check": ("scaling", scaling_check),
}
BLOCKS_BY_SECTION: dict[str, tuple[str, ...]] = {
    section: tuple(block for block, (owner, _) in BLOCKS.items() if owner == section)
    for section in dict.fromkeys(owner for owner, _ in BLOCKS.values())
}
