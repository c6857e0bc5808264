"""Figs. 5 and 6: rates over time from the throughput trace (1 s intervals of each
flow's useful data: TCP's in-order bytes, FECTCP's distinct symbols, UDP's datagrams)
and, per run, the mean rates in the windows the figures are about, with Jain's index
over the flows while both run."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import pandas as pd

from ...fairness import jain
from ..context import Context
from ..figures import Artifact, render_plot

JOIN_S = 60.0  # the second flow starts (sweeps.py)
SETTLE_S = 10.0  # left out after a start or stop, so windows hold steady rates
UDP_STOP_S = 180.0  # 2400 datagrams at 20 per second


def _rates(ctx: Context, sweep: str, row: "pd.Series[Any]") -> pd.DataFrame:
    """time_s, and one column of bit/s per flow (0 and 1)."""
    tr = ctx.trace(sweep, row, "throughput")
    wide = tr.pivot_table(index="time_s", columns="flow", values="bps").reset_index()
    return wide.rename(columns={0: "flow0", 1: "flow1"}).fillna(0.0)


def _mean(df: pd.DataFrame, column: str, lo: float, hi: float) -> float:
    sel = df[(df["time_s"] > lo) & (df["time_s"] <= hi)]
    return float(sel[column].mean()) if len(sel) else float("nan")


def windows(ctx: Context, sweep: str) -> pd.DataFrame:
    """Per run: each flow's mean rate alone and together, and Jain's index together."""
    rows = []
    for _, row in ctx.ok(sweep).iterrows():
        df = _rates(ctx, sweep, row)
        end = float(df["time_s"].max())
        together_hi = UDP_STOP_S if sweep == "fig6" else end
        both = df[(df["time_s"] > JOIN_S + SETTLE_S) & (df["time_s"] <= together_hi)]
        rows.append({
            "replication": int(row["replication"]),
            "FECTCP alone (b/s)": _mean(df, "flow0", SETTLE_S, JOIN_S),
            "FECTCP together (b/s)": _mean(df, "flow0", JOIN_S + SETTLE_S, together_hi),
            "other together (b/s)": _mean(df, "flow1", JOIN_S + SETTLE_S, together_hi),
            "Jain together": float(np.mean([jain([a, b]) for a, b in zip(both["flow0"], both["flow1"])])),
        })
    return pd.DataFrame(rows)


def summary(ctx: Context, sweep: str) -> Dict[str, float]:
    w = windows(ctx, sweep)
    return {c: float(w[c].mean()) for c in w.columns if c != "replication"}


def table(ctx: Context, sweep: str) -> pd.DataFrame:
    w = windows(ctx, sweep)
    out = w.copy()
    for c in out.columns:
        if c.endswith("(b/s)"):
            out[c] = (out[c] / 1e3).round(1)
    out.columns = [c.replace("(b/s)", "(kb/s)") for c in out.columns]
    out["Jain together"] = out["Jain together"].round(3)
    return out


@dataclass(frozen=True)
class FlowRates:
    """Each flow's rate over time in the first run, smoothed over `window_s`."""

    key: str
    sweep: str
    title: str
    names: Tuple[str, str]
    caption: str = ""
    window_s: float = 5.0

    kind = "time series"

    @property
    def needs(self) -> Sequence[str]:
        return (self.sweep,)

    def draw(self, ax: Any, ctx: Context) -> None:
        row = ctx.ok(self.sweep).sort_values("replication").iloc[0]
        df = _rates(ctx, self.sweep, row)
        n = max(1, int(round(self.window_s / float(np.median(np.diff(df["time_s"]))))))
        for col, name in zip(("flow0", "flow1"), self.names):
            ax.plot(df["time_s"], df[col].rolling(n, min_periods=1).mean() / 1e3, label=name)
        ax.set_xlabel("time (s)")
        ax.set_ylabel("rate (kb/s)")
        ax.grid(True, alpha=0.3)
        ax.legend(frameon=False)

    def render(self, ctx: Context) -> List[Artifact]:
        return render_plot(self, ctx, note=f"moving mean over {self.window_s:g} s; replication 0")
