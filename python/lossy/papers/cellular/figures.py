"""cellular-bufferbloat's figures and tables: per trace, goodput against p95 one-way delay
for CUBIC and BBRv1 over DropTail, CoDel and PIE (Pantheon's plot, one panel per trace),
the same for the seeds' remedies on the lossy hop, and the per-trace tables."""

from __future__ import annotations

from typing import Callable, List, Sequence, Tuple

import pandas as pd

from ...formatting import mean_ci
from ...summary import ok_rows, t_interval
from ..figures import Figure, MeansXY, Panels, table_of
from ..figures.palette import Palette
from .sweeps import (AQM, BUFFER_SECONDS, CCS, GOODPUT, LOSSY_HOP, OWD_P95, QUEUES, RTT_P95, SCHEMES, SOJOURN_MEAN,
                     TRACES, buffer_packets, trace_name)

AQM_SCHEMES = [f"{cc} / {q}" for cc in CCS for q in QUEUES]
HOP_SCHEMES = [f"{cc} / {s}" for cc in CCS for s in SCHEMES]
PALETTE = Palette([*AQM_SCHEMES, *HOP_SCHEMES])


def labelled(axis: str, trace: str) -> Callable[[pd.DataFrame], pd.DataFrame]:
    """One trace's runs with `scheme` = "<cc> / <axis value>"."""
    def pick(runs: pd.DataFrame) -> pd.DataFrame:
        mine = runs[runs["trace"].map(trace_name) == trace].copy()
        mine["scheme"] = mine["cc"].astype(str) + " / " + mine[axis].astype(str)
        return mine
    return pick


def panels(key: str, sweep: str, axis: str, title: str, caption: str) -> Panels:
    return Panels(key, title, [
        MeansXY(f"{key}-{t}", sweep, f"{t} ({buffer_packets(t)} packets)", x=OWD_P95, y=GOODPUT, hue="scheme",
                where=labelled(axis, t), xlabel="p95 one-way delay", xunit="ms", ylabel="goodput", yunit="b/s",
                logx=True, invert_x=True, palette=PALETTE, legend=i == 0, empty_note="not in this run")
        for i, t in enumerate(TRACES)], ncols=3, caption=caption)


def per_trace_table(axis: str, metrics: Sequence[Tuple[str, str, float, int]]) -> Callable[[pd.DataFrame], pd.DataFrame]:
    """Per trace, `axis` value and control: each metric's mean ± 95 % CI half-width."""
    def build(runs: pd.DataFrame) -> pd.DataFrame:
        ok = ok_rows(runs).copy()
        ok["_trace"] = ok["trace"].map(trace_name)
        rows = []
        for t in TRACES:
            for value in dict.fromkeys(ok[axis]):
                for cc in CCS:
                    g = ok[(ok["_trace"] == t) & (ok[axis] == value) & (ok["cc"] == cc)]
                    if g.empty:
                        continue
                    row = {"trace": t, axis: value, "cc": cc}
                    for column, label, scale, digits in metrics:
                        if column not in g.columns:
                            row[label] = "-"
                            continue
                        _, m, _, h = t_interval(pd.to_numeric(g[column], errors="coerce"))
                        row[label] = mean_ci(m, h, scale=scale, digits=digits)
                    rows.append(row)
        return pd.DataFrame(rows)
    return build


COLUMNS = [(GOODPUT, "goodput (Mb/s, 95 % CI)", 1e6, 2), (OWD_P95, "p95 one-way delay (ms)", 1.0, 0),
           (RTT_P95, "p95 RTT (ms)", 1.0, 0), (SOJOURN_MEAN, "mean sojourn (ms)", 1.0, 1)]

CAPTION = (f"cellular_path.toml: S —100 Mbit/s, 20 ms→ BS —Mahimahi .down trace, 10 ms→ MH, the ACKs over the .up "
           f"trace; the base station's buffer holds {BUFFER_SECONDS:g} s at the trace's mean rate (packets in each "
           "panel's title); DropTail, CoDel (RFC 8289 defaults) or PIE (RFC 8033 defaults) with that limit. Each point "
           "a control's mean over the runs with its 95 % CI in each axis; the delay axis grows to the left.")
HOP_CAPTION = ("The same path over DropTail with 1 % Bernoulli loss on the downlink after the trace serves a packet: "
               "no remedy (e2e), link-layer ARQ on the hop (128-byte link packets, 8 transmissions, in order) or ELN "
               "at the base station.")

FIGURES: List[Figure] = [
    panels("aqm-plot", AQM.key, "queue", "Goodput against p95 one-way delay per trace: DropTail, CoDel, PIE",
           CAPTION),
    table_of("aqm-table", AQM.key, "Per trace: CUBIC and BBRv1 over DropTail, CoDel and PIE",
             per_trace_table("queue", COLUMNS), caption="Means over the runs with 95 % CI half-widths; sojourn: "
                                                        "at the base station's downlink queue."),
    panels("lossy-hop-plot", LOSSY_HOP.key, "scheme", "A lossy cellular hop: goodput against p95 one-way delay with "
                                                      "ARQ and ELN", HOP_CAPTION),
    table_of("lossy-hop-table", LOSSY_HOP.key, "Per trace: the lossy hop with no remedy, ARQ or ELN",
             per_trace_table("scheme", COLUMNS), caption=HOP_CAPTION),
]

__all__ = ["FIGURES"]
