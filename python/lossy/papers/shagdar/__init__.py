"""`lossy reproduce shagdar-ewln`: Shagdar, Shirazi, Zhang, "Improving ECN-based TCP
performance over wireless networks using a homogeneous implementation of EWLN".

Figs. 5–6 (topology 1: the sender on an 802.11b WLAN, no congestion) and Figs. 8–9
(topology 2: a RED/ECN bottleneck before the WLAN), each with plain, ECN, EWLN and
EWLN-ECN Reno or SACK against the SNR, on scenarios/shagdar-t1.toml and -t2.toml; and,
beyond the paper, EWLN against ELN and Snoop at the base station. The layout: setup.py
(schemes, counters), sweeps.py (the figures' sweeps and the probes'), figures.py,
quantities.py (what the claims measure), examples.py (their synthetic runs), claims.py,
inventory.py (every item of the paper and what covers it).
"""

from __future__ import annotations

from ..model import Reproduction
from .claims import CLAIMS
from .figures import FIGURES
from .inventory import INVENTORY
from .sweeps import sweeps

NOTES = (
    "Figs. 4 and 7 are missing from the text. Topology 1: MH – BS on an 802.11b WLAN at 2 Mbit/s, BS – FH wired at "
    "10 Mbit/s and 10 ms (not given; fast enough that only the radio limits). Topology 2: W1 and W2 → R1 → R2 "
    "(1.5 Mbit/s, RED with ECN marking: the bottleneck, set to congest across the SNR range) → M1 over the WLAN and "
    "→ W3; other links 10 Mbit/s, every delay 5 ms. RED as ns-2 of 2002 ran it by default (ns-2.1b9 to 2.26, "
    "tcl/lib/ns-default.tcl and queue/red.cc; the text gives no RED settings): packet mode, automatic thresholds "
    "(min_th 5 and max_th 15 packets at the 1.5 Mbit/s bottleneck, 6.25 and 18.75 on topology 1's 10 Mbit/s link), "
    "automatic w_q, gentle, max_p 0.1, ns-2's wait_ spacing, ECN marks only while p_b < mark_p_ 0.1 (drops in the "
    "gentle region), a 50-packet limit.",
    "The MAC as ns-2's defaults: RTSThreshold_ 0 (every data frame after RTS/CTS, so data frames get LongRetryLimit_ "
    "4 attempts, RTS frames ShortRetryLimit_ 7), a 34-byte MAC header, 1 Mbit/s basic rate; DPSK bit errors at the "
    "SNR (Eq. 1) on every frame, data and control.",
    "Fig. 5 is run in both directions: MH → FH, as the text describes, and FH → MH (the caption's "
    "\"wired-to-wireless\") as a second panel. Figs. 6, 8 and 9 in the direction the text gives.",
    "EWLN is one switch for a scheme: the WLAN's MAC marks headers of segments out of retries, the flow's TCP answers "
    "and resends (see docs/mechanisms/tcp-ewln.md for the readings of Figs. 2–3). In topology 2 the cross traffic "
    "runs the same TCP as the wireless flow (ECN-capable with the ECN schemes); EWLN concerns the wireless flow only.",
    "TCP as ns-2 of the time: Reno (or SACK, RFC 6675 here), 1000-byte segments plus 40 bytes of header, 40-byte "
    "ACKs, a 20 KB window, initial window 1, no limited transmit, an ACK per segment.",
)

REPRODUCTION = Reproduction(
    name="shagdar-ewln",
    title="Shagdar et al.: EWLN set by the 802.11b MAC, with ECN and SACK (Figs. 5, 6, 8, 9)",
    about="TCP Reno and SACK over an 802.11b WLAN with DPSK bit errors at SNR 8.5–11.5 dB: plain, ECN, EWLN (the MAC "
          "passes the header of a frame out of retries up with EWLN; the receiver names it; the sender resends it "
          "at once without a window reduction) and EWLN-ECN, in a topology without congestion and one with a RED/ECN "
          "bottleneck; and, beyond the paper, EWLN against ELN and Snoop at the base station.",
    sweeps=sweeps(),
    figures=FIGURES,
    claims=CLAIMS,
    notes=NOTES,
    inventory=INVENTORY,
)

__all__ = ["REPRODUCTION"]
