"""What ELN's gain over Reno should be on scenarios/last-hop.toml, argued from the
mechanism before any run: the magnitude the ELN claims are held to.

The argument. ELN (Balakrishnan & Katz 1998) tells the sender that a loss was on the
wireless hop, and the sender then resends without halving its window. With no window
reduction left for wireless losses, ELN's goodput should approach what the path allows:
the wireless link's rate, less the headers and the share p of packets the link loses
(its 32 KiB window is above the path's bandwidth-delay product, so the window does not
bind). Reno halves its window at every wireless loss and so follows the PFTK full model
at the wireless p, with the path's base RTT (its window at a loss, PFTK's E[W] = 12.5
segments at p = 0.02 and 8.2 at p = 0.05, stays below the 13.3-segment bandwidth-delay
product, so no queue adds to the RTT). The expected gain is the ratio of the two. It is
an idealisation of ELN (it charges ELN nothing for a recovery), so ELN's real gain can
fall short of it; that shortfall is what the claims' probe looks at.

The path's numbers are last-hop.toml's (tests/python/test_validation.py holds them to
the file): S -10 Mbit/s, 20 ms- BS -2 Mbit/s, 5 ms, lossy- MH, MSS 1000 B, 40 B of
headers on data and 40 B ACKs, max_window 32 KiB, minimum RTO 1 s, an ACK per segment.
"""

from __future__ import annotations

from ...models import pftk_full

WIRED_BPS, WIRED_DELAY_S = 10e6, 0.020
WIRELESS_BPS, WIRELESS_DELAY_S = 2e6, 0.005
MSS, HEADER, ACK = 1000, 40, 40
WMAX = 32  # 32 KiB holds 32 whole segments of 1000 B
T0 = 1.0  # the minimum RTO (TcpConfig's default), PFTK's T0
B = 1  # an ACK per segment

# Propagation both ways, a data packet's and an ACK's serialisation on both links.
BASE_RTT_S = (2 * (WIRED_DELAY_S + WIRELESS_DELAY_S)
              + 8 * (MSS + HEADER) * (1 / WIRED_BPS + 1 / WIRELESS_BPS)
              + 8 * ACK * (1 / WIRED_BPS + 1 / WIRELESS_BPS))


def link_limited_bps(p: float) -> float:
    """ELN's goodput with no window reduction: the wireless link's payload rate less the
    share p it loses."""
    return WIRELESS_BPS * MSS / (MSS + HEADER) * (1 - p)


def reno_bps(p: float) -> float:
    """Reno's goodput: PFTK full at the wireless p with the base RTT, at most the link's."""
    return min(8 * pftk_full(MSS, BASE_RTT_S, p, T0, WMAX, b=B), link_limited_bps(p))


def expected_gain(p: float) -> float:
    """ELN ÷ Reno as the argument above gives it: 2.74 at p = 0.02, 6.89 at p = 0.05."""
    return link_limited_bps(p) / reno_bps(p)


__all__ = ["BASE_RTT_S", "expected_gain", "link_limited_bps", "reno_bps"]
