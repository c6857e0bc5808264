"""Measurements the claims share: a statistic at each point of a sweep's axis, the ratio
or difference of two schemes there (paired by replication), and measurements joined
under labels. Each point's estimate comes from estimate.jackknife; the points the full
run has and this run lacks (a quick run's smaller grid) are named as missing, so the
verdict cannot be "reproduced" on a part of the claim."""

from __future__ import annotations

import math
from typing import Any, Callable, List, Sequence

from .context import Context
from .estimate import Statistic, difference_of, jackknife, mean_of, ratio_of, select, values_of
from .judge import Measurement, Part


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12)
    return bool(a == b)


def label_of(axis: str) -> Callable[[Any], str]:
    return lambda x: f"{axis} = {x:g}" if isinstance(x, float) else f"{axis} = {x}"


def per_point(ctx: Context, sweep: str, axis: str, statistic: Callable[[Any], Statistic],
              keep: Callable[[Any], bool] = lambda x: True,
              label: Callable[[Any], str] | None = None) -> Measurement:
    """`statistic(x)` on the runs at each value x of `axis` that `keep` keeps."""
    label = label or label_of(axis)
    rows = ctx[sweep]
    present = [x for x in values_of(rows, axis) if keep(x)]
    full = ctx.full_values(sweep, axis)
    missing = [] if full is None else [label(x) for x in full
                                       if keep(x) and not any(_same(x, y) for y in present)]
    parts = [Part(label(x), jackknife(select(rows, {axis: x}), statistic(x))) for x in present]
    return Measurement(parts, missing)


def ratio_per_point(ctx: Context, sweep: str, metric: str, variant_axis: str, treatment: Any, baseline: Any,
                    axis: str, keep: Callable[[Any], bool] = lambda x: True) -> Measurement:
    """mean(treatment) ÷ mean(baseline) of `metric` at each value of `axis`, paired."""
    stat = ratio_of(mean_of(metric, **{variant_axis: treatment}), mean_of(metric, **{variant_axis: baseline}))
    return per_point(ctx, sweep, axis, lambda x: stat, keep)


def difference_per_point(ctx: Context, sweep: str, metric: str, variant_axis: str, treatment: Any,
                         baseline: Any, axis: str, keep: Callable[[Any], bool] = lambda x: True) -> Measurement:
    """mean(treatment) − mean(baseline) of `metric` at each value of `axis`, paired."""
    stat = difference_of(mean_of(metric, **{variant_axis: treatment}), mean_of(metric, **{variant_axis: baseline}))
    return per_point(ctx, sweep, axis, lambda x: stat, keep)


def joined(labels: Sequence[str], measurements: Sequence[Measurement]) -> Measurement:
    """Several measurements as one, each part's label prefixed with its measurement's."""
    parts: List[Part] = []
    missing: List[str] = []
    notes = []
    for name, m in zip(labels, measurements):
        parts += [Part(f"{name}, {p.label}" if p.label else name, p.estimate, p.band) for p in m.parts]
        missing += [f"{name}, {x}" for x in m.missing]
        if m.note:
            notes.append(f"{name}: {m.note}")
    return Measurement(parts, missing, "; ".join(notes))


__all__ = ["difference_per_point", "joined", "label_of", "per_point", "ratio_per_point"]
