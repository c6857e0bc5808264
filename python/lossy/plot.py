"""Line plots of a sweep: one line per hue value with its 95 % CI as a shaded band or
error bars, optional model curves drawn over it, saved as PNG, SVG or PDF.

Uses matplotlib's object API (a Figure, no pyplot), so nothing needs a display and no
global state is shared between plots.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, List, Optional, Sequence, Union

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import (EngFormatter, FixedLocator, FuncFormatter, LogLocator, NullFormatter,
                               NullLocator)

from .summary import ok_rows, summarize

FORMATS = ("png", "svg", "pdf")

# Columns that are constant within a point but are not axes; left out of the message
# that names the axes a plot would pool.
_NOT_AXES = {"point", "run_id", "scenario_hash", "status", "error", "lossy_version",
             "git_commit", "core_versions", "seed", "replication", "scenario", "sim_time_s",
             "events", "wall_s", "events_per_s", "sim_s_per_wall_s", "packets_delivered"}
_RESULT_PREFIXES = ("flows.", "links.", "agents.")


class PlotError(ValueError):
    """Something wrong with what was asked for (a column, the data, the file type)."""


@dataclass
class Curve:
    """A model drawn over the data, e.g. ("PFTK full", ps, rates)."""

    label: str
    xs: Sequence[float]
    ys: Sequence[float]
    style: str = "--"


@dataclass
class PlotSpec:
    """What to draw from a results table: `y` over `x`, a line per `hue` value."""

    x: str
    y: str
    hue: Optional[str] = None
    logx: bool = False
    logy: bool = False
    errorbars: bool = False
    title: Optional[str] = None
    xlabel: Optional[str] = None
    ylabel: Optional[str] = None
    curves: List[Curve] = field(default_factory=list)
    # Lines in this order (the sweep's own order of the hue axis); others follow.
    hue_order: List[Any] = field(default_factory=list)


def check_output(out: Union[str, Path]) -> Path:
    path = Path(out)
    ext = path.suffix.lower().lstrip(".")
    if ext not in FORMATS:
        raise PlotError(f"{path}: cannot tell the figure format; end the name in .png, .svg or .pdf")
    return path


def plot_dir(directory: Union[str, Path], spec: PlotSpec, out: Union[str, Path]) -> Path:
    """`lossy plot DIR`: draw from a sweep's results directory."""
    from .results import load, load_meta

    path = check_output(out)  # before reading anything: a bad name fails at once
    meta_axes = [a for a in load_meta(directory).get("axes", []) if "name" in a]
    axes = [str(a["name"]) for a in meta_axes] or None
    if spec.hue and not spec.hue_order:
        spec.hue_order = next((list(a.get("values", [])) for a in meta_axes if a["name"] == spec.hue), [])
    plot_runs(load(directory), spec, path, axes=axes)
    return path


def plot_runs(df: pd.DataFrame, spec: PlotSpec, out: Union[str, Path],
              axes: Optional[Sequence[str]] = None) -> pd.DataFrame:
    """Summarize the runs of `df` per (x, hue) and draw them to `out`; returns the summary."""
    path = check_output(out)
    summary = summarize_for_plot(df, spec, axes)
    draw(summary, spec, path)
    return summary


def summarize_for_plot(df: pd.DataFrame, spec: PlotSpec, sweep_axes: Optional[Sequence[str]] = None) -> pd.DataFrame:
    """Check the columns and the data, then summarize `spec.y` per (x, hue). `sweep_axes`
    (from the store's sweep.json) names the axes; without it they are guessed."""
    if spec.hue == spec.x:
        raise PlotError(f"--hue {spec.hue} is already --x; choose another axis for the lines")
    axes = [spec.x] + ([spec.hue] if spec.hue else [])
    for column in axes + [spec.y]:
        if column not in df.columns:
            raise PlotError(f"no column {column!r} in the results; columns: {_some_columns(df)}")
    ok = ok_rows(df)
    if ok.empty:
        raise PlotError("no finished (ok) runs to plot")
    if not pd.api.types.is_numeric_dtype(ok[spec.y]):
        raise PlotError(f"{spec.y!r} is not a number column, so it cannot go on the y axis")
    if sweep_axes is not None:
        pooled = [a for a in sweep_axes if a not in axes and a in ok.columns and ok[a].nunique(dropna=False) > 1]
    else:
        pooled = _pooled_axes(ok, axes)
    if pooled:
        which = ", ".join(pooled)
        hint = (f"put {'it' if len(pooled) == 1 else 'one'} on --hue" if not spec.hue else
                "a plot shows two axes at most (--x and --hue)")
        raise PlotError(f"several points share each {' and '.join(axes)}: they differ in {which}; {hint}")
    return summarize(ok, axes, [spec.y])


def draw(summary: pd.DataFrame, spec: PlotSpec, out: Union[str, Path]) -> Path:
    """Draw a summary (rows of `spec.x`, `spec.hue`, mean, ci_low, ci_high, half_width)."""
    path = check_output(out)
    fig = Figure(figsize=(6.4, 4.4), layout="constrained")
    ax = fig.add_subplot()
    groups = [(None, summary)] if not spec.hue else list(summary.groupby(spec.hue, sort=False))
    if spec.hue_order:
        rank = {v: i for i, v in enumerate(spec.hue_order)}
        groups.sort(key=lambda kg: rank.get(kg[0][0] if isinstance(kg[0], tuple) else kg[0], len(rank)))
    numeric_x = pd.api.types.is_numeric_dtype(summary[spec.x])
    for key, g in groups:
        g = g.sort_values(spec.x) if numeric_x else g
        xs = g[spec.x].to_numpy()
        mean = g["mean"].to_numpy(dtype=float)
        label = None if key is None else f"{spec.hue} = {str(key[0] if isinstance(key, tuple) else key)}"
        if spec.errorbars:
            ax.errorbar(xs, mean, yerr=np.nan_to_num(g["half_width"].to_numpy(dtype=float)),
                        marker="o", capsize=3, label=label)
        else:
            (line,) = ax.plot(xs, mean, marker="o", label=label)
            ax.fill_between(xs, g["ci_low"].to_numpy(dtype=float), g["ci_high"].to_numpy(dtype=float),
                            color=line.get_color(), alpha=0.2, linewidth=0)
    for curve in spec.curves:
        ax.plot(curve.xs, curve.ys, curve.style, linewidth=1.2, label=curve.label)
    _style_axes(ax, summary, spec, numeric_x)
    if groups[0][0] is not None or spec.curves:
        ax.legend(frameon=False)
    band = "error bars" if spec.errorbars else "bands"
    fig.text(0.995, 0.005, f"{band}: 95 % CI (Student t)", ha="right", va="bottom", fontsize=7, color="0.4")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=150)
    return path


def _style_axes(ax: Any, summary: pd.DataFrame, spec: PlotSpec, numeric_x: bool) -> None:
    if spec.logx:
        ax.set_xscale("log")
    if spec.logy:
        ax.set_yscale("log")
    if numeric_x:
        # Tick exactly the swept values when there are few: log axes otherwise show
        # only powers of ten, which may not include a single swept value.
        values = sorted(set(summary[spec.x].dropna().tolist()))
        if 1 < len(values) <= 10:
            ax.xaxis.set_major_locator(FixedLocator(values))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
            ax.xaxis.set_minor_locator(NullLocator())
    top = float(np.nanmax(np.abs(summary["mean"].to_numpy(dtype=float)))) if len(summary) else 0.0
    if math.isfinite(top) and top >= 1e4:
        # 1.2 M and 500 k rather than 1.2e6 at the top or 5×10^5 on a log axis
        if spec.logy:
            ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
            ax.yaxis.set_minor_formatter(NullFormatter())
        ax.yaxis.set_major_formatter(EngFormatter())
    ax.set_xlabel(spec.xlabel or spec.x)
    ax.set_ylabel(spec.ylabel or spec.y)
    if spec.title:
        ax.set_title(spec.title)
    ax.grid(True, which="major", alpha=0.3)


def _pooled_axes(ok: pd.DataFrame, axes: List[str]) -> List[str]:
    """Columns fixed within each point (so: axes) that vary within an (x, hue) cell."""
    if "point" not in ok.columns:
        return []
    cells = ok.groupby(axes, dropna=False)["point"].nunique()
    if cells.max() <= 1:
        return []
    found = []
    for column in ok.columns:
        if column in _NOT_AXES or column in axes or str(column).startswith(_RESULT_PREFIXES):
            continue
        per_point = ok.groupby("point")[column].nunique(dropna=False)
        per_cell = ok.groupby(axes, dropna=False)[column].nunique(dropna=False)
        if per_point.max() <= 1 and per_cell.max() > 1:
            found.append(str(column))
    return found or ["another axis"]


def _some_columns(df: pd.DataFrame, limit: int = 12) -> str:
    names = [str(c) for c in df.columns if not str(c).startswith(_RESULT_PREFIXES[1:])]
    more = len(df.columns) - len(names[:limit])
    return ", ".join(names[:limit]) + (f" and {more} more" if more > 0 else "")
