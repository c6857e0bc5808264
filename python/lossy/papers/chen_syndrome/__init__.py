"""`lossy reproduce chen-syndrome`: Chen, Hsiao, Hou, Ge, Fitz, "Syndrome: a light-weight
approach to improving TCP performance in mobile wireless networks" (WCMC 2002), §6.

Figs. 10–14 on the network of Fig. 9 as read in scenarios/chen-fig9.toml (the figure is
missing from the text): Syndrome, Snoop and Reno (and ELN beside them) under uniform and
burst losses, with reordering and duplication, and around hand-offs; beyond the figures
Table 1's state, §1's coexistence and §6's x from 10 to 1000. The layout: schemes.py
(what each scheme sets), sweeps.py, figures.py, claims.py and claims_added.py (their
quantities in quantities.py, their examples in examples.py, their probes in probes.py),
inventory.py (every item of the paper and what covers it).
"""

from __future__ import annotations

from ..model import Reproduction
from .claims import CLAIMS
from .figures import FIGURES
from .inventory import INVENTORY
from .schemes import COMPARED
from .sweeps import added_sweeps, probe_sweeps, sweeps

SWEEPS = sweeps(COMPARED) + added_sweeps()

NOTES = [
    "Bands come from the paper's words: \"very close\" ±10 %, \"comparable\" and \"similar\" ±20 %, "
    "\"no notable difference\" ±5 % (bands.WORDS); \"30–80 per cent more\" is 1.3× to 1.8×; \"20 per cent "
    "more aggressively\" is +20 % ± 25 % of it. \"High packet loss rates\" are Fig. 10's two highest p, 0.05 "
    "and 0.1. §1's \"cannot benefit … can otherwise coexist\" has no word of likeness; it is read as \"no "
    "notable difference\" from plain Reno.",
    "Fig. 12's text places the notable discrepancy for S2 beyond a duplicate probability of 0.1 and S2's worst "
    "case at 0.1 itself; the claims read S2's close range as below 0.1 and take the worst case where the paper "
    "names it.",
    "\"Both directions exhibit similar behaviors\" is read as each scheme's throughput MH → FH similar to its "
    "throughput FH → MH at the same p.",
    "The probes run every sender on ns-2's timers of 2000 (no minrto_, which ns-2 added on 2001/05/10 and set "
    "to 1 s on 2001/05/14; 100 ms ticks, so an RTO of at least 0.2 s); the figures and claims keep "
    "chen-fig9.toml's 1 s floor. What a probe leaves of a gap is cause unknown.",
]

REPRODUCTION = Reproduction(
    name="chen-syndrome",
    title="Chen et al. 2002: Syndrome against Snoop and Reno (Figs. 10–14)",
    about="Throughput of two connections toward a mobile host behind a base station, one and "
          "four wired hops away, with wireless loss p and 50 times less wired loss; base and full "
          "versions of Syndrome, Snoop, Reno and ELN; uniform and burst losses, duplicates, hand-offs; "
          "beyond the figures Table 1's state at the base station, plain hosts beside Syndrome hosts and "
          "wired loss p/10 and p/1000.",
    sweeps=SWEEPS + probe_sweeps(SWEEPS),
    figures=FIGURES,
    claims=CLAIMS,
    notes=NOTES,
    inventory=INVENTORY,
)

__all__ = ["REPRODUCTION"]
