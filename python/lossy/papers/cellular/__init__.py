"""`lossy reproduce cellular-bufferbloat`: TCP over the Mahimahi cellular traces with a
deep base-station buffer. Per trace, goodput and 95th-percentile delay of CUBIC and
BBRv1 over DropTail, CoDel and PIE (`aqm`), and with the seeds' remedies on a lossy
cellular hop (`lossy-hop`: link-layer ARQ, ELN). The claims: Jiang et al. (IMC 2012) on
seconds of delay, RFC 8033 on PIE's target, RFC 8289 and RFC 8033 on the delay cut at
little goodput cost; the probe `probe-constant` replaces the trace by its mean rate.

The layout is modern-cc's: sweeps.py, figures.py, claims.py (examples in examples.py),
inventory.py, the path cellular_path.toml beside them; traces by catalogue name.
"""

from __future__ import annotations

from ..model import Reproduction
from .claims import CLAIMS
from .figures import FIGURES
from .inventory import INVENTORY
from .sweeps import SWEEPS

REPRODUCTION = Reproduction(
    name="cellular-bufferbloat",
    title="Bufferbloat on cellular traces",
    about="TCP over five Mahimahi cellular traces (LTE, UMTS, EV-DO; drives and short runs) behind a base-station "
          "buffer of 2 s at each trace's mean rate: per trace, goodput and 95th-percentile delay of CUBIC and BBRv1 "
          "over DropTail, CoDel and PIE, and with link-layer ARQ or ELN on a lossy cellular hop. The claims are "
          "Jiang et al.'s (IMC 2012) seconds of round-trip delay for loss-based TCP over deep cellular buffers, "
          "PIE's average-latency target (RFC 8033), and the AQMs' delay cut at little goodput cost.",
    sweeps=SWEEPS,
    figures=FIGURES,
    claims=CLAIMS,
    notes=(
        "The traces by catalogue name (mahimahi:<name>, ravinet/mahimahi @ ae477d4, traces/): the .down trace is "
        "the base station's downlink (the data), the .up trace the uplink (the ACKs), with Mahimahi's rules; the "
        "five drives with both directions in the mirror.",
        "\"Deep\": 2 s at the trace's mean downlink rate (1500-byte packets). Jiang et al. give no buffer size we "
        "could read; a buffer of seconds is what they call bufferbloat. CoDel and PIE get the same limit.",
        "lossy's link has one queue for both directions: the ACKs' queue has the same kind and limit.",
        "The lossy hop: 1 % Bernoulli loss on the downlink after the trace serves a packet (as mm-loss after "
        "mm-link), so a lost packet has used its delivery opportunity.",
    ),
    inventory=INVENTORY,
)

__all__ = ["REPRODUCTION"]
