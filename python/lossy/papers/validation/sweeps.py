"""The validation's sweeps: one lossy hop against the models, a wireless last hop with
and without ELN, ELN with the losses upstream, and one traced run of each scheme."""

from __future__ import annotations

from ...shipped import scenarios_dir
from ..model import SweepPlan
from .ns3 import WINDOWS

SCENARIOS = scenarios_dir()  # package data: found from any working directory

GOODPUT = "goodput"  # flows.0.goodput_bps: b/s (the models give bytes/s, hence their factor 8)
# A summary column of ELN runs only (Reno runs have no agent): NaN in Reno rows.
ELN_MARKED = "agents.0.eln_marked"

ONE_HOP = SweepPlan("one-hop", "Reno and NewReno against the throughput models", {
    "name": "validation-one-hop",
    "scenario": str(SCENARIOS / "one-hop.toml"),
    "replications": 20,
    "seed": 1,
    "duration": "1000 s",
    "grid": {"p": {"path": "links.0.loss.p",
                   "values": [0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05]}},
    "variants": {"variant": {"reno": {"flows.0.tcp.variant": "reno"},
                             "newreno": {"flows.0.tcp.variant": "newreno"}}},
    "metrics": {GOODPUT: "flows.0.goodput_bps", "rtt": "flows.0.rtt_mean_s"},
    # The quick version keeps every p (a claim's quick verdict cannot be "reproduced" on
    # part of its points) with shorter runs: 10 of 250 s cost what 5 of 500 s did and
    # give a tighter interval (a t quantile with 9 degrees of freedom instead of 4).
    "quick": {"replications": 10, "duration": "250 s"},
})

LAST_HOP = SweepPlan("last-hop", "Reno with and without ELN on a lossy wireless last hop", {
    "name": "validation-last-hop",
    "scenario": str(SCENARIOS / "last-hop.toml"),
    "replications": 20,
    "seed": 1,
    "duration": "100 s",
    "grid": {"wireless.p": {"path": "links.1.loss.p",
                            "values": [0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.08]}},
    "variants": {"scheme": {"reno": {"agents": []}, "eln": {}}},
    "metrics": {GOODPUT: "flows.0.goodput_bps", "eln_retransmits": "flows.0.retransmits_eln"},
    "quick": {"replications": 8,
              "grid": {"wireless.p": {"path": "links.1.loss.p", "values": [0.005, 0.01, 0.02, 0.05]}}},
})

UPSTREAM = SweepPlan("upstream", "ELN against Reno when the losses are upstream", {
    "name": "validation-upstream",
    "scenario": str(SCENARIOS / "last-hop.toml"),
    "replications": 5,
    "seed": 1,
    "duration": "100 s",
    "set": {"links.1.loss": {"model": "none"}, "links.0.loss": {"model": "bernoulli", "p": 0.02}},
    "grid": {"wired.p": {"path": "links.0.loss.p", "values": [0.01, 0.02]}},
    "variants": {"scheme": {"reno": {"agents": []}, "eln": {}}},
    "metrics": {GOODPUT: "flows.0.goodput_bps"},
    "quick": {"replications": 3},
})

# The ELN claims' probe: ELN's sender with the repair its analytic gain takes for granted
# (SACK, RFC 6675: several holes per round trip; a 16 MiB window, so no stall at the
# 32 KiB window while a resent segment is outstanding), against last-hop's Reno (the
# same runs as there), at the two loss rates the claims test.
IDEAL_ELN = SweepPlan("last-hop-ideal-eln", "Probe: ELN with SACK repair and a 16 MiB window against Reno", {
    "name": "validation-last-hop-ideal-eln",
    "scenario": str(SCENARIOS / "last-hop.toml"),
    "replications": 20,
    "seed": 1,
    "duration": "100 s",
    "grid": {"wireless.p": {"path": "links.1.loss.p", "values": [0.02, 0.05]}},
    "variants": {"scheme": {"reno": {"agents": []},
                            "eln": {"flows.0.tcp.variant": "sack", "flows.0.tcp.max_window": "16 MiB"}}},
    "metrics": {GOODPUT: "flows.0.goodput_bps", "timeouts": "flows.0.timeouts"},
    "quick": {"replications": 8},
})

# One run of each scheme at wireless p = 0.02 with its traces, for the time series and
# CDF figures (not for claims: one run says nothing about a mean).
TRACED = SweepPlan("traced", "One traced run of Reno and of ELN at wireless p = 0.02", {
    "name": "validation-traced",
    "scenario": str(SCENARIOS / "last-hop.toml"),
    "replications": 1,
    "seed": 1,
    "duration": "30 s",
    "set": {"links.1.loss.p": 0.02, "traces.throughput_interval": "100 ms"},
    "variants": {"scheme": {"reno": {"agents": []}, "eln": {}}},
    "traces": ["cwnd", "seq", "throughput"],
    "metrics": {GOODPUT: "flows.0.goodput_bps"},
    "quick": {"duration": "20 s"},
})

# SACK (RFC 6675) on ns3-compare's path beside ns-3 3.44 `--sack=1` (ns3.py): the same
# seven loss rates and two windows as its reference runs, 100 s each; 30 replications
# (ns-3 has 10), so that our side of the comparison is the tighter one.
NS3_SACK = SweepPlan("ns3-sack", "SACK on the ns-3 comparison path, two windows", {
    "name": "validation-ns3-sack",
    "scenario": str(SCENARIOS / "ns3-compare.toml"),
    "replications": 30,
    "seed": 1,
    "duration": "100 s",
    "set": {"flows.0.tcp.variant": "sack"},
    "grid": {"p": {"path": "links.1.loss.p", "values": [0, 0.001, 0.005, 0.01, 0.02, 0.05, 0.1]}},
    "variants": {"window": {name: {"flows.0.tcp.max_window": f"{size} B"} for name, size in WINDOWS.items()}},
    "metrics": {GOODPUT: "flows.0.goodput_bps", "timeouts": "flows.0.timeouts"},
    "quick": {"replications": 10},
})

# Bursts of losses (Gilbert–Elliott: a burst every 200 packets, 1/0.3 ≈ 3.3 long) and
# independent ones, on the same path with the 32 KB window, for every recovery.
RECOVERIES = {v: {"flows.0.tcp.variant": v} for v in ["reno", "newreno", "sack", "sack1"]}
SACK_LOSSES = SweepPlan("sack-losses", "Reno, NewReno, SACK and ns-2's Sack1 under bursty and independent losses", {
    "name": "validation-sack-losses",
    "scenario": str(SCENARIOS / "ns3-compare.toml"),
    "replications": 30,
    "seed": 1,
    "duration": "60 s",
    "set": {"flows.0.tcp.max_window": "32768 B"},
    "variants": {"losses": {"bursty": {"links.1.loss": {"model": "gilbert_elliott", "p": 0.005, "r": 0.3}},
                            "p = 0.01": {"links.1.loss": {"model": "bernoulli", "p": 0.01}},
                            "p = 0.03": {"links.1.loss": {"model": "bernoulli", "p": 0.03}}},
                 "variant": RECOVERIES},
    "metrics": {GOODPUT: "flows.0.goodput_bps", "timeouts": "flows.0.timeouts"},
    "quick": {"replications": 20},
})

# The sack-bursty claim's probe: tests/sack.rs's own runs, the bursty path with seeds 1 to
# 10 at replication 0 (a sweep draws its replications from one master seed, so each of
# that test's seeds is a sweep of one replication).
SACK_RS_SEEDS = range(1, 11)
SACK_RS_RUNS = [SweepPlan(f"sack-rs-seed-{seed}", f"Probe: tests/sack.rs's bursty run with seed {seed}", {
    "name": f"validation-sack-rs-seed-{seed}",
    "scenario": str(SCENARIOS / "ns3-compare.toml"),
    "replications": 1,
    "seed": seed,
    "duration": "60 s",
    "set": {"flows.0.tcp.max_window": "32768 B"},
    "variants": {"losses": {"bursty": {"links.1.loss": {"model": "gilbert_elliott", "p": 0.005, "r": 0.3}}},
                 "variant": RECOVERIES},
    "metrics": {GOODPUT: "flows.0.goodput_bps", "timeouts": "flows.0.timeouts"},
}) for seed in SACK_RS_SEEDS]

# A slow-start overshoot: no random loss, 16 MiB window, the 100-packet queue at BS
# overflows (deterministic: one run each).
OVERSHOOT = SweepPlan("overshoot", "A slow-start overshoot of the queue, NewReno against SACK", {
    "name": "validation-overshoot",
    "scenario": str(SCENARIOS / "ns3-compare.toml"),
    "replications": 1,
    "seed": 1,
    "duration": "20 s",
    "set": {"links.1.loss": {"model": "none"}},
    "variants": {"variant": {v: RECOVERIES[v] for v in ["newreno", "sack", "sack1"]}},
    "metrics": {GOODPUT: "flows.0.goodput_bps", "timeouts": "flows.0.timeouts",
                "queue_drops": "links.2.queue_drops"},
})

SWEEPS = [ONE_HOP, LAST_HOP, UPSTREAM, TRACED, NS3_SACK, SACK_LOSSES, OVERSHOOT, IDEAL_ELN, *SACK_RS_RUNS]
