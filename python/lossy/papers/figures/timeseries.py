"""Time series from stored traces: cwnd (and ssthresh), sequence numbers (sent,
resent, acked), throughput, each optionally smoothed by a moving window; one line per
selected run (e.g. Reno and ELN at one loss rate, replication 0)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, List, Mapping, Optional, Sequence

import numpy as np
import pandas as pd

from ...formatting import label, unit_of
from ...plot import unit_axis
from ..context import Context
from .base import Artifact, render_plot
from .palette import Palette

# Units of the trace columns the core records.
TRACE_UNITS = {"cwnd_bytes": "B", "ssthresh_bytes": "B", "seq": "B", "bps": "b/s", "pacing_bps": "b/s"}
EVENT_MARKERS = (".", "x", "+")  # sent, resent, acked: one look each within a run's colour


@dataclass(frozen=True)
class TimeSeries:
    key: str
    sweep: str
    title: str
    trace: str  # cwnd, seq or throughput
    column: str  # cwnd_bytes, ssthresh_bytes, seq, bps
    select: Callable[[pd.DataFrame], pd.DataFrame]  # the ok runs to draw, one line each
    label: Callable[["pd.Series[Any]"], str] = lambda row: str(row["run_id"])
    flow: Optional[int] = 0  # None: every flow
    events: Sequence[str] = ()  # seq trace: sent, resent, acked (default: all, one marker each)
    window_s: Optional[float] = None  # moving-window mean over this many seconds
    ylabel: Optional[str] = None
    unit: Optional[str] = None
    t_range: Optional[tuple[float, float]] = None  # seconds
    caption: str = ""
    steps: bool = True  # a window holds its value until the next change
    palette: Palette = Palette()  # keyed by the label of each run (its scheme)
    scale: float = 1.0  # times the column, in `unit` (1/8: b/s to B/s)
    prefix: Optional[str] = None  # of the unit, when the paper fixes it ("k" for kB/s)
    # A line per flow of each run, labelled with its name (FECTCP and the TCP flow
    # joining it), instead of one line of `flow` per run.
    flows: Mapping[int, str] = field(default_factory=dict)

    kind = "time series"

    @property
    def needs(self) -> Sequence[str]:
        return (self.sweep,)

    def series(self, ctx: Context) -> List[tuple[str, pd.DataFrame]]:
        """(label, rows of the trace) per selected run (or per flow of each), filtered and
        smoothed."""
        runs = self.select(ctx.ok(self.sweep))
        if runs.empty:
            raise ValueError(f"{self.key}: no finished run of sweep {self.sweep!r} is selected")
        out = []
        for _, row in runs.iterrows():
            df = ctx.trace(self.sweep, row, self.trace)
            if self.column not in df.columns:
                raise KeyError(f"trace {self.trace!r} has no column {self.column!r}; "
                               f"columns: {', '.join(map(str, df.columns))}")
            if self.flows:
                out += [(name, self._shaped(df[df["flow"] == flow])) for flow, name in self.flows.items()]
                continue
            if self.flow is not None and "flow" in df.columns:
                df = df[df["flow"] == self.flow]
            out.append((self.label(row), self._shaped(df)))
        return out

    def _shaped(self, df: pd.DataFrame) -> pd.DataFrame:
        """The events and time range asked for, smoothed over the window."""
        if self.events and "event_name" in df.columns:
            df = df[df["event_name"].isin(self.events)]
        if self.t_range is not None:
            df = df[(df["time_s"] >= self.t_range[0]) & (df["time_s"] <= self.t_range[1])]
        if self.window_s:
            df = df.assign(**{self.column: moving_mean(df["time_s"], df[self.column], self.window_s)})
        return df

    def draw(self, ax: Any, ctx: Context) -> None:
        top = 0.0
        series = self.series(ctx)
        order = self.palette.order([name for name, _ in series])
        series.sort(key=lambda s: order.index(s[0]))  # the legend in the paper's order
        style = self.palette.styles(order)
        for name, df in series:
            ys = df[self.column].to_numpy(dtype=float) * self.scale
            top = max(top, float(np.nanmax(ys)) if len(ys) and not np.isnan(ys).all() else 0.0)
            look = style(name)
            colour, shown = look["color"], look["label"]
            if self.trace == "seq":
                for (event, g), marker in zip(df.groupby("event_name", sort=False), EVENT_MARKERS):
                    ax.plot(g["time_s"], g[self.column] * self.scale, marker, markersize=2, color=colour,
                            label=f"{shown}: {event}")
            elif self.steps and not self.window_s:
                ax.step(df["time_s"], ys, where="post", color=colour, label=shown)
            else:
                ax.plot(df["time_s"], ys, color=colour, label=shown)
        unit = self.unit or TRACE_UNITS.get(self.column) or unit_of(self.column)
        ax.set_ylabel(unit_axis(ax.yaxis, self.ylabel or self.column, unit, top, prefix=self.prefix))
        ax.set_xlabel(label("time", "s"))
        ax.grid(True, alpha=0.3)
        ax.legend(frameon=False, markerscale=4 if self.trace == "seq" else 1)  # 2-point dots read badly

    @property
    def note(self) -> str:
        return f"moving mean over {self.window_s:g} s" if self.window_s else ""

    def render(self, ctx: Context) -> List[Artifact]:
        return render_plot(self, ctx, note=self.note)


def moving_mean(time_s: "pd.Series[Any]", values: "pd.Series[Any]", window_s: float) -> np.ndarray:
    """The mean of the values in the last `window_s` seconds at each sample (a trailing
    window by time, not by count: samples need not be evenly spaced)."""
    index = pd.to_timedelta(time_s.to_numpy(dtype=float), unit="s")
    series = pd.Series(values.to_numpy(dtype=float), index=index)
    return series.rolling(pd.Timedelta(seconds=window_s)).mean().to_numpy()


__all__ = ["TimeSeries", "moving_mean"]
