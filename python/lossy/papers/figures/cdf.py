"""Empirical CDFs: of a metric over a sweep's runs (one curve per hue value), or of a
trace column over selected runs (e.g. the cwnd a flow held, sample by sample)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import pandas as pd

from ...formatting import unit_of
from ...plot import unit_axis
from ..context import Context
from .base import Artifact, render_plot
from .palette import Palette
from .timeseries import TRACE_UNITS


@dataclass(frozen=True)
class Cdf:
    key: str
    sweep: str
    title: str
    of: str  # a metric (column of the runs), or with `trace`, a column of that trace
    hue: Optional[str] = None  # one curve per value of this axis
    trace: Optional[str] = None
    where: Optional[Callable[[pd.DataFrame], pd.DataFrame]] = None  # the runs to use
    flow: Optional[int] = 0  # with `trace`: this flow only (None: every flow)
    xlabel: Optional[str] = None
    unit: Optional[str] = None
    logx: bool = False
    caption: str = ""
    palette: Palette = Palette()  # keyed by the hue's values

    kind = "CDF"

    @property
    def needs(self) -> Sequence[str]:
        return (self.sweep,)

    def samples(self, ctx: Context) -> List[tuple[Any, np.ndarray]]:
        """(hue value, the sorted-or-not values) per curve; one curve (None) without a hue."""
        runs = ctx.ok(self.sweep)
        runs = self.where(runs) if self.where is not None else runs
        if runs.empty:
            raise ValueError(f"{self.key}: no finished runs of sweep {self.sweep!r} to draw")
        groups = [(None, runs)] if self.hue is None else \
            [(k, g) for k, g in runs.groupby(self.hue, sort=False)]
        return [(name, self._values(ctx, g)) for name, g in groups]

    def _values(self, ctx: Context, runs: pd.DataFrame) -> np.ndarray:
        if self.trace is None:
            if self.of not in runs.columns:
                raise KeyError(f"no column {self.of!r} in the runs of sweep {self.sweep!r}")
            return pd.to_numeric(runs[self.of], errors="coerce").dropna().to_numpy(dtype=float)
        parts = []
        for _, row in runs.iterrows():
            df = ctx.trace(self.sweep, row, self.trace)
            if self.flow is not None and "flow" in df.columns:
                df = df[df["flow"] == self.flow]
            parts.append(df[self.of].dropna().to_numpy(dtype=float))
        return np.concatenate(parts) if parts else np.empty(0)

    def draw(self, ax: Any, ctx: Context) -> None:
        top = 0.0
        samples = self.samples(ctx)
        order = self.palette.order([name for name, _ in samples])
        samples.sort(key=lambda s: order.index(s[0]))  # the legend in the paper's order
        style = self.palette.styles(order)
        for name, xs in samples:
            xs = np.sort(xs)
            if not len(xs):
                continue
            top = max(top, float(np.abs(xs).max()))
            look = style(name) if name is not None else {"color": None, "label": None}
            ax.step(xs, np.arange(1, len(xs) + 1) / len(xs), where="post", color=look["color"],
                    label=look["label"])
        if self.logx:
            ax.set_xscale("log")
        unit = self.unit or TRACE_UNITS.get(self.of) or unit_of(ctx.unit_key(self.sweep, self.of))
        ax.set_xlabel(unit_axis(ax.xaxis, self.xlabel or self.of, unit, top, self.logx))
        ax.set_ylabel("fraction of " + ("samples" if self.trace else "runs") + " ≤ x")
        ax.set_ylim(0, 1.02)
        ax.grid(True, alpha=0.3)
        if self.hue is not None:
            ax.legend(frameon=False, title=self.hue)

    def render(self, ctx: Context) -> List[Artifact]:
        return render_plot(self, ctx)


__all__ = ["Cdf"]
