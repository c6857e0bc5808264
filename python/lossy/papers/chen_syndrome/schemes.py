"""The schemes Chen et al. compare on Fig. 9's network, each as the scenario fields it
sets: plain Reno, Snoop at the base station(s), Syndrome (the counter at the base
station(s), the inference at the receivers), and, beyond the paper, ELN at the base
station(s) (Syndrome's ELN-based relative that keeps per-connection state)."""

from __future__ import annotations

from typing import Any, Dict, List


def _at(stations: List[str], kind: str) -> List[Dict[str, Any]]:
    return [{"kind": kind, "node": bs, "wireless_neighbor": "MH"} for bs in stations]


def schemes(stations: List[str]) -> Dict[str, Dict[str, Any]]:
    """Each scheme with its agents on `stations`: HA alone when MH stays there, HA and FA
    (the home and the foreign agent) when it hands off between them."""
    return {
        "reno": {"agents": []},
        "eln": {"agents": _at(stations, "eln")},
        "snoop": {"agents": _at(stations, "snoop")},
        # The counter at the stations, the inference at MH, the receiver of both connections.
        "syndrome": {"agents": _at(stations, "syndrome"),
                     "flows.0.tcp.syndrome": "downlink", "flows.1.tcp.syndrome": "downlink"},
    }


SCHEMES = schemes(["HA"])
ROAMING = schemes(["HA", "FA"])

# The paper's three, in the order of its legends.
PAPER = ["syndrome", "snoop", "reno"]
