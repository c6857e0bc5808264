"""A claim's quantity as we measured it: the value with its 95 % confidence interval
over replications.

Every quantity a claim measures, however derived (a ratio of two schemes' means, a
difference, an efficiency, a Jain index, a crossing's side), gets its interval the same
way: the delete-one jackknife over replications. The statistic is computed on all
replications, then once with each replication left out *of every scheme and point at
once*, so schemes compared at the same replication stay paired (common random numbers).
The pseudo-values give a Student-t interval with n − 1 degrees of freedom. For a plain
mean this is exactly the t-interval of lossy.summary; for a ratio of paired means it is
the delta-method interval. (Efron & Tibshirani, An Introduction to the Bootstrap, ch. 11;
the jackknife needs no random draws, so a verdict is a pure function of the runs.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Sequence

import numpy as np
import pandas as pd
from scipy.special import stdtrit

from ..summary import LEVEL, ok_rows
from .bands import fmt

Statistic = Callable[[pd.DataFrame], float]


@dataclass(frozen=True)
class Estimate:
    """value with its 95 % CI [low, high] over n replications. n = 0 marks a quantity
    with no replication noise (a model, a deterministic table): its CI is the value
    itself and `exact` says why."""

    value: float
    low: float
    high: float
    n: int
    exact: str = ""  # why there is no interval (n = 0 only)

    @classmethod
    def of_exact(cls, value: float, why: str) -> "Estimate":
        return cls(value, value, value, 0, why)

    @property
    def has_ci(self) -> bool:
        return not (math.isnan(self.low) or math.isnan(self.high))

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def text(self, unit: str = "×") -> str:
        """`2.15× (95 % CI 2.02× to 2.29×, n = 10)`"""
        if math.isnan(self.value):
            return "-"
        if self.n == 0:
            return f"{fmt(self.value, unit)} (exact: {self.exact})" if self.exact else fmt(self.value, unit)
        if not self.has_ci:
            return f"{fmt(self.value, unit)} (n = {self.n}: no CI)"
        return f"{fmt(self.value, unit)} (95 % CI {fmt(self.low, unit)} to {fmt(self.high, unit)}, n = {self.n})"


def replications(rows: pd.DataFrame) -> List[Any]:
    """The replications present among the ok rows, sorted."""
    return sorted(ok_rows(rows)["replication"].dropna().unique().tolist())


def jackknife(rows: pd.DataFrame, statistic: Statistic) -> Estimate:
    """`statistic` of the ok rows with its 95 % jackknife CI over replications (see the
    module's docstring). One replication: the value, no CI."""
    ok = ok_rows(rows)
    value = float(statistic(ok))
    reps = replications(ok)
    n = len(reps)
    if n < 2 or math.isnan(value):
        return Estimate(value, math.nan, math.nan, n)
    rep = ok["replication"].to_numpy()
    left_out = np.array([float(statistic(ok[rep != r])) for r in reps])
    if np.isnan(left_out).any():
        return Estimate(value, math.nan, math.nan, n)
    pseudo = n * value - (n - 1) * left_out
    half = float(stdtrit(n - 1, 0.5 + LEVEL / 2)) * float(pseudo.std(ddof=1)) / math.sqrt(n)
    return Estimate(value, value - half, value + half, n)


def mean_of(metric: str, **where: Any) -> Statistic:
    """The mean of `metric` over the rows whose columns equal `where` (NaN when none)."""
    def stat(df: pd.DataFrame) -> float:
        # Only the metric's column is taken: the whole row set (a sweep has 100+ columns)
        # cost a copy of every column per call, and a jackknife calls this 2n + 2 times.
        mask = matching(df, where)  # first, so a missing column is named as before
        sel = df[metric][mask]
        return float(pd.to_numeric(sel, errors="coerce").mean()) if len(sel) else math.nan
    return stat


def ratio_of(top: Statistic, bottom: Statistic) -> Statistic:
    """top ÷ bottom (NaN when the bottom is 0)."""
    def stat(df: pd.DataFrame) -> float:
        b = bottom(df)
        return top(df) / b if b else math.nan
    return stat


def difference_of(a: Statistic, b: Statistic) -> Statistic:
    return lambda df: a(df) - b(df)


def select(df: pd.DataFrame, where: Dict[str, Any]) -> pd.DataFrame:
    """The rows whose columns equal `where` (floats compared to 1e-12 relative, as grid
    values read back from Parquet)."""
    return df[matching(df, where)]


def matching(df: pd.DataFrame, where: Dict[str, Any]) -> "pd.Series[bool]":
    """select's mask: True where the row's columns equal `where`."""
    mask = pd.Series(True, index=df.index)
    for column, value in where.items():
        col = df[column]
        if isinstance(value, float):
            mask &= np.isclose(pd.to_numeric(col, errors="coerce"), value, rtol=1e-12, atol=0)
        else:
            mask &= col == value
    return mask


def ratio_estimate(rows: pd.DataFrame, metric: str, axis: str, treatment: Any, baseline: Any,
                   **at: Any) -> Estimate:
    """mean(treatment) ÷ mean(baseline) of `metric` at the point `at`, paired by
    replication."""
    return jackknife(select(rows, at) if at else rows,
                     ratio_of(mean_of(metric, **{axis: treatment}), mean_of(metric, **{axis: baseline})))


def values_of(rows: pd.DataFrame, axis: str) -> Sequence[Any]:
    """The values of `axis` among the ok rows, sorted."""
    return sorted(ok_rows(rows)[axis].dropna().unique().tolist())


__all__ = ["Estimate", "Statistic", "difference_of", "jackknife", "matching", "mean_of", "ratio_estimate", "ratio_of",
           "replications", "select", "values_of"]
