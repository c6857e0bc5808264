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
    notes=(
        "The paper names no modulation: BPSK, which gives Table 1's P_E within a few per cent (DPSK 30–100 % "
        "more); the Table 1 claims judge BPSK and so do not test that choice.",
        "Every figure claim reads the runs driven by the chain fitted to the fading channel, as the paper's TCP "
        "simulations were (Figs. 3–4: the chain set from P_E and the burst length), and its source says so; the "
        "claims on Figs. 2 and 5 each have a twin ('<key>-fading') judged on the same sweep's runs on the fading "
        "channel itself, shown beside it; the probe sweep fig6-fading shows the chain's error at Fig. 6.",
        "Throughput is normalized to the 1.5 Mbps link rate in every figure, Fig. 7 included (the paper does not "
        "say for Fig. 7); the Fig. 7 claims' probe reads it per code's data rate.",
        "A direction is judged only where one compared curve is above 0.05 and one below 0.9 of the link rate: "
        "TCP starved by timeouts, or at its window's ceiling, shows no ordering.",
        "Words the one table of likeness lacks: 'almost independent' and 'very little difference' read as "
        "'almost no difference' (± 0.05); rate 1/3's 'improvement [...] not very much' over rate 1/2 as 0 to "
        "'very close' (0.10), over every SNR of the sweep (the figure's axis is lost).",
    ),
    inventory=INVENTORY,
)

__all__ = ["REPRODUCTION"]
