"""The throughput models the one-hop runs are held to, with one-hop.toml's parameters:
MSS 1000 B (the default), max_window 32000 B = 32 segments, min_rto 1 s (T0 in the
models), an ACK per segment (b = 1). The RTT is measured in each run."""

from __future__ import annotations

from typing import List

import numpy as np
import pandas as pd

from ...models import mathis, pftk_full
from ...plot import Curve
from ...summary import ok_rows

MSS = 1000
WMAX = 32
T0 = 1.0
B = 1


def _rtt(rows: pd.DataFrame) -> float:
    """The mean of the runs' mean RTTs (about 100.9 ms: 100 ms of delay plus
    transmission), which the models take as their RTT."""
    return float(ok_rows(rows)["rtt"].mean())


def pftk_bps(p: float, rows: pd.DataFrame) -> float:
    return 8 * pftk_full(MSS, _rtt(rows), p, T0, WMAX, b=B)


def mathis_bps(p: float, rows: pd.DataFrame) -> float:
    return 8 * mathis(MSS, _rtt(rows), p, b=B)


def model_curves(runs: pd.DataFrame) -> List[Curve]:
    ok = ok_rows(runs)
    ps = np.geomspace(float(ok["p"].min()), float(ok["p"].max()), 60)
    return [
        Curve("PFTK full (b = 1, T0 = 1 s, W_max = 32)", ps.tolist(), [pftk_bps(p, ok) for p in ps], "k--"),
        Curve("Mathis (C = √(3/2))", ps.tolist(), [mathis_bps(p, ok) for p in ps], "k:"),
    ]
