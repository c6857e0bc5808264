"""Several flows through one bottleneck side by side (the fq-codel-4flows set-up): per
set-up and congestion control, each flow's goodput over its own life, the run's total
(every flow's bytes over the run) and Jain's fairness index over the flows' goodputs,
each side's mean over seeds with the difference relative to ns-3's. Rows are the runs
that carry flow_goodputs_bps (cc.cc --flows; lossy_side.run_point)."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any, Dict, Iterable, List, Tuple

from .compare import TOLERANCE, mean_ci


def jain(xs: List[float]) -> float:
    """Jain's index (Σx)² / (n Σx²): 1 when every flow gets the same, 1/n when one gets all."""
    square = sum(x * x for x in xs)
    return sum(xs) ** 2 / (len(xs) * square) if square > 0 else math.nan


def measures(run: Dict[str, Any]) -> Dict[str, float]:
    """One run's numbers: flow i's goodput as "flow i", the total and Jain's index."""
    flows = [float(x) for x in run["flow_goodputs_bps"]]
    return {**{f"flow {i}": g for i, g in enumerate(flows)}, "total": float(run["goodput_bps"]), "jain": jain(flows)}


def rows(ns3_runs: Iterable[Dict[str, Any]], lossy_runs: Iterable[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """One row per (set-up, cc, measure): each side's mean and CI over seeds, the
    difference relative to ns-3's and whether it is within compare.TOLERANCE."""
    values: Dict[Tuple[str, str, str], Dict[str, List[float]]] = defaultdict(lambda: defaultdict(list))
    for side, runs in (("ns3", ns3_runs), ("lossy", lossy_runs)):
        for run in runs:
            if len(run.get("flow_goodputs_bps") or []) > 1:
                for name, v in measures(run).items():
                    values[(run["setup"], run["cc"], name)][side].append(v)
    out = []
    for (setup, cc, name), sides in sorted(values.items()):
        row: Dict[str, Any] = {"setup": setup, "cc": cc, "measure": name}
        for side in ("ns3", "lossy"):
            mean, half = mean_ci(sides[side]) if sides.get(side) else (math.nan, math.nan)
            row.update({f"{side}_n": len(sides.get(side, [])), f"{side}_mean": mean, f"{side}_ci": half})
        diff = (row["lossy_mean"] - row["ns3_mean"]) / row["ns3_mean"] if row["ns3_mean"] > 0 else math.nan
        row["diff"] = diff
        row["within"] = "" if math.isnan(diff) else ("yes" if abs(diff) <= TOLERANCE else "no")
        out.append(row)
    return out


def markdown(table: List[Dict[str, Any]]) -> str:
    """Goodputs in Mb/s, Jain's index as it is; "-" where a side has no run."""
    lines = ["| set-up | CC | measure | ns-3 | lossy | difference | within 5 %? |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in table:
        scale, digits = (1.0, 4) if r["measure"] == "jain" else (1e6, 3)

        def cell(side: str) -> str:
            mean, half = r[f"{side}_mean"], r[f"{side}_ci"]
            if math.isnan(mean):
                return "-"
            return f"{mean / scale:.{digits}f}" + ("" if math.isnan(half) else f" ± {half / scale:.{digits}f}") \
                + f" (n={r[f'{side}_n']})"
        diff = "-" if math.isnan(r["diff"]) else f"{r['diff'] * 100:+.1f} %"
        name = "Jain's index" if r["measure"] == "jain" else f"{r['measure']} goodput, Mb/s"
        lines.append(f"| {r['setup']} | {r['cc']} | {name} | {cell('ns3')} | {cell('lossy')} | {diff} "
                     f"| {r['within'] or '-'} |")
    return "\n".join(lines) + "\n"


__all__ = ["jain", "markdown", "measures", "rows"]
