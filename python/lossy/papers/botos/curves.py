"""Figs. 3–4 as the claims measure them: statistics of the runs at points of the
throughput sweeps (a loss reading × end-to-end delay × segment loss), each with its
jackknife 95 % CI over replications (estimate.py). FECTCP and the four TCPs run with the
same seed per replication (common random numbers), so a difference or ratio of schemes
is paired, and so is one of two delays or two losses of one scheme."""

from __future__ import annotations

import math
from typing import Callable, List, Sequence

import pandas as pd

from ..bands import STATED
from ..context import Context
from ..estimate import Statistic, jackknife, mean_of, select, values_of
from ..judge import Measurement, Part

TCPS = ("Tahoe", "Reno", "NewReno", "SACK")  # "various flavors of TCP" (§III)
DELAYS = ("20 ms", "100 ms")
# Figs. 3–4 under both loss readings: the paper's text does not say whether its runs used
# the Neyman Type A channel of §II C or independent losses (NOTES), so a claim on them
# must hold under either.
LOSS_SWEEPS = ("independent", "neyman")
PAPER_TOP = 0.25  # "Simulated segment loss rates ranged from 0.1% to 25%" (§IV A)
# "below 5%" / "from about 5%" (§IV A): the crossing at 5 % ± the stated-number rule.
CROSSING = (0.05 * (1 - STATED), 0.05 * (1 + STATED))
OVERHEAD = 0.05  # "a rateless code with an average overhead of 5% was used" (§IV A)


def loss_text(p: float) -> str:
    return f"{p * 100:g} %"


def scheme_means(df: pd.DataFrame, **where: str) -> "pd.Series[float]":
    """Each scheme's mean goodput (kb/s) over the rows given whose columns equal `where`
    (one groupby: a statistic is called once per replication left out, per part)."""
    for column, value in where.items():
        df = df[df[column] == value]
    return pd.to_numeric(df["goodput"], errors="coerce").groupby(df["scheme"]).mean() / 1e3


def kbps(scheme: str, **where: str) -> Statistic:
    """The mean goodput of `scheme` (kb/s) over the rows given (and `where`)."""
    return lambda df: float(scheme_means(df, **where).get(scheme, math.nan))


def _best(means: "pd.Series[float]") -> float:
    values = [float(means.get(t, math.nan)) for t in TCPS]
    return math.nan if any(math.isnan(v) for v in values) else max(values)


def best_tcp_kbps(**where: str) -> Statistic:
    """The best of the four TCPs' mean goodputs (kb/s); NaN when one is missing."""
    return lambda df: _best(scheme_means(df, **where))


def lead(p: float) -> Statistic:
    """The margin (kb/s) of the scheme §IV A says leads at loss p: the best TCP over
    FECTCP below the crossing band, FECTCP over the best TCP above it."""
    sign = -1.0 if p < CROSSING[0] else 1.0

    def stat(df: pd.DataFrame) -> float:
        means = scheme_means(df)
        return sign * (float(means.get("FECTCP", math.nan)) - _best(means))
    return stat


def _missing(ctx: Context, sweep: str, keep: Callable[[float], bool], present: Sequence[float]) -> List[float]:
    """The losses the full run of `sweep` has (and `keep` keeps) that these runs lack."""
    full = ctx.full_values(sweep, "loss")
    return [] if full is None else [p for p in full if keep(p) and not any(math.isclose(p, q) for q in present)]


def per_delay_and_loss(ctx: Context, keep: Callable[[float], bool],
                       statistic: Callable[[str, float], Statistic], delays: Sequence[str] = DELAYS,
                       what: Callable[[float], str] = lambda p: "") -> Measurement:
    """`statistic(delay, loss)` on the runs at each delay and kept loss of each sweep."""
    parts: List[Part] = []
    missing: List[str] = []
    for sweep in LOSS_SWEEPS:
        rows = ctx[sweep]
        present = [p for p in values_of(rows, "loss") if keep(p)]
        for d in delays:
            def label(p: float) -> str:
                return f"{sweep}, {d}, loss {loss_text(p)}{what(p)}"
            parts += [Part(label(p), jackknife(select(rows, {"delay": d, "loss": p}), statistic(d, p)))
                      for p in present]
            missing += [label(p) for p in _missing(ctx, sweep, keep, present)]
    return Measurement(parts, missing)


def per_loss(ctx: Context, keep: Callable[[float], bool], statistic: Statistic,
             sweeps: Sequence[str] = LOSS_SWEEPS) -> Measurement:
    """`statistic` on the runs (both delays) at each kept loss of each sweep."""
    parts: List[Part] = []
    missing: List[str] = []
    for sweep in sweeps:
        rows = ctx[sweep]
        present = [p for p in values_of(rows, "loss") if keep(p)]
        parts += [Part(f"{sweep}, loss {loss_text(p)}", jackknife(select(rows, {"loss": p}), statistic))
                  for p in present]
        missing += [f"{sweep}, loss {loss_text(p)}" for p in _missing(ctx, sweep, keep, present)]
    return Measurement(parts, missing)


def per_delay(ctx: Context, statistic: Callable[[str], Statistic]) -> Measurement:
    """`statistic(delay)` on all the runs of each sweep at that delay."""
    return Measurement([Part(f"{sweep}, {d}", jackknife(select(ctx[sweep], {"delay": d}), statistic(d)))
                        for sweep in LOSS_SWEEPS for d in DELAYS])


def in_paper_range(p: float) -> bool:
    return p <= PAPER_TOP + 1e-12


# --- the quantities -------------------------------------------------------------------


def crossing(ctx: Context) -> Measurement:
    """The lead of the scheme the paper names at each grid loss outside the crossing band."""
    def keep(p: float) -> bool:
        return in_paper_range(p) and not CROSSING[0] <= p <= CROSSING[1]

    return per_delay_and_loss(ctx, keep, lambda d, p: lead(p),
                              what=lambda p: ": TCP ahead by" if p < CROSSING[0] else ": FECTCP ahead by")


def overhead_deficit(ctx: Context) -> Measurement:
    """FECTCP's deficit to the best TCP (%) at the lowest loss of the grid, 20 ms."""
    def deficit(df: pd.DataFrame) -> float:
        means = scheme_means(df)
        return 100 * (1 - float(means.get("FECTCP", math.nan)) / _best(means))

    lowest = min(values_of(ctx[LOSS_SWEEPS[0]], "loss"))
    return per_delay_and_loss(ctx, lambda p: math.isclose(p, lowest), lambda d, p: deficit, delays=("20 ms",))


def fectcp_delay_ratio(ctx: Context, sweeps: Sequence[str] = LOSS_SWEEPS) -> Measurement:
    """FECTCP's throughput at 100 ms ÷ at 20 ms, per loss (of `sweeps`: a probe's)."""
    slow, fast = kbps("FECTCP", delay="100 ms"), kbps("FECTCP", delay="20 ms")
    return per_loss(ctx, in_paper_range, lambda df: slow(df) / fast(df), sweeps)


def tcp_delay_ratio(ctx: Context) -> Measurement:
    """The best TCP's throughput at 100 ms ÷ at 20 ms, per loss."""
    slow, fast = best_tcp_kbps(delay="100 ms"), best_tcp_kbps(delay="20 ms")
    return per_loss(ctx, in_paper_range, lambda df: slow(df) / fast(df))


FALL_FROM, FALL_AT = 0.1, 0.25  # inside the paper's "good" 5–25 %, and its "≥ 25%"


def efficiency_ratio(d: str) -> Statistic:
    """FECTCP's throughput per segment the channel delivers, at 25 % ÷ at 10 %: the
    fall beyond what the loss itself takes ((1 − p) of the segments arrive)."""
    at = {p: mean_of("goodput", scheme="FECTCP", loss=p) for p in (FALL_FROM, FALL_AT)}
    return lambda df: (at[FALL_AT](df) / (1 - FALL_AT)) / (at[FALL_FROM](df) / (1 - FALL_FROM))


def fectcp_fall(ctx: Context) -> Measurement:
    return per_delay(ctx, efficiency_ratio)


__all__ = ["CROSSING", "DELAYS", "FALL_AT", "FALL_FROM", "LOSS_SWEEPS", "OVERHEAD", "PAPER_TOP", "TCPS",
           "best_tcp_kbps", "crossing", "efficiency_ratio", "fectcp_delay_ratio", "fectcp_fall", "kbps", "lead",
           "overhead_deficit", "tcp_delay_ratio"]
