"""Synthetic runs for the claims' examples (lossy.papers.synthetic): rows shaped like
the sweeps', normalized throughput given per point and turned into goodput in bit/s,
as the sweeps store it."""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, Mapping, Sequence

import pandas as pd

from .. import synthetic
from ..model import Runs
from .setup import RATE_BPS

SNRS = [10, 20, 30]
BURSTS = [1, 2, 5, 10, 20, 50, 100, 200]


def fig(sweep: str, axes: Mapping[str, Sequence[Any]], norm: Callable[..., float]) -> Callable[[], Runs]:
    """A zero-argument example: `sweep`'s rows with normalized throughput `norm(**point)`."""
    def make() -> Runs:
        return {sweep: frame(axes, norm)}
    return make


def frame(axes: Mapping[str, Sequence[Any]], norm: Callable[..., float], seed: int = 1) -> pd.DataFrame:
    return synthetic.runs(axes, lambda **p: norm(**p) * RATE_BPS, metric="throughput", seed=seed)


def both(*makers: Callable[[], Runs]) -> Callable[[], Runs]:
    """Examples for a claim that reads several sweeps."""
    def make() -> Runs:
        out: Dict[str, pd.DataFrame] = {}
        for m in makers:
            out.update(m())
        return out
    return make


def dip(at: float, depth: float = 0.45, top: float = 0.6, width: float = 0.8) -> Callable[[float], float]:
    """Throughput against the burst length with its minimum at burst `at` (log scale)."""
    return lambda burst: top - depth * math.exp(-math.log(burst / at) ** 2 / (2 * width ** 2))


__all__ = ["BURSTS", "SNRS", "both", "dip", "fig", "frame"]
