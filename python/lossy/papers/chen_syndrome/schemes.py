"""The schemes Chen et al. compare on Fig. 9's network, each as the scenario fields it
sets: plain Reno, Snoop at both base stations, Syndrome (the counter at both base
stations, the inference at the receivers), and, beyond the paper, ELN at the base
stations (Syndrome's ELN-based relative that keeps per-connection state)."""

from __future__ import annotations

from typing import Any, Dict, List

STATIONS = ["HA", "FA"]  # the home and the foreign agent: whichever serves MH has agents


def _at_stations(kind: str, **fields: Any) -> List[Dict[str, Any]]:
    return [{"kind": kind, "node": bs, "wireless_neighbor": "MH", **fields} for bs in STATIONS]


SCHEMES: Dict[str, Dict[str, Any]] = {
    "reno": {"agents": []},
    "eln": {"agents": _at_stations("eln")},
    "snoop": {"agents": _at_stations("snoop")},
}

# The paper's three, in the order of its legends.
PAPER = ["syndrome", "snoop", "reno"]
