"""pantheon-emulators' figures and tables: Pantheon's throughput against 95th-percentile
one-way delay plot, one panel per emulator, one point per control with 95 % CI bars in
both axes (one figure per flow mode); and the summary table of every emulator and
control."""

from __future__ import annotations

from typing import Callable, List

import numpy as np
import pandas as pd

from ...formatting import mean_ci
from ...summary import ok_rows, t_interval
from ..figures import Figure, MeansXY, Panels, table_of
from ..figures.palette import Palette
from .emulators import EMULATORS
from .sweeps import ACK_DROPS, CC_NAMES, DATA_DROPS, DELAY, ONE_FLOW, THREE_FLOWS, THROUGHPUT

PALETTE = Palette(list(CC_NAMES))


def with_delay(runs: pd.DataFrame) -> pd.DataFrame:
    """The runs with DELAY: the largest of the flows' p95 one-way delays (one flow: its
    own), which bounds Pantheon's p95 over all flows' packets from above."""
    cols = [c for c in runs.columns if c.startswith("owd_p95_")]
    out = runs.copy()
    out[DELAY] = out[cols].apply(pd.to_numeric, errors="coerce").max(axis=1) if cols else np.nan
    return out


def of_emulator(key: str) -> Callable[[pd.DataFrame], pd.DataFrame]:
    return lambda runs: with_delay(runs[runs["emulator"] == key])


CAPTION = ("Each emulator of Pantheon's experiments.yml ('emu'): the uplink trace carries the data, through "
           "mm-link's DropTail queue, mm-loss's uplink loss and mm-delay's one-way delay; the downlink trace "
           "the ACKs. Each point a control's mean over {runs} runs of 30 s with its 95 % CI in each axis; "
           "throughput: the data link's delivered bit rate, headers included, all flows; delay: the p95 "
           "one-way delay of the flow's data packets (three flows: the largest flow's p95). The delay axis "
           "grows to the left, as in Pantheon's plots.")


def short(desc: str) -> str:
    """A panel's title from experiments.yml's description, short enough for a panel."""
    return (desc.replace("Calibrated to the real path from ", "calibrated: ")
            .replace("Token-bucket based policer (bandwidth ", "policer (").replace("Severe ACK aggregation", "ACK aggr."))


def panels(key: str, sweep: str, title: str) -> Panels:
    return Panels(key, title, [
        MeansXY(f"{key}-{e.key}", sweep, f"{e.scenario}: {short(e.desc)}", x=DELAY, y=THROUGHPUT, hue="cc",
                where=of_emulator(e.key), xlabel="p95 one-way delay", xunit="ms", ylabel="throughput",
                yunit="b/s", logx=True, invert_x=True, palette=PALETTE, legend=e.scenario == 1,
                empty_note="not in this run (the quick run has emulators 1, 7, 13, 15)")
        for e in EMULATORS], ncols=3, caption=CAPTION.format(runs=5))


def summary_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Per emulator and control: throughput and p95 delay, mean ± 95 % CI half-width, and
    the mean drops at the data queue and at the ACK queue."""
    ok = with_delay(ok_rows(runs))
    descs = {e.key: e.desc for e in EMULATORS}
    rows = []
    for (emu, cc), g in ok.groupby(["emulator", "cc"], sort=False):
        _, t, _, th = t_interval(pd.to_numeric(g[THROUGHPUT], errors="coerce").to_numpy())
        _, d, _, dh = t_interval(pd.to_numeric(g[DELAY], errors="coerce").to_numpy())
        rows.append({"emulator": f"{int(str(emu))}: {descs.get(str(emu), '')}", "cc": cc,
                     "throughput (Mb/s, 95 % CI)": mean_ci(t, th),
                     "p95 one-way delay (ms, 95 % CI)": mean_ci(d, dh, scale=1.0, digits=1),
                     "data-queue drops": f"{pd.to_numeric(g[DATA_DROPS], errors='coerce').mean():.0f}",
                     "ACK-queue drops": f"{pd.to_numeric(g[ACK_DROPS], errors='coerce').mean():.0f}",
                     "runs": len(g)})
    order = {name: i for i, name in enumerate(CC_NAMES)}
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    df["_e"] = df["emulator"].str.split(":").str[0].astype(int)
    df["_c"] = df["cc"].map(order)
    return df.sort_values(["_e", "_c"]).drop(columns=["_e", "_c"]).reset_index(drop=True)


FIGURES: List[Figure] = [
    panels("one-flow-plot", ONE_FLOW.key, "Throughput against p95 one-way delay, one flow, every emulator"),
    panels("three-flows-plot", THREE_FLOWS.key,
           "Throughput against p95 one-way delay, three flows started 10 s apart, every emulator"),
    table_of("one-flow-table", ONE_FLOW.key, "Summary, one flow", summary_table,
             caption="Means over the runs with 95 % CI half-widths (Student t); drops per run."),
    table_of("three-flows-table", THREE_FLOWS.key, "Summary, three flows started 10 s apart", summary_table,
             caption="Means over the runs with 95 % CI half-widths (Student t); drops per run; delay: the "
                     "largest flow's p95."),
]

__all__ = ["FIGURES", "summary_table", "with_delay"]
