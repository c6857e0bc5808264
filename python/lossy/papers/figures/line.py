"""Line plots of a sweep: a metric's mean per point with its 95 % CI (band or error
bars), a line per hue value in the paper's palette, model curves over it, log axes, and
a secondary x scale."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Sequence

import pandas as pd

from ...plot import Curve, PlotSpec, SecondaryX, draw_on, summarize_for_plot
from ...formatting import unit_of
from ..context import Context
from .base import Artifact, render_plot, write_table
from .palette import Palette

RunsFn = Callable[[pd.DataFrame], pd.DataFrame]


@dataclass(frozen=True)
class LinePlot:
    key: str
    sweep: str
    title: str
    x: str
    y: str
    hue: Optional[str] = None
    xlabel: Optional[str] = None  # with its unit, e.g. "loss rate p"
    ylabel: Optional[str] = None  # the quantity; the unit is added (goodput -> goodput (Mb/s))
    unit: Optional[str] = None  # of y; default: from the metric's name (…_bps -> b/s)
    logx: bool = False
    logy: bool = False
    errorbars: bool = False
    caption: str = ""
    plot_title: Optional[str] = None  # above the axes; default: none (the report has the title)
    curves: Callable[[pd.DataFrame], List[Curve]] = lambda runs: []
    table: Optional[RunsFn] = None  # our numbers beside the reference ones, under the figure
    where: Optional[RunsFn] = None  # the runs to draw, when not all of the sweep's
    hue_order: Sequence[Any] = ()  # default: the palette's order
    secondary_x: Optional[SecondaryX] = None
    palette: Palette = Palette()  # the paper's: each scheme one colour and marker
    prefix: Optional[str] = None  # of y's unit, when the paper fixes it ("k" for kB/s)
    legend_title: Optional[str] = None  # default: the hue's name; "" for none

    kind = "line plot"

    @property
    def needs(self) -> Sequence[str]:
        return (self.sweep,)

    def spec(self, ctx: Context, runs: pd.DataFrame) -> PlotSpec:
        unit = self.unit if self.unit is not None else unit_of(ctx.unit_key(self.sweep, self.y))
        shown = list(dict.fromkeys(runs[self.hue])) if self.hue and self.hue in runs.columns else []
        order = list(self.hue_order) or self.palette.order(shown)
        return PlotSpec(x=self.x, y=self.y, hue=self.hue, logx=self.logx, logy=self.logy,
                        errorbars=self.errorbars, title=self.plot_title, xlabel=self.xlabel,
                        ylabel=self.ylabel or self.y, unit=unit, curves=self.curves(runs),
                        hue_order=order, secondary_x=self.secondary_x, prefix=self.prefix,
                        style=self.palette.styles(order), legend_title=self.legend_title)

    @property
    def note(self) -> str:
        return f"{'error bars' if self.errorbars else 'bands'}: 95 % CI (Student t)"

    def draw(self, ax: Any, ctx: Context) -> None:
        runs = self._runs(ctx)
        spec = self.spec(ctx, runs)
        draw_on(ax, summarize_for_plot(runs, dataclasses.replace(spec, curves=[])), spec)

    def render(self, ctx: Context) -> List[Artifact]:
        out = render_plot(self, ctx, note=self.note)
        if self.table is not None:
            out.append(write_table(self.table(self._runs(ctx)), ctx.out / f"{self.key}.csv"))
        return out

    def _runs(self, ctx: Context) -> pd.DataFrame:
        runs = ctx[self.sweep]
        return self.where(runs) if self.where is not None else runs


__all__ = ["LinePlot"]
