"""The paper's system as scenario fields (Miyoshi, Sugano, Murata §2–4) on
scenarios/miyoshi.toml: the schemes of Figs. 2–3 and adaptive FEC, with its thresholds
read at the crossings of our own simulated Fig. 3 curves (`CROSSINGS`), as the paper
reads A–D off its Fig. 3."""

from __future__ import annotations

from typing import Any, Dict, List

from ...shipped import scenarios_dir
from . import analytic
from .analytic import LADDER, Code

SCENARIO = str(scenarios_dir() / "miyoshi.toml")
RATE_BPS = 384_000  # Table 1's downlink
RADIO = "links.3"  # BS -> MH, the radio link
LOSS = f"{RADIO}.loss"
LINK_LAYER = f"{RADIO}.link_layer"
DOWNLINK = 6  # BS->MH among the summary's link directions
FRAME_BITS = 8 * (100 + 40)  # a 100-byte segment and its 40-byte header
WINDOW = 10  # §4: the observation window, after Eckhardt and Steenkiste

AGENT = {"node": "BS", "wireless_neighbor": "MH"}
ELN = [{"kind": "eln", **AGENT}]
SNOOP_ELN = [{"kind": "snoop", "eln": True, **AGENT}]


def fixed(code: Code) -> Dict[str, Any]:
    """The radio link coded with one code."""
    return {LINK_LAYER: {"kind": "plain", "coding": code.scenario()}}


# §4: "In Fig. 3, the symbol of the A, B, C, and D is the threshold value of p_err": the
# thresholds are read off the simulated fixed-code curves. Ours: the BERs where each code
# of Snoop+ELN overtakes the next weaker one in our own Fig. 3 runs (scenarios/miyoshi.toml,
# 100 s, 5 replications, fixed codes on a grid around each crossing: no FEC against
# BCH(127,92) at 3·10⁻⁵ to 1.5·10⁻⁴, (127,92) against (127,64) at 5·10⁻³ to 2·10⁻²,
# (127,64) against (127,36) at 2·10⁻² to 6·10⁻²), the mean curves joined linearly in log
# BER (`analytic.simulated_crossing`), with delete-one jackknife 95 % CIs over the
# replications (t with 4 degrees of freedom, on log BER). The air-time model of the
# core's frames (`analytic.frame_thresholds`) puts the first at 3.5·10⁻⁴, 5× away.
# (crossing BER, 95 % CI low, high) per step.
CROSSINGS = ((7.66e-5, 7.36e-5, 7.96e-5), (1.20e-2, 1.19e-2, 1.22e-2), (3.49e-2, 3.45e-2, 3.52e-2))


def up_floor(window: int = WINDOW) -> float:
    """The least upper threshold: §4 builds on Eckhardt and Steenkiste's rule, "the FEC
    code is changed when two or more segments among ten segments encounter the
    transmission error", so one error in a window never steps up (1.5/N: between one and
    two losses of N). Without it the simulated crossings put up[1] and up[2] at 0.057 and
    0.088, below one loss in ten, and a single sporadic report climbed the code to
    BCH(127,36) at BER 10⁻⁴ (80 kb/s against 177 kb/s, seed 1, 100 s)."""
    return 1.5 / window


def threshold_steps() -> List[analytic.Step]:
    """The steps at the simulated crossings: up = the weaker code's frame loss there
    (above it the channel is past the crossing), down = the stronger code's (whole
    codewords, `analytic.codeword_loss`: the p_err the controller measures with each)."""
    return analytic.read_at([c[0] for c in CROSSINGS], LADDER,
                            lambda b, c: analytic.codeword_loss(b, c, FRAME_BITS))


def thresholds(window: int = WINDOW, step_down: bool = True) -> Dict[str, object]:
    """The controller's table, read at the simulated crossings of Fig. 3 (`CROSSINGS`),
    each upper threshold at least `up_floor` (two or more of ten). `step_down=False` zeroes the lower thresholds, so the code never steps down (a
    probe's change)."""
    steps = threshold_steps()
    # Hysteresis on the step down (fec_control.rs): at a steady BER a step down after
    # every clean window made 850 code changes per 100 s at 10⁻⁴.
    ctl = {**analytic.control(steps, window), "step_down": "backoff"}
    ctl["up"] = [max(u, up_floor(window)) for u in ctl["up"]]  # type: ignore[attr-defined]
    if not step_down:
        ctl["down"] = [0.0 for _ in steps]
    return ctl


def adaptive(window: int = WINDOW, step_down: bool = True) -> Dict[str, Any]:
    """Miyoshi's scheme: Snoop+ELN at BS, the sender's controller fed by ELN, the code
    requested in every data segment and used by the radio link."""
    return {"agents": SNOOP_ELN,
            LINK_LAYER: {"kind": "adaptive_fec", "codes": [c.scenario() for c in LADDER]},
            "flows.0.tcp.adaptive_fec": thresholds(window, step_down)}


def link_controlled(window: int = WINDOW) -> Dict[str, Any]:
    """Beyond the paper: the same controller at the base station's link layer, fed by its
    own frames' outcomes instead of ELN (Snoop+ELN still at BS for local recovery)."""
    return {"agents": SNOOP_ELN,
            LINK_LAYER: {"kind": "adaptive_fec", "codes": [c.scenario() for c in LADDER],
                         "control": thresholds(window)}}


# Fig. 2: the three schemes of §3 and fixed FEC with BCH(127,92).
FIG2 = {"Reno": {"agents": []}, "ELN": {"agents": ELN}, "Snoop+ELN": {"agents": SNOOP_ELN},
        "FEC BCH(127,92)": {"agents": [], **fixed(analytic.BCH92)}}
# Fig. 3: Snoop+ELN with each code (and without), and adaptive FEC.
ADAPTIVE = "Snoop+ELN, adaptive FEC"
FIXED = [f"Snoop+ELN, {c.label}" for c in LADDER]
FIG3 = {**{label: {"agents": SNOOP_ELN, **fixed(c)} for label, c in zip(FIXED, LADDER)}, ADAPTIVE: adaptive()}
