"""`lossy reproduce pantheon-emulators`: Pantheon's 18 emulators (Yan et al., "Pantheon:
the training ground for Internet congestion-control research", USENIX ATC 2018; their
parameters from StanfordSNR/observatory's experiments.yml, emulators.py) with Reno,
CUBIC, BBRv1, BBRv3, Vegas, Westwood+ and CUBIC over CoDel, one flow and three flows
started 10 s apart, Pantheon's 5 runs of 30 s: its throughput against 95th-percentile
one-way delay plot per emulator and a summary table.

A measurement, not a reproduction of claims: Pantheon's published statements are about
its emulators against the real paths they were calibrated to (inventory.py says why
none is held here). The layout is modern-cc's: sweeps.py, figures.py, inventory.py, the
path emulator_path.toml beside them; traces by catalogue name (`pantheon:<file>`).
"""

from __future__ import annotations

from ..model import Reproduction
from .emulators import SOURCE
from .figures import FIGURES
from .inventory import INVENTORY
from .sweeps import SWEEPS

REPRODUCTION = Reproduction(
    name="pantheon-emulators",
    title="Pantheon's calibrated emulators",
    about="A measurement (no claims): Pantheon's 18 emulators (Yan et al., USENIX ATC 2018) — six calibrated to "
          "real paths, six token-bucket policers, two with severe ACK aggregation, four bottleneck buffers from "
          "BDP/10 to one BDP — replayed trace by trace with Mahimahi's rules, with Reno, CUBIC, BBRv1, BBRv3, "
          "Vegas, Westwood+ and CUBIC over CoDel, one flow and three flows started 10 s apart, 5 runs of 30 s "
          "each: Pantheon's throughput against 95th-percentile one-way delay plot per emulator, with 95 % CIs, "
          "and a summary table. Pantheon's statements are about its emulators against real paths, so none is "
          "held to these numbers.",
    sweeps=SWEEPS,
    figures=FIGURES,
    claims=[],
    measurement=True,
    notes=(
        f"The emulators' parameters are those of {SOURCE}; each run is Pantheon's `test.py local` path: the "
        "data through mm-link's uplink trace and DropTail queue, then mm-loss's uplink loss, then mm-delay; the "
        "ACKs through mm-delay and the downlink trace (src/experiments/test.py, setup_mm_cmd).",
        "mm-loss uplink drops a packet after mm-link has served it, before mm-delay: lossy's forward `loss` "
        "(Bernoulli, the same p) on the same link, decided after the capacity serves the frame and before the "
        "propagation delay (docs/architecture.md, the packet flow, steps 4–6).",
        "lossy's link has one queue limit for both directions; Mahimahi's downlink queue is infinite in 16 of "
        "the 18 emulators. The ACK direction gets the data direction's limit; the summary table's ACK-queue "
        "drops column shows whether that ever mattered. Mahimahi's infinite queue is 100,000 packets, more "
        "than three 16 MiB windows.",
        "Three flows: Pantheon's delay is the p95 over all flows' packets; we keep each flow's p95 and show "
        "the largest, an upper bound on the pooled p95. Throughput is the data link's delivered bit rate, "
        "headers included, all flows, over the 30 s (Pantheon divides by first to last departure).",
        "Pantheon's tunnel and its UDP/IP overhead are not modelled: segments of 1448 B with 52 B of headers.",
    ),
    inventory=INVENTORY,
)

__all__ = ["REPRODUCTION"]
