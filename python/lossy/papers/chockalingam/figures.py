"""Figs. 2–8 of Chockalingam et al.: TCP throughput normalized to the 1.5 Mbps link rate
against the mean SNR (Figs. 2, 5–8) or the mean burst length of link-packet errors
(Figs. 3–4), a line per curve of the paper; Figs. 2 and 5 drawn twice, from the fitted
Markov chain (as the paper) and from the fading channel directly, with the difference
between the two (the Markov approximation's error) as a table."""

from __future__ import annotations

from typing import Any, Callable, List

import pandas as pd

from ...summary import ok_rows, summarize
from ..figures import Figure, LinePlot, Panels, table_of
from ..figures.palette import Palette
from .setup import RATE_BPS
from .table1 import TABLE1


# The link layers of Fig. 5 in the order of the paper's legend (from no link layer to
# n_l = 128), and Fig. 4's attempts in the same looks.
PALETTE = Palette(["no LL", "n_l = 1", "n_l = 8", "n_l = 16", "n_l = 128"],
                  same={"n_l 1": "n_l = 1", "n_l 16": "n_l = 16", "n_l 128": "n_l = 128"})


def _drive(r: pd.DataFrame) -> Any:
    return r["drive"] if "drive" in r.columns else ""


def normalized(label: Callable[[pd.DataFrame], Any] = _drive) -> Callable[[pd.DataFrame], pd.DataFrame]:
    """The runs with throughput / link rate and a `curve` column naming each line."""
    def derive(runs: pd.DataFrame) -> pd.DataFrame:
        out = runs.assign(norm=runs["throughput"] / RATE_BPS)
        if "p_eg" in out.columns:  # Figs. 3–4: the chain's P_E and burst length
            out = out.assign(burst=(1 / out["p_eg"]).round(6),
                             p_e=(out["p_ge"] / (out["p_ge"] + out["p_eg"])).round(6))
        return out.assign(curve=label(out))
    return derive


def _only(column: str, value: Any, then: Callable[[pd.DataFrame], pd.DataFrame]) -> Callable[[pd.DataFrame], pd.DataFrame]:
    return lambda runs: then(runs[runs[column] == value])


def _vs_snr(key: str, sweep: str, title: str, where: Callable[[pd.DataFrame], pd.DataFrame],
            caption: str = "") -> LinePlot:
    return LinePlot(key, sweep, title, x="snr", y="norm", hue="curve", unit="", where=where,
                    xlabel="mean SNR (dB)", ylabel="normalized throughput", caption=caption, palette=PALETTE,
                    legend_title="")


def _fig2_label(r: pd.DataFrame) -> "pd.Series[Any]":
    return "N_T " + r["nt"].astype(str) + ", f_d " + r["fd"].map("{:g} Hz".format)


def _by(*columns: str) -> Callable[[pd.DataFrame], "pd.Series[Any]"]:
    def label(r: pd.DataFrame) -> "pd.Series[Any]":
        parts = [r[c].map(lambda v, c=c: f"{c} {v:g}" if isinstance(v, float) else f"{c} {v}") for c in columns]
        out = parts[0]
        for p in parts[1:]:
            out = out + ", " + p
        return out
    return label


def approximation_error(runs: pd.DataFrame, keys: List[str]) -> pd.DataFrame:
    """Markov-driven minus fading-driven mean throughput at each point (the fit's error)."""
    s = summarize(ok_rows(normalized()(runs)), keys + ["drive"], ["norm"])
    wide = s.pivot_table(index=keys, columns="drive", values="mean").reset_index()
    wide["markov − fading"] = wide["markov"] - wide["fading"]
    for c in ("markov", "fading", "markov − fading"):
        wide[c] = wide[c].map("{:.3f}".format)
    return wide


DRIVEN_BY = {"markov": "driven by the fitted Markov chain", "fading": "driven by the fading channel"}

CAPTION = ("scenarios/chockalingam.toml: 1.5 Mbps, no propagation delay, error-free ACKs; Tahoe, W_max 24 "
           "packets, MTO 550 ms, K = 3. Throughput normalized to the link rate; means with 95 % CI bands.")

FIGURES: List[Figure] = [
    TABLE1,
    Panels("fig2", "Fig. 2: TCP Tahoe without LL FEC/ARQ, N_T = 512/1024 B, f_d = 1/10/100 Hz",
           [_vs_snr(f"fig2-{d}", "fig2", DRIVEN_BY[d],
                    _only("drive", d, normalized(_fig2_label))) for d in ("markov", "fading")],
           sharey=True, caption=CAPTION + " (a) the two-state chain fitted to the fading channel for each TCP "
           "packet size, stepping once per packet slot (as the paper); (b) the fading channel itself."),
    table_of("fig2-error", "fig2", "Fig. 2: the Markov approximation's error",
             lambda runs: approximation_error(runs, ["nt", "fd", "snr"]),
             caption="Mean normalized throughput driven by the fitted chain minus driven by the fading channel."),
    LinePlot("fig3", "fig3", "Fig. 3: Tahoe with LL ARQ against the burst error length, n_l = 16",
             x="burst", y="norm", hue="curve", unit="", logx=True, where=normalized(_by("p_e")), legend_title="",
             xlabel="mean burst length (1 − q)⁻¹ (link packets)", ylabel="normalized throughput",
             caption=CAPTION + " N_T = 1024 B, N_L = 32 B; the link-packet errors follow Eq. (1)'s chain with "
             "the P_E and burst length given, one step per 32-byte slot."),
    LinePlot("fig4", "fig4", "Fig. 4: Tahoe with LL ARQ against the burst error length at P_E = 0.1",
             x="burst", y="norm", hue="curve", unit="", logx=True, where=normalized(_by("n_l")), legend_title="",
             palette=PALETTE,
             xlabel="mean burst length (1 − q)⁻¹ (link packets)", ylabel="normalized throughput",
             caption=CAPTION + " N_T = 1024 B, N_L = 32 B, n_l = 1, 16, 128."),
    Panels("fig5", "Fig. 5: Tahoe with and without LL ARQ at f_d = 10 Hz, N_T = 1024 B, N_L = 32 B",
           [_vs_snr(f"fig5-{d}", "fig5", DRIVEN_BY[d], _only("drive", d, normalized(lambda r: r["link"])))
            for d in ("markov", "fading")],
           sharey=True, caption=CAPTION + " (a) the fitted chain per link packet (per TCP packet without a "
           "link layer); (b) the fading channel itself."),
    table_of("fig5-error", "fig5", "Fig. 5: the Markov approximation's error",
             lambda runs: approximation_error(runs, ["link", "snr"]),
             caption="Mean normalized throughput driven by the fitted chain minus driven by the fading channel."),
    _vs_snr("fig6", "fig6", "Fig. 6: LL packet size N_L and attempts n_l at f_d = 10 Hz",
            normalized(_by("ll_packet", "n_l")),
            CAPTION + " N_T = 1024 B, no FEC; driven by the chain fitted for each link packet size."),
    _vs_snr("fig7", "fig7", "Fig. 7: LL FEC/ARQ (n_l = 16) with rate-1/2 and rate-1/3 BCH, f_d = 1/100 Hz",
            normalized(_by("code", "fd")),
            CAPTION + " N_T = 1024 B, N_L = 32 B (two BCH(255,131) or three BCH(255,87) codewords, so at most "
            "0.50 and 0.33 of the link rate carry data); driven by the fitted chain."),
    _vs_snr("fig8", "fig8", "Fig. 8: Tahoe and NewReno over rate-1/2 FEC with LL ARQ (n_l = 16)",
            normalized(_by("tcp", "fd")),
            CAPTION + " N_T = 1024 B, N_L = 32 B in two BCH(255,131) codewords; driven by the fitted chain."),
]
