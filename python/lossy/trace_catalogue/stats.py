"""What `lossy traces info` says about a trace, computed here from the file (not by the
core): duration, mean capacity, percentiles of the capacity over 1-second bins, outage
seconds (bins with no capacity), and the number of opportunities or samples.

The readings, per format:

- `mahimahi` (ravinet/mahimahi traces/README and src/frontend/link_queue.cc): each line is
  an opportunity at an integer millisecond from the trace's start; the trace lasts its
  last timestamp T and repeats with that period. Capacity counts one 1500-byte packet an
  opportunity (traces/README: "an opportunity for one 1500-byte packet"; a full-size IP
  packet takes exactly one): mean = opportunities x 1500 x 8 bit / T, the issue's 16.70
  Mbit/s for TMobile-LTE-short.down. link_queue.hh counts 1504 bytes an opportunity
  ("default max TUN payload size"), which `mean_mbps_1504` gives (16.75 there). The bins are the whole seconds
  (k, k+1] s from the start of the repeating trace, as many as T holds (at least one: a
  trace shorter than a second is repeated to fill it); a last partial second is left out
  of the bins (not of the mean).
- `rate_schedule` (the Lumos5G logs: `<second> <Mbit/s>` a line): one sample a second in
  file order, each holding for its second (the first column is not read: in 175 of the
  296 logs it starts at 0 or later, or repeats or skips a second). Duration = samples x
  1 s, mean = the samples' mean, the bins are the samples.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, NamedTuple

from .errors import CatalogueError

if TYPE_CHECKING:
    import numpy as np

# traces/README: one 1500-byte packet an opportunity; link_queue.hh: PACKET_SIZE = 1504.
PACKET_BYTES = 1500
OPPORTUNITY_BYTES = 1504
PERCENTILES = (5, 50, 95)


class TraceStats(NamedTuple):
    format: str
    duration_s: float
    events: int            # opportunities (mahimahi) or samples (rate_schedule)
    mean_mbps: float       # mahimahi: 1500-byte packets
    mean_mbps_1504: float  # mahimahi: 1504 bytes an opportunity (link_queue.cc); rate_schedule: the same as mean_mbps
    percentiles_mbps: Dict[int, float]   # of the 1-second bins
    bins: int
    outage_s: int          # bins with no capacity
    max_mbps: float

    @property
    def events_word(self) -> str:
        return "opportunities" if self.format == "mahimahi" else "samples"

    def to_dict(self) -> Dict[str, Any]:
        return {"format": self.format, "duration_s": self.duration_s, self.events_word: self.events,
                "mean_mbps": self.mean_mbps, "mean_mbps_1504": self.mean_mbps_1504, **{f"p{p}_mbps": v for p, v in self.percentiles_mbps.items()},
                "max_mbps": self.max_mbps, "bins_1s": self.bins, "outage_s": self.outage_s}


def trace_stats(path: Path, fmt: str) -> TraceStats:
    if fmt == "mahimahi":
        return _mahimahi(path)
    if fmt == "rate_schedule":
        return _rate_schedule(path)
    raise CatalogueError(f"{path}: format {fmt!r} is not one lossy reads; use mahimahi or rate_schedule")


def _lines(path: Path) -> List[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    if not lines:
        raise CatalogueError(f"{path}: the trace is empty")
    return lines


def _mahimahi(path: Path) -> TraceStats:
    import numpy as np

    lines = _lines(path)
    try:
        ms = np.array(lines, dtype=np.int64)
    except ValueError:
        for number, line in enumerate(lines, 1):
            if not line.strip().isdigit():
                raise CatalogueError(f"{path}:{number}: {line[:40]!r} is not a whole number of milliseconds "
                                     "(a Mahimahi trace has one a line)") from None
        raise
    drops = np.flatnonzero(np.diff(ms) < 0)
    if drops.size:
        raise CatalogueError(f"{path}:{drops[0] + 2}: the timestamps decrease ({ms[drops[0]]} then "
                             f"{ms[drops[0] + 1]}); a Mahimahi trace's never do")
    period = int(ms[-1])
    if period <= 0:
        raise CatalogueError(f"{path}: the trace lasts 0 ms (its last timestamp); it must last longer")
    seconds = max(1, period // 1000)
    # The repeating trace's opportunities over the bins' span: cycle k is the file shifted by k*T.
    cycles = math.ceil(seconds * 1000 / period) + 1
    times = (ms[None, :] + period * np.arange(cycles, dtype=np.int64)[:, None]).ravel()
    # Bin k holds the opportunities at (1000k, 1000(k+1)] ms: "1" (one a millisecond, from
    # 1 ms on) gives 1000 in every second, as its 12 Mbit/s says.
    inside = times[(times > 0) & (times <= seconds * 1000)]
    counts = np.bincount((inside - 1) // 1000, minlength=seconds)
    per_bin = counts * (PACKET_BYTES * 8 / 1e6)
    per_second = ms.size / (period / 1000)
    return _summary("mahimahi", period / 1000, int(ms.size), per_second * PACKET_BYTES * 8 / 1e6,
                    per_second * OPPORTUNITY_BYTES * 8 / 1e6, per_bin)


def _rate_schedule(path: Path) -> TraceStats:
    import numpy as np

    rates = []
    for number, line in enumerate(_lines(path), 1):
        fields = line.split()
        try:
            if len(fields) != 2:
                raise ValueError
            rate = float(fields[1])
            float(fields[0])
        except ValueError:
            raise CatalogueError(f"{path}:{number}: {line[:40]!r} is not `<second> <Mbit/s>`") from None
        if not math.isfinite(rate) or rate < 0:
            raise CatalogueError(f"{path}:{number}: the rate {fields[1]} is not a non-negative number of Mbit/s")
        rates.append(rate)
    per_bin = np.array(rates)
    mean = float(per_bin.mean())
    return _summary("rate_schedule", float(per_bin.size), int(per_bin.size), mean, mean, per_bin)


def _summary(fmt: str, duration_s: float, events: int, mean_mbps: float, mean_mbps_1504: float,
             per_bin: "np.ndarray") -> TraceStats:
    import numpy as np

    percentiles = {p: float(np.percentile(per_bin, p)) for p in PERCENTILES}
    return TraceStats(format=fmt, duration_s=duration_s, events=events, mean_mbps=float(mean_mbps),
                      mean_mbps_1504=float(mean_mbps_1504),
                      percentiles_mbps=percentiles, bins=int(per_bin.size), outage_s=int((per_bin == 0).sum()),
                      max_mbps=float(per_bin.max()))
