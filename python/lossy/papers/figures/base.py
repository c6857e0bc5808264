"""The figure protocol: what a reproduction's figures and tables have in common.

A figure has a `key` (its file stem and its name for `--only`), a `title`, a `caption`,
`needs` (the sweeps it reads, checked when the Reproduction is built) and
`render(ctx) -> artifacts` (the files it wrote: images, and tables with their CSV).
A *plot* is a figure that can also draw itself on one matplotlib Axes (`draw(ax, ctx)`),
so that Panels can put several plots of any kind in one figure.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Optional, Protocol, Sequence, runtime_checkable

import pandas as pd

from ..context import Context


@dataclass(frozen=True)
class Artifact:
    """A file a figure wrote: an image, or a table (its CSV, and the table for report.md)."""

    path: Path
    table: Optional[pd.DataFrame] = None

    @property
    def is_table(self) -> bool:
        return self.table is not None


@runtime_checkable
class Figure(Protocol):
    @property
    def key(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def caption(self) -> str: ...

    @property
    def needs(self) -> Sequence[str]: ...

    @property
    def kind(self) -> str: ...

    def render(self, ctx: Context) -> List[Artifact]: ...


@runtime_checkable
class Plot(Figure, Protocol):
    def draw(self, ax: Any, ctx: Context) -> None: ...


def render_plot(plot: Plot, ctx: Context, note: str = "") -> List[Artifact]:
    """A plot alone in a figure of its own, saved as `<out>/<key>.png`."""
    from matplotlib.figure import Figure as MplFigure

    fig = MplFigure(figsize=(6.4, 4.4), layout="constrained")
    plot.draw(fig.add_subplot(), ctx)
    return [Artifact(save_figure(fig, ctx.out / f"{plot.key}.png", note))]


def save_figure(fig: Any, path: Path, note: str = "") -> Path:
    """Lay the figure out (legends, ticks: see layout.py), add the note and save it."""
    from ...plot import save
    from .layout import finish

    if note:
        # A line of its own under the axis labels: the layout makes room for it.
        fig.supxlabel(note, x=0.995, ha="right", fontsize=7, color="0.4")
    finish(fig)
    return save(fig, path)


def write_table(df: pd.DataFrame, path: Path) -> Artifact:
    """The table as CSV beside report.md (written whole or not at all)."""
    import os

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    df.to_csv(tmp, index=False)
    os.replace(tmp, path)
    return Artifact(path, df)


__all__ = ["Artifact", "Figure", "Plot", "render_plot", "save_figure", "write_table"]
