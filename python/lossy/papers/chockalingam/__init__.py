"""`lossy reproduce chockalingam-ll-fec-arq`: Chockalingam, Zorzi, Tralli, "Wireless TCP
performance with link layer FEC/ARQ" (ICC 1999), §III–IV.

Table 1 (the Markov fit of the fading channel) and Figs. 2–8 (TCP Tahoe and NewReno with
and without a link layer that segments TCP packets, retransmits link packets on NAKs and
codes them with BCH) on scenarios/chockalingam.toml. The layout: setup.py (link layers,
codes, channel drives), table1.py, sweeps.py, figures.py, claims.py (the claims_*.py
files by figure, measured through points.py, with examples.py's synthetic runs) and
inventory.py (every item of the paper and what covers it).
"""

from __future__ import annotations

from ..model import Reproduction
from .claims import CLAIMS
from .figures import FIGURES
from .inventory import INVENTORY
from .sweeps import sweeps

REPRODUCTION = Reproduction(
    name="chockalingam-ll-fec-arq",
    title="Chockalingam et al. 1999: TCP over a fading link with LL FEC/ARQ (Table 1, Figs. 2–8)",
    about="Bulk TCP Tahoe (and NewReno) from a base station to a mobile over a 1.5 Mbps Rayleigh fading link with "
          "negligible delay: the two-state Markov fit of link-packet errors (Table 1), TCP without a link layer, "
          "with NAK-based selective-repeat ARQ over 32–128-byte link packets and 1–128 attempts, and with "
          "BCH(255,131) and BCH(255,87) FEC, each figure driven by the fitted chain as the paper did and, for "
          "Figs. 2 and 5, by the fading channel directly.",
    sweeps=sweeps(),
    figures=FIGURES,
    claims=CLAIMS,
    inventory=INVENTORY,
)

__all__ = ["REPRODUCTION"]
