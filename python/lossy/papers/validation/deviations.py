"""Our means against a model, point by point, and a paired ratio's interval in words:
what the validation's figures and tables show beside the claims (the claims themselves
measure with lossy.papers.estimate)."""

from __future__ import annotations

import math
from typing import Any, Callable

import pandas as pd

from ...summary import ok_rows, summarize

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


def ratio_ci(row: pd.Series[Any]) -> str:
    """The ratio's 95 % CI, taken as 1 + (CI of the paired difference) / baseline mean:
    the pairing puts the channel's noise in the baseline and the variant alike."""
    base, half = float(row["mean_baseline"]), float(row["half_width"])
    if not base or math.isnan(half):
        return ""
    return f"(95 % CI {1 + float(row['ci_low']) / base:.2f}–{1 + float(row['ci_high']) / base:.2f})"


__all__ = ["Model", "model_deviations", "ratio_ci"]
