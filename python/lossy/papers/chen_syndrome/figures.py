"""Figs. 10–14 of Chen et al.: throughput (kB/s, the paper's unit, in every figure) of
S1 → MH and S2 → MH against 1/√p (the paper's x-axis), against the duplicate
probability, and over time around the hand-offs; beside them the MH → FH direction
the paper ran but did not draw, and the base station's state against the number of
connections."""

from __future__ import annotations

from typing import Any, List

import numpy as np
import pandas as pd

from ...summary import ok_rows
from ..figures import Figure, LinePlot, Panels, TimeSeries, table_of
from ..figures.palette import Palette
from .schemes import PAPER

# Each scheme one colour and marker in every figure, the paper's three first (the order of
# its legends).
PALETTE = Palette(PAPER + ["eln", "snoop-ns2"])


def per_flow(flow: str, x: str = "p") -> Any:
    """The runs with the paper's axes: throughput of `flow` in bytes/s, and 1/√p."""
    def derive(runs: pd.DataFrame) -> pd.DataFrame:
        out = runs.assign(throughput=runs[flow] / 8)
        return out.assign(inv_sqrt_p=1 / np.sqrt(out["p"])) if x == "p" else out
    return derive


def _vs_loss(key: str, sweep: str, flow: str, uplink: bool) -> LinePlot:
    title = f"MH → {flow}" if uplink else f"{flow} → MH"
    return LinePlot(f"{key}-{flow}", sweep, title, x="inv_sqrt_p", y="throughput", hue="scheme",
                    unit="B/s", prefix="k", where=per_flow(flow), palette=PALETTE,
                    xlabel="1/√p (p: wireless loss rate)",
                    ylabel="throughput")


def _pair(key: str, sweep: str, title: str, caption: str, uplink: bool = False) -> Panels:
    return Panels(key, title, [_vs_loss(key, sweep, f, uplink) for f in ["S1", "S2"]], sharey=True,
                  caption=caption)


def _replication_0(runs: pd.DataFrame) -> pd.DataFrame:
    return runs[runs["replication"] == 0]


COMMON = ("scenarios/chen-fig9.toml: all links 2 Mb/s, 5 ms; S1 one wired hop and S2 four from node 8; "
          "wireless loss p at HA and FA, p/50 between node 8 and S1; both connections at once; "
          "means with 95 % CI bands over the replications.")

FIGURES: List[Figure] = [
    _pair("fig10", "base", "Fig. 10: base version, uniform loss",
          COMMON + " snoop-ns2 is Snoop as ns-2 runs it (local retransmission on the second duplicate ACK)."),
    _pair("fig11", "full", "Fig. 11: full version (reordering 0.05 over [1, 10], duplication 0.02 over [1, 20])",
          COMMON + " Reordering and duplication on the wired link into HA."),
    Panels("fig12", "Fig. 12: throughput against the duplicate probability at p = 0.02",
           [LinePlot(f"fig12-{f}", "duplicates", f"{f} → MH", x="dup", y="throughput", hue="scheme",
                     unit="B/s", prefix="k", where=per_flow(f, x="dup"), palette=PALETTE,
                     xlabel="duplicate probability",
                     ylabel="throughput") for f in ["S1", "S2"]], sharey=True,
           caption=COMMON + " Reordering 0.05; duplication of the given probability."),
    _pair("fig13", "burst", "Fig. 13: burst loss model (Fig. 8)",
          COMMON + " Wireless loss: two states, sojourn means 75 ms and 3.75 ms, loss 0.0002 and p."),
    Panels("fig14", "Fig. 14: instantaneous throughput and sequence numbers of S1 → MH around hand-offs",
           [TimeSeries("fig14-throughput", "handoffs", "throughput, 1 s moving window", "throughput", "bps",
                       select=_replication_0, label=lambda row: str(row["scheme"]), window_s=1.0,
                       ylabel="throughput", unit="B/s", scale=1 / 8, prefix="k", palette=PALETTE),
            TimeSeries("fig14-seq", "handoffs", "sequence number acknowledged", "seq", "seq",
                       select=_replication_0, label=lambda row: str(row["scheme"]), events=["acked"],
                       ylabel="sequence number", palette=PALETTE)],
           caption="Replication 0 of each scheme (30 s at p = 0.02; the claim uses every replication); MH hands "
                   "off HA → FA → HA → FA → HA at 8, 13, 18 and 23 s with 1.2 s outages. Connection S1 → MH "
                   "(S2 → MH runs beside it)."),
    _pair("uplink", "uplink", "Beyond the figures: Fig. 10 with the data from MH to S1 and S2",
          "The network of Fig. 10 with MH sending: wireless loss p on MH → HA, p/50 on node 8 → S1, lossless "
          "ACKs. Syndrome's counter at HA stamps the data toward the fixed hosts, whose receivers infer (Fig. 1 "
          "Case 2); Snoop caches nothing this way and sets ELN on the ACKs that ask for a segment that never "
          "reached HA (ns-2's snoop_wired_ack), as ELN does; the means with 95 % CI bands.", uplink=True),
    Panels("scale", "Beyond the paper: base-station state and simulator speed against the number of connections",
           [LinePlot("scale-state", "scale", "largest state at the base station", x="connections", y="state_bytes",
                     hue="scheme", unit="B", logx=True, logy=True, xlabel="connections through the base station",
                     ylabel="agent state", palette=PALETTE),
            LinePlot("scale-speed", "scale", "events per wall second", x="connections", y="events_per_s",
                     hue="scheme", logx=True, xlabel="connections through the base station",
                     ylabel="events per wall second", unit="", palette=PALETTE)],
           caption="scenarios/chen-scale.toml: N bulk Reno connections server → BS → MH, 100 Mb/s wireless "
                   "link with 1 % loss, 10 s (2 s with --quick). Left: the agent's largest state over the run "
                   "(Syndrome's counter, Snoop's cache and connection state, ELN's per-connection state). "
                   "Right: how fast the simulator runs at each size."),
    table_of("scale-table", "scale", "Base-station state per connection",
             lambda runs: scale_table(runs),
             caption="The agent's largest state divided by the number of connections."),
]


def scale_table(runs: pd.DataFrame) -> pd.DataFrame:
    ok = ok_rows(runs)
    rows = [{"scheme": r["scheme"], "connections": int(r["connections"]),
             "state (B)": f"{r['state_bytes']:.0f}", "per connection (B)": f"{r['state_bytes'] / r['connections']:.1f}",
             "events / wall s": f"{r['events_per_s'] / 1e6:.2f} M"}
            for r in ok.sort_values(["scheme", "connections"]).to_dict("records")]
    return pd.DataFrame(rows)
