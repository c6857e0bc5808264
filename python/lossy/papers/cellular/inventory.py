"""What cellular-bufferbloat holds the simulator to: Jiang et al.'s bufferbloat statements
and the AQM RFCs', each with the claim that covers it or why nothing does."""

from __future__ import annotations

from ..inventory import Inventory, Item

INVENTORY = Inventory(paper="docs/papers/cellular-bufferbloat.md (Jiang et al., IMC 2012; RFC 8289; RFC 8033)",
                      items=[
    Item("Jiang et al., Fig. 1", "Figure 1 caption", "statement",
         "bufferbloat is especially severe in cellular networks, up to several seconds of round-trip delay",
         claims=["cubic-seconds-of-delay"]),
    Item("Jiang et al., Abstract", "Abstract", "statement",
         "cellular networks keep large buffers at base stations and are hence apt to bufferbloat",
         claims=["cubic-seconds-of-delay"]),
    Item("Jiang et al., DRWA", "Abstract; §4", "statement",
         "dynamic receive-window adjustment reduces the delay by 25–49 % and raises throughput by up to 51 %",
         not_covered="DRWA is a receiver-side mechanism lossy does not have; its numbers are from the authors' "
                     "phones on live networks"),
    Item("RFC 8033, Abstract", "Abstract", "statement",
         "PIE controls the average queueing latency to a target value at high link utilization",
         claims=["pie-average-latency", "aqm-little-goodput-cost"]),
    Item("RFC 8289, Abstract", "Abstract", "statement",
         "CoDel controls bufferbloat-generated excess delay",
         claims=["aqm-little-goodput-cost"]),
    Item("issue 30: the seeds' schemes on a lossy cellular hop", "issue 30, What to build", "statement",
         "link-layer ARQ and ELN on a lossy cellular hop, CUBIC and BBRv1",
         not_covered="no source states what ARQ or ELN do for CUBIC or BBR over a cellular trace: a measurement "
                     "(the lossy-hop figure and table), not a claim"),
])

__all__ = ["INVENTORY"]
