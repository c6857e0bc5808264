"""Chockalingam et al.'s claims (§IV–V), each a check with its tolerance. The paper
gives its figures as curves without numbers (and the curves are lost from the text), so
the tolerances are our reading of its words ("significantly better", "negligible", "about
0.7", "about 20", "not very much", "as good as"), stated with each claim; none was tuned
to our runs. Every claim reads the runs driven by the fitted Markov chain, as the paper's
figures were."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

import pandas as pd

from ...summary import ok_rows, summarize
from ..context import Context
from ..model import LegacyClaim as Claim
from ..verdict import Verdict
from .figures import normalized
from .table1 import fits

Means = Dict[Tuple[Any, ...], float]
GOOD = 0.9  # above this the channel barely matters: comparisons are made below it


def _means(runs: pd.DataFrame, keys: List[str]) -> Means:
    """Mean normalized throughput per combination of `keys` (Markov-driven runs)."""
    df = normalized()(ok_rows(runs))
    if "drive" in df.columns:
        df = df[df["drive"] == "markov"]
    s = summarize(df, keys, ["norm"])
    return {tuple(r[k] for k in keys): float(r["mean"]) for r in s.to_dict("records")}


def _f(x: float) -> str:
    return f"{x:.2f}"


def _correlation_helps(ctx: Context) -> Verdict:
    m = _means(ctx["fig2"], ["nt", "snr", "fd"])
    pairs = [(nt, snr, m[(nt, snr, 1)], m[(nt, snr, 100)]) for (nt, snr, fd) in m if fd == 100
             and m[(nt, snr, 100)] < GOOD and (nt, snr, 1) in m]
    if not pairs:
        return Verdict.unchecked("no point where the 100 Hz throughput is below 0.9")
    worse = [f"N_T {nt} at {snr:g} dB" for nt, snr, slow, fast in pairs if slow <= fast]
    ours = "1 Hz ÷ 100 Hz from " + f"{min(s / f for *_, s, f in pairs):.2f}× to {max(s / f for *_, s, f in pairs):.2f}×"
    return Verdict.of(not worse, ours, "1 Hz above 100 Hz at every SNR where 100 Hz is below 0.9" if not worse
                      else "1 Hz not above 100 Hz for " + ", ".join(worse))


def _short_packets(ctx: Context) -> Verdict:
    m = _means(ctx["fig2"], ["nt", "snr", "fd"])
    snrs = sorted({snr for (_, snr, _) in m})
    fast = [(snr, m[("512 B", snr, 100)], m[("1024 B", snr, 100)]) for snr in snrs
            if m[("1024 B", snr, 100)] < GOOD]
    slow_gap = max(abs(m[("512 B", snr, 1)] - m[("1024 B", snr, 1)]) for snr in snrs)
    not_better = [f"{snr:g} dB" for snr, short, long in fast if short <= long]
    ours = (f"100 Hz: 512 B − 1024 B from {_f(min(s - lg for _, s, lg in fast))} to "
            f"{_f(max(s - lg for _, s, lg in fast))}; 1 Hz: largest gap {_f(slow_gap)}") if fast else "-"
    if not fast:
        return Verdict.unchecked("no point where 1024-byte packets at 100 Hz are below 0.9")
    ok = not not_better and slow_gap <= 0.05
    why = []
    if not_better:
        why.append("at 100 Hz 512 B not above 1024 B at " + ", ".join(not_better))
    if slow_gap > 0.05:
        why.append(f"at 1 Hz the sizes differ by up to {_f(slow_gap)} (more than 0.05)")
    return Verdict.of(ok, ours, "; ".join(why) or "shorter packets better at 100 Hz, within 0.05 at 1 Hz")


def _nl16_needed(ctx: Context) -> Verdict:
    m = _means(ctx["fig5"], ["link", "snr"])
    snrs = sorted({snr for (_, snr) in m if m[("no LL", snr)] < GOOD})
    if not snrs:
        return Verdict.unchecked("no SNR where TCP without a link layer is below 0.9")
    diff = {n: [m[(f"n_l = {n}", s)] - m[("no LL", s)] for s in snrs] for n in (1, 8, 16)}
    ours = "; ".join(f"n_l = {n} − no LL: {_f(min(d))} to {_f(max(d))}" for n, d in diff.items())
    ok = max(diff[1]) < 0 and min(diff[16]) > 0 and min(diff[8]) < 0
    return Verdict.of(ok, ours, f"at {', '.join(f'{s:g}' for s in snrs)} dB (where no LL is below 0.9): "
                      "n_l = 1 below no LL everywhere, n_l = 8 below it somewhere, n_l = 16 above it everywhere "
                      + ("holds" if ok else "does not hold"))


def _nl128_at_10db(ctx: Context) -> Verdict:
    m = _means(ctx["fig5"], ["link", "snr"])
    big = m[("n_l = 128", 10)]
    small = max(m[(f"n_l = {n}", 10)] for n in (1, 8, 16))
    ok = 0.6 <= big <= 0.8 and small < 0.1
    return Verdict.of(ok, f"n_l = 128: {_f(big)}; n_l ≤ 16: at most {_f(small)}",
                      "within 0.6–0.8 and below 0.1" if ok else "outside 0.6–0.8 for n_l = 128 or not below 0.1 "
                      "for n_l ≤ 16")


def _worst_burst(ctx: Context) -> Verdict:
    df = normalized()(ok_rows(ctx["fig3"]))
    s = summarize(df[(df["p_e"] - 0.1).abs() < 1e-9], ["burst"], ["norm"]).sort_values("burst")
    worst = float(s["burst"].to_numpy()[int(s["mean"].to_numpy().argmin())])
    rises = float(s["mean"].iloc[-1]) > float(s["mean"].min())
    ok = 10 <= worst <= 50 and rises
    return Verdict.of(ok, f"lowest at burst {worst:g} ({_f(float(s['mean'].min()))}), "
                      f"{_f(float(s['mean'].iloc[-1]))} at {float(s['burst'].iloc[-1]):g}",
                      "the minimum within 10–50 link packets and higher beyond it" if ok else
                      "the minimum is not within 10–50 link packets, or throughput does not rise beyond it")


def _burst_irrelevant_at_low_pe(ctx: Context) -> Verdict:
    df = normalized()(ok_rows(ctx["fig3"]))
    spans = {}
    for pe in (0.001, 0.01):
        s = summarize(df[(df["p_e"] - pe).abs() < 1e-9], ["burst"], ["norm"])
        spans[pe] = float(s["mean"].max() - s["mean"].min())
    ok = max(spans.values()) <= 0.1
    return Verdict.of(ok, "; ".join(f"P_E {pe:g}: spread {_f(v)}" for pe, v in spans.items()),
                      "spread over burst lengths at most 0.1" if ok else "spread over burst lengths above 0.1")


def _nl128_persists(ctx: Context) -> Verdict:
    m = _means(ctx["fig4"], ["n_l", "burst"])
    bursts = sorted({b for (_, b) in m})
    lowest = min(m[(128, b)] for b in bursts)
    poor = [b for b in bursts if m[(1, b)] >= m[(16, b)]]
    ok = lowest >= 0.85 and not poor
    why = []
    if lowest < 0.85:
        worst = min(bursts, key=lambda b: m[(128, b)])
        why.append(f"n_l = 128 falls to {_f(lowest)} at burst {worst:g}")
    if poor:
        why.append("n_l = 1 not below n_l = 16 at burst " + ", ".join(f"{b:g}" for b in poor))
    return Verdict.of(ok, f"n_l = 128: at least {_f(lowest)}; n_l = 1: {_f(min(m[(1, b)] for b in bursts))} to "
                      f"{_f(max(m[(1, b)] for b in bursts))}",
                      "; ".join(why) or "n_l = 128 at least 0.85 at every burst length and n_l = 1 below n_l = 16")


def _bigger_ll_packets(ctx: Context) -> Verdict:
    m = _means(ctx["fig6"], ["n_l", "ll_packet", "snr"])
    snrs = sorted({s for (n, p, s) in m if n == 16 and p == "32 B" and m[(16, "32 B", s)] < GOOD})
    better = all(m[(16, p, s)] > m[(16, "32 B", s)] for p in ("64 B", "128 B") for s in snrs)
    gap = max(abs(m[(128, p, s)] - m[(128, "32 B", s)]) for p in ("64 B", "128 B") for (_, _, s) in m)
    ok = bool(snrs) and better and gap <= 0.05
    gains = [m[(16, p, s)] - m[(16, "32 B", s)] for p in ("64 B", "128 B") for s in snrs]
    ours = (f"n_l = 16: 64/128 B − 32 B from {_f(min(gains))} to {_f(max(gains))}; " if gains else "") + \
        f"n_l = 128: sizes within {_f(gap)}"
    why = []
    if not better:
        why.append("at n_l = 16 larger link packets are not above 32 B at every SNR where 32 B is below 0.9")
    if gap > 0.05:
        why.append(f"at n_l = 128 the sizes differ by up to {_f(gap)} (more than 0.05)")
    return Verdict.of(ok, ours, "; ".join(why) or
                      "n_l = 16: 64 B and 128 B above 32 B where 32 B is below 0.9; n_l = 128: within 0.05")


def _rate_third_barely(ctx: Context) -> Verdict:
    m = _means(ctx["fig7"], ["code", "fd", "snr"])
    gains = [m[("rate 1/3", fd, s)] - m[("rate 1/2", fd, s)] for (c, fd, s) in m if c == "none"]
    low = min(s for (_, _, s) in m)
    fec_helps = all(m[(c, fd, low)] > m[("none", fd, low)] for c in ("rate 1/2", "rate 1/3") for fd in (1, 100))
    ok = max(gains) <= 0.05 and fec_helps
    return Verdict.of(ok, f"rate 1/3 − rate 1/2: {_f(min(gains))} to {_f(max(gains))}",
                      f"FEC above ARQ alone at {low:g} dB and rate 1/3 at most 0.05 above rate 1/2" if ok else
                      f"FEC not above ARQ alone at {low:g} dB, or rate 1/3 more than 0.05 above rate 1/2")


def _tahoe_newreno(ctx: Context) -> Verdict:
    m = _means(ctx["fig8"], ["tcp", "fd", "snr"])
    d = [m[("newreno", fd, s)] - m[("tahoe", fd, s)] for (t, fd, s) in m if t == "tahoe"]
    ok = max(abs(x) for x in d) <= 0.05
    return Verdict.of(ok, f"NewReno − Tahoe: {_f(min(d))} to {_f(max(d))}",
                      "within ±0.05 at every point" if ok else "beyond ±0.05 somewhere")


def _table1(column: str, paper: str, factor: float) -> Callable[[Context], Verdict]:
    def check(ctx: Context) -> Verdict:
        df = fits(ctx.quick)
        parts = []
        for mod, g in df.groupby("modulation"):
            r = g[column] / g[paper]
            off = g[(r > factor) | (r < 1 / factor)]
            parts.append((len(off), str(mod), float(r.min()), float(r.max()), off))
        parts.sort(key=lambda p: p[0])
        n_off, mod, lo, hi, off = parts[0]
        ours = f"{mod.upper()} (the closer reading): ours ÷ paper from {lo:.2g}× to {hi:.2g}×"
        if n_off == 0:
            return Verdict.of(True, ours, f"every row within a factor {factor:g}")
        rows = ", ".join(f"{c} {fd} Hz {snr} dB" for c, fd, snr in off[["code", "f_d", "snr"]].itertuples(index=False))
        return Verdict.of(False, ours, f"{n_off} of {len(df) // 2} rows outside a factor {factor:g}: {rows}")
    return check


CLAIMS: List[Claim] = [
    Claim("table1-pe", "Table 1: P_E of 32-byte link packets", "3.13e-01 … 7.26e-04", "within a factor 1.5",
          _table1("pe", "paper_pe", 1.5), (),
          "Table 1. A factor 1.5 in P_E is about 1.8 dB of SNR at these slopes; the paper does not name its "
          "modulation, so both are fitted and the closer one is judged"),
    Claim("table1-burst", "Table 1: mean burst length (1 − q)⁻¹ of link-packet errors", "1.06 … 15.35",
          "within a factor 2", _table1("burst", "paper_burst", 2.0), (),
          "Table 1. The threshold model's closed form gives bursts of hundreds of link packets at 1 Hz (a fade "
          "lasts thousands of 171-µs slots); errors drawn bit by bit break a fade's failures into short runs"),
    Claim("correlation-helps", "Correlated errors help TCP: 1 Hz above 100 Hz at equal SNR (Fig. 2)",
          "“significantly better” at 1 Hz", "above at every SNR where 100 Hz is below 0.9",
          _correlation_helps, ("fig2",), "§IV on Fig. 2"),
    Claim("short-packets", "Short TCP packets help at 100 Hz, not at 1 Hz (Fig. 2)",
          "512 B better at 100 Hz; “negligible” difference at 1 Hz", "above at 100 Hz; within 0.05 at 1 Hz",
          _short_packets, ("fig2",), "§IV on Fig. 2; “negligible” read as at most 0.05 of the link rate"),
    Claim("nl16-needed", "n_l = 16 is needed to beat TCP without ARQ at 10 Hz (Fig. 5)",
          "n_l = 1 worse, n_l = 16 better than no ARQ", "the signs of the differences",
          _nl16_needed, ("fig5",), "§IV on Fig. 5"),
    Claim("nl128-at-10db", "At 10 dB, n_l = 128 gives about 0.7 and n_l ≤ 16 much less than 0.1 (Fig. 5)",
          "≈ 0.7; < 0.1", "0.6–0.8; below 0.1", _nl128_at_10db, ("fig5",), "§IV on Fig. 5: “about 0.7”"),
    Claim("worst-burst-near-20", "With n_l = 16 and P_E = 0.1 the worst burst length is about 20 (Fig. 3)",
          "≈ 20 link packets, better beyond", "the minimum at 10–50, higher at the longest bursts",
          _worst_burst, ("fig3",), "§IV on Fig. 3"),
    Claim("burst-irrelevant-at-low-pe", "At P_E = 0.001 and 0.01 throughput barely depends on the burst length (Fig. 3)",
          "“almost independent”", "spread at most 0.1", _burst_irrelevant_at_low_pe, ("fig3",), "§IV on Fig. 3"),
    Claim("nl128-persists", "n_l = 128 keeps throughput near 0.9 at every burst length; n_l = 1 is very poor (Fig. 4)",
          "≈ 0.9 “consistently”", "at least 0.85; n_l = 1 below n_l = 16", _nl128_persists, ("fig4",),
          "§IV on Fig. 4"),
    Claim("bigger-ll-packets", "Larger link packets help at n_l = 16, hardly matter at n_l = 128 (Fig. 6)",
          "improves; “very little difference”", "above where 32 B is below 0.9; within 0.05",
          _bigger_ll_packets, ("fig6",), "§IV on Fig. 6"),
    Claim("rate-third-barely", "FEC helps, but rate 1/3 barely beats rate 1/2 (Fig. 7)",
          "“not very much”", "FEC above ARQ alone at the lowest SNR; rate 1/3 at most 0.05 above rate 1/2",
          _rate_third_barely, ("fig7",), "§IV on Fig. 7; normalized to the link rate, so a code's parity counts"),
    Claim("tahoe-newreno", "Over FEC/ARQ, Tahoe is as good as NewReno (Fig. 8)", "“as good as”", "within ±0.05",
          _tahoe_newreno, ("fig8",), "§IV on Fig. 8"),
]

__all__ = ["CLAIMS"]
