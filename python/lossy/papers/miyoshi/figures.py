"""Figs. 2–3, Tables 3–4, the thresholds, the observation-window study and the ELN-vs-link
comparison of Miyoshi et al., ours beside the paper's numbers and the Appendix's model."""

from __future__ import annotations

from functools import partial
from typing import Any, Dict, List, Sequence

import pandas as pd

from ...plot import Curve
from ...summary import ok_rows, summarize
from ..context import Context
from ..figures import Figure, LinePlot, Table, table_of
from ..figures.palette import Palette
from . import analytic, setup, stream
from .analytic import LADDER
from .setup import ADAPTIVE, FIXED, FRAME_BITS, RATE_BPS

# Goodput of error-free 100-byte segments in 140-byte frames: the most a run can show.
MAX_GOODPUT = RATE_BPS * 100 / 140
LETTERS = "ABCDEF"  # the thresholds, two per step (Miyoshi's A–D had two steps)

CAPTION = ("scenarios/miyoshi.toml: FH → three 10 Mbps wired hops → BS → 384 kbps radio link → MH, 1 ms each, 50 kB "
           "buffers; Reno, 100-byte segments (140 B with headers), 40-byte ACKs; independent bit errors on the "
           "radio link's data direction. Goodput; means with 95 % CI bands.")


# One look per scheme in every figure: Fig. 2's Snoop+ELN is Fig. 3's Snoop+ELN without
# FEC, and the ELN-vs-link study's controllers are Fig. 3's codes and adaptive FEC.
PALETTE = Palette(["Reno", "ELN", *FIXED, "FEC BCH(127,92)", ADAPTIVE, "adaptive, link's own outcomes"],
                  same={"Snoop+ELN": FIXED[0], "adaptive, ELN at the sender": ADAPTIVE,
                        **{f"fixed {c.label}": name for c, name in zip(LADDER, FIXED)}})


def _scheme_means(runs: pd.DataFrame, y: str = "goodput") -> Dict[str, Dict[float, float]]:
    s = summarize(ok_rows(runs), ["scheme", "ber"], [y])
    out: Dict[str, Dict[float, float]] = {}
    for r in s.to_dict("records"):
        out.setdefault(str(r["scheme"]), {})[float(r["ber"])] = float(r["mean"])
    return out


def model_steps() -> List[analytic.Step]:
    """The air-time model's crossings (no longer used: shown beside the simulated ones)."""
    return analytic.frame_thresholds(FRAME_BITS, LADDER)


def simulated_steps(runs: pd.DataFrame) -> List[Dict[str, Any]]:
    """The thresholds read from Fig. 3's simulated curves: where each stronger code's
    goodput overtakes the weaker's (log-linear between BERs), and each code's measured
    packet error rate on the radio link there."""
    goodput, p_err = _scheme_means(runs), _scheme_means(runs, "p_err")
    out = []
    for weak, strong in zip(LADDER, LADDER[1:]):
        gw, gs = (goodput[f"Snoop+ELN, {c.label}"] for c in (weak, strong))
        fw = analytic.interpolated(list(gw), list(gw.values()))
        fs = analytic.interpolated(list(gs), list(gs.values()))
        lo, hi = min(gw), max(gw)
        b = analytic.crossing(fw, fs, lo, hi)
        pw, ps = (p_err[f"Snoop+ELN, {c.label}"] for c in (weak, strong))
        up = analytic.interpolated(list(pw), list(pw.values()))(b) if b else float("nan")
        down = analytic.interpolated(list(ps), list(ps.values()))(b) if b else float("nan")
        out.append({"weak": weak.label, "strong": strong.label, "ber": b, "up": up, "down": down})
    return out


def thresholds_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Per step: the crossing the controller uses (setup.CROSSINGS, our simulated Fig. 3
    curves on a fine grid, with its CI) and its thresholds, the air-time model's crossing,
    and the crossing this run's Fig. 3 sweep gives (its coarser grid)."""
    rows = []
    used = setup.threshold_steps()
    for i, (u, c, m, s) in enumerate(zip(used, setup.CROSSINGS, model_steps(), simulated_steps(runs))):
        rows.append({
            "step": f"{u.weaker.label} ↔ {u.stronger.label}",
            "thresholds": f"{LETTERS[2 * i]} (up), {LETTERS[2 * i + 1]} (down)",
            "crossing BER, used (simulated, 95 % CI)": f"{c[0]:.2e} ({c[1]:.2e} to {c[2]:.2e})",
            "up (used)": f"{u.up:.3g}", "down (used)": f"{u.down:.3g}",
            "crossing BER, air-time model": f"{m.ber:.2e}",
            "crossing BER, this run's Fig. 3": "none in range" if s["ber"] is None else f"{s['ber']:.2e}",
            "up, this run's Fig. 3": f"{s['up']:.3g}", "down, this run's Fig. 3": f"{s['down']:.3g}",
        })
    return pd.DataFrame(rows)


def _crossing_marks(runs: pd.DataFrame) -> List[Curve]:
    """Fig. 3's thresholds: a grey dotted line at each crossing BER the controller uses
    (one legend entry for them all; their order along the axis is the ladder's)."""
    top = float(runs["goodput"].max()) if len(runs) else MAX_GOODPUT
    steps = setup.threshold_steps()
    name = "crossings " + ", ".join(f"{LETTERS[2 * i]}/{LETTERS[2 * i + 1]}" for i in range(len(steps)))
    return [Curve(name if i == 0 else f"_{name} {i}", [s.ber, s.ber], [0.0, top], ":", of=None)
            for i, s in enumerate(steps)]


def _model_curves(runs: pd.DataFrame) -> List[Curve]:
    """The share of the link each fixed code leaves for data, (1 − loss)·f/(⌈f/k⌉·n)."""
    bers = sorted(float(b) for b in runs["ber"].unique()) if len(runs) else [1e-5, 5e-2]
    xs = [bers[0] * (bers[-1] / bers[0]) ** (i / 60) for i in range(61)]
    return [Curve(f"model, {c.label}", xs, [analytic.codeword_efficiency(x, c, FRAME_BITS) for x in xs], "--",
                  of=name) for c, name in zip(LADDER, FIXED)]


def _normalized(runs: pd.DataFrame) -> pd.DataFrame:
    out = runs.assign(norm=runs["goodput"] / MAX_GOODPUT)
    return out[~out["scheme"].str.contains("adaptive")]


def _table(case: str, ctx: Context) -> pd.DataFrame:
    df = stream.table_rows(case, ctx.quick)
    df.to_csv(ctx.out / f"{case}-rows.csv", index=False)
    out = df.copy()
    for c in ("lost", "received", "overhead", "available"):
        out[c] = out[c].map(lambda v: f"{v:,.0f}")
    return out


def _window_table(ctx: Context) -> pd.DataFrame:
    df = stream.window_rows(ctx.quick)
    df.to_csv(ctx.out / "window-rows.csv", index=False)
    wide = df.pivot_table(index=["speed_m_s", "doppler_hz", "best_code"], columns="window", values="gain_pct")
    wide.columns = [f"N = {w}" for w in wide.columns]
    wide = wide.reset_index()
    wide["speed_m_s"] = wide["speed_m_s"].map("{:.2g} m/s".format)
    wide["doppler_hz"] = wide["doppler_hz"].map("{:.1f} Hz".format)
    for c in wide.columns[3:]:
        wide[c] = wide[c].map("{:+.1f} %".format)
    return wide.rename(columns={"speed_m_s": "speed", "doppler_hz": "f_d", "best_code": "best fixed code"})


def _fading_at(snr: int) -> Any:
    return lambda runs: runs[runs["snr"] == snr]


def _fading_table(runs: pd.DataFrame) -> pd.DataFrame:
    s = summarize(ok_rows(runs), ["snr", "doppler", "scheme"], ["goodput"])
    wide = s.pivot_table(index=["snr", "doppler"], columns="scheme", values="mean").reset_index()
    for c in wide.columns[2:]:
        wide[c] = (wide[c] / 1e3).map("{:.1f}".format)
    return wide.rename(columns={"snr": "mean SNR (dB)", "doppler": "f_d (Hz)"})


def _tables(keys: Sequence[str]) -> List[Figure]:
    titles = {"table3": "Table 3: lower BER (p_GE 0.006, p_EG 0.05; p_b = 0.00015, p_err = 0.090)",
              "table4": "Table 4: higher BER (p_GE 0.006, p_EG 0.007; p_b = 0.00075, p_err = 0.445)"}
    return [Table(k, titles[k], (), partial(_table, k),
                  caption="50,000 packets of 800 bits over Table 2's Gilbert channel (states counted in packets, Eqs. "
                          "2–4), each packet one decoding unit (Eq. A·4); overhead = H = (n − k)/n of each received "
                          "packet (how the paper's tables count it); ours the mean of 5 streams (seeds 1–5). "
                          "FEC(127,94) is run as printed: a (127,94) block code correcting 4 errors. The default "
                          "reading of the Error state's bit error ratio (b_E = 10·p_b) and its two alternatives are "
                          "explained in the report's notes; adaptive FEC's "
                          "thresholds come from the Appendix model's crossings (table `thresholds-stream`).")
            for k in keys]


def _stream_thresholds(ctx: Context) -> pd.DataFrame:
    rows = []
    for i, s in enumerate(analytic.stream_thresholds(analytic.TABLES_LADDER, stream.PACKET_BITS)):
        rows.append({"step": f"{s.weaker.label} ↔ {s.stronger.label}",
                     "thresholds": f"{LETTERS[2 * i]} (up), {LETTERS[2 * i + 1]} (down)",
                     "crossing BER": f"{s.ber:.2e}", "up": f"{s.up:.3g}", "down": f"{s.down:.3g}"})
    return pd.DataFrame(rows)


FIGURES: List[Figure] = [
    LinePlot("fig2", "fig2", "Fig. 2: TCP throughput of Reno, ELN, Snoop+ELN and FEC BCH(127,92) against BER",
             x="ber", y="goodput", hue="scheme", logx=True, xlabel="bit error rate", ylabel="goodput",
             palette=PALETTE, caption=CAPTION),
    LinePlot("fig3", "fig3", "Fig. 3: Snoop+ELN with each BCH code, and adaptive FEC, against BER",
             x="ber", y="goodput", hue="scheme", logx=True, xlabel="bit error rate", ylabel="goodput",
             curves=_crossing_marks, palette=PALETTE,
             caption=CAPTION + " Frames in whole BCH codewords (140 B: 13, 18 or 32 codewords of 127 bits). Dotted: "
             "the model's crossing BERs, where the thresholds sit. Adaptive FEC: the sender's controller fed by ELN "
             "(Snoop+ELN reports repaired losses), 10-segment windows, the model's thresholds."),
    table_of("thresholds", "fig3", "The thresholds A–F: model (used) and Fig. 3's simulated crossings",
             thresholds_table,
             caption="Each step between neighbouring codes: the BER where the stronger code's curve overtakes the "
             "weaker's, and the packet error rates there — up: the weaker code's (step up above it), down: the "
             "stronger code's (step down below it). The runs use the model's (frames in whole codewords, "
             "independent bit errors); the simulated ones read Fig. 3's goodput and radio-link loss rate, "
             "interpolated in log BER."),
    LinePlot("model", "fig3", "The Appendix-style model beside simulation: share of the link carrying data",
             x="ber", y="norm", hue="scheme", logx=True, unit="", where=_normalized, curves=_model_curves,
             palette=PALETTE,
             xlabel="bit error rate", ylabel="goodput / 274 kb/s",
             caption="Fig. 3's fixed codes, goodput normalized to error-free 100-byte segments in 140-byte frames "
             "(274 kb/s), beside the model (1 − frame loss)·f/(⌈f/k⌉·n) of each code (dashed): what the code "
             "leaves of the link when every loss costs only its air time (Snoop repairs it locally)."),
    *_tables(["table3", "table4"]),
    Table("thresholds-stream", "The stream's thresholds from the Appendix model (Eqs. A·4, A·5)", (),
          _stream_thresholds,
          caption="800-bit packets, each one decoding unit: the BER where (1 − p_err(l, c))(1 − H) of the stronger "
                  "code overtakes the weaker's, and each code's p_err there."),
    Table("window", "Observation window against the fading speed: adaptive FEC's gain over the best fixed code", (),
          _window_table,
          caption="The stream of Tables 3–4 (800-bit packets at 384 kbps) on Rayleigh fading (BPSK, mean SNR 10 "
                  "dB, sum of sinusoids), f_d = v·f_c/c at 900 MHz (Eq. 1); available packets of adaptive FEC with "
                  "windows of N packets, relative to the best of no FEC and the three codes; mean of 3 streams of "
                  "50,000 packets."),
    LinePlot("eln-vs-link", "eln-vs-link", "Beyond the paper: adaptive FEC fed by ELN or by the link, Rayleigh, 15 dB",
             x="doppler", y="goodput", hue="scheme", logx=True, where=_fading_at(15), palette=PALETTE,
             xlabel="Doppler frequency f_d (Hz)", ylabel="goodput",
             caption=CAPTION.replace("independent bit errors", "Rayleigh fading (BPSK, mean SNR 15 dB)") +
             " Snoop+ELN at BS in every curve; the adaptive curves share the controller and thresholds and differ "
             "in what feeds it: ELN-marked ACKs at the sender (the code asked for in band) or the radio link's "
             "own frame outcomes."),
    table_of("eln-vs-link-all", "eln-vs-link", "Beyond the paper: every SNR (goodput, kb/s)", _fading_table),
]
