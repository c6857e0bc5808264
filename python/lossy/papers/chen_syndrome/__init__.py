"""`lossy reproduce chen-syndrome`: Chen, Hsiao, Hou, Ge, Fitz, "Syndrome: a light-weight
approach to improving TCP performance in mobile wireless networks" (WCMC 2002), §6.

Figs. 10–14 on the network of Fig. 9 as read in scenarios/chen-fig9.toml (the figure is
missing from the text): Syndrome, Snoop and Reno (and ELN beside them) under uniform and
burst losses, with reordering and duplication, and around hand-offs. The layout:
schemes.py (what each scheme sets), sweeps.py, figures.py, claims.py.
"""

from __future__ import annotations

from ..model import Reproduction
from .claims import CLAIMS
from .figures import FIGURES
from .schemes import COMPARED
from .sweeps import sweeps

REPRODUCTION = Reproduction(
    name="chen-syndrome",
    title="Chen et al. 2002: Syndrome against Snoop and Reno (Figs. 10–14)",
    about="Throughput of two connections toward a mobile host behind a base station, one and "
          "four wired hops away, with wireless loss p and 50 times less wired loss; base and full "
          "versions of Syndrome, Snoop, Reno and ELN; uniform and burst losses, duplicates, hand-offs.",
    sweeps=sweeps(COMPARED),
    figures=FIGURES,
    claims=CLAIMS,
)

__all__ = ["REPRODUCTION"]
