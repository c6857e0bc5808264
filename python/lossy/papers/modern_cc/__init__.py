"""`lossy reproduce modern-cc`: today's congestion controls and AQMs on a lossy last hop.

(a) `loss`: goodput, retransmissions and p95 one-way delay against random loss p from
    10⁻⁴ to 0.2 for Reno, NewReno, SACK, CUBIC, BBRv1, BBRv3, Vegas and Westwood+.
(b) `channels`, `wlan`: the same controls with ELN, Snoop or link-layer ARQ on the seeds'
    channels (Bernoulli, Gilbert, Rayleigh) and over the seeds' 802.11b WLAN.
(c) `aqm`: a deep-buffer bottleneck under DropTail, CoDel and PIE with CUBIC.
The probes' sweeps (`probe-*`) run each not-reproduced claim with its cause removed.

The layout every reproduction follows: sweeps.py (what is run, with the one list of
controls), figures.py, claims.py (on the claims protocol, examples in examples.py),
inventory.py; the path is lossy_last_hop.toml beside them. A control or queue the core
does not know fails its runs with the core's one-line error, and the claims that need
them are "could not be checked" with that line.
"""

from __future__ import annotations

from ..model import Reproduction
from .claims import CLAIMS
from .figures import FIGURES
from .inventory import INVENTORY
from .sweeps import SWEEPS

REPRODUCTION = Reproduction(
    name="modern-cc",
    title="Today's congestion controls and AQMs on a lossy last hop",
    about="Goodput and 95th-percentile delay against random loss for Reno, NewReno, SACK, CUBIC, BBRv1, "
          "BBRv3, Vegas and Westwood+ on a 10 Mbit/s lossy last hop with a one-BDP buffer; the same controls "
          "with ELN, Snoop or link-layer ARQ on the seeds' Bernoulli, Gilbert and Rayleigh channels and over "
          "their 802.11b WLAN; and CoDel and PIE against DropTail on a deep buffer. The "
          "claims are the BBR authors' loss statement, Gomez et al.'s BBRv3 result with the draft's loss "
          "threshold, and the AQM RFCs' delay control.",
    sweeps=SWEEPS,
    figures=FIGURES,
    claims=CLAIMS,
    inventory=INVENTORY,
)

__all__ = ["REPRODUCTION"]
