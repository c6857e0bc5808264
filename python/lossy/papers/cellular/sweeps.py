"""cellular-bufferbloat's sweeps on the Mahimahi cellular traces (ravinet/mahimahi @
ae477d4, traces/; through the catalogue, `mahimahi:<name>`):

- `aqm`: per trace, CUBIC and BBRv1 over the base station's deep DropTail buffer, over
  CoDel and over PIE with the same limit (RFC 8289's and RFC 8033's defaults);
- `lossy-hop`: the seeds' remedies on a lossy cellular hop: 1 % Bernoulli loss on the
  downlink after the trace serves it, with no remedy, link-layer ARQ on that hop, or
  ELN at the base station, over the deep DropTail buffer;
- `probe-constant`: the probe of every claim: CUBIC
  over DropTail, CoDel and PIE on a constant-rate downlink at each trace's mean rate
  (the trace's swings and outages removed);
- `probe-steady`: the step on top of it for the AQM claims: the uplink (the ACKs' way)
  at a constant rate too, the .up trace's mean (its pauses removed);
- `probe-floor`: the last step of PIE's probe: on top of `probe-steady`, segments small
  enough that PIE's floor of 2 queued packets (RFC 8033 §4.1) fits in its target, on the
  traces whose 1500-byte packets do not (Verizon-EVDO-driving's).

The traces are the five drives with both directions in the mirror (TMobile-LTE-driving's
.up is over 4 MiB and not in it): the .down trace is the downlink (the data), the .up
the uplink (the ACKs). "Deep": the buffer holds 2 s at the trace's mean downlink rate
(MEAN_BPS, measured from the files; a test recomputes it), a buffer of seconds, which is
what bufferbloat is, whatever the trace's rate.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

from ..model import SweepPlan

SCENARIO = str(Path(__file__).with_name("cellular_path.toml"))  # package data, found from any directory

# Each trace's mean downlink rate (bit/s): lines × 1504 B × 8 ÷ the last timestamp, the
# rate the wrapping trace offers (tests/python/test_cellular_bufferbloat.py recomputes it).
MEAN_BPS: Dict[str, int] = {
    "ATT-LTE-driving": 5187028,
    "TMobile-LTE-short": 16747297,
    "TMobile-UMTS-driving": 2025092,
    "Verizon-EVDO-driving": 521889,
    "Verizon-LTE-short": 5040978,
}
TRACES = list(MEAN_BPS)
# The same for each trace's uplink (.up) file, the rate `probe-steady` gives the ACKs' way.
UP_MEAN_BPS: Dict[str, int] = {
    "ATT-LTE-driving": 835858,
    "TMobile-LTE-short": 13353887,
    "TMobile-UMTS-driving": 945742,
    "Verizon-EVDO-driving": 844927,
    "Verizon-LTE-short": 5961598,
}
BUFFER_SECONDS = 2.0
MSS, HEADER_BYTES = 1448, 52  # the path's segments and their headers (cellular_path.toml)
PACKET_BITS = (MSS + HEADER_BYTES) * 8


def buffer_packets(trace: str) -> int:
    """The deep buffer of a trace: BUFFER_SECONDS at its mean rate, in 1500-byte packets."""
    return round(MEAN_BPS[trace] * BUFFER_SECONDS / PACKET_BITS)


# links.1 in the file's numbering (set paths) is BS -- MH; in the summary's per-direction
# numbering BS -> MH is links.2 (after S -> BS, BS -> S).
HOP = "links.1"
BOTTLENECK = 2

GOODPUT, RTT_P95, OWD_P95 = "goodput", "rtt_p95", "owd_p95"
SOJOURN_MEAN, SOJOURN_P95 = "sojourn_mean", "sojourn_p95"
METRICS: Dict[str, str] = {
    GOODPUT: "flows.0.goodput_bps",
    RTT_P95: "flows.0.rtt_p95_ms",
    OWD_P95: "flows.0.owd_p95_ms",
    "timeouts": "flows.0.timeouts",
    SOJOURN_MEAN: f"links.{BOTTLENECK}.sojourn_mean_ms",
    SOJOURN_P95: f"links.{BOTTLENECK}.sojourn_p95_ms",
    "queue_drops": f"links.{BOTTLENECK}.queue_drops",
    "channel_losses": f"links.{BOTTLENECK}.channel_losses",
}

# The trace pair and its buffer move together: one zip row per trace.
TRACE_ZIP: Dict[str, Any] = {
    "trace": {"path": f"{HOP}.capacity.trace", "values": [f"mahimahi:{t}.down" for t in TRACES]},
    "uplink": {"path": f"{HOP}.reverse_capacity.trace", "values": [f"mahimahi:{t}.up" for t in TRACES]},
    "buffer": {"path": f"{HOP}.queue.limit", "values": [f"{buffer_packets(t)} packets" for t in TRACES]},
}

CCS: Dict[str, Dict[str, Any]] = {"cubic": {"flows.0.tcp.cc": "cubic"}, "bbr": {"flows.0.tcp.cc": "bbr"}}
QUEUES: Dict[str, Dict[str, Any]] = {q: {f"{HOP}.queue.kind": kind}
                                     for q, kind in (("droptail", "drop_tail"), ("codel", "codel"), ("pie", "pie"))}
REPLICATIONS, QUICK_REPLICATIONS = 10, 3
DURATION, QUICK_DURATION = "60 s", "20 s"
QUICK = {"replications": QUICK_REPLICATIONS, "duration": QUICK_DURATION}


def _plan(key: str, title: str, **fields: Any) -> SweepPlan:
    """A sweep of this reproduction: its name, the path, REPLICATIONS runs of DURATION
    from seed 1, METRICS and the QUICK version around the sweep's own `fields` (set, zip,
    variants), in that order."""
    return SweepPlan(key, title, {"name": f"cellular-bufferbloat-{key}", "scenario": SCENARIO,
                                  "replications": REPLICATIONS, "seed": 1, "duration": DURATION, **fields,
                                  "metrics": METRICS, "quick": QUICK})


AQM = _plan("aqm", "CUBIC and BBRv1 over the deep DropTail buffer, CoDel and PIE, per trace",
    zip=TRACE_ZIP,
    variants={"queue": QUEUES, "cc": CCS})

# The seeds' remedies on a lossy cellular hop: 1 % random loss on the downlink (after the
# trace serves a packet, before the propagation delay), with no remedy, link-layer ARQ on
# that hop (Chockalingam et al. §II, as modern-cc runs it: 128-byte link packets, 8
# transmissions, in order) or ELN at the base station (Balakrishnan & Katz).
HOP_LOSS = 0.01
SCHEMES: Dict[str, Dict[str, Any]] = {
    "e2e": {},
    "arq": {f"{HOP}.link_layer": {"kind": "arq", "payload": "128 B", "attempts": 8}},
    "eln": {"agents": [{"kind": "eln", "node": "BS", "wireless_neighbor": "MH"}]},
}
LOSSY_HOP = _plan("lossy-hop", "ARQ and ELN on a lossy cellular hop (1 % loss), CUBIC and BBRv1, per trace",
    set={f"{HOP}.loss": {"model": "bernoulli", "p": HOP_LOSS}},
    zip=TRACE_ZIP,
    variants={"scheme": SCHEMES, "cc": CCS})

# The probe of every claim: the trace's capacity
# replaced by a constant rate at its mean (same buffer, same uplink trace), CUBIC over
# DropTail, CoDel and PIE.
CONSTANT_ZIP: Dict[str, Any] = {
    "trace": {"path": f"{HOP}.capacity.rate", "values": [f"{MEAN_BPS[t]} bps" for t in TRACES]},
    "uplink": TRACE_ZIP["uplink"],
    "buffer": TRACE_ZIP["buffer"],
}
PROBE_CONSTANT = _plan("probe-constant", "CUBIC over DropTail, CoDel and PIE on a constant-rate downlink at each "
                                            "trace's mean rate",
    set={f"{HOP}.capacity": {"kind": "constant", "rate": "1 Mbps"}},
    zip=CONSTANT_ZIP,
    variants={"queue": QUEUES, "cc": {"cubic": CCS["cubic"]}})

# The step on top of it: the uplink at a constant rate too, the .up trace's mean (its
# pauses of seconds, which hold the ACKs back and release them together, removed).
STEADY_ZIP: Dict[str, Any] = {
    "trace": CONSTANT_ZIP["trace"],
    "uplink": {"path": f"{HOP}.reverse_capacity.rate", "values": [f"{UP_MEAN_BPS[t]} bps" for t in TRACES]},
    "buffer": TRACE_ZIP["buffer"],
}
STEADY_SET: Dict[str, Any] = {f"{HOP}.capacity": {"kind": "constant", "rate": "1 Mbps"},
                              f"{HOP}.reverse_capacity": {"kind": "constant", "rate": "1 Mbps"}}
PROBE_STEADY = _plan("probe-steady", "CUBIC over DropTail, CoDel and PIE with both directions at constant rates, "
                                        "each the trace's mean",
    set=STEADY_SET,
    zip=STEADY_ZIP,
    variants={"queue": QUEUES, "cc": {"cubic": CCS["cubic"]}})

# PIE drops nothing early while at most 2 packets wait (RFC 8033 §4.1, Appendix A
# `drop_early`: `queue_.byte_length() <= 2 * MEAN_PKTSIZE`), so its queue cannot be held
# below 2 packets' transmission, which fits in QDELAY_REF = 15 ms (§5) only while one packet
# takes at most 7.5 ms: 1500-byte packets need 1.6 Mbit/s. The last step of PIE's probe
# sizes the segment so that a packet (with its 52 B of headers) takes 7.5 ms at the
# trace's mean rate, on the traces where 1448 B is too large.
PIE_TARGET_S = 0.015


def floor_mss(trace: str) -> int:
    """The largest segment (bytes) whose packet takes at most PIE's target ÷ 2 at the
    trace's mean rate, never above the path's 1448 B."""
    return min(MSS, int(MEAN_BPS[trace] * PIE_TARGET_S / 2 / 8) - HEADER_BYTES)


FLOOR_TRACES = [t for t in TRACES if floor_mss(t) < MSS]
PROBE_FLOOR = _plan("probe-floor", "CUBIC over PIE with both directions at constant rates and segments whose "
                                      "packets take half PIE's target, where 1448 B take longer",
    set=STEADY_SET,
    zip={**{k: {"path": v["path"], "values": [v["values"][TRACES.index(t)] for t in FLOOR_TRACES]}
               for k, v in STEADY_ZIP.items()},
            "mss": {"path": "flows.0.tcp.mss", "values": [f"{floor_mss(t)} B" for t in FLOOR_TRACES]}},
    variants={"queue": {"pie": QUEUES["pie"]}, "cc": {"cubic": CCS["cubic"]}})

SWEEPS: List[SweepPlan] = [AQM, LOSSY_HOP, PROBE_CONSTANT, PROBE_STEADY, PROBE_FLOOR]


def trace_name(value: str) -> str:
    """A row's trace as the figures and claims name it: "mahimahi:ATT-LTE-driving.down"
    (or the probes' downlink rate, mapped back) -> "ATT-LTE-driving"."""
    for t in TRACES:
        if value in (f"mahimahi:{t}.down", f"{MEAN_BPS[t]} bps"):
            return t
    return value


__all__ = ["AQM", "BOTTLENECK", "BUFFER_SECONDS", "CCS", "FLOOR_TRACES", "GOODPUT", "LOSSY_HOP", "MEAN_BPS", "METRICS",
           "MSS", "OWD_P95", "PIE_TARGET_S", "PROBE_CONSTANT", "PROBE_FLOOR", "PROBE_STEADY", "QUEUES", "RTT_P95", "SCHEMES", "SOJOURN_MEAN", "SOJOURN_P95", "SWEEPS", "TRACES",
           "UP_MEAN_BPS", "buffer_packets", "floor_mss", "trace_name"]
