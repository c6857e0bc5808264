"""The statistics Miyoshi's claims take over replications (estimate.jackknife computes
each one with every replication left out in turn, all schemes at once, so schemes stay
paired): a scheme's mean, and the best or worst of several schemes' means."""

from __future__ import annotations

import math
from typing import Any, Sequence

import pandas as pd

from ..estimate import Statistic, mean_of


def best_of(metric: str, axis: str, values: Sequence[Any], **where: Any) -> Statistic:
    """The largest of the means of `metric` over `values` of `axis` (NaN if one has none)."""
    return _extreme(max, metric, axis, values, where)


def worst_of(metric: str, axis: str, values: Sequence[Any], **where: Any) -> Statistic:
    """The smallest of the means of `metric` over `values` of `axis`."""
    return _extreme(min, metric, axis, values, where)


def _extreme(pick: Any, metric: str, axis: str, values: Sequence[Any], where: Any) -> Statistic:
    def stat(df: pd.DataFrame) -> float:
        means = [mean_of(metric, **{axis: v}, **where)(df) for v in values]
        return math.nan if any(math.isnan(m) for m in means) else float(pick(means))
    return stat


def scaled(statistic: Statistic, factor: float) -> Statistic:
    """`statistic` × `factor` (b/s to kb/s, a fraction to per cent)."""
    return lambda df: statistic(df) * factor


__all__ = ["best_of", "scaled", "worst_of"]
