"""modern-cc's sweeps: every congestion control against random loss on a lossy last hop
(`loss`), the same controls with a base-station agent (`schemes`), and a deep-buffer
bottleneck under DropTail, CoDel and PIE (`aqm`).

The congestion controls are one list (CCS): a control the core does not have yet is one
entry there, and its runs fail with the core's own one-line error ("flows.0.tcp.cc:
"bbr3" is not allowed; use one of ..."), which the claims protocol turns into "could not
be checked" with that line (model.failed_runs), never a crash.

Size (measured on this machine, 2 cores, with the core of main): one 60 s run of the
path at 10 Mbit/s costs 0.06 s of core CPU at p = 1e-4 and less at higher p (fewer
packets); a sweep's run costs about 0.1 s with its worker's share. The full scale is
8 × 7 × 10 (loss) + 8 × 3 × 2 × 10 (schemes) + 3 × 2 × 10 (aqm) = 1100 runs of 60 s
(at first; see the plans below for today's sizes):
about 2 minutes at 0.2 s a run (twice today's cost, for pacing), under the 5 minutes
issue 29 sets. Measured: the full scale on a trial merge of the delay, cubic, bbr and
vegas branches (bbr3, codel and pie runs failing at once) took 90 s of wall time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

from ..model import SweepPlan

SCENARIO = str(Path(__file__).with_name("lossy_last_hop.toml"))  # package data, found from any directory

# The metrics every sweep records. The delay percentiles are the per-flow and per-link
# columns of issue 29's delay metrics (flows.N.owd_p95_ms, links.N.sojourn_p95_ms;
# branch i29-delay): change the names here, once, if they move.
GOODPUT = "goodput"
RETRANSMITS = ("retransmits_fast", "retransmits_timeout")
SENT = "segments_sent"
TIMEOUTS, RECOVERIES, RTO_FINAL = "timeouts", "fast_recoveries", "rto_final"  # the BBR probe's counters
DELAY_P95 = "owd_p95"  # one-way delay of the flow's data, p95 (Pantheon's delay axis)
SOJOURN_P95 = "sojourn_p95"  # the bottleneck queue's sojourn time, p95
BOTTLENECK = 2  # links.2 is BS -> MH (links are numbered per direction: S->BS, BS->S, BS->MH, MH->BS)
METRICS: Dict[str, str] = {
    GOODPUT: "flows.0.goodput_bps",
    "retransmits_fast": "flows.0.retransmits_fast",
    "retransmits_timeout": "flows.0.retransmits_timeout",
    SENT: "flows.0.segments_sent",
    TIMEOUTS: "flows.0.timeouts",
    RECOVERIES: "flows.0.fast_recoveries",
    RTO_FINAL: "flows.0.rto_final_s",
    "rtt_mean": "flows.0.rtt_mean_s",
    DELAY_P95: "flows.0.owd_p95_ms",
    SOJOURN_P95: f"links.{BOTTLENECK}.sojourn_p95_ms",
}

# Each congestion control as the scenario fields it sets: Reno, NewReno and SACK are
# loss recoveries under Reno's window rule (tcp.variant, cc "reno"); the others are
# tcp.cc with SACK recovery, as Linux pairs them. One list: a new control is one line.
CCS: Dict[str, Dict[str, Any]] = {
    "reno": {"flows.0.tcp.variant": "reno"},
    "newreno": {"flows.0.tcp.variant": "newreno"},
    "sack": {"flows.0.tcp.variant": "sack"},
    "cubic": {"flows.0.tcp.variant": "sack", "flows.0.tcp.cc": "cubic"},
    "bbr": {"flows.0.tcp.variant": "sack", "flows.0.tcp.cc": "bbr"},
    "bbr3": {"flows.0.tcp.variant": "sack", "flows.0.tcp.cc": "bbr3"},
    "vegas": {"flows.0.tcp.variant": "sack", "flows.0.tcp.cc": "vegas"},
    "westwood": {"flows.0.tcp.variant": "sack", "flows.0.tcp.cc": "westwood"},
}

LOSS_RATES: List[float] = [1e-4, 1e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2]
# The quick run keeps every p (the claims have parts at each), with fewer and shorter runs:
# a quick grid without p = 0.02 left bbr-above-loss-based inconclusive for a missing part.
QUICK_LOSS_RATES: List[float] = LOSS_RATES
REPLICATIONS, QUICK_REPLICATIONS = 10, 4
# BBRv1 at p = 0.05 swings with its timeouts: with 4 or 8 runs of 20 s the quick run left
# bbr-above-loss-based inconclusive (BBR ÷ CUBIC 95 % CI 1.84× to 9.12× with 8); 12 decide
# it as the full run does (measured), at a third of the full loss sweep's cost.
QUICK_LOSS_REPLICATIONS = 12
# The full loss sweep runs 20: with 10 its bbr3-at-1pc was inconclusive (retransmission
# rate v3 ÷ v1 0.89×, 95 % CI 0.75× to 1.02×, "about 15 replications would decide it")
# where the quick run's 12 short runs decided it; the full scale must be the more decisive.
LOSS_REPLICATIONS = 20
DURATION, QUICK_DURATION = "60 s", "20 s"

LINK_LOSS = "links.1.loss.p"  # the scenario file's second [[links]], BS -- MH (set paths count the file's links)

LOSS = SweepPlan("loss", "Every congestion control against random loss on the last hop", {
    "name": "modern-cc-loss",
    "scenario": SCENARIO,
    "replications": LOSS_REPLICATIONS,
    "seed": 1,
    "duration": DURATION,
    "grid": {"p": {"path": LINK_LOSS, "values": LOSS_RATES}},
    "variants": {"cc": CCS},
    "metrics": METRICS,
    "quick": {"replications": QUICK_LOSS_REPLICATIONS, "duration": QUICK_DURATION,
              "grid": {"p": {"path": LINK_LOSS, "values": QUICK_LOSS_RATES}}},
})

# The seeds' remedies on the seeds' channels, every control: no remedy (e2e), ELN
# (Balakrishnan & Katz, as Chen et al. §2.2 run it) or Snoop at the base station, or
# link-layer ARQ on the last hop (Chockalingam et al. §II: segmentation into 128-byte link
# packets, NAK-based selective repeat, 8 transmissions each, in-order delivery).
# The channels, each at about 2 % packet loss so they differ in how losses fall, not in
# how many: Bernoulli p = 0.02; Gilbert–Elliott with a burst every 1/0.006 ≈ 167 packets
# 1/0.3 ≈ 3.3 packets long (the validation's bursty channel, scaled to 2 %: stationary
# loss 0.006/0.306 = 1.96 %); Rayleigh fading at 25 dB mean SNR, f_d = 10 Hz, BPSK
# (Chockalingam et al.'s channel; at 10 Mbit/s a 1042-byte packet is lost in about 2 %
# of slots, measured: SACK resent 1.8 % of its segments).
SCHEMES: Dict[str, Dict[str, Any]] = {
    "e2e": {},
    "eln": {"agents": [{"kind": "eln", "node": "BS", "wireless_neighbor": "MH"}]},
    "snoop": {"agents": [{"kind": "snoop", "node": "BS", "wireless_neighbor": "MH"}]},
    "arq": {"links.1.link_layer": {"kind": "arq", "payload": "128 B", "attempts": 8}},
}
CHANNELS: Dict[str, Dict[str, Any]] = {
    "bernoulli": {"links.1.loss": {"model": "bernoulli", "p": 0.02}},
    "gilbert": {"links.1.loss": {"model": "gilbert_elliott", "p": 0.006, "r": 0.3}},
    "rayleigh": {"links.1.loss": {"model": "rayleigh", "mean_snr_db": 25, "doppler_hz": 10}},
}

CHANNELS_PLAN = SweepPlan("channels", "Every congestion control with ELN, Snoop or link-layer ARQ on the seeds' "
                                      "Bernoulli, Gilbert and Rayleigh channels", {
    "name": "modern-cc-channels",
    "scenario": SCENARIO,
    "replications": REPLICATIONS,
    "seed": 1,
    "duration": DURATION,
    "variants": {"channel": CHANNELS, "scheme": SCHEMES, "cc": CCS},
    "metrics": METRICS,
    "quick": {"replications": QUICK_REPLICATIONS, "duration": QUICK_DURATION},
})

# The seeds' 802.11b WLAN as the last hop (wlan_last_hop.toml: Shagdar et al.'s 2 Mbit/s
# DCF with RTS/CTS and DPSK errors) at 10 dB, where a frame often fails but the MAC's 4
# attempts deliver most (at 9 dB every control stalls, at 11 dB hardly a frame is lost:
# measured). The MAC's retries are the link-layer ARQ here; "no-arq" turns them off (one
# attempt per frame) to show what they buy.
WLAN_SCENARIO = str(Path(__file__).with_name("wlan_last_hop.toml"))
WLAN_BOTTLENECK = 2  # links.2 is the WLAN's BS -> MH port (after S->BS, BS->S)
WLAN_SCHEMES: Dict[str, Dict[str, Any]] = {
    "e2e": {},
    "eln": SCHEMES["eln"],
    "snoop": SCHEMES["snoop"],
    "no-arq": {"wlans.0.long_retry_limit": 1, "wlans.0.short_retry_limit": 1},
}
WLAN = SweepPlan("wlan", "Every congestion control over the seeds' 802.11b WLAN at 10 dB, with ELN, Snoop or "
                         "without the MAC's retries", {
    "name": "modern-cc-wlan",
    "scenario": WLAN_SCENARIO,
    "replications": REPLICATIONS,
    "seed": 1,
    "duration": DURATION,
    "variants": {"scheme": WLAN_SCHEMES, "cc": CCS},
    "metrics": {k: v for k, v in METRICS.items() if k != SOJOURN_P95},
    "quick": {"replications": QUICK_REPLICATIONS, "duration": QUICK_DURATION},
})

# A deep buffer with no random loss: 240 packets at BS, 200 ms of queue at 10 Mbit/s,
# four times the path's 60-packet BDP, so DropTail keeps a standing queue of up to
# 200 ms; CoDel (RFC 8289: target 5 ms, interval 100 ms) and PIE (RFC 8033: target
# 15 ms) with the same packet limit. CUBIC is aqm-cut-delay's control, BBRv1 and BBRv3
# bbr-deep-buffer's (against CUBIC under DropTail); Reno runs beside them.
DEEP_BUFFER = 240
QUEUES: Dict[str, Dict[str, Any]] = {
    "droptail": {"links.1.queue": f"{DEEP_BUFFER} packets"},
    "codel": {"links.1.queue": {"kind": "codel", "limit": f"{DEEP_BUFFER} packets"}},
    "pie": {"links.1.queue": {"kind": "pie", "limit": f"{DEEP_BUFFER} packets"}},
}
AQM_CCS = {k: CCS[k] for k in ("cubic", "reno", "bbr", "bbr3")}

AQM = SweepPlan("aqm", "A deep-buffer bottleneck: DropTail, CoDel and PIE with CUBIC, Reno, BBRv1 and BBRv3", {
    "name": "modern-cc-aqm",
    "scenario": SCENARIO,
    "replications": REPLICATIONS,
    "seed": 1,
    "duration": DURATION,
    "set": {"links.1.loss": {"model": "none"}},
    "variants": {"queue": QUEUES, "cc": AQM_CCS},
    "metrics": METRICS,
    "quick": {"replications": QUICK_REPLICATIONS, "duration": QUICK_DURATION},
})

# The probe of bbr-full-rate's gap (claims.py): BBRv1 at the p where it falls short, with
# the retransmission timer never backed off (max_rto = min_rto = 200 ms), so a lost
# retransmission costs one 200 ms timeout and its go-back-N, not a doubled timer kept
# doubled until a fresh RTT sample (RFC 6298 §5.5 and §5.7, Karn's rule).
PROBE_PS = [2e-2, 5e-2, 0.1]
PROBE_NO_BACKOFF = SweepPlan("probe-no-backoff", "BBRv1 with the retransmission timer never backed off", {
    "name": "modern-cc-probe-no-backoff",
    "scenario": SCENARIO,
    "replications": REPLICATIONS,
    "seed": 1,
    "duration": DURATION,
    "set": {"flows.0.tcp.max_rto": "200 ms"},
    "grid": {"p": {"path": LINK_LOSS, "values": PROBE_PS}},
    "variants": {"cc": {"bbr": CCS["bbr"]}},
    "metrics": METRICS,
    "quick": {"replications": QUICK_REPLICATIONS, "duration": QUICK_DURATION},
})

# The second step of that probe: the same runs with the SACK scoreboard kept across a
# timeout (tcp.sack_after_timeout = "keep"; RFC 6675 §5.1 allows it, Linux and ns-3 keep
# it), so the go-back-N after a timeout skips what the receiver had SACKed.
PROBE_KEEP_SACK = SweepPlan("probe-keep-sack", "BBRv1 with the timer never backed off and the SACK scoreboard "
                                               "kept across a timeout", {
    **PROBE_NO_BACKOFF.spec,
    "name": "modern-cc-probe-keep-sack",
    "set": {**PROBE_NO_BACKOFF.spec["set"], "flows.0.tcp.sack_after_timeout": "keep"},
})

# The probe of aqm-cut-delay's gap (claims.py): the same queues with half the buffer, 120
# packets (100 ms at 10 Mbit/s, two BDPs), so DropTail's standing queue is half as long
# while the AQMs' targets stay where they are.
HALF_BUFFER = DEEP_BUFFER // 2
PROBE_HALF_BUFFER = SweepPlan("probe-half-buffer", "DropTail, CoDel and PIE with CUBIC on a 120-packet buffer", {
    "name": "modern-cc-probe-half-buffer",
    "scenario": SCENARIO,
    "replications": REPLICATIONS,
    "seed": 1,
    "duration": DURATION,
    "set": {"links.1.loss": {"model": "none"}},
    "variants": {"queue": {"droptail": {"links.1.queue": f"{HALF_BUFFER} packets"},
                           **{q: {"links.1.queue": {"kind": q, "limit": f"{HALF_BUFFER} packets"}}
                              for q in ("codel", "pie")}},
                 "cc": {"cubic": CCS["cubic"]}},
    "metrics": METRICS,
    "quick": {"replications": QUICK_REPLICATIONS, "duration": QUICK_DURATION},
})

SWEEPS = [LOSS, CHANNELS_PLAN, WLAN, AQM, PROBE_NO_BACKOFF, PROBE_KEEP_SACK, PROBE_HALF_BUFFER]

__all__ = ["AQM", "AQM_CCS", "BOTTLENECK", "CCS", "CHANNELS", "CHANNELS_PLAN", "DELAY_P95", "GOODPUT", "LOSS",
           "LOSS_RATES", "METRICS", "PROBE_HALF_BUFFER", "PROBE_KEEP_SACK", "PROBE_NO_BACKOFF", "PROBE_PS", "QUEUES", "RECOVERIES", "RETRANSMITS", "RTO_FINAL",
           "SCHEMES", "SENT", "SOJOURN_P95", "SWEEPS", "TIMEOUTS", "WLAN", "WLAN_SCHEMES"]
