"""Synthetic runs for cellular-bufferbloat's claims (lossy.papers.synthetic), shaped like
the `aqm` and `probe-constant` sweeps' rows: per trace (the zip's `trace` value), queue
and control. CUBIC over DropTail keeps the 2-second buffer full (p95 RTT `dt_rtt_s`);
BBRv1 keeps about one BDP of queue; CoDel and PIE cut CUBIC's delay `aqm_cut`-fold at
`aqm_goodput` of DropTail's goodput, PIE's mean sojourn `pie_sojourn_ms`."""

from __future__ import annotations

from typing import Callable, Dict

import pandas as pd

from .. import synthetic
from .sweeps import GOODPUT, MEAN_BPS, RTT_P95, SOJOURN_MEAN, TRACES

Runs = Dict[str, pd.DataFrame]
Maker = Callable[[], Runs]
TRACE_VALUES = [f"mahimahi:{t}.down" for t in TRACES]


def aqm(dt_rtt_s: float = 2.6, aqm_cut: float = 10.0, aqm_goodput: float = 0.95,
        pie_sojourn_ms: float = 15.0) -> Maker:
    def level(trace: str, queue: str, cc: str) -> Dict[str, float]:
        rate = MEAN_BPS[trace.split(":")[1].rsplit(".", 1)[0]] * 0.95
        if cc == "bbr":
            return {GOODPUT: rate, RTT_P95: 150.0, SOJOURN_MEAN: 40.0}
        if queue == "droptail":
            return {GOODPUT: rate, RTT_P95: dt_rtt_s * 1000, SOJOURN_MEAN: dt_rtt_s * 800}
        sojourn = pie_sojourn_ms if queue == "pie" else 8.0
        return {GOODPUT: rate * aqm_goodput, RTT_P95: dt_rtt_s * 1000 / aqm_cut, SOJOURN_MEAN: sojourn}

    def make() -> Runs:
        return {"aqm": synthetic.runs({"trace": TRACE_VALUES, "queue": ["droptail", "codel", "pie"],
                                       "cc": ["cubic", "bbr"]}, level)}
    return make


__all__ = ["aqm"]
