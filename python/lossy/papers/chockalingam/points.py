"""What the claims measure on the sweeps: normalized throughput (goodput ÷ the 1.5 Mbps
link rate, the paper's y-axis, §IV footnote 1) at each point of a figure, as jackknife
estimates over replications. Every point of a sweep runs the same seeds at a given
replication, so two curves compared at a point are paired (common random numbers).

Unless a claim says otherwise it reads the runs driven by the two-state chain fitted
to the fading channel, as the paper's figures were (§IV: "These channel parameters are
then used as inputs to the TCP simulations")."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import pandas as pd

from ...summary import ok_rows
from ..context import Context
from ..estimate import Statistic, difference_of, jackknife, mean_of, select
from ..judge import Measurement, Part
from ..model import Claim
from .figures import normalized

Point = Tuple[Any, ...]
Keep = Callable[[Point, pd.DataFrame], bool]

# Below FLOOR of the link rate TCP is starved by timeouts, above CEILING it is within
# reach of what the 24-packet window carries (0.97–0.98): at either end no curve can
# stand above another, so a direction is judged only where a compared curve is off
# the floor and one is below the ceiling.
FLOOR, CEILING = 0.05, 0.9


# What drives each claim's runs, named in its `source` (the report's source column):
# the chain fitted to the fading channel, as the paper ran TCP (§IV: "These channel
# parameters are then used as inputs to the TCP simulations"), or the fading channel
# itself, bit by bit, where a sweep runs both (Figs. 2 and 5: each claim on them has a
# twin, key "<key>-fading", judged on the fading runs).
ON_CHAIN = "on the fitted chain (as the paper)"
ON_FADING = "on the fading channel itself"
ON_SET_CHAIN = "on the chain set from P_E and (1 − q)⁻¹ (as the paper)"
ON_FIT = "the fit of the fading channel, bit by bit (as the paper)"


def driven(source: str, drive: str) -> str:
    """A claim's source with what its runs are driven by."""
    return f"{source} · {drive}"


def rows(ctx: Context, sweep: str, drive: str = "markov", **where: Any) -> pd.DataFrame:
    """The sweep's finished runs with `norm` (and Figs. 3–4's `burst`, `p_e`), those
    driven by `drive` when the sweep has both drives, restricted to `where`."""
    df = normalized()(ok_rows(ctx[sweep]))
    if "drive" in df.columns:
        df = df[df["drive"] == drive]
    return select(df, where) if where else df


def level(**where: Any) -> Statistic:
    """Mean normalized throughput of the runs matching `where`."""
    return mean_of("norm", **where)


def gap(a: Mapping[str, Any], b: Mapping[str, Any]) -> Statistic:
    """Mean normalized throughput of the `a` runs minus the `b` runs (paired)."""
    return difference_of(level(**a), level(**b))


def off_the_ends(*curves: Mapping[str, Any]) -> Keep:
    """Keep a point where one of `curves` is above FLOOR and one below CEILING."""
    def keep(point: Point, at: pd.DataFrame) -> bool:
        means = [level(**c)(at) for c in curves]
        return max(means) > FLOOR and min(means) < CEILING
    return keep


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(float(a), float(b), rel_tol=1e-9)
    return bool(a == b)


def _present(df: pd.DataFrame, axes: Sequence[str]) -> List[Point]:
    if df.empty:
        return []
    return sorted({tuple(r) for r in df[list(axes)].itertuples(index=False)})


def _full_grid(ctx: Context, sweep: str, axes: Sequence[str], full: Mapping[str, Sequence[Any]],
               where: Mapping[str, Any]) -> Optional[List[Point]]:
    """The points of `axes` the full run has (None for synthetic runs, which know no
    spec): `full` names the values of axes derived from the spec (Figs. 3–4's burst)."""
    if ctx.specs.get(sweep) is None:
        return None
    values = []
    for axis in axes:
        v = [where[axis]] if axis in where else full.get(axis)
        if v is None:
            v = ctx.full_values(sweep, axis)
        if v is None:
            return None
        values.append(list(v))
    return [p for p in itertools.product(*values)]


def per_point(ctx: Context, sweep: str, axes: Sequence[str], statistic: Callable[[Point], Statistic],
              label: Callable[[Point], str], keep: Optional[Keep] = None, drive: str = "markov",
              full: Optional[Mapping[str, Sequence[Any]]] = None, where: Optional[Dict[str, Any]] = None,
              frame: Optional[pd.DataFrame] = None) -> Measurement:
    """`statistic(point)` at each point of `axes` (each kept by `keep`), on the runs of
    `sweep` restricted to `where` (or on `frame`, rows made from several sweeps). Every
    point of the full run that this run lacks is named missing, kept or not (a quick
    run cannot know which the full run would keep)."""
    df = frame if frame is not None else rows(ctx, sweep, drive, **(where or {}))
    present = _present(df, axes)
    parts = []
    for point in present:
        at = select(df, dict(zip(axes, point)))
        if keep is None or keep(point, at):
            parts.append(Part(label(point), jackknife(at, statistic(point))))
    grid = _full_grid(ctx, sweep, axes, full or {}, where or {})
    missing = [] if grid is None else [label(p) for p in grid if not any(
        all(_same(a, b) for a, b in zip(p, q)) for q in present)]
    note = "" if parts else "no point where the compared curves leave room for a difference"
    return Measurement(parts, missing, note)


def lacking(ctx: Context, sweep: str, df: pd.DataFrame, column: str, full: Sequence[Any],
            label: Callable[[Any], str]) -> List[str]:
    """Labels of the values of `column` the full run has (`full`) and `df` lacks; none
    for synthetic runs (no spec)."""
    if ctx.specs.get(sweep) is None:
        return []
    have = df[column].dropna().unique().tolist() if column in df.columns else []
    return [label(v) for v in full if not any(_same(v, h) for h in have)]


def on_fading(c: Claim, measure: Callable[[Context], Measurement]) -> Claim:
    """`c`'s twin judged on the same sweep's runs driven by the fading channel itself:
    the same words, band and examples, its own key."""
    return replace(c, key=f"{c.key}-fading", text=f"{c.text} — on the fading channel",
                   source=c.source.replace(ON_CHAIN, ON_FADING),
                   quantity=f"{c.quantity}, on the runs driven by the fading channel itself (bit by bit), not the "
                            "fitted chain",
                   measure=measure, probe=None,
                   why_here=f"the points of `{c.key}`, kept by the same rule read on the fading runs")


def db(snr: Any) -> str:
    return f"{float(snr):g} dB"


def hz(fd: Any) -> str:
    return f"{float(fd):g} Hz"


__all__ = ["CEILING", "FLOOR", "Keep", "ON_CHAIN", "ON_FADING", "ON_FIT", "ON_SET_CHAIN", "Point", "db", "driven",
           "gap", "hz", "lacking", "level", "off_the_ends", "on_fading", "per_point", "rows"]
