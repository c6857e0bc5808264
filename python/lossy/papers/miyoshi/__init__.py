"""`lossy reproduce miyoshi-adaptive-fec`: Miyoshi, Sugano, Murata, "Improving TCP
performance for wireless cellular networks by adaptive FEC combined with explicit loss
notification" (IEICE 2002).

Figs. 2–3 (Reno, ELN, Snoop+ELN, fixed BCH FEC and adaptive FEC over a 384 kbps radio
link against BER) on scenarios/miyoshi.toml; Tables 3–4 (the Gilbert experiment) and the
observation-window study on the core's packet stream; the Appendix's model (Eqs. A·1–A·8)
and the thresholds derived from it. The layout: analytic.py, setup.py, stream.py,
sweeps.py, figures.py, statistics.py, claims_tcp.py and claims_stream.py (gathered in
claims.py), inventory.py.
"""

from __future__ import annotations

from ..model import Reproduction
from .claims import CLAIMS
from .figures import FIGURES
from .inventory import INVENTORY
from .stream import READINGS
from .sweeps import sweeps

NOTES = (
    "Fig. 1 is missing from the text: FH reaches BS over three 10 Mbps wired hops (the wired rate is not given; fast "
    "enough that only the radio link limits), every delay 1 ms (τ1–τ4), every buffer 50 kB; the radio link is 384 "
    "kbps both ways with bit errors on the data direction only.",
    "TCP as the ns-2 of 2002: Reno, 100-byte segments plus a 40-byte header, 40-byte ACKs, window_ 20, initial "
    "window 1, tcpTick_ 0.1 s, minrto_ 0, rtxcur_init_ 3 s.",
    "FEC in the TCP runs codes each 140-byte frame in whole BCH codewords of 127 bits, lost when a codeword has more "
    "than t errors (the core's BCH codec's rule). The Gilbert stream (Tables 3–4) follows Eq. A·4 instead: an 800-bit "
    "packet is one decoding unit correcting t errors — the reading the tables' FEC rows agree with.",
    "Eq. A·5 is printed H = d/l; Tables 3–4 use H = (l − d)/l of each received packet, and so do we. The tables' "
    "first code is FEC(127,94), as printed: its overhead column is 33/127 of the received packets in both tables "
    "(BCH(127,92) would be 35/127), and its losses fit t = 4. No BCH code of length 127 has k = 94, so the stream "
    "runs it as a (127,94) block code correcting 4; the TCP runs keep the text's BCH(127,92).",
    "The Gilbert channel counts its states in packets; Error-state packets get random bit errors at b_E, which the "
    "paper does not give. Default: b_E = 10·p_b, the reading every fixed row but Table 3's no-FEC one fits; two "
    f"alternatives run beside it in the tables, unjudged ({'; '.join(READINGS.values())}).",
    "Adaptive FEC: one decision per window of N = 10 link outcomes (frames delivered and lost, as ELN and the "
    "sender's timeouts report them), up when p_err exceeds the upper threshold, down after a run of windows below "
    "the lower one with hysteresis (a failed probe of the weaker code doubles the wait). TCP thresholds are read at "
    "the crossings of our simulated Fig. 3 curves (no FEC/(127,92) at BER 7.7·10⁻⁵, (127,92)/(127,64) at 1.2·10⁻², "
    "(127,64)/(127,36) at 3.5·10⁻²; setup.CROSSINGS, with their CIs), the stream's at the Appendix model's "
    "crossings (its own rule). The ladder is no FEC, (127,92) [(127,94) in the stream], (127,64), (127,36): three "
    "steps, six thresholds A–F (the paper's A–D covered two).",
    "Replications: each TCP point runs 5 times (100 s; --quick 2 of 20 s); each stream of Tables 3–4 is one run of "
    "the paper's 50,000-packet experiment, 5 seeds (--quick 5 of 20,000 packets); the window study 3 seeds of "
    "50,000 packets (--quick 3 of 10,000). Every claim's CI is over these replications, schemes paired by seed.",
    "ELN with Snoop: Snoop hides the duplicate ACKs of what it repairs, so Snoop+ELN sets ELN on the new ACK that "
    "passes a locally repaired segment; the sender counts each new ELN-marked ACK number as one lost segment.",
)

REPRODUCTION = Reproduction(
    name="miyoshi-adaptive-fec",
    title="Miyoshi et al. 2002: adaptive FEC combined with ELN (Figs. 2–3, Tables 3–4)",
    about="Bulk TCP Reno from a wired host to a mobile terminal behind a 384 kbps IMT-2000 radio link with bit "
          "errors: Reno, ELN, Snoop+ELN and fixed BCH(127,k) FEC against BER (Figs. 2–3); adaptive FEC whose "
          "code the sender picks from the packet error rate ELN reveals and asks for in every segment; the Gilbert "
          "experiment of Tables 3–4 beside the Appendix's model and the paper's numbers; the observation window "
          "against the fading speed; and, beyond the paper, the controller fed by ELN or by the link itself.",
    sweeps=sweeps(),
    figures=FIGURES,
    claims=CLAIMS,
    notes=NOTES,
    inventory=INVENTORY,
)

__all__ = ["REPRODUCTION"]
