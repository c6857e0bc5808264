"""modern-cc's figures and tables: goodput and p95 one-way delay against the loss rate,
a line per congestion control (log x); the controls with ELN and Snoop; the AQM sweep's
goodput against p95 delay; each with its table of means and 95 % CIs."""

from __future__ import annotations

from typing import Callable, List, Sequence

import pandas as pd

from ...formatting import mean_ci
from ...summary import ok_rows, summarize
from ..figures import Figure, LinePlot, Panels, table_of
from ..figures.palette import Palette
from .sweeps import CCS, CHANNELS, DELAY_P95, GOODPUT, QUEUES, SCHEMES, SOJOURN_P95, TIMEOUTS, WLAN_SCHEMES

PALETTE = Palette([*CCS, *QUEUES, *dict.fromkeys([*SCHEMES, *WLAN_SCHEMES])])

PATH = ("lossy_last_hop.toml: S —100 Mbit/s, 20 ms→ BS —10 Mbit/s, 5 ms, Bernoulli p→ MH, a 60-packet (one "
        "BDP) queue at BS, MSS 1000 B, 16 MiB buffers; Reno, NewReno and SACK under Reno's window rule, the "
        "others with SACK recovery. Means with 95 % CI bands.")


def _mean_table(axes: Sequence[str], metrics: Sequence[str], scales: Sequence[float],
                labels: Sequence[str]) -> Callable[[pd.DataFrame], pd.DataFrame]:
    """A table of each metric's mean ± 95 % CI half-width (÷ its scale) per point of `axes`;
    a metric the runs lack (a column the core does not write yet) shows a dash."""
    def build(runs: pd.DataFrame) -> pd.DataFrame:
        ok = ok_rows(runs)
        present = [m for m in metrics if m in ok.columns and ok[m].notna().any()]
        s = summarize(ok, list(axes), present)
        rows = []
        for key, group in s.groupby(list(axes), sort=True):
            key = key if isinstance(key, tuple) else (key,)
            row = dict(zip(axes, key))
            for m, scale, label in zip(metrics, scales, labels):
                hit = group[group["metric"] == m]
                row[label] = mean_ci(float(hit["mean"].iloc[0]), float(hit["half_width"].iloc[0]), scale=scale) \
                    if len(hit) else "-"
            rows.append(row)
        return pd.DataFrame(rows)
    return build


def on_channel(channel: str) -> Callable[[pd.DataFrame], pd.DataFrame]:
    return lambda runs: runs[runs["channel"] == channel]


CHANNELS_CAPTION = (
    "lossy_last_hop.toml with the last hop's channel at about 2 % packet loss: Bernoulli p = 0.02; Gilbert–Elliott "
    "p = 0.006, r = 0.3 (bursts of 3.3 packets, 1.96 % lost); Rayleigh fading, 25 dB mean SNR, f_d = 10 Hz, BPSK. "
    "e2e: no remedy; eln and snoop: the agent at BS; arq: link-layer ARQ on the last hop (128-byte link packets, 8 "
    "transmissions, in order). wlan_last_hop.toml: the last hop an 802.11b WLAN at 2 Mbit/s with RTS/CTS and 4 "
    "attempts (e2e), DPSK errors at 10 dB; no-arq: one attempt per frame. Means with 95 % CI error bars.")

LOSS_TABLE = _mean_table(["p", "cc"], [GOODPUT, DELAY_P95], [1e6, 1.0], ["goodput (Mb/s, 95 % CI)", "p95 one-way delay (ms)"])

FIGURES: List[Figure] = [
    LinePlot("goodput-vs-loss", "loss", "Goodput against random loss, every congestion control",
             x="p", y=GOODPUT, hue="cc", logx=True, logy=True, palette=PALETTE,
             xlabel="loss rate p (Bernoulli, BS → MH)", ylabel="goodput", caption=PATH,
             table=LOSS_TABLE),
    LinePlot("delay-vs-loss", "loss", "95th-percentile one-way delay against random loss",
             x="p", y=DELAY_P95, hue="cc", logx=True, palette=PALETTE, unit="ms",
             xlabel="loss rate p (Bernoulli, BS → MH)", ylabel="p95 one-way delay",
             caption=PATH + " The delay is the flow's data packets' one-way delay, sender to receiver."),
    Panels("channels", "The seeds' remedies on the seeds' channels: goodput of every control",
           [LinePlot(f"channels-{c}", "channels", f"{c} (about 2 % loss)", x="cc", y=GOODPUT, hue="scheme",
                     logy=True, palette=PALETTE, errorbars=True, xlabel="congestion control", ylabel="goodput",
                     where=on_channel(c), legend_title="")
            for c in CHANNELS]
           + [LinePlot("channels-wlan", "wlan", "802.11b WLAN, DPSK at 10 dB", x="cc", y=GOODPUT, hue="scheme",
                       logy=True, palette=PALETTE, errorbars=True, xlabel="congestion control", ylabel="goodput",
                       legend_title="")],
           caption=CHANNELS_CAPTION),
    table_of("channels-table", "channels", "The seeds' remedies on the Bernoulli, Gilbert and Rayleigh channels",
             _mean_table(["channel", "scheme", "cc"], [GOODPUT, DELAY_P95, TIMEOUTS], [1e6, 1.0, 1.0],
                         ["goodput (Mb/s, 95 % CI)", "p95 one-way delay (ms)", "timeouts per run"]),
             caption=CHANNELS_CAPTION),
    table_of("wlan-table", "wlan", "The seeds' remedies on the 802.11b WLAN",
             _mean_table(["scheme", "cc"], [GOODPUT, DELAY_P95, TIMEOUTS], [1e6, 1.0, 1.0],
                         ["goodput (Mb/s, 95 % CI)", "p95 one-way delay (ms)", "timeouts per run"]),
             caption=CHANNELS_CAPTION),
    LinePlot("aqm-goodput-vs-delay", "aqm", "Deep buffer: goodput against the bottleneck's p95 sojourn, each run",
             x=SOJOURN_P95, y=GOODPUT, hue="queue", logx=True, palette=PALETTE,
             where=lambda runs: runs[runs["cc"] == "cubic"],
             xlabel="p95 sojourn at BS → MH (ms)", ylabel="goodput",
             caption="The path above with no random loss and a 240-packet (200 ms) buffer at BS: DropTail, CoDel "
                     "(RFC 8289, target 5 ms, interval 100 ms) and PIE (RFC 8033, target 15 ms), CUBIC. Each "
                     "point is one run (the x axis is a measured quantity, so no band)."),
    table_of("aqm", "aqm", "Deep buffer: DropTail, CoDel and PIE",
             _mean_table(["queue", "cc"], [GOODPUT, SOJOURN_P95, DELAY_P95], [1e6, 1.0, 1.0],
                         ["goodput (Mb/s, 95 % CI)", "p95 sojourn (ms)", "p95 one-way delay (ms)"]),
             caption="240-packet buffer at BS, no random loss, 60 s runs."),
]

__all__ = ["FIGURES"]
