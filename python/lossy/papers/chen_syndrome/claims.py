"""Chen et al.'s claims (§6), each a check with its tolerance. The paper gives its
results as curves without numbers, so the tolerances are our reading of its words
("very close", "30–80 per cent more", "notable discrepancy", "20 per cent more
aggressively"), stated with each claim; none was tuned to our runs."""

from __future__ import annotations

from typing import Callable, Dict, List

import pandas as pd

from ...summary import ok_rows, summarize
from ..checks import all_of
from ..context import Context
from ..model import LegacyClaim as Claim
from ..verdict import Verdict

FLOWS = ["S1", "S2"]


def _means(df: pd.DataFrame, axis: str, flow: str) -> Dict[str, Dict[float, float]]:
    """Mean throughput of `flow` per scheme and value of `axis`."""
    out: Dict[str, Dict[float, float]] = {}
    for r in summarize(ok_rows(df), [axis, "scheme"], [flow]).to_dict("records"):
        out.setdefault(str(r["scheme"]), {})[float(r[axis])] = float(r["mean"])
    return out


def _ratio_band(sweep: str, axis: str, a: str, b: str, low: float, high: float,
                where: Callable[[float], bool] = lambda x: True,
                flows: List[str] = FLOWS) -> Callable[[Context], Verdict]:
    """mean(a) / mean(b) within [low, high] at every point `where` keeps, for each flow."""
    def check(runs: Context) -> Verdict:
        parts = []
        for flow in flows:
            m = _means(runs[sweep], axis, flow)
            if a not in m or b not in m:
                parts.append(Verdict.unchecked(f"no runs of {a} or {b}"))
                continue
            r = {x: v / m[b][x] for x, v in m[a].items() if where(x) and x in m[b]}
            if not r:
                parts.append(Verdict.unchecked(f"no points in the claimed range of {axis}"))
                continue
            outside = [x for x, v in r.items() if not low <= v <= high]
            ours = f"{min(r.values()):.2f}× to {max(r.values()):.2f}×"
            if not outside:
                parts.append(Verdict.of(True, ours, f"within {low:g}×–{high:g}× at every {axis}"))
                continue
            at = ", ".join(f"{x:g}" for x in outside)
            parts.append(Verdict.of(False, ours, f"outside {low:g}×–{high:g}× at {axis} = {at}"))
        return all_of(flows, parts)
    return check


def _s1_above_s2(sweep: str) -> Callable[[Context], Verdict]:
    def check(runs: Context) -> Verdict:
        s1, s2 = _means(runs[sweep], "p", "S1"), _means(runs[sweep], "p", "S2")
        ratios = {(scheme, p): v / s2[scheme][p] for scheme in s1 for p, v in s1[scheme].items()}
        ours = f"S1 ÷ S2 from {min(ratios.values()):.2f}× to {max(ratios.values()):.2f}×"
        below = [f"{scheme} at p = {p:g}" for (scheme, p), r in ratios.items() if r <= 1]
        if below:
            return Verdict.of(False, ours, "S1 not above S2 for " + ", ".join(below))
        return Verdict.of(True, ours, "S1 above S2 for every scheme at every p")
    return check


def _handoffs_least(runs: Context) -> Verdict:
    """Bytes acknowledged to S1 from the first hand-off to 2 s after the last outage
    ends, the mean over the replications: Syndrome's the most."""
    df = ok_rows(runs["handoffs"])
    per_run: Dict[str, List[float]] = {}
    for _, row in df.iterrows():
        seq = runs.trace("handoffs", row, "seq")
        acked = seq[(seq["flow"] == 0) & (seq["event_name"] == "acked")]
        span = acked[(acked["time_s"] >= 8.0) & (acked["time_s"] <= 26.2)]["seq"]
        per_run.setdefault(str(row["scheme"]), []).append(float(span.max() - span.min()) if len(span) else 0.0)
    if "syndrome" not in per_run:
        return Verdict.unchecked("no Syndrome run")
    got = {k: sum(v) / len(v) for k, v in per_run.items()}
    n = min(len(v) for v in per_run.values())
    ours = f"mean of {n}: " + "; ".join(f"{k} {v / 1e3:.0f} kB"
                                        for k, v in sorted(got.items(), key=lambda kv: -kv[1]))
    best = max(got, key=lambda k: got[k])
    return Verdict.of(best == "syndrome", ours, "Syndrome advances most over the hand-offs" if best == "syndrome"
                      else f"{best} advances more than Syndrome over the hand-offs")


def _near_snoop(runs: Context) -> Verdict:
    """Against both readings of Snoop: the issue's (first duplicate) and ns-2's (second)."""
    readings = ["snoop", "snoop-ns2"]
    return all_of(readings, [_ratio_band("base", "p", "syndrome", s, 0.90, 1.10)(runs) for s in readings])


def _above_reno(runs: Context, sweep: str = "base") -> Verdict:
    schemes = ["syndrome", "snoop"]
    return all_of(schemes, [_ratio_band(sweep, "p", s, "reno", 1.3, float("inf"), lambda p: p >= 0.05)(runs)
                            for s in schemes])


def _uplink_alike(runs: Context) -> Verdict:
    """Fig. 10's two findings on the scheme ratios hold with the data the other way."""
    return all_of(["near Snoop", "above Reno"],
                  [_ratio_band("uplink", "p", "syndrome", "snoop", 0.90, 1.10)(runs), _above_reno(runs, "uplink")])


def _duplicates(runs: Context) -> Verdict:
    def up_to(t: float) -> Callable[[float], bool]:
        return lambda d: d <= t

    below = all_of(["S1", "S2"], [_ratio_band("duplicates", "dup", "syndrome", "snoop", 0.95, 1.05,
                                              up_to(t), [flow])(runs)
                                  for flow, t in [("S1", 0.05), ("S2", 0.1)]])
    beyond = _ratio_band("duplicates", "dup", "syndrome", "snoop", 0.0, 1.2)(runs)
    return all_of(["below", "beyond"], [below, beyond])


CLAIMS: List[Claim] = [
    Claim("syndrome-near-snoop", "Syndrome's throughput is close to Snoop's over the whole range of p (Fig. 10)",
          "\"very close, and comparable\"", "0.90× to 1.10× at every p, S1 and S2",
          _near_snoop, sweeps=["base"],
          source="§6 on Fig. 10; ±10 % is our reading of \"very close\"; held against Snoop on the first "
                 "duplicate ACK and as ns-2 runs it (on the second)"),
    Claim("above-reno", "At high loss Syndrome and Snoop are 30–80 % above Reno (Fig. 10)",
          "1.3× to 1.8×", "each at least 1.3× Reno at p ≥ 0.05 (above 1.8× is reported, not failed)",
          _above_reno,
          sweeps=["base"], source="§6: \"30–80 per cent more than TCP senders in the case of high packet loss rates\""),
    Claim("s1-above-s2", "S1 → MH gets more throughput than S2 → MH, the longer-RTT connection (Fig. 10)",
          "S1 > S2", "for every scheme and p", _s1_above_s2("base"), sweeps=["base"],
          source="§6: \"TCP is in favor of small-RTT connections\""),
    Claim("full-near-snoop", "With reordering and duplication the full Syndrome stays close to Snoop (Fig. 11)",
          "\"comparable, sometimes slightly better\"", "0.90× to 1.15× at every p, S1 and S2",
          _ratio_band("full", "p", "syndrome", "snoop", 0.90, 1.15), sweeps=["full"],
          source="§6 on Fig. 11; the band leans up since Syndrome may err optimistically (Table 4)"),
    Claim("duplicates", "Syndrome departs notably from Snoop only beyond a duplicate probability of 0.05 (S1) and "
          "0.1 (S2), and then by at most about 20 % (Fig. 12)", "≤ 0.05 / ≤ 0.1: close; worst ≤ 1.2×",
          "0.95×–1.05× below the thresholds; at most 1.2× beyond",
          _duplicates,
          sweeps=["duplicates"], source="§6 on Fig. 12"),
    Claim("burst-near-snoop", "Under the burst loss model Syndrome stays close to Snoop (Fig. 13)",
          "\"comparable\"", "0.90× to 1.10× at every p, S1 and S2",
          _ratio_band("burst", "p", "syndrome", "snoop", 0.90, 1.10), sweeps=["burst"], source="§6 on Fig. 13"),
    Claim("handoffs", "Syndrome suffers least around the hand-offs (Fig. 14)", "Syndrome ahead",
          "most data acknowledged from 8 s to 26.2 s, mean over the replications", _handoffs_least,
          sweeps=["handoffs"], source="§6 on Fig. 14: \"suffers least during hand-off\""),
    Claim("uplink-alike", "MH → FH behaves as FH → MH: Syndrome close to Snoop and both above Reno at high loss",
          "\"similar behaviors\" (no figure)", "0.90×–1.10× of Snoop at every p; each ≥ 1.3× Reno at p ≥ 0.05",
          _uplink_alike, sweeps=["uplink"],
          source="§6: \"the performance in both directions (FH → MH and MH → FH) exhibits similar behaviors\""),
]
