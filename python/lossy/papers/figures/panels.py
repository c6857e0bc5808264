"""Multi-panel figures: several plots of any kind (line, time series, CDF) in one
figure, labelled (a), (b), … with their titles, e.g. cwnd of Reno beside cwnd of ELN."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import List, Sequence

from ..context import Context
from .base import Artifact, Plot, save_figure


@dataclass(frozen=True)
class Panels:
    key: str
    title: str
    panels: Sequence[Plot]
    ncols: int = 2
    sharex: bool = False
    sharey: bool = False
    caption: str = ""

    kind = "panels"

    @property
    def needs(self) -> Sequence[str]:
        return tuple(dict.fromkeys(s for p in self.panels for s in p.needs))

    def render(self, ctx: Context) -> List[Artifact]:
        from matplotlib.figure import Figure as MplFigure

        ncols = max(1, min(self.ncols, len(self.panels)))
        nrows = math.ceil(len(self.panels) / ncols)
        fig = MplFigure(figsize=(4.8 * ncols, 3.6 * nrows), layout="constrained")
        axes = fig.subplots(nrows, ncols, squeeze=False, sharex=self.sharex, sharey=self.sharey)
        for i, (panel, ax) in enumerate(zip(self.panels, axes.flat)):
            panel.draw(ax, ctx)
            ax.set_title(f"({chr(ord('a') + i)}) {panel.title}", fontsize=10, loc="left")
        for ax in list(axes.flat)[len(self.panels):]:
            ax.set_visible(False)
        notes = dict.fromkeys(str(getattr(p, "note", "")) for p in self.panels)
        return [Artifact(save_figure(fig, ctx.out / f"{self.key}.png", "; ".join(n for n in notes if n)))]


__all__ = ["Panels"]
