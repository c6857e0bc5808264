"""The sweeps behind Figs. 5, 6, 8 and 9 and the comparison beyond the paper: 80 s and
100 runs per point as §IV, SNR 8.5 to 11.5 dB in 0.5 dB steps; `--quick` 20 s, 10 runs,
four SNRs."""

from __future__ import annotations

from typing import Any, Dict, List

from ..model import SweepPlan
from .setup import DIRECTIONS, LOSS_SCHEMES, SNR, T2_FLOWS, TOPOLOGY1, TOPOLOGY2, schemes

SNRS = [8.5, 9.0, 9.5, 10.0, 10.5, 11.0, 11.5]
SNRS_QUICK = [8.5, 9.5, 10.5, 11.5]
METRICS = {"goodput": "flows.0.goodput_bps"}


def _plan(key: str, title: str, scenario: str, variants: Dict[str, Any]) -> SweepPlan:
    return SweepPlan(key, title, {
        "name": f"shagdar-{key}", "scenario": scenario, "replications": 100, "seed": 1, "duration": "80 s",
        "metrics": METRICS, "grid": {"snr": {"path": SNR, "values": SNRS}}, "variants": variants,
        "quick": {"replications": 10, "duration": "20 s", "grid": {"snr": {"path": SNR, "values": SNRS_QUICK}}},
    })


def sweeps() -> List[SweepPlan]:
    return [
        _plan("fig5", "Fig. 5: Reno, ECN-Reno, EWLN-Reno, EWLN-ECN-Reno in topology 1, both directions", TOPOLOGY1,
              {"scheme": schemes("reno"), "direction": DIRECTIONS}),
        _plan("fig6", "Fig. 6: the SACK four in topology 1, MH → FH", TOPOLOGY1, {"scheme": schemes("sack")}),
        _plan("fig8", "Fig. 8: the Reno four in topology 2 (W1 → M1 with cross traffic)", TOPOLOGY2,
              {"scheme": schemes("reno", T2_FLOWS)}),
        _plan("fig9", "Fig. 9: the SACK four in topology 2", TOPOLOGY2, {"scheme": schemes("sack", T2_FLOWS)}),
        _plan("agents", "Beyond: EWLN against ELN and Snoop at the base station, topology 1, both directions",
              TOPOLOGY1, {"scheme": LOSS_SCHEMES, "direction": DIRECTIONS}),
    ]
