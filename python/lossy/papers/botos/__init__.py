"""`lossy reproduce botos-fectcp`: Botoș, Polgar, Bota, "FECTCP for high packet error
rate wireless channels".

Fig. 1 (distance between losses under Neyman Type A errors), Figs. 3–4 (FECTCP against
Tahoe, Reno, NewReno and SACK against segment loss, at 20 and 100 ms, with independent
and clustered losses), Figs. 5–6 (a TCP flow and a UDP CBR flow beside FECTCP), and,
beyond the paper, the real codes' overheads and FECTCP on a congested bottleneck. The
layout: setup.py, sweeps.py, losses.py, sharing.py, figures.py; the claims in claims.py
over curves.py (Figs. 3–4's quantities) and sharing.py (Figs. 5–6's), their synthetic
examples in examples.py; every item of the paper in inventory.py.
"""

from __future__ import annotations

from ..model import Reproduction
from .claims import CLAIMS
from .figures import FIGURES
from .inventory import INVENTORY
from .sweeps import NEYMAN_ERRORS_PER_CLUSTER, sweeps

NOTES = (
    "Fig. 2 is missing from the text: server → router → AP over 100 Mbit/s wired links (\"set to values that allow "
    "all simulated flows to be present without the occurrence of congestion\") and a 1 Mbit/s last hop to the "
    "client. The end-to-end delay, 20 or 100 ms, is read as one way, server to client.",
    "The last hop is a 1 Mbit/s point-to-point link, not our 802.11b WLAN: the paper sweeps the segment loss the "
    "transport sees, and the WLAN's MAC would retry a lost frame up to 7 times (hiding it), while with retries off "
    "its collisions between the AP's frames and the client's ACKs would add loss of their own (not measured here). "
    "A WLAN with retries on and the loss placed upstream of the AP would keep the contention, but a lost segment "
    "would then cost no air time. Losses hit the data direction after transmission, so a lost segment costs its air "
    "time. The ceiling is about 0.97 Mbit/s of goodput, well above what an 802.11b WLAN at 1 Mbit/s carries "
    "(preambles, DIFS, backoff, MAC ACKs), so absolute rates are not the paper's.",
    f"Neyman Type A: bit errors in clusters (Poisson clusters, Poisson errors per cluster, {NEYMAN_ERRORS_PER_CLUSTER} "
    "on average, spread over twice as many bits); the paper gives no parameters. The cluster rate is solved so that "
    "1500-byte packets are lost at the swept rate. Fig. 1's claims draw 10 loss sequences per rate from this channel "
    "alone (no TCP) and hold their CDF of the distance between losses to the Neyman Type A formula and its value "
    "at 1 to the loss rate.",
    "The run ends when every file is decoded, so FECTCP's teardown (the FIN exchange) is not part of these runs; "
    "its time would not count in the transfer time anyway.",
    "FECTCP: every open choice is a parameter (docs/mechanisms/fectcp.md). Here the defaults: α = 0.875, σ the "
    "standard deviation of all RTT samples (the paper says \"variance\"), the mean RTT over all samples, a timer "
    "expiry halves cwnd once per window, initial window 2; the paper's 5 % code overhead (\"a rateless code with an "
    "average overhead of 5 % was used\"), and beyond it RaptorQ's and LT's measured overheads.",
    "TCP with ns-2's defaults (the paper ran \"the ns2 network simulator\", §III, no version; ns-2.34, of its "
    "time, and ns-2.35 have the same tcl/lib/ns-default.tcl values): 1460-byte segments plus 40 bytes of header, "
    "window_ 20 packets, windowInit_ 2, minrto_ 0.2 s (\"Default changed to 200ms on 2004/10/14\"), maxrto_ 60 s, "
    "rtxcur_init_ 3 s, tcpTick_ 0.01 s, an ACK per segment; the AP's queue 50 packets (ifqlen_). Until issue 25 "
    "the scenario had a 1 s minimum RTO (RFC 6298's), an alternative kept with --set flows.0.tcp.min_rto=\"1 s\".",
    "Figs. 3–4 do not say which channel their losses came from: §II C's Neyman Type A model, or independent "
    "losses. Both are run, and every claim on Figs. 3–4 is held under both.",
    "Figs. 5–6 give no loss rate or timing: 1 % independent loss, the second flow from 60 s; Fig. 6's CBR flow sends "
    "1000-byte datagrams at 20 kB/s for 120 s. Each flow's rate is its mean over the window both run in (70 s to "
    "the end; for UDP, to 180 s); Jain's index (Jain, Chiu, Hawe 1984) is that of the two mean rates. The mean "
    "over 1 s intervals of a per-interval index is shown beside it as an extra metric, named as such.",
)

REPRODUCTION = Reproduction(
    name="botos-fectcp",
    title="Botoș et al.: FECTCP, a rateless-coded transport (Figs. 1, 3–6)",
    about="File transfers over a 1 Mbit/s lossy last hop with FECTCP — segments are symbols of a rateless code, "
          "never retransmitted; a per-segment timer of (1 + 1/cwnd)(sRTT + σ) lets the next segment's cumulative ACK "
          "cover a single loss, so only consecutive losses reduce the rate — against TCP Tahoe, Reno, NewReno and "
          "SACK, from 0.1 % to 30 % segment loss, independent or Neyman Type A; FECTCP sharing the link with TCP "
          "and with UDP; and, beyond the paper, real codes' overheads and a congested bottleneck with DropTail "
          "and RED.",
    sweeps=sweeps(),
    figures=FIGURES,
    claims=CLAIMS,
    notes=NOTES,
    inventory=INVENTORY,
)

__all__ = ["REPRODUCTION"]
