"""The side-by-side table: per set-up, congestion control and loss rate, ns-3's and
lossy's mean goodput over seeds with 95 % confidence intervals (Student's t), the
difference of the means relative to ns-3's, and whether it is within TOLERANCE; and the
window (mean and peak, in segments) on ns-3's own set-ups."""

from __future__ import annotations

import csv
import math
from collections import defaultdict
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Tuple

TOLERANCE = 0.05  # issue 29: mean goodput within 5 % of ns-3's

Key = Tuple[str, str, float]  # set-up, cc, p


def mean_ci(xs: List[float]) -> Tuple[float, float]:
    """The mean and the half-width of its 95 % CI (NaN with fewer than two values)."""
    from scipy.stats import t  # scipy only when a table is made

    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, math.nan
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    return mean, float(t.ppf(0.975, n - 1)) * sd / math.sqrt(n)


def by_point(runs: Iterable[Dict[str, Any]]) -> Dict[Key, List[float]]:
    points: Dict[Key, List[float]] = defaultdict(list)
    for run in runs:
        points[(run["setup"], run["cc"], round(float(run["p"]), 9))].append(float(run["goodput_bps"]))
    return points


def rows(ns3_runs: Iterable[Dict[str, Any]], lossy_runs: Iterable[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """One row per point either side has: the two means and CIs, the difference, verdict."""
    ns3, ours = by_point(ns3_runs), by_point(lossy_runs)
    out = []
    for key in sorted(set(ns3) | set(ours), key=lambda k: (k[0], k[1], k[2])):
        row: Dict[str, Any] = {"setup": key[0], "cc": key[1], "p": key[2]}
        for side, points in (("ns3", ns3), ("lossy", ours)):
            mean, half = mean_ci(points[key]) if key in points else (math.nan, math.nan)
            row.update({f"{side}_n": len(points.get(key, [])), f"{side}_mean_bps": mean, f"{side}_ci_bps": half})
        diff = (row["lossy_mean_bps"] - row["ns3_mean_bps"]) / row["ns3_mean_bps"] \
            if row["ns3_mean_bps"] > 0 and not math.isnan(row["lossy_mean_bps"]) else math.nan
        row["diff"] = diff
        row["within"] = "" if math.isnan(diff) else ("yes" if abs(diff) <= TOLERANCE else "no")
        out.append(row)
    return out


def _mbps(mean: float, half: float) -> str:
    if math.isnan(mean):
        return "-"
    return f"{mean / 1e6:.3f}" + ("" if math.isnan(half) else f" ± {half / 1e6:.3f}")


def markdown(table: List[Dict[str, Any]]) -> str:
    lines = ["| set-up | CC | p | ns-3 goodput, Mb/s | lossy goodput, Mb/s | difference | within 5 %? |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in table:
        diff = "-" if math.isnan(r["diff"]) else f"{r['diff'] * 100:+.1f} %"
        lines.append(f"| {r['setup']} | {r['cc']} | {r['p']:g} | {_mbps(r['ns3_mean_bps'], r['ns3_ci_bps'])} "
                     f"(n={r['ns3_n']}) | {_mbps(r['lossy_mean_bps'], r['lossy_ci_bps'])} (n={r['lossy_n']}) "
                     f"| {diff} | {r['within'] or '-'} |")
    return "\n".join(lines) + "\n"


def windows(ns3_runs: Iterable[Dict[str, Any]], lossy_runs: Iterable[Dict[str, Any]]) -> str:
    """The window on ns-3's loss-free set-ups, in segments (ns-3's bytes ÷ MSS): its
    time-weighted mean and its peak, each side's mean over seeds; "-" where a side has no
    run."""
    sides: Dict[Tuple[str, str], Dict[str, List[Tuple[float, float]]]] = defaultdict(lambda: defaultdict(list))
    for side, runs in (("ns3", ns3_runs), ("lossy", lossy_runs)):
        for run in runs:
            if run["setup"] != "lossy-path":
                sides[(run["setup"], run["cc"])][side].append((float(run["cwnd_mean_segs"]),
                                                                float(run["cwnd_peak_segs"])))

    def cell(values: List[Tuple[float, float]]) -> str:
        if not values:
            return "-"
        return f"{sum(v[0] for v in values) / len(values):.1f} / {sum(v[1] for v in values) / len(values):.1f}"

    lines = ["| set-up | CC | ns-3 cwnd mean / peak, segments | lossy cwnd mean / peak, segments |",
             "| --- | --- | --- | --- |"]
    lines += [f"| {setup} | {cc} | {cell(v['ns3'])} | {cell(v['lossy'])} |" for (setup, cc), v in sorted(sides.items())]
    return "\n".join(lines) + "\n"


def write(table: List[Dict[str, Any]], folder: Path, notes: Optional[List[str]] = None,
          extra: str = "") -> List[Path]:
    """ns3-compare.csv (every column) and ns3-compare.md (the table and the notes)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "ns3-compare.csv", folder / "ns3-compare.md"]
    with written[0].open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(table[0]) if table else ["setup"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(table)
    text = markdown(table) + ("\n" + extra if extra else "") + "".join(f"\n- {note}" for note in (notes or []))
    written[1].write_text(text + ("\n" if notes else ""))
    return written
