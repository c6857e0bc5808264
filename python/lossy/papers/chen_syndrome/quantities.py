"""The quantities Chen et al.'s claims measure, each part an Estimate over replications
(estimate.jackknife; the schemes of one sweep are paired by replication): throughput
ratios of two schemes per loss rate and connection, S1 over S2, one direction over
the other, data advanced around the hand-offs, and the base station's state."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Sequence

import pandas as pd

from ...summary import ok_rows
from ..context import Context
from ..estimate import Statistic, jackknife, mean_of, ratio_of, select, values_of
from ..judge import Measurement, Part
from ..measures import joined, label_of, per_point, ratio_per_point

FLOWS = ["S1", "S2"]  # the sweeps' metric aliases: throughput (b/s) of S1 ↔ MH and S2 ↔ MH


def everywhere(x: Any) -> bool:
    return True


HIGH_LOSS = 0.05  # "in the case of high packet loss rates": Fig. 10's two highest p, 1/√p ≤ 4.5


def high(p: float) -> bool:
    return bool(p >= HIGH_LOSS - 1e-12)


def scheme_ratios(ctx: Context, sweep: str, pairs: Sequence[tuple[str, str]], axis: str = "p",
                  keep: Callable[[Any], bool] = everywhere, flows: Sequence[str] = FLOWS) -> Measurement:
    """treatment ÷ baseline throughput at each value of `axis` that `keep` keeps, for
    each (treatment, baseline) pair and connection."""
    labels, parts = [], []
    for treatment, baseline in pairs:
        for flow in flows:
            labels.append(f"{flow}, {treatment} ÷ {baseline}")
            parts.append(ratio_per_point(ctx, sweep, flow, "scheme", treatment, baseline, axis, keep))
    return joined(labels, parts)


def excess_percent(treatment: Statistic, baseline: Statistic) -> Statistic:
    """(treatment ÷ baseline − 1) in per cent."""
    ratio = ratio_of(treatment, baseline)
    return lambda df: 100 * (ratio(df) - 1)


def s1_over_s2(ctx: Context, sweep: str, schemes: Sequence[str]) -> Measurement:
    """S1's throughput ÷ S2's in the same runs, per scheme and p."""
    def at_every_p(scheme: str) -> Callable[[Any], Statistic]:
        stat = ratio_of(mean_of("S1", scheme=scheme), mean_of("S2", scheme=scheme))
        return lambda p: stat
    return joined(list(schemes), [per_point(ctx, sweep, "p", at_every_p(s)) for s in schemes])


def direction_ratios(ctx: Context, up: str, down: str, schemes: Sequence[str]) -> Measurement:
    """Each scheme's throughput MH → FH (sweep `up`) ÷ FH → MH (sweep `down`) per p and
    connection. The two sweeps' runs are independent; the jackknife leaves replication r
    out of both at once, which for independent samples gives the delta method's width."""
    both = pd.concat([ok_rows(ctx[up]).assign(direction="up"), ok_rows(ctx[down]).assign(direction="down")],
                     ignore_index=True)
    full = ctx.full_values(up, "p")
    present = values_of(both[both["direction"] == "up"], "p")
    label = label_of("p")
    parts: List[Part] = []
    for scheme in schemes:
        for flow in FLOWS:
            stat = ratio_of(mean_of(flow, direction="up", scheme=scheme), mean_of(flow, direction="down", scheme=scheme))
            parts += [Part(f"{flow}, {scheme}, {label(p)}", jackknife(select(both, {"p": p}), stat)) for p in present]
    missing = [] if full is None else [f"{label(p)}" for p in full if not any(abs(p - q) <= 1e-12 * p for q in present)]
    return Measurement(parts, missing)


# --- Fig. 14: data advanced around the hand-offs -------------------------------------

# From the first hand-off (8 s) to 2 s after the last outage ends (23 s + 1.2 s + 2 s).
HANDOFF_SPAN = (8.0, 26.2)


def advanced(ctx: Context, sweep: str) -> pd.DataFrame:
    """The sweep's ok runs with `advance_S1`, `advance_S2`: the bytes acknowledged to each
    connection over HANDOFF_SPAN, from its seq trace (synthetic rows carry the columns)."""
    rows = ok_rows(ctx[sweep])
    if all(f"advance_{f}" in rows.columns for f in FLOWS):
        return rows
    lo, hi = HANDOFF_SPAN
    values: Dict[str, List[float]] = {f: [] for f in FLOWS}
    for _, row in rows.iterrows():
        seq = ctx.trace(sweep, row, "seq")
        acked = seq[(seq["event_name"] == "acked") & (seq["time_s"] >= lo) & (seq["time_s"] <= hi)]
        for i, flow in enumerate(FLOWS):
            s = acked[acked["flow"] == i]["seq"]
            values[flow].append(float(s.max() - s.min()) if len(s) else 0.0)
    return rows.assign(**{f"advance_{f}": v for f, v in values.items()})


def handoff_ratios(ctx: Context, sweep: str, pairs: Sequence[tuple[str, str]]) -> Measurement:
    """treatment ÷ baseline of the data advanced over the hand-offs, per connection."""
    rows = advanced(ctx, sweep)
    return Measurement([Part(f"{flow}, {t} ÷ {b}", jackknife(rows, ratio_of(mean_of(f"advance_{flow}", scheme=t),
                                                                              mean_of(f"advance_{flow}", scheme=b))))
                        for t, b in pairs for flow in FLOWS])


# --- Table 1: the base station's state -------------------------------------------------

STATE = "agents.0.state_bytes_max"  # the agent's largest state over the run (B)
CONNECTIONS = "agents.0.syndrome_connections"  # connections Syndrome's counter has seen
COUNT_BYTES = 4  # §3: "The attached number could be made 32 bit long"


def state_ratio(ctx: Context, sweep: str, syndrome_state: Callable[[pd.DataFrame], float]) -> Measurement:
    """Snoop's largest state ÷ Syndrome's, per p (both over the same two connections, so
    the ratio is per connection). `syndrome_state` reads Syndrome's from its runs."""
    return per_point(ctx, sweep, "p", lambda p: ratio_of(mean_of(STATE, scheme="snoop"), syndrome_state))


def syndrome_state_kept(df: pd.DataFrame) -> float:
    """What our agent keeps: its largest state."""
    return mean_of(STATE, scheme="syndrome")(df)


def syndrome_count_only(df: pd.DataFrame) -> float:
    """The paper's reading: one 32-bit count per connection, no epoch."""
    return COUNT_BYTES * mean_of(CONNECTIONS, scheme="syndrome")(df)


__all__ = ["COUNT_BYTES", "FLOWS", "HANDOFF_SPAN", "HIGH_LOSS", "high", "advanced", "direction_ratios", "everywhere", "excess_percent",
           "handoff_ratios", "s1_over_s2", "scheme_ratios", "state_ratio", "syndrome_count_only",
           "syndrome_state_kept"]
