"""Chockalingam et al.'s claims (§III–V) on the claims protocol: each statement with the
paper's words, the quantity we measure, the band those words allow (lossy.papers.bands)
and synthetic examples with the effect absent, as stated and, where the paper gives a
magnitude, doubled. The paper prints its figures without numbers and the curves are lost
from the text, so the bands come from its words: "about 0.7", "about 20", "as high as
0.9" are stated numbers (± 25 %); "negligible", "almost independent", "very little
difference", "as good as", "not very much" are words of likeness on the normalized
throughput scale (absolute); "better", "improves", "worse", "very poor", "most" give a
direction only, and the report prints our magnitude.

Every claim on Figs. 2–8 reads the runs driven by the chain fitted to the fading
channel, as the paper's TCP simulations were (Figs. 3–4: the chain set from P_E and the
burst length; Table 1: the fit itself), and says so in its source; the claims on Figs. 2
and 5, whose sweeps also run on the fading channel itself, each have a twin judged there
(key "<key>-fading"), shown beside it. One file per group of figures: claims_table1.py, claims_fig2.py,
claims_burst.py (Figs. 3–4), claims_attempts.py (Figs. 5–6), claims_fec.py (Figs. 7–8)."""

from __future__ import annotations

from typing import List

from ..model import Claim
from . import claims_attempts, claims_burst, claims_fec, claims_fig2, claims_table1

TWIN = "-fading"


def _twins_beside(claims: List[Claim]) -> List[Claim]:
    """Each claim judged on the fading channel (key "<key>-fading") right after its
    chain-driven original, so the report shows the two side by side."""
    twins = {c.key[:-len(TWIN)]: c for c in claims if c.key.endswith(TWIN)}
    out: List[Claim] = []
    for c in claims:
        if not c.key.endswith(TWIN):
            out += [c, twins[c.key]] if c.key in twins else [c]
    return out


CLAIMS: List[Claim] = _twins_beside([*claims_table1.CLAIMS, *claims_fig2.CLAIMS, *claims_burst.CLAIMS,
                                     *claims_attempts.CLAIMS, *claims_fec.CLAIMS])

__all__ = ["CLAIMS"]
