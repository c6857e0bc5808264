"""Scenario generators: scenarios too large to write by hand, as plain scenario dicts.

`base_station` puts N mobile hosts behind one base station, each with its own bulk TCP
flow from one server; it is the scale case of `lossy bench`. The dicts have the shape
of a scenario file (see scenarios/last-hop.toml); units stay text for the core to read.
"""

from __future__ import annotations

import math
import operator
import re
from decimal import Decimal, InvalidOperation
from typing import Any, Dict, List, Union

from .ellipsis import short_repr

Scenario = Dict[str, Any]

# A duration as the core reads it: a number and an optional unit. Only the number is
# needed here (to multiply the stagger); the unit is kept as typed, for the core.
_QUANTITY = re.compile(r"^\s*([0-9.eE+-]+)\s*([^\s0-9]*)\s*$")


class GenerateError(ValueError):
    """A generator argument out of range; `argument` names it, `problem` says why."""

    def __init__(self, argument: str, problem: str) -> None:
        super().__init__(f"{argument}: {problem}")
        self.argument = argument
        self.problem = problem


def base_station(
    hosts: int = 10_000,
    *,
    wired_rate: str = "1 Gbps",
    wired_delay: str = "10 ms",
    wireless_rate: str = "2 Mbps",
    wireless_delay: str = "1 ms",
    loss_p: float = 0.01,
    duration: str = "10 s",
    eln: bool = True,
    stagger: Union[str, float] = "0.1 ms",
    queue: str = "100 packets",
) -> Scenario:
    """server --wired--> bs --wireless, Bernoulli loss_p--> mh0..mh{hosts-1}; one bulk
    TCP flow from the server to each host (one flow group, "mh"), flow i starting at
    i * stagger (so that the flows do not start in lock-step); with `eln`, one ELN agent
    at bs for every host."""
    hosts = _hosts(hosts)
    loss_p = _probability("loss_p", loss_p)
    step, unit = _duration("stagger", stagger)
    mobiles = [f"mh{i}" for i in range(hosts)]
    links: List[Dict[str, Any]] = [
        {"between": ["server", "bs"], "rate": wired_rate, "delay": wired_delay, "queue": queue},
    ]
    links += [
        {"between": ["bs", mh], "rate": wireless_rate, "delay": wireless_delay, "queue": queue,
         "loss": {"model": "bernoulli", "p": loss_p}}  # forward = bs -> mh, the data direction
        for mh in mobiles
    ]
    # One flow group, not `hosts` [[flows]] tables: flow i (named "mh.<i>") goes to mh<i>
    # and starts at i * stagger, exactly as the tables did.
    group = {"name": "mh", "count": hosts, "from": "server", "to": "mh{i}",
             "start": {"every": f"{step} {unit}".strip()}, "app": {"kind": "bulk"}}
    doc: Scenario = {
        "name": "base-station",
        "description": (f"server --{wired_rate}, {wired_delay}--> bs --{wireless_rate}, "
                        f"{wireless_delay}, p = {loss_p:g}--> {hosts:,} mobile hosts; "
                        f"a bulk TCP flow to each{', ELN at bs' if eln else ''}"),
        "duration": duration,
        "nodes": ["server", "bs", *mobiles],
        "links": links,
        "flow_groups": [group],
        "agents": [],
    }
    if eln:
        doc["agents"].append({"kind": "eln", "node": "bs", "wireless_neighbors": list(mobiles)})
    return doc


def to_toml(doc: Scenario, header: str = "") -> str:
    """The scenario as TOML text, `header` first as comment lines."""
    import tomli_w  # a dependency already; imported here to keep `lossy` start-up short

    comments = "".join(f"# {line}".rstrip() + "\n" for line in header.splitlines())
    return comments + tomli_w.dumps(doc)


# Nodes besides the mobile hosts: the server and the base station.
_OTHER_NODES = 2


def max_hosts() -> int:
    """The most hosts a scenario the core accepts can hold: its node limit (read from the
    core, not copied) less the server and the base station. Checked before any work:
    issue 27 found --hosts 70000 written and then rejected, and --hosts 2000000 spending
    6.5 minutes and 2.9 GB first."""
    from . import _core

    return int(_core.MAX_NODES) - _OTHER_NODES


def _hosts(value: Any) -> int:
    try:
        if isinstance(value, bool):
            raise TypeError
        hosts = operator.index(value)
    except TypeError:
        raise GenerateError("hosts", f"{short_repr(value)} is not an integer; use 1 to {max_hosts():,}") from None
    if hosts < 1:
        raise GenerateError("hosts", f"{hosts} is not allowed; use 1 to {max_hosts():,}")
    if hosts > max_hosts():
        raise GenerateError("hosts", f"{hosts:,} is too many; a scenario holds at most "
                                     f"{max_hosts() + _OTHER_NODES:,} nodes, so use 1 to {max_hosts():,} "
                                     "hosts (the server and the base station are the other two)")
    return hosts


def _probability(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise GenerateError(name, f"{short_repr(value)} is not a number; use a probability from 0 to 1")
    if not (math.isfinite(value) and 0 <= value <= 1):
        raise GenerateError(name, f"{value:g} is not allowed; use a probability from 0 to 1")
    return float(value)


def _duration(name: str, value: Union[str, float]) -> tuple[Decimal, str]:
    """(number, unit) of a duration; Decimal so that 37 x "0.1 ms" is "3.7 ms", not
    "3.7000000000000006 ms"."""
    text = str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value
    match = _QUANTITY.match(text) if isinstance(text, str) else None
    try:
        number = Decimal(match.group(1)) if match else Decimal("NaN")
    except InvalidOperation:
        number = Decimal("NaN")
    if not number.is_finite() or number < 0:
        raise GenerateError(name, f"{short_repr(value)} is not a duration; use e.g. \"1 ms\" or 0")
    return number.copy_abs(), match.group(2) if match else ""  # no "-0 ms"
