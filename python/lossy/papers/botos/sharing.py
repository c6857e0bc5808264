"""Figs. 5 and 6: rates over time from the throughput trace (1 s intervals of each
flow's useful data: TCP's in-order bytes, FECTCP's distinct symbols, UDP's datagrams)
and, per run, each flow's mean rate in the windows the figures are about: FECTCP alone
(before the second flow starts) and both together. Jain's index (Jain, Chiu, Hawe 1984)
is taken over the two flows' mean rates together; the mean over the 1 s intervals of a
per-interval index is kept beside it as an extra metric, named as such (it counts every
interval's momentary imbalance, so it sits well below the index of the mean rates)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Sequence, Tuple

import numpy as np
import pandas as pd

from ...fairness import jain
from ..context import Context
from ..estimate import jackknife, mean_of, ratio_of
from ..figures import Artifact, render_plot
from ..judge import Measurement, Part

JOIN_S = 60.0  # the second flow starts (sweeps.py)
SETTLE_S = 10.0  # left out after a start or stop, so windows hold steady rates
UDP_STOP_S = 180.0  # 2400 datagrams at 20 per second

# The per-run rates the claims read (b/s), and the two fairness indices.
ALONE, TOGETHER, OTHER = "fectcp_alone_bps", "fectcp_together_bps", "other_together_bps"
JAIN, JAIN_INTERVALS = "jain_of_mean_rates", "jain_per_interval_mean"
SHOWN = {ALONE: "FECTCP alone (kb/s)", TOGETHER: "FECTCP together (kb/s)", OTHER: "other together (kb/s)",
         JAIN: "Jain's index of the mean rates together", JAIN_INTERVALS: "Jain per 1 s interval, mean (extra)"}


def _rates(ctx: Context, sweep: str, row: "pd.Series[Any]") -> pd.DataFrame:
    """time_s, and one column of bit/s per flow (0 and 1)."""
    tr = ctx.trace(sweep, row, "throughput")
    wide = tr.pivot_table(index="time_s", columns="flow", values="bps").reset_index()
    return wide.rename(columns={0: "flow0", 1: "flow1"}).fillna(0.0)


def _mean(df: pd.DataFrame, column: str, lo: float, hi: float) -> float:
    sel = df[(df["time_s"] > lo) & (df["time_s"] <= hi)]
    return float(sel[column].mean()) if len(sel) else float("nan")


def per_run(ctx: Context, sweep: str) -> pd.DataFrame:
    """One row per finished run: replication, status, the three mean rates and the two
    indices. Rows that carry the rates already (a claim's synthetic examples) are
    returned as they are."""
    runs = ctx[sweep]
    if {ALONE, TOGETHER, OTHER} <= set(runs.columns):
        return runs
    rows = []
    for _, row in ctx.ok(sweep).iterrows():
        df = _rates(ctx, sweep, row)
        end = float(df["time_s"].max())
        together_hi = UDP_STOP_S if sweep == "fig6" else end
        both = df[(df["time_s"] > JOIN_S + SETTLE_S) & (df["time_s"] <= together_hi)]
        fec, other = _mean(df, "flow0", JOIN_S + SETTLE_S, together_hi), _mean(df, "flow1", JOIN_S + SETTLE_S, together_hi)
        rows.append({"replication": int(row["replication"]), "status": "ok",
                     ALONE: _mean(df, "flow0", SETTLE_S, JOIN_S), TOGETHER: fec, OTHER: other,
                     JAIN: jain([fec, other]),
                     JAIN_INTERVALS: float(np.mean([jain([a, b]) for a, b in zip(both["flow0"], both["flow1"])]))})
    return pd.DataFrame(rows)


def table(ctx: Context, sweep: str) -> pd.DataFrame:
    """per_run for the reader: rates in kb/s, indices to three digits."""
    w = per_run(ctx, sweep)[["replication", ALONE, TOGETHER, OTHER, JAIN, JAIN_INTERVALS]].copy()
    for c in (ALONE, TOGETHER, OTHER):
        w[c] = (w[c] / 1e3).round(1)
    for c in (JAIN, JAIN_INTERVALS):
        w[c] = w[c].round(3)
    return w.rename(columns=SHOWN)


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


# --- the quantities of the Figs. 5–6 claims (one part each, over the runs) -------------


def share_ratio(ctx: Context, sweep: str = "fig5") -> Measurement:
    """The joining flow's mean rate ÷ FECTCP's while both run, paired by replication.
    The note gives Jain's index of the two mean rates (the standard definition, a function
    of this ratio) with its CI, and, where the runs have it, the extra metric: the mean
    over 1 s intervals of the per-interval index."""
    runs = per_run(ctx, sweep)
    stat = ratio_of(mean_of(OTHER), mean_of(TOGETHER))
    index = jackknife(runs, lambda df: jain([mean_of(TOGETHER)(df), mean_of(OTHER)(df)]))
    note = f"Jain's index of the two mean rates (Jain, Chiu, Hawe 1984): {index.text('')}"
    if JAIN_INTERVALS in runs.columns:
        note += (f"; extra metric, not Jain's index of the flows: the mean over 1 s intervals of the per-interval "
                 f"index, {jackknife(runs, mean_of(JAIN_INTERVALS)).text('')}")
    return Measurement([Part("TCP ÷ FECTCP, both running", jackknife(runs, stat))], note=note)


def yield_ratio(ctx: Context, sweep: str = "fig6") -> Measurement:
    """What FECTCP gives up when the UDP flow runs (its mean rate alone less together)
    ÷ the UDP flow's mean rate: 1 when it yields exactly what UDP takes."""
    alone, together, udp = mean_of(ALONE), mean_of(TOGETHER), mean_of(OTHER)
    stat = lambda df: (alone(df) - together(df)) / udp(df)  # noqa: E731
    return Measurement([Part("FECTCP's drop ÷ UDP's rate", jackknife(per_run(ctx, sweep), stat))])
