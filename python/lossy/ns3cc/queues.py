"""The bottleneck queue side by side (issue 29's AQM rows): per set-up and congestion
control, each side's mean over seeds of the queue's time-weighted length, its sojourn
percentiles (arrival to start of service, lossy's `queue_delay.rs` definition, which
cc.cc's queue_delay.h measures the same way) and the packets the path's queues dropped.
lossy's numbers are the bottleneck direction's link row; ns-3's are cc.cc's JSON."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any, Dict, Iterable, List, Tuple

# The queue columns both sides give, in the order the table shows them.
METRICS = ("queue_mean_pkts", "sojourn_p50_ms", "sojourn_p95_ms", "sojourn_p99_ms", "drops")


def lossy_columns(doc: Dict[str, Any], links: str, result: Any) -> Dict[str, Any]:
    """A lossy run's queue columns: the bottleneck's (the slowest link's, first of equals,
    as cc.cc picks it) forward direction, and the queue drops of every link."""
    rates = [_bps(spec.split(",")[0]) for spec in links.split(";")]
    a, b = doc["links"][rates.index(min(rates))]["between"]
    row = next(link for link in result.links if link["name"] == f"{a}->{b}")
    return {"queue_mean_pkts": row["queue_mean_packets"], "sojourn_p50_ms": row["sojourn_p50_ms"],
            "sojourn_p95_ms": row["sojourn_p95_ms"], "sojourn_p99_ms": row["sojourn_p99_ms"],
            "sojourn_mean_ms": row["sojourn_mean_ms"],
            "drops": sum(link["queue_drops"] for link in result.links)}


def ns3_drops(run: Dict[str, Any]) -> float:
    """ns-3's queue drops on the whole path: the queue disc's, the traffic-control layer's
    (a full device queue with no disc above it) and the device queues' own."""
    return float(run["aqm_drops"]) + float(run["tc_drops"]) + float(run["queue_drops"])


def _bps(text: str) -> float:
    for unit, scale in (("Gbps", 1e9), ("Mbps", 1e6), ("kbps", 1e3), ("bps", 1.0)):
        if text.endswith(unit):
            return float(text[:-len(unit)]) * scale
    raise ValueError(f"links: rate {text!r} has no unit")


def means(ns3_runs: Iterable[Dict[str, Any]], lossy_runs: Iterable[Dict[str, Any]]
          ) -> Dict[Tuple[str, str], Dict[str, Dict[str, float]]]:
    """(set-up, cc) -> side -> metric -> mean over seeds, for runs that carry the queue
    columns (the stored rows of a cc.cc from before them do not)."""
    sums: Dict[Tuple[str, str], Dict[str, Dict[str, List[float]]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for side, runs in (("ns3", ns3_runs), ("lossy", lossy_runs)):
        for run in runs:
            if run["setup"] == "lossy-path" or run.get("sojourn_p50_ms") is None \
                    or (isinstance(run["sojourn_p50_ms"], float) and math.isnan(run["sojourn_p50_ms"])):
                continue
            values = {m: float(run[m]) for m in METRICS if m != "drops"}
            values["drops"] = ns3_drops(run) if side == "ns3" else float(run["drops"])
            for m, v in values.items():
                sums[(run["setup"], run["cc"])][side][m].append(v)
    return {key: {side: {m: sum(v) / len(v) for m, v in metrics.items()} for side, metrics in sides.items()}
            for key, sides in sums.items()}


def markdown(ns3_runs: Iterable[Dict[str, Any]], lossy_runs: Iterable[Dict[str, Any]]) -> str:
    """The queue table: each metric as "ns-3 / lossy", "-" where a side has no run."""
    lines = ["| set-up | CC | queue mean, packets | sojourn p50, ms | sojourn p95, ms | sojourn p99, ms "
             "| queue drops |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for (setup, cc), sides in sorted(means(ns3_runs, lossy_runs).items()):
        cells = []
        for m in METRICS:
            pair = [sides[s][m] if s in sides else math.nan for s in ("ns3", "lossy")]
            digits = 0 if m == "drops" else (1 if m == "queue_mean_pkts" else 2)
            cells.append(" / ".join("-" if math.isnan(v) else f"{v:.{digits}f}" for v in pair))
        lines.append(f"| {setup} | {cc} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
