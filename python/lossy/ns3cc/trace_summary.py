"""The cwnd trace's numbers that the two simulators' traces are compared by (issue 29:
BBR's ProbeRTT every 10 s at a window of 4 segments, CUBIC's sawtooth), computed the
same way from either side's (time, cwnd in bytes) steps: ns-3's from cc.cc's
`--trace` lines (TcpSocketBase's "CongestionWindow" trace source, counters.h), lossy's
from its `cwnd` trace. Both are step functions: a value holds until the next change.

- `cwnd_min_segs`: the least value the window is set to after the first second (slow
  start's rise left out; NaN if it does not change after it), in segments: 4 where BBR's ProbeRTT runs (tcp-bbr.cc m_minPipeCwnd; draft-cardwell-
  iccrg-bbr-congestion-control-00 §4.3.5).
- `probe_rtt_count`, `probe_rtt_mean_gap_s`: entries into a window of at most 4
  segments from above, one per second at most (ProbeRTT holds it 200 ms and a round,
  so the window may bounce at the floor within one episode), and their mean spacing.
- `cwnd_cuts`, `cwnd_cut_mean_gap_s`: the window falling to less than CUT of its last
  value but above the 4-segment floor (a multiplicative decrease: CUBIC's β = 0.7,
  Reno's 0.5; not a small step of BBR's gain cycle, nor a fall to the floor, which is
  ProbeRTT's or a timeout's: inside ProbeRTT ns-3's window bounces between 6 and 4
  segments on every ACK), after the first second (slow start's exit, where the two
  simulators' overshoots differ, left out), and the mean time between them: the
  sawtooth's period.
- `pacing_mean_bps`: the time-weighted pacing rate from its first value to the run's
  end, where the control paces (ns-3's TcpSocketState "PacingRate" trace source; lossy's
  `pacing` trace, the rate the control asks for at each change).
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

SETTLE_S = 1.0  # slow start's first second is left out of the minimum
PROBE_RTT_SEGS = 4  # tcp-bbr.cc m_minPipeCwnd, in segments
EPISODE_S = 1.0  # falls to the floor within this of the last are one ProbeRTT
CUT = 0.85  # a fall below this fraction of the last value is a multiplicative decrease

Steps = Sequence[Tuple[float, float]]  # (time s, value), in time order


def _mean_gap(times: List[float]) -> float:
    gaps = [b - a for a, b in zip(times, times[1:])]
    return sum(gaps) / len(gaps) if gaps else float("nan")


def time_mean(steps: Steps, end: float) -> float:
    """The step function's mean over [first step, end]; NaN without steps."""
    if not steps or end <= steps[0][0]:
        return float("nan")
    area = sum(v * (min(t1, end) - t0) for (t0, v), (t1, _) in zip(steps, steps[1:]) if t0 < end)
    last_t, last_v = steps[-1]
    area += last_v * max(0.0, end - last_t)
    return area / (end - steps[0][0])


def summary(cwnd: Steps, mss: int, end: float, pacing: Optional[Steps] = None) -> Dict[str, float]:
    """The numbers above from one run's cwnd steps (bytes) and, if any, pacing steps (b/s)."""
    floor = PROBE_RTT_SEGS * mss
    probes: List[float] = []
    cuts: List[float] = []
    least = float("inf")
    for (_, before), (t, now) in zip(cwnd, cwnd[1:]):
        if t >= SETTLE_S:
            least = min(least, now)
        if now <= floor < before and (not probes or t - probes[-1] > EPISODE_S):
            probes.append(t)
        if t >= SETTLE_S and floor < now < CUT * before:
            cuts.append(t)
    return {"cwnd_min_segs": least / mss if least < float("inf") else float("nan"),
            "probe_rtt_count": float(len(probes)), "probe_rtt_mean_gap_s": _mean_gap(probes),
            "cwnd_cuts": float(len(cuts)), "cwnd_cut_mean_gap_s": _mean_gap(cuts),
            "pacing_mean_bps": time_mean(pacing, end) if pacing else float("nan")}


LOSSY_TRACES = ("cwnd", "pacing")  # the lossy traces the numbers above are made from


def lossy_steps(traces: Mapping[str, Mapping[str, Iterable[Any]]]) -> Tuple[List[Tuple[float, float]], List[Tuple[float, float]]]:
    """A one-flow lossy run's cwnd steps (bytes) and pacing steps (b/s; none where the
    control does not pace) from its `cwnd` and `pacing` traces."""
    cwnd, pacing = traces["cwnd"], traces.get("pacing", {"time_s": [], "pacing_bps": []})
    return (list(zip((float(t) for t in cwnd["time_s"]), (float(c) for c in cwnd["cwnd_bytes"]))),
            list(zip((float(t) for t in pacing["time_s"]), (float(r) for r in pacing["pacing_bps"]))))


def read_ns3_trace(text: str) -> Tuple[List[Tuple[float, float]], List[Tuple[float, float]]]:
    """cc.cc's `--trace` file ("t cwnd BYTES", "t pacing BPS", "t state NAME" lines) as
    its cwnd steps and pacing steps."""
    cwnd: List[Tuple[float, float]] = []
    pacing: List[Tuple[float, float]] = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in ("cwnd", "pacing"):
            (cwnd if fields[1] == "cwnd" else pacing).append((float(fields[0]), float(fields[2])))
    return cwnd, pacing
