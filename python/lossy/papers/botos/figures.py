"""Figs. 1 and 3–6 of Botoș et al. and the studies beyond the paper: Fig. 1's distance
CDF, throughput (file size over transfer time) against segment loss per scheme at 20 and
100 ms under independent and Neyman Type A losses, the codes' measured overheads, the
two fairness time series, and FECTCP on a congested bottleneck."""

from __future__ import annotations

from typing import Any, Callable, List

import pandas as pd

from ...summary import ok_rows, summarize
from ..figures import Figure, LinePlot, Panels, Table, TimeSeries, table_of
from ..figures.palette import Palette
from . import losses, sharing
from .sweeps import CONGESTED_SECONDS, NEYMAN_ERRORS_PER_CLUSTER, TCP_FLOWS

SYMBOL_BYTES = 1460
SETUP = ("scenarios/botos.toml: server → router (100 Mbit/s) → AP (100 Mbit/s) → client over a 1 Mbit/s last hop "
         "whose data direction loses segments; 1500-byte packets; a 10 MB file (2 MB with --quick); FECTCP with the paper's 5 % code "
         "overhead; TCP as ns-2.35 (window 20 packets, minRTO 1 s); throughput = file size / transfer time "
         "(delivered bytes over the run when a transfer did not finish in 4000 s); mean of 10 runs, 95 % CI.")
NEYMAN = (f"Neyman Type A bit errors, {NEYMAN_ERRORS_PER_CLUSTER} errors per cluster on average, the cluster rate "
          "solved for the segment loss of 1500-byte packets.")


# Each scheme one look in every figure: FECTCP with the paper's 5 % overhead is the
# FECTCP of Figs. 3–6 and the defaults of the readings study.
PALETTE = Palette(["FECTCP", "Tahoe", "Reno", "NewReno", "SACK", "FECTCP, RaptorQ (measured)",
                   "FECTCP, LT (measured)", "UDP CBR, 20 kB/s"],
                  same={"FECTCP, 5 % (paper)": "FECTCP", "TCP Reno": "Reno",
                        "defaults (σ = std, mean of all RTTs, halve)": "FECTCP"})


def _only(column: str, value: Any) -> Callable[[pd.DataFrame], pd.DataFrame]:
    return lambda runs: runs[runs[column] == value]


def _vs_loss(key: str, sweep: str, title: str, delay: str) -> LinePlot:
    return LinePlot(key, sweep, title, x="loss", y="goodput", hue="scheme", xlabel="segment loss rate",
                    ylabel="throughput", logx=True, where=_only("delay", delay), palette=PALETTE)


def _wide(runs: pd.DataFrame) -> pd.DataFrame:
    s = summarize(ok_rows(runs), ["delay", "loss", "scheme"], ["goodput"])
    wide = s.pivot_table(index=["delay", "loss"], columns="scheme", values="mean").reset_index()
    for c in wide.columns[2:]:
        wide[c] = (wide[c] / 1e3).map("{:.1f}".format)
    return wide


def _figure(n: int, delay: str) -> Panels:
    return Panels(f"fig{n}", f"Fig. {n}: average throughput against segment loss, end-to-end delay {delay}",
                  [_vs_loss(f"fig{n}-independent", "independent", "independent losses", delay),
                   _vs_loss(f"fig{n}-neyman", "neyman", "Neyman Type A losses", delay),
                   _vs_loss(f"fig{n}-neyman-packets", "neyman-packets", "beyond: clusters over packets", delay)],
                  ncols=3, sharey=True,
                  caption=f"{SETUP} (b) {NEYMAN} With such short clusters losses of 1500-byte packets are nearly "
                          "independent (Fig. 1), so (b) is close to (a) by construction. (c) Beyond the paper: "
                          "clusters counted in packets, 2 lost packets per cluster over 4 packets, so about 45 % of "
                          "losses follow a loss.")


def _rates(key: str, title: str, other: str, caption: str) -> TimeSeries:
    """Figs. 5 and 6: both flows' rates over time in the first run, in kB/s (the paper
    states the UDP flow's rate as 20 kBps), a trailing 5 s mean of the 1 s intervals."""
    return TimeSeries(key, key, title, "throughput", "bps", select=lambda runs: runs.nsmallest(1, "replication"),
                      flows={0: "FECTCP", 1: other}, window_s=5.0, steps=False, ylabel="rate", unit="B/s",
                      scale=1 / 8, prefix="k", palette=PALETTE, caption=caption + " Replication 0.")


def fectcp_rate_bps(runs: pd.DataFrame) -> "pd.Series[Any]":
    """FECTCP's useful rate in a run that did not decode its file: distinct symbols over
    the run."""
    seconds = runs["sim_time_s"] if "sim_time_s" in runs.columns else CONGESTED_SECONDS
    return runs["fectcp_symbols"] * SYMBOL_BYTES * 8 / seconds


def congested_table(runs: pd.DataFrame) -> pd.DataFrame:
    ok = ok_rows(runs).assign(fectcp=lambda r: fectcp_rate_bps(r))
    rows = []
    for queue, g in ok.groupby("queue", sort=False):
        fec, tcp = float(g["fectcp"].mean()), float(g["tcp_mean"].mean())
        rows.append({"queue": queue, "FECTCP (Mb/s)": round(fec / 1e6, 2), "TCP SACK, mean of 4 (Mb/s)": round(tcp / 1e6, 2),
                     "FECTCP ÷ TCP": round(fec / tcp, 2) if tcp > 0 else float("nan"),
                     "fair share (Mb/s)": round(10 / (TCP_FLOWS + 1), 2),
                     "FECTCP reductions": round(float(g["fectcp_reductions"].mean()), 1),
                     "queue drops": round(float(g["drops"].mean()), 1)})
    return pd.DataFrame(rows)


FIGURES: List[Figure] = [
    losses.DistanceCdf(),
    Table("fig1-table", "Fig. 1 in numbers: P(the next packet is lost | this one is) against p", (), losses.table,
          caption="Measured on the core's loss model and in closed form (`lossy.loss.closed_form`); the paper's "
                  "observation is P(d = 1) ≈ p."),
    _figure(3, "20 ms"),
    _figure(4, "100 ms"),
    table_of("throughputs", "independent", "Figs. 3 and 4 in numbers: mean throughput (kb/s), independent losses",
             _wide),
    table_of("throughputs-neyman", "neyman", "Figs. 3 and 4 in numbers: mean throughput (kb/s), Neyman Type A",
             _wide),
    table_of("throughputs-neyman-packets", "neyman-packets",
             "Beyond: mean throughput (kb/s), Neyman Type A clusters over packets", _wide),
    LinePlot("codes", "codes", "Beyond the paper: FECTCP with the paper's 5 % overhead and with real codes' overheads",
             x="loss", y="goodput", hue="scheme", xlabel="segment loss rate", ylabel="throughput", logx=True,
             palette=PALETTE,
             caption=SETUP + " 20 ms, independent losses. RaptorQ and LT need what their real decoders needed in "
                             "measured trials (docs/mechanisms/rateless-codes.md)."),
    _rates("fig5", "Fig. 5: instantaneous rates of a FECTCP flow and a TCP flow joining it", "TCP Reno",
           caption="The path of Figs. 3–4 at 20 ms and 1 % independent loss; FECTCP from 0 s, a Reno "
                   "transfer from 60 s, both 50 MB; rates per 1 s interval (FECTCP: distinct symbols)."),
    Table("fig5-table", "Fig. 5 per run: mean rates alone and together, Jain's index together", ("fig5",),
          lambda ctx: sharing.table(ctx, "fig5")),
    _rates("fig6", "Fig. 6: instantaneous rates of a FECTCP flow and a 20 kB/s UDP CBR flow", "UDP CBR, 20 kB/s",
           caption="The path of Figs. 3–4 at 20 ms and 1 % independent loss; FECTCP from 0 s, 1000-byte "
                   "datagrams at 20 kB/s (160 kb/s) from 60 s to 180 s."),
    Table("fig6-table", "Fig. 6 per run: mean rates alone and together", ("fig6",),
          lambda ctx: sharing.table(ctx, "fig6")),
    LinePlot("readings", "readings", "Beyond the paper: FECTCP under the readings the paper leaves open (100 ms)",
             x="loss", y="goodput", hue="reading", xlabel="segment loss rate", ylabel="throughput", logx=True,
             palette=PALETTE,
             caption=SETUP + " 100 ms, independent losses, the paper's 5 % overhead; one reading changed at a time "
                             "from the defaults (docs/mechanisms/fectcp.md)."),
    table_of("congested", "congested", "Beyond the paper: FECTCP beside four TCP SACK flows on a 10 Mbit/s bottleneck",
             congested_table,
             caption=f"router → AP at 10 Mbit/s with DropTail (100 packets) or RED (min_th 10, max_th 30, limit 100); "
                     f"no channel loss; FECTCP (a file too large to finish) and {TCP_FLOWS} bulk SACK flows with 1 MB "
                     f"windows, starting 1 s apart; {CONGESTED_SECONDS} s, mean of 5 runs."),
]
