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
8 × 7 × 10 (loss) + 8 × 3 × 2 × 10 (schemes) + 3 × 2 × 10 (aqm) = 1100 runs of 60 s:
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
DELAY_P95 = "owd_p95"  # one-way delay of the flow's data, p95 (Pantheon's delay axis)
SOJOURN_P95 = "sojourn_p95"  # the bottleneck queue's sojourn time, p95
BOTTLENECK = 2  # links.2 is BS -> MH (links are numbered per direction: S->BS, BS->S, BS->MH, MH->BS)
METRICS: Dict[str, str] = {
    GOODPUT: "flows.0.goodput_bps",
    "retransmits_fast": "flows.0.retransmits_fast",
    "retransmits_timeout": "flows.0.retransmits_timeout",
    SENT: "flows.0.segments_sent",
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
QUICK_LOSS_RATES: List[float] = [1e-3, 1e-2, 5e-2, 0.1]
REPLICATIONS, QUICK_REPLICATIONS = 10, 4
DURATION, QUICK_DURATION = "60 s", "20 s"

LINK_LOSS = "links.1.loss.p"  # the scenario file's second [[links]], BS -- MH (set paths count the file's links)

LOSS = SweepPlan("loss", "Every congestion control against random loss on the last hop", {
    "name": "modern-cc-loss",
    "scenario": SCENARIO,
    "replications": REPLICATIONS,
    "seed": 1,
    "duration": DURATION,
    "grid": {"p": {"path": LINK_LOSS, "values": LOSS_RATES}},
    "variants": {"cc": CCS},
    "metrics": METRICS,
    "quick": {"replications": QUICK_REPLICATIONS, "duration": QUICK_DURATION,
              "grid": {"p": {"path": LINK_LOSS, "values": QUICK_LOSS_RATES}}},
})

# The base-station agents of the seeds on the same path: none (end to end), ELN
# (Balakrishnan & Katz) and Snoop at BS, each with every control, at two loss rates.
# One channel here (Bernoulli); the seeds' Gilbert, Rayleigh + link-layer ARQ and the
# 802.11b WLAN are the same plan on their scenarios (left for later, see the docs page).
SCHEMES: Dict[str, Dict[str, Any]] = {
    "e2e": {},
    "eln": {"agents": [{"kind": "eln", "node": "BS", "wireless_neighbor": "MH"}]},
    "snoop": {"agents": [{"kind": "snoop", "node": "BS", "wireless_neighbor": "MH"}]},
}
SCHEME_LOSS_RATES = [0.01, 0.05]

SCHEMES_PLAN = SweepPlan("schemes", "Every congestion control with ELN and Snoop at the base station, Bernoulli loss", {
    "name": "modern-cc-schemes",
    "scenario": SCENARIO,
    "replications": REPLICATIONS,
    "seed": 1,
    "duration": DURATION,
    "grid": {"p": {"path": LINK_LOSS, "values": SCHEME_LOSS_RATES}},
    "variants": {"scheme": SCHEMES, "cc": CCS},
    "metrics": METRICS,
    "quick": {"replications": QUICK_REPLICATIONS, "duration": QUICK_DURATION},
})

# A deep buffer with no random loss: 240 packets at BS, 200 ms of queue at 10 Mbit/s,
# four times the path's 60-packet BDP, so DropTail keeps a standing queue of up to
# 200 ms; CoDel (RFC 8289: target 5 ms, interval 100 ms) and PIE (RFC 8033: target
# 15 ms) with the same packet limit. CUBIC is the claim's control; Reno runs beside it.
DEEP_BUFFER = 240
QUEUES: Dict[str, Dict[str, Any]] = {
    "droptail": {"links.1.queue": f"{DEEP_BUFFER} packets"},
    "codel": {"links.1.queue": {"kind": "codel", "limit": f"{DEEP_BUFFER} packets"}},
    "pie": {"links.1.queue": {"kind": "pie", "limit": f"{DEEP_BUFFER} packets"}},
}
AQM_CCS = {k: CCS[k] for k in ("cubic", "reno")}

AQM = SweepPlan("aqm", "A deep-buffer bottleneck: DropTail, CoDel and PIE with CUBIC (and Reno)", {
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

SWEEPS = [LOSS, SCHEMES_PLAN, AQM]

__all__ = ["AQM", "AQM_CCS", "BOTTLENECK", "CCS", "DELAY_P95", "GOODPUT", "LOSS", "LOSS_RATES", "METRICS",
           "QUEUES", "RETRANSMITS", "SCHEMES", "SCHEMES_PLAN", "SENT", "SOJOURN_P95", "SWEEPS"]
