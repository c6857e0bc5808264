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
curves), figures.py (figures and tables), claims.py (claims on the claims protocol, with
their synthetic examples in examples.py and the ELN argument in eln_expected.py),
inventory.py (what the sources state and what covers it); this module puts them
together as REPRODUCTION, which the registry (lossy.papers) imports when asked.
"""

from __future__ import annotations

from ..model import Reproduction
from .claims import CLAIMS
from .figures import FIGURES
from .inventory import INVENTORY
from .sweeps import SWEEPS

REPRODUCTION = Reproduction(
    name="validation",
    title="Validation: TCP against the throughput models, and ELN on a wireless last hop",
    about="Reno and NewReno goodput against the Mathis and PFTK models on one lossy hop, and "
          "the gain of Explicit Loss Notification over plain Reno when the losses are on a "
          "wireless last hop (and its absence when they are upstream), and SACK against ns-3 "
          "and RFC 6675. The models' tolerances are those of tests/python/test_validation.py; "
          "ELN's gain is held to an analytic argument (eln_expected.py), SACK's to the numbers "
          "of crates/lossy-core/tests/sack.rs.",
    sweeps=SWEEPS,
    figures=FIGURES,
    claims=CLAIMS,
    inventory=INVENTORY,
)

__all__ = ["REPRODUCTION"]
