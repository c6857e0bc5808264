"""Botoș Fig. 1: the CDF of the distance between consecutive packet losses of 1500-byte
packets under Neyman Type A clustered bit errors (§II C), drawn by the core's loss model
on its own (`lossy.loss.loss_sequence`), beside the independent-loss CDF 1 − (1 − p)^k.
The paper's observation: consecutive losses (distance 1) come with a probability about
equal to the mean loss rate. Clusters of errors much shorter than a packet make that so;
clusters spread over packets (the packet-level model) would not, and are shown beside.

The two Fig. 1 claims read `sequences`: per loss rate and replication (an independent
seed), the counts of one long loss sequence (packets, losses, distances, distances ≤ k)
and the Neyman Type A formula's CDF at the same k. The formula: for a stationary loss
sequence, P(d = k) = (C(k − 1) − 2C(k) + C(k + 1))/p with C(m) the probability that m
back-to-back packets are all clean, so the CDF is F(k) = 1 − (C(k) − C(k + 1))/p; under
Neyman Type A errors C(m) = exp(−λ·A(mL)) exactly (docs/mechanisms/loss-neyman.md), the
core's closed form for a block of m packets."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Dict, List, Sequence

import numpy as np
import pandas as pd

from ...loss import closed_form, loss_distances, loss_sequence
from ...models import neyman_for_packet_loss
from ..context import Context
from ..estimate import jackknife, select, values_of
from ..figures import Artifact, render_plot
from ..judge import Measurement, Part
from .setup import PACKET_BYTES
from .sweeps import NEYMAN_ERRORS_PER_CLUSTER, PACKET_CLUSTER_ERRORS, PACKET_CLUSTER_SPAN

RATES = [0.01, 0.05, 0.1, 0.25]
PACKETS = 1_000_000
QUICK_PACKETS = 200_000
MAX_DISTANCE = 60

# The claims' sequences: 10 independent ones per rate (seeds 1 to 10), 4·10⁶ packets each
# (4·10⁵ with --quick), and the distances at which the CDF is held to the formula.
SEQUENCES = "fig1-sequences"  # the claims' input (model.Claim.inputs)
REPLICATIONS = 10
SEQUENCE_PACKETS = 4_000_000
QUICK_SEQUENCE_PACKETS = 400_000
KS = (1, 2, 5, 10, 20, 50)


def neyman_table(p: float, packet_level: bool = False) -> Dict[str, Any]:
    if packet_level:
        return neyman_for_packet_loss(p, PACKET_BYTES, PACKET_CLUSTER_ERRORS, PACKET_CLUSTER_SPAN, unit="packet")
    return neyman_for_packet_loss(p, PACKET_BYTES, float(NEYMAN_ERRORS_PER_CLUSTER))


@lru_cache(maxsize=None)
def distances(p: float, packet_level: bool, packets: int) -> np.ndarray:
    lost = loss_sequence(neyman_table(p, packet_level), packets=packets, packet_bytes=PACKET_BYTES, seed=1)
    return loss_distances(lost)


def clean_run(table: Dict[str, Any], m: int) -> float:
    """C(m): the probability that m back-to-back packets are all clean, the closed form's
    for one block of m packets (C(0) = 1)."""
    return 1.0 if m == 0 else 1.0 - float(closed_form(table, m * PACKET_BYTES)["stationary_loss"])


def formula_cdf(table: Dict[str, Any], k: int) -> float:
    """The Neyman Type A formula's CDF of the distance between losses at k (see above)."""
    p = 1.0 - clean_run(table, 1)
    return 1.0 - (clean_run(table, k) - clean_run(table, k + 1)) / p


@lru_cache(maxsize=2)
def sequences(quick: bool) -> pd.DataFrame:
    """One row per rate of Fig. 1 and replication: the counts of one loss sequence of the
    reproduction's Neyman Type A channel (`cdf_k`: distances ≤ k) and the formula's CDF
    (`formula_k`), for the Fig. 1 claims."""
    packets = QUICK_SEQUENCE_PACKETS if quick else SEQUENCE_PACKETS
    rows: List[Dict[str, Any]] = []
    for p in RATES:
        table = neyman_table(p)
        formula = {f"formula_{k}": formula_cdf(table, k) for k in KS}
        for r in range(REPLICATIONS):
            lost = loss_sequence(table, packets=packets, packet_bytes=PACKET_BYTES, seed=r + 1)
            d = loss_distances(lost)
            rows.append({"loss": p, "replication": r, "status": "ok", "packets": packets,
                         "losses": int(lost.sum()), "distances": int(d.size),
                         **{f"cdf_{k}": int((d <= k).sum()) for k in KS}, **formula})
    return pd.DataFrame(rows)


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



# --- the quantities of the Fig. 1 claims, per rate (and distance), over the sequences ---


def _at(rows: pd.DataFrame, p: float) -> pd.DataFrame:
    return select(rows, {"loss": p})


def next_loss_ratio(ctx: Context) -> Measurement:
    """P(d = 1), the simulated CDF at distance 1, ÷ the sequence's loss rate, per rate:
    1 when a loss is followed by another as often as any packet is lost."""
    rows = ctx[SEQUENCES]

    def stat(df: pd.DataFrame) -> float:
        return float((df["cdf_1"].sum() / df["distances"].sum()) / (df["losses"].sum() / df["packets"].sum()))
    return Measurement([Part(f"p = {100 * p:g} %", jackknife(_at(rows, p), stat)) for p in values_of(rows, "loss")])


def cdf_gap(ctx: Context) -> Measurement:
    """The simulated CDF of the distance between losses less the Neyman Type A formula's,
    per rate and distance k."""
    rows = ctx[SEQUENCES]

    def gap(k: int) -> Callable[[pd.DataFrame], float]:
        return lambda df: float(df[f"cdf_{k}"].sum() / df["distances"].sum() - df[f"formula_{k}"].iloc[0])
    return Measurement([Part(f"p = {100 * p:g} %, d ≤ {k}", jackknife(_at(rows, p), gap(k)))
                        for p in values_of(rows, "loss") for k in KS])
