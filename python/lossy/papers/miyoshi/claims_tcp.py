"""Miyoshi's claims on the TCP runs (§3–4, Figs. 2–3). The figures are lost with the
paper's images, so what survives is words: a crossing ("most effective ... where BER is
greater than 0.0001", "smaller than other schemes" below), two ranks ("the best
performance", "the optimal FEC parameter ... dependent on BER") and "more effective".
None gives a magnitude, so the crossing and the ranks are held by the sign of paired
differences at each grid BER (direction only; the report prints the size), and "more
effective" by likeness to the best fixed code (see its band)."""

from __future__ import annotations

import math
from typing import Callable, Dict, List

import pandas as pd

from .. import synthetic
from ..bands import Band
from ..context import Context
from ..estimate import Statistic, difference_of, jackknife, mean_of, ratio_of, select, values_of
from ..judge import Measurement, Part
from ..measures import per_point
from ..model import Claim, Examples, Probe, Runs
from .analytic import packet_error
from .figures import _scheme_means
from .setup import ADAPTIVE, FIG2, FIXED, FRAME_BITS
from .statistics import best_of, scaled, worst_of

CROSSING = 1e-4  # §3: "greater than 0.0001"
FEC = "FEC BCH(127,92)"
SNOOP = "Snoop+ELN"
OTHERS = [s for s in FIG2 if s != FEC]
KBPS = 1e-3
UNIT = " kb/s"


def frame_loss(ber: float) -> float:
    """An uncoded 140-byte frame's loss at `ber` (Eq. A·1 with l = 1120 bits)."""
    return packet_error(ber, FRAME_BITS)


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9)


# --- Fig. 2: FEC best above 10⁻⁴, worst below ------------------------------------------

def _side_margin(ber: float) -> Statistic:
    """Above 10⁻⁴ FEC − the best other scheme; below, the worst other − FEC (kb/s):
    positive on both sides when the curves cross at 10⁻⁴ as §3 says."""
    fec = mean_of("goodput", scheme=FEC)
    if ber > CROSSING:
        return scaled(difference_of(fec, best_of("goodput", "scheme", OTHERS)), KBPS)
    return scaled(difference_of(worst_of("goodput", "scheme", OTHERS), fec), KBPS)


def _side_label(ber: float) -> str:
    return f"BER {ber:g}, " + ("FEC − best other" if ber > CROSSING else "worst other − FEC")


def crossing_margin(ctx: Context) -> Measurement:
    return per_point(ctx, "fig2", "ber", _side_margin, keep=lambda b: not _close(b, CROSSING), label=_side_label)


EXAMPLE_FIG2_BER = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2]


def _fig2(cross: float) -> Callable[[], Runs]:
    """Fig. 2 with FEC flat at 186 kb/s and the uncoded schemes above it below `cross`,
    near zero above."""
    def level(ber: float, scheme: str) -> float:
        if scheme == FEC:
            return 186e3
        return (270e3 if scheme == SNOOP else 262e3) if ber < cross else 2e3
    return lambda: {"fig2": synthetic.runs({"ber": EXAMPLE_FIG2_BER, "scheme": list(FIG2)}, level)}


# --- Fig. 2: Snoop+ELN best at low BER --------------------------------------------------

def _snoop_lead(ber: float) -> Statistic:
    return scaled(difference_of(mean_of("goodput", scheme=SNOOP),
                                best_of("goodput", "scheme", [s for s in FIG2 if s != SNOOP])), KBPS)


def _low_with_losses(ber: float) -> bool:
    """Below 10⁻⁴, where an uncoded frame is lost at least 1 % of the time: a rank of
    loss recoveries shows only where there are losses to recover."""
    return ber < CROSSING and frame_loss(ber) >= 0.01


def snoop_lead(ctx: Context) -> Measurement:
    return per_point(ctx, "fig2", "ber", _snoop_lead, keep=_low_with_losses,
                     label=lambda b: f"BER {b:g}, Snoop+ELN − best other")


def _fig2_low(snoop: float) -> Callable[[], Runs]:
    def level(ber: float, scheme: str) -> float:
        if scheme == FEC:
            return 186e3
        return snoop if scheme == SNOOP else {"ELN": 255e3, "Reno": 250e3}[scheme]
    return lambda: {"fig2": synthetic.runs({"ber": [1e-6, 1e-5, 3e-5], "scheme": list(FIG2)}, level)}


# --- Fig. 3: an optimal code for each BER ----------------------------------------------

def _lead(code: str, bers: List[float]) -> Statistic:
    """The largest lead of `code` over the best other fixed code at any BER (kb/s)."""
    others = [c for c in FIXED if c != code]

    def stat(df: pd.DataFrame) -> float:
        leads = [difference_of(mean_of("goodput", scheme=code), best_of("goodput", "scheme", others))(
            select(df, {"ber": b})) for b in bers]
        return math.nan if any(math.isnan(x) for x in leads) else max(leads) * KBPS
    return stat


def code_leads(ctx: Context) -> Measurement:
    rows = ctx["fig3"]
    bers = [float(b) for b in values_of(rows, "ber")]
    means = _scheme_means(rows)
    parts = []
    for code in FIXED:
        others = [c for c in FIXED if c != code]
        where = max(bers, key=lambda b: means[code][b] - max(means[o][b] for o in others))
        parts.append(Part(f"{code.split(', ')[1]} (its largest lead at BER {where:g})", jackknife(rows, _lead(code, bers))))
    return Measurement(parts)


EXAMPLE_FIG3_BER = [1e-5, 1e-4, 1e-3, 1e-2, 3e-2, 5e-2]
# Fig. 3's fixed codes as our runs have them: each code best over its own range.
FIG3_CURVES: Dict[str, Callable[[float], float]] = {
    FIXED[0]: lambda b: 265e3 if b < 5e-5 else (150e3 if b < 5e-4 else 1e3),
    FIXED[1]: lambda b: 186e3 if b < 2e-2 else 1e3,
    FIXED[2]: lambda b: 134e3 if b < 4e-2 else 1e3,
    FIXED[3]: lambda b: 75e3,
}


def _fig3(adaptive: Callable[[float], float], fixed: Dict[str, Callable[[float], float]] = FIG3_CURVES
          ) -> Callable[[], Runs]:
    def level(ber: float, scheme: str) -> float:
        return adaptive(ber) if scheme == ADAPTIVE else fixed[scheme](ber)
    return lambda: {"fig3": synthetic.runs({"ber": EXAMPLE_FIG3_BER, "scheme": [*FIXED, ADAPTIVE]}, level)}


def _best_fixed(ber: float) -> float:
    return max(f(ber) for f in FIG3_CURVES.values())


# BCH(127,92) best everywhere: the optimum does not depend on BER.
ONE_CODE = {**FIG3_CURVES, FIXED[1]: lambda b: 300e3}


# --- §4: adaptive FEC with Snoop+ELN as good as the best fixed code ---------------------

ADAPTIVE_SHARE = ratio_of(mean_of("goodput", scheme=ADAPTIVE), best_of("goodput", "scheme", FIXED))


def adaptive_share(ctx: Context) -> Measurement:
    return per_point(ctx, "fig3", "ber", lambda b: ADAPTIVE_SHARE,
                     label=lambda b: f"BER {b:g}, adaptive ÷ best fixed")


def adaptive_share_never_stepping_down(ctx: Context) -> Measurement:
    """The same quantity with the probe's adaptive FEC (fig3-no-step-down) against Fig.
    3's fixed codes at the same BERs and replications."""
    fixed = ctx["fig3"][ctx["fig3"]["scheme"] != ADAPTIVE]
    rows = pd.concat([fixed, ctx["fig3-no-step-down"]], ignore_index=True)
    probed = Context(ctx.out, ctx.quick, runs={"fig3": rows}, specs={k: v for k, v in ctx.specs.items() if k == "fig3"})
    return adaptive_share(probed)


def _claims() -> List[Claim]:
    not_stated = "direction only: the paper gives no magnitude"
    return [
        Claim("fec-above-1e-4", "FEC (BCH(127,92)) is the most effective scheme above BER 10⁻⁴, and the worst below it",
              "§3, Fig. 2",
              "\"FEC is most effective to prevent TCP throughput degradation in the range where BER is greater than "
              "0.0001. On the other hand, in the lower BER region, TCP throughput of FEC becomes smaller than other "
              "schemes due to its overhead\"",
              "at each grid BER but 10⁻⁴ itself, the paired difference on the paper's side of the crossing: above "
              "10⁻⁴ FEC − the best of Reno, ELN and Snoop+ELN, below it the worst of them − FEC (kb/s); both "
              "positive when the curves cross at 10⁻⁴",
              Band.above(0.0, f"FEC above the others past 10⁻⁴, below them under it: a positive margin on both sides "
                              f"({not_stated})", unit=UNIT),
              crossing_margin, ["fig2"],
              Examples(null=_fig2(3e-3), faithful=_fig2(CROSSING)),
              "Fig. 2's grid spans 10⁻⁶ to 10⁻² on both sides of 10⁻⁴: an uncoded 140-byte frame is lost 0.1 % of "
              "the time at 10⁻⁶ (FEC's parity costs it a third of the link against almost nothing to recover) and "
              "67 % at 10⁻³ (FEC's BCH(127,92) loses none), so each side can show the crossing or its absence"),
        Claim("snoop-eln-best-low-ber", "Snoop+ELN achieves the best throughput at low BER", "§3, Fig. 2",
              "\"in the lower BER region, TCP throughput of FEC becomes smaller than other schemes due to its overhead "
              "and Snoop+ELN achieves the best performance\"",
              "Snoop+ELN − the best of Reno, ELN and FEC (kb/s, paired) at each grid BER below 10⁻⁴ where an uncoded "
              "frame is lost at least 1 % of the time",
              Band.above(0.0, f"\"the best performance\": ahead of every other scheme ({not_stated})", unit=UNIT),
              snoop_lead, ["fig2"],
              Examples(null=_fig2_low(255e3), faithful=_fig2_low(270e3)),
              "the ranks of loss recoveries differ only where frames are lost: 1.1 % of uncoded frames at 10⁻⁵ and "
              "3.3 % at 3·10⁻⁵; at 10⁻⁶ and 3·10⁻⁶ (0.1 % and 0.3 %) Reno, ELN and Snoop+ELN all run near the "
              "link's 274 kb/s and no rank can show"),
        Claim("optimal-code-per-ber", "An optimal FEC code exists for each BER: each code is the best one somewhere",
              "§4, Fig. 3",
              "\"The figure clearly shows an existence of the optimal FEC parameter to achieve the best performance "
              "dependent on BER\"",
              "for each of Snoop+ELN's fixed codes (no FEC, BCH(127,92), (127,64), (127,36)), its largest lead over "
              "the best other code at any grid BER (kb/s, paired): positive when it is the best code somewhere",
              Band.above(0.0, f"each code the best at some BER ({not_stated}); no FEC is on the ladder as the "
                              "tables' adaptive FEC uses it", unit=UNIT),
              code_leads, ["fig3"],
              Examples(null=_fig3(_best_fixed, ONE_CODE), faithful=_fig3(_best_fixed)),
              "Fig. 3's grid runs to 5·10⁻², where an uncoded frame is always lost and BCH(127,64)'s frames (18 "
              "codewords) mostly are, so the strongest code can lead; with whole codewords the stronger codes "
              "overtake BCH(127,92) only past 10⁻²"),
        Claim("adaptive-tcp", "Adaptive FEC combined with Snoop+ELN is as good as the best fixed code at every BER",
              "§4, Figs. 3–4",
              "\"In short, an adaptive FEC combined with Snoop+ELN scheme is more effective in order to prevent TCP "
              "throughput degradation\"",
              "adaptive FEC's goodput ÷ the best fixed code's at each grid BER (paired)",
              Band.word("as good as"),
              adaptive_share, ["fig3"],
              Examples(null=_fig3(FIG3_CURVES[FIXED[0]]), faithful=_fig3(_best_fixed)),
              "at a fixed BER the most an adaptive code can do is the best fixed code's goodput, so \"more "
              "effective\" than fixed FEC reads as \"as good as\" the best code at every BER (the nearest word of "
              "the table of words); the grid spans every code's range (10⁻⁵ to 5·10⁻²), so following the "
              "optimum means four different codes",
              probe=Probe("the step down: under a stronger code a window is clean whatever the BER, so the "
                          "controller can only probe the weaker code, and each probe costs a window of its losses "
                          "(where the weaker code delivers nothing, from no FEC at 10⁻², a retransmission timeout); "
                          "the hysteresis thins the probes but does not remove them",
                          "the lower thresholds set to 0, so the code never steps down (sweep fig3-no-step-down)",
                          ["fig3", "fig3-no-step-down"], adaptive_share_never_stepping_down)),
    ]


CLAIMS = _claims()

__all__ = ["CLAIMS", "CROSSING", "FEC", "frame_loss"]
