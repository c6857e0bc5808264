"""Table 1's claims (§III.A): our fit of the two-state chain to the fading channel, row
by row against the paper's P_E and (1 − q)⁻¹, for 32-byte link packets, no FEC and
BCH(255,87,26), f_d = 1, 10, 100 Hz, 10, 20, 30 dB.

Each fit (lossy.channel_fit) is deterministic in its seed, but not exact: it runs
independent batches, each its own fading draw, and gives the standard error of its
ratio estimators over them (batch means). That is the fit's replication noise, so each
row's CI is the value ± t(batches − 1) standard errors. The table's input goes through
the claim's `inputs` so the examples can replace it."""

from __future__ import annotations

import math
from typing import Callable, Dict, List

import pandas as pd
from scipy.special import erfc, stdtrit
from scipy.stats import binom

from ..bands import Band
from ..context import Context
from ..estimate import Estimate
from ..judge import Measurement, Part
from ..model import Claim, Examples, Runs
from .points import ON_FIT, driven
from .table1 import FIT_BATCHES, MODULATIONS, PAPER, fits

# The modulation the reproduction runs (scenarios/chockalingam.toml); the paper names
# none, and DPSK's fits are shown beside BPSK's in the table, not judged.
MODULATION = "bpsk"
T = float(stdtrit(FIT_BATCHES - 1, 0.975))


def _row_label(code: str, fd: float, snr: float) -> str:
    return f"{'no FEC' if code == 'none' else 'BCH(255,87)'}, {fd:g} Hz, {snr:g} dB"


def _against_paper(ours: str, se: str, paper: str) -> Callable[[Context], Measurement]:
    """Ours ÷ the paper's number, per row, with the fit's CI."""
    def measure(ctx: Context) -> Measurement:
        df = ctx["table1"]
        parts = []
        for r in df[df["modulation"] == MODULATION].to_dict("records"):
            value, half = r[ours] / r[paper], T * r[se] / r[paper]
            parts.append(Part(_row_label(r["code"], r["f_d"], r["snr"]),
                              Estimate(value, value - half, value + half, FIT_BATCHES)))
        return Measurement(parts)
    return measure


def _table(pe: Callable[[str, int, int, float], float], burst: Callable[[str, int, int, float, float], float],
           spread: float = 0.03) -> Callable[[], Runs]:
    """Table 1 as fits() gives it, ours from `pe` and `burst` of (code, f_d, SNR, paper's values)."""
    def make() -> Runs:
        rows: List[Dict[str, object]] = []
        for (code, fd, snr), (paper_pe, paper_burst) in PAPER.items():
            for mod in MODULATIONS:
                p = pe(code, fd, snr, paper_pe)
                b = burst(code, fd, snr, paper_pe, paper_burst)
                rows.append({"code": code, "f_d": fd, "snr": snr, "modulation": mod, "paper_pe": paper_pe,
                             "paper_burst": paper_burst, "pe": p, "pe_se": spread * p, "burst": b,
                             "burst_se": spread * b, "closed_form_burst": math.nan})
        return {"table1": pd.DataFrame(rows)}
    return make


def no_fading_pe(code: str, fd: int, snr: int, paper_pe: float) -> float:
    """P_E of the same link packet on a channel at the mean SNR without fading (BPSK):
    the null, what Table 1 would read if the fades were not there."""
    pb = 0.5 * float(erfc(math.sqrt(10 ** (snr / 10))))
    if code == "none":
        return 1 - (1 - pb) ** 256
    return 1 - (1 - float(binom.sf(26, 255, pb))) ** 3  # three BCH(255,87,26) codewords, t = 26


def _paper_pe(code: str, fd: int, snr: int, paper_pe: float) -> float:
    return paper_pe


def _paper_burst(code: str, fd: int, snr: int, paper_pe: float, paper_burst: float) -> float:
    return paper_burst


STATED = "Table 1's number, each row"

CLAIMS: List[Claim] = [
    Claim("table1-pe", "Table 1: P_E of 32-byte link packets, row by row", driven("§III.A, Table 1", ON_FIT),
          "Table 1. Markov parameters for $N_L = 32$ data bytes obtained from fading channel simulation",
          f"our fitted P_E ÷ the paper's, per row ({MODULATION.upper()}, the modulation the figures run)",
          Band.stated(1.0, STATED), _against_paper("pe", "pe_se", "paper_pe"), [],
          Examples(null=_table(no_fading_pe, _paper_burst), faithful=_table(_paper_pe, _paper_burst),
                   exaggerated=_table(lambda c, f, s, p: 2 * p, _paper_burst)),
          "every row of the table: the fit is made at the table's own settings",
          inputs={"table1": fits}),
    Claim("table1-burst", "Table 1: mean burst length (1 − q)⁻¹ of link-packet errors, row by row", driven("§III.A, Table 1", ON_FIT),
          "Note that $(1 - q)^{-1}$ represents the average length of a burst of packet errors",
          f"our fitted (1 − q)⁻¹ ÷ the paper's, per row ({MODULATION.upper()})",
          Band.stated(1.0, STATED), _against_paper("burst", "burst_se", "paper_burst"), [],
          Examples(null=_table(_paper_pe, lambda c, f, s, p, b: 1 / (1 - p)),
                   faithful=_table(_paper_pe, _paper_burst),
                   exaggerated=_table(_paper_pe, lambda c, f, s, p, b: 2 * b)),
          "every row of the table: the fit is made at the table's own settings",
          inputs={"table1": fits}),
]

__all__ = ["CLAIMS", "MODULATION", "no_fading_pe"]
