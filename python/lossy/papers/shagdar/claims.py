"""Shagdar et al.'s claims (§IV), each a check with its tolerance. The figures survive
only as words ("significantly improves", "12 times", "almost no difference", "the same
throughput"); the tolerances are our reading of those words, stated with each claim,
none tuned to our runs."""

from __future__ import annotations

from typing import List

from ..context import Context
from ..model import LegacyClaim as Claim
from ..verdict import Verdict
from ..checks import point_means as means

TEXT_DIRECTION = "MH → FH"


def _gain(ctx: Context) -> Verdict:
    m = means(ctx["fig5"], ["direction", "snr", "scheme"])
    snrs = sorted({s for (d, s, _) in m if d == TEXT_DIRECTION})
    ratio = {s: m[(TEXT_DIRECTION, s, "EWLN-Reno")] / m[(TEXT_DIRECTION, s, "Reno")] for s in snrs
             if m[(TEXT_DIRECTION, s, "Reno")] > 0}
    if not ratio:
        return Verdict.unchecked("Reno delivered nothing at every SNR")
    best = max(ratio, key=lambda s: ratio[s])
    worse = [s for s in snrs if m[(TEXT_DIRECTION, s, "EWLN-Reno")] < 0.98 * m[(TEXT_DIRECTION, s, "Reno")]]
    ok = ratio[best] >= 6 and not worse
    ours = f"EWLN-Reno ÷ Reno up to {ratio[best]:.1f}× (at {best:g} dB); " + ", ".join(
        f"{s:g}: {r:.2f}×" for s, r in ratio.items())
    return Verdict.of(ok, ours, "gain of at least half the paper's 12× and never below Reno" if ok else
                      (f"best gain {ratio[best]:.1f}× (less than 6×)" if ratio[best] < 6 else
                       f"EWLN below Reno at {', '.join(f'{s:g}' for s in worse)} dB"))


def _ecn_nothing(ctx: Context) -> Verdict:
    gaps = []
    for sweep, base, key in (("fig5", "Reno", ["direction", "snr", "scheme"]), ("fig6", "SACK", ["snr", "scheme"])):
        m = means(ctx[sweep], key)
        for k, v in m.items():
            if k[-1] == f"ECN-{base}":
                plain = m[k[:-1] + (base,)]
                if plain > 0:
                    gaps.append(abs(v / plain - 1))
    worst = max(gaps)
    ok = worst <= 0.02
    return Verdict.of(ok, f"ECN and plain differ by at most {100 * worst:.1f} %", "within 2 % everywhere" if ok
                      else "ECN moves the throughput by more than 2 % somewhere")


def _fades(ctx: Context) -> Verdict:
    parts, ok = [], True
    for sweep, base in (("fig8", "Reno"), ("fig9", "SACK")):
        m = means(ctx[sweep], ["snr", "scheme"])
        snrs = sorted({s for (s, _) in m})
        gain = {s: m[(s, f"EWLN-{base}")] / m[(s, base)] - 1 for s in snrs if m[(s, base)] > 0}
        low = [g for s, g in gain.items() if s <= 10]
        top = gain.get(max(snrs), float("nan"))
        ok &= bool(low) and max(low) > 0.2 and abs(top) <= 0.05
        parts.append(f"{base}: gain up to {100 * max(low):+.0f} % at ≤ 10 dB, {100 * top:+.1f} % at {max(snrs):g} dB"
                     if low else f"{base}: no point ≤ 10 dB")
    return Verdict.of(ok, "; ".join(parts), "a large gain at low SNR (> 20 %) that is gone (within 5 %) at 11.5 dB"
                      if ok else "not both: a > 20 % gain at or below 10 dB and within 5 % at 11.5 dB")


def _ewln_ecn_highest(ctx: Context) -> Verdict:
    bad, ok = [], True
    for sweep, base in (("fig8", "Reno"), ("fig9", "SACK")):
        m = means(ctx[sweep], ["snr", "scheme"])
        for s in sorted({s for (s, _) in m}):
            best = max(v for (x, _), v in m.items() if x == s)
            if m[(s, f"EWLN-ECN-{base}")] < 0.95 * best:
                bad.append(f"{base} {s:g} dB")
    ok = not bad
    return Verdict.of(ok, "highest (within 5 %) at every SNR" if ok else "below the best by > 5 % at " + ", ".join(bad),
                      "EWLN-ECN within 5 % of the best scheme at every SNR, Reno and SACK" if ok else "not everywhere")


CLAIMS: List[Claim] = [
    Claim("ewln-gain", "EWLN significantly improves Reno over SNR 8.5–11.5 dB, up to about 12× at the low end "
          "(Fig. 5, topology 1, MH → FH)", "up to 12×", "best EWLN-Reno ÷ Reno ≥ 6× and EWLN never more than 2 % below Reno",
          _gain, ["fig5"], "§IV A: \"in the best case, throughput of EWLN-Reno is 12 times higher than that of Reno\"."),
    Claim("ecn-no-effect-t1", "ECN changes nothing in topology 1 (no congestion)", "\"almost no difference\"",
          "ECN within 2 % of the same TCP without it at every SNR (Reno, both directions, and SACK)", _ecn_nothing,
          ["fig5", "fig6"], "§IV A: \"ECN bits almost will not be set\"."),
    Claim("gain-fades-t2", "In topology 2, EWLN's gain fades above 10 dB and is Reno's (SACK's) at 11.5 dB (Figs. 8–9)",
          "large gain to 10 dB; equal at 11.5 dB", "gain > 20 % at some SNR ≤ 10 dB; within 5 % at 11.5 dB",
          _fades, ["fig8", "fig9"], "§IV B: \"when SNR reaches 11.5 dB it shows the same throughput\"."),
    Claim("ewln-ecn-highest-t2", "EWLN-ECN gives the highest throughput over all SNRs in topology 2 (Figs. 8–9)",
          "highest everywhere", "within 5 % of the best of the four at every SNR", _ewln_ecn_highest,
          ["fig8", "fig9"], "§IV B: \"EWLN-ECN mechanism gives the highest throughput over all ranges of SNR\"."),
]
