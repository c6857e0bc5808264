"""Synthetic runs for the claims' examples (lossy.papers.synthetic): the sweeps'
shapes (SNR × scheme, topology 1 with its direction axis) with the claimed effect
absent (null), as the paper states it (faithful) or doubled (exaggerated)."""

from __future__ import annotations

from typing import Callable, Dict, Sequence

import pandas as pd

from .. import synthetic
from .setup import T2_BOTTLENECK, TEXT_DIRECTION
from .sweeps import SNRS

Runs = Dict[str, pd.DataFrame]
# scheme, snr -> mean throughput (b/s), or metric -> mean
Level = Callable[[str, float], object]

DROPS = f"{T2_BOTTLENECK}.queue_drops"


def _snr_shape(snr: float) -> float:
    """Throughput rising with the SNR, as the figures' curves: 0.2 to 1 Mbit/s."""
    return 1e6 * min(1.0, 0.2 + 0.27 * (snr - 8.5))


def t1(schemes: Sequence[str], level: Level) -> pd.DataFrame:
    """Topology 1's rows (fig5 or fig6 shape), in the text's direction."""
    return synthetic.runs({"direction": [TEXT_DIRECTION], "snr": SNRS, "scheme": list(schemes)},
                          lambda direction, snr, scheme: level(scheme, snr))  # type: ignore[arg-type,return-value]


def t2(schemes: Sequence[str], level: Level) -> pd.DataFrame:
    return synthetic.runs({"snr": SNRS, "scheme": list(schemes)},
                          lambda snr, scheme: level(scheme, snr))  # type: ignore[arg-type,return-value]


def gain(factor: Callable[[float], float], treated: Callable[[str], bool]) -> Level:
    """The treated schemes at `factor(snr)` × the others' throughput."""
    return lambda scheme, snr: _snr_shape(snr) * (factor(snr) if treated(scheme) else 1.0)


def four(base: str) -> Sequence[str]:
    return [base, f"ECN-{base}", f"EWLN-{base}", f"EWLN-ECN-{base}"]


def ewln(scheme: str) -> bool:
    return scheme.startswith("EWLN")


__all__ = ["DROPS", "ewln", "four", "gain", "t1", "t2"]
