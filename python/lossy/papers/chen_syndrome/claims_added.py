"""Chen et al.'s statements beyond Figs. 10–14 that our runs can hold: Table 1's state at
the base station, §1's coexistence of plain and Syndrome hosts, and §6's x from 10 to
1000 (Fig. 10 at both ends). What cannot be run is listed in inventory.py."""

from __future__ import annotations

from functools import partial
from typing import Dict, List

import pandas as pd

from .. import synthetic
from ..bands import Band
from ..context import Context
from ..judge import Measurement
from ..measures import joined, ratio_per_point
from ..model import Claim, Examples, Probe, Runs
from . import examples as ex
from .examples import constant
from .probes import timers_2000
from .quantities import COUNT_BYTES, CONNECTIONS, STATE, high, scheme_ratios, state_ratio, syndrome_count_only, syndrome_state_kept
from .schemes import PAPER
from .sweeps import X_ENDS

# Table 1 / §2.2: a window worth of packets (ns-2's window_ = 20 segments of 1000 B with
# 40 B of headers) against one 32-bit count (§3, quantities.COUNT_BYTES), per connection.
WINDOW_BYTES = 20 * 1040


def state_rows(snoop: float, syndrome: float) -> Runs:
    """Base-sweep rows whose agent state per connection is `snoop` and `syndrome` bytes
    (two connections), the count at 4 B of it."""
    level = {"snoop": snoop, "syndrome": syndrome}
    return {"base": synthetic.runs({"p": [0.1, 0.005], "scheme": list(level)},
                                   lambda p, scheme: {STATE: 2 * level[scheme], CONNECTIONS: 2.0})}


# §1: the plain host of each mixed run (schemes.coexisting), and its connection.
PLAIN = {"plain-mh-S1": "S1", "plain-fh-S1": "S1", "plain-mh-S2": "S2", "plain-fh-S2": "S2"}
PLAIN_TEXT = {"mh": "receiver (MH) without Syndrome", "fh": "sender (FH) without ELN"}


def plain_hosts(ctx: Context, sweep: str = "coexist") -> Measurement:
    return joined([f"{flow}'s {PLAIN_TEXT[v.split('-')[1]]}" for v, flow in PLAIN.items()],
                  [ratio_per_point(ctx, sweep, flow, "scheme", v, "reno", "p") for v, flow in PLAIN.items()])


def coexist_rows(plain: float) -> Runs:
    level: Dict[str, float] = {"reno": 1.0, "syndrome": 2.0, **{v: plain for v in PLAIN}}
    return {"coexist": ex.fig10({s: constant(m) for s, m in level.items()}, values=(0.1, 0.02))}


def x_sweeps(probe: bool = False) -> List[str]:
    return [f"x{x}-2000" if probe else f"x{x}" for x in X_ENDS]


def x_near_snoop(ctx: Context, sweeps: List[str]) -> Measurement:
    return joined(sweeps, [scheme_ratios(ctx, s, [("syndrome", "snoop")]) for s in sweeps])


def x_above_reno(ctx: Context, sweeps: List[str]) -> Measurement:
    return joined(sweeps, [scheme_ratios(ctx, s, [("syndrome", "reno"), ("snoop", "reno")], keep=high)
                           for s in sweeps])


def at_x_ends(levels: Dict[str, float]) -> Runs:
    frame: pd.DataFrame = ex.fig10({s: constant(m) for s, m in levels.items()})
    return {s: frame for s in x_sweeps()}


ROBUST = ("the results are found to be quite robust in the sense that the conclusion drawn from the performance "
          "curves for a representative set of parameters is valid over a wide range of parameter values")
X_RANGE = "the packet loss probability over the wireless link is x times larger than that of the wireline link, where x varies from 10 to 1000"

ADDED: List[Claim] = [
    Claim("table1-state", "Per connection the base station keeps a window of packets for Snoop and one count for "
          "Syndrome (Table 1)", "Table 1 (row \"BS keeps state?\" and its footnote ‡), §2.2, §3",
          "SNOOP requires the BS to buffer, in the worst case, a window worth of packets and states … ‡ Syndrome "
          "has to keep, for each TCP connection, the number of packets it has relayed to the destination … The "
          "attached number could be made 32 bit long",
          "the base station's largest state over a run, Snoop ÷ Syndrome (both over the same two connections, "
          "so per connection), at each p of Fig. 10",
          Band.stated(WINDOW_BYTES / COUNT_BYTES, "a window worth of packets (20 of 1040 B) over one 32-bit count"),
          partial(state_ratio, sweep="base", syndrome_state=syndrome_state_kept), ["base"],
          Examples(null=lambda: state_rows(WINDOW_BYTES, WINDOW_BYTES),
                   faithful=lambda: state_rows(WINDOW_BYTES, COUNT_BYTES),
                   exaggerated=lambda: state_rows(WINDOW_BYTES, COUNT_BYTES / 2)),
          "Table 1's worst case needs full windows in flight: in Fig. 10's runs Snoop's cache reaches 40 packets "
          "(both connections' 20-segment windows) at every p from 0.01 to 0.05 and 32–39 elsewhere",
          probe=Probe("our Syndrome agent keeps a 16-bit epoch beside each 32-bit count (6 B per connection) and one "
                      "per wireless neighbour (2 B), so that counting restarts after a hand-off; the paper's base "
                      "station keeps the count alone",
                      "reading swapped: Syndrome's state counted as the 32-bit count of each connection it saw",
                      ["base"], partial(state_ratio, sweep="base", syndrome_state=syndrome_count_only), share=1.0)),
    Claim("coexist", "An end host without Syndrome neither gains nor loses beside Syndrome hosts (§1)", "§1",
          "end hosts without syndrome cannot benefit from the performance improvement, but can otherwise coexist "
          "with syndrome hosts",
          "the plain host's connection's throughput in a run where the other connection is Syndrome's ÷ its "
          "throughput when both are plain Reno, per p; the plain host is the receiver (no inference) or the "
          "sender (no reaction to ELN), for S1 and S2",
          Band.word("no notable difference"), plain_hosts, ["coexist"],
          Examples(null=lambda: coexist_rows(2.0), faithful=lambda: coexist_rows(1.0)),
          "\"cannot benefit … can otherwise coexist\" read as \"no notable difference\" from plain Reno. At p ≥ "
          "0.05 Syndrome's connections get 2.1–2.2× Reno's, so a plain host that shared the gain would lie far "
          "outside the band; at p = 0.02 the two connections carry about 1.3 Mb/s of the 2 Mb/s wireless link, "
          "the most of these points, so a faster neighbour's harm would show. A receiver that does not infer "
          "and a sender that ignores ELN are the same plain Reno connection, so their parts agree",
          probe=Probe("the plain host shares Fig. 9's 2 Mb/s links node 8 → HA → MH with a Syndrome connection that "
                      "keeps its window open after wireless losses: the gap is that sharing",
                      "the two shared links at 10 Mb/s, more than both connections together use",
                      ["coexist-wide"], partial(plain_hosts, sweep="coexist-wide"), share=1.0)),
    Claim("x-near-snoop", "With wired loss p/10 or p/1000 Syndrome stays very close to Snoop (§6, Fig. 10)",
          "§6, parameter setting", f"{X_RANGE} … {ROBUST}",
          "Syndrome ÷ Snoop throughput at each p of Fig. 10, S1 and S2, at x = 10 and x = 1000",
          Band.word("very close"), partial(x_near_snoop, sweeps=x_sweeps()), x_sweeps(),
          Examples(null=lambda: at_x_ends({"syndrome": 0.7, "snoop": 1.0, "reno": 0.5}),
                   faithful=lambda: at_x_ends({"syndrome": 1.0, "snoop": 1.0, "reno": 0.5})),
          "the ends of the paper's range of x: at x = 10 the wire near S1 loses a tenth as much as the wireless "
          "link (1 % at p = 0.1), so Syndrome must tell many wired losses from wireless ones; at x = 1000 "
          "almost every loss is wireless",
          probe=timers_2000(partial(x_near_snoop, sweeps=x_sweeps(probe=True)), *x_sweeps(probe=True))),
    Claim("x-above-reno", "With wired loss p/10 or p/1000 Syndrome and Snoop still get 30–80 % more than Reno at "
          "high loss (§6, Fig. 10)", "§6, parameter setting", f"{X_RANGE} … {ROBUST}",
          "Syndrome ÷ Reno and Snoop ÷ Reno throughput at p = 0.05 and 0.1, S1 and S2, at x = 10 and x = 1000",
          Band.between(1.3, 1.8, '"30–80 per cent more" (Fig. 10), held at both ends of x'),
          partial(x_above_reno, sweeps=x_sweeps()), x_sweeps(),
          Examples(null=lambda: at_x_ends({s: 1.0 for s in PAPER}),
                   faithful=lambda: at_x_ends({"syndrome": 1.55, "snoop": 1.55, "reno": 1.0}),
                   exaggerated=lambda: at_x_ends({"syndrome": 2.1, "snoop": 2.1, "reno": 1.0})),
          "Fig. 10's high loss rates, p = 0.05 and 0.1, at the ends of the paper's range of x; at x = 10 S1's "
          "wire adds 0.5–1 % loss that every scheme must treat as congestion",
          probe=timers_2000(partial(x_above_reno, sweeps=x_sweeps(probe=True)), *x_sweeps(probe=True))),
]
