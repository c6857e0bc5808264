"""Botoș Fig. 1: the CDF of the distance between consecutive packet losses of 1500-byte
packets under Neyman Type A clustered bit errors (§II C), drawn by the core's loss model
on its own (`lossy.loss.loss_sequence`), beside the independent-loss CDF 1 − (1 − p)^k.
The paper's observation: consecutive losses (distance 1) come with a probability about
equal to the mean loss rate. Clusters of errors much shorter than a packet make that so;
clusters spread over packets (the packet-level model) would not, and are shown beside."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, List, Sequence

import numpy as np
import pandas as pd

from ...loss import closed_form, loss_distances, loss_sequence
from ...models import neyman_for_packet_loss
from ..context import Context
from ..figures import Artifact, render_plot
from .setup import PACKET_BYTES
from .sweeps import NEYMAN_ERRORS_PER_CLUSTER, PACKET_CLUSTER_ERRORS, PACKET_CLUSTER_SPAN

RATES = [0.01, 0.05, 0.1, 0.25]
PACKETS = 1_000_000
QUICK_PACKETS = 200_000
MAX_DISTANCE = 60


def neyman_table(p: float, packet_level: bool = False) -> Dict[str, Any]:
    if packet_level:
        return neyman_for_packet_loss(p, PACKET_BYTES, PACKET_CLUSTER_ERRORS, PACKET_CLUSTER_SPAN, unit="packet")
    return neyman_for_packet_loss(p, PACKET_BYTES, float(NEYMAN_ERRORS_PER_CLUSTER))


@lru_cache(maxsize=None)
def distances(p: float, packet_level: bool, packets: int) -> np.ndarray:
    lost = loss_sequence(neyman_table(p, packet_level), packets=packets, packet_bytes=PACKET_BYTES, seed=1)
    return loss_distances(lost)


def _packets(quick: bool) -> int:
    return QUICK_PACKETS if quick else PACKETS


def table(ctx: Context) -> pd.DataFrame:
    """P(distance = 1) measured and in closed form, against p, for both cluster scales."""
    rows: List[Dict[str, Any]] = []
    for packet_level, name in ((False, f"bit clusters (m2 = {NEYMAN_ERRORS_PER_CLUSTER})"),
                               (True, "packet clusters (m2 = 2, span 4)")):
        for p in RATES:
            d = distances(p, packet_level, _packets(ctx.quick))
            cf = closed_form(neyman_table(p, packet_level), PACKET_BYTES)
            rows.append({"clusters": name, "p": p, "losses": len(d) + 1,
                         "P(d = 1) measured": round(float((d == 1).mean()), 4),
                         "P(d = 1) closed form": round(float(cf["next_lost"]), 4),
                         "mean distance": round(float(d.mean()), 2), "1/p": round(1 / p, 2)})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class DistanceCdf:
    """The plot of Fig. 1."""

    key: str = "fig1"
    title: str = "Fig. 1: distribution of the distance between packet losses (1500-byte packets)"
    caption: str = (f"Neyman Type A bit errors (m2 = {NEYMAN_ERRORS_PER_CLUSTER} errors per cluster, spread over "
                    f"{2 * NEYMAN_ERRORS_PER_CLUSTER} bits) at packet loss rates of {', '.join(f'{p:.0%}' for p in RATES)}; "
                    "dashed: independent losses at the same rate, 1 − (1 − p)^k; dotted: clusters counted in packets "
                    "(2 losses per cluster over 4 packets). 10⁶ packets per rate (2·10⁵ with --quick).")
    needs: Sequence[str] = ()
    kind: str = "line plot"

    def draw(self, ax: Any, ctx: Context) -> None:
        ks = np.arange(1, MAX_DISTANCE + 1)
        for i, p in enumerate(RATES):
            colour = f"C{i}"
            d = distances(p, False, _packets(ctx.quick))
            ax.step(ks, [(d <= k).mean() for k in ks], where="post", color=colour, label=f"p = {p:.0%}")
            ax.plot(ks, 1 - (1 - p) ** ks, "--", color=colour, linewidth=0.8)
            dp = distances(p, True, _packets(ctx.quick))
            ax.step(ks, [(dp <= k).mean() for k in ks], ":", where="post", color=colour, linewidth=0.8)
        ax.set_xscale("log")
        ax.set_xlabel("distance between consecutive losses (packets)")
        ax.set_ylabel("CDF")
        ax.grid(True, alpha=0.3)
        ax.legend(frameon=False)

    def render(self, ctx: Context) -> List[Artifact]:
        return render_plot(self, ctx)

