"""The validation's figures and tables: goodput against loss with the models, ELN
against Reno, the upstream check, and the traced runs' cwnd, sequence numbers,
throughput and CDFs."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np
import pandas as pd

from ...formatting import mean_ci as _mbps, pct as _pct
from ...plot import Curve, SecondaryX
from ...summary import ok_rows, paired, summarize
from .deviations import model_deviations, ratio_ci
from ..bands import Band
from .eln_expected import expected_gain
from ..figures import Cdf, Figure, LinePlot, Panels, TimeSeries, table_of
from ..figures.palette import Palette
from .models import mathis_bps, model_curves, pftk_bps
from .ns3 import WINDOWS, ns3_point
from .sweeps import ELN_MARKED, GOODPUT

# --- tables ----------------------------------------------------------------------------


def one_hop_table(runs: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for variant in ["reno", "newreno"]:
        mine = runs[runs["variant"] == variant]
        vs_pftk = model_deviations(mine, GOODPUT, "p", pftk_bps)
        vs_mathis = model_deviations(mine, GOODPUT, "p", mathis_bps)
        for (_, a), (_, m) in zip(vs_pftk.iterrows(), vs_mathis.iterrows()):
            rows.append({
                "p": f"{a['p']:g}", "variant": variant, "n": int(a["n"]),
                "goodput (Mb/s, 95 % CI)": _mbps(a["mean"], a["half_width"]),
                "PFTK full": f"{a['model'] / 1e6:.3f}", "vs PFTK": _pct(a["deviation"]),
                "Mathis": f"{m['model'] / 1e6:.3f}", "vs Mathis": _pct(m["deviation"]),
            })
    return pd.DataFrame(rows)


def _by_point(summary: pd.DataFrame, axes: List[str]) -> Dict[Tuple[Any, ...], Dict[str, Any]]:
    """Summary rows keyed by their axis values (and metric), for lookups by point."""
    return {tuple(r[a] for a in axes): {str(k): v for k, v in r.items()}
            for r in summary.to_dict("records")}


def last_hop_table(runs: pd.DataFrame) -> pd.DataFrame:
    s = _by_point(summarize(runs, ["wireless.p", "scheme"], [GOODPUT]), ["wireless.p", "scheme"])
    pairs = paired(runs, GOODPUT, "scheme", "reno", ["wireless.p"])
    rows = []
    for _, pair in pairs[pairs["scheme"] == "eln"].iterrows():
        p = float(pair["wireless.p"])
        reno, eln = s[(p, "reno")], s[(p, "eln")]
        rows.append({
            "wireless p": f"{p:g}", "pairs": int(pair["n"]),
            "Reno (Mb/s)": _mbps(reno["mean"], reno["half_width"]),
            "ELN (Mb/s)": _mbps(eln["mean"], eln["half_width"]),
            "ELN − Reno, paired (Mb/s)": _mbps(pair["mean_diff"], pair["half_width"]),
            "ELN ÷ Reno": f"{pair['ratio']:.2f}× {ratio_ci(pair)}".strip(),
            # the claims' band: the analytic gain as a stated number (eln_expected.py)
            "expected (analytic)": Band.stated(expected_gain(p), "analytic").text(),
        })
    return pd.DataFrame(rows)


def upstream_table(runs: pd.DataFrame) -> pd.DataFrame:
    axes = ["wired.p", "scheme", "metric"]
    s = _by_point(summarize(runs, axes[:2], [GOODPUT, ELN_MARKED]), axes)
    rows = []
    for p in sorted({k[0] for k in s}):
        reno, eln = s[(p, "reno", GOODPUT)], s[(p, "eln", GOODPUT)]
        rows.append({
            "wired p": f"{p:g}", "n": int(reno["n"]),
            "Reno (Mb/s)": _mbps(reno["mean"], reno["half_width"]),
            "ELN (Mb/s)": _mbps(eln["mean"], eln["half_width"]),
            "ELN marks (mean)": f"{s[(p, 'eln', ELN_MARKED)]['mean']:g}",
            "expected": "identical to Reno, no marks",
        })
    return pd.DataFrame(rows)


def ns3_sack_table(runs: pd.DataFrame) -> pd.DataFrame:
    s = _by_point(summarize(runs, ["window", "p"], [GOODPUT, "timeouts"]), ["window", "p", "metric"])
    rows = []
    for window in WINDOWS:
        for p in sorted({k[1] for k in s if k[0] == window}):
            ours, ns3 = s[(window, p, GOODPUT)], ns3_point(window, p)
            theirs = float(ns3["goodput_bps"].mean())
            rows.append({
                "window": window, "p": f"{p:g}", "n": int(ours["n"]),
                "lossy SACK (Mb/s, 95 % CI)": _mbps(ours["mean"], ours["half_width"]),
                "ns-3 --sack=1 (Mb/s, mean ± sd)": f"{theirs / 1e6:.3f} ± {ns3['goodput_bps'].std() / 1e6:.3f}",
                "difference": _pct(ours["mean"] / theirs - 1),
                "timeouts lossy / ns-3": f"{s[(window, p, 'timeouts')]['mean']:.1f} / {ns3['rtos'].mean():.1f}",
            })
    return pd.DataFrame(rows)


def ns3_sack_curves(runs: pd.DataFrame) -> List[Curve]:
    ps = sorted(float(p) for p in runs["p"].dropna().unique())
    # Each in the colour of our line for the same window.
    return [Curve(f"ns-3 --sack=1, {window}", ps, [float(ns3_point(window, p)["goodput_bps"].mean()) for p in ps],
                  "x--", of=window)
            for window in WINDOWS]


def sack_losses_table(runs: pd.DataFrame) -> pd.DataFrame:
    s = _by_point(summarize(runs, ["losses", "variant"], [GOODPUT, "timeouts"]), ["losses", "variant", "metric"])
    rows = []
    for losses in ["bursty", "p = 0.01", "p = 0.03"]:
        row: Dict[str, Any] = {"losses": losses}
        for variant in ["reno", "newreno", "sack", "sack1"]:
            g, t = s.get((losses, variant, GOODPUT)), s.get((losses, variant, "timeouts"))
            if g and t:
                row[f"{variant} (Mb/s; timeouts)"] = f"{_mbps(g['mean'], g['half_width'])}; {t['mean']:.1f}"
        rows.append(row)
    return pd.DataFrame(rows)


def overshoot_table(runs: pd.DataFrame) -> pd.DataFrame:
    ok = ok_rows(runs)
    return pd.DataFrame([{"variant": r["variant"], "goodput (Mb/s)": f"{r[GOODPUT] / 1e6:.3f}",
                          "drops at BS": int(r["queue_drops"]), "timeouts": int(r["timeouts"])}
                         for r in ok.sort_values("variant").to_dict("records")])


# --- figures ---------------------------------------------------------------------------

# Each scheme and variant one look in every figure (reno is the same line in all).
PALETTE = Palette(["reno", "eln", "newreno", "sack", "sack1"])

# Goodput goes as 1/√p in the Mathis regime: the top axis shows that scale.
INV_SQRT_P = SecondaryX("1/√p", lambda p: 1 / np.sqrt(p), lambda q: 1 / np.square(q))


def _scheme(name: str) -> Any:
    return lambda runs: runs[runs["scheme"] == name]


def _cwnd(scheme: str) -> TimeSeries:
    return TimeSeries(f"cwnd-{scheme}", "traced", f"{scheme}: congestion window", "cwnd", "cwnd_bytes",
                      select=_scheme(scheme), label=lambda row: str(row["scheme"]),
                      ylabel="congestion window", palette=PALETTE)


FIGURES: List[Figure] = [
    LinePlot("goodput-vs-loss", "one-hop", "Reno and NewReno goodput against loss rate, with the models",
             x="p", y=GOODPUT, hue="variant", logx=True, logy=True,
             plot_title="One lossy hop: goodput against loss rate",
             xlabel="loss rate p (Bernoulli, data packets)", ylabel="goodput",
             caption="scenarios/one-hop.toml: 10 Mb/s, 50 ms each way, W_max 32 segments, an ACK per "
                     "segment, min RTO 1 s. Lines: our means with 95 % CI bands; dashed: PFTK full "
                     "model, dotted: Mathis, both with the RTT measured in the runs. Top axis: 1/√p.",
             curves=model_curves, table=one_hop_table, secondary_x=INV_SQRT_P, palette=PALETTE),
    LinePlot("eln-vs-reno", "last-hop", "Reno with and without ELN against wireless loss",
             x="wireless.p", y=GOODPUT, hue="scheme", logx=True, palette=PALETTE,
             plot_title="Wireless last hop: Reno with and without ELN",
             xlabel="wireless loss rate p (BS → MH)", ylabel="goodput",
             caption="scenarios/last-hop.toml: S —10 Mb/s, 20 ms→ BS —2 Mb/s, 5 ms, Bernoulli p→ MH. "
                     "reno: no agent; eln: the ELN agent at the base station. Same seeds for both "
                     "(common random numbers), so the differences are paired run by run.",
             table=last_hop_table),
    table_of("upstream", "upstream", "ELN against Reno with losses upstream", upstream_table,
             caption="last-hop.toml with no wireless loss and Bernoulli loss on the wired hop S → BS."),
    Panels("traced-cwnd", "Congestion window of one Reno and one ELN run at wireless p = 0.02",
           [_cwnd("reno"), _cwnd("eln")], sharey=True,
           caption="Replication 0 of each scheme, the same channel (same seed). Reno halves its "
                   "window at every wireless loss; ELN retransmits without halving."),
    Panels("traced-seq-throughput", "Sequence numbers and throughput of the traced runs",
           [TimeSeries("seq", "traced", "ELN: segments sent, resent and acked (first 5 s)", "seq", "seq",
                       select=_scheme("eln"), label=lambda row: str(row["scheme"]), t_range=(0.0, 5.0),
                       ylabel="sequence number", palette=PALETTE),
            TimeSeries("throughput", "traced", "throughput, 1 s moving mean", "throughput", "bps",
                       select=lambda runs: runs, label=lambda row: str(row["scheme"]), window_s=1.0,
                       ylabel="throughput", palette=PALETTE)],
           caption="Left: the seq trace of the ELN run (sent, resent, acked). Right: the throughput "
                   "trace (100 ms samples) of both runs, averaged over a trailing 1 s window."),
    Panels("cdfs", "Distributions: goodput over runs, and the window over time",
           [Cdf("goodput-cdf", "last-hop", "goodput of the runs at wireless p = 0.02", GOODPUT, hue="scheme",
                where=lambda runs: runs[runs["wireless.p"] == 0.02], xlabel="goodput", palette=PALETTE),
            Cdf("cwnd-cdf", "traced", "cwnd samples of the traced runs", "cwnd_bytes", hue="scheme",
                trace="cwnd", xlabel="congestion window", palette=PALETTE)],
           caption="Empirical CDFs. Left: goodput of each replication at wireless p = 0.02. Right: "
                   "every recorded cwnd value of the traced runs (one sample per change)."),
    LinePlot("sack-vs-ns3", "ns3-sack", "SACK against ns-3 3.44 with --sack=1 on the comparison path",
             x="p", y=GOODPUT, hue="window",
             plot_title="ns3-compare path: lossy SACK (RFC 6675) and ns-3 --sack=1",
             xlabel="loss rate p (Bernoulli, data packets on BS → R)", ylabel="goodput",
             caption="scenarios/ns3-compare.toml with variant = \"sack\": S —10 Mb/s, 10 ms→ BS —2 Mb/s, "
                     "5 ms, loss p→ R, IW 10, min RTO 1 s, 100-packet queues, 100 s. Lines: our means "
                     "with 95 % CI bands for the two windows; dashed with crosses, in the same colour: ns-3 3.44's "
                     "means over 10 runs "
                     "(python/lossy/anchors/ns3/bulk.cc --sack=1).",
             curves=ns3_sack_curves, table=ns3_sack_table),
    table_of("sack-losses", "sack-losses", "Reno, NewReno, SACK and Sack1 under bursty and independent losses",
             sack_losses_table,
             caption="ns3-compare.toml with a 32 KB window, 60 s. bursty: Gilbert–Elliott p = 0.005, r = 0.3 "
                     "(bursts of 3.3 packets on average, every 200); p = 0.01 and 0.03: Bernoulli."),
    table_of("overshoot", "overshoot", "A slow-start overshoot of the queue at BS", overshoot_table,
             caption="ns3-compare.toml with no random loss and 16 MiB windows, 20 s: slow start overfills "
                     "the 100-packet queue at BS."),
]
