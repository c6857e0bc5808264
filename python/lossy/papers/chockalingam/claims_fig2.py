"""Fig. 2's claims (§IV): TCP Tahoe without a link layer, N_T = 512 and 1024 bytes,
f_d = 1, 10, 100 Hz, each point driven by the chain fitted to the fading channel for
its TCP packet size (as the paper); the fading-driven runs of the same sweep are the
probe of the packet-size claim, and each claim has a twin judged on them
(points.on_fading)."""

from __future__ import annotations

from typing import Callable, List

from ..bands import Band
from ..context import Context
from ..judge import Measurement
from ..model import Claim, Examples, Probe, Runs
from .examples import SNRS, fig
from .points import ON_CHAIN, db, driven, gap, off_the_ends, on_fading, per_point

FAST, SLOW = 100, 1
SHORT, LONG = "512 B", "1024 B"


def _correlation(drive: str = "markov") -> Callable[[Context], Measurement]:
    slow, fast = {"fd": SLOW}, {"fd": FAST}

    def measure(ctx: Context) -> Measurement:
        return per_point(ctx, "fig2", ["nt", "snr"], lambda p: gap(slow, fast),
                         lambda p: f"N_T {p[0]}, {db(p[1])}", keep=off_the_ends(slow, fast), drive=drive)
    return measure


def _sizes(fd: int, drive: str = "markov", keep: bool = True) -> Callable[[Context], Measurement]:
    short, long_ = {"nt": SHORT}, {"nt": LONG}

    def measure(ctx: Context) -> Measurement:
        return per_point(ctx, "fig2", ["snr"], lambda p: gap(short, long_), lambda p: db(p[0]),
                         keep=off_the_ends(short, long_) if keep else None, drive=drive, where={"fd": fd})
    return measure


def _fig2(norm: Callable[..., float]) -> Callable[[], Runs]:
    return fig("fig2", {"nt": [SHORT, LONG], "fd": [SLOW, FAST], "snr": SNRS}, norm)


DIRECTION = "no magnitude: direction only"

ON_CHAIN_CLAIMS: List[Claim] = [
    Claim("correlation-helps", "Correlated errors help TCP: at equal SNR, 1 Hz well above 100 Hz (Fig. 2)",
          driven("§IV, Fig. 2", ON_CHAIN),
          "for a given TCP packet size, throughput achieved at $f_d = 1$ Hz is significantly better than at "
          "$f_d = 100$ Hz",
          "normalized throughput at 1 Hz minus at 100 Hz, per TCP packet size and SNR (no link layer)",
          Band.above(0.0, f'"significantly better": {DIRECTION}', unit=""), _correlation(), ["fig2"],
          Examples(null=_fig2(lambda nt, fd, snr: 0.5),
                   faithful=_fig2(lambda nt, fd, snr: 0.8 if fd == SLOW else 0.3)),
          "every SNR where one of the two curves is above 0.05 and one below 0.9 of the link rate: off the "
          "floor and the ceiling, where one curve can stand above the other; in the full run 15–35 dB for both "
          "sizes (at 10 dB both curves are below 0.05)"),
    Claim("short-packets", "Short TCP packets help at 100 Hz (Fig. 2)", driven("§IV, Fig. 2", ON_CHAIN),
          "for a given average SNR the performance of TCP is better with short TCP packets (512 data bytes) than "
          "large TCP packets (1024 data bytes) on channels with low correlation ( $f_d = 100$ Hz)",
          "normalized throughput with N_T = 512 B minus 1024 B at 100 Hz, per SNR (no link layer; for the chain, "
          "the one fitted to each packet size)",
          Band.above(0.0, f'"better": {DIRECTION}', unit=""), _sizes(FAST), ["fig2"],
          Examples(null=_fig2(lambda nt, fd, snr: 0.4),
                   faithful=_fig2(lambda nt, fd, snr: 0.5 if nt == SHORT else 0.3)),
          "every SNR where one size's curve is above 0.05 and one below 0.9 of the link rate at 100 Hz; in the "
          "full run 25–35 dB (below 25 dB both sizes are under 0.05 at 100 Hz)"),
    Claim("packet-size-negligible-at-1hz", "At 1 Hz the TCP packet size makes a negligible difference (Fig. 2)",
          driven("§IV, Fig. 2", ON_CHAIN),
          "on highly correlated channels ( $f_d = 1$ Hz) the [...] effect of TCP packet size on the throughput "
          "performance is negligible",
          "normalized throughput with N_T = 512 B minus 1024 B at 1 Hz, per SNR (no link layer; for the chain, "
          "the one fitted to each packet size)",
          Band.word("negligible", centre=0.0, unit="", absolute=True), _sizes(SLOW, keep=False), ["fig2"],
          Examples(null=_fig2(lambda nt, fd, snr: 0.6 if nt == SHORT else 0.45),
                   faithful=_fig2(lambda nt, fd, snr: 0.6)),
          "every SNR of the sweep: a likeness holds or fails everywhere, saturated points included",
          probe=Probe("the two-state chain fitted per TCP packet size misstates the 1 Hz fading's memory "
                      "differently for 512 and 1024 bytes",
                      "the same difference on the runs driven by the fading channel itself (fig2, drive = fading)",
                      ["fig2"], _sizes(SLOW, drive="fading", keep=False))),
]

# The same statements judged on the fading channel itself (the sweep runs both drives).
CLAIMS: List[Claim] = [*ON_CHAIN_CLAIMS,
                       on_fading(ON_CHAIN_CLAIMS[0], _correlation("fading")),
                       on_fading(ON_CHAIN_CLAIMS[1], _sizes(FAST, drive="fading")),
                       on_fading(ON_CHAIN_CLAIMS[2], _sizes(SLOW, drive="fading", keep=False))]

__all__ = ["CLAIMS"]
