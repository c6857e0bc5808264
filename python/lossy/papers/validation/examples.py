"""Synthetic runs for the validation's claims (lossy.papers.synthetic): each function
returns the zero-argument maker a claim's Examples takes, giving {sweep or input: rows}.
The nulls are the world without the claimed property (the simulator following another
law, ELN equal to Reno, SACK timing out), the exaggerations the stated magnitude doubled
(or, for an agreement, the other side of it), the faithful cases the band's centre."""

from __future__ import annotations

from typing import Callable, Dict, Mapping, Sequence

import numpy as np
import pandas as pd

from .. import synthetic
from .eln_expected import reno_bps
from .models import MSS, WMAX, mathis_bps, pftk_bps
from .sweeps import ELN_MARKED, GOODPUT

Runs = Dict[str, pd.DataFrame]
Maker = Callable[[], Runs]

RTT = 0.1009  # one-hop.toml's mean RTT (models.py)
_RTT_ROWS = pd.DataFrame({"rtt": [RTT]})


def _law(kind: str, p: float) -> float:
    """Goodput (b/s) at p by a law: a model, or the window's rate (loss ignored)."""
    if kind == "pftk":
        return pftk_bps(p, _RTT_ROWS)
    if kind == "mathis":
        return mathis_bps(p, _RTT_ROWS)
    if kind == "window":
        return 8 * WMAX * MSS / RTT
    raise ValueError(kind)


def one_hop(kind: str, ps: Sequence[float] = (0.005, 0.02, 0.05), reno: float = 1.0, newreno: float = 1.0) -> Maker:
    """one-hop rows whose goodput follows `kind`, times `reno` / `newreno` per variant."""
    factor = {"reno": reno, "newreno": newreno}

    def make() -> Runs:
        return {"one-hop": synthetic.runs(
            {"p": list(ps), "variant": ["reno", "newreno"]},
            lambda p, variant: {GOODPUT: _law(kind, p) * factor[variant], "rtt": RTT})}
    return make


def eln_gain(p: float, ratio: float) -> Maker:
    """last-hop rows at wireless p (and at 0.005, which the claim must ignore) with ELN at
    `ratio` × Reno, Reno at PFTK."""
    def make() -> Runs:
        return {"last-hop": synthetic.runs(
            {"wireless.p": [0.005, p], "scheme": ["reno", "eln"]},
            lambda **pt: reno_bps(pt["wireless.p"]) * (ratio if pt["scheme"] == "eln" and pt["wireless.p"] == p
                                                       else 1.0))}
    return make


def upstream(gain: float, marks: int) -> Maker:
    """upstream rows: ELN's run is Reno's × `gain` (exactly Reno's at 1.0), with `marks`
    ELN marks per run."""
    def make() -> Runs:
        reno = synthetic.runs({"wired.p": [0.01, 0.02]}, lambda **pt: 1.4e6 * (0.02 / pt["wired.p"]) ** 0.5,
                              replications=5).assign(scheme="reno")
        reno[ELN_MARKED] = np.nan
        eln = reno.assign(scheme="eln")
        eln[GOODPUT] = reno[GOODPUT] * gain
        eln[ELN_MARKED] = float(marks)
        return {"upstream": pd.concat([reno, eln], ignore_index=True)}
    return make


def _ns3_level(p: float) -> float:
    return 1.9e6 * (1 - 8 * p)


def ns3(window: str, factor: float) -> Maker:
    """Our SACK at `factor` × ns-3's mean, both with their own spread; ns-3's runs
    numbered from 10,000 as ns3_reference numbers them."""
    ps = [0.0, 0.01, 0.05]

    def make() -> Runs:
        ours = synthetic.runs({"p": ps, "window": [window]}, lambda p, window: _ns3_level(p) * factor)
        theirs = synthetic.runs({"p": ps, "window": [window]}, lambda p, window: _ns3_level(p), seed=2)
        theirs["replication"] = theirs["replication"] + 10_000
        return {"ns3-sack": ours, "ns3": theirs}
    return make


def sack_losses(means: Mapping[str, float], equal: bool = False, doubled: bool = False) -> Maker:
    """sack-losses rows; under bursty losses the four recoveries at `means` (Mbit/s),
    all at NewReno's (`equal`), or with each step's gain doubled (`doubled`); under
    independent losses all equal."""
    nr = means["newreno"]
    if equal:
        bursty = {v: nr for v in means}
    elif doubled:
        bursty = {"newreno": nr, "reno": nr / (1 + 2 * (nr / means["reno"] - 1)),
                  "sack": nr * (1 + 2 * (means["sack"] / nr - 1)), "sack1": nr * (1 + 2 * (means["sack1"] / nr - 1))}
    else:
        bursty = dict(means)

    def make() -> Runs:
        return {"sack-losses": synthetic.runs(
            {"losses": ["bursty", "p = 0.01"], "variant": list(means)},
            lambda losses, variant: 1e6 * (bursty[variant] if losses == "bursty" else 1.7))}
    return make


def sack_independent(ratio: float) -> Maker:
    """sack-losses rows with SACK at `ratio` × NewReno under independent losses (and far
    ahead under bursty ones, which the claim must ignore)."""
    def make() -> Runs:
        level = {"bursty": 1.2e6, "p = 0.01": 1.73e6, "p = 0.03": 1.1e6}
        return {"sack-losses": synthetic.runs(
            {"losses": list(level), "variant": ["newreno", "sack"]},
            lambda losses, variant: level[losses] * (1.0 if variant == "newreno" else
                                                     1.15 if losses == "bursty" else ratio))}
    return make


def overshoot(sack_timeouts: int) -> Maker:
    """The overshoot runs: NewReno times out twice; SACK and Sack1 `sack_timeouts` times."""
    def make() -> Runs:
        rows = [{"variant": v, "replication": 0, "seed": 1, "status": "ok", "run_id": v, GOODPUT: g,
                 "timeouts": t, "queue_drops": d}
                for v, g, t, d in [("newreno", 1.76e6, 2, 163), ("sack", 1.92e6, sack_timeouts, 110),
                                   ("sack1", 1.91e6, sack_timeouts, 110)]]
        return {"overshoot": pd.DataFrame(rows)}
    return make


__all__ = ["eln_gain", "ns3", "one_hop", "overshoot", "sack_independent", "sack_losses", "upstream"]
