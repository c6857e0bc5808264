"""Figs. 7–8's claims (§IV, §V): LL ARQ (n_l = 16, N_L = 32 B) with and without BCH
FEC at f_d = 1 and 100 Hz, Tahoe against NewReno over rate-1/2 FEC; every point driven
by the chain fitted to the fading channel for its coded link packet, as the paper.

Throughput is normalized to the link rate, so a code's parity counts against it (two
BCH(255,131) codewords carry a 32-byte link packet in 510 bits, three BCH(255,87) in
765: at most 0.50 and 0.33 of the link rate is data). The paper does not say what its
Fig. 7 is normalized to; the probes swap in the other reading, each code's data rate."""

from __future__ import annotations

import math
from typing import Callable, List, Tuple

import pandas as pd

from ..bands import WORDS, Band
from ..context import Context
from ..estimate import Statistic, difference_of
from ..judge import Measurement
from ..measures import joined
from ..model import Claim, Examples, Probe, Runs
from .examples import SNRS, both, fig
from .points import CEILING, FLOOR, ON_CHAIN, Point, db, driven, gap, hz, level, off_the_ends, per_point, rows
from .setup import CODES

ARQ, FEC = "none", ("rate 1/2", "rate 1/3")
PAYLOAD_BITS = 8 * 32
DIRECTION = "no magnitude: direction only"


def data_fraction(code: str) -> float:
    """The share of a coded 32-byte link packet's bits that are data."""
    nk = CODES[code]
    return 1.0 if nk is None else PAYLOAD_BITS / (math.ceil(PAYLOAD_BITS / nk[1]) * nk[0])


def _fig7_rows(ctx: Context, per_data_rate: bool) -> pd.DataFrame:
    df = rows(ctx, "fig7")
    return df.assign(norm=df["norm"] / df["code"].map(data_fraction)) if per_data_rate else df


def _label(p: Point) -> str:
    return f"{hz(p[0])}, {db(p[1])}"


def _gap(column: str, a: str, b: str) -> Callable[[Point], Statistic]:
    return lambda p: gap({column: a}, {column: b})


def _arq_minus_fec(code: str) -> Callable[[Point], Statistic]:
    """(ARQ − no LL) − (FEC/ARQ − ARQ)."""
    arq, none = {"code": ARQ}, {"code": "no LL"}
    return lambda p: difference_of(gap(arq, none), gap({"code": code}, arq))


def _code_gaps(pairs: List[Tuple[str, str]], keep: bool, per_data_rate: bool = False) -> Callable[[Context], Measurement]:
    """For each (treatment, baseline) code pair: treatment − baseline at each f_d and SNR."""
    def measure(ctx: Context) -> Measurement:
        df = _fig7_rows(ctx, per_data_rate)
        return joined([f"{a} − {'ARQ alone' if b == ARQ else b}" for a, b in pairs],
                      [per_point(ctx, "fig7", ["fd", "snr"], _gap("code", a, b), _label,
                                 keep=off_the_ends({"code": a}, {"code": b}) if keep else None, frame=df)
                       for a, b in pairs])
    return measure


def _tahoe_newreno(ctx: Context) -> Measurement:
    return per_point(ctx, "fig8", ["fd", "snr"], lambda p: gap({"tcp": "tahoe"}, {"tcp": "newreno"}), _label)


def _arq_share(ctx: Context) -> Measurement:
    """ARQ's gain over TCP without a link layer (Fig. 2's 1024-byte runs at the same
    f_d and SNR) minus what each code adds to ARQ."""
    plain = rows(ctx, "fig2", nt="1024 B").assign(code="no LL")
    df = pd.concat([plain, rows(ctx, "fig7")], ignore_index=True)
    none = {"code": "no LL"}

    def room(p: Point, at: pd.DataFrame) -> bool:  # a gain to share: plain TCP below the ceiling
        return level(**none)(at) < CEILING and max(level(code=c)(at) for c in (ARQ, *FEC)) > FLOOR
    return joined(list(FEC), [per_point(ctx, "fig7", ["fd", "snr"],
                                        _arq_minus_fec(c),
                                        _label, keep=room, frame=df) for c in FEC])


def _fig7(norm: Callable[[str, float, float], float]) -> Callable[[], Runs]:
    return fig("fig7", {"code": [ARQ, *FEC], "fd": [1, 100], "snr": SNRS}, norm)


def _plain(norm: float) -> Callable[[], Runs]:
    return fig("fig2", {"nt": ["1024 B"], "fd": [1, 100], "snr": SNRS}, lambda nt, fd, snr: norm)


def _codes(arq: float, half: float, third: float) -> Callable[[str, float, float], float]:
    return lambda code, fd, snr: {ARQ: arq, "rate 1/2": half, "rate 1/3": third}[code]


def _fig8(norm: Callable[[str, float, float], float]) -> Callable[[], Runs]:
    return fig("fig8", {"tcp": ["tahoe", "newreno"], "fd": [1, 100], "snr": SNRS}, norm)


def _probe(pairs: List[Tuple[str, str]], keep: bool) -> Probe:
    return Probe("throughput normalized to the link rate: each code's parity caps it (rate 1/2 at 0.50, rate 1/3 "
                 "at 0.33), which the paper may not have counted",
                 "the same quantity with throughput normalized to each code's data rate (0.502 and 0.335 of the "
                 "link rate)", ["fig7"], _code_gaps(pairs, keep, per_data_rate=True))


FEC_PAIRS = [(c, ARQ) for c in FEC]
RATE_PAIR = [("rate 1/3", "rate 1/2")]

CLAIMS: List[Claim] = [
    Claim("fec-helps", "FEC improves throughput over ARQ alone (Fig. 7)", driven("§IV, Fig. 7", ON_CHAIN),
          "FEC is seen to improve the throughput as expected",
          "normalized throughput with rate-1/2 and rate-1/3 BCH minus ARQ alone (n_l = 16), at each f_d and SNR",
          Band.above(0.0, f'"improve": {DIRECTION}', unit=""), _code_gaps(FEC_PAIRS, keep=True), ["fig7"],
          Examples(null=_fig7(_codes(0.4, 0.4, 0.4)), faithful=_fig7(_codes(0.4, 0.6, 0.65))),
          "every f_d and SNR where one of the two compared curves is above 0.05 and one below 0.9 of the link "
          "rate: in the full run all 24 (a coded curve never passes 0.50)",
          probe=_probe(FEC_PAIRS, keep=True)),
    Claim("rate-third-barely", "Rate 1/3 FEC improves on rate 1/2, but not by much (Fig. 7)",
          driven("§IV, Fig. 7", ON_CHAIN),
          "However, the performance improvement with rate 1/3 FEC relative to rate 1/2 FEC is not very much",
          "normalized throughput with rate-1/3 minus rate-1/2 BCH (n_l = 16), at each f_d and SNR",
          Band.between(0.0, WORDS["very close"],
                       '"improvement [...] not very much": at least 0 (an improvement), at most the one table\'s '
                       f'"very close" ({WORDS["very close"]:.2f}, a visible but small gap; WORDS has no "not very '
                       'much")', unit=""),
          _code_gaps(RATE_PAIR, keep=False), ["fig7"],
          Examples(null=_fig7(_codes(0.3, 0.4, 0.7)), faithful=_fig7(_codes(0.3, 0.6, 0.65)),
                   exaggerated=_fig7(_codes(0.3, 0.6, 0.8))),
          "every f_d and SNR of the sweep, 10–35 dB: the paper's figure axes are lost (footnote 1 says only that "
          "x is the average SNR in dB) and the sentence names no SNR, so the statement holds over the whole "
          "axis; Table 1 spans 10–30 dB",
          probe=_probe(RATE_PAIR, keep=False)),
    Claim("most-gain-from-arq", "Most of the gain over plain TCP comes from ARQ, not from FEC (Fig. 7, §V)",
          driven("§IV on Fig. 7; §V", ON_CHAIN),
          "This is partly because most of the throughput improvement comes from LL ARQ than FEC. This observation "
          "was made by comparing the achieved throughputs with only LL ARQ and with FEC/ARQ [...] between LL ARQ "
          "and FEC, it was the LL ARQ that gave the most improvement in throughput",
          "normalized throughput: ARQ alone (n_l = 16) minus TCP without a link layer (Fig. 2's 1024-byte runs), "
          "minus what each code adds to ARQ alone (FEC/ARQ − ARQ), at each f_d and SNR; above 0 when ARQ gives "
          "more than half of FEC/ARQ's gain",
          Band.above(0.0, f'"most of the throughput improvement": ARQ\'s part above FEC\'s; {DIRECTION}', unit=""),
          _arq_share, ["fig2", "fig7"],
          Examples(null=both(_plain(0.1), _fig7(_codes(0.4, 0.7, 0.7))),
                   faithful=both(_plain(0.1), _fig7(_codes(0.7, 0.8, 0.8)))),
          "every f_d and SNR where TCP without a link layer is below 0.9 of the link rate (a gain to share) and "
          "a link-layer curve above 0.05; in the full run 10–25 dB at 1 Hz, 10–35 dB at 100 Hz"),
    Claim("tahoe-newreno", "Over FEC/ARQ, Tahoe is as good as NewReno (Fig. 8)", driven("§IV, Fig. 8", ON_CHAIN),
          "These plots indicate that with FEC/ARQ at the link layer, the performance of Tahoe is as good as that "
          "of NewReno",
          "normalized throughput of Tahoe minus NewReno over rate-1/2 BCH with ARQ (n_l = 16), at each f_d and SNR",
          Band.word("as good as", centre=0.0, unit="", absolute=True), _tahoe_newreno, ["fig8"],
          Examples(null=_fig8(lambda tcp, fd, snr: 0.3 if tcp == "tahoe" else 0.45),
                   faithful=_fig8(lambda tcp, fd, snr: 0.45)),
          "every f_d and SNR of the sweep: a likeness holds or fails everywhere"),
]

__all__ = ["CLAIMS", "data_fraction"]
