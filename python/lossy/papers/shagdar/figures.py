"""Figs. 5, 6, 8 and 9 of Shagdar et al. (throughput of the wireless connection against
the SNR, a line per scheme) and the comparison beyond the paper."""

from __future__ import annotations

from typing import Any, Callable, List

import pandas as pd

from ...summary import ok_rows, summarize
from ..figures import Figure, LinePlot, Panels, table_of
from ..figures.palette import Palette

T1 = ("scenarios/shagdar-t1.toml: MH and BS on an 802.11b WLAN at 2 Mbit/s (DCF, RTS/CTS, retry limits 7/4 as "
      "ns-2), DPSK bit errors at the SNR (Eq. 1), BS – FH wired at 10 Mbit/s; Reno or SACK, 1 KB segments, 20 KB "
      "window; 80 s, mean of 100 runs with 95 % CI bands.")
T2 = ("scenarios/shagdar-t2.toml: W1 → R1 → R2 → M1 (802.11b at 2 Mbit/s, DPSK at the SNR) with cross traffic W2 → "
      "W3 over the 1.5 Mbit/s RED bottleneck R1 → R2 (ECN marking for ECN-capable flows); throughput of W1 → M1; "
      "80 s, mean of 100 runs with 95 % CI bands.")


# Each scheme one look in every figure, in the order of the paper's legends; the
# comparison beyond the paper names EWLN-Reno after where it acts.
PALETTE = Palette([f"{e}{b}" for b in ("Reno", "SACK") for e in ("", "ECN-", "EWLN-", "EWLN-ECN-")] +
                  ["ELN-Reno (agent at BS)", "Snoop (at BS)"], same={"EWLN-Reno (the MAC)": "EWLN-Reno"})


def _only(column: str, value: Any) -> Callable[[pd.DataFrame], pd.DataFrame]:
    return lambda runs: runs[runs[column] == value]


def _vs_snr(key: str, sweep: str, title: str, caption: str = "", where: Any = None) -> LinePlot:
    return LinePlot(key, sweep, title, x="snr", y="goodput", hue="scheme", xlabel="SNR (dB)", ylabel="throughput",
                    caption=caption, where=where, palette=PALETTE)


def _table(runs: pd.DataFrame) -> pd.DataFrame:
    keys = ["direction", "snr", "scheme"] if "direction" in runs.columns else ["snr", "scheme"]
    s = summarize(ok_rows(runs), keys, ["goodput"])
    wide = s.pivot_table(index=keys[:-1], columns="scheme", values="mean").reset_index()
    for c in wide.columns[len(keys) - 1:]:
        wide[c] = (wide[c] / 1e3).map("{:.1f}".format)
    return wide


FIGURES: List[Figure] = [
    Panels("fig5", "Fig. 5: Reno, ECN-Reno, EWLN-Reno and EWLN-ECN-Reno against SNR, topology 1",
           [_vs_snr(f"fig5-{i}", "fig5", d, where=_only("direction", d)) for i, d in enumerate(("MH → FH", "FH → MH"))],
           sharey=True, caption=T1 + " (a) the sender on the wireless side, as the text describes (MH → FH); (b) the "
           "other direction (the caption's \"wired-to-wireless\")."),
    _vs_snr("fig6", "fig6", "Fig. 6: SACK, ECN-SACK, EWLN-SACK and EWLN-ECN-SACK against SNR, topology 1", T1),
    _vs_snr("fig8", "fig8", "Fig. 8: the Reno four against SNR, topology 2 (congested)", T2),
    _vs_snr("fig9", "fig9", "Fig. 9: the SACK four against SNR, topology 2 (congested)", T2),
    table_of("throughputs", "fig5", "Fig. 5's means (kb/s)", _table),
    Panels("agents", "Beyond the paper: EWLN from the MAC against ELN and Snoop at the base station, topology 1",
           [_vs_snr(f"agents-{i}", "agents", d, where=_only("direction", d)) for i, d in enumerate(("MH → FH", "FH → MH"))],
           sharey=True, caption=T1 + " Reno throughout; ELN: the base-station agent marks ACKs of segments lost on "
           "the wireless hop (for a mobile sender, the uplink half); Snoop caches and resends locally (data toward "
           "the mobile only)."),
    table_of("agents-table", "agents", "Beyond the paper: means (kb/s)", _table),
]
