"""The paper's systems as scenario fields (Shagdar, Shirazi, Zhang §IV): the two
topologies, the four schemes of each figure (plain, ECN, EWLN, EWLN-ECN over Reno or
SACK) and, beyond the paper, ELN and Snoop agents on the same WLAN; and the counters
the claims read to show where EWLN and RED act."""

from __future__ import annotations

from typing import Any, Dict, Tuple

from ...shipped import scenarios_dir

TOPOLOGY1 = str(scenarios_dir() / "shagdar-t1.toml")
TOPOLOGY2 = str(scenarios_dir() / "shagdar-t2.toml")
SNR = "wlans.0.loss.snr_db"
# Attempts of a data frame at the MAC: ns-2's LongRetryLimit_ 4 in both scenarios (the
# paper does not give its MAC's); the probes set it to 1, no MAC retry.
RETRY_LIMIT = "wlans.0.long_retry_limit"

# Flows whose TCP a scheme sets: topology 1 has one; in topology 2 the cross traffic
# runs the same TCP (ECN-capable when the scheme is), EWLN only on the wireless flow.
T1_FLOWS: Tuple[int, ...] = (0,)
T2_FLOWS: Tuple[int, ...] = (0, 1)

# Counters of the runs (summary columns). The wireless flow is flow 0 in both
# topologies; EWLN_RESENDS counts its segments resent on an EWLN ACK, i.e. where EWLN
# fired. Topology 2's RED bottleneck R1 -> R2 is its fifth link direction; topology 1's
# only RED queue is BS -> FH, its first.
EWLN_RESENDS = "flows.0.retransmits_ewln"
# Fast recoveries of the wireless flow: a congestion response to duplicate ACKs.
FAST_RECOVERIES = "flows.0.fast_recoveries"
T2_BOTTLENECK = "links.4"
T2_BOTTLENECK_NAME = "R1->R2"
T1_RED = "links.0"
T1_RED_NAME = "BS->FH"


def scheme(variant: str, ecn: bool, ewln: bool, flows: Tuple[int, ...] = T1_FLOWS) -> Dict[str, Any]:
    """TCP `variant` ("reno" or "sack") with ECN and EWLN (the MAC's and the wireless
    flow's TCP) on or off."""
    out: Dict[str, Any] = {"wlans.0.ewln": ewln, "flows.0.tcp.ewln": ewln}
    for f in flows:
        out[f"flows.{f}.tcp.variant"] = variant
        out[f"flows.{f}.tcp.ecn"] = ecn
    return out


def base_name(variant: str) -> str:
    return "Reno" if variant == "reno" else "SACK"


def schemes(variant: str, flows: Tuple[int, ...] = T1_FLOWS) -> Dict[str, Dict[str, Any]]:
    """The four curves of a figure, named as the paper's legends."""
    base = base_name(variant)
    return {base: scheme(variant, False, False, flows), f"ECN-{base}": scheme(variant, True, False, flows),
            f"EWLN-{base}": scheme(variant, False, True, flows), f"EWLN-ECN-{base}": scheme(variant, True, True, flows)}


def plain_and_ewln(flows: Tuple[int, ...] = T1_FLOWS) -> Dict[str, Dict[str, Any]]:
    """Reno, EWLN-Reno, SACK and EWLN-SACK without ECN: the pairs the gain claims compare."""
    out: Dict[str, Dict[str, Any]] = {}
    for variant in ("reno", "sack"):
        base = base_name(variant)
        out[base] = scheme(variant, False, False, flows)
        out[f"EWLN-{base}"] = scheme(variant, False, True, flows)
    return out


# The two directions of topology 1: the text's (MH → FH, §IV A) and the other.
TEXT_DIRECTION = "MH → FH"
DIRECTIONS = {TEXT_DIRECTION: {"flows.0.from": "MH", "flows.0.to": "FH"},
              "FH → MH": {"flows.0.from": "FH", "flows.0.to": "MH"}}

_AGENT = {"node": "BS", "wireless_neighbor": "MH"}
# Beyond the paper: what MAC-level information buys, against base-station agents.
LOSS_SCHEMES = {
    "Reno": scheme("reno", False, False),
    "EWLN-Reno (the MAC)": scheme("reno", False, True),
    "ELN-Reno (agent at BS)": {**scheme("reno", False, False), "agents": [{"kind": "eln", **_AGENT}]},
    "Snoop (at BS)": {**scheme("reno", False, False), "agents": [{"kind": "snoop", **_AGENT}]},
}
