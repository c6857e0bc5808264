"""The TCP sweeps on scenarios/miyoshi.toml: Fig. 2 (Reno, ELN, Snoop+ELN, FEC against
BER), Fig. 3 (Snoop+ELN with each code, and adaptive FEC, against BER) and, beyond the
paper, adaptive FEC driven by ELN against the same controller at the link on Rayleigh
fading. The paper states neither its run length nor its number of runs: 100 s (about
34,000 segments at full rate) and 5 replications here, 20 s and 2 with --quick. Fig. 3
runs to BER 5·10⁻² because with whole codewords the stronger codes overtake BCH(127,92)
only past 10⁻² (the figure's axis is lost with the figure). `fig3-no-step-down` is a
probe: Fig. 3's adaptive FEC with its lower thresholds zeroed, at Fig. 3's BERs and
seeds (the same master seed, so its runs pair with Fig. 3's by replication)."""

from __future__ import annotations

from typing import Any, Dict, List

from ..model import SweepPlan
from .setup import ADAPTIVE, DOWNLINK, FIG2, FIG3, LOSS, SCENARIO, SNOOP_ELN, adaptive, fixed, link_controlled
from .analytic import BCH64, BCH92, NONE
from .stream import doppler

FIG2_BER = [1e-6, 3e-6, 1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2]
FIG2_BER_QUICK = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2]
FIG3_BER = [1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 2e-2, 3e-2, 5e-2]
FIG3_BER_QUICK = [1e-5, 1e-4, 1e-3, 1e-2, 3e-2, 5e-2]
FADING_SNR = [10, 15, 20]
FADING_SNR_QUICK = [15]
SPEEDS = [1 / 3, 1, 3, 10, 30]  # m/s: f_d 1 to 90 Hz at 900 MHz (Eq. 1)
SPEEDS_QUICK = [1.0, 10.0]
METRICS = {"goodput": "flows.0.goodput_bps", "p_err": f"links.{DOWNLINK}.loss_rate",
           "code_changes": f"links.{DOWNLINK}.link_code_changes"}


def _plan(key: str, title: str, grid: Dict[str, Any], quick_grid: Dict[str, Any], **spec: Any) -> SweepPlan:
    return SweepPlan(key, title, {
        "name": f"miyoshi-{key}", "scenario": SCENARIO, "replications": 5, "seed": 1, "duration": "100 s",
        "metrics": METRICS, "grid": grid, **spec,
        "quick": {"replications": 2, "duration": "20 s", "grid": quick_grid},
    })


def _ber(values: List[float]) -> Dict[str, Any]:
    return {"ber": {"path": f"{LOSS}.ber", "values": values}}


def _fading(speeds: List[float], snrs: List[int]) -> Dict[str, Any]:
    return {"snr": {"path": f"{LOSS}.mean_snr_db", "values": snrs},
            "doppler": {"path": f"{LOSS}.doppler_hz", "values": [round(doppler(v), 3) for v in speeds]}}


# Beyond the paper: who feeds the controller, beside fixed codes, all with Snoop+ELN at BS.
CONTROLLERS = {"adaptive, ELN at the sender": adaptive(), "adaptive, link's own outcomes": link_controlled(),
               **{f"fixed {c.label}": {"agents": SNOOP_ELN, **fixed(c)} for c in (NONE, BCH92, BCH64)}}


def sweeps() -> List[SweepPlan]:
    fig2 = _plan("fig2", "Fig. 2: Reno, ELN, Snoop+ELN and FEC BCH(127,92) against BER",
                 _ber(FIG2_BER), _ber(FIG2_BER_QUICK), variants={"scheme": FIG2})
    fig3 = _plan("fig3", "Fig. 3: Snoop+ELN with no FEC, BCH(127,92), (127,64), (127,36) and adaptive FEC",
                 _ber(FIG3_BER), _ber(FIG3_BER_QUICK), variants={"scheme": FIG3})
    fading = _plan("eln-vs-link", "Beyond: adaptive FEC fed by ELN vs by the link's own outcomes, Rayleigh fading",
                   _fading(SPEEDS, FADING_SNR), _fading(SPEEDS_QUICK, FADING_SNR_QUICK),
                   set={LOSS: {"model": "rayleigh", "mean_snr_db": 15, "doppler_hz": 3, "modulation": "bpsk"}},
                   variants={"scheme": CONTROLLERS})
    no_step_down = _plan("fig3-no-step-down", "Probe: Fig. 3's adaptive FEC that never steps down (lower thresholds 0)",
                         _ber(FIG3_BER), _ber(FIG3_BER_QUICK),
                         variants={"scheme": {ADAPTIVE: adaptive(step_down=False)}})
    return [fig2, fig3, fading, no_step_down]
