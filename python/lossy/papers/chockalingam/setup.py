"""The paper's system as scenario fields (Chockalingam, Zorzi, Tralli §III–IV): the
link layers it compares, its FEC codes, and the two ways of driving the channel — the
two-state Markov chain fitted to the fading channel, as the paper did, or the fading
channel itself, bit by bit."""

from __future__ import annotations

import math
from typing import Any, Dict, Optional, Tuple

from ...shipped import scenarios_dir

SCENARIO = str(scenarios_dir() / "chockalingam.toml")
RATE_BPS = 1_500_000  # §III: a 1.5 Mbps wireless link
LOSS = "links.0.loss"
LINK_LAYER = "links.0.link_layer"

# §IV: "rate 1/2" BCH(255,131,18) and "rate 1/3" BCH(255,87,26).
CODES: Dict[str, Optional[Tuple[int, int]]] = {"none": None, "rate 1/2": (255, 131), "rate 1/3": (255, 87)}



def markov(fit_packets: int) -> Dict[str, Any]:
    """Drive the link by the chain fitted (from `fit_packets` link packets) to its
    fading channel for its own frames, stepping once per frame slot (as the paper)."""
    return {f"{LOSS}.markov_fit": True, f"{LOSS}.fit_packets": fit_packets}


def drives(fit_packets: int) -> Dict[str, Dict[str, Any]]:
    """The two ways to drive a figure: the fitted chain, or the fading channel bit by bit."""
    return {"markov": markov(fit_packets), "fading": {f"{LOSS}.markov_fit": False}}


def coding(code: str) -> Dict[str, Any]:
    nk = CODES[code]
    return {"code": "none"} if nk is None else {"code": "bch", "n": nk[0], "k": nk[1]}


def arq(attempts: int, payload: int = 32, code: str = "none") -> Dict[str, Any]:
    """§II: segmentation into link packets of `payload` data bytes, NAK-based selective
    repeat with `attempts` (n_l) transmissions, the link packets coded by `code`."""
    return {"kind": "arq", "payload": f"{payload} B", "attempts": attempts, "coding": coding(code)}


NO_LINK_LAYER: Dict[str, Any] = {"kind": "plain"}


def chain(p_e: float, burst: float) -> Dict[str, Any]:
    """Eq. (1)'s chain with mean error rate P_E and mean burst (1 − q)⁻¹, one step per
    slot of an uncoded 32-byte link packet (Figs. 3–4), idle slots included:
    1 − q = 1/burst, and 1 − p from P_E = (1 − p)/((1 − p) + (1 − q)). The slot is the
    link packet's air time at 1.5 Mbps, whole nanoseconds up, as the core serializes it."""
    to_good = 1 / burst
    to_bad = p_e * to_good / (1 - p_e)
    slot_ns = math.ceil(8 * 32 * 1e9 / RATE_BPS)
    return {"model": "gilbert", "p_ge": to_bad, "p_eg": to_good, "slot": f"{slot_ns} ns"}
