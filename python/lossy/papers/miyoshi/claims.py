"""Miyoshi et al.'s claims (§3–5), each held to its band by the 95 % CI of its quantity
over replications (lossy.papers.judge): the TCP runs of Figs. 2–3 in claims_tcp.py, the
packet stream of Tables 3–4 and the window study in claims_stream.py. Every band is read
from the paper's words or numbers, none tuned to our runs."""

from __future__ import annotations

from typing import Dict, List

from ..model import Claim
from . import stream
from .claims_stream import CLAIMS as STREAM_CLAIMS
from .claims_tcp import CLAIMS as TCP_CLAIMS

CLAIMS: List[Claim] = [*TCP_CLAIMS, *STREAM_CLAIMS]


def gains() -> Dict[str, float]:
    """The paper's own gains of adaptive FEC over its best fixed row, from its tables."""
    return {case: rows["adaptive FEC"][3] / max(v[3] for k, v in rows.items() if k != "adaptive FEC") - 1
            for case, rows in stream.PAPER.items()}


__all__ = ["CLAIMS", "gains"]
