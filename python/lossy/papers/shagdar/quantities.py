"""The quantities Shagdar et al.'s claims measure, each point's estimate by the jackknife
over replications (schemes paired by replication): a scheme's throughput over another's
at each SNR, the best of those ratios, a scheme's throughput at one SNR over its own at
another, and a scheme over the best of the others. Each measurement carries a note with
the counters that show where EWLN and RED act (EWLN resends, RED drops and marks per
run), so the report says whether the effect could appear at the points used."""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np
import pandas as pd

from ...summary import ok_rows
from ..context import Context
from ..estimate import Statistic, jackknife, mean_of, ratio_of, select, values_of
from ..judge import Measurement, Part
from ..measures import per_point
from .setup import EWLN_RESENDS

Keep = Callable[[float], bool]


def db(x: float) -> str:
    return f"{x:g} dB"


def _missing(ctx: Context, sweep: str, present: Sequence[float], keep: Keep) -> List[str]:
    """The SNRs of the full run that `keep` keeps and this run lacks."""
    full = ctx.full_values(sweep, "snr")
    if full is None:
        return []
    return [db(x) for x in full if keep(x) and not any(math.isclose(x, y) for y in present)]


def counts(rows: pd.DataFrame, column: str, where: Dict[str, Any]) -> str:
    """`column`'s mean per run at each SNR over the rows matching `where` ("" when the
    rows do not have it, as synthetic examples)."""
    ok = ok_rows(rows)
    if column not in ok.columns:
        return ""
    sel = select(ok, where)
    per = sel.groupby("snr")[column].apply(lambda c: pd.to_numeric(c, errors="coerce").mean())
    return ", ".join(f"{db(s)} {v:.3g}" for s, v in zip(per.index.astype(float), per.to_numpy()))


def ewln_note(rows: pd.DataFrame, scheme: str, where: Dict[str, Any]) -> str:
    text = counts(rows, EWLN_RESENDS, {"scheme": scheme, **where})
    return f"EWLN resends per run of {scheme}: {text}" if text else ""


def ratio_at_each_snr(ctx: Context, sweep: str, treatment: str, baseline: str, keep: Keep,
                      where: Optional[Dict[str, Any]] = None, metric: str = "goodput") -> Measurement:
    """mean(treatment) ÷ mean(baseline) of `metric` at each SNR that `keep` keeps."""
    where = where or {}
    stat = ratio_of(mean_of(metric, scheme=treatment, **where), mean_of(metric, scheme=baseline, **where))
    m = per_point(ctx, sweep, "snr", lambda x: stat, keep, label=db)
    return Measurement(m.parts, m.missing, m.note)


def best_ratio(ctx: Context, sweep: str, treatment: str, baseline: str,
               where: Optional[Dict[str, Any]] = None) -> Measurement:
    """The largest treatment ÷ baseline over the SNRs ("the best case"), as one statistic:
    each replication is left out of every SNR at once, so the CI covers the choice of
    the best point too."""
    where = where or {}
    rows = ctx[sweep]
    snrs = values_of(rows, "snr")
    ratios = [ratio_of(mean_of("goodput", scheme=treatment, snr=s, **where),
                       mean_of("goodput", scheme=baseline, snr=s, **where)) for s in snrs]

    def best(df: pd.DataFrame) -> float:
        values = np.array([r(df) for r in ratios], dtype=float)
        return float(np.nanmax(values)) if np.isfinite(values).any() else math.nan

    e = jackknife(rows, best)
    values = [r(ok_rows(rows)) for r in ratios]
    at = snrs[int(np.nanargmax(values))] if np.isfinite(values).any() else math.nan
    label = f"best over {len(snrs)} SNRs (at {db(at)})"
    return Measurement([Part(label, e)], _missing(ctx, sweep, snrs, lambda x: True))


def against_own(ctx: Context, sweep: str, scheme: str, reference: float, keep: Keep) -> Measurement:
    """mean(scheme at SNR s) ÷ mean(scheme at `reference`) for each s that `keep` keeps:
    how its throughput moves from the reference point (paired by replication)."""
    rows = ctx[sweep]
    present = [s for s in values_of(rows, "snr") if keep(s)]
    parts = [Part(f"{db(s)} ÷ {db(reference)}", jackknife(rows, ratio_of(mean_of("goodput", scheme=scheme, snr=s),
                                                                           mean_of("goodput", scheme=scheme,
                                                                                   snr=reference))))
             for s in present]
    missing = _missing(ctx, sweep, present, keep)
    if not any(math.isclose(reference, s) for s in values_of(rows, "snr")):
        missing.append(f"{db(reference)} (the reference)")
    return Measurement(parts, missing)


def over_best_other(ctx: Context, sweep: str, scheme: str, others: Sequence[str], keep: Keep) -> Measurement:
    """mean(scheme) ÷ the largest mean of `others` at each SNR: above 1 where `scheme` is
    the highest (the best other chosen afresh in each jackknife subsample)."""
    top = mean_of("goodput", scheme=scheme)
    rest = [mean_of("goodput", scheme=o) for o in others]

    def stat(df: pd.DataFrame) -> float:
        best = max(r(df) for r in rest)
        return top(df) / best if best else math.nan

    statistic: Statistic = stat
    return per_point(ctx, sweep, "snr", lambda x: statistic, keep, label=db)


def with_note(m: Measurement, *notes: str) -> Measurement:
    text = "; ".join(n for n in (m.note, *notes) if n)
    return Measurement(m.parts, m.missing, text)


__all__ = ["against_own", "best_ratio", "counts", "db", "ewln_note", "over_best_other", "ratio_at_each_snr",
           "with_note"]
