"""`lossy bench`, the rows: the standard scenarios, what each scales to make its loop
long enough, and the configuration the anchors (htsim, ns-3) run beside it.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Dict, List, Optional


@dataclass(frozen=True)
class AnchorPath:
    """The ns3-compare path as the anchors' bulk-transfer programs take it."""
    rate_bps: int
    wired_rate_bps: int
    loss_p: float
    sack: bool
    # Anchors whose simulated time is fixed instead of calibrated, and why (shown in a note).
    fixed_sim_s: Dict[str, float] = field(default_factory=dict)


# A scheme's row held to its base row's speed (speed_vs) must reach this share of it per
# delivered packet: SACK's scoreboard beside NewReno (issue 9), and the congestion controls
# and queue disciplines of issue 29 beside Reno on drop-tail, BBR's excepted.
SPEED_FLOOR = 0.7
# Issue 29: "BBR with pacing within 1.5× Reno's cost per delivered packet".
BBR_COST_BOUND = 1.5


@dataclass
class Case:
    label: str
    scenario: str  # file name in the scenarios directory, or a generator's name
    overrides: Dict[str, Any] = field(default_factory=dict)
    generate: Optional[Dict[str, Any]] = None  # arguments of generate.base_station, instead of a file
    speed_vs: Optional[str] = None  # the label of a row whose speed this one is held to
    speed_floor: float = SPEED_FLOOR  # the least share of speed_vs's speed it must reach
    # What grows to make the loop last: "duration" (simulated seconds) or a transfer's
    # size in MB (an override key), from `base_size`.
    size_key: str = "duration"
    base_size: float = 100.0
    anchors: Optional[AnchorPath] = None
    # A synthetic Mahimahi trace of about this mean rate (bit/s) as `links.1`'s forward
    # capacity, written by the bench into its temporary directory (never a shipped trace:
    # Mahimahi's are GPL-3+).
    trace_bps: Optional[float] = None

    @property
    def size_unit(self) -> str:
        return "s" if self.size_key == "duration" else "MB"

    def at_size(self, size: float) -> "Case":
        """This case with its size set (an override, or the generator's duration)."""
        value = f"{size:g} {self.size_unit}"
        if self.generate is not None:
            return replace(self, generate={**self.generate, "duration": value})
        return replace(self, overrides={**self.overrides, self.size_key: value})


# ns-3 at 100 Mbps without SACK costs more per packet the longer it runs (its transmit
# buffer scans with 16 MiB buffers; python/lossy/anchors/ns3/README.md measures 448 µs per
# packet over 20 s, 519 µs over 40 s, against ~60 µs at 2 Mbps): fixed at 20 s, a short
# study as an ns-3 user runs it, rather than sized up to a run that would take minutes
# per process.
NS3_FAST_NEWRENO_S = 20.0


def _with_sack(case: Case) -> Case:
    """The same path with SACK (RFC 6675) on both sides, held to the NewReno row's speed.
    ns-3's SACK does not slow down with time: calibrated as the other rows."""
    assert case.anchors is not None
    return replace(case, label=f"{case.label} SACK", overrides={**case.overrides, "flows.0.tcp.variant": "sack"},
                   speed_vs=case.label, anchors=replace(case.anchors, sack=True, fixed_sim_s={}))


# Issue 29's schemes, each on the ns3-compare 2 Mbps path beside its Reno/drop-tail row
# (the scenario's NewReno recovery with Reno's window rule, 100-packet drop-tail queues):
# the congestion controls by `tcp.cc` (BBRv1 paces and reads rate samples; CUBIC's
# default HyStart reads them too), the queue disciplines on the lossy bottleneck's queue
# at their RFC defaults. BBRv3 gets its row when `tcp.cc = "bbr3"` exists.
CONGESTION_CONTROLS = [("CUBIC", "cubic"), ("BBRv1", "bbr"), ("BBRv3", "bbr3"), ("Vegas", "vegas"), ("Westwood+", "westwood")]
QUEUE_DISCIPLINES = [("CoDel", {"kind": "codel"}), ("FQ-CoDel", {"kind": "fq_codel"}), ("PIE", {"kind": "pie"}),
                     ("drop-head", {"kind": "drop_head", "limit": "100 packets"})]


def _schemes_beside(base: Case) -> List[Case]:
    """One row per congestion control and per queue discipline, on `base`'s path and
    held to its speed (no anchors: their programs run NewReno on drop-tail)."""
    rows = []
    for name, kind in CONGESTION_CONTROLS:
        floor = 1 / BBR_COST_BOUND if kind in ("bbr", "bbr3") else SPEED_FLOOR
        rows.append(replace(base, label=f"{base.label}, {name}", overrides={**base.overrides, "flows.0.tcp.cc": kind},
                            speed_vs=base.label, speed_floor=floor, anchors=None))
    for name, queue in QUEUE_DISCIPLINES:
        rows.append(replace(base, label=f"{base.label}, {name}", overrides={**base.overrides, "links.1.queue": queue},
                            speed_vs=base.label, anchors=None))
    return rows


# Issue 30: a trace link beside the same path at the same constant rate, at a cellular
# rate (TMobile-LTE-short.down's 16.7 Mbit/s) and at Lumos5G's 5G peak (1.9 Gbit/s): CUBIC
# on the ns3-compare path without loss, the last hop's forward direction the trace (or a
# constant-rate table), its reverse and the first hop faster.
# At 1.9 Gbit/s the path's 100-packet queues and 16 MiB window hold CUBIC far below the
# rate (a trace's opportunities come in bursts of ~158 a millisecond, and so do the ACKs
# and the sender's packets): deeper queues and window there, so the row carries ~1.9 Gbit/s.
TRACE_RATES = [("16 Mbit/s", 16e6, "100 Mbps", {}),
               ("1.9 Gbit/s", 1.9e9, "10 Gbps",
                {"links.0.queue": "10000 packets", "links.1.queue": "10000 packets", "flows.0.tcp.max_window": "64 MiB"})]


def _trace_rows(base: float, quick: bool) -> List[Case]:
    """Each rate's pair of rows; `--quick` keeps the 16 Mbit/s pair only (the 1.9 Gbit/s
    pair alone took 17 s of a quick bench's ~40 s)."""
    rows = []
    for name, bps, fast, deep in TRACE_RATES[:1] if quick else TRACE_RATES:
        common = {"links.0.rate": fast, "links.1.rate": fast, "links.1.loss.p": 0.0, "flows.0.tcp.cc": "cubic", **deep}
        constant = Case(f"constant {name} (capacity table)", "ns3-compare.toml",
                        {**common, "links.1.capacity": {"kind": "constant", "rate": f"{bps:.0f} bps"}}, base_size=base)
        rows += [constant, replace(constant, label=f"Mahimahi trace {name}", overrides=common, trace_bps=bps)]
    return rows


# Opportunities of 1504 bytes (Mahimahi's PACKET_SIZE, link_queue.hh).
_OPPORTUNITY_BITS = 1504 * 8


def write_synthetic_trace(path: Path, mean_bps: float, duration_ms: int = 2000) -> None:
    """A Mahimahi trace of `duration_ms` whose rate swings between half and one and a half
    times `mean_bps` over each 500 ms (cumulative opportunities k·(t + 0.5·sin(2πt/500)·500/2π),
    rounded down: never decreasing, the mean exact at the end), the last line at
    `duration_ms`."""
    import math

    k = mean_bps / _OPPORTUNITY_BITS / 1000.0  # opportunities per millisecond

    def cum(t: int) -> int:
        return math.floor(k * (t + 0.5 * math.sin(2 * math.pi * t / 500) * 500 / (2 * math.pi)) + 1e-9)

    lines = []
    for ms in range(1, duration_ms + 1):
        count = cum(ms) - cum(ms - 1)
        if ms == duration_ms:
            count = max(count, 1)
        lines.append(f"{ms}\n" * count)
    path.write_text("".join(lines), encoding="ascii")


def standard_cases(quick: bool) -> List[Case]:
    """The standard scenarios, each at its base size (calibrated up to a 1 s loop by
    bench): ns3-compare at 2 and 100 Mbps as in the ns-3 anchor's README (p = 0.01 on the
    last hop), issue 29's congestion controls and queue disciplines on the 2 Mbps path,
    issue 30's trace links beside constant rates, and the scale case, 10,000 bulk flows through one base station (1,000 with
    --quick)."""
    base = 20.0 if quick else 100.0
    hosts = 1_000 if quick else 10_000
    common = {"links.1.loss.p": 0.01}
    slow = Case("ns3-compare 2 Mbps", "ns3-compare.toml",
                {**common, "links.0.rate": "10 Mbps", "links.1.rate": "2 Mbps"}, base_size=base,
                anchors=AnchorPath(2_000_000, 10_000_000, 0.01, False))
    fast = Case("ns3-compare 100 Mbps", "ns3-compare.toml",
                {**common, "links.0.rate": "1 Gbps", "links.1.rate": "100 Mbps"}, base_size=base,
                anchors=AnchorPath(100_000_000, 1_000_000_000, 0.01, False, {"ns3": NS3_FAST_NEWRENO_S}))
    return [
        Case("one-hop", "one-hop.toml", base_size=base),
        Case("last-hop", "last-hop.toml", base_size=base),
        slow, _with_sack(slow), *_schemes_beside(slow), fast, _with_sack(fast), *_trace_rows(base, quick),
        # Chockalingam's link: Rayleigh fading per bit at 20 dB and 10 Hz, 32-byte link
        # packets in BCH(255,131) codewords, 16 attempts each; TCP Tahoe, 1024-byte packets.
        Case("fading + BCH(255,131) + ARQ", "chockalingam.toml",
             {"links.0.loss.mean_snr_db": 20, "links.0.loss.doppler_hz": 10,
              "links.0.link_layer": {"kind": "arq", "payload": "32 B", "attempts": 16,
                                     "coding": {"code": "bch", "n": 255, "k": 131}}}, base_size=base),
        # Shagdar's topology 1: TCP from a station over an 802.11b WLAN (DCF with RTS/CTS,
        # retries) and a wire, DPSK errors at the SNR; EWLN where it matters (9-10 dB: at
        # 8.5 dB almost no frame gets through and a run delivers nothing to time).
        Case("802.11b WLAN, 9.5 dB, EWLN", "shagdar-t1.toml",
             {"wlans.0.loss.snr_db": 9.5, "wlans.0.ewln": True, "flows.0.tcp.ewln": True}, base_size=base),
        Case("802.11b WLAN, 11.5 dB", "shagdar-t1.toml", {"wlans.0.loss.snr_db": 11.5}, base_size=base),
        # Botoș's path: a FECTCP transfer over a 1 Mbit/s hop at 10 % segment loss, its
        # decoding by the measured RaptorQ model (the fast mode); it ends when decoded,
        # so the file's size is what grows. The shipped scenario's 4,000 s would cut a
        # grown transfer short (no goodput, and a calibration that measures the cut):
        # the duration is lifted far beyond any size the calibration picks.
        Case("FECTCP, 1 Mbit/s, 10 % loss", "botos.toml",
             {"links.2.loss.p": 0.1, "flows.0.fectcp": {}, "duration": "1000000 s"},
             size_key="flows.0.app.size", base_size=2.0 if quick else 10.0),
        # Flows start 0.1 ms apart, so all of them run for at least 9 of the 10 s.
        Case(f"{hosts:,} flows via one BS{' (quick)' if quick else ''}", "base_station",
             generate={"hosts": hosts, "duration": "10 s", "stagger": "0.1 ms", "eln": True}, base_size=10.0),
    ]


def scenario_file(case: Case, scenarios_dir: Path, tmp: Path) -> Path:
    """The file the child runs: a shipped scenario, or a generated one written to tmp,
    so that both take the same path through the child."""
    if case.generate is not None:
        from .generate import base_station, to_toml

        path = tmp / f"{case.scenario}-{case.generate['hosts']}-{case.generate['duration'].replace(' ', '')}.toml"
        path.write_text(to_toml(base_station(**case.generate)), encoding="utf-8")
        return path
    path = scenarios_dir / case.scenario
    if not path.is_file():
        raise FileNotFoundError(errno.ENOENT, "no such scenario file", str(path))
    if case.trace_bps is not None:
        return _with_trace(path, case.trace_bps, tmp)
    return path


def _with_trace(path: Path, bps: float, tmp: Path) -> Path:
    """`path` with a synthetic trace of `bps` as `links.1`'s forward capacity, in tmp."""
    import tomllib

    from .generate import to_toml

    trace = tmp / f"synthetic-{bps:.0f}bps.down"
    if not trace.exists():
        write_synthetic_trace(trace, bps)
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    doc["links"][1]["capacity"] = {"kind": "mahimahi", "file": str(trace)}
    out = tmp / f"{path.stem}-trace-{bps:.0f}bps.toml"
    out.write_text(to_toml(doc), encoding="utf-8")
    return out


def describe(case: Case, path: Path) -> str:
    if case.generate is None:
        return str(path)
    args = ", ".join(f"{k}={v!r}" for k, v in case.generate.items())
    return f"lossy.generate.{case.scenario}({args})"


def find_scenarios(given: Optional[Path]) -> Path:
    from .shipped import scenarios_dir

    candidates = [given] if given else [scenarios_dir()]  # package data, from any directory
    for path in candidates:
        if path is not None and path.is_dir():
            return path
    raise FileNotFoundError(errno.ENOENT, "no scenarios directory; pass --scenarios DIR",
                            str(candidates[0]))
