"""Line plots of a sweep: one line per hue value with its 95 % CI as a shaded band or
error bars, optional model curves drawn over it, saved as PNG, SVG or PDF.

Uses matplotlib's object API (a Figure, no pyplot), so nothing needs a display and no
global state is shared between plots.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import (EngFormatter, FixedLocator, FuncFormatter, LogLocator, NullFormatter,
                               NullLocator)

from .ellipsis import short_path, short_repr
from .formatting import label, prefix_for, unit_of
from .hiding import coinciding, hidden_points
from .summary import ok_rows, summarize

FORMATS = ("png", "svg", "pdf")

# Columns that are constant within a point but are not axes; left out of the message
# that names the axes a plot would pool.
_NOT_AXES = {"point", "run_id", "scenario_hash", "status", "error", "lossy_version",
             "git_commit", "core_versions", "seed", "replication", "scenario", "sim_time_s",
             "events", "wall_s", "cpu_s", "events_per_s", "sim_s_per_wall_s", "packets_delivered"}
_RESULT_PREFIXES = ("flows.", "links.", "agents.")
# Units that read badly with a prefix (ks, Msegments): ticked as they are.
_UNPREFIXED = {"s", "segments", "packets"}


class PlotError(ValueError):
    """Something wrong with what was asked for (a column, the data, the file type)."""


@dataclass
class Curve:
    """A model drawn over the data, e.g. ("PFTK full", ps, rates)."""

    label: str
    xs: Sequence[float]
    ys: Sequence[float]
    style: str = "--"
    of: Optional[Any] = None  # the hue value whose colour it takes (its model, say)


@dataclass
class PlotSpec:
    """What to draw from a results table: `y` over `x`, a line per `hue` value.

    `x`, `y` and `hue` are column names (an axis, a metric alias or a summary key);
    `logx`/`logy` ask for log axes, `errorbars` for error bars instead of shaded 95 %
    CI bands; `title`, `xlabel`, `ylabel` replace the defaults; `curves` are model
    curves drawn over the data; `hue_order` orders the lines; `unit` is the unit of y
    (e.g. "b/s", given a prefix on the axis: Mb/s); `secondary_x` adds a second x
    scale along the top.
    """

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
    # The unit of y (b/s, s, B): ticks and label get a prefix (Mb/s); see unit_axis.
    unit: Optional[str] = None
    secondary_x: Optional["SecondaryX"] = None
    # The SI prefix of y's unit when it must not follow the data ("k": the paper's kB/s).
    prefix: Optional[str] = None
    # The line style of a hue value: colour, marker and label (matplotlib keywords), so a
    # scheme keeps its look from figure to figure; default: the colour cycle.
    style: Optional[Callable[[Any], Mapping[str, Any]]] = None
    legend_title: Optional[str] = None  # default: the hue's name; "" for none


@dataclass(frozen=True)
class SecondaryX:
    """A second x scale along the top: its label and the map to it and back (both
    must take NumPy arrays), e.g. ("1/√p", lambda p: 1 / np.sqrt(p), lambda q: q ** -2)."""

    label: str
    forward: Callable[[Any], Any]
    inverse: Callable[[Any], Any]


def check_output(out: Union[str, Path]) -> Path:
    path = Path(out)
    ext = path.suffix.lower().lstrip(".")
    if ext not in FORMATS:
        raise PlotError(f"{short_path(path)}: cannot tell the figure format; end the name in .png, .svg or .pdf")
    return path


def plot_dir(directory: Union[str, Path], spec: PlotSpec, out: Union[str, Path]) -> Path:
    """`lossy plot DIR`: draw from a sweep's results directory."""
    from .results import load, load_meta

    path = check_output(out)  # before reading anything: a bad name fails at once
    meta = load_meta(directory)
    meta_axes = [a for a in meta.get("axes", []) if "name" in a]
    axes = [str(a["name"]) for a in meta_axes] or None
    if spec.hue and not spec.hue_order:
        spec.hue_order = next((list(a.get("values", [])) for a in meta_axes if a["name"] == spec.hue), [])
    if spec.unit is None and spec.ylabel is None:
        spec.unit = unit_of(str(meta.get("metrics", {}).get(spec.y, spec.y)))
    runs = load(directory)  # says so when no runs are stored, or DIR is not a store
    plot_runs(runs, spec, path, axes=axes, aliases=list(meta.get("metrics", {})))
    return path


def plot_runs(df: pd.DataFrame, spec: PlotSpec, out: Union[str, Path],
              axes: Optional[Sequence[str]] = None,
              aliases: Optional[Sequence[str]] = None) -> pd.DataFrame:
    """Summarize the runs of `df` per (x, hue) and draw them to `out`; returns the summary."""
    path = check_output(out)
    summary = summarize_for_plot(df, spec, axes, aliases)
    draw(summary, spec, path)
    return summary


def summarize_for_plot(df: pd.DataFrame, spec: PlotSpec, sweep_axes: Optional[Sequence[str]] = None,
                       aliases: Optional[Sequence[str]] = None) -> pd.DataFrame:
    """Check the columns and the data, then summarize `spec.y` per (x, hue). `sweep_axes`
    (from the store's sweep.json) names the axes; without it they are guessed. `aliases`
    (the sweep's metric aliases) are named when --y is unknown."""
    if spec.hue == spec.x:
        raise PlotError(f"--hue {spec.hue} is already --x; choose another axis for the lines")
    axes = [spec.x] + ([spec.hue] if spec.hue else [])
    check_columns(df, spec, sweep_axes, aliases)
    ok = ok_rows(df)
    if ok.empty:
        raise PlotError("no finished (ok) runs to plot")
    if not pd.api.types.is_numeric_dtype(ok[spec.y]):
        raise PlotError(f"{short_repr(spec.y)} is not a number column, so it cannot go on the y axis")
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
    draw_on(fig.add_subplot(), summary, spec)
    band = "error bars" if spec.errorbars else "bands"
    fig.text(0.995, 0.005, f"{band}: 95 % CI (Student t)", ha="right", va="bottom", fontsize=7, color="0.4")
    return save(fig, path)


def save(fig: Figure, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=150)
    return path


# How a marker is drawn over one it would hide: a ring around it.
HOLLOW = {"markerfacecolor": "none", "markersize": 9, "markeredgewidth": 1.5}


def draw_on(ax: Any, summary: pd.DataFrame, spec: PlotSpec) -> None:
    """The lines, bands and curves of a summary on one matplotlib Axes (a figure of its
    own, or one panel of several). A line that hides another at every point is drawn
    hollow and dashed over it, and a note above the axes says so; where it hides only
    some of another's points, its markers there are rings."""
    floor = None
    if spec.logy:
        summary, floor = positive_for_log(summary, spec)
    groups = [(None, summary)] if not spec.hue else list(summary.groupby(spec.hue, sort=False))
    if spec.hue_order:
        rank = {v: i for i, v in enumerate(spec.hue_order)}
        groups.sort(key=lambda kg: rank.get(_value(kg[0]), len(rank)))
    numeric_x = pd.api.types.is_numeric_dtype(summary[spec.x])
    lines = []
    for key, g in groups:
        g = g.sort_values(spec.x) if numeric_x else g
        style = dict(spec.style(_value(key))) if spec.style and key is not None else {}
        name = str(style.pop("label", _value(key)))
        lines.append((name, g, style))
    drawn = [(g[spec.x].to_numpy(), g["mean"].to_numpy(dtype=float)) for _, g, _ in lines]
    same, hidden = coinciding(drawn, spec.logy), hidden_points(drawn, spec.logy)
    notes = []
    for i, (name, g, style) in enumerate(lines):
        xs, mean = drawn[i]
        label = None if groups[0][0] is None else name
        style = {"marker": "o", **style}
        if i in same:
            j, exact = same[i]
            notes.append(f"{name} {'=' if exact else '≈'} {lines[j][0]} at every point")
            style.update(HOLLOW, linestyle="--")
        elif hidden[i].any():  # a ring where it would cover another's marker
            style["markevery"] = [int(k) for k in np.flatnonzero(~hidden[i])]
            ax.plot(xs[hidden[i]], mean[hidden[i]], linestyle="none", **{**style, **HOLLOW, "markevery": None})
        low, high = g["ci_low"].to_numpy(dtype=float), g["ci_high"].to_numpy(dtype=float)
        if floor is not None:  # a bound at 0 or below runs off the bottom of a log axis
            low = np.where(low > 0, low, floor / 10)
        if spec.errorbars:  # (a count's interval is cut at 0: not symmetric)
            yerr = np.nan_to_num(np.vstack([mean - low, high - mean]))
            ax.errorbar(xs, mean, yerr=yerr, capsize=3, label=label, **style)
        else:
            (line,) = ax.plot(xs, mean, label=label, **style)
            ax.fill_between(xs, low, high, color=line.get_color(), alpha=0.2, linewidth=0)
    for curve in spec.curves:
        ax.plot(curve.xs, curve.ys, curve.style, linewidth=1.2, label=curve.label, **_curve_colour(curve, spec))
    _style_axes(ax, summary, spec, numeric_x)
    if floor is not None:
        ax.set_ylim(bottom=floor)
    if notes:  # above the axes, right: it covers no data, and panels keep one legend
        ax.set_title("\n".join(notes), loc="right", fontsize=8, color="0.25")
    if groups and (groups[0][0] is not None or spec.curves):
        title = spec.hue if spec.legend_title is None else spec.legend_title
        ax.legend(frameon=False, title=title or None)


def positive_for_log(summary: pd.DataFrame, spec: PlotSpec) -> Tuple[pd.DataFrame, Optional[float]]:
    """The points a log y axis can show (mean above 0), with a warning naming the metric
    and how many were left out (issue 27: a count with zeros drew a band that filled the
    axes); and, when some interval reaches 0 or below, the axis bottom its band runs
    off (half the lowest positive value drawn), else None."""
    means = summary["mean"].to_numpy(dtype=float)
    keep = ~(means <= 0)  # NaN (no ok run) is not drawn anyway
    dropped = int((~keep).sum())
    if dropped == len(summary) and dropped:
        raise PlotError(f"--logy: {spec.y} is 0 or below at every point; a log axis cannot show it, "
                        "plot without --logy")
    if dropped:
        import warnings

        warnings.warn(f"--logy: {spec.y} is 0 or below at {dropped} of {len(summary)} points, left out "
                      "(a log axis cannot show them); plot without --logy to see them", stacklevel=2)
    kept = summary[keep]
    lows = kept["ci_low"].to_numpy(dtype=float)
    if not (lows <= 0).any():
        return kept, None
    values = [kept["mean"].to_numpy(dtype=float), lows,
              *(np.asarray(c.ys, dtype=float) for c in spec.curves)]
    positive = np.concatenate([v[v > 0] for v in values])
    return kept, float(positive.min()) / 2


def _curve_colour(curve: Curve, spec: PlotSpec) -> Dict[str, Any]:
    """The colour of the hue value the curve models; with lines in set colours, grey for
    a curve of its own (the cycle's next colour would be some scheme's)."""
    if spec.style is None or any(c in "bgrcmykw" for c in curve.style):
        return {}
    return {"color": spec.style(curve.of)["color"] if curve.of is not None else "0.35"}


def _value(key: Any) -> Any:
    """A group's hue value (pandas gives a 1-tuple when grouping by a list)."""
    return key[0] if isinstance(key, tuple) and len(key) == 1 else key


def _style_axes(ax: Any, summary: pd.DataFrame, spec: PlotSpec, numeric_x: bool) -> None:
    if spec.logx:
        ax.set_xscale("log")
    if spec.logy:
        ax.set_yscale("log")
    if numeric_x:
        # Tick exactly the swept values when there are few: log axes otherwise show
        # only powers of ten, which may not include a single swept value.
        values = sorted(set(summary[spec.x].dropna().tolist()))
        if 1 < len(values) <= 10 and (not spec.logx or values[0] > 0):
            ax.xaxis.set_major_locator(FixedLocator(spaced(values, log=spec.logx)))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: tick_text(v)))
            ax.xaxis.set_minor_locator(NullLocator())
    means = summary["mean"].to_numpy(dtype=float)
    top = float(np.nanmax(np.abs(means))) if len(means) and not np.isnan(means).all() else 0.0
    positive = means[means > 0]
    # A label given without a unit is taken as it is (it may name its unit itself).
    unit = spec.unit if spec.unit is not None else unit_of(spec.y) if spec.ylabel is None else None
    ax.set_ylabel(unit_axis(ax.yaxis, spec.ylabel or spec.y, unit, top, spec.logy, spec.prefix,
                            low=float(positive.min()) if len(positive) else 0.0))
    ax.set_xlabel(spec.xlabel or spec.x)
    if spec.secondary_x is not None:
        add_secondary_x(ax, spec.secondary_x)
    if spec.title:
        ax.set_title(spec.title)
    ax.grid(True, which="major", alpha=0.3)


def spaced(values: List[float], min_gap: float = 1 / 15, log: bool = False) -> List[float]:
    """The sorted `values` without those closer than `min_gap` of the range to the last
    one kept (their labels would overlap); distances in decades on a log axis (0.03 and
    0.05 sit closer there than 0.01 and 0.03). The last value is kept."""
    where = np.log10(values) if log else np.asarray(values, dtype=float)
    gap = (where[-1] - where[0]) * min_gap
    kept = [0]
    for i in range(1, len(values)):
        if where[i] - where[kept[-1]] >= gap:
            kept.append(i)
    if kept[-1] != len(values) - 1:
        kept[-1] = len(values) - 1
    return [values[i] for i in kept]


def tick_text(v: float) -> str:
    """A swept value as a tick label: 0.02, 150, 1000 and 10⁻⁵ rather than 1e-05."""
    s = f"{v:.3g}"
    if "e" in s and 1 <= abs(v) < 1e6:
        return f"{float(s):.0f}"  # 1000, not 1e+03
    if "e" not in s:
        return s
    mantissa, exponent = s.split("e")
    power = f"10^{{{int(exponent)}}}"
    return f"${power}$" if mantissa == "1" else rf"${mantissa}\times{power}$"


def unit_axis(axis: Any, name: str, unit: Optional[str], top: float, log: bool = False,
              prefix: Optional[str] = None, low: float = 0.0) -> str:
    """Tick labels in a readable scale and the axis label that names it: values up to
    2.1e6 b/s tick as 0.5, 1, 2 under "goodput (Mb/s)" (or in the `prefix` given: "k"
    for kb/s whatever the data). Without a unit, large values tick with an SI prefix
    (1.2 M) and the label is `name` as it is; so do the ticks of a log axis over more
    than three decades (5, 200, 10 k, 1 M under "state (B)"): one prefix for all would
    write 5e-06 MB."""
    if log and top >= 1e4:
        axis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        axis.set_minor_formatter(NullFormatter())
    if unit is not None and log and prefix is None and 0 < low and top > 1e3 * low:
        axis.set_major_formatter(EngFormatter(sep=" "))
        return label(name, unit)
    if unit is None:
        if math.isfinite(top) and top >= 1e4:
            axis.set_major_formatter(EngFormatter())  # 1.2 M rather than 1.2e6 at the top
        return name
    if prefix is not None:
        scale = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9}[prefix]
    else:
        scale, prefix = prefix_for(top) if unit not in _UNPREFIXED else (1.0, "")
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v / scale:g}"))
    return label(name, prefix + unit)


def add_secondary_x(ax: Any, secondary: "SecondaryX") -> None:
    """A second x scale along the top, e.g. 1/√p over the loss rate p."""
    def forward(x: Any) -> Any:
        with np.errstate(divide="ignore", invalid="ignore"):
            return secondary.forward(np.asarray(x, dtype=float))

    def inverse(x: Any) -> Any:
        with np.errstate(divide="ignore", invalid="ignore"):
            return secondary.inverse(np.asarray(x, dtype=float))

    top = ax.secondary_xaxis("top", functions=(forward, inverse))
    top.set_xlabel(secondary.label)
    # Tick the top at the bottom's ticks, in plain numbers (a log scale would otherwise
    # label it 6×10^0 and 10^1).
    low, high = sorted(ax.get_xlim())
    ticks = [t for t in ax.get_xticks() if low <= t <= high]
    if ticks:
        top.xaxis.set_major_locator(FixedLocator([float(forward(t)) for t in ticks]))
        top.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.3g}"))
        top.xaxis.set_minor_locator(NullLocator())


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


def check_columns(df: pd.DataFrame, spec: PlotSpec, sweep_axes: Optional[Sequence[str]],
                  aliases: Optional[Sequence[str]]) -> None:
    """An unknown --x, --hue or --y named with what a user can give instead: the sweep's
    axes, its metric aliases and a few summary keys (issue 27: the message listed
    internal columns, run_id and point, "and 157 more")."""
    for option, column in (("--x", spec.x), ("--hue", spec.hue)):
        if column is None or column in df.columns:
            continue
        if sweep_axes is not None:
            known = ", ".join(sweep_axes) or "none (the sweep has a single point)"
            raise PlotError(f"{option} {short_repr(column)}: no such axis in the results{_close(column, df)}; "
                            f"the sweep's axes: {known}")
        raise PlotError(f"{option} {short_repr(column)}: no such column in the results{_close(column, df)}; "
                        f"columns: {_some_columns(df)}")
    if spec.y not in df.columns:
        known = ", ".join(aliases or []) or "none"
        keys = [k for k in ("goodput_mean_bps", "flows.0.goodput_bps", "flows.0.timeouts") if k in df.columns]
        example = f" such as {', '.join(keys)}" if keys else ""
        raise PlotError(f"--y {short_repr(spec.y)}: no such metric in the results{_close(spec.y, df)}; use a metric "
                        f"alias ({known}) or a summary key{example}")


def _close(given: str, df: pd.DataFrame) -> str:
    """` (did you mean X?)` for the closest column a user could mean, else ""."""
    import difflib

    names = [str(c) for c in df.columns if c not in _NOT_AXES]
    close = difflib.get_close_matches(given, names, n=1, cutoff=0.75)
    return f" (did you mean {close[0]}?)" if close else ""


def _some_columns(df: pd.DataFrame, limit: int = 12) -> str:
    names = [str(c) for c in df.columns if not str(c).startswith(_RESULT_PREFIXES[1:])]
    more = len(df.columns) - len(names[:limit])
    return ", ".join(names[:limit]) + (f" and {more} more" if more > 0 else "")
