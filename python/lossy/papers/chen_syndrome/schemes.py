"""The schemes Chen et al. compare on Fig. 9's network, each as the scenario fields it
sets: plain Reno, Snoop at the base station(s), Syndrome (the counter at the base
station(s), the inference at the receivers), and, beyond the paper, ELN at the base
station(s) (Syndrome's ELN-based relative that keeps per-connection state) and Snoop
as ns-2 runs it (`snoop-ns2`: the local retransmission on the second duplicate ACK)."""

from __future__ import annotations

from typing import Any, Dict, List


def _at(stations: List[str], kind: str) -> List[Dict[str, Any]]:
    return [{"kind": kind, "node": bs, "wireless_neighbor": "MH"} for bs in stations]


def schemes(stations: List[str], role: str = "downlink") -> Dict[str, Dict[str, Any]]:
    """Each scheme with its agents on `stations`: HA alone when MH stays there, HA and FA
    (the home and the foreign agent) when it hands off between them. `role` is where the
    Syndrome receivers are: "downlink" (MH receives, FH → MH) or "uplink" (MH → FH)."""
    return {
        "reno": {"agents": []},
        "eln": {"agents": _at(stations, "eln")},
        "snoop": {"agents": _at(stations, "snoop")},
        "snoop-ns2": {"agents": [{**a, "local_retransmit_dupacks": 2} for a in _at(stations, "snoop")]},
        # The counter at the stations, the inference at the receiver of both connections.
        "syndrome": {"agents": _at(stations, "syndrome"),
                     "flows.0.tcp.syndrome": role, "flows.1.tcp.syndrome": role},
    }


SCHEMES = schemes(["HA"])
ROAMING = schemes(["HA", "FA"])
UPLINK = schemes(["HA"], "uplink")

# The paper's three, in the order of its legends.
PAPER = ["syndrome", "snoop", "reno"]
# What every sweep compares: the paper's three and ELN (snoop-ns2 joins Fig. 10 only).
COMPARED = PAPER + ["eln"]
