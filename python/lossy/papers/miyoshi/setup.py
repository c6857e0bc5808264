"""The paper's system as scenario fields (Miyoshi, Sugano, Murata §2–4) on
scenarios/miyoshi.toml: the schemes of Figs. 2–3 and adaptive FEC, with its thresholds
derived from the Appendix-style model of the frames the core sends (whole BCH codewords;
`analytic.frame_thresholds`)."""

from __future__ import annotations

from typing import Any, Dict

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


def thresholds(window: int = WINDOW, step_down: bool = True) -> Dict[str, object]:
    """The controller's table: thresholds from the crossings of the fixed-code curves of
    the model of the core's frames (analytic; the report sets the simulated crossings of
    Fig. 3 beside them). `step_down=False` zeroes the lower thresholds, so the code
    never steps down (a probe's change)."""
    ctl = analytic.control(analytic.frame_thresholds(FRAME_BITS, LADDER), window)
    if not step_down:
        ctl["down"] = [0.0 for _ in analytic.frame_thresholds(FRAME_BITS, LADDER)]
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
