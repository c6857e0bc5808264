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

# ns-2's retransmission timer as it was before 2001/05/10, when `minrto_` was added (set
# to 1 s on 2001/05/14; tcl/lib/ns-default.tcl): no floor but two ticks of tcpTick_,
# 0.1 s until 2002/03/07. Chen's technical report [16] is of December 2000. The probes
# run every sender with it; the figures keep the 1 s floor of chen-fig9.toml.
TIMERS_2000: Dict[str, Any] = {f"flows.{i}.tcp.{k}": v for i in (0, 1)
                               for k, v in {"min_rto": "0.2 s", "timer_granularity": "100 ms"}.items()}


def coexisting() -> Dict[str, Dict[str, Any]]:
    """§1: "end hosts without syndrome cannot benefit ... but can otherwise coexist with
    syndrome hosts". Beside plain Reno and Syndrome on both connections, one connection
    with a plain end host and the other a Syndrome one, the counter at HA stamping both:
    `plain-mh-S1` (S1's receiver at MH does not infer), `plain-fh-S1` (S1's sender does
    not react to ELN), and the same for S2."""
    counter = {"agents": _at(["HA"], "syndrome")}
    out: Dict[str, Dict[str, Any]] = {"reno": SCHEMES["reno"], "syndrome": SCHEMES["syndrome"]}
    for i, flow in enumerate(["S1", "S2"]):
        other = 1 - i
        out[f"plain-mh-{flow}"] = {**counter, f"flows.{other}.tcp.syndrome": "downlink"}
        out[f"plain-fh-{flow}"] = {**SCHEMES["syndrome"], f"flows.{i}.tcp.eln": False}
    return out


COEXISTING = coexisting()

# The paper's three, in the order of its legends.
PAPER = ["syndrome", "snoop", "reno"]
# What every sweep compares: the paper's three and ELN (snoop-ns2 joins Fig. 10 only).
COMPARED = PAPER + ["eln"]
