"""Building blocks for claims: our means against a model, paired gains of one variant
over another, and runs that must be identical. Each returns a Verdict with our number in
words and the reason. Missing data (no runs at a point the claim covers, no pairs) makes
the verdict "could not be checked", never "not reproduced": it is a defect, not a result."""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import pandas as pd

from ..summary import ok_rows, paired, summarize
from ..formatting import pct as _pct, tolerance as _tol, values as _values
from .verdict import Verdict

def point_means(runs: pd.DataFrame, keys: Sequence[str], metric: str = "goodput") -> Dict[Tuple[Any, ...], float]:
    """The mean of `metric` over the ok runs of each point, keyed by the values of `keys`
    in that order."""
    s = summarize(ok_rows(runs), list(keys), [metric])
    return {tuple(r[k] for k in keys): float(r["mean"]) for r in s.to_dict("records")}


# model(x, rows of that point) -> the model's value of the metric at x
Model = Callable[[float, pd.DataFrame], float]


def model_deviations(df: pd.DataFrame, metric: str, axis: str, model: Model) -> pd.DataFrame:
    """Per value of `axis` (among ok runs): n, mean, half_width, the model's value and
    our relative deviation mean/model − 1 with its 95 % CI (dev_low, dev_high)."""
    ok = ok_rows(df)
    s = summarize(ok, [axis], [metric]).sort_values(axis)
    s["model"] = [model(float(x), ok[ok[axis] == x]) for x in s[axis]]
    s["deviation"] = s["mean"] / s["model"] - 1
    s["dev_low"] = s["ci_low"] / s["model"] - 1
    s["dev_high"] = s["ci_high"] / s["model"] - 1
    return s.reset_index(drop=True)


def within_model(
    df: pd.DataFrame, metric: str, axis: str, model: Model, tolerance: float,
    where: Callable[[float], bool] = lambda x: True, model_name: str = "the model",
    below: Optional[float] = None,
) -> Verdict:
    """Reproduced when our mean is within ±tolerance of the model at every value of
    `axis` that `where` keeps (and every such value has ok runs). With `below`, the band
    is asymmetric: from −below to +tolerance (for a model expected to err one way)."""
    low_bound = -(tolerance if below is None else below)
    band = _tol(tolerance) if below is None else f"−{below * 100:.0f} % to +{tolerance * 100:.0f} %"
    expected = sorted({float(x) for x in df[axis].dropna() if where(float(x))})
    if not expected:
        return Verdict.unchecked(f"no runs with {axis} in the claimed range")
    dev = model_deviations(df[df[axis].isin(expected)], metric, axis, model)
    missing = sorted(set(expected) - {float(x) for x in dev[axis]})
    if missing:
        return Verdict.unchecked(f"no finished runs at {axis} = {_values(missing)}")
    excess = (dev["deviation"] - tolerance).clip(lower=0) + (low_bound - dev["deviation"]).clip(lower=0)
    worst = dev.iloc[int(excess.to_numpy().argmax())] if excess.max() > 0 else \
        dev.iloc[int(dev["deviation"].abs().to_numpy().argmax())]
    low, high = _pct(dev["deviation"].min()), _pct(dev["deviation"].max())
    ours = f"{low} from {model_name}" if low == high else f"{low} to {high} from {model_name}"
    at = f"{axis} = {worst[axis]:g}"
    if excess.max() <= 0:
        reason = f"every point within {band}; largest {_pct(worst['deviation'])} at {at}"
        crossing = dev[(dev["dev_low"] < low_bound) | (dev["dev_high"] > tolerance)]
        if not crossing.empty:
            reason += (f" (the 95 % CI crosses the bound at {axis} = "
                       f"{_values(crossing[axis].tolist())})")
        return Verdict.of(True, ours, reason)
    outside = dev[excess > 0]
    reason = (f"{_pct(worst['deviation'])} at {at} (95 % CI {_pct(worst['dev_low'])} to "
              f"{_pct(worst['dev_high'])}, n = {int(worst['n'])}) is outside {band}")
    if len(outside) > 1:
        reason += f"; outside at {axis} = {_values(outside[axis].tolist())}"
    return Verdict.of(False, ours, reason)


def gain_row(df: pd.DataFrame, metric: str, variant_axis: str, baseline: str, variant: str,
             axis: str, at: Any) -> Optional[pd.Series[Any]]:
    """The paired comparison of `variant` with `baseline` at `axis` = `at` (None when
    there is no such point)."""
    pairs = paired(df, metric, variant_axis, baseline, [axis])
    rows = pairs[(pairs[variant_axis] == variant) & (pairs[axis] == at)]
    return None if rows.empty else rows.iloc[0]


def gain_at_least(row: Optional[pd.Series[Any]], least: float, names: str = "") -> Verdict:
    """Reproduced when the ratio of means is at least `least` and the paired difference
    is positive beyond its 95 % CI. `row` is one row of lossy.summary.paired."""
    if row is None or int(row["n"]) == 0:
        return Verdict.unchecked("no pairs of finished runs at this point")
    ratio, n = float(row["ratio"]), int(row["n"])
    ours = f"{ratio:.2f}× {ratio_ci(row)}".strip()
    if ratio < least:
        return Verdict.of(False, ours, f"{names}ratio of means {ratio:.2f} is below {least:.1f} (n = {n} pairs)")
    if n < 2 or math.isnan(float(row["half_width"])):
        return Verdict.of(True, ours, f"{names}ratio {ratio:.2f} ≥ {least:.1f}; one pair only, so no CI")
    if float(row["ci_low"]) <= 0:
        return Verdict.of(False, ours, f"{names}ratio {ratio:.2f} ≥ {least:.1f}, but the paired difference's "
                                    f"95 % CI includes 0 (n = {n})")
    return Verdict.of(True, ours, f"{names}ratio {ratio:.2f} ≥ {least:.1f}; paired difference > 0 "
                               f"beyond its 95 % CI (n = {n} pairs, same seeds)")


def ratio_ci(row: pd.Series[Any]) -> str:
    """The ratio's 95 % CI, taken as 1 + (CI of the paired difference) / baseline mean:
    the pairing puts the channel's noise in the baseline and the variant alike."""
    base, half = float(row["mean_baseline"]), float(row["half_width"])
    if not base or math.isnan(half):
        return ""
    return f"(95 % CI {1 + float(row['ci_low']) / base:.2f}–{1 + float(row['ci_high']) / base:.2f})"


def identical_runs(df: pd.DataFrame, metric: str, variant_axis: str, baseline: str, variant: str,
                   axes: list[str]) -> Verdict:
    """Reproduced when `variant` and `baseline` give exactly the same value in every
    pair of runs at the same replication."""
    pairs = paired(df, metric, variant_axis, baseline, axes)
    pairs = pairs[pairs[variant_axis] == variant]
    n = int(pairs["n"].sum())
    if n == 0:
        return Verdict.unchecked("no pairs of finished runs")
    ok = ok_rows(df)
    b = ok[ok[variant_axis] == baseline].set_index(_keys(ok, axes))[metric]
    v = ok[ok[variant_axis] == variant].set_index(_keys(ok, axes))[metric]
    diff = (v - b).dropna().abs()
    worst = float(diff.max())
    ours = f"largest difference {worst:g} over {n} pairs"
    if worst == 0:
        return Verdict.of(True, ours, f"all {n} pairs identical (same seeds, same channel)")
    return Verdict.of(False, ours, f"{int((diff > 0).sum())} of {n} pairs differ")


def _keys(df: pd.DataFrame, axes: list[str]) -> list[str]:
    return axes + ["replication"] + (["seed"] if "seed" in df.columns else [])



def all_of(labels: Sequence[str], verdicts: Sequence[Verdict]) -> Verdict:
    """One verdict of several parts (e.g. a claim about Reno and NewReno): reproduced
    when every part is, could not be checked when any part could not be."""
    if len(verdicts) == 1:
        return verdicts[0]
    ours = "; ".join(f"{k}: {v.ours}" for k, v in zip(labels, verdicts))
    reason = "; ".join(f"{k}: {v.reason}" for k, v in zip(labels, verdicts))
    if not all(v.checked for v in verdicts):
        return Verdict.unchecked(reason, ours)
    return Verdict.of(all(v.reproduced for v in verdicts), ours, reason)
