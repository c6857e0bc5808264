"""`lossy reproduce validation`: the simulator against the throughput models, and Reno
against ELN on a lossy wireless last hop.

(a) Reno and NewReno goodput against the loss rate p on scenarios/one-hop.toml, with the
    Mathis and PFTK-full curves drawn over it.
(b) Reno with and without an ELN agent at the base station on scenarios/last-hop.toml,
    against the wireless loss rate; the same seeds, so the comparison is paired.
(c) ELN against Reno when the losses are upstream (on the wired hop): ELN must change
    nothing.
(d) One traced run of each scheme: cwnd, sequence numbers, throughput and CDFs.

The layout every paper package follows: sweeps.py (what is run), models.py (analytic
curves), figures.py (figures and tables), claims.py (checks); this module puts them
together as REPRODUCTION, which the registry (lossy.papers) imports when asked.
"""

from __future__ import annotations

from ..model import Reproduction
from .claims import CLAIMS
from .figures import FIGURES
from .sweeps import SWEEPS

REPRODUCTION = Reproduction(
    name="validation",
    title="Validation: TCP against the throughput models, and ELN on a wireless last hop",
    about="Reno and NewReno goodput against the Mathis and PFTK models on one lossy hop, and "
          "the gain of Explicit Loss Notification over plain Reno when the losses are on a "
          "wireless last hop (and its absence when they are upstream). The tolerances are "
          "those of tests/python/test_validation.py.",
    sweeps=SWEEPS,
    figures=FIGURES,
    claims=CLAIMS,
)

__all__ = ["REPRODUCTION"]
