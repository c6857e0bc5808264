"""Synthetic runs for modern-cc's claims (lossy.papers.synthetic): each function returns
the zero-argument maker a claim's Examples takes. The loss-based controls follow the
Mathis law under the path's capacity; BBRv1 follows the BBR authors' bound
link_bandwidth × (1 − p); BBRv3 is BBRv1 below the draft's 2 % threshold and
`bbr3_above_thresh` × BBRv1 above it. The nulls remove the claimed effect (BBR on
CUBIC's curve, BBRv3 equal to BBRv1, the AQMs equal to DropTail), the exaggerations
double the stated magnitude where there is one."""

from __future__ import annotations

import math
from typing import Callable, Dict

import pandas as pd

from .. import synthetic
from .sweeps import GOODPUT, SENT, SOJOURN_P95

Runs = Dict[str, pd.DataFrame]
Maker = Callable[[], Runs]

CAPACITY = 10e6 * 1000 / 1042  # claims.CAPACITY_BPS, not imported: claims imports this module
RTT, MSS_BITS, SECONDS = 0.05, 8000, 60
PS = [1e-4, 1e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2]


def mathis(p: float, factor: float = 1.0) -> float:
    return min(0.94 * CAPACITY, factor * math.sqrt(1.5) * MSS_BITS / (RTT * math.sqrt(p)))


def loss_curves(bbr: str = "bbr", bbr_efficiency: float = 0.97, bbr3_retransmits: float = 0.5,
                bbr3_above_thresh: float = 0.6) -> Maker:
    """loss-sweep rows for Reno, CUBIC, BBRv1 and BBRv3. `bbr` = "cubic" puts BBRv1 (and
    v3) on CUBIC's curve; `bbr3_retransmits` is v3's retransmission rate ÷ v1's."""
    def goodput(cc: str, p: float) -> float:
        if cc == "reno":
            return mathis(p)
        if cc == "cubic" or bbr == "cubic":
            return mathis(p, 1.6)
        v1 = bbr_efficiency * CAPACITY * (1 - p) if p < 0.15 else 0.3 * CAPACITY
        return v1 * (bbr3_above_thresh if cc == "bbr3" and p > 0.02 else 1.0)

    def level(cc: str, p: float) -> Dict[str, float]:
        g = goodput(cc, p)
        sent = g * SECONDS / MSS_BITS / (1 - p)
        resent = p * sent * (bbr3_retransmits if cc == "bbr3" else 1.0)
        return {GOODPUT: g, SENT: sent, "retransmits_fast": 0.9 * resent, "retransmits_timeout": 0.1 * resent}

    def make() -> Runs:
        return {"loss": synthetic.runs({"p": PS, "cc": ["reno", "cubic", "bbr", "bbr3"]}, level)}
    return make


def aqm(delay_cut: float) -> Maker:
    """aqm-sweep rows: DropTail's standing queue (p95 sojourn 190 ms) cut `delay_cut`-fold
    by CoDel and 0.6 × `delay_cut`-fold by PIE (its target is three times CoDel's), at
    nearly DropTail's goodput."""
    cut = {"droptail": 1.0, "codel": delay_cut, "pie": max(1.0, 0.6 * delay_cut)}
    rate = {"droptail": 0.95, "codel": 0.93, "pie": 0.94}

    def make() -> Runs:
        return {"aqm": synthetic.runs(
            {"queue": list(cut), "cc": ["cubic", "reno"]},
            lambda queue, cc: {GOODPUT: rate[queue] * CAPACITY, SOJOURN_P95: 190.0 / cut[queue]})}
    return make


def deep_buffer(bbr_cut: float) -> Maker:
    """aqm-sweep rows under DropTail: CUBIC's and Reno's standing queue (p95 sojourn 190
    ms) and BBRv1's and BBRv3's `bbr_cut` times shorter, at the same goodput."""
    sojourn = {"cubic": 190.0, "reno": 185.0, "bbr": 190.0 / bbr_cut, "bbr3": 190.0 / bbr_cut}

    def make() -> Runs:
        return {"aqm": synthetic.runs(
            {"queue": ["droptail"], "cc": list(sojourn)},
            lambda queue, cc: {GOODPUT: 0.95 * CAPACITY, SOJOURN_P95: sojourn[cc]})}
    return make


__all__ = ["aqm", "deep_buffer", "loss_curves"]
