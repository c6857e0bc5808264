"""What modern-cc holds the simulator to: the published statements on today's congestion
controls and AQMs that issue 29 names, each with what covers it or why nothing does."""

from __future__ import annotations

from ..inventory import Inventory, Item

INVENTORY = Inventory(paper="docs/papers/modern-cc.md (the sources listed there)", items=[
    Item("BBR cover letter", "netdev, Sept. 2016", "statement",
         "below 15 % loss BBR fully utilizes the path, reaching link_bandwidth × (1 − loss_rate)",
         claims=["bbr-full-rate"]),
    Item("BBR 15 % threshold", "netdev, Sept. 2016", "statement",
         "the 15 % threshold is a design parameter; Cardwell's bbr-dev note derives a 20 % limit from the "
         "1.25 pacing gain",
         not_covered="p = 0.2 is swept and drawn, but the limit's exact place is a design detail, not a "
                     "magnitude the sources state for this path"),
    Item("Dumazet's loss test", "netdev, Sept. 2016", "statement",
         "100 ms RTT, 1 % loss: CUBIC 3.27 Mbit/s, BBR 9150 Mbit/s (2 to 4 orders of magnitude)",
         not_covered="a 10 Gbit/s path: 10⁶ packets a second, beyond the 5-minute budget of this "
                     "reproduction; its direction is held by bbr-above-loss-based"),
    Item("draft-ietf-ccwg-bbr-01 abstract", "Abstract", "statement",
         "BBR offers substantially higher throughput than Reno or CUBIC with shallow buffers or random losses",
         claims=["bbr-above-loss-based"]),
    Item("draft-ietf-ccwg-bbr-01 abstract, deep buffers", "Abstract", "statement",
         "BBR offers substantially lower queueing delays for bottlenecks with deep buffers",
         claims=["bbr-deep-buffer"]),
    Item("Gomez et al. 2024", "Abstract", "statement",
         "BBRv3 maintains high throughput and lower retransmissions at 1 % loss than its predecessors",
         claims=["bbr3-at-1pc"]),
    Item("BBRv3 loss threshold", "draft-ietf-ccwg-bbr-06 §5.5.10.2, BBRLossThresh", "statement",
         "above 2 % loss BBRv3 lowers inflight_longterm (-01's inflight_hi); BBRv1 has no loss response",
         claims=["bbr3-loss-threshold"]),
    Item("RFC 8289 / RFC 8033", "Abstracts", "statement",
         "CoDel and PIE control the queueing delay of a bloated buffer to a target at high utilization",
         claims=["aqm-cut-delay"]),
    Item("issue 29: the seeds' remedies today", "issue 29, What to build", "statement",
         "ELN, Snoop and link-layer ARQ on the Bernoulli, Gilbert and Rayleigh channels, every control",
         not_covered="no source states what the remedies do for CUBIC or BBR: a measurement (the channels figure "
                     "and table), not a claim"),
    Item("issue 29: the seeds' 802.11b WLAN", "issue 29, What to build", "statement",
         "every control over the 802.11b WLAN with ELN, Snoop, and without the MAC's retries",
         not_covered="no source states a result for these controls on this WLAN: a measurement (the channels "
                     "figure, panel d, and the wlan table), not a claim"),
])

__all__ = ["INVENTORY"]
