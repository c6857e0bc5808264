"""The paper's systems as scenario fields (Botoș, Polgar, Bota §III): Fig. 2's path on
scenarios/botos.toml, FECTCP with the paper's 5 % code overhead and the four TCPs it is
compared with, the two loss models, the two end-to-end delays."""

from __future__ import annotations

from typing import Any, Dict

from ...scenario import load_scenario
from ...shipped import scenarios_dir

SCENARIO = str(scenarios_dir() / "botos.toml")
WIRELESS = 2  # links.2: AP -> client, where segments are lost
LOSS = f"links.{WIRELESS}.loss"
DELAY = "links.0.delay"  # the first wired hop carries the end-to-end delay, less 2 ms
PACKET_BYTES = 1500  # Fig. 1; 1460-byte segments plus 40 bytes of header

# §IV A: "an end-to-end delay of 20 ms" and "100 ms" — one way, from server to client;
# the AP's two 1 ms hops are part of it.
DELAYS = {"20 ms": "18 ms", "100 ms": "98 ms"}


def fectcp(**options: Any) -> Dict[str, Any]:
    """Flow 0 as FECTCP with these `fectcp` options (the paper's: a 5 % overhead)."""
    return {"flows.0.transport": "fectcp", "flows.0.fectcp": options}


def tcp(variant: str) -> Dict[str, Any]:
    """Flow 0 as TCP `variant` (its `fectcp` table dropped)."""
    return {"flows.0.transport": "tcp", "flows.0.fectcp": None, "flows.0.tcp.variant": variant}


# Figs. 3 and 4: FECTCP with "a rateless code with an average overhead of 5 %" against
# "various flavors of TCP" (the issue names Tahoe, Reno, NewReno and SACK).
SCHEMES: Dict[str, Dict[str, Any]] = {
    "FECTCP": fectcp(overhead=0.05),
    "Tahoe": tcp("tahoe"),
    "Reno": tcp("reno"),
    "NewReno": tcp("newreno"),
    "SACK": tcp("sack"),
}

# Beyond the paper: the codes' own overheads, measured by their real decoders.
CODES: Dict[str, Dict[str, Any]] = {
    "FECTCP, 5 % (paper)": fectcp(overhead=0.05),
    "FECTCP, RaptorQ (measured)": fectcp(code="raptorq"),
    "FECTCP, LT (measured)": fectcp(code="lt"),
}


def scenario_tcp() -> Dict[str, Any]:
    """The TCP options of the scenario's flow 0 (ns-2.35's), for the flows a figure adds."""
    return dict(load_scenario(SCENARIO)["flows"][0]["tcp"])
