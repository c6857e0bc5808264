"""Synthetic runs for the claims' examples (lossy.papers.synthetic): a world as the paper
describes it, each effect at the centre of its claim's band (faithful), and the same
world with one effect removed (null) or doubled (exaggerated). Small: six losses, both
delays, 10 replications."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Callable, Dict

import numpy as np
import pandas as pd

from .. import synthetic
from ..model import Runs
from .curves import DELAYS, LOSS_SWEEPS, OVERHEAD, TCPS
from .losses import KS, RATES, SEQUENCES
from .sharing import ALONE, OTHER, TOGETHER
from .sweeps import BOTTLENECK_QUEUES, CONGESTED_SECONDS

LOSSES = (0.001, 0.01, 0.02, 0.05, 0.1, 0.25)
CAPACITY_KBPS = 970.0  # about what the best TCP carries at 0.1 % and 20 ms (the hop's ceiling)
FLAVOURS = dict(zip(TCPS, (0.95, 0.97, 0.99, 1.0)))  # the TCPs a little apart, SACK the best


@dataclass(frozen=True)
class World:
    """Figs. 3–4 as §IV A describes them: FECTCP at the link's rate less its code
    overhead and the loss, the best TCP at the link's rate until its curve, falling as
    1/√p, meets FECTCP's at `crossing`; at 100 ms each scheme keeps its `*_delay` share
    of its 20 ms rate (equal shares keep the crossing where it is: "the general behavior
    ... is still the same"); from 25 % FECTCP's efficiency falls by `fall`."""

    crossing: float = 0.05  # "from about 5%"
    overhead: float = OVERHEAD  # "an average overhead of 5%"
    fectcp_delay: float = 0.9  # "a small performance penalty": the middle of 0.8–1.0
    tcp_delay: float = 0.9  # "a performance penalty on TCP is visible"
    fall: float = 0.9  # "starts to decrease"

    def fectcp_20ms(self, loss: float) -> float:
        fell = self.fall if loss >= 0.25 else 1.0
        return CAPACITY_KBPS / (1 + self.overhead) * (1 - loss) / (1 - LOSSES[0]) * fell

    def level(self, delay: str, loss: float, scheme: str) -> float:
        slow = delay == "100 ms"
        if scheme == "FECTCP":
            return 1e3 * self.fectcp_20ms(loss) * (self.fectcp_delay if slow else 1.0)
        best = min(CAPACITY_KBPS, self.fectcp_20ms(loss) * math.sqrt(self.crossing / loss))
        return 1e3 * best * (self.tcp_delay if slow else 1.0) * FLAVOURS[scheme]

    def runs(self) -> Runs:
        axes = {"delay": DELAYS, "loss": LOSSES, "scheme": ("FECTCP", *TCPS)}
        # 1 % spread: the overhead band (3.6–6.0 %) is narrow against a 2 % noise
        return {sweep: synthetic.runs(axes, self.level, spread=0.01, seed=i + 1) for i, sweep in enumerate(LOSS_SWEEPS)}


PAPER = World()


def world(**changes: Any) -> Callable[[], Runs]:
    """The paper's world with `changes`, as an example."""
    return lambda: replace(PAPER, **changes).runs()


def _apart(axes: Dict[str, Any], levels: Dict[str, float]) -> pd.DataFrame:
    """Rows with each metric's own replication noise (a separate seed per metric), as
    two flows' rates are: one synthetic.runs per metric, joined on the rows."""
    frames = [synthetic.runs(axes, lambda **point: {m: v}, seed=i + 1) for i, (m, v) in enumerate(levels.items())]
    out = frames[0]
    for f in frames[1:]:
        out = out.assign(**{c: f[c] for c in f.columns if c in levels})
    return out


def two_flows(sweep: str, alone_kbps: float, fectcp_kbps: float, other_kbps: float) -> Callable[[], Runs]:
    """Figs. 5–6 per run: FECTCP's mean rate alone, and FECTCP's and the other flow's
    together."""
    levels = {ALONE: 1e3 * alone_kbps, TOGETHER: 1e3 * fectcp_kbps, OTHER: 1e3 * other_kbps}
    return lambda: {sweep: _apart({"run": (sweep,)}, levels)}


def congested(fectcp_over_tcp: float, tcp_mbps: float = 2.0) -> Callable[[], Runs]:
    """The congested bottleneck with FECTCP at `fectcp_over_tcp` times the mean TCP
    flow's rate under both queues."""
    symbols = fectcp_over_tcp * tcp_mbps * 1e6 * CONGESTED_SECONDS / (1460 * 8)
    levels = {"fectcp_symbols": symbols, "tcp_mean": tcp_mbps * 1e6, "sim_time_s": float(CONGESTED_SECONDS),
              "fectcp_reductions": 100.0, "drops": 1000.0}
    return lambda: {"congested": _apart({"queue": tuple(BOTTLENECK_QUEUES)}, levels)}


def fig1(consecutive: float = 0.0, formula_consecutive: float = 0.0, packets: int = 2_000_000,
         replications: int = 10) -> Callable[[], Runs]:
    """Fig. 1's sequences (losses.sequences' columns) at each rate p: distances between
    losses drawn independently, a share `consecutive` of them 1 and the rest geometric
    with parameter p (`consecutive` = 0: independent losses, P(d = 1) = p); the formula
    columns hold the CDF of the same law with `formula_consecutive`."""
    def runs() -> Runs:
        rng = np.random.default_rng(7)
        rows = []
        for p in RATES:
            n = int(p * packets)
            formula = {f"formula_{k}": formula_consecutive + (1 - formula_consecutive) * (1 - (1 - p) ** k)
                       for k in KS}
            for r in range(replications):
                d = np.where(rng.random(n) < consecutive, 1, rng.geometric(p, n))
                rows.append({"loss": p, "replication": r, "status": "ok", "packets": packets, "losses": n + 1,
                             "distances": n, **{f"cdf_{k}": int((d <= k).sum()) for k in KS}, **formula})
        return {SEQUENCES: pd.DataFrame(rows)}
    return runs


__all__ = ["CAPACITY_KBPS", "LOSSES", "PAPER", "World", "congested", "fig1", "two_flows", "world"]
