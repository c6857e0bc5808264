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
channel, as the paper's TCP simulations were; the fading-driven runs of Fig. 2 are one
claim's probe. One file per group of figures: claims_table1.py, claims_fig2.py,
claims_burst.py (Figs. 3–4), claims_attempts.py (Figs. 5–6), claims_fec.py (Figs. 7–8)."""

from __future__ import annotations

from typing import List

from ..model import Claim
from . import claims_attempts, claims_burst, claims_fec, claims_fig2, claims_table1

CLAIMS: List[Claim] = [*claims_table1.CLAIMS, *claims_fig2.CLAIMS, *claims_burst.CLAIMS, *claims_attempts.CLAIMS,
                       *claims_fec.CLAIMS]

__all__ = ["CLAIMS"]
