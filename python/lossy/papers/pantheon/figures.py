"""pantheon-emulators' figures and tables: Pantheon's throughput against 95th-percentile
one-way delay plot, one panel per emulator, one point per control with 95 % CI bars in
both axes (one figure per flow mode); and the summary table of every emulator and
control."""

from __future__ import annotations

from typing import Callable, Dict, List

import pandas as pd

from ...formatting import mean_ci
from ...summary import ok_rows, t_interval
from ..figures import Figure, MeansXY, Panels, table_of
from ..figures.palette import Palette
from .emulators import EMULATORS
from .sweeps import ACK_DROPS, CC_NAMES, DATA_DROPS, DELAY, ONE_FLOW, THREE_FLOWS, THROUGHPUT

PALETTE = Palette(list(CC_NAMES))


def of_emulator(key: str) -> Callable[[pd.DataFrame], pd.DataFrame]:
    return lambda runs: runs[runs["emulator"] == key]


CAPTION = ("Each emulator of Pantheon's experiments.yml ('emu'): the uplink trace carries the data, through "
           "mm-link's DropTail queue, mm-loss's uplink loss and mm-delay's one-way delay; the downlink trace "
           "the ACKs. Each point a control's mean over {runs} runs of 30 s with its 95 % CI in each axis; "
           "throughput: the data link's delivered bit rate, headers included, all flows; delay: the p95 "
           "one-way delay of all flows' data packets pooled. Every control paced as Linux paces it under fq. "
           "The delay axis grows to the left, as in Pantheon's plots.")


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
    ok = ok_rows(runs)
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


CC_TITLES = {"reno": "Reno", "cubic": "CUBIC", "bbr": "BBRv1", "bbr3": "BBRv3", "vegas": "Vegas",
             "westwood": "Westwood+", "cubic-codel": "CUBIC/CoDel"}


def grid(runs: pd.DataFrame) -> pd.DataFrame:
    """The summary at a glance: a row per emulator, a column per control, each cell the
    mean throughput in Mbit/s and, in brackets, the mean p95 one-way delay in ms (three
    significant digits; the summary table has the CIs)."""
    ok = ok_rows(runs)
    cells: Dict[int, Dict[str, str]] = {}
    for (emu, cc), g in ok.groupby(["emulator", "cc"], sort=False):
        t = pd.to_numeric(g[THROUGHPUT], errors="coerce").mean() / 1e6
        d = pd.to_numeric(g[DELAY], errors="coerce").mean()
        cells.setdefault(int(str(emu)), {})[CC_TITLES.get(str(cc), str(cc))] = f"{t:.3g} ({d:.0f})"
    columns = [CC_TITLES[c] for c in CC_NAMES]
    return pd.DataFrame([{"#": e, **{c: cells[e].get(c, "") for c in columns}} for e in sorted(cells)],
                        columns=["#", *columns])


GRID_CAPTION = "Throughput in Mbit/s (p95 one-way delay in ms), each the mean of the runs."

FIGURES: List[Figure] = [
    panels("one-flow-plot", ONE_FLOW.key, "Throughput against p95 one-way delay, one flow, every emulator"),
    panels("three-flows-plot", THREE_FLOWS.key,
           "Throughput against p95 one-way delay, three flows started 10 s apart, every emulator"),
    table_of("one-flow-table", ONE_FLOW.key, "Summary, one flow", summary_table,
             caption="Means over the runs with 95 % CI half-widths (Student t); drops per run."),
    table_of("three-flows-table", THREE_FLOWS.key, "Summary, three flows started 10 s apart", summary_table,
             caption="Means over the runs with 95 % CI half-widths (Student t); drops per run; delay: the "
                     "p95 of all flows' packets pooled."),
    table_of("one-flow-grid", ONE_FLOW.key, "At a glance, one flow", grid, caption=GRID_CAPTION),
    table_of("three-flows-grid", THREE_FLOWS.key, "At a glance, three flows started 10 s apart", grid,
             caption=GRID_CAPTION),
]

__all__ = ["FIGURES", "summary_table"]
