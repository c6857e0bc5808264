"""Means in two dimensions: each hue value's mean (x, y) over a sweep's runs with its
95 % CI as error bars on both axes — Pantheon's throughput against 95th-percentile
delay plot (StanfordSNR/pantheon src/analysis/plot.py: one point per scheme, delay on
a log x axis growing to the left, so better is up and to the right)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np
import pandas as pd

from ...plot import unit_axis
from ...summary import ok_rows, t_interval
from ..context import Context
from .base import Artifact, render_plot
from .palette import Palette


@dataclass(frozen=True)
class MeansXY:
    key: str
    sweep: str
    title: str
    x: str  # a column of the runs (a metric, or one `where` adds)
    y: str
    hue: str
    where: Optional[Callable[[pd.DataFrame], pd.DataFrame]] = None  # the runs to draw
    xlabel: Optional[str] = None
    ylabel: Optional[str] = None
    xunit: Optional[str] = None
    yunit: Optional[str] = None
    logx: bool = False
    invert_x: bool = False
    caption: str = ""
    palette: Palette = Palette()
    legend: bool = True
    # Drawn, in place of the points, when the runs hold none for this panel (a quick run
    # that leaves some panels' points out); None: no runs is an error.
    empty_note: Optional[str] = None

    kind = "means in x and y"
    note = "error bars: 95 % CI (Student t) in each axis"

    @property
    def needs(self) -> Sequence[str]:
        return (self.sweep,)

    def points(self, ctx: Context) -> pd.DataFrame:
        """One row per hue value: n, and the mean and CI half-width of x and of y."""
        runs = ok_rows(ctx[self.sweep])
        runs = self.where(runs) if self.where is not None else runs
        for c in (self.x, self.y, self.hue):
            if c not in runs.columns:
                raise KeyError(f"no column {c!r} in the runs of sweep {self.sweep!r}")
        rows: List[Dict[str, Any]] = []
        if runs.empty:
            return pd.DataFrame(rows)
        for name, g in runs.groupby(self.hue, sort=False):
            n, mx, _, hx = t_interval(pd.to_numeric(g[self.x], errors="coerce").to_numpy())
            _, my, _, hy = t_interval(pd.to_numeric(g[self.y], errors="coerce").to_numpy())
            rows.append({self.hue: name, "n": n, "x": mx, "x_half": hx, "y": my, "y_half": hy})
        return pd.DataFrame(rows)

    def draw(self, ax: Any, ctx: Context) -> None:
        pts = self.points(ctx)
        if pts.empty and self.empty_note is not None:
            ax.text(0.5, 0.5, self.empty_note, ha="center", va="center", transform=ax.transAxes, color="0.4")
            ax.set_xticks([])
            ax.set_yticks([])
            return
        if pts.empty:
            raise ValueError(f"{self.key}: no finished runs of sweep {self.sweep!r} to draw")
        order = self.palette.order(list(pts[self.hue]))
        style = self.palette.styles(order)
        for name in order:
            p = pts[pts[self.hue] == name].iloc[0]
            look = style(name)
            ax.errorbar([p["x"]], [p["y"]], xerr=[[_half(p["x_half"])], [_half(p["x_half"])]],
                        yerr=[[_half(p["y_half"])], [_half(p["y_half"])]], fmt=look["marker"],
                        color=look["color"], label=look["label"], capsize=2, markersize=5, linewidth=1)
        if self.logx:
            ax.set_xscale("log")
        ax.set_xlabel(unit_axis(ax.xaxis, self.xlabel or self.x, self.xunit,
                                float(np.nanmax(pts["x"] + pts["x_half"].fillna(0))), log=self.logx,
                                low=float(np.nanmin(pts["x"]))))
        ax.set_ylabel(unit_axis(ax.yaxis, self.ylabel or self.y, self.yunit,
                                float(np.nanmax(pts["y"] + pts["y_half"].fillna(0)))))
        ax.set_ylim(bottom=0)
        if self.invert_x:
            ax.invert_xaxis()
        if self.legend:
            ax.legend(fontsize=7)

    def render(self, ctx: Context) -> List[Artifact]:
        return render_plot(self, ctx, note=self.note)


def _half(h: Any) -> float:
    """A CI half-width for an error bar: none (0) where one run gives no interval."""
    return 0.0 if h is None or not np.isfinite(h) else float(h)


__all__ = ["MeansXY"]
