"""Summaries of a results table: means with 95 % Student-t confidence intervals per
point, paired differences between variants, and the --until-ci stopping test.

Pure functions on a pandas DataFrame shaped like the sweep store (one row per run:
axis columns, `replication`, `seed`, `status`, metric columns). Only runs with
status "ok" count; a failed run is never part of a mean.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import pandas as pd
from scipy.special import stdtrit  # Student t quantile: stats.t.ppf without importing scipy.stats (1 s)

LEVEL = 0.95

SUMMARY_COLUMNS = ["metric", "n", "mean", "sd", "ci_low", "ci_high", "half_width"]
PAIRED_COLUMNS = [
    "baseline", "metric", "n", "mean_diff", "sd_diff", "ci_low", "ci_high", "half_width",
    "mean_baseline", "mean_variant", "ratio",
]


def t_interval(values: Sequence[float] | np.ndarray) -> Tuple[int, float, float, float]:
    """(n, mean, sd, half-width) of the 95 % Student-t interval of the mean.

    sd uses ddof=1. With n = 1 the sd and half-width are NaN (one run says nothing about
    spread); with n = 0 the mean is NaN too. NaN values are left out of n.
    """
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    n = int(x.size)
    if n == 0:
        return 0, math.nan, math.nan, math.nan
    mean = float(x.mean())
    if n == 1:
        return 1, mean, math.nan, math.nan
    sd = float(x.std(ddof=1))
    half = float(stdtrit(n - 1, 0.5 + LEVEL / 2)) * sd / math.sqrt(n)
    return n, mean, sd, half


def ok_rows(df: pd.DataFrame) -> pd.DataFrame:
    """The runs that finished; a table without a status column is taken as all ok."""
    if "status" not in df.columns:
        return df
    return df[df["status"] == "ok"]


def summarize(df: pd.DataFrame, axes: Sequence[str], metrics: Sequence[str]) -> pd.DataFrame:
    """One row per (point, metric): the axes, then metric, n, mean, sd, ci_low, ci_high,
    half_width. A point is a unique combination of the axis values among ok runs. A
    count's interval is truncated at 0 (`is_count`); ci_high - mean is half_width."""
    axes, metrics = list(axes), list(metrics)
    _require(df, axes + metrics)
    counts = {metric for metric in metrics if is_count(df[metric])}
    rows: List[Dict[str, Any]] = []
    for key, group in _groups(ok_rows(df), axes):
        for metric in metrics:
            n, mean, sd, half = t_interval(_numeric(group[metric], metric))
            low = max(mean - half, 0.0) if metric in counts else mean - half
            rows.append({**dict(zip(axes, key)), "metric": metric, "n": n, "mean": mean, "sd": sd,
                         "ci_low": low, "ci_high": mean + half, "half_width": half})
    return pd.DataFrame(rows, columns=axes + SUMMARY_COLUMNS)


def is_count(column: pd.Series[Any]) -> bool:
    """A count (timeouts, retransmits): whole numbers the core stores as integers, none
    negative. Its mean cannot be below 0, so summarize truncates the interval to
    [0, ∞): the Student-t interval mean ± half-width reached below 0 for a count that
    is mostly 0 (issue 27: timeouts [-1.1, 1.77]); cutting off values the mean cannot
    take loses no coverage. half_width stays the t interval's (the --until-ci test)."""
    if not pd.api.types.is_integer_dtype(column.dtype) or pd.api.types.is_bool_dtype(column.dtype):
        return False
    return bool((column.dropna() >= 0).all())


def paired(
    df: pd.DataFrame, metric: str, variant_axis: str, baseline: str, axes: Sequence[str] = ()
) -> pd.DataFrame:
    """Per point and non-baseline variant: the difference variant − baseline of `metric`
    run by run at equal replication (and seed), so both saw the same random channel
    (common random numbers). Columns: the point axes, the variant axis, baseline,
    metric, n (replications where both runs are ok), mean_diff, sd_diff, ci_low,
    ci_high, half_width (of the mean difference), mean_baseline, mean_variant and
    ratio = mean_variant / mean_baseline over those same replications."""
    point_axes = [a for a in axes if a != variant_axis]
    _require(df, point_axes + [variant_axis, metric, "replication"])
    ok = ok_rows(df)
    variants = list(dict.fromkeys(ok[variant_axis].tolist()))
    if baseline not in variants:
        known = ", ".join(map(str, variants)) or "none"
        raise ValueError(f"baseline {baseline!r} has no ok runs on axis {variant_axis!r} (values: {known})")
    match = ["replication"] + (["seed"] if "seed" in ok.columns else [])
    rows: List[Dict[str, Any]] = []
    for key, group in _groups(ok, point_axes):
        base = _by_replication(group[group[variant_axis] == baseline], match, metric)
        for variant in variants:
            if variant == baseline:
                continue
            other = _by_replication(group[group[variant_axis] == variant], match, metric)
            both = base.merge(other, left_index=True, right_index=True, suffixes=("_b", "_v")).dropna()
            b = both[f"{metric}_b"].to_numpy(dtype=float)
            v = both[f"{metric}_v"].to_numpy(dtype=float)
            n, mean, sd, half = t_interval(v - b)
            mean_b = float(b.mean()) if n else math.nan
            mean_v = float(v.mean()) if n else math.nan
            rows.append({
                **dict(zip(point_axes, key)), variant_axis: variant, "baseline": baseline,
                "metric": metric, "n": n, "mean_diff": mean, "sd_diff": sd,
                "ci_low": mean - half, "ci_high": mean + half, "half_width": half,
                "mean_baseline": mean_b, "mean_variant": mean_v,
                "ratio": mean_v / mean_b if mean_b else math.nan,
            })
    return pd.DataFrame(rows, columns=point_axes + [variant_axis] + PAIRED_COLUMNS)


def ci_satisfied(summary_df: pd.DataFrame, target: float) -> bool:
    """True when every row's half-width is within `target`·|mean| (target 0.05 = 5 %).
    A NaN half-width (n < 2) or an empty summary is not satisfied: more runs are needed."""
    if summary_df.empty:
        return False
    half = summary_df["half_width"].to_numpy(dtype=float)
    bound = target * np.abs(summary_df["mean"].to_numpy(dtype=float))
    return bool(np.all(half <= bound))  # NaN compares False


# --- helpers ---------------------------------------------------------------------------


def _require(df: pd.DataFrame, columns: Sequence[str]) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise KeyError(f"no column {', '.join(map(repr, missing))} in the results")


def _groups(df: pd.DataFrame, axes: List[str]) -> List[Tuple[Tuple[Any, ...], pd.DataFrame]]:
    """(axis values, rows) per point in sorted order; one group of everything without axes."""
    if not axes:
        return [((), df)]
    return [((k if isinstance(k, tuple) else (k,)), g)
            for k, g in df.groupby(axes, sort=True, dropna=False)]


def _numeric(column: pd.Series[Any], name: str) -> np.ndarray:
    values = pd.to_numeric(column, errors="coerce")
    if values.isna().all() and column.notna().any():
        raise TypeError(f"metric {name!r} is not numeric")
    return values.to_numpy(dtype=float)


def _by_replication(rows: pd.DataFrame, match: List[str], metric: str) -> pd.DataFrame:
    # One value per replication; a duplicate (the same run stored twice) keeps the first.
    out = rows[match + [metric]].drop_duplicates(subset=match).set_index(match)
    out[metric] = pd.to_numeric(out[metric], errors="coerce")
    return out
